"""The chat across two server processes on one PostgreSQL database and Redis
(canasta.web.play.chat): a message said on one process reaches a person connected to the
other, and a block set on one process holds on the other."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from conftest import REDIS_URL, ServerProcess, pg_database, redis_reachable

pytestmark = [pytest.mark.db, pytest.mark.slow]


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, ...]]:
    reason = redis_reachable()
    if reason:
        pytest.skip(reason)
    logs = tmp_path_factory.mktemp("chatcluster")
    prefix = f"canasta_test_{uuid.uuid4().hex[:8]}"
    with pg_database("canasta_chat") as url:
        servers = [ServerProcess(url, bot_delay=0.05, log=logs / f"server{i}.log",
                                 redis=REDIS_URL, prefix=prefix) for i in range(2)]
        try:
            for server in servers:
                server.start()
            yield servers[0], servers[1]
        finally:
            for server in servers:
                server.kill()


def join(server: ServerProcess, table: str, token: str) -> Any:
    from websockets.sync.client import connect

    ws = connect(f"ws://127.0.0.1:{server.port}/ws/{table}", open_timeout=10).__enter__()
    ws.send(json.dumps({"type": "hello", "token": token, "chat": True}))
    next_of(ws, "chat-welcome")
    return ws


def next_of(ws: Any, *kinds: str, timeout: float = 20.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        left = end - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no {kinds} message within {timeout} s")
        message: dict[str, Any] = json.loads(ws.recv(timeout=left))
        if message.get("type") in kinds:
            return message


def test_chat_crosses_processes_and_a_block_holds_on_both(pair: Any) -> None:
    a, b = pair
    status, created = a.request("POST", "/api/tables", {
        "players": 4, "seats": [{"type": "human"}] * 3 + [{"type": "bot", "level": "greedy"}]})
    assert status == 201, created
    table, tokens = created["table"], [s["token"] for s in created["seats"]]
    ana, cy = join(a, table, tokens[0]), join(a, table, tokens[2])
    bruno = join(b, table, tokens[1])
    try:
        ana.send(json.dumps({"type": "chat", "preset": "hello"}))
        heard = next_of(bruno, "chat")
        assert (heard["seat"], heard["preset"]) == (0, "hello")
        # Ana, on process A, blocks Bruno, on B: her words no longer reach him there
        ana.send(json.dumps({"type": "chat-mute", "seat": 1, "mode": "block"}))
        assert next_of(ana, "chat-modes")["modes"] == {"1": "block"}
        ana.send(json.dumps({"type": "chat", "preset": "oops"}))
        assert next_of(cy, "chat")["preset"] == "hello"
        assert next_of(cy, "chat")["preset"] == "oops"  # Cy hears her
        cy.send(json.dumps({"type": "chat", "preset": "thanks"}))
        # published by A after Ana's "oops": were it sent to Bruno, it would come first
        later = next_of(bruno, "chat")
        assert (later["seat"], later["preset"]) == (2, "thanks")
        # and his no longer reach her
        bruno.send(json.dumps({"type": "chat", "preset": "sorry"}))
        assert next_of(bruno, "chat")["preset"] == "sorry"
        assert next_of(cy, "chat")["preset"] == "thanks"  # her own
        assert next_of(cy, "chat")["preset"] == "sorry"   # A has heard Bruno by now
        cy.send(json.dumps({"type": "chat", "preset": "bye"}))
        seen = []
        while len(seen) < 2:
            m = next_of(ana, "chat")
            if m["seat"] != 0:
                seen.append(m["preset"])
        assert seen == ["thanks", "bye"], seen
    finally:
        for ws in (ana, cy, bruno):
            ws.close()
