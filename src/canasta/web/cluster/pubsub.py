"""The news between the processes that serve one database: each committed change of a table
is published, so that a process holding that table (for its spectators and players) learns
of it at once.

:class:`LocalBus` is the one-process default: nothing to tell anyone. :class:`RedisBus`
publishes through Redis pub/sub (the ``redis`` library's asyncio client) on one channel,
``<prefix>:tables``. Messages are small JSON objects with the sender's ``o`` (origin), so a
process skips its own. Publishing never waits in the path of a move: messages are queued and
a single sender task sends them in order (pipelined when several wait), so the news of one
table arrives in the order it was made. A message lost (Redis restarting) costs only
latency: a process that finds a table moved further than it heard refreshes it from the
database, which is the truth.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("canasta.web")

Handler = Callable[[dict[str, Any]], Awaitable[None]]


def new_origin() -> str:
    """A name for this process, unique among the processes of a database."""
    return f"{socket.gethostname()[:24]}:{os.getpid()}:{secrets.token_hex(4)}"


class LocalBus:
    """One process: publishing goes nowhere."""

    shared = False

    def __init__(self, origin: str | None = None) -> None:
        self.origin = origin or new_origin()

    async def start(self, handler: Handler) -> None:
        pass

    def publish(self, message: dict[str, Any]) -> None:
        pass

    async def stop(self) -> None:
        pass


class RedisBus:
    """Redis pub/sub between the processes of one database.

    Args:
        url: ``redis://host:port/db``.
        prefix: the channel is ``<prefix>:tables`` (several deployments, or tests, may
            share one Redis server under different prefixes).
    """

    shared = True

    def __init__(self, url: str, prefix: str = "canasta", origin: str | None = None) -> None:
        self.url = url
        self.channel = f"{prefix}:tables"
        self.origin = origin or new_origin()
        self._out: asyncio.Queue[str | None] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._redis: Any = None
        self._pubsub: Any = None
        self.sent = 0
        self.received = 0

    async def start(self, handler: Handler) -> None:
        """Connect, subscribe, and call ``handler`` with each message of another process.

        Raises:
            ConnectionError: Redis does not answer.
        """
        import redis.asyncio as aioredis

        self._redis = aioredis.Redis.from_url(self.url)
        try:
            await self._redis.ping()
        except Exception as exc:
            raise ConnectionError(f"Redis at {self.url} does not answer: {exc}") from None
        self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.channel)
        self._tasks = [asyncio.create_task(self._listen(handler)),
                       asyncio.create_task(self._send())]

    def publish(self, message: dict[str, Any]) -> None:
        """Queue ``message`` (its ``o`` is set to this process) for every other process."""
        message["o"] = self.origin
        self._out.put_nowait(json.dumps(message, separators=(",", ":")))

    async def _send(self) -> None:
        while True:
            text = await self._out.get()
            if text is None:
                return
            batch = [text]
            while not self._out.empty() and len(batch) < 256:
                item = self._out.get_nowait()
                if item is None:
                    self._out.put_nowait(None)
                    break
                batch.append(item)
            try:
                if len(batch) == 1:
                    await self._redis.publish(self.channel, batch[0])
                else:
                    async with self._redis.pipeline(transaction=False) as pipe:
                        for item in batch:
                            pipe.publish(self.channel, item)
                        await pipe.execute()
                self.sent += len(batch)
            except Exception as exc:  # noqa: BLE001 - the others refresh from the database
                log.warning("could not publish %d messages to Redis: %s", len(batch), exc)

    async def _listen(self, handler: Handler) -> None:
        while True:
            try:
                async for raw in self._pubsub.listen():
                    if raw.get("type") != "message":
                        continue
                    try:
                        message = json.loads(raw["data"])
                    except (TypeError, ValueError):
                        continue
                    if not isinstance(message, dict) or message.get("o") == self.origin:
                        continue
                    self.received += 1
                    try:
                        await handler(message)
                    except Exception:
                        log.exception("message from another process failed: %s", message)
                return
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - Redis restarted: subscribe again
                log.warning("Redis subscription lost (%s); subscribing again", exc)
                await asyncio.sleep(0.5)
                with contextlib.suppress(Exception):
                    await self._pubsub.subscribe(self.channel)

    async def stop(self) -> None:
        self._out.put_nowait(None)
        if len(self._tasks) == 2:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._tasks[1], 2)
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self._redis.aclose()


def make_bus(url: str | None, prefix: str = "canasta") -> LocalBus | RedisBus:
    """The bus for ``url`` (None: one process, :class:`LocalBus`)."""
    return RedisBus(url, prefix) if url else LocalBus()
