"""A table's settings, chosen at creation: the turn clock, the level of the bot that plays for
an absent person, hints, the casual house rule *undo*, whether the table is listed in the
public lobby, and what its chat allows (``"presets"``: preset phrases only, the default;
``"free"``: free text too; canasta.web.play.chat).

They are stored with the table (``canasta_tables.settings``, JSON) and sent to every client in
the state message (``"settings"``). :func:`parse_settings` checks a creation request's values
and refuses a bad one with a message naming it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from canasta.bots import BOTS, parse_spec

#: The levels the lobby offers, weakest first (canasta.bots.registry names; the page shows
#: them by their catalogue names ``ui.level_<name>``).
LEVELS = ("easy", "medium", "hard", "expert")
DEFAULT_LEVEL = "hard"
#: Seconds of a turn clock: 0 (off) or within these bounds.
MIN_CLOCK = 1
MAX_CLOCK = 3600
#: What a table's chat allows: preset phrases only, or free text as well (the host's choice).
CHAT_MODES = ("presets", "free")


class SettingsError(ValueError):
    """A setting of a creation request that cannot be used (the message names it)."""


class BotSpecError(SettingsError):
    """A bot spec the registry refuses (the message names the field and the bad part)."""


def default_level() -> str:
    """The level of a bot when a request names none: medium, or the first bot known."""
    return DEFAULT_LEVEL if DEFAULT_LEVEL in BOTS else next(iter(BOTS))


def check_level(value: Any, where: str) -> str:
    """``value`` as a bot: a level, or any spec the registry accepts (``hard:seed=3``,
    ``expert:time=0.5``); None or "": the default.

    Raises:
        BotSpecError: not a string, or a spec :func:`canasta.bots.parse_spec` refuses (the
            message names the bad part and the choices).
    """
    if value in (None, ""):
        return default_level()
    if not isinstance(value, str):
        raise BotSpecError(f"{where}: a bot spec such as {default_level()!r} "
                            f"(levels: {', '.join(LEVELS)})")
    try:
        parse_spec(value)
    except ValueError as exc:
        raise BotSpecError(f"{where}: {exc}") from None
    return value


@dataclass(frozen=True)
class TableSettings:
    """Attributes:
        clock: seconds a person has for a turn, 0 when there is no clock. When it runs out,
            a bot of ``level`` plays the seat until the person comes back.
        level: the level of that bot (and of a bot playing a seat whose person has been
            disconnected for a while; see ``TableManager.away_after``).
        hints: the Hint button is offered.
        undo: the house rule undo (own melds and lay-offs of the turn, before the discard).
        public: the table is listed in the lobby while it has a free seat.
        chat: ``"presets"`` (preset phrases only) or ``"free"`` (free text too), chosen by
            the host; a rated or tournament table has presets only (canasta.web.play.chat).
        rematch: the id of the table of the rematch, once one is asked for.
        hands: hands the match lasts (0: until a side reaches the target); a duplicate
            tournament's tables play its deals of the round and stop.
        tournament: the id of the duplicate tournament the table belongs to (None: none);
            its hands are dealt from the tournament's deals
            (:mod:`canasta.web.tournaments`).
    """

    clock: float = 0
    level: str = DEFAULT_LEVEL
    hints: bool = True
    undo: bool = False
    public: bool = False
    rematch: str | None = None
    chat: str = "presets"
    hands: int = 0
    tournament: str | None = None

    def to_json(self) -> dict[str, Any]:
        # field by field: dataclasses.asdict deep-copies, and every message carries these
        out: dict[str, Any] = {"clock": self.clock, "level": self.level, "hints": self.hints,
                               "undo": self.undo, "public": self.public,
                               "rematch": self.rematch, "chat": self.chat}
        if self.tournament:  # a tournament's table only: other tables read as before
            out["hands"] = self.hands
            out["tournament"] = self.tournament
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> TableSettings:
        """The settings stored with a table (missing keys: the defaults, for tables made
        before a setting existed)."""
        data = dict(data or {})
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        return cls(**known)


def _flag(spec: dict[str, Any], key: str, default: bool) -> bool:
    value = spec.get(key, default)
    if not isinstance(value, bool):
        raise SettingsError(f"'{key}' must be true or false")
    return value


def parse_settings(spec: dict[str, Any]) -> TableSettings:
    """The settings of a creation request (``clock``, ``level``, ``hints``, ``undo``,
    ``public``, ``chat``; all optional).

    Raises:
        SettingsError: a value of the wrong type or out of range.
    """
    clock = spec.get("clock", 0)
    if clock is None:
        clock = 0
    if not isinstance(clock, (int, float)) or isinstance(clock, bool) or clock != clock or (
            clock != 0 and not MIN_CLOCK <= clock <= MAX_CLOCK):
        raise SettingsError(f"'clock' must be 0 (no clock) or seconds from {MIN_CLOCK} to "
                            f"{MAX_CLOCK}")
    chat = spec.get("chat", "presets")
    if chat not in CHAT_MODES:
        raise SettingsError("'chat' must be \"presets\" (preset phrases only) or \"free\" "
                            "(free text too)")
    return TableSettings(
        chat=chat,
        clock=clock,
        level=check_level(spec.get("level"), "'level'"),
        hints=_flag(spec, "hints", True),
        undo=_flag(spec, "undo", False),
        public=_flag(spec, "public", False),
    )
