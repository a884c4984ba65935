"""The bots that play at a live table: which seat a bot plays now, and the task that plays
it, one move at a time, for the table service (:class:`canasta.web.play.service.TableService`
inherits :class:`BotPlay`).

A bot thinks outside the table's lock: it moves only if the table is still at the version it
looked at, so a person taking the seat back meanwhile wins. Only the process that holds the
table's lease plays its bots, and only while a person seated there is present
(:func:`canasta.web.protocol.ratelimit.people_present`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

from canasta.bots import make_bot
from canasta.core.actions import Action
from canasta.web.play.seats import Table
from canasta.web.play.standin import log_stand_in
from canasta.web.protocol.errors import WebError
from canasta.web.protocol.ratelimit import people_present

log = logging.getLogger("canasta.web")
T = TypeVar("T")


class BotPlay:
    """The bots' part of the table service: what it reads of the service is declared here,
    and the service defines it."""

    #: Seconds a table's bots play on once no person seated there is present.
    idle_after: float
    #: Seconds a bot waits before each move.
    bot_delay: float
    tables: dict[str, Table]
    stats: dict[str, int]

    async def engine(self, table: Table, fn: Callable[..., T], *args: Any,
                     bot: bool = False) -> T:
        """Engine work for ``table`` (the service's)."""
        raise NotImplementedError

    async def _commit(self, table: Table, seat: int, actions: list[Action]) -> None:
        """Apply, store and broadcast ``actions`` (the service's)."""
        raise NotImplementedError

    async def _mark_stand_in(self, table: Table, first: int, last: int) -> None:
        """Store that the moves of versions ``first`` to ``last`` were made by a bot standing
        in for the seat's person (the service's)."""
        raise NotImplementedError

    def _bot_seat(self, table: Table) -> int | None:
        state = table.game.state
        if state.is_over or not table.owned or table.status != "playing" or table.paused:
            return None
        # a tournament's table plays on without its people: the round must end
        if not table.settings.tournament and not people_present(table, self.idle_after):
            return None
        seat = table.seats[state.actor]
        return seat.seat if seat.controller == "bot" else None

    def note_presence(self, table: Table) -> None:
        """A person seated at ``table`` made a request: bots left waiting play again."""
        table.last_person = time.monotonic()
        self._kick(table)

    def _kick(self, table: Table) -> None:
        if table.bot_task is not None and not table.bot_task.done():
            return
        if self._bot_seat(table) is None:
            return
        table.bot_task = asyncio.create_task(self._run_bots(table))

    async def _run_bots(self, table: Table) -> None:
        while True:
            await asyncio.sleep(self.bot_delay)
            async with table.lock:
                seat = self._bot_seat(table)
                if seat is None or self.tables.get(table.id) is not table:
                    return
                bot = table.seats[seat].bot or make_bot(table.seats[seat].level)
                table.seats[seat].bot = bot
                seen = table.version
                try:
                    view = await self.engine(table, table.game.view, seat)
                except WebError:
                    return  # paused
            # the bot thinks in a thread, without the lock: the server keeps answering
            try:
                action = await self.engine(table, bot.choose, view, bot=True)
            except WebError:
                return  # paused
            except Exception:
                log.exception("table %s: bot of seat %d failed; it plays a legal move",
                              table.id, seat)
                action = view.legal_actions[0]
            async with table.lock:
                if table.version != seen or self._bot_seat(table) != seat:
                    continue  # the table moved on (a person took the seat back): look again
                try:
                    try:
                        await self._commit(table, seat, [action])
                    except WebError as exc:
                        if exc.code != "illegal":
                            raise
                        log.error("table %s: illegal bot move %s", table.id, action.text())
                        await self._commit(table, seat, [view.legal_actions[0]])
                    self.stats["bot_moves"] += 1
                    if table.seats[seat].kind == "human":
                        log_stand_in(table, table.seats[seat], [action.text()])
                        # stored, so that the match record says which hands a bot played
                        await self._mark_stand_in(table, seen + 1, table.version)
                except WebError as exc:
                    if exc.code == "stale":
                        continue
                    if exc.code != "paused":
                        log.error("table %s: bot move refused: %s", table.id, exc.message)
                    return
