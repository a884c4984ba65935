"""One client cannot load the server down (canasta.web.protocol.ratelimit): requests that make the
server compute and table views are rate-limited per address, WebSocket connections per address and
spectators per table are capped, and a table nobody attends stops its bots until someone
comes back."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from test_web_scorepad import HAND

from canasta.web.protocol.limits import ServerLimits
from canasta.web.storage.store import Store
from conftest import create, from_address, view, wait_for


@contextmanager
def tight_client(store: Store) -> Iterator[Any]:
    """A test client of a server with small budgets (a view's: 3, then one a minute)."""
    from starlette.testclient import TestClient

    from canasta.web.app import create_app

    limits = ServerLimits(work_burst=5, work_rate=1 / 60, sockets_per_address=3,
                          spectators_per_table=2, view_burst=3, view_rate=1 / 60)
    app = create_app(store=store, bot_delay=0, limits=limits)
    with TestClient(app) as c:
        c.store = store
        c.manager = app.state.manager
        c.app = app
        yield c


@pytest.fixture
def tight(sqlite_store: Store) -> Iterator[Any]:
    with tight_client(sqlite_store) as c:
        yield c


def test_scorepad_previews_are_limited_per_address(tight: Any) -> None:

    pad = tight.post("/api/scorepads", json={"variant": "international", "players": 4}).json()
    url = f"/api/scorepads/{pad['id']}/hands"
    for _ in range(5):
        r = tight.post(url, json={"tally": HAND, "preview": True},
                       headers={"X-Scorepad-Key": pad["key"]})
        assert r.status_code == 200, r.text
    r = tight.post(url, json={"tally": HAND, "preview": True})
    assert r.status_code == 429 and r.json()["code"] == "rate-limited", r.text
    assert int(r.headers["retry-after"]) >= 1
    # storing a hand and the hand result spend the same budget: other scorepads too
    other_pad = tight.post("/api/scorepads", json={"variant": "international",
                                                   "players": 4}).json()
    r = tight.post(f"/api/scorepads/{other_pad['id']}/hands", json={"tally": HAND},
                   headers={"X-Scorepad-Key": other_pad["key"]})
    assert r.status_code == 429
    # another address is not held back
    other = from_address(tight, "192.0.2.9")
    assert other.post(url, json={"tally": HAND, "preview": True},
                      headers={"X-Scorepad-Key": pad["key"]}).status_code == 200


def test_records_and_hints_spend_the_work_budget(tight: Any) -> None:
    created = create(tight, ["human", "bot"])
    table, tok = created["table"], created["seats"][0]["token"]
    codes = [tight.get(f"/api/tables/{table}/record").status_code for _ in range(5)]
    assert 429 not in codes
    r = tight.post(f"/api/tables/{table}/hint", json={"token": tok})
    assert r.status_code == 429, r.text


def _seen_from(client: Any, address: str, table: str) -> dict[str, Any]:
    """The spectator's view of ``table`` asked from ``address``, whose budget is its own."""

    r = from_address(client, address).get(f"/api/tables/{table}")
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_table_views_are_limited_per_address_and_a_refusal_changes_nothing(
        tight: Any) -> None:
    created = create(tight, ["human", "bot"])
    table, tok = created["table"], created["seats"][0]["token"]
    live = tight.manager.tables[table]
    # no clock: once the bot has played up to her turn, nothing moves until she does
    wait_for(lambda: live.game.state.actor == 0, what="seat 0 to act")
    before = _seen_from(tight, "192.0.2.20", table)
    # the seat's view and the spectator's spend one budget: the address's
    assert view(tight, table, tok)["you"] == 0
    assert view(tight, table)["version"] == before["version"]
    assert view(tight, table, tok)["version"] == before["version"]
    seen = live.last_person
    for token in (tok, None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = tight.get(f"/api/tables/{table}", headers=headers)
        assert r.status_code == 429, r.text
        body = r.json()
        assert body["code"] == "rate-limited" and "table views" in body["message"], body
        assert body["version"] == before["version"]
        assert int(r.headers["retry-after"]) >= 1
    # a refused view is not a person's visit, and the table is as it was
    assert live.last_person == seen
    after = _seen_from(tight, "192.0.2.21", table)
    assert {k: after[k] for k in ("version", "view", "seats", "match")} == \
        {k: before[k] for k in ("version", "view", "seats", "match")}
    # moves are not views: the seat still plays
    move = tight.post(f"/api/tables/{table}/actions",
                      json={"token": tok, "version": before["version"],
                            "action": {"type": "draw"}})
    assert move.status_code == 200, move.text


def test_an_exempt_address_is_never_refused_a_view(sqlite_store: Store,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:

    monkeypatch.setenv("CANASTA_LIMITS_EXEMPT", "testclient")
    with tight_client(sqlite_store) as c:
        table = create(c, ["human", "bot"])["table"]
        for _ in range(10):
            view(c, table)
        # the exemption is the named address's only
        other = from_address(c, "192.0.2.22")
        codes = [other.get(f"/api/tables/{table}").status_code for _ in range(4)]
        assert codes == [200, 200, 200, 429]


def _hello(ws: Any, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    msg: dict[str, Any] = ws.receive_json()
    return msg


def test_websockets_are_capped_per_address(tight: Any) -> None:

    created = create(tight, ["human", "human", "bot", "bot"])
    table = created["table"]
    toks = [s["token"] for s in created["seats"]]
    with tight.websocket_connect(f"/ws/{table}") as a, \
            tight.websocket_connect(f"/ws/{table}") as b, \
            tight.websocket_connect(f"/ws/{table}") as c:
        for ws, tok in ((a, toks[0]), (b, toks[1]), (c, None)):
            assert _hello(ws, tok)["type"] == "state"
        with tight.websocket_connect(f"/ws/{table}") as d:
            msg = d.receive_json()
            assert msg["type"] == "error" and msg["code"] == "rate-limited", msg
        # another address may still watch
        other = from_address(tight, "192.0.2.10")
        with other.websocket_connect(f"/ws/{table}") as e:
            assert _hello(e, None)["type"] == "state"
    # the count goes down as they close
    wait_for(lambda: not tight.app.state.manager.tables[table].conns, what="closed")
    with tight.websocket_connect(f"/ws/{table}") as a:
        assert _hello(a, toks[0])["type"] == "state"


def test_spectators_per_table_are_capped(tight: Any) -> None:
    # One client (one event loop): clients of their own would each run the app on another
    # loop, and the table's asyncio lock then deadlocked the suite.
    created = create(tight, ["human", "bot"])
    table = created["table"]
    with tight.websocket_connect(f"/ws/{table}") as a, \
            tight.websocket_connect(f"/ws/{table}") as b:
        assert _hello(a, None)["type"] == "state" and _hello(b, None)["type"] == "state"
        with tight.websocket_connect(f"/ws/{table}") as c:
            msg = _hello(c, None)
            assert msg["type"] == "error" and msg["code"] == "rate-limited", msg
    # a seated person always gets in
    with tight.websocket_connect(f"/ws/{table}") as d:
        assert _hello(d, created["seats"][0]["token"])["type"] == "state"


def test_a_table_nobody_attends_stops_its_bots_until_someone_comes_back(client: Any) -> None:
    created = create(client, ["human", "bot", "bot", "bot"])
    table, ann = created["table"], created["seats"][0]["token"]
    live = client.manager.tables[table]
    # Ann lets a bot play her seat and leaves: only bots play
    assert client.post(f"/api/tables/{table}/seats/0/bot",
                       json={"token": ann}).status_code == 200
    wait_for(lambda: view(client, table)["version"] > 3, what="the bots to play")
    live.last_person -= client.manager.idle_after + 1
    wait_for(lambda: live.bot_task is None or live.bot_task.done(), what="the bots to stop")
    stopped = view(client, table)["version"]
    assert not live.game.state.is_over
    # a spectator's look does not wake them; a person's does
    for _ in range(20):
        assert view(client, table)["version"] == stopped
    view(client, table, ann)
    wait_for(lambda: view(client, table)["version"] > stopped, what="the bots to play again")
