"""No engine work on the server's event loop (canasta.web.play.engine): views and legal moves,
moves, going-out plans, bots and hints run in worker threads with a time budget; a table
whose engine call runs past it is paused (its seats told, in the catalogues' words) until the
call returns, and every other table keeps answering meanwhile.

The slow calls are planted: an engine call of one table waits on an Event the test holds,
so that the other table's answers are seen to arrive while it is still running (no
wall-clock time is asserted)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest

from canasta.core.state import State
from canasta.i18n.catalogue import catalogue
from canasta.web.play.game import Game
from conftest import create, view, wait_for

#: Longest a planted call waits for the test to let it go (a failing test never hangs).
HOLD = 60.0


class Planted:
    """Makes ``Game.apply`` (or another method) of one table's game wait until released."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, game: Game, name: str = "apply"
                 ) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()
        self.threads: list[str] = []
        original: Callable[..., Any] = getattr(Game, name)
        planted = self

        def slow(self: Game, *args: Any, **kwargs: Any) -> Any:
            if self is game:
                planted.threads.append(threading.current_thread().name)
                planted.entered.set()
                planted.release.wait(HOLD)
            return original(self, *args, **kwargs)

        monkeypatch.setattr(Game, name, slow)


@pytest.fixture
def side() -> Iterator[ThreadPoolExecutor]:
    """A thread for the request that gets stuck (the test client is synchronous)."""
    pool = ThreadPoolExecutor(max_workers=2)
    yield pool
    pool.shutdown(wait=True)


def two_tables(client: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    return create(client, ["human", "human"]), create(client, ["human", "human"])


def move(client: Any, created: dict[str, Any]) -> Any:
    """A legal move of the person to act (a draw, else a discard: the turn passes),
    through the HTTP API."""
    table = created["table"]
    v = view(client, table)
    seat = v["view"]["actor"]
    token = created["seats"][seat]["token"]
    legal = view(client, table, token)["view"]["legal"]
    pick = next((a for kind in ("draw", "discard") for a in legal if a["type"] == kind),
                legal[0])
    return client.post(f"/api/tables/{table}/actions",
                       json={"token": token, "version": v["version"], "text": pick["text"]})


def test_a_slow_move_at_one_table_leaves_the_others_answering(
        client: Any, monkeypatch: pytest.MonkeyPatch, side: ThreadPoolExecutor) -> None:
    slow, other = two_tables(client)
    planted = Planted(monkeypatch, client.manager.tables[slow["table"]].game)
    stuck: Future[Any] = side.submit(move, client, slow)
    assert planted.entered.wait(HOLD), "the planted call did not start"
    try:
        # the slow table's call runs in a worker thread, not on the event loop...
        assert planted.threads[0].startswith("canasta-engine")
        # ...so another table is seen and played while it is still running
        assert view(client, other["table"])["version"] == 0
        r = move(client, other)
        assert r.status_code == 200, r.text
        assert r.json()["version"] == 1
        assert client.get("/api/variants").status_code == 200
        assert not stuck.done() and not planted.release.is_set()
    finally:
        planted.release.set()
    r = stuck.result(HOLD)
    assert r.status_code == 200 and r.json()["version"] == 1  # within the budget: played


def test_a_call_over_the_budget_pauses_its_table_until_it_returns(
        client: Any, monkeypatch: pytest.MonkeyPatch, side: ThreadPoolExecutor) -> None:
    slow, other = two_tables(client)
    table = client.manager.tables[slow["table"]]
    hand_before = view(client, slow["table"], slow["seats"][0]["token"])["view"]["hand"]
    planted = Planted(monkeypatch, table.game)
    client.manager.engine_budget = 0.2
    with client.websocket_connect(f"/ws/{slow['table']}") as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["type"] == "state"
        stuck: Future[Any] = side.submit(move, client, slow)
        try:
            # the move is answered once the budget is spent, while the call still runs
            r = stuck.result(HOLD)
            assert not planted.release.is_set()
            assert r.status_code == 503 and r.json()["code"] == "paused", r.text
            assert r.json()["key"] == "ui.err_paused"
            # the seats are told, in the catalogues' words
            told = ws.receive_json()
            assert told["type"] == "error" and told["code"] == "paused"
            for lang in ("en", "it", "pt", "ro"):
                assert "{seconds}" in catalogue(lang)[told["key"]]
            # the paused table refuses everything; the other table plays on
            again = client.get(f"/api/tables/{slow['table']}")
            assert again.status_code == 503 and again.json()["code"] == "paused"
            r = move(client, other)
            assert r.status_code == 200 and r.json()["version"] == 1, r.text
            assert table.paused and not planted.release.is_set()
        finally:
            client.manager.engine_budget = 10.0
            planted.release.set()
        # the call returned: the table is read again from the database, where the move
        # that ran over was never stored, and it goes on
        wait_for(lambda: not table.paused, what="the table to go on")
        state = ws.receive_json()
        assert state["type"] == "state" and state["version"] == 0
    v = view(client, slow["table"], slow["seats"][0]["token"])
    assert v["version"] == 0 and v["view"]["hand"] == hand_before
    assert move(client, slow).status_code == 200


class HeldBot:
    """A bot that waits for the test before it plays its first legal move."""

    name = "held"
    release = threading.Event()
    entered = threading.Event()

    def __init__(self, seed: int | None = None) -> None:
        pass

    def choose(self, view: Any) -> Any:
        HeldBot.entered.set()
        HeldBot.release.wait(HOLD)
        return view.legal_actions[0]


def test_a_bot_over_the_budget_pauses_its_table_and_plays_on_after(
        client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from canasta.bots import BOTS

    monkeypatch.setitem(BOTS, "held", HeldBot)
    HeldBot.release.clear()
    HeldBot.entered.clear()
    other = create(client, ["human", "human"])
    client.manager.engine_budget = 0.2
    try:
        r = client.post("/api/tables", json={"players": 2, "seats": [
            {"type": "human"}, {"type": "bot", "level": "held"}]})
        assert r.status_code == 201, r.text
        created = r.json()
        table = client.manager.tables[created["table"]]
        while not HeldBot.entered.wait(0.05):  # the person plays until the bot thinks
            if view(client, created["table"])["view"]["actor"] == 0:
                move(client, created)
        bot_turn = table.version
        wait_for(lambda: table.paused, what="the table to pause")
        assert client.get(f"/api/tables/{created['table']}").status_code == 503
        assert move(client, other).status_code == 200
    finally:
        client.manager.engine_budget = 10.0
        HeldBot.release.set()
    # the bot's move, made after the pause, is not played: the bot looks again and plays
    wait_for(lambda: client.get(f"/api/tables/{created['table']}").status_code == 200
             and view(client, created["table"])["version"] > bot_turn, what="the bot to play")


def test_no_view_legal_move_or_move_is_built_on_the_event_loop(
        client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[str] = []
    for name in ("view", "legal_actions", "verify", "can", "apply", "going_out_plan"):
        original = getattr(State, name)

        def watched(self: State, *args: Any, _original: Any = original) -> Any:
            threads.append(threading.current_thread().name)
            return _original(self, *args)

        monkeypatch.setattr(State, name, watched)
    created = create(client, ["human", "bot"], hints=True)
    client.manager.hint_budget = 0.01
    with client.websocket_connect(f"/ws/{created['table']}") as ws:
        ws.send_json({"type": "hello", "token": created["seats"][0]["token"]})
        assert ws.receive_json()["type"] == "state"
        for _ in range(3):
            v = wait_for(lambda: (lambda seen: seen if seen["view"]["actor"] == 0 else None)(
                view(client, created["table"], created["seats"][0]["token"])),
                what="seat 0 to act")
            hint = client.post(f"/api/tables/{created['table']}/hint",
                               json={"token": created["seats"][0]["token"]})
            assert hint.status_code == 200, hint.text
            r = move(client, created)
            assert r.status_code == 200, r.text
            bad = client.post(f"/api/tables/{created['table']}/actions", json={
                "token": created["seats"][0]["token"], "version": r.json()["version"],
                "text": "meld 3s 3s 3s"})
            assert bad.status_code in (409, 422), bad.text
            assert v["version"] < r.json()["version"]
    # the test's own thread reads nothing here (TestClient's requests run on the app's loop)
    assert threads, "nothing was watched"
    on_loop = [t for t in threads if not t.startswith(("canasta-engine", "canasta-bot"))]
    assert not on_loop, f"{len(on_loop)} engine calls on {set(on_loop)}"
