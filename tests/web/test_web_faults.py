"""Faults: one of two server processes killed with SIGKILL under load (bots playing, a person
moving through both processes, spectators on both) loses no acknowledged move; the other
keeps serving, takes over the dead one's tables once their leases run out, and a process
started again serves them too. Every state a spectator was sent is the stored history at
its version."""

from __future__ import annotations

import json
import random
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from test_web_restart import essentials, essentials_of, reference

from canasta.web.storage.store import Store
from conftest import REDIS_URL, ServerProcess, pg_database, redis_reachable

pytestmark = [pytest.mark.db, pytest.mark.slow]

LEASE = 2.0  # seconds: the survivor takes over within a few of them


class Watcher(threading.Thread):
    """A spectator of one table that keeps every state it is sent (reconnecting to the other
    process when its own dies)."""

    def __init__(self, table: str, servers: list[ServerProcess]) -> None:
        super().__init__(daemon=True)
        self.table = table
        self.servers = servers
        self.seen: dict[int, dict[str, Any]] = {}
        self.stop = threading.Event()

    def run(self) -> None:
        from websockets.sync.client import connect

        i = 0
        while not self.stop.is_set():
            server = self.servers[i % len(self.servers)]
            i += 1
            try:
                with connect(f"ws://127.0.0.1:{server.port}/ws/{self.table}",
                             open_timeout=3) as ws:
                    ws.send(json.dumps({"type": "hello", "token": None}))
                    while not self.stop.is_set():
                        try:
                            msg = json.loads(ws.recv(timeout=0.5))
                        except TimeoutError:
                            continue
                        if msg.get("type") == "state":
                            self.seen[msg["version"]] = msg["view"]
            except Exception:  # noqa: BLE001 - its process died: the other one
                time.sleep(0.1)


def _bot_table(server: ServerProcess) -> str:
    status, data = server.request("POST", "/api/tables", {
        "variant": "international", "players": 2,
        "seats": [{"type": "human"}, {"type": "bot", "level": "greedy"}]})
    assert status == 201, data
    status, answer = server.request("POST", f"/api/tables/{data['table']}/seats/0/bot",
                                    {"token": data["seats"][0]["token"], "level": "greedy"})
    assert status == 200, answer
    return str(data["table"])


def test_a_process_killed_under_load_loses_nothing_and_the_other_takes_over(
        tmp_path: Path) -> None:
    reason = redis_reachable()
    if reason:
        pytest.skip(reason)
    rng = random.Random(77)
    prefix = f"canasta_test_{uuid.uuid4().hex[:8]}"
    with pg_database("canasta_faults") as url:
        a, b = (ServerProcess(url, bot_delay=0.05, log=tmp_path / f"{n}.log", redis=REDIS_URL,
                              prefix=prefix, extra=["--lease", str(LEASE)]) for n in "ab")
        store = Store(url)
        watchers: list[Watcher] = []
        try:
            a.start()
            b.start()
            bots = [_bot_table(a) for _ in range(3)] + [_bot_table(b)]
            status, data = a.request("POST", "/api/tables", {
                "variant": "international", "players": 2,
                "seats": [{"type": "human"}, {"type": "human"}]})
            assert status == 201
            people = data["table"]
            tokens = [s["token"] for s in data["seats"]]
            watchers = [Watcher(t, [b, a]) for t in [*bots, people]]
            for w in watchers:
                w.start()
            acked: dict[int, tuple[int, str]] = {}
            kill_at = rng.randint(8, 16)

            def move(server: ServerProcess) -> None:
                status, pub = server.request("GET", f"/api/tables/{people}")
                if status != 200 or pub["view"]["phase"] == "over":
                    return
                seat = pub["view"]["actor"]
                _, mine = server.request("GET", f"/api/tables/{people}", token=tokens[seat])
                if not mine["view"]["legal"]:
                    return  # this process heard of the last move between the two looks
                pick = rng.choice(mine["view"]["legal"])
                action = {k: v for k, v in pick.items() if k != "text"}
                status, msg = server.request("POST", f"/api/tables/{people}/actions", {
                    "token": tokens[seat], "version": mine["version"], "action": action})
                if status == 200:
                    acked[msg["version"]] = (seat, pick["text"])

            for step in range(kill_at):
                move(a if step % 2 else b)
            # a move to A in flight, and A killed
            flight = threading.Thread(target=_quietly, args=(move, a))
            flight.start()
            time.sleep(rng.uniform(0, 0.02))
            versions = {t: store.load(t).version for t in bots}
            a.kill()
            flight.join()
            # B keeps serving at once
            for _ in range(6):
                move(b)
            # and plays A's bots once their leases ran out
            deadline = time.monotonic() + 10 * LEASE + 20
            while time.monotonic() < deadline:
                if all(store.load(t).version > versions[t] + 3 for t in bots):
                    break
                time.sleep(0.2)
            moved = {t: store.load(t).version - versions[t] for t in bots}
            assert all(n > 3 for n in moved.values()), moved
            # A started again serves the tables too
            a.start()
            for _ in range(6):
                move(a)
            time.sleep(0.5)
        finally:
            for w in watchers:
                w.stop.set()
            for w in watchers:
                w.join(5)
            a.kill()
            b.kill()
        stored = {seq: (seat, text) for seq, _, seat, text in store.actions(people)}
        for version, (seat, text) in acked.items():
            assert stored.get(version) == (seat, text), f"acknowledged move {version} lost"
        assert len(acked) >= 10
        # every state a spectator was sent is the stored history at its version
        checked = 0
        for w in watchers:
            data = store.load(w.table)
            seen = sorted(w.seen.items())
            for version, view in seen[::max(1, len(seen) // 25)]:  # 25 of them, spread
                if view["phase"] == "over" or version > data.version:
                    assert version <= data.version, "a state was sent that is not stored"
                    continue
                state, at = reference(store, w.table, upto=version)
                if at != version:
                    continue  # a version of a later hand's deal (reference replays one hand)
                assert essentials(view) == essentials_of(state, None), (w.table, version)
                checked += 1
        assert checked > 40
        store.dispose()


def _quietly(fn: Any, *args: Any) -> None:
    try:
        fn(*args)
    except Exception:  # noqa: BLE001 - the process may die before it answers
        pass
