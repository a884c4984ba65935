"""What one process of several does so that any of them serves any table: leases, news from
the others, and the upkeep of the tables in memory.

- **Leases.** The bots and the turn clock of a table are run by one process: the holder of
  the table's lease (``canasta_tables.owner``, ``lease_until``;
  :meth:`canasta.web.storage.store.Store.claim`). A process takes the lease of a table it loads
  when nobody holds it, renews all its leases every ``lease / 3`` seconds in one statement,
  and gives them up when it stops. A process killed with SIGKILL renews nothing: after
  ``lease`` seconds another one takes its tables over (those it holds in memory, and the
  tables whose bots are to move, in batches), catching up with the database first.
- **News.** Each change a process commits is published (:mod:`canasta.web.cluster.pubsub`); a
  process holding that table applies the stored actions it is told of, or reads what
  changed from the database, and sends its own connections the new state. Each process
  also publishes how many connections it holds to each seat of a table (``presence``), so
  that a seat is "connected" wherever its person is, and that the away bot waits for them;
  the counts of a process not heard of for three rounds are dropped.
- **Upkeep.** Tables nobody uses leave the memory (their lease is given up); tables whose
  match ended more than ``keep_finished`` seconds ago, and tables in play unchanged for
  ``keep_abandoned`` seconds, are deleted.

With SQLite (one process) the same code runs; at start-up the process takes every lease, as
no other process can be using the database file.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as _dt
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from canasta.web.cluster.pubsub import LocalBus, RedisBus
from canasta.web.play.clock import ClockKeeper
from canasta.web.play.seats import Table
from canasta.web.storage.models import now
from canasta.web.storage.store import Store

log = logging.getLogger("canasta.web")

#: Seconds a lease lasts unless renewed (renewed every third of it).
LEASE = 6.0
#: Seconds a table whose match is over is kept (a day), and one in play left unchanged
#: (a week).
KEEP_FINISHED = 86_400.0
KEEP_ABANDONED = 7 * 86_400.0
#: Seconds between two sweeps of expired tables.
SWEEP_EVERY = 600.0
#: Seconds a table nobody uses stays in memory.
IDLE_AFTER = 900.0
#: Tables whose bots are to move taken up per round (at start-up, or from a dead process).
BATCH = 50


class Service(Protocol):
    """What the cluster needs of the table service (:class:`canasta.web.play.service.TableService`,
    which owns it)."""

    store: Store
    bus: LocalBus | RedisBus
    origin: str
    tables: dict[str, Table]
    clocks: ClockKeeper
    #: handlers of other kinds of news about a held table (the chat's), by ``k``
    bus_handlers: dict[str, Callable[[Table, dict[str, Any]], Awaitable[None]]]

    async def db(self, fn: Any, *args: Any) -> Any: ...
    async def get(self, table_id: str) -> Table: ...
    async def refresh(self, table: Table, rebuild: bool = False) -> bool: ...
    async def mirror(self, table: Table, message: dict[str, Any]) -> None: ...
    async def _drop(self, table: Table) -> None: ...
    def _changed(self, table: Table) -> None: ...
    def _broadcast(self, table: Table) -> None: ...
    def _presence_changed(self, table: Table) -> None: ...


class Cluster:
    """The leases, news and upkeep of one process's tables (see the module docstring)."""

    def __init__(self, service: Service) -> None:
        self.service = service
        self.lease = LEASE
        self.keep_finished = KEEP_FINISHED
        self.keep_abandoned = KEEP_ABANDONED
        self.sweep_every = SWEEP_EVERY
        self.idle_after = IDLE_AFTER
        self.batch = BATCH
        self._task: asyncio.Task[None] | None = None
        self._heard: dict[str, float] = {}
        self._swept = 0.0
        self.rounds = 0

    @property
    def origin(self) -> str:
        return self.service.origin

    # -- life cycle ------------------------------------------------------------------------
    async def start(self) -> None:
        svc = self.service
        if not svc.store.shared:
            await svc.db(svc.store.release, None)
        await svc.bus.start(self.on_message)
        await self.round()
        self._task = asyncio.create_task(self._keep())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        svc = self.service
        svc.bus.publish({"k": "bye"})
        with contextlib.suppress(Exception):
            await svc.db(svc.store.release, self.origin)
        await svc.bus.stop()

    async def _keep(self) -> None:
        while True:
            await asyncio.sleep(self.lease / 3)
            try:
                await self.round()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the upkeep round failed; trying again")

    # -- leases ----------------------------------------------------------------------------
    async def loaded(self, table: Table) -> None:
        """A table was just taken up (or created) here: take its lease if it is free, and
        ask the other processes who is connected to it."""
        svc = self.service
        held = await svc.db(svc.store.claim, self.origin, [table.id], self.lease)
        if table.id in held:
            await self._take(table, refresh=False)
        if svc.bus.shared:
            svc.bus.publish({"k": "ask", "t": table.id})

    async def _take(self, table: Table, refresh: bool = True) -> None:
        """This process now holds ``table``'s lease: catch up, then play its bots."""
        async with table.lock:
            if table.owned:
                return
            table.owned = True
            if refresh:
                await self.service.refresh(table)
            self.service._changed(table)

    def _lose(self, table: Table) -> None:
        table.owned = False
        if table.bot_task is not None:
            table.bot_task.cancel()
            table.bot_task = None

    async def round(self) -> None:
        """One round of upkeep: renew the leases, take over the tables another process
        left, tell the others this process lives, drop the counts of the silent ones,
        forget idle tables, and (now and then) delete expired ones."""
        svc = self.service
        self.rounds += 1
        # a lease taken while the renewal runs is not among its answer: only those held
        # before it began can have been lost
        before = [t for t in svc.tables.values() if t.owned]
        held = await svc.db(svc.store.renew, self.origin, self.lease)
        for table in before:
            if table.owned and table.id not in held:
                log.warning("table %s: its lease went to another process", table.id)
                self._lose(table)
        free = [t.id for t in svc.tables.values() if not t.owned]
        if free:
            for table_id in await svc.db(svc.store.claim, self.origin, free, self.lease):
                taken = svc.tables.get(table_id)
                if taken is not None:
                    await self._take(taken)
        for table_id in await svc.db(svc.store.orphans, self.batch):
            if table_id in svc.tables:
                continue
            with contextlib.suppress(Exception):
                await svc.get(table_id)  # loaded() takes its lease when still free
        if svc.bus.shared:
            svc.bus.publish({"k": "alive"})
            self._forget_silent()
        await self._evict()
        if time.monotonic() - self._swept >= self.sweep_every:
            self._swept = time.monotonic()
            await self.expire()

    async def _evict(self) -> None:
        svc = self.service
        idle = time.monotonic() - self.idle_after
        gone = [t for t in svc.tables.values()
                if not t.conns and t.used < idle and not t.lock.locked()
                and (t.turn() != "bot" or not t.owned)]
        if not gone:
            return
        for table in gone:
            await svc._drop(table)
        owned = [t.id for t in gone if t.owned]
        if owned:
            await svc.db(svc.store.release, self.origin, owned)

    async def expire(self) -> list[str]:
        """Delete the expired tables (see the module docstring); returns their ids."""
        svc = self.service
        stamp = now()
        ids = await svc.db(svc.store.expire,
                           stamp - _dt.timedelta(seconds=self.keep_finished),
                           stamp - _dt.timedelta(seconds=self.keep_abandoned))
        if ids:
            log.info("%d expired tables deleted", len(ids))
            await self._gone(ids)
            svc.bus.publish({"k": "gone", "t": ids})
        return list(ids)

    async def _gone(self, ids: list[str]) -> None:
        for table_id in ids:
            table = self.service.tables.get(table_id)
            if table is not None:
                await self.service._drop(table)

    # -- news from the other processes -----------------------------------------------------
    def _forget_silent(self) -> None:
        silent = time.monotonic() - self.lease
        for origin in [o for o, t in self._heard.items() if t < silent]:
            del self._heard[origin]
            self._forget(origin)

    def _forget(self, origin: str) -> None:
        for table in self.service.tables.values():
            counts = table.remote.pop(origin, None)
            if counts is not None:
                for seat in table.seats:
                    if seat.seat < len(counts) and counts[seat.seat] \
                            and not table.connected(seat.seat):
                        seat.gone_since = time.monotonic()
                self.service.clocks.rearm(table)
                self.service._broadcast(table)

    async def on_message(self, message: dict[str, Any]) -> None:
        """Act on a message of another process (:mod:`canasta.web.cluster.pubsub`)."""
        svc = self.service
        origin = str(message.get("o"))
        self._heard[origin] = time.monotonic()
        kind = message.get("k")
        if kind == "bye":
            self._heard.pop(origin, None)
            self._forget(origin)
            return
        if kind == "gone":
            await self._gone([t for t in message.get("t") or [] if isinstance(t, str)])
            return
        held = svc.tables.get(str(message.get("t")))
        if held is None:
            return
        table = held
        extra = svc.bus_handlers.get(str(kind))
        if extra is not None:
            await extra(table, message)
        elif kind == "moved":
            await svc.mirror(table, message)
        elif kind == "changed":
            async with table.lock:
                await svc.refresh(table)
                svc._changed(table)
        elif kind == "presence":
            counts = message.get("c")
            if isinstance(counts, list) and all(isinstance(c, int) for c in counts):
                before = [table.connected(s.seat) for s in table.seats]
                table.remote[origin] = counts
                for seat, was in zip(table.seats, before, strict=True):
                    if was and not table.connected(seat.seat):
                        seat.gone_since = time.monotonic()  # the away time starts now
                async with table.lock:
                    svc.clocks.rearm(table)
                    svc._broadcast(table)
        elif kind == "ask":
            if any(s.connections for s in table.seats):
                svc._presence_changed(table)
