"""The core of the table server: live tables taken up from the database, the one path every
change takes and the broadcast of each seat's view; the bots that play are
:mod:`canasta.web.play.botplay`'s.

Every change goes through one path, under the table's lock: check the token, the version the
client saw and whose turn it is; apply the action to the match in memory; write it to the
database in the transaction that advances the version; only then send every connection the
view of its own seat and publish the change to the other processes
(:mod:`canasta.web.cluster.pubsub`). When the write fails, the table's current hand is rebuilt from
the database, which is the truth (another process may have moved first: the client is told
its move is stale).

No engine work runs on the event loop: a seat's view and its legal actions, checking and
applying a move, the going-out plan, loading a table (its current hand replayed), dealing a
hand, a bot's move and a hint run in worker threads, each with a time budget
(:mod:`canasta.web.play.engine`), and every database call in threads of its own; bots, the
engine's other calls and the database have separate pools, so that an expert thinking for a
second never delays a write. A table whose engine call runs past the budget is paused: its
seats are told (``paused``), every request for it is refused with that code, its bots and
clock wait, and nothing touches its match until the call returns; then it is taken up again
from the database. Every other table goes on.

A bot thinks outside the table's lock: it moves only if the table is still at the version it
looked at, so a person taking the seat back meanwhile wins. Only the process that holds the
table's lease (:mod:`canasta.web.cluster.cluster`) plays its bots and runs its clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from canasta.bots import make_bot
from canasta.core.actions import Action, LayOff, Meld, Retract
from canasta.core.events import Drew, TookPile
from canasta.core.match import Match
from canasta.core.state import IllegalActionError
from canasta.core.undo import TurnMark
from canasta.web.cluster.cluster import Cluster
from canasta.web.cluster.pubsub import LocalBus, RedisBus
from canasta.web.play.botplay import BotPlay
from canasta.web.play.clock import ClockKeeper, Turn
from canasta.web.play.connections import Connection, broadcast
from canasta.web.play.engine import DEFAULT_BUDGET, EngineCalls
from canasta.web.play.game import (
    Game,
    Refused,
    apply_texts,
    deals_of,
    hand_record_of,
    play_actions,
    turn_actions,
)
from canasta.web.play.seats import Seat, Table
from canasta.web.play.settings import TableSettings
from canasta.web.protocol.errors import WebError, illegal_error, paused_error
from canasta.web.protocol.ratelimit import check_spectators
from canasta.web.storage.committer import Committer
from canasta.web.storage.models import SeatData
from canasta.web.storage.store import Append, StorageError, Store

log = logging.getLogger("canasta.web")
_TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{4,32}$")
T = TypeVar("T")

#: Melds, lay-offs and retracts one seat may make in one turn; past it only the moves that
#: end the turn are taken (a turn of 1,400 meld/retract cycles was stored and sent whole).
MAX_TURN_ACTIONS = 100
#: Actions refused past the cap (a draw, a discard, a question, an answer end or pass on).
_CAPPED = (Meld, LayOff, Retract)


class TableService(BotPlay):
    """All live tables of one server process.

    Args:
        store: the database.
        bot_delay: seconds a bot waits before each move (0 in tests).
        away_after: seconds a disconnected person's turn waits before a bot plays it.
        bus: how the processes of one database tell each other of changes (default: one
            process, :class:`canasta.web.cluster.pubsub.LocalBus`).
        bot_threads: worker threads for bots' moves and hints.
        engine_budget: seconds an engine call may run before its table is paused
            (``CANASTA_ENGINE_BUDGET``, else :data:`canasta.web.play.engine.DEFAULT_BUDGET`).
    """

    #: Seconds a table's bots play on once no person seated there is connected or has
    #: made a request (canasta.web.protocol.ratelimit.people_present).
    idle_after = 120.0
    #: Spectators' connections one table takes in this process (ServerLimits).
    max_spectators = 50

    def __init__(self, store: Store, bot_delay: float = 0.6, away_after: float = 45.0, *,
                 bus: LocalBus | RedisBus | None = None, bot_threads: int = 4,
                 engine_budget: float | None = None) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future[Table]] = {}
        self.clocks = ClockKeeper(away_after, self._clock_expired)
        self.bus: LocalBus | RedisBus = bus or LocalBus()
        self.origin = self.bus.origin
        self._db_pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="canasta-db")
        self.calls = EngineCalls(engine_budget if engine_budget is not None else float(
            os.environ.get("CANASTA_ENGINE_BUDGET", DEFAULT_BUDGET)), bot_threads,
            self._unpause, self.clocks.rearm)
        #: counters for the load benchmark and logs
        self.stats = {"moves": 0, "bot_moves": 0, "refreshes": 0, "mirrored": 0}
        self.committer = Committer(self._append_many)
        #: news of other kinds about a held table, by the message's ``k`` (the chat's)
        self.bus_handlers: dict[str, Callable[[Table, dict[str, Any]], Awaitable[None]]] = {}
        self.cluster = Cluster(self)

    async def db(self, fn: Any, *args: Any) -> Any:
        """Run a storage call in the database threads."""
        return await asyncio.get_running_loop().run_in_executor(self._db_pool, fn, *args)

    async def _append_many(self, items: list[Append]) -> list[Exception | None]:
        out: list[Exception | None] = await self.db(self.store.append_many, items)
        return out

    @property
    def engine_budget(self) -> float:
        """Seconds an engine call may run before its table is paused."""
        return self.calls.budget

    @engine_budget.setter
    def engine_budget(self, seconds: float) -> None:
        self.calls.budget = seconds

    async def engine(self, table: Table, fn: Callable[..., T], *args: Any,
                     bot: bool = False) -> T:
        """``fn(*args)``, engine work for ``table`` (:meth:`EngineCalls.run`)."""
        return await self.calls.run(table, fn, *args, bot=bot)

    async def think(self, fn: Callable[..., T], *args: Any, key: str | None = None) -> T:
        """``fn(*args)``, engine work for no live table (:meth:`EngineCalls.think`)."""
        return await self.calls.think(fn, *args, key=key)

    async def _unpause(self, table: Table) -> None:
        """The stray call of a paused table returned: its match is read again from the
        database (the call may have left it half changed) and the table goes on."""
        async with table.lock:
            if not table.paused or self.tables.get(table.id) is not table:
                return
            table.paused = False
            log.warning("table %s: the engine call returned; the table goes on", table.id)
            try:
                await self.refresh(table, rebuild=True)
            except WebError:
                return  # paused again, or the table is gone
            self._changed(table)

    # -- life cycle ------------------------------------------------------------------------
    async def start(self) -> None:
        """Join the other processes (if any) and start resuming the bots of the tables in
        play, in batches (a table is otherwise loaded when first used)."""
        await self.cluster.start()

    async def stop(self) -> None:
        await self.cluster.stop()
        for table in list(self.tables.values()):
            await self._drop(table)
        self._db_pool.shutdown(wait=False, cancel_futures=True)
        self.calls.shutdown()

    async def _drop(self, table: Table) -> None:
        """Forget a table in this process (its connections are closed)."""
        self.tables.pop(table.id, None)
        await self.clocks.stop(table)
        if table.bot_task is not None:
            table.bot_task.cancel()
            with contextlib.suppress(BaseException):
                await table.bot_task
        for conn in list(table.conns):
            await conn.close()

    async def get(self, table_id: str) -> Table:
        """The live table (taken up from the database on first use).

        Raises:
            WebError: ``unknown-table``.
        """
        if self.calls.refuses(table_id):
            raise paused_error(self.engine_budget)
        table = self.tables.get(table_id)
        if table is not None:
            table.used = time.monotonic()
            return table
        if not isinstance(table_id, str) or not _TABLE_ID.match(table_id):
            raise WebError("unknown-table", "there is no such table")
        pending = self._loading.get(table_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._loading[table_id] = pending
            try:
                table = await self._load(table_id)
                self.tables[table_id] = table
                pending.set_result(table)
            except BaseException as exc:
                pending.set_exception(exc)
                pending.exception()  # retrieved: nobody else may be waiting
                raise
            finally:
                self._loading.pop(table_id, None)
            await self.cluster.loaded(table)
            return table
        return await asyncio.shield(pending)

    async def _load(self, table_id: str) -> Table:
        data = await self.db(self.store.load_live, table_id)
        if data is None:
            raise WebError("unknown-table", "there is no such table")
        names = [s.name for s in data.seats]
        game = await self.think(Game.from_data, data, names, key=table_id)
        seats = [Seat(s.seat, s.kind, s.controller, s.level, s.name, s.token_hash, s.away)
                 for s in data.seats]
        table = Table(data.id, data.variant, data.options, data.players, data.team_size,
                      data.version, data.status, seats, game,
                      TableSettings.from_json(data.settings))
        table.changed_at = data.at
        table.undo_mark = await self._recovered_mark(table)
        return table

    async def _recovered_mark(self, table: Table) -> TurnMark | None:
        """The undo mark of a table taken up from the database mid-turn (a restart, another
        process's move): rebuilt from the hand's record when a person is to act."""
        state = table.game.state
        if not table.settings.undo or state.is_over or \
                table.seats[state.actor].controller != "human":
            return None
        return await self.engine(table, TurnMark.recover, table.game.match)

    def _seats_from(self, table: Table, seats: list[SeatData]) -> None:
        for s in seats:
            seat = table.seats[s.seat]
            if seat.controller != s.controller or seat.level != s.level:
                seat.bot = None
            seat.kind, seat.controller, seat.level = s.kind, s.controller, s.level
            seat.name, seat.token_hash, seat.away = s.name, s.token_hash, s.away
            table.game.names[s.seat] = s.name
        table.sync_stand_ins()

    async def refresh(self, table: Table, rebuild: bool = False) -> bool:
        """Catch up with the database (under the table's lock): the actions stored since the
        version held, applied in memory; the current hand dealt again from its deck and its
        actions when a new hand began, an undo rewound it, or ``rebuild`` (after a failed
        write, whose move is in memory only). Returns whether the table moved.

        Nothing happens while the table is paused (it is rebuilt when it goes on).

        Raises:
            WebError: ``unknown-table`` when the table is gone; ``paused``, an engine call
                ran past the budget.
        """
        if table.paused:
            return False
        game = table.game
        hand = game.hand_number
        changes = await self.db(self.store.changes_since, table.id,
                                -1 if rebuild else table.version, hand)
        if changes is None:
            raise WebError("unknown-table", "there is no such table")
        self.stats["refreshes"] += 1
        moved: bool = changes.version != table.version
        self._seats_from(table, changes.seats)
        table.settings = TableSettings.from_json(changes.settings)
        table.status = changes.status
        if changes.actions is not None and not rebuild:
            texts = [text for _seat, text in changes.actions]
            try:
                await self.engine(table, apply_texts, game, texts)
            except (IllegalActionError, ValueError):
                log.exception("table %s: stored actions do not apply; rebuilding", table.id)
                return bool(await self.refresh(table, rebuild=True))
        elif changes.hands:
            first = changes.hands[0].number
            records = list(game.match.hands[:first]) + [hand_record_of(h)
                                                         for h in changes.hands]
            match = await self.engine(table, lambda: Match.resume(
                game.rules, table.players, records, seed=game.match.seed,
                team_size=table.team_size))
            table.game = Game(match, table.names, {**game.deals, **deals_of(changes.hands)})
            table.sync_stand_ins()
            table.undo_mark = await self._recovered_mark(table)
        table.version = changes.version
        if moved:
            table.changed_at = changes.at
            if table.undo_mark is not None and table.undo_mark.taken_back(
                    table.game.match) is None:
                table.undo_mark = None
        return moved

    async def fresh(self, table: Table, version: Any) -> None:
        """Before checking a client's version (under the lock): a client that saw a newer
        version than this process holds (another process moved the table) makes it catch
        up first."""
        if isinstance(version, int) and not isinstance(version, bool) \
                and version > table.version:
            await self.refresh(table)

    # -- checks ----------------------------------------------------------------------------
    def _check_version(self, table: Table, version: Any) -> None:
        if not isinstance(version, int) or isinstance(version, bool):
            raise WebError("malformed",
                           "'version' must be the table version the move was made against")
        if version != table.version:
            raise WebError("stale", f"the table has moved on (version {table.version}, your "
                                    f"move was made at version {version}): look again")

    def _check_turn(self, table: Table, seat: int) -> None:
        state = table.game.state
        if state.is_over:
            raise WebError("not-allowed", "the hand is over")
        if table.seats[seat].controller == "bot":
            raise WebError("not-allowed", "a bot plays this seat now: take it back first")
        if seat != state.actor:
            raise WebError("not-your-turn",
                           f"it is {table.seats[state.actor].name}'s turn, not yours")

    def _check_cap(self, table: Table, actions: list[Action]) -> None:
        """The cap of melds, lay-offs and retracts per turn (:data:`MAX_TURN_ACTIONS`)."""
        if any(isinstance(a, _CAPPED) for a in actions) and \
                turn_actions(table.game.match) + len(actions) > MAX_TURN_ACTIONS:
            raise WebError("not-allowed", f"at most {MAX_TURN_ACTIONS} actions in one turn: "
                                          "discard to end it")

    # -- the one path of a move ------------------------------------------------------------
    async def _mark_stand_in(self, table: Table, first: int, last: int) -> None:
        """Mark the stored moves ``first`` to ``last`` a stand-in bot's (a failure only costs
        the record's note, never the move)."""
        try:
            await self.db(self.store.mark_stand_in, table.id, first, last)
        except Exception as exc:
            log.warning("table %s: stand-in moves not marked (%s)", table.id, exc)

    async def _commit(self, table: Table, seat: int, actions: list[Action]) -> None:
        """Apply (in the engine's threads, with the views the messages will need), store,
        then broadcast and publish (under the table's lock).

        Raises:
            WebError: ``illegal`` (nothing changed), ``paused`` (the engine ran past its
                budget: the table is paused), ``stale``, ``storage``.
        """
        game = table.game
        hand = game.hand_number
        seen = table.version
        seats = {seat, *(c.seat for c in table.conns)}
        try:
            try:
                texts, event, finished = await self.engine(table, play_actions, game, seat,
                                                           actions, seats)
            except Refused as exc:
                raise illegal_error(exc.error, game.rules, game.state) from None
            if finished is not None and table.hands_done:
                finished.match_over = True  # the last hand the table was made for
            if finished is not None and finished.match_over:
                table.status = "over"
            at = time.time()
            await self.committer.append(Append(table.id, seen, hand, texts, finished,
                                               table.turn(), at))
        except WebError:
            raise  # illegal (nothing changed), or paused (nothing may touch the match)
        except (IllegalActionError, StorageError, Exception) as exc:
            log.warning("table %s: move not stored (%s); catching up with the database",
                        table.id, exc)
            with contextlib.suppress(Exception):
                await self.refresh(table, rebuild=True)
            if isinstance(exc, IllegalActionError):
                raise illegal_error(exc, table.game.rules, table.game.state) from None
            if table.version != seen:
                self._changed(table)
                raise WebError("stale", f"the table has moved on (version {table.version}): "
                                        "look again") from None
            raise WebError("storage", "the move could not be stored; try again") from None
        table.version = seen + len(texts)
        table.changed_at = at
        self.stats["moves"] += len(texts)
        self.bus.publish({"k": "moved", "t": table.id, "base": seen, "v": table.version,
                          "h": hand, "a": texts, "at": table.changed_at})
        self._after_move(table, seat, event)
        self._changed(table)

    def _after_move(self, table: Table, seat: int, event: Any) -> None:
        """The undo mark after a move of ``seat`` (house rule undo rewinds to just after a
        person's own draw)."""
        game = table.game
        if isinstance(event, (Drew, TookPile)) and table.seats[seat].controller == "human":
            table.undo_mark = TurnMark.after_draw(game.match, seat)
        elif game.state.is_over or game.state.actor != seat:
            table.undo_mark = None

    async def mirror(self, table: Table, message: dict[str, Any]) -> None:
        """Another process stored actions at ``table`` (a ``moved`` message): apply them
        here when they continue what this process holds, else catch up with the database."""
        async with table.lock:
            version = message.get("v")
            if not isinstance(version, int) or version <= table.version:
                return
            actions = message.get("a")
            if table.paused:
                return  # it is rebuilt from the database when it goes on
            if message.get("base") == table.version and \
                    message.get("h") == table.game.hand_number and isinstance(actions, list):
                try:
                    seat = int(actions[-1][0]) if actions else table.game.state.actor
                    event = await self.engine(table, apply_texts, table.game,
                                              [item[1] for item in actions])
                    table.version = version
                    table.changed_at = float(message.get("at") or time.time())
                    if table.match_over:
                        table.status = "over"
                    self._after_move(table, seat, event)
                    self.stats["mirrored"] += 1
                except WebError:
                    return  # paused
                except Exception:  # noqa: BLE001 - the database has it right
                    log.warning("table %s: a change from another process did not apply; "
                                "catching up", table.id)
                    await self.refresh(table, rebuild=True)
            else:
                await self.refresh(table)
            self._changed(table)

    def _changed(self, table: Table) -> None:
        """After any change (under the lock): the clock, every view, the bots."""
        self.clocks.rearm(table)
        self._broadcast(table)
        self._kick(table)

    def _broadcast(self, table: Table) -> None:
        """Send every connection its state message: at once when the engine has built what
        they need (the move's own thread usually has), else from a task that builds it in
        a worker thread under the table's lock; never while the table is paused."""
        if table.paused or not table.conns:
            return
        if table.game.prepared({c.seat for c in table.conns}):
            broadcast(table.conns, table.payload)
            return
        table.dirty = True
        if table.sender is None or table.sender.done():
            table.sender = asyncio.get_running_loop().create_task(self._send_states(table))

    async def _send_states(self, table: Table) -> None:
        while table.dirty:
            table.dirty = False
            async with table.lock:
                if table.paused:
                    return
                try:
                    await self.engine(table, table.game.prepare,
                                      {c.seat for c in table.conns})
                except WebError:
                    return  # paused: the seats were told
                broadcast(table.conns, table.payload)

    async def state_of(self, table: Table, seat: int | None) -> dict[str, Any]:
        """The state message of ``seat`` (None: a spectator), its engine part built in a
        worker thread (call under the table's lock).

        Raises:
            WebError: ``paused``.
        """
        if not table.game.prepared([seat]):
            await self.engine(table, table.game.prepare, [seat])
        return table.payload(seat)

    def _presence_changed(self, table: Table) -> None:
        self.bus.publish({"k": "presence", "t": table.id,
                          "c": [s.connections for s in table.seats]})

    # -- who plays a seat ------------------------------------------------------------------
    def _turn_with(self, table: Table, seat: Seat, controller: str) -> str:
        """The table's ``turn`` once ``seat`` is played by ``controller``."""
        old = seat.controller
        seat.controller = controller
        try:
            return table.turn()
        finally:
            seat.controller = old

    async def _set_controller(self, table: Table, seat: Seat, controller: str,
                              level: str, away: bool = False) -> None:
        await self.db(self.store.set_controller, table.id, seat.seat, controller, level, away,
                      self._turn_with(table, seat, controller))
        seat.controller = controller
        seat.level = level
        seat.away = away
        seat.bot = make_bot(level) if controller == "bot" else None
        table.sync_stand_ins()
        self.bus.publish({"k": "changed", "t": table.id, "v": table.version})

    async def _clock_expired(self, table: Table, turn: Turn) -> None:
        """The turn clock (or the away time) of ``turn`` ran out: a bot of the table's level
        plays the seat until its person comes back (done by the process holding the table's
        lease only)."""
        async with table.lock:
            if table.paused:
                return
            if not table.owned or not self.clocks.is_due(table, turn):
                self.clocks.rearm(table)
                return
            seat = table.seats[turn[2]]
            try:
                await self._set_controller(table, seat, "bot", table.settings.level, away=True)
            except Exception:
                log.exception("table %s: seat %d could not be handed to a bot", table.id,
                              seat.seat)
                return
            table.undo_mark = None
            log.info("table %s: %s is away; a bot plays", table.id, seat.name)
            self._changed(table)

    async def take_back(self, table: Table, seat: int) -> None:
        """The person of ``seat`` plays it again (after a bot kept it)."""
        async with table.lock:
            target = table.seats[seat]
            if target.kind == "human" and target.controller == "bot":
                await self._set_controller(table, target, "human", target.level)
                self.clocks.restart(table)
                self._broadcast(table)

    # -- connections -----------------------------------------------------------------------
    async def attach(self, table: Table, conn: Connection, token: Any) -> int | None:
        """Seat a connection (None: a spectator); a returning player takes the seat back from
        the bot that kept it."""
        seat = None if token in (None, "") else table.seat_of(token)
        if seat is None:
            check_spectators(table, self.max_spectators)
        conn.seat = seat
        conn.start()
        async with table.lock:
            table.conns.add(conn)
            if seat is not None:
                table.seats[seat].connections += 1
                self._presence_changed(table)
        if seat is not None and table.seats[seat].controller == "bot" \
                and table.seats[seat].kind == "human":
            await self.take_back(table, seat)
        else:
            async with table.lock:
                self.clocks.rearm(table)
                self._broadcast(table)
        if seat is not None:
            self.note_presence(table)  # bots that waited for a person play again
        return seat

    async def detach(self, table: Table, conn: Connection) -> None:
        async with table.lock:
            if conn in table.conns:
                table.conns.discard(conn)
                if conn.seat is not None:
                    seat = table.seats[conn.seat]
                    seat.connections -= 1
                    if seat.connections == 0:
                        seat.gone_since = time.monotonic()
                    self._presence_changed(table)
                self.clocks.rearm(table)
                self._broadcast(table)
        await conn.close()

    # -- bots ------------------------------------------------------------------------------
