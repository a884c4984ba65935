"""Inputs and abuse: every bad request gets a clear 4xx or a WebSocket
error message, never a 500 or a dropped connection, and changes nothing. Each test here was
first written against the server as the issue found it, and failed there."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from canasta.web.protocol.fields import clean_name
from canasta.web.protocol.limits import Buckets
from canasta.web.storage.store import Store
from conftest import create, from_address, steady, view

ALL_HUMAN = ["human"] * 4


def tokens(created: dict[str, Any]) -> list[str | None]:
    return [s["token"] for s in created["seats"]]


def snapshot(client: Any, created: dict[str, Any]) -> tuple[Any, ...]:
    """What a refusal must leave unchanged: every seat's state message, the spectator's, the
    stored actions and version."""
    table = created["table"]
    views = [steady(view(client, table, tok)) for tok in tokens(created) if tok]
    return views, steady(view(client, table)), client.store.actions(table), \
        client.store.load(table).version


def hello(ws: Any, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    msg = ws.receive_json()
    assert msg["type"] == "state", msg
    return msg


def still_open(ws: Any, version: int) -> None:
    ws.send_json({"type": "ping"})
    assert ws.receive_json() == {"type": "pong", "version": version}


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


# -- WebSocket frames ---------------------------------------------------------------------
def test_a_binary_frame_is_answered_with_an_error_and_the_connection_stays(client: Any) -> None:
    """A binary frame raised KeyError in receive_text and killed the connection."""
    created = create(client, ALL_HUMAN)
    with client.websocket_connect(f"/ws/{created['table']}") as ws:
        first = hello(ws, tokens(created)[0])
        before = snapshot(client, created)
        ws.send_bytes(b'{"type": "ping"}')
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["code"] == "malformed"
        assert "binary" in msg["message"] and msg["version"] == first["version"]
        still_open(ws, first["version"])
        assert snapshot(client, created) == before


def test_a_binary_hello_is_refused_with_an_error_message(client: Any) -> None:
    created = create(client, ALL_HUMAN)
    with client.websocket_connect(f"/ws/{created['table']}") as ws:
        ws.send_bytes(b"\x00\xff")
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["code"] == "malformed"


# -- nesting -------------------------------------------------------------------------------
@pytest.mark.parametrize("depth", [40, 5000])
def test_deep_nesting_is_refused_with_400(client: Any, depth: int) -> None:
    """Deeply nested JSON returned 500 (RecursionError)."""
    created = create(client, ALL_HUMAN)
    table = created["table"]
    before = snapshot(client, created)
    body = f'{{"token": "{tokens(created)[0]}", "version": 0, "action": {nested(depth)}}}'
    for path in ("/api/tables", f"/api/tables/{table}/actions", f"/api/tables/{table}/hint",
                 "/api/scorepads"):
        r = client.post(path, content=body.encode(), headers={"Content-Type": "application/json"})
        assert r.status_code == 400, (path, r.text)
        assert r.json()["code"] == "malformed" and "deep" in r.json()["message"], r.text
    assert snapshot(client, created) == before
    assert len(client.store.table_ids()) == 1


def test_deep_nesting_over_the_websocket_is_refused(client: Any) -> None:
    created = create(client, ALL_HUMAN)
    with client.websocket_connect(f"/ws/{created['table']}") as ws:
        first = hello(ws, tokens(created)[0])
        before = snapshot(client, created)
        for depth in (40, 5000):
            ws.send_text(f'{{"type": "action", "version": 0, "action": {nested(depth)}}}')
            msg = ws.receive_json()
            assert msg["type"] == "error" and msg["code"] == "malformed", msg
            assert "deep" in msg["message"]
        still_open(ws, first["version"])
        assert snapshot(client, created) == before


# -- numbers -------------------------------------------------------------------------------
def test_a_hand_number_past_the_integer_range_is_a_400(client: Any) -> None:
    """A hand number past SQLite's integer range returned 500 (OverflowError)."""
    created = create(client, ALL_HUMAN)
    table = created["table"]
    for n in (2**63, 2**70, 10**30, -1):
        r = client.get(f"/api/tables/{table}/hands/{n}/record")
        assert r.status_code == 400 and r.json()["code"] == "malformed", (n, r.text)
        assert "hand" in r.json()["message"]
    assert client.get(f"/api/tables/{table}/hands/0/record").status_code == 404


@pytest.mark.parametrize("field, value", [
    ("version", 2**63), ("version", -1), ("version", 1.5), ("version", True),
])
def test_a_version_out_of_range_or_of_the_wrong_type_is_malformed(
        client: Any, field: str, value: Any) -> None:
    created = create(client, ALL_HUMAN)
    table = created["table"]
    before = snapshot(client, created)
    body = {"token": tokens(created)[0], "version": 0, "text": "draw", field: value}
    r = client.post(f"/api/tables/{table}/actions", json=body)
    assert r.status_code == 400 and r.json()["code"] == "malformed", r.text
    assert f"'{field}'" in r.json()["message"] and r.json()["version"] == 0
    assert snapshot(client, created) == before


def test_seat_numbers_out_of_range_are_malformed(client: Any) -> None:
    created = create(client, ALL_HUMAN)
    table = created["table"]
    before = snapshot(client, created)
    for seat in (2**63, 2**70, -1):
        r = client.post(f"/api/tables/{table}/seats/{seat}/bot",
                        json={"token": tokens(created)[0]})
        assert r.status_code == 400 and r.json()["code"] == "malformed", (seat, r.text)
        r = client.post(f"/api/tables/{table}/seats/{seat}/join", json={"name": "x"})
        assert r.status_code == 400 and r.json()["code"] == "malformed", (seat, r.text)
    assert snapshot(client, created) == before


# -- unknown fields, types, sizes ------------------------------------------------------------
def test_unknown_fields_are_refused_by_name(client: Any) -> None:
    r = client.post("/api/tables", json={"players": 2, "colour": "red"})
    assert r.status_code == 400 and "'colour'" in r.json()["message"], r.text
    r = client.post("/api/tables", json={"players": 2, "seats": [
        {"type": "human", "nmae": "Ann"}, {"type": "bot"}]})
    assert r.status_code == 400 and "seats[0].nmae" in r.json()["message"], r.text
    assert client.store.table_ids() == []
    created = create(client, ALL_HUMAN)
    table = created["table"]
    before = snapshot(client, created)
    r = client.post(f"/api/tables/{table}/actions",
                    json={"token": tokens(created)[0], "version": 0, "text": "draw",
                          "force": True})
    assert r.status_code == 400 and "'force'" in r.json()["message"], r.text
    r = client.post(f"/api/tables/{table}/actions",
                    json={"token": tokens(created)[0], "version": 0,
                          "action": {"type": "draw", "why": 1}})
    assert r.status_code == 400 and "'action.why': unknown field" in r.json()["message"], \
        r.text
    r = client.post("/api/tables", json={"players": 2, "colour": "red", "size": 3})
    assert "unknown fields 'colour', 'size'" in r.json()["message"], r.text
    with client.websocket_connect(f"/ws/{table}") as ws:
        hello(ws, tokens(created)[0])
        ws.send_json({"type": "ping", "colour": "red"})
        msg = ws.receive_json()
        assert msg["code"] == "malformed" and "'colour'" in msg["message"], msg
        still_open(ws, 0)
    assert snapshot(client, created) == before


def test_a_hello_with_an_unknown_field_is_refused(client: Any) -> None:
    created = create(client, ALL_HUMAN)
    with client.websocket_connect(f"/ws/{created['table']}") as ws:
        ws.send_json({"type": "hello", "token": tokens(created)[0], "seat": 0})
        msg = ws.receive_json()
        assert msg["code"] == "malformed" and "'seat'" in msg["message"], msg


def test_oversize_bodies_and_messages_are_refused(client: Any) -> None:
    created = create(client, ALL_HUMAN)
    table = created["table"]
    before = snapshot(client, created)
    big = {"token": tokens(created)[0], "version": 0, "text": "draw " + "x" * 40_000}
    r = client.post(f"/api/tables/{table}/actions", json=big)
    assert r.status_code == 400 and "too large" in r.json()["message"]
    r = client.post("/api/scorepads", json={"variant": "international", "players": 4,
                                            "names": ["x" * 40_000]})
    assert r.status_code == 400 and "too large" in r.json()["message"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        hello(ws, tokens(created)[0])
        ws.send_text(json.dumps({"type": "action", **big}))
        msg = ws.receive_json()
        assert msg["code"] == "malformed" and "too large" in msg["message"]
        still_open(ws, 0)
    assert snapshot(client, created) == before


def test_lone_surrogates_and_nan_are_malformed_json(client: Any) -> None:
    created = create(client, ALL_HUMAN)
    table = created["table"]
    before = snapshot(client, created)
    for raw in (b'{"token": "\\ud800", "version": 0, "text": "draw"}',
                b'{"token": "x", "version": NaN, "text": "draw"}',
                b'{"token": "x", "version": 0, "text": "\xff\xfe"}'):
        r = client.post(f"/api/tables/{table}/actions", content=raw,
                        headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and r.json()["code"] == "malformed", (raw, r.text)
    r = client.post("/api/tables", content=b'{"seats": [{"type": "human", "name": "\\udfff"}]}')
    assert r.status_code == 400 and r.json()["code"] == "malformed", r.text
    assert snapshot(client, created) == before


# -- names ---------------------------------------------------------------------------------
EVIL = "\u202eAnn\u2066a\u0007\u200fb\x00c\u2028d\ufeff"


def test_names_lose_control_and_bidi_characters(client: Any) -> None:
    """Names kept bidi-override and control characters (a name could reverse the
    text after it on every other player's screen)."""
    r = client.post("/api/tables", json={"players": 4, "public": True, "seats": [
        {"type": "human", "name": EVIL}, {"type": "bot", "name": "B\u202dot"},
        {"type": "open"}, {"type": "human", "name": "Zoë \u200d👩\u200d👧 جان\u200c"}]})
    assert r.status_code == 201, r.text
    created = r.json()
    assert [s["name"] for s in created["seats"][:2]] == ["Annabc d", "Bot"]
    # joiners stay: scripts and emoji need them
    assert created["seats"][3]["name"] == "Zoë \u200d👩\u200d👧 جان\u200c"
    table = created["table"]
    r = client.post(f"/api/tables/{table}/seats/2/join", json={"name": "\u202bEve\x1b[31m"})
    assert r.status_code == 200, r.text
    names = [s["name"] for s in view(client, table)["seats"]]
    assert names[:3] == ["Annabc d", "Bot", "Eve[31m"]
    assert [s.name for s in client.store.load(table).seats][:3] == names[:3]
    r = client.post("/api/scorepads", json={"variant": "international", "players": 4,
                                            "names": [EVIL, "\u2067Bea\u2069 & Carlo"]})
    assert r.status_code == 201, r.text
    assert r.json()["names"] == ["Annabc d", "Bea & Carlo"]


def test_a_name_of_only_control_characters_falls_back_to_the_default(client: Any) -> None:
    r = client.post("/api/tables", json={"players": 2, "seats": [
        {"type": "human", "name": "\u202e\u202c\x07"}, {"type": "bot"}]})
    assert r.status_code == 201 and r.json()["seats"][0]["name"] == "Player 1"


# -- rate limits ---------------------------------------------------------------------------
@pytest.fixture
def limited(sqlite_store: Store) -> Iterator[Any]:
    """An app whose limits are lowered so that a test can reach them: 5 messages at once per
    seat then 1 a minute; 3 tables at once per client then 1 a minute."""
    from starlette.testclient import TestClient

    from canasta.web.app import create_app
    from canasta.web.protocol.limits import ServerLimits

    limits = ServerLimits(seat_burst=5, seat_rate=1 / 60, create_burst=3, create_rate=1 / 60)
    app = create_app(store=sqlite_store, bot_delay=0, limits=limits)
    with TestClient(app) as c:
        c.store = sqlite_store
        c.manager = app.state.manager
        c.app = app
        yield c


def test_table_creation_is_limited_per_client(limited: Any) -> None:
    """200 tables were created in 14 s with no limit."""

    for _ in range(3):
        create(limited, ["human", "bot"])
    r = limited.post("/api/tables", json={"players": 2})
    assert r.status_code == 429 and r.json()["code"] == "rate-limited", r.text
    assert int(r.headers["retry-after"]) >= 1
    assert len(limited.store.table_ids()) == 3
    # another client is not held back by the first one's tables
    other = from_address(limited, "192.0.2.7")
    assert other.post("/api/tables", json={"players": 2}).status_code == 201


def test_moves_and_messages_are_limited_per_seat(limited: Any) -> None:
    created = create(limited, ALL_HUMAN)
    table = created["table"]
    seat = view(limited, table)["view"]["actor"]
    tok, other = tokens(created)[seat], tokens(created)[(seat + 1) % 4]
    with limited.websocket_connect(f"/ws/{table}") as ws:
        hello(ws, tok)
        for _ in range(5):
            still_open(ws, 0)
        before = snapshot(limited, created)
        ws.send_json({"type": "action", "version": 0, "text": "draw"})
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["code"] == "rate-limited", msg
        assert msg["version"] == 0
        # the same seat over HTTP shares the budget; the table is unchanged
        r = limited.post(f"/api/tables/{table}/actions",
                         json={"token": tok, "version": 0, "text": "draw"})
        assert r.status_code == 429 and r.json()["code"] == "rate-limited"
        assert snapshot(limited, created) == before
    # another seat has its own budget
    r = limited.post(f"/api/tables/{table}/hint", json={"token": other})
    assert r.status_code != 429, r.text


@given(st.text())
def test_a_clean_name_has_no_control_or_format_character_and_stays_clean(text: str) -> None:
    import unicodedata

    name = clean_name(text)
    assert all(unicodedata.category(ch) not in ("Cc", "Cs") for ch in name)
    assert all(unicodedata.category(ch) != "Cf" or ch in "\u200c\u200d" for ch in name)
    assert name == name.strip() and "  " not in name
    assert clean_name(name) == name


def test_a_bucket_refills_at_its_rate_and_forgets_full_keys() -> None:
    now = [0.0]
    buckets = Buckets(3, 2.0, max_keys=2, clock=lambda: now[0])
    assert [buckets.take("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert buckets.take("a") == pytest.approx(0.5)  # one more in half a second
    assert buckets.take("b") == 0.0  # keys are apart
    now[0] += 0.5
    assert buckets.take("a") == 0.0 and buckets.take("a") > 0
    now[0] += 10  # every bucket full again: forgotten once there are too many keys
    for key in ("c", "d", "e"):
        assert buckets.take(key) == 0.0
    assert len(buckets._buckets) <= 2


# -- the same under uvicorn (its WebSocket frames are not the test client's) ------------------
def test_a_real_server_answers_binary_and_oversize_frames(tmp_path: Any) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    from conftest import ServerProcess

    server = ServerProcess(f"sqlite:///{tmp_path / 'real.sqlite3'}")
    server.start()
    try:
        status, created = server.request("POST", "/api/tables", {
            "players": 2, "seats": [{"type": "human"}, {"type": "human"}]})
        assert status == 201, created
        url = f"ws://127.0.0.1:{server.port}/ws/{created['table']}"
        with connect(url) as ws:
            ws.send(json.dumps({"type": "hello", "token": created["seats"][0]["token"]}))
            assert json.loads(ws.recv(timeout=10))["type"] == "state"
            for frame in (b"\x00\x01binary", "x" * 20_000, "[" * 500 + "]" * 500):
                ws.send(frame)
                msg = json.loads(ws.recv(timeout=10))
                assert msg["type"] == "error" and msg["code"] == "malformed", msg
            ws.send(json.dumps({"type": "ping"}))
            assert json.loads(ws.recv(timeout=10)) == {"type": "pong", "version": 0}
            # past uvicorn's 64 KiB the WebSocket library closes with 1009 (message too big)
            ws.send("y" * 70_000)
            with pytest.raises(ConnectionClosed) as info:
                ws.recv(timeout=10)
            assert info.value.rcvd is not None and info.value.rcvd.code == 1009
        status, body = server.request("POST", "/api/tables", {"players": 2, "x": "\u202e"})
        assert status == 400 and "'x'" in body["message"]
    finally:
        server.kill()


def test_the_published_schema_carries_the_models_constraints(client: Any) -> None:
    """What /openapi.json admits the models admit, and the reverse, for the values a
    reliability run found apart: a version written 7.0 (an integer to JSON Schema) is read
    as 7; one player, an empty or blank move text, an unknown variant and a clock of half a
    second are refused by the schema and by the model alike."""
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    create_props = schemas["CreateTable"]["properties"]
    players = next(s for s in create_props["players"]["anyOf"] if s.get("type") == "integer")
    assert players["minimum"] == 2 and players["maximum"] == 6
    text = next(s for s in schemas["MoveBody"]["properties"]["text"]["anyOf"]
                if s.get("type") == "string")
    assert text["minLength"] == 1
    assert re.search(text["pattern"], "meld 9s 9d JK") and not re.search(text["pattern"], " ")
    assert set(create_props["variant"]["enum"]) >= {"international", "brazilian"}
    created = create(client, ["human", "human"])
    table, tokens = created["table"], [s["token"] for s in created["seats"]]
    actor = view(client, table)["view"]["actor"]
    r = client.post(f"/api/tables/{table}/actions",
                    json={"token": tokens[actor], "version": 0.0, "text": "draw"})
    assert r.status_code == 200 and r.json()["version"] == 1, r.text
    for body in ({"token": tokens[actor], "version": 1, "text": ""},
                 {"token": tokens[actor], "version": 1, "text": "   "},
                 {"token": tokens[actor], "version": True, "text": "draw"}):
        r = client.post(f"/api/tables/{table}/actions", json=body)
        assert r.status_code == 400 and r.json()["code"] == "malformed", (body, r.text)
        assert "'text'" in r.json()["message"] or "'version'" in r.json()["message"]
    for body in ({"players": 1}, {"players": 7}, {"variant": "INTERNATIONAL"},
                 {"clock": 0.5}):
        r = client.post("/api/tables", json=body)
        assert r.status_code == 400 and r.json()["code"] == "malformed", (body, r.text)
        assert f"'{list(body)[-1]}'" in r.json()["message"], r.text


@pytest.mark.parametrize("body", [b"\x0b", b"\x0c", b" \x1f "])
def test_a_body_of_characters_json_does_not_count_as_space_is_refused(
        client: Any, body: bytes) -> None:
    # Found by schemathesis: bytes.strip() took "\x0b" for an empty body and created a table.
    r = client.post("/api/tables", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 400, r.text
    assert r.json()["type"] == "error"
