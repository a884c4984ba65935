"""The clients of a process: one queue per connection, drained by its own writer task so that
a slow client never holds a table's lock, and the broadcast of a table's state.

A broadcast builds each seat's state message once and serializes it once (a :class:`Frame`),
however many connections share the seat (every spectator shares one); each connection's
writer sends the same text. A state message waiting for a slow client is replaced by the
next one (each holds the whole table), so a client that reads slowly gets the latest state
late rather than a queue of stale ones that grows without end.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from typing import Any


class Frame:
    """A message sent to several connections: its data, and its JSON text made once."""

    __slots__ = ("_text", "data")

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self._text: str | None = None

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = json.dumps(self.data)
        return self._text


class Connection:
    """One client's stream of messages.

    Args:
        send: sends one message (a dict) to the client.
        seat: the seat it holds (None: a spectator); set by the service on attach.
        send_text: sends JSON text as it is; when given, a :class:`Frame` is sent through it
            without serializing it again.
    """

    def __init__(self, send: Callable[[dict[str, Any]], Awaitable[None]],
                 seat: int | None = None,
                 send_text: Callable[[str], Awaitable[None]] | None = None) -> None:
        self.send = send
        self.send_text = send_text
        self.seat = seat
        self.waiting: deque[dict[str, Any] | Frame] = deque()
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.closed = False

    def start(self) -> None:
        self.task = asyncio.create_task(self._drain())

    def push(self, message: dict[str, Any] | Frame) -> None:
        """Queue a message; a state message replaces one still waiting."""
        if self.closed:
            return
        if isinstance(message, Frame) and message.data.get("type") == "state":
            for old in self.waiting:
                if isinstance(old, Frame) and old.data.get("type") == "state":
                    self.waiting.remove(old)
                    break
        self.waiting.append(message)
        self.wake.set()

    async def _drain(self) -> None:
        while True:
            while not self.waiting:
                if self.closed:
                    return
                self.wake.clear()
                await self.wake.wait()
            message = self.waiting.popleft()
            try:
                if isinstance(message, Frame):
                    if self.send_text is not None:
                        await self.send_text(message.text)
                    else:
                        await self.send(message.data)
                else:
                    await self.send(message)
            except Exception:  # the client is gone; the reader side will detach it
                self.closed = True
                return

    async def close(self) -> None:
        """Send what is waiting (for at most 2 s), then stop."""
        self.closed = True
        self.wake.set()
        if self.task is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.task, 2)


def broadcast(conns: Iterable[Connection],
              payload: Callable[[int | None], dict[str, Any]]) -> int:
    """Send each connection the state message of its seat, built and serialized once per
    seat; returns the number of connections reached."""
    frames: dict[int | None, Frame] = {}
    sent = 0
    for conn in list(conns):
        frame = frames.get(conn.seat)
        if frame is None:
            frame = frames[conn.seat] = Frame(payload(conn.seat))
        conn.push(frame)
        sent += 1
    return sent
