"""The turn clock and the takeover of a silent seat, so that a table never stalls.

A person to act has the table's clock (``TableSettings.clock`` seconds per turn, when set)
and, while none of their connections is open, ``away_after`` seconds from when the last one
closed. When the first of the two runs out, a bot of the table's level plays the seat and the
seat is marked *away* ("away — a bot plays"); the person takes it back by reconnecting or
with the *I'm back* button.

The clock runs for one turn: it starts when a seat becomes the one to act (or takes its seat
back), and keeps running across that seat's draw, melds and lay-offs. Whichever of the two
runs out first is the table's :class:`~canasta.web.play.seats.Countdown`, which every seat and
spectator is shown (``clock`` in the state message, ``away`` when it is the away time): with
the clock off, the others still see when a bot steps in for a person who left.

:class:`ClockKeeper` keeps one timer task per table; :meth:`ClockKeeper.rearm` is called,
under the table's lock, after every change. The timer calls back into the table manager, which
checks again under the lock that the same turn is still waiting before it hands the seat over.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable

from canasta.web.play.seats import Countdown, Table

#: (hand number, version at which the turn began, seat): one turn of one seat.
Turn = tuple[int, int, int]
Expire = Callable[[Table, Turn], Awaitable[None]]


class ClockKeeper:
    """The timers of every table of a server.

    Args:
        away_after: seconds a disconnected person's turn waits before a bot plays it.
        expire: called with the table and the turn whose time ran out.
    """

    def __init__(self, away_after: float, expire: Expire) -> None:
        self.away_after = away_after
        self.expire = expire

    def turn_waiting(self, table: Table) -> Turn | None:
        """The turn of the person the table waits for, or None (a bot acts, the hand is
        over, the match is over)."""
        state = table.game.state
        if state.is_over or table.status != "playing" or table.paused:
            return None  # a paused table's clock waits for the engine
        seat = table.seats[state.actor]
        if seat.controller != "human":
            return None
        old = table.clock_turn
        if old is not None and old[0] == table.game.hand_number and old[2] == seat.seat:
            return old
        return (table.game.hand_number, table.version, seat.seat)

    def deadline(self, table: Table, turn: Turn) -> tuple[float | None, float | None]:
        """(when the turn clock runs out, when the away time runs out), time.monotonic()
        values; None where that clock does not run."""
        seat = table.seats[turn[2]]
        clock = None
        if table.settings.clock:
            started = table.clock_deadline - table.settings.clock \
                if table.clock_turn == turn and table.clock_deadline is not None \
                else time.monotonic()
            clock = started + table.settings.clock
        away = seat.gone_since + self.away_after if table.connected(seat.seat) == 0 else None
        return clock, away

    def rearm(self, table: Table) -> None:
        """Start, keep or stop the table's timer after a change (call under its lock)."""
        turn = self.turn_waiting(table)
        if turn is None:
            self._stop(table)
            table.clock_turn = None
            table.clock_deadline = None
            table.countdown = None
            return
        clock, away = self.deadline(table, turn)
        new_turn = table.clock_turn != turn
        table.clock_turn = turn
        table.clock_deadline = clock
        table.countdown = self.countdown(table, turn[2], clock, away)
        if table.countdown is None:
            self._stop(table)
            return
        due = table.countdown.due
        if not new_turn and table.clock_task is not None and not table.clock_task.done() \
                and getattr(table.clock_task, "due", None) == due:
            return
        self._stop(table)
        task = asyncio.create_task(self._wait(table, turn, due))
        task.due = due  # type: ignore[attr-defined]
        table.clock_task = task

    def countdown(self, table: Table, seat: int, clock: float | None,
                  away: float | None) -> Countdown | None:
        """The one of the two deadlines that runs out first (the turn clock on a tie)."""
        if away is not None and (clock is None or away < clock):
            return Countdown(seat, away, self.away_after, True)
        if clock is not None:
            return Countdown(seat, clock, table.settings.clock, False)
        return None

    def restart(self, table: Table) -> None:
        """A fresh turn for the seat to act (it was just taken back): full time again."""
        table.clock_turn = None
        table.clock_deadline = None
        self.rearm(table)

    def is_due(self, table: Table, turn: Turn) -> bool:
        """Has ``turn``'s time run out (checked again under the lock by the manager)?"""
        if self.turn_waiting(table) != turn or table.clock_turn != turn:
            return False
        clock, away = self.deadline(table, turn)
        now = time.monotonic() + 0.01
        return (clock is not None and clock <= now) or (away is not None and away <= now)

    async def _wait(self, table: Table, turn: Turn, due: float) -> None:
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        await self.expire(table, turn)

    @staticmethod
    def _stop(table: Table) -> None:
        task = table.clock_task
        table.clock_task = None
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()

    async def stop(self, table: Table) -> None:
        task = table.clock_task
        self._stop(table)
        if task is not None:
            with contextlib.suppress(BaseException):
                await task
