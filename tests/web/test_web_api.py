"""The HTTP API and the WebSocket: who may move, against which version, with what message;
every refusal is a clear error and leaves the table as it was."""

from __future__ import annotations

import json
from typing import Any

import pytest

from canasta.formats.records import check_record
from canasta.web.play.tables import hash_token
from canasta.web.storage.store import StorageError
from conftest import create, steady, view, wait_for

ALL_HUMAN = ["human"] * 4


def tokens(created: dict[str, Any]) -> list[str | None]:
    return [s["token"] for s in created["seats"]]


def snapshot(client: Any, created: dict[str, Any]) -> tuple[Any, ...]:
    """Everything a refusal must leave unchanged: every seat's view, the spectator's, the
    stored actions and the stored version."""
    table = created["table"]
    views = [steady(view(client, table, tok)) for tok in tokens(created) if tok]
    data = client.store.load(table)
    return views, steady(view(client, table)), client.store.actions(table), data.version


def actor_token(client: Any, created: dict[str, Any]) -> tuple[int, str]:
    v = view(client, created["table"])
    seat = v["view"]["actor"]
    tok = tokens(created)[seat]
    assert tok, "a human seat acts"
    return seat, tok


# -- creating tables -----------------------------------------------------------------------
def test_variants_list_the_presets_and_bot_levels(client: Any) -> None:
    data = client.get("/api/variants").json()
    names = [v["name"] for v in data["variants"]]
    assert "international" in names
    intl = data["variants"][names.index("international")]
    assert 4 in intl["players"] and intl["options"]
    # the lobby offers the levels by name, never the baselines random and greedy
    assert data["bots"] == ["easy", "medium", "hard", "expert"]


def test_create_gives_one_secret_link_per_human_seat(client: Any) -> None:
    created = create(client, ["human", "bot", "human", "bot"])
    table = created["table"]
    seats = created["seats"]
    assert [s["token"] is not None for s in seats] == [True, False, True, False]
    assert seats[0]["path"] == f"/t/{table}#seat={seats[0]['token']}"
    assert created["spectator"]["path"] == f"/t/{table}"
    assert seats[0]["token"] != seats[2]["token"]
    stored = client.store.load(table)
    # only a hash of each token is stored
    assert stored.seats[0].token_hash == hash_token(seats[0]["token"])
    assert seats[0]["token"] not in json.dumps([s.__dict__ for s in stored.seats])
    assert stored.seats[1].token_hash is None


@pytest.mark.parametrize("body, code, words", [
    # what breaks the published schema
    ({"variant": "chess"}, "malformed", "unknown variant"),
    ({"players": "four"}, "malformed", "'players'"),
    ({"players": 4, "seats": [{"type": "human"}]}, "malformed", "'seats'"),
    ({"players": 2, "seats": [{"type": "robot"}, {"type": "human"}]}, "malformed",
     "seats[0].type"),
    ({"players": 2, "seats": [{"type": "bot", "level": "genius"}, {"type": "human"}]},
     "malformed", "seats[0].level"),
    ({"options": ["wild_ratio"]}, "malformed", "'options'"),
    # what the schema admits and the rules or the seats refuse
    ({"players": 5}, "bad-rules", "not 5"),
    ({"options": {"no_such_rule": "x"}}, "bad-rules", "no_such_rule"),
    ({"players": 4, "seats": [{"type": "human"}] * 3}, "table", "need 4 seats"),
    ({"players": 2, "seats": [{"type": "bot"}, {"type": "bot"}]}, "table",
     "at least one person"),
    ({"players": 2, "seats": [{"type": "bot", "level": "easy:careless=2"},
                              {"type": "human"}]}, "bad-bot", "out of range"),
])
def test_create_refuses_a_bad_table_with_a_clear_error(client: Any, body: dict[str, Any],
                                                       code: str, words: str) -> None:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400
    assert r.json()["code"] == code, r.text
    assert words in r.json()["message"]
    assert client.store.table_ids() == []


def test_create_refuses_a_body_that_is_not_json(client: Any) -> None:
    r = client.post("/api/tables", content=b"{not json")
    assert r.status_code == 400 and r.json()["code"] == "malformed"


def test_unknown_table(client: Any) -> None:
    r = client.get("/api/tables/nosuchtable")
    assert r.status_code == 404 and r.json()["code"] == "unknown-table"


# -- what each client sees -------------------------------------------------------------------
def test_a_seat_sees_its_own_hand_and_a_spectator_none(client: Any) -> None:
    created = create(client, ALL_HUMAN)
    table = created["table"]
    state = client.manager.tables[table].game.state
    for seat, tok in enumerate(tokens(created)):
        v = view(client, table, tok)
        assert v["you"] == seat
        assert sorted(v["view"]["hand"]) == sorted(
            __import__("canasta").card_text(c) for c in state.hand_cards(seat))
        assert bool(v["view"]["legal"]) == (seat == state.actor)
    spectator = view(client, table)
    assert spectator["you"] is None
    assert "hand" not in spectator["view"] and "legal" not in spectator["view"]
    assert spectator["view"]["hand_sizes"] == [11, 11, 11, 11]


# -- refused moves: HTTP ---------------------------------------------------------------------
def _post(client: Any, table: str, body: Any) -> Any:
    return client.post(f"/api/tables/{table}/actions", json=body)


def test_http_moves_wrong_token_spectator_wrong_turn_stale_malformed_illegal(
        client: Any) -> None:
    created = create(client, ALL_HUMAN)
    table = created["table"]
    seat, tok = actor_token(client, created)
    other = tokens(created)[(seat + 1) % 4]
    before = snapshot(client, created)
    version = before[0][0]["version"]
    cases = [
        ({"token": "not-a-seat", "version": version, "text": "draw"}, 403, "bad-token"),
        ({"version": version, "text": "draw"}, 403, "spectator"),
        ({"token": other, "version": version, "text": "draw"}, 409, "not-your-turn"),
        # a version below 0 is out of range: malformed, not stale
        ({"token": tok, "version": version - 1, "text": "draw"}, 400, "malformed"),
        ({"token": tok, "version": version + 1, "text": "draw"}, 409, "stale"),
        ({"token": tok, "text": "draw"}, 400, "malformed"),
        ({"token": tok, "version": "0", "text": "draw"}, 400, "malformed"),
        ({"token": tok, "version": version}, 400, "malformed"),
        ({"token": tok, "version": version, "text": "fly away"}, 400, "malformed"),
        ({"token": tok, "version": version, "action": {"type": "discard", "card": "Zz"}},
         400, "malformed"),
        ({"token": tok, "version": version, "action": ["draw"]}, 400, "malformed"),
        ({"token": 12, "version": version, "text": "draw"}, 400, "malformed"),
        ({"token": tok, "version": version, "text": "discard Kh"}, 422, "illegal"),
        ({"token": tok, "version": version, "action": {"type": "meld", "cards": ["5h"]}},
         422, "illegal"),
    ]
    for body, status, code in cases:
        r = _post(client, table, body)
        assert (r.status_code, r.json()["code"]) == (status, code), (body, r.json())
        assert r.json()["message"]
        assert r.json()["version"] == version
        assert snapshot(client, created) == before, body
    r = _post(client, table, {"token": tok, "version": version, "text": "discard Kh"})
    assert r.json()["rule"] == "turn order"
    r = client.post(f"/api/tables/{table}/actions", content=b"]]")
    assert r.status_code == 400 and r.json()["code"] == "malformed"
    assert snapshot(client, created) == before
    # and the right move from the right seat at the right version is accepted
    r = _post(client, table, {"token": tok, "version": version, "action": {"type": "draw"}})
    assert r.status_code == 200, r.text
    assert r.json()["version"] == version + 1
    assert client.store.actions(table)[-1][1:] == (0, seat, "draw")


def test_go_out_when_you_cannot_is_refused(client: Any) -> None:
    created = create(client, ALL_HUMAN)
    table = created["table"]
    seat, tok = actor_token(client, created)
    before = snapshot(client, created)
    r = client.post(f"/api/tables/{table}/go-out", json={"token": tok, "version": 0})
    assert r.status_code == 422 and r.json()["code"] == "illegal"
    assert snapshot(client, created) == before


def test_next_hand_is_refused_while_the_hand_is_played(client: Any) -> None:
    created = create(client, ALL_HUMAN)
    table = created["table"]
    before = snapshot(client, created)
    r = client.post(f"/api/tables/{table}/next-hand",
                    json={"token": tokens(created)[0], "version": 0})
    assert r.status_code == 409 and r.json()["code"] == "not-allowed"
    assert snapshot(client, created) == before


# -- refused moves: WebSocket ----------------------------------------------------------------
def _hello(ws: Any, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    msg = ws.receive_json()
    assert msg["type"] == "state", msg
    return msg


def test_ws_refuses_a_bad_token_and_closes(client: Any) -> None:
    from starlette.websockets import WebSocketDisconnect

    created = create(client, ALL_HUMAN)
    before = snapshot(client, created)
    with client.websocket_connect(f"/ws/{created['table']}") as ws:
        ws.send_json({"type": "hello", "token": "forged"})
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["code"] == "bad-token"
        with pytest.raises(WebSocketDisconnect) as info:
            ws.receive_json()
        assert info.value.code == 4403
    assert snapshot(client, created) == before


def test_ws_needs_a_hello_first(client: Any) -> None:
    created = create(client, ALL_HUMAN)
    with client.websocket_connect(f"/ws/{created['table']}") as ws:
        ws.send_text("draw")
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["code"] == "malformed"


def test_ws_unknown_table(client: Any) -> None:
    with client.websocket_connect("/ws/nosuchtable") as ws:
        msg = ws.receive_json()
        assert msg["code"] == "unknown-table"


def test_ws_refusals_go_to_the_sender_only_and_change_nothing(client: Any) -> None:
    created = create(client, ALL_HUMAN)
    table = created["table"]
    seat, tok = actor_token(client, created)
    other_seat = (seat + 1) % 4
    other = tokens(created)[other_seat]
    with client.websocket_connect(f"/ws/{table}") as ws_actor, \
            client.websocket_connect(f"/ws/{table}") as ws_other, \
            client.websocket_connect(f"/ws/{table}") as ws_watch:
        _hello(ws_actor, tok)
        _hello(ws_other, other)
        _hello(ws_watch, None)
        # each attach is broadcast: the earlier clients hear of the later ones
        for ws, count in ((ws_actor, 2), (ws_other, 1)):
            for _ in range(count):
                assert ws.receive_json()["type"] == "state"
        before = snapshot(client, created)
        version = before[3]
        refusals = [
            (ws_actor, "{nope", "malformed"),
            (ws_actor, json.dumps([1, 2]), "malformed"),
            (ws_actor, json.dumps({"type": "dance"}), "malformed"),
            (ws_actor, json.dumps({"type": "action", "version": version}), "malformed"),
            (ws_actor, json.dumps({"type": "action", "version": version,
                                   "action": {"type": "meld", "cards": "9s"}}), "malformed"),
            (ws_actor, json.dumps({"type": "action", "version": version + 1,
                                   "text": "draw"}), "stale"),
            (ws_actor, json.dumps({"type": "action", "version": version,
                                   "text": "discard 5h"}), "illegal"),
            (ws_other, json.dumps({"type": "action", "version": version,
                                   "text": "draw"}), "not-your-turn"),
            (ws_watch, json.dumps({"type": "action", "version": version,
                                   "text": "draw"}), "spectator"),
            (ws_watch, json.dumps({"type": "next-hand", "version": version}), "spectator"),
        ]
        for ws, text, code in refusals:
            ws.send_text(text)
            msg = ws.receive_json()
            assert msg["type"] == "error" and msg["code"] == code, (text, msg)
            assert msg["message"] and msg["version"] == version
            if code == "stale":  # a stale client is sent the table as it stands
                fresh = ws.receive_json()
                assert fresh["type"] == "state" and fresh["version"] == version
            assert snapshot(client, created) == before, text
        # the connections stay open; nobody else received anything
        for ws in (ws_actor, ws_other, ws_watch):
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong", "version": version}
        # an accepted move is stored before any client hears of it
        ws_actor.send_json({"type": "action", "version": version, "action": {"type": "draw"}})
        for ws in (ws_actor, ws_other, ws_watch):
            msg = ws.receive_json()
            assert msg["type"] == "state" and msg["version"] == version + 1
            assert client.store.actions(table)[-1][:3] == (version + 1, 0, seat)


def test_a_move_that_cannot_be_stored_is_not_played(client: Any, monkeypatch: Any) -> None:
    created = create(client, ALL_HUMAN)
    table = created["table"]
    seat, tok = actor_token(client, created)
    before = snapshot(client, created)

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise StorageError("disk on fire")

    monkeypatch.setattr(client.store, "append_actions", refuse)
    monkeypatch.setattr(client.store, "append_many", refuse)  # moves go in batches
    r = _post(client, table, {"token": tok, "version": 0, "text": "draw"})
    assert r.status_code == 503 and r.json()["code"] == "storage"
    monkeypatch.undo()
    assert snapshot(client, created) == before
    r = _post(client, table, {"token": tok, "version": 0, "text": "draw"})
    assert r.status_code == 200


# -- seats: bots for empty seats, players coming back ----------------------------------------
def test_an_empty_seat_is_given_to_a_bot_and_its_player_takes_it_back(client: Any) -> None:
    created = create(client, ["human", "bot", "human", "bot"])
    table = created["table"]
    ann, bea = tokens(created)[0], tokens(created)[2]
    with client.websocket_connect(f"/ws/{table}") as ws_ann:
        _hello(ws_ann, ann)
        # Bea has not come for longer than the grace period: Ann lets a bot play her seat
        client.manager.tables[table].seats[2].gone_since -= client.manager.clocks.away_after
        r = client.post(f"/api/tables/{table}/seats/2/bot", json={"token": ann})
        assert r.status_code == 200, r.text
        assert client.store.load(table).seats[2].controller == "bot"
        # a bot now plays seat 2; Bea's own moves are refused meanwhile
        v = wait_for(lambda: (lambda x: x if x["view"]["actor"] == 0 else None)(
            view(client, table, ann)), what="Ann's turn")
        assert v["seats"][2]["controller"] == "bot"
        r = _post(client, table, {"token": bea, "version": v["version"], "text": "draw"})
        assert r.status_code in (409,)
        # Ann is at the table: nobody may hand her seat to a bot
        r = client.post(f"/api/tables/{table}/seats/0/bot", json={"token": bea})
        assert r.status_code == 409 and r.json()["code"] == "not-allowed"
        # seat numbers and levels are checked
        for body, seat in [({"token": ann}, "9"), ({"token": ann, "level": "x"}, "2"),
                           ({"token": ann}, "two")]:
            r = client.post(f"/api/tables/{table}/seats/{seat}/bot", json=body)
            assert r.status_code in (400, 404, 409), r.text
        r = client.post(f"/api/tables/{table}/seats/2/bot", json={"token": "forged"})
        assert r.status_code == 403
        # Bea arrives with her link: she gets her seat back, the table as it stands
        with client.websocket_connect(f"/ws/{table}") as ws_bea:
            msg = _hello(ws_bea, bea)
            assert msg["you"] == 2 and msg["seats"][2]["controller"] == "human"
            assert msg["seats"][2]["connected"]
            stored = client.store.load(table)
            assert stored.seats[2].controller == "human"
            assert msg["version"] == stored.version


def test_a_player_who_reconnects_gets_the_table_as_it_stands(client: Any) -> None:
    created = create(client, ["human", "bot", "human", "bot"])
    table = created["table"]
    ann = tokens(created)[0]
    with client.websocket_connect(f"/ws/{table}") as ws:
        first = _hello(ws, ann)
    wait_for(lambda: view(client, table)["view"]["actor"] in (0, 2), what="a human's turn")
    seat, tok = actor_token(client, created)
    v = view(client, table, tok)
    r = _post(client, table, {"token": tok, "version": v["version"], "text": "draw"})
    assert r.status_code == 200
    with client.websocket_connect(f"/ws/{table}") as ws:
        again = _hello(ws, ann)
    assert again["version"] > first["version"]
    assert again["view"] == view(client, table, ann)["view"]


# -- whole hands, records, the next hand ---------------------------------------------------
def play_human_turns(client: Any, created: dict[str, Any], limit: int = 2000) -> dict[str, Any]:
    """Play the human seats until the hand is over: go out when the engine can, meld once the
    side is open, else discard the first legal card (or take back an opening that is stuck)."""
    table = created["table"]
    for _ in range(limit):
        v = wait_for(lambda: (lambda x: x if x["view"]["phase"] == "over"
                              or tokens(created)[x["view"]["actor"]] else None)(
            view(client, table)), what="a human's turn or the end")
        if v["view"]["phase"] == "over":
            return v
        seat = v["view"]["actor"]
        tok = tokens(created)[seat]
        mine = view(client, table, tok)
        legal = mine["view"]["legal"]
        if mine["view"]["go_out"]:
            r = client.post(f"/api/tables/{table}/go-out",
                            json={"token": tok, "version": mine["version"]})
        else:
            opened = mine["view"]["opened"][mine["seats"][seat]["team"]]
            pick = (next((a for a in legal if a["type"] in ("draw", "answer")), None)
                    or (opened and next((a for a in legal if a["type"] == "meld"), None))
                    or next((a for a in legal if a["type"] == "discard"), None)
                    or next((a for a in legal if a["type"] == "retract"), None)
                    or legal[0])
            r = _post(client, table, {"token": tok, "version": mine["version"],
                                      "action": pick})
        assert r.status_code == 200, r.text
    raise AssertionError("the hand did not end")


def test_a_whole_hand_its_record_and_the_next_hand(any_client: Any) -> None:
    client = any_client
    created = create(client, ["human", "bot", "bot", "bot"])
    table = created["table"]
    ann = tokens(created)[0]
    r = client.get(f"/api/tables/{table}/record")
    assert r.status_code == 404  # no finished hand: the deck in play is never handed out
    end = play_human_turns(client, created)
    assert end["match"]["hands"][0]["hand"] == 0
    r = client.get(f"/api/tables/{table}/record")
    assert r.status_code == 200
    assert "attachment" in r.headers["content-disposition"]
    record = r.json()
    assert len(record["hands"]) == 1 and check_record(record) == []
    stored = client.store.actions(table)
    assert [[seat, text] for _, _, seat, text in stored] == record["hands"][0]["actions"]
    assert record["hands"][0]["sheets"] == end["match"]["hands"][0]["sheets"]
    version = end["version"]
    r = client.post(f"/api/tables/{table}/next-hand", json={"token": ann, "version": version - 1})
    assert r.status_code == 409 and r.json()["code"] == "stale"
    r = client.post(f"/api/tables/{table}/next-hand", json={"token": ann, "version": version})
    assert r.status_code == 200, r.text
    nxt = r.json()
    assert nxt["hand_number"] == 1 and nxt["dealer"] == 1
    assert nxt["view"]["scores"] == end["match"]["scores"]
    # the finished hand's record is still there; the new hand's deck is not in any record
    assert client.get(f"/api/tables/{table}/hands/0/record").json() == record
    assert client.get(f"/api/tables/{table}/hands/1/record").status_code == 404
    assert client.get(f"/api/tables/{table}/hands/x/record").status_code == 400
    end2 = play_human_turns(client, created)
    record2 = client.get(f"/api/tables/{table}/record").json()
    assert len(record2["hands"]) == 2 and check_record(record2) == []
    assert record2["scores"] == end2["match"]["scores"]
