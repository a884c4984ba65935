"""The core of the table server: live tables loaded from the database, the one path every
change takes, the connections that receive each seat's view, and the bots that play.

Every change goes through one path, under the table's lock: check the token, the version the
client saw and whose turn it is; apply the action to the match in memory; write it to the
database in the transaction that advances the version; only then send every connection the
view of its own seat. When the write fails, the match is rebuilt from the database, which
is the truth.

A bot thinks in a worker thread and outside the table's lock (the expert searches for a
second or more): it moves only if the table is still at the version it looked at, so a person
taking the seat back meanwhile wins.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from typing import Any

from canasta.bots import make_bot
from canasta.core.actions import Action
from canasta.core.events import Drew, TookPile
from canasta.core.state import IllegalActionError
from canasta.core.undo import TurnMark
from canasta.web.clock import ClockKeeper, Turn
from canasta.web.errors import WebError, illegal_error
from canasta.web.game import Game
from canasta.web.seats import Connection, Seat, Table
from canasta.web.settings import TableSettings
from canasta.web.storage import FinishedHand, StorageError, Store

log = logging.getLogger("canasta.web")
_TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{4,32}$")


class TableService:
    """All live tables of one server.

    Args:
        store: the database.
        bot_delay: seconds a bot waits before each move (0 in tests).
        away_after: seconds a disconnected person's turn waits before a bot plays it.
    """

    def __init__(self, store: Store, bot_delay: float = 0.6, away_after: float = 45.0) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.tables: dict[str, Table] = {}
        self._loading = asyncio.Lock()
        self.clocks = ClockKeeper(away_after, self._clock_expired)

    # -- life cycle ------------------------------------------------------------------------
    async def start(self) -> None:
        """Load every table still in play (their bots resume, their clocks start)."""
        for table_id in await asyncio.to_thread(self.store.table_ids, "playing"):
            try:
                table = await self.get(table_id)
            except Exception:
                log.exception("table %s could not be resumed", table_id)
                continue
            async with table.lock:
                self._changed(table)

    async def stop(self) -> None:
        for table in self.tables.values():
            await self.clocks.stop(table)
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
        seats = [Seat(s.seat, s.kind, s.controller, s.level, s.name, s.token_hash, s.away)
                 for s in data.seats]
        for seat in seats:
            if seat.controller == "bot":
                seat.bot = make_bot(seat.level)
        game.finish_hand()
        return Table(data.id, data.variant, data.options, data.players, data.team_size,
                     data.version, data.status, seats, game,
                     TableSettings.from_json(data.settings))

    async def _reload(self, table: Table) -> None:
        """Rebuild a table's match from the database after a failed write."""
        data = await asyncio.to_thread(self.store.load, table.id)
        if data is None:  # pragma: no cover - tables are never deleted
            return
        table.game = await asyncio.to_thread(Game.from_data, data, table.names)
        table.game.finish_hand()
        table.version = data.version
        table.status = data.status
        table.undo_mark = None

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

    # -- the one path of a move ------------------------------------------------------------
    async def _commit(self, table: Table, seat: int, actions: list[Action]) -> None:
        """Apply, store, then broadcast (under the table's lock)."""
        game = table.game
        hand = game.hand_number
        texts: list[tuple[int, str]] = []
        event = None
        try:
            for action in actions:
                if game.state.actor != seat:
                    raise IllegalActionError("turn order", "the turn passed mid-plan")
                event = game.match.apply(action)
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
                raise illegal_error(exc, table.game.rules, table.game.state) from None
            raise WebError("storage", "the move could not be stored; try again") from None
        table.version += len(texts)
        if finished is not None and finished.match_over:
            table.status = "over"
        # the house rule undo rewinds to just after the person's own draw
        if isinstance(event, (Drew, TookPile)) and table.seats[seat].controller == "human":
            table.undo_mark = TurnMark.after_draw(game.match, seat)
        elif game.state.is_over or game.state.actor != seat:
            table.undo_mark = None
        self._changed(table)

    def _changed(self, table: Table) -> None:
        """After any change (under the lock): the clock, every view, the bots."""
        self.clocks.rearm(table)
        self._broadcast(table)
        self._kick(table)

    def _broadcast(self, table: Table) -> None:
        cache: dict[int | None, dict[str, Any]] = {}
        for conn in list(table.conns):
            if conn.seat not in cache:
                cache[conn.seat] = table.payload(conn.seat)
            conn.push(cache[conn.seat])

    # -- who plays a seat ------------------------------------------------------------------
    async def _set_controller(self, table: Table, seat: Seat, controller: str,
                              level: str, away: bool = False) -> None:
        await asyncio.to_thread(self.store.set_controller, table.id, seat.seat, controller,
                                level, away)
        seat.controller = controller
        seat.level = level
        seat.away = away
        seat.bot = make_bot(level) if controller == "bot" else None

    async def _clock_expired(self, table: Table, turn: Turn) -> None:
        """The turn clock (or the away time) of ``turn`` ran out: a bot of the table's level
        plays the seat until its person comes back."""
        async with table.lock:
            if not self.clocks.is_due(table, turn):
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
                self.clocks.rearm(table)
                self._broadcast(table)
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
                self.clocks.rearm(table)
                self._broadcast(table)
        await conn.close()

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
                seen = table.version
            # the bot thinks in a thread, without the lock: the server keeps answering
            try:
                action = await asyncio.to_thread(bot.choose, view)
            except Exception:
                log.exception("table %s: bot of seat %d failed; it plays a legal move",
                              table.id, seat)
                action = view.legal_actions[0]
            async with table.lock:
                if table.version != seen or self._bot_seat(table) != seat:
                    continue  # the table moved on (a person took the seat back): look again
                if not table.game.state.can(action):
                    log.error("table %s: illegal bot move %s", table.id, action.text())
                    action = view.legal_actions[0]
                try:
                    await self._commit(table, seat, [action])
                except WebError as exc:
                    log.error("table %s: bot move refused: %s", table.id, exc.message)
                    return
