"""Engine work off the server's event loop, each call with a time budget.

Every call into the engine (a seat's view with its legal actions, checking and applying a
move, the going-out plan, a deal, a replay, a bot's move, a hint) runs in a worker thread of
an :class:`EnginePool`; the event loop waits for it at most ``budget`` seconds from the moment
a thread starts it (time spent queued behind other calls is not counted: a busy pool is load,
not a stuck call). A call that runs over raises :class:`Overrun` in its caller, and the pool
is replaced by a fresh one at once: Python cannot stop a thread, so the one still busy with the
stray call is left to finish on its own, and no later call waits behind it. The service
(:mod:`canasta.web.play.service`) pauses the table the stray call was for until it returns.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from canasta.web.protocol.errors import paused_error

if TYPE_CHECKING:
    from canasta.web.play.seats import Table

log = logging.getLogger("canasta.web")
T = TypeVar("T")

#: Seconds an engine call may run by default (``CANASTA_ENGINE_BUDGET`` sets it): far above
#: what a view (about 0.1 ms), a move or a bot's search (about a second for the expert) takes.
DEFAULT_BUDGET = 10.0


class Overrun(Exception):
    """An engine call ran past its budget; ``future`` completes when it returns at last."""

    def __init__(self, what: str, budget: float, future: asyncio.Future[Any]) -> None:
        super().__init__(f"{what} ran longer than {budget:g} s")
        self.what = what
        self.budget = budget
        self.future = future


class EnginePool:
    """Worker threads for engine calls (``threads`` of them; named ``<name>-<n>``).

    Attributes:
        stray: calls that ran past their budget and have not returned yet.
    """

    def __init__(self, threads: int, name: str) -> None:
        self.threads = threads
        self.name = name
        self.stray = 0
        self._generation = itertools.count()
        self._pool = self._new_pool()

    def _new_pool(self) -> ThreadPoolExecutor:
        return ThreadPoolExecutor(max_workers=self.threads,
                                  thread_name_prefix=f"{self.name}-{next(self._generation)}")

    async def run(self, budget: float, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker thread; its result or its exception.

        Raises:
            Overrun: it ran more than ``budget`` seconds (it goes on in its thread).
        """
        loop = asyncio.get_running_loop()
        started: asyncio.Future[None] = loop.create_future()

        def mark() -> None:
            if not started.done():
                started.set_result(None)

        def call() -> T:
            loop.call_soon_threadsafe(mark)
            return fn(*args)

        future = loop.run_in_executor(self._pool, call)
        either: set[asyncio.Future[Any]] = {future, started}
        try:
            await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
            done, _ = await asyncio.wait({future}, timeout=budget)
        except asyncio.CancelledError:
            future.cancel()  # not started yet: it never runs
            raise
        if not done:
            self._replace()
            self.stray += 1
            future.add_done_callback(self._returned)
            raise Overrun(getattr(fn, "__qualname__", "an engine call"), budget, future)
        return future.result()

    def _returned(self, future: asyncio.Future[Any]) -> None:
        self.stray -= 1
        if not future.cancelled() and future.exception() is not None:
            log.warning("an engine call that ran over its budget failed: %r",
                        future.exception())

    def _replace(self) -> None:
        """A fresh pool for the calls to come; the old one ends its threads as they finish
        (its queued calls still run)."""
        old, self._pool = self._pool, self._new_pool()
        old.shutdown(wait=False)

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


class EngineCalls:
    """The engine calls of one server process: a pool for bots' moves and hints, one for
    the rest, the budget, and the tables paused by a call that ran past it.

    Args:
        budget: seconds a call may run.
        bot_threads: threads for bots and hints.
        resume: run (as a task) when a paused table's stray call returns.
        stop_clock: called when a table is paused (its turn clock waits).
    """

    def __init__(self, budget: float, bot_threads: int,
                 resume: Callable[[Table], Coroutine[Any, Any, None]],
                 stop_clock: Callable[[Table], None]) -> None:
        self.budget = budget
        self.bots = EnginePool(bot_threads, "canasta-bot")
        self.pool = EnginePool(4, "canasta-engine")
        self._resume = resume
        self._stop_clock = stop_clock
        #: tables with an engine call past its budget: id -> that call (it returns later)
        self._stuck: dict[str, asyncio.Future[Any]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    def refuses(self, table_id: str) -> bool:
        """Whether a stray call of ``table_id`` still runs (the table is refused)."""
        return table_id in self._stuck

    def shutdown(self) -> None:
        self.bots.shutdown()
        self.pool.shutdown()

    async def run(self, table: Table, fn: Callable[..., T], *args: Any,
                  bot: bool = False) -> T:
        """``fn(*args)``, engine work for ``table``, in a worker thread (``bot``: a bot's
        move or a hint, in the bot threads) within the engine budget.

        Raises:
            WebError: ``paused``: the table is paused, or this call ran past the budget
                (then the table is paused until it returns).
        """
        if table.paused:
            raise paused_error(self.budget)
        pool = self.bots if bot else self.pool
        try:
            return await pool.run(self.budget, fn, *args)
        except Overrun as exc:
            self._pause(table, exc)
            raise paused_error(self.budget) from None

    async def think(self, fn: Callable[..., T], *args: Any, key: str | None = None) -> T:
        """``fn(*args)``, engine work for no live table (a new table's deal, a table being
        taken up, a record), in a worker thread within the engine budget; ``key``: the id
        of the table it is for, refused while the call runs on past the budget.

        Raises:
            WebError: ``paused``, the call ran past the budget.
        """
        try:
            return await self.pool.run(self.budget, fn, *args)
        except Overrun as exc:
            log.error("%s for table %s: %s", exc.what, key, exc)
            if key is not None:
                self._hold(key, exc.future)
            raise paused_error(self.budget) from None

    def _hold(self, table_id: str, future: asyncio.Future[Any],
              then: Callable[[], Coroutine[Any, Any, None]] | None = None) -> None:
        """Refuse ``table_id`` until ``future`` (a stray engine call) returns; then run
        ``then``."""
        self._stuck[table_id] = future

        def returned(_: asyncio.Future[Any]) -> None:
            if self._stuck.get(table_id) is future:
                del self._stuck[table_id]
            if then is not None:
                self._spawn(then())

        future.add_done_callback(returned)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _pause(self, table: Table, exc: Overrun) -> None:
        """An engine call for ``table`` ran past its budget: its seats are told, its bots
        and clock stop, and it is taken up again when the call returns."""
        if table.paused:
            return
        table.paused = True
        log.error("table %s: %s; the table is paused until it returns", table.id, exc)
        error = paused_error(exc.budget).to_json(table.version)
        for conn in list(table.conns):
            conn.push(error)
        self._stop_clock(table)
        self._hold(table.id, exc.future, lambda: self._resume(table))
