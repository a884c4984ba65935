"""A live table in the server's memory: its seats (who plays each, the bot that plays for an
absent person), its connections, and the state message each seat receives.

A seat is created ``human``, ``bot`` or ``open`` (a free seat of a public table, played by a
bot until a person takes it from the lobby). ``controller`` says who plays it now; ``away``
marks a person's seat that a bot plays because their turn clock ran out or they have been
disconnected for a while (canasta.web.play.clock): the person takes it back by coming back.
The state message's ``clock`` is the :class:`Countdown` of the turn waiting: the one that
decides when a bot steps in, the same for every seat and spectator.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import time
from dataclasses import dataclass, field
from typing import Any

from canasta.bots import Bot
from canasta.core.undo import TurnMark
from canasta.web.play.connections import Connection
from canasta.web.play.game import Game
from canasta.web.play.settings import TableSettings
from canasta.web.protocol.errors import WebError
from canasta.web.storage.models import SeatData

__all__ = ["MAX_NAME", "UNCLAIMED", "Connection", "Countdown", "Seat", "Table", "hash_token"]

MAX_NAME = 24
#: The token hash of a rematch's human seat until its player asks for the new link: no
#: token hashes to it (a hash is 64 hex digits), so no link opens the seat meanwhile.
UNCLAIMED = "unclaimed"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class Seat:
    seat: int
    kind: str            # as created: "human", "bot" or "open"
    controller: str      # who plays it now: "human" or "bot"
    level: str
    name: str
    token_hash: str | None
    away: bool = False   # a bot plays while the person is away
    connections: int = 0
    bot: Bot | None = None
    #: time.monotonic() when the last connection of this seat closed (or the server
    #: started): how long the person has been away.
    gone_since: float = field(default_factory=time.monotonic)

    def to_data(self) -> SeatData:
        return SeatData(self.seat, self.kind, self.controller, self.level, self.name,
                        self.token_hash, self.away)


@dataclass(frozen=True)
class Countdown:
    """When a bot steps in for the person to act, unless they move or come back first
    (canasta.web.play.clock): the earlier of the turn clock and the away time.

    Attributes:
        seat: the seat to act.
        due: when it runs out (time.monotonic()).
        seconds: its whole length (the table's clock, or the away time).
        away: it is the away time (the person has no connection open), not the turn clock.
    """

    seat: int
    due: float
    seconds: float
    away: bool

    def to_json(self, now: float | None = None) -> dict[str, Any]:
        left = max(0.0, self.due - (time.monotonic() if now is None else now))
        return {"seat": self.seat, "seconds": self.seconds, "remaining": round(left, 2),
                "away": self.away}


@dataclass
class Table:
    id: str
    variant: str
    options: dict[str, Any]
    players: int
    team_size: int | None
    version: int
    status: str
    seats: list[Seat]
    game: Game
    settings: TableSettings = field(default_factory=TableSettings)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[Connection] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    #: the turn clock (canasta.web.play.clock): which turn it runs for, and when it runs out
    clock_turn: tuple[int, int, int] | None = None
    clock_deadline: float | None = None
    #: what every seat and spectator is shown: the countdown that decides (None: none runs)
    countdown: Countdown | None = None
    clock_task: asyncio.Task[None] | None = None
    #: where the seat to act may rewind its turn to (house rule undo)
    undo_mark: TurnMark | None = None
    #: this process holds the table's lease: it plays its bots and runs its clock
    owned: bool = False
    #: when the table last moved (time.time(), the server's clock), sent as ``"at"``
    changed_at: float = 0.0
    #: connections to each seat held by other processes: {process: [count per seat]}
    remote: dict[str, list[int]] = field(default_factory=dict)
    #: actions the seat to act has made in its current turn (the cap per turn)
    turn_actions: int = 0
    #: time.monotonic() of the last use (tables nobody uses leave the memory)
    used: float = field(default_factory=time.monotonic)
    #: an engine call for this table ran past its budget and has not returned: nothing
    #: touches the match until it does (canasta.web.play.engine)
    paused: bool = False
    #: the state messages are to be sent again (canasta.web.play.service: one sender per table)
    dirty: bool = False
    sender: asyncio.Task[None] | None = None
    #: time.monotonic() of the last request of a person seated here (or of the table's
    #: creation or loading): its bots wait once nobody attends (canasta.web.protocol.ratelimit)
    last_person: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        self.sync_stand_ins()

    def sync_stand_ins(self) -> None:
        """Tell the match which seats a bot plays for their person (after any change of who
        plays a seat, or of the match): their moves are marked in the logs."""
        self.game.stand_ins = frozenset(s.seat for s in self.seats
                                        if s.kind == "human" and s.controller == "bot")

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def connected(self, seat: int) -> int:
        """Connections to ``seat``, in this process and in the others."""
        return self.seats[seat].connections + sum(c[seat] for c in self.remote.values()
                                                  if seat < len(c))

    def turn(self) -> str:
        """Who the table waits for: ``"bot"``, ``"human"``, ``"deal"`` (the next hand)
        or ``"over"`` (stored with every change, so that bots resume without loading every
        table)."""
        if self.status != "playing" or self.match_over:
            return "over"
        state = self.game.state
        if state.is_over:
            return "deal"
        return "bot" if self.seats[state.actor].controller == "bot" else "human"

    @property
    def match_over(self) -> bool:
        """The match is over: a side reached the target, or the table has played the hands
        it was made for (``settings.hands``, a duplicate tournament's deals)."""
        return self.game.match.is_over or self.hands_done

    @property
    def hands_done(self) -> bool:
        """The table was made for ``settings.hands`` hands and has finished them all."""
        limit = self.settings.hands
        match = self.game.match
        return bool(limit) and len(match.hands) >= limit and bool(match.record.sheets)

    def seat_of(self, token: Any) -> int:
        """The seat whose token this is.

        Raises:
            WebError: ``spectator`` with no token, ``bad-token`` for a wrong one.
        """
        if token is None or token == "":
            raise WebError("spectator", "a spectator cannot play: open your seat's link")
        if not isinstance(token, str) or len(token) > 200:
            raise WebError("malformed", "the seat token must be a string")
        digest = hash_token(token)
        for seat in self.seats:
            if seat.token_hash and hmac.compare_digest(seat.token_hash, digest):
                return seat.seat
        raise WebError("bad-token", "this token holds no seat at this table")

    def can_undo(self, seat: int | None) -> bool:
        mark = self.undo_mark
        return (self.settings.undo and seat is not None and mark is not None
                and mark.seat == seat and mark.taken_back(self.game.match) is not None)

    def clock_json(self) -> dict[str, Any] | None:
        """The countdown of the seat to act: the seat, the seconds left, its length, and
        whether it is the away time (a client counts down from its own receipt of the
        message, so readings differ by the time a message takes to arrive)."""
        return None if self.countdown is None else self.countdown.to_json()

    def payload(self, seat: int | None) -> dict[str, Any]:
        """The state message for ``seat`` (None: a spectator)."""
        game = self.game
        state = game.state
        match = game.match
        settings = self.settings.to_json()
        return {
            "type": "state",
            "table": self.id,
            "version": self.version,
            "at": round(self.changed_at, 3),
            "you": seat,
            "variant": self.variant,
            "options": dict(game.rules.options),
            "players": self.players,
            "settings": settings,
            "clock": self.clock_json(),
            "can_undo": self.can_undo(seat),
            "seats": [
                {"seat": s.seat, "name": s.name, "kind": s.kind, "controller": s.controller,
                 "level": s.level if s.controller == "bot" else None, "away": s.away,
                 "connected": self.connected(s.seat) > 0, "team": state.team_of[s.seat]}
                for s in self.seats
            ],
            "hand_number": game.hand_number,
            "deal": game.deal_json(),
            "dealer": game.dealer,
            "view": game.view_json(seat),
            "match": {
                "scores": list(match.scores),
                "target": game.rules.target(match.players),
                "winner": match.winner,
                "over": self.match_over,
                "hands": game.sheets_json(),
            },
            "records": [h["hand"] for h in game.sheets_json()],
        }
