"""Two server processes on one PostgreSQL database, telling each other of changes through
Redis: a move made through one reaches a spectator on the other; the same move sent to both
at once is taken by one and refused as stale by the other, so a table never forks; the bots
of a table are played by one process only."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_restart import essentials, essentials_of, reference

from canasta.web.storage.store import Store
from conftest import REDIS_URL, ServerProcess, pg_database, redis_reachable

pytestmark = [pytest.mark.db, pytest.mark.slow]


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, ...]]:
    """Two processes (bots wait 0.05 s) and the store they share."""
    reason = redis_reachable()
    if reason:
        pytest.skip(reason)
    logs = tmp_path_factory.mktemp("cluster")
    prefix = f"canasta_test_{uuid.uuid4().hex[:8]}"
    with pg_database("canasta_cluster") as url:
        servers = [ServerProcess(url, bot_delay=0.05, log=logs / f"server{i}.log",
                                 redis=REDIS_URL, prefix=prefix) for i in range(2)]
        store = Store(url)
        try:
            for server in servers:
                server.start()
            yield servers[0], servers[1], store  # type: ignore[misc]
        finally:
            for server in servers:
                server.kill()
            store.dispose()


def spectate(server: ServerProcess, table: str, token: str | None = None) -> Any:
    """A WebSocket on ``server`` that has said hello; returns the connection (the caller
    closes it)."""
    from websockets.sync.client import connect

    ws = connect(f"ws://127.0.0.1:{server.port}/ws/{table}", open_timeout=10).__enter__()
    ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


def read_until(ws: Any, version: int, timeout: float = 20.0,
               or_over: bool = False) -> dict[str, Any]:
    """The first state message at ``version`` or later (or, with ``or_over``, at the end of
    the hand)."""
    end = time.monotonic() + timeout
    while True:
        left = end - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no state at version {version} within {timeout} s")
        msg = json.loads(ws.recv(timeout=left))
        if msg.get("type") == "state" and (msg["version"] >= version or (
                or_over and msg["view"]["phase"] == "over")):
            return msg


def create(server: ServerProcess, seats: list[str], **extra: Any) -> dict[str, Any]:
    status, data = server.request("POST", "/api/tables", {
        "variant": "international", "players": len(seats),
        "seats": [{"type": k, "level": "greedy"} for k in seats], **extra})
    assert status == 201, data
    return data


def first_legal(server: ServerProcess, table: str, token: str) -> dict[str, Any]:
    _, mine = server.request("GET", f"/api/tables/{table}", token=token)
    return mine


def test_a_move_through_one_process_reaches_a_spectator_on_the_other(pair: Any) -> None:
    a, b, store = pair
    created = create(a, ["human", "human"])
    table = created["table"]
    tokens = [s["token"] for s in created["seats"]]
    ws = spectate(b, table)
    try:
        start = read_until(ws, 0)
        assert start["you"] is None
        for _ in range(12):
            _, pub = a.request("GET", f"/api/tables/{table}")
            tok = tokens[pub["view"]["actor"]]
            mine = first_legal(a, table, tok)
            pick = mine["view"]["legal"][0]
            status, msg = a.request("POST", f"/api/tables/{table}/actions", {
                "token": tok, "version": mine["version"],
                "action": {k: v for k, v in pick.items() if k != "text"}})
            assert status == 200, msg
            seen = read_until(ws, msg["version"])
            assert seen["version"] == msg["version"]
            state, _ = reference(store, table, upto=msg["version"])
            assert essentials(seen["view"]) == essentials_of(state, None)
        # and the other way round: B's move, A's spectator
        wa = spectate(a, table)
        try:
            read_until(wa, 0)
            _, pub = b.request("GET", f"/api/tables/{table}")
            tok = tokens[pub["view"]["actor"]]
            mine = first_legal(b, table, tok)
            pick = mine["view"]["legal"][0]
            status, msg = b.request("POST", f"/api/tables/{table}/actions", {
                "token": tok, "version": mine["version"],
                "action": {k: v for k, v in pick.items() if k != "text"}})
            assert status == 200, msg
            assert read_until(wa, msg["version"])["version"] == msg["version"]
        finally:
            wa.close()
    finally:
        ws.close()


def test_bots_moves_reach_the_other_process_and_are_played_once(pair: Any) -> None:
    a, b, store = pair
    created = create(a, ["human", "bot", "human", "bot"])
    table = created["table"]
    tok = created["seats"][0]["token"]
    a.request("POST", f"/api/tables/{table}/seats/0/bot", {"token": tok, "level": "greedy"})
    b.request("POST", f"/api/tables/{table}/seats/2/bot",
              {"token": created["seats"][2]["token"], "level": "greedy"})
    ws = spectate(b, table)
    try:
        msg = read_until(ws, 40, or_over=True)
        state, version = reference(store, table, upto=msg["version"])
        assert version == msg["version"]
        assert essentials(msg["view"]) == essentials_of(state, None)
    finally:
        ws.close()
    # the lease is one process's
    data = store.load(table)
    assert data is not None
    with store.engine.connect() as c:
        owners = c.exec_driver_sql(
            f"SELECT owner FROM canasta_tables WHERE id = '{table}'").scalars().all()
    assert len(owners) == 1 and owners[0] is not None


def test_the_same_move_sent_to_both_processes_is_taken_once(pair: Any) -> None:
    a, b, store = pair
    created = create(a, ["human", "human"])
    table = created["table"]
    tokens = [s["token"] for s in created["seats"]]
    results: list[tuple[int, int]] = []
    for _ in range(25):
        _, pub = a.request("GET", f"/api/tables/{table}")
        if pub["view"]["phase"] == "over":
            break
        tok = tokens[pub["view"]["actor"]]
        mine = first_legal(a, table, tok)
        legal = mine["view"]["legal"]
        picks = [legal[0], legal[-1]]
        answers: list[tuple[int, Any]] = [(0, None), (0, None)]

        def send(i: int, server: ServerProcess, pick: dict[str, Any],
                 version: int = mine["version"], token: str = tok,
                 answers: list[tuple[int, Any]] = answers) -> None:
            answers[i] = server.request("POST", f"/api/tables/{table}/actions", {
                "token": token, "version": version,
                "action": {k: v for k, v in pick.items() if k != "text"}})

        threads = [threading.Thread(target=send, args=(i, s, p))
                   for i, (s, p) in enumerate(zip((a, b), picks, strict=True))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        codes = sorted(status for status, _ in answers)
        results.append((codes[0], codes[1]))
        assert codes[0] == 200 and codes[1] in (200, 409), answers
        if codes == [200, 200]:
            # both were taken only if they were one after the other (the second at the
            # version the first made): impossible here, both were sent at one version
            raise AssertionError(f"a table forked: {answers}")
        # both processes now show the one history the database holds
        stored = store.actions(table)
        assert [seq for seq, *_ in stored] == list(range(1, len(stored) + 1))
        version = stored[-1][0]
        state, at = reference(store, table, upto=version)
        assert at == version
        for server in (a, b):
            deadline = time.monotonic() + 10
            while True:
                _, now = server.request("GET", f"/api/tables/{table}")
                if now["version"] >= version or time.monotonic() > deadline:
                    break
                time.sleep(0.02)
            assert now["version"] == version
            assert essentials(now["view"]) == essentials_of(state, None)
    assert len(results) >= 10


def test_a_table_created_on_one_process_is_played_on_the_other(pair: Any,
                                                              tmp_path: Path) -> None:
    a, b, store = pair
    created = create(b, ["human", "bot"])
    table = created["table"]
    tok = created["seats"][0]["token"]
    for _ in range(10):
        status, mine = a.request("GET", f"/api/tables/{table}", token=tok)
        assert status == 200
        if mine["view"]["actor"] != 0:
            time.sleep(0.05)
            continue
        pick = mine["view"]["legal"][0]
        status, msg = a.request("POST", f"/api/tables/{table}/actions", {
            "token": tok, "version": mine["version"],
            "action": {k: v for k, v in pick.items() if k != "text"}})
        assert status in (200, 409), msg
    stored = store.actions(table)
    assert stored and all(seq == i + 1 for i, (seq, *_rest) in enumerate(stored))


def test_workers_serve_behind_one_port(tmp_path: Path) -> None:
    """``--workers 2``: two processes behind one port (uvicorn's workers), each holding
    the leases of the tables it created; their bots play."""
    import os
    import signal
    import subprocess
    import sys
    import urllib.request

    from conftest import ROOT, free_port

    reason = redis_reachable()
    if reason:
        pytest.skip(reason)
    port = free_port()
    with pg_database("canasta_workers") as url:
        log = open(tmp_path / "workers.log", "wb")  # noqa: SIM115
        proc = subprocess.Popen(
            [sys.executable, "-m", "canasta.web", "--port", str(port), "--db", url,
             "--redis", REDIS_URL, "--prefix", f"canasta_test_{uuid.uuid4().hex[:8]}",
             "--workers", "2", "--bot-delay", "0.01", "--log-level", "warning"],
            stdout=log, stderr=log, cwd=ROOT, start_new_session=True)
        store = Store(url)
        try:
            server = ServerProcess(url)
            server.port, server.base = port, f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while True:
                try:
                    urllib.request.urlopen(server.base + "/api/variants", timeout=2).read()
                    break
                except OSError:
                    assert time.monotonic() < deadline, "the workers did not start"
                    time.sleep(0.2)
            children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
            assert len(children) >= 2  # two workers (and uvicorn's own helpers, if any)
            tables = [create(server, ["human", "bot"])["table"] for _ in range(12)]
            with store.engine.connect() as c:
                owners = set(c.exec_driver_sql(
                    "SELECT owner FROM canasta_tables").scalars())
            assert None not in owners and len(owners) >= 1
            # every table is served, whichever worker answers
            for table in tables:
                status, _ = server.request("GET", f"/api/tables/{table}")
                assert status == 200
        finally:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
            log.close()
            store.dispose()
