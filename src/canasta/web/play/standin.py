"""The bot that stands in for a person: when a rival may hand a person's seat to a bot, and
how the server's log says what that bot did.

A person's seat goes to a bot in three ways: its person gives it away (any level, at once);
the turn clock or the away time runs out on its turn (canasta.web.play.clock); or another player
at the table asks for it, which is allowed only once nobody has been connected to the seat
for the grace period (``--away-after``), and then only at the level the table set for absent
players (``TableSettings.level``), never one the asker chooses: a rival cannot have a
weak bot play an opponent's cards, nor take a seat whose phone merely locked its screen.
Everything such a bot does is marked in every log (``Game.by_bot``,
:func:`canasta.i18n.events.stand_in_entry`).
"""

from __future__ import annotations

import logging
import time

from canasta.web.play.seats import Seat, Table
from canasta.web.protocol.errors import WebError

log = logging.getLogger("canasta.web")


def absent_for(table: Table, seat: Seat, now: float | None = None) -> float | None:
    """Seconds since the last connection to ``seat`` closed (or the server took the table
    up), or None while someone is connected to it (here or in another process)."""
    if table.connected(seat.seat) > 0:
        return None
    return (time.monotonic() if now is None else now) - seat.gone_since


def check_absent(table: Table, seat: Seat, level: str, grace: float) -> None:
    """Refuse a request from another seat to hand ``seat`` to a bot of ``level`` unless
    its person has been away for ``grace`` seconds and ``level`` is the table's.

    Raises:
        WebError: ``not-allowed``, naming what is missing.
    """
    away = absent_for(table, seat)
    if away is None:
        raise WebError("not-allowed", f"{seat.name} is at the table")
    if away < grace:
        raise WebError("not-allowed",
                       f"{seat.name} has been away for {away:.0f} s: a bot may play for "
                       f"them after {grace:.0f} s")
    if level != table.settings.level:
        raise WebError("not-allowed",
                       f"a bot plays for an absent person at the table's level "
                       f"({table.settings.level}), not one another player chooses")


def log_stand_in(table: Table, seat: Seat, texts: list[str]) -> None:
    """The server's log line of moves a bot made for ``seat``'s person."""
    log.info("table %s: bot for %s: %s", table.id, seat.name, "; ".join(texts))
