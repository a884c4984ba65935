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
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

#: Marks where a pre-serialized list goes in a message's text: random per process, so that
#: no string a client sent (a name) can be one.
_MARK = f"canasta-{secrets.token_hex(16)}-"


class JSONList(list[Any]):
    """A list whose items' JSON texts were made when they were added (a hand's events and
    log, which every message repeats and which only grow): :func:`to_json` splices their
    text into a message instead of serializing them again. It is a plain list to anything
    else (a message built with it serializes the same with :func:`json.dumps`)."""

    __slots__ = ("texts",)

    def __init__(self, items: list[Any], texts: list[str]) -> None:
        super().__init__(items)
        self.texts = texts[:len(items)]

    def json(self) -> str:
        return "[" + ", ".join(self.texts) + "]"


def to_json(message: dict[str, Any]) -> str:
    """``json.dumps(message)``, with the :class:`JSONList` values of ``message["view"]``
    spliced in from their ready texts (the view is written key by key, so that the long
    lists are never scanned again)."""
    view = message.get("view")
    if not isinstance(view, dict) or not any(type(v) is JSONList for v in view.values()):
        return json.dumps(message)
    parts = [f"{json.dumps(k)}: {v.json() if type(v) is JSONList else json.dumps(v)}"
             for k, v in view.items()]
    text = json.dumps({**message, "view": _MARK})
    return text.replace(f'"{_MARK}"', "{" + ", ".join(parts) + "}", 1)


class Frame:
    """A message sent to several connections: its data, and its JSON text made once."""

    __slots__ = ("_text", "data")

    def __init__(self, data: dict[str, Any], text: str | None = None) -> None:
        self.data = data
        self._text = text

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = to_json(self.data)
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
            data = payload(conn.seat)
            # the text now: the lists it shares with the table grow with its next move
            frame = frames[conn.seat] = Frame(data, to_json(data))
        conn.push(frame)
        sent += 1
    return sent
