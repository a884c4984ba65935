"""Live tables: seats and their secret tokens, moves checked and stored before they are sent,
bots that play server-side, and the connections that receive each seat's view.

Every change goes through one path, under the table's lock: check the token, the version the
client saw and whose turn it is; apply the action to the match in memory; write it to the
database in the transaction that advances the version; only then send every connection the
view of its own seat. When the write fails, the match is rebuilt from the database, which
is the truth.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import re
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from canasta.bots import BOTS, Bot, make_bot, parse_spec
from canasta.core.actions import Action, ActionParseError, action_from_json, parse_action
from canasta.core.rules import PRESETS, RulesError, load_preset, preset_options
from canasta.core.state import IllegalActionError, Phase
from canasta.i18n.refusals import refusal_parts
from canasta.web.game import Game, shuffled_deck
from canasta.web.storage import FinishedHand, HandData, SeatData, StorageError, Store, TableData

log = logging.getLogger("canasta.web")

#: HTTP status of each error code (a WebSocket client gets the code and the message).
ERROR_STATUS = {
    "malformed": 400,
    "bad-token": 403,
    "spectator": 403,
    "unknown-table": 404,
    "not-found": 404,
    "not-your-turn": 409,
    "stale": 409,
    "not-allowed": 409,
    "illegal": 422,
    "storage": 503,
    "server-error": 500,
}

MAX_NAME = 24
_TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{4,32}$")


class WebError(Exception):
    """A request the server refuses; the table is unchanged. ``code`` is one of
    :data:`ERROR_STATUS`; ``rule`` names the broken rule for an illegal move."""

    def __init__(self, code: str, message: str, rule: str | None = None,
                 refusal: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule
        self.refusal = refusal

    @property
    def status(self) -> int:
        return ERROR_STATUS.get(self.code, 400)

    def to_json(self, version: int | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.rule:
            out["rule"] = self.rule
        if self.refusal:
            out["refusal"] = self.refusal
        if version is not None:
            out["version"] = version
        return out


def _illegal(exc: IllegalActionError, game: Game) -> WebError:
    """The error of an illegal move: the engine's reason (English, for API clients) and the
    refusal as data (with the values of the seat to act), which the page writes in its own
    language."""
    return WebError("illegal", exc.reason, exc.rule,
                    refusal_parts(exc, game.rules, game.state))


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def bot_levels() -> list[str]:
    return list(BOTS)


def default_level() -> str:
    return "greedy" if "greedy" in BOTS else next(iter(BOTS))


def check_level(level: object, where: str) -> str:
    """A seat's bot: any spec the registry accepts (``hard``, ``expert:time=0.5``).

    Raises:
        WebError: not a string, or a spec :func:`canasta.bots.parse_spec` refuses.
    """
    if not isinstance(level, str):
        raise _bad(f"{where}: a bot spec such as {default_level()!r}")
    try:
        parse_spec(level)
    except ValueError as exc:
        raise _bad(f"{where}: {exc}") from None
    return level


@dataclass
class Seat:
    seat: int
    kind: str            # as created: "human" or "bot"
    controller: str      # who plays it now
    level: str
    name: str
    token_hash: str | None
    connections: int = 0
    bot: Bot | None = None

    def to_data(self) -> SeatData:
        return SeatData(self.seat, self.kind, self.controller, self.level, self.name,
                        self.token_hash)


class Connection:
    """One client's stream of messages; a writer task drains the queue so that a slow client
    never holds a table's lock."""

    def __init__(self, send: Callable[[dict[str, Any]], Awaitable[None]],
                 seat: int | None) -> None:
        self.send = send
        self.seat = seat
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._drain())

    def push(self, message: dict[str, Any]) -> None:
        self.queue.put_nowait(message)

    async def _drain(self) -> None:
        while True:
            message = await self.queue.get()
            if message is None:
                return
            try:
                await self.send(message)
            except Exception:  # the client is gone; the reader side will detach it
                return

    async def close(self) -> None:
        self.queue.put_nowait(None)
        if self.task is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.task, 2)


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
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[Connection] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def data(self) -> TableData:
        return TableData(self.id, self.variant, self.options, self.players, self.team_size,
                         self.version, self.status, [s.to_data() for s in self.seats], [])

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

    def payload(self, seat: int | None) -> dict[str, Any]:
        """The state message for ``seat`` (None: a spectator)."""
        game = self.game
        state = game.state
        match = game.match
        return {
            "type": "state",
            "table": self.id,
            "version": self.version,
            "you": seat,
            "variant": self.variant,
            "options": dict(game.rules.options),
            "players": self.players,
            "seats": [
                {"seat": s.seat, "name": s.name, "kind": s.kind, "controller": s.controller,
                 "level": s.level if s.controller == "bot" else None,
                 "connected": s.connections > 0, "team": state.team_of[s.seat]}
                for s in self.seats
            ],
            "hand_number": game.hand_number,
            "dealer": game.dealer,
            "view": game.view_json(seat),
            "match": {
                "scores": list(match.scores),
                "target": game.rules.target(match.players),
                "winner": match.winner,
                "over": match.is_over,
                "hands": game.sheets_json(),
            },
            "records": [h["hand"] for h in game.sheets_json()],
        }


def _bad(message: str) -> WebError:
    return WebError("malformed", message)


def _int(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise _bad(f"'{key}' must be an integer")
    return value


def parse_move(data: Any) -> Action:
    """The action of a move message: ``{"action": {JSON form}}`` or ``{"text": "..."}``."""
    if "action" in data:
        try:
            return action_from_json(data["action"])
        except ActionParseError as exc:
            raise _bad(str(exc)) from None
    if "text" in data:
        if not isinstance(data["text"], str) or len(data["text"]) > 400:
            raise _bad("'text' must be an action's text form")
        try:
            return parse_action(data["text"])
        except ActionParseError as exc:
            raise _bad(str(exc)) from None
    raise _bad("a move needs 'action' (the JSON form) or 'text' (the text form)")


class TableManager:
    """All live tables of one server.

    Args:
        store: the database.
        bot_delay: seconds a bot waits before each move (0 in tests).
    """

    def __init__(self, store: Store, bot_delay: float = 0.6) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.tables: dict[str, Table] = {}
        self._loading = asyncio.Lock()

    # -- life cycle ------------------------------------------------------------------------
    async def start(self) -> None:
        """Load every table still in play (their bots resume)."""
        for table_id in await asyncio.to_thread(self.store.table_ids, "playing"):
            try:
                table = await self.get(table_id)
            except Exception:
                log.exception("table %s could not be resumed", table_id)
                continue
            self._kick(table)

    async def stop(self) -> None:
        for table in self.tables.values():
            if table.bot_task is not None:
                table.bot_task.cancel()
                with contextlib.suppress(BaseException):
                    await table.bot_task
            for conn in list(table.conns):
                await conn.close()

    async def get(self, table_id: str) -> Table:
        """The live table (loaded and replayed from the database on first use).

        Raises:
            WebError: ``unknown-table``.
        """
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not isinstance(table_id, str) or not _TABLE_ID.match(table_id):
            raise WebError("unknown-table", "there is no such table")
        async with self._loading:
            table = self.tables.get(table_id)
            if table is None:
                table = await self._load(table_id)
                self.tables[table_id] = table
        return table

    async def _load(self, table_id: str) -> Table:
        data = await asyncio.to_thread(self.store.load, table_id)
        if data is None:
            raise WebError("unknown-table", "there is no such table")
        names = [s.name for s in data.seats]
        game = await asyncio.to_thread(Game.from_data, data, names)
        expected = sum(len(h.actions) for h in data.hands) + len(data.hands) - 1
        if expected != data.version:
            log.warning("table %s: version %d but %d stored events", table_id, data.version,
                        expected)
        seats = [Seat(s.seat, s.kind, s.controller, s.level, s.name, s.token_hash)
                 for s in data.seats]
        for seat in seats:
            if seat.controller == "bot":
                seat.bot = make_bot(seat.level)
        game.finish_hand()
        return Table(data.id, data.variant, data.options, data.players, data.team_size,
                     data.version, data.status, seats, game)

    async def _reload(self, table: Table) -> None:
        """Rebuild a table's match from the database after a failed write."""
        data = await asyncio.to_thread(self.store.load, table.id)
        if data is None:  # pragma: no cover - tables are never deleted
            return
        table.game = await asyncio.to_thread(Game.from_data, data, table.names)
        table.game.finish_hand()
        table.version = data.version
        table.status = data.status

    # -- creating a table ------------------------------------------------------------------
    async def create(self, spec: Any) -> tuple[Table, list[str | None]]:
        """Create a table from ``spec`` (see docs in :mod:`canasta.web.app`); returns it and
        one secret token per human seat (None for bot seats).

        Raises:
            WebError: ``malformed``, naming the field and what is expected.
        """
        if not isinstance(spec, dict):
            raise _bad("expected a JSON object describing the table")
        variant = spec.get("variant", "international")
        if not isinstance(variant, str):
            raise _bad("'variant' must be a string")
        options = spec.get("options") or {}
        if not isinstance(options, dict) or not all(
            isinstance(k, str) and isinstance(v, (str, int, float, bool))
            for k, v in options.items()
        ):
            raise _bad("'options' must map option names to values")
        try:
            rules = load_preset(variant, options)
        except RulesError as exc:
            raise _bad(str(exc)) from None
        variant = rules.name
        players = spec.get("players", len(spec.get("seats") or []) or 4)
        if not isinstance(players, int) or isinstance(players, bool):
            raise _bad("'players' must be an integer")
        if players not in rules.deal.player_counts:
            counts = ", ".join(map(str, rules.deal.player_counts))
            raise _bad(f"{variant} is played by {counts} players, not {players}")
        team_size = spec.get("team_size")
        if team_size is not None and (not isinstance(team_size, int)
                                      or isinstance(team_size, bool)):
            raise _bad("'team_size' must be an integer or null")
        try:
            rules.teams(players, team_size)
        except RulesError as exc:
            raise _bad(str(exc)) from None
        seat_specs = spec.get("seats")
        if seat_specs is None:
            seat_specs = [{"type": "human"}] + [{"type": "bot"}] * (players - 1)
        if not isinstance(seat_specs, list) or len(seat_specs) != players:
            raise _bad(f"'seats' must list {players} seats")
        seats: list[Seat] = []
        tokens: list[str | None] = []
        for i, item in enumerate(seat_specs):
            if not isinstance(item, dict):
                raise _bad(f"seats[{i}] must be an object")
            kind = item.get("type", "human")
            if kind not in ("human", "bot"):
                raise _bad(f"seats[{i}].type must be 'human' or 'bot'")
            level = check_level(item.get("level") or default_level(), f"seats[{i}].level")
            name = item.get("name") or ""
            if not isinstance(name, str):
                raise _bad(f"seats[{i}].name must be a string")
            name = " ".join(name.split())[:MAX_NAME]
            if not name:
                name = f"Bot {i + 1}" if kind == "bot" else f"Player {i + 1}"
            token = secrets.token_urlsafe(18) if kind == "human" else None
            tokens.append(token)
            seats.append(Seat(i, kind, kind, level, name,
                              hash_token(token) if token else None))
        if all(s.kind == "bot" for s in seats):
            raise _bad("a table needs at least one person: make one seat human")
        deck = shuffled_deck(rules, players, team_size, 0, [0] * len(rules.teams(players,
                                                                                 team_size)))
        teams = len(rules.teams(players, team_size))
        first = HandData(0, 0, deck, [0] * teams)
        data = TableData(secrets.token_urlsafe(9), variant, dict(options), players, team_size,
                         0, "playing", [s.to_data() for s in seats], [first])
        game = Game.from_data(data, [s.name for s in seats])
        await asyncio.to_thread(self.store.create_table, data)
        for seat in seats:
            if seat.kind == "bot":
                seat.bot = make_bot(seat.level)
        table = Table(data.id, variant, dict(options), players, team_size, 0, "playing",
                      seats, game)
        self.tables[table.id] = table
        self._kick(table)
        return table, tokens

    # -- moves -----------------------------------------------------------------------------
    def _check_version(self, table: Table, version: Any) -> None:
        if not isinstance(version, int) or isinstance(version, bool):
            raise _bad("'version' must be the table version the move was made against")
        if version != table.version:
            raise WebError("stale", f"the table has moved on (version {table.version}, your "
                                    f"move was made at version {version}): look again")

    async def view(self, table_id: str, token: Any) -> dict[str, Any]:
        """The state message of the seat of ``token`` (None: a spectator's)."""
        table = await self.get(table_id)
        async with table.lock:
            return table.payload(None if token in (None, "") else table.seat_of(token))

    async def payload_of(self, table: Table, seat: int | None) -> dict[str, Any]:
        async with table.lock:
            return table.payload(seat)

    async def act(self, table_id: str, token: Any, version: Any,
                  action: Action) -> dict[str, Any]:
        """Play ``action`` for the seat of ``token``; returns that seat's new state message.

        Raises:
            WebError: ``bad-token``, ``stale``, ``not-your-turn``, ``illegal`` (with the
            rule), ``storage``; the table is unchanged.
        """
        table = await self.get(table_id)
        async with table.lock:
            seat = table.seat_of(token)
            self._check_version(table, version)
            self._check_turn(table, seat)
            try:
                table.game.state.verify(action)
            except IllegalActionError as exc:
                raise _illegal(exc, table.game) from None
            await self._commit(table, seat, [action])
            return table.payload(seat)

    async def go_out(self, table_id: str, token: Any, version: Any) -> dict[str, Any]:
        """Play the engine's going-out plan for the seat of ``token`` (melds, lay-offs and the
        final discard, stored in one transaction)."""
        table = await self.get(table_id)
        async with table.lock:
            seat = table.seat_of(token)
            self._check_version(table, version)
            self._check_turn(table, seat)
            state = table.game.state
            plan = state.going_out_plan() if state.phase is Phase.PLAY else None
            if not plan:
                raise _illegal(IllegalActionError("going out", "you cannot go out now"),
                               table.game)
            await self._commit(table, seat, plan)
            return table.payload(seat)

    def _check_turn(self, table: Table, seat: int) -> None:
        state = table.game.state
        if state.is_over:
            raise WebError("not-allowed", "the hand is over")
        if table.seats[seat].controller == "bot":
            raise WebError("not-allowed", "a bot plays this seat now: take it back first")
        if seat != state.actor:
            raise WebError("not-your-turn",
                           f"it is {table.seats[state.actor].name}'s turn, not yours")

    async def _commit(self, table: Table, seat: int, actions: list[Action]) -> None:
        """Apply, store, then broadcast (under the table's lock)."""
        game = table.game
        hand = game.hand_number
        texts: list[tuple[int, str]] = []
        try:
            for action in actions:
                if game.state.actor != seat:
                    raise IllegalActionError("turn order", "the turn passed mid-plan")
                game.apply(action)
                texts.append((seat, action.text()))
            finished = None
            if game.state.is_over:
                game.finish_hand()
                finished = FinishedHand(hand, game.state.end_reason, game.record(),
                                        game.match.is_over)
            await asyncio.to_thread(self.store.append_actions, table.id, table.version, hand,
                                    texts, finished)
        except (IllegalActionError, StorageError, Exception) as exc:
            log.warning("table %s: move not stored (%s); rebuilding from the database",
                        table.id, exc)
            await self._reload(table)
            if isinstance(exc, IllegalActionError):
                raise _illegal(exc, table.game) from None
            raise WebError("storage", "the move could not be stored; try again") from None
        table.version += len(texts)
        if finished is not None and finished.match_over:
            table.status = "over"
        self._broadcast(table)
        self._kick(table)

    async def next_hand(self, table_id: str, token: Any, version: Any) -> dict[str, Any]:
        """Deal the next hand (any seated person may, once the hand is scored)."""
        table = await self.get(table_id)
        async with table.lock:
            seat = table.seat_of(token)
            self._check_version(table, version)
            game = table.game
            if not game.state.is_over:
                raise WebError("not-allowed", "the hand is still being played")
            if game.match.is_over:
                raise WebError("not-allowed", "the match is over")
            hand = game.next_hand()
            try:
                await asyncio.to_thread(self.store.append_hand, table.id, table.version, hand)
                data = await asyncio.to_thread(self.store.load, table.id)
                assert data is not None
                table.game = await asyncio.to_thread(Game.from_data, data, table.names)
            except Exception as exc:
                log.warning("table %s: new hand not stored (%s)", table.id, exc)
                await self._reload(table)
                raise WebError("storage", "the new hand could not be stored") from None
            table.version += 1
            self._broadcast(table)
            self._kick(table)
            return table.payload(seat)

    # -- seats -----------------------------------------------------------------------------
    async def give_to_bot(self, table_id: str, token: Any, seat: Any,
                          level: Any) -> dict[str, Any]:
        """Let a bot play ``seat``: your own at any time, another person's while nobody is
        connected to it."""
        table = await self.get(table_id)
        async with table.lock:
            me = table.seat_of(token)
            if not isinstance(seat, int) or isinstance(seat, bool) or not (
                0 <= seat < table.players
            ):
                raise _bad(f"'seat' must be a seat number from 0 to {table.players - 1}")
            level = check_level(level or default_level(), "'level'")
            target = table.seats[seat]
            if target.controller == "bot":
                raise WebError("not-allowed", f"a bot already plays {target.name}'s seat")
            if seat != me and target.connections > 0:
                raise WebError("not-allowed", f"{target.name} is at the table")
            await self._set_controller(table, target, "bot", level)
            self._broadcast(table)
            self._kick(table)
            return table.payload(me)

    async def take_back(self, table: Table, seat: int) -> None:
        async with table.lock:
            target = table.seats[seat]
            if target.kind == "human" and target.controller == "bot":
                await self._set_controller(table, target, "human", target.level)
                self._broadcast(table)

    async def _set_controller(self, table: Table, seat: Seat, controller: str,
                              level: str) -> None:
        await asyncio.to_thread(self.store.set_controller, table.id, seat.seat, controller,
                                level)
        seat.controller = controller
        seat.level = level
        seat.bot = make_bot(level) if controller == "bot" else None

    # -- connections -----------------------------------------------------------------------
    async def attach(self, table: Table, conn: Connection, token: Any) -> int | None:
        """Seat a connection (None: a spectator); a returning player takes the seat back from
        the bot that kept it."""
        seat = None if token in (None, "") else table.seat_of(token)
        conn.seat = seat
        conn.start()
        async with table.lock:
            table.conns.add(conn)
            if seat is not None:
                table.seats[seat].connections += 1
        if seat is not None and table.seats[seat].controller == "bot":
            await self.take_back(table, seat)
        else:
            async with table.lock:
                self._broadcast(table)
        return seat

    async def detach(self, table: Table, conn: Connection) -> None:
        async with table.lock:
            if conn in table.conns:
                table.conns.discard(conn)
                if conn.seat is not None:
                    table.seats[conn.seat].connections -= 1
                self._broadcast(table)
        await conn.close()

    def _broadcast(self, table: Table) -> None:
        cache: dict[int | None, dict[str, Any]] = {}
        for conn in list(table.conns):
            if conn.seat not in cache:
                cache[conn.seat] = table.payload(conn.seat)
            conn.push(cache[conn.seat])

    # -- bots ------------------------------------------------------------------------------
    def _bot_seat(self, table: Table) -> int | None:
        state = table.game.state
        if state.is_over:
            return None
        seat = table.seats[state.actor]
        return seat.seat if seat.controller == "bot" else None

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
                if seat is None:
                    return
                bot = table.seats[seat].bot or make_bot(table.seats[seat].level)
                table.seats[seat].bot = bot
                view = table.game.state.view(seat)
                try:
                    action = await asyncio.to_thread(bot.choose, view)
                    if not table.game.state.can(action):
                        raise ValueError(f"illegal bot move {action.text()}")
                except Exception:
                    log.exception("table %s: bot of seat %d failed; it plays a legal move",
                                  table.id, seat)
                    action = view.legal_actions[0]
                try:
                    await self._commit(table, seat, [action])
                except WebError as exc:
                    log.error("table %s: bot move refused: %s", table.id, exc.message)
                    return

    # -- records ---------------------------------------------------------------------------
    async def record(self, table_id: str, hand: int | None = None) -> dict[str, Any]:
        """The stored game record of a finished hand (the last finished one by default)."""
        table = await self.get(table_id)
        if hand is None:
            done = await asyncio.to_thread(self.store.finished_hands, table.id)
            if not done:
                raise WebError("not-found", "no hand of this table has finished yet")
            hand = done[-1]
        rec = await asyncio.to_thread(self.store.hand_record, table.id, hand)
        if rec is None:
            raise WebError("not-found", f"hand {hand} has not finished")
        return rec


def variants() -> list[dict[str, Any]]:
    """The presets a table can use, with their player counts and named house rules."""
    out = []
    for name in PRESETS:
        try:
            rules = load_preset(name)
            options = preset_options(name)
        except Exception:  # a preset that does not load is left out of the list
            log.exception("preset %s does not load", name)
            continue
        out.append({
            "name": name,
            "players": list(rules.deal.player_counts),
            "options": [
                {"name": o.name, "description": o.description, "default": o.default,
                 "choices": list(o.choices)}
                for o in options.values()
            ],
        })
    return out

