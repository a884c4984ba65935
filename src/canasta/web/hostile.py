"""One hostile client beside the load benchmark's tables (``loadtest --hostile``).

The question (the fair-table limits of docs/web.md): can one client, sending as fast as it
can from one address, slow down everybody else's tables? The benchmark measures the other
tables' move-to-spectator latency twice over the same tables: ``calm`` (nothing else), then
``hostile``, with this client running from a loopback address of its own (``127.0.0.2``,
so that the per-address limits see it as one other machine) in :data:`THREADS` threads plus
a burst of WebSockets, each thread looping with no pause over the requests that cost the
server real work:

* ``view``: a table's state (``GET /api/tables/{id}``, the spectator's view built and sent;
  past the per-address view budget, refused);
* ``record``: a table's whole record (``GET /api/tables/{id}/record``);
* ``preview``: a scorepad hand scored and not stored (``POST .../hands`` with ``preview``,
  on a scorepad of its own, with its keeper's key);
* ``create``: a new table (a person and a bot; past the per-address budget, refused);
* ``sockets``: :data:`SOCKETS` WebSockets opened and held (the per-address cap is 32).

It reports per kind the requests sent and how they were answered (served, ``429``
rate-limited, other), and the latency figures of both phases with their ratio; the
acceptance margin is stated in docs/web.md with the figures of a run.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import random
import threading
from collections import Counter
from typing import Any

__all__ = ["ADDRESS", "Hostile", "SOCKETS", "THREADS", "open_sockets"]

#: The hostile client's own source address (all of 127.0.0.0/8 reaches the loopback).
ADDRESS = "127.0.0.2"
#: Threads sending requests without a pause.
THREADS = 6
#: WebSockets it tries to hold open at once.
SOCKETS = 64

#: A hand as counted at a real table (the scorepad's input; tests/web/test_web_scorepad.py).
_TALLY = {"teams": [
    {"canastas": {"natural": 1}, "melded": {"10": 9, "20": 1}, "red_threes": 1,
     "hands": [{}, "7h"], "penalties": []},
    {"melded": {"5": 3}, "hands": [{"50": 1}, {"10": 2}], "red_threes": 0, "penalties": []},
], "went_out": {"team": 0, "player": 0}, "concealed": False}


class Hostile:
    """The hostile client against one server (``port`` on 127.0.0.1) and its ``tables``."""

    def __init__(self, port: int, tables: list[str]) -> None:
        self.port = port
        self.tables = tables
        self.counts: Counter[tuple[str, str]] = Counter()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self.pad, self.key = self._new_pad()

    def _call(self, method: str, path: str, body: Any = None,
              headers: dict[str, str] | None = None) -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30,
                                          source_address=(ADDRESS, 0))
        try:
            data = None if body is None else json.dumps(body)
            conn.request(method, path, body=data, headers={
                "Content-Type": "application/json", **(headers or {})})
            resp = conn.getresponse()
            raw = resp.read()
            try:
                return resp.status, json.loads(raw or b"{}")
            except ValueError:
                return resp.status, None
        finally:
            conn.close()

    def _new_pad(self) -> tuple[str, str]:
        status, data = self._call("POST", "/api/scorepads", {
            "variant": "international", "players": 4, "names": ["A & B", "C & D"]})
        if status != 201:
            raise RuntimeError(f"the hostile client could not make a scorepad: {status} {data}")
        return str(data["id"]), str(data["key"])

    def _one(self, rng: random.Random) -> None:
        kind = rng.choice(("view", "view", "record", "preview", "preview", "create"))
        table = rng.choice(self.tables)
        if kind == "view":
            status, _ = self._call("GET", f"/api/tables/{table}")
        elif kind == "record":
            status, _ = self._call("GET", f"/api/tables/{table}/record")
        elif kind == "preview":
            status, _ = self._call("POST", f"/api/scorepads/{self.pad}/hands",
                                   {"tally": _TALLY, "preview": True},
                                   {"X-Scorepad-Key": self.key})
        else:
            status, _ = self._call("POST", "/api/tables", {
                "variant": "international", "players": 2,
                "seats": [{"type": "human", "name": "h"},
                          {"type": "bot", "level": "greedy", "name": "b"}]})
        answer = "served" if 200 <= status < 300 else "429" if status == 429 else str(status)
        with self._lock:
            self.counts[(kind, answer)] += 1

    def _loop(self, seed: int) -> None:
        rng = random.Random(seed)
        while not self._stop.is_set():
            try:
                self._one(rng)
            except OSError:
                with self._lock:
                    self.counts[("any", "connection refused")] += 1

    def start(self) -> None:
        """Start the threads (they send until :meth:`stop`)."""
        self._threads = [threading.Thread(target=self._loop, args=(i,), daemon=True)
                         for i in range(THREADS)]
        for thread in self._threads:
            thread.start()

    def stop(self) -> dict[str, dict[str, int]]:
        """Stop the threads; per kind, how its requests were answered."""
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=40)
        out: dict[str, dict[str, int]] = {}
        for (kind, answer), n in sorted(self.counts.items()):
            out.setdefault(kind, {})[answer] = n
        return out


async def open_sockets(port: int, table: str, stop: asyncio.Event) -> dict[str, int]:
    """Try to hold :data:`SOCKETS` WebSockets from :data:`ADDRESS` until ``stop``; how many
    were let in and how many refused."""
    from websockets.asyncio.client import connect

    async def one() -> Any:
        try:
            ws = await connect(f"ws://127.0.0.1:{port}/ws/{table}",
                               local_addr=(ADDRESS, 0), open_timeout=10, close_timeout=1)
            await ws.send(json.dumps({"type": "hello", "token": None}))
            reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
        except Exception:  # noqa: BLE001 - refused, whichever way
            return None
        if reply.get("type") == "error":
            await ws.close()
            return None
        return ws

    # all at once: the refused ones cost no time of the measurement's own
    opened = await asyncio.gather(*(one() for _ in range(SOCKETS)))
    held = [ws for ws in opened if ws is not None]
    refused = SOCKETS - len(held)
    await stop.wait()
    await asyncio.gather(*(ws.close() for ws in held), return_exceptions=True)
    return {"held": len(held), "refused": refused}
