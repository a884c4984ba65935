"""Seats that never stall and help at the table: the turn clock,
the bot that plays for an absent person ("away"), bots by level, bots that think without
blocking the server, hints, and the house rule undo."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from canasta.bots import BOTS
from canasta.core.cards import parse_card
from canasta.core.state import View
from canasta.i18n import catalogue
from canasta.web.storage.store import Store
from conftest import create, view, wait_for


@pytest.fixture
def quick(sqlite_store: Store) -> Iterator[Any]:
    """A test client whose disconnected players are taken over after 0.3 s."""
    from starlette.testclient import TestClient

    from canasta.web.app import create_app

    app = create_app(store=sqlite_store, bot_delay=0, away_after=0.3)
    with TestClient(app) as c:
        c.store = sqlite_store
        c.manager = app.state.manager
        yield c


def seat_of(v: dict[str, Any], seat: int) -> dict[str, Any]:
    return v["seats"][seat]


def wait_turn(client: Any, table: str, seat: int) -> dict[str, Any]:
    return wait_for(lambda: (lambda v: v if v["view"]["actor"] == seat
                             and v["view"]["phase"] != "over" else None)(view(client, table)),
                    what=f"seat {seat} to act")


# -- the turn clock ------------------------------------------------------------------------
def test_the_clock_runs_out_and_a_bot_of_the_table_level_plays_the_seat(client: Any) -> None:
    created = create(client, ["human", "bot", "bot", "bot"], clock=1, level="greedy")
    table, token = created["table"], created["seats"][0]["token"]
    v = wait_turn(client, table, 0)
    assert v["clock"]["seat"] == 0 and 0 < v["clock"]["remaining"] <= 1
    assert v["settings"]["clock"] == 1
    before = v["version"]
    away = wait_for(lambda: seat_of(view(client, table), 0)["away"], timeout=5, what="away")
    assert away
    v = view(client, table, token)
    assert seat_of(v, 0)["controller"] == "bot" and seat_of(v, 0)["level"] == "greedy"
    # the bot plays on for the absent person: the table moves past the stalled turn
    wait_for(lambda: view(client, table)["version"] > before + 1, what="the bot to move")
    stored = client.store.load(table).seats[0]
    assert (stored.controller, stored.away) == ("bot", True)
    # coming back: the person takes the seat back and the bot stops
    with client.websocket_connect(f"/ws/{table}") as ws:
        ws.send_json({"type": "hello", "token": token})
        wait_for(lambda: seat_of(view(client, table), 0)["controller"] == "human",
                 what="the seat taken back")
    assert not client.store.load(table).seats[0].away


def test_no_clock_by_default_and_a_bad_clock_is_refused(client: Any) -> None:
    created = create(client, ["human", "bot"], variant="international")
    assert view(client, created["table"])["settings"]["clock"] == 0
    for bad in (0.5, -3, "fast", True, 99_999):
        r = client.post("/api/tables", json={"players": 2, "clock": bad,
                                             "seats": [{"type": "human"}, {"type": "bot"}]})
        assert r.status_code == 400 and "'clock'" in r.json()["message"], bad


def test_a_disconnected_person_is_replaced_on_their_turn_and_returns(quick: Any) -> None:
    created = create(quick, ["human", "bot", "bot", "bot"], level="greedy")
    table, token = created["table"], created["seats"][0]["token"]
    with quick.websocket_connect(f"/ws/{table}") as ws:
        ws.send_json({"type": "hello", "token": token})
        assert ws.receive_json()["type"] == "state"
        wait_turn(quick, table, 0)
        time.sleep(0.5)  # connected: no takeover however long the person thinks
        assert seat_of(view(quick, table), 0)["controller"] == "human"
    wait_for(lambda: seat_of(view(quick, table), 0)["away"], timeout=5, what="away")
    with quick.websocket_connect(f"/ws/{table}") as ws:
        ws.send_json({"type": "hello", "token": token})
        wait_for(lambda: not seat_of(view(quick, table), 0)["away"], what="back")


@pytest.mark.parametrize("clock", [0, 120])
def test_the_countdown_everyone_sees_is_the_one_that_decides(sqlite_store: Store,
                                                             clock: int) -> None:
    """While the person to act is connected the countdown is the turn clock (none when the
    clock is off); once she has left, it is the away time when that runs out first, and
    every seat and spectator is sent the same one."""
    from starlette.testclient import TestClient

    from canasta.web.app import create_app

    app = create_app(store=sqlite_store, bot_delay=0, away_after=30)
    with TestClient(app) as c:
        created = create(c, ["human", "bot"], clock=clock, level="greedy")
        table, tok = created["table"], created["seats"][0]["token"]
        live = app.state.manager.tables[table]
        with c.websocket_connect(f"/ws/{table}") as ws:
            ws.send_json({"type": "hello", "token": tok})
            assert ws.receive_json()["type"] == "state"
            v = wait_turn(c, table, 0)
            if clock:
                assert v["clock"]["seat"] == 0 and not v["clock"]["away"]
                assert v["clock"]["seconds"] == 120 and 30 < v["clock"]["remaining"] <= 120
            else:
                assert v["clock"] is None
        gone = wait_for(lambda: (lambda v: v if v["clock"] else None)(view(c, table)),
                        what="the away countdown")
        assert gone["clock"]["seat"] == 0 and gone["clock"]["away"]
        assert gone["clock"]["seconds"] == 30 and 0 < gone["clock"]["remaining"] <= 30
        assert not seat_of(gone, 0)["connected"] and not seat_of(gone, 0)["away"]
        # the seat's own view and the spectator's: one countdown, the timer's own deadline
        mine = view(c, table, tok)["clock"]
        assert mine["away"] and abs(mine["remaining"] - gone["clock"]["remaining"]) < 1
        assert live.countdown is not None
        assert live.countdown.due == getattr(live.clock_task, "due", None)
        # back: the turn clock again (it ran on meanwhile), or none
        with c.websocket_connect(f"/ws/{table}") as ws:
            ws.send_json({"type": "hello", "token": tok})
            assert ws.receive_json()["type"] == "state"
            def turn_clock_again() -> bool:
                k = view(c, table)["clock"]
                return k is None if not clock else (not k["away"] and k["remaining"] > 30)

            wait_for(turn_clock_again, what="the turn clock again")


def test_a_person_whose_clock_ran_out_is_back_with_take_back(client: Any) -> None:
    created = create(client, ["human", "bot"], clock=1, level="greedy")
    table, token = created["table"], created["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        ws.send_json({"type": "hello", "token": token})
        wait_for(lambda: seat_of(view(client, table), 0)["away"], timeout=8, what="away")
        ws.send_json({"type": "take-back"})
        v = wait_for(lambda: (lambda v: v if seat_of(v, 0)["controller"] == "human" else None)(
            view(client, table)), what="back")
        assert not seat_of(v, 0)["away"]


# -- bots by level ---------------------------------------------------------------------------
def test_seats_default_to_a_hard_bot_and_levels_are_checked(client: Any) -> None:
    r = client.post("/api/tables", json={"players": 2, "seats": [{"type": "human"},
                                                                 {"type": "bot"}]})
    assert r.status_code == 201
    table = client.manager.tables[r.json()["table"]]
    assert table.seats[1].level == "hard" and table.settings.level == "hard"
    r = client.post("/api/tables", json={"players": 2, "level": "grandmaster",
                                         "seats": [{"type": "human"}, {"type": "bot"}]})
    assert r.status_code == 400 and "'level'" in r.json()["message"]
    names = catalogue("en")
    assert all(f"ui.level_{lvl}" in names for lvl in client.get("/api/variants").json()["bots"])


class WaitingBot:
    """A stand-in for the expert: says it started thinking, then thinks until it is let go,
    and plays the first legal move."""

    name = "waiting"
    started = threading.Event()
    release = threading.Event()

    def __init__(self, seed: int | None = None) -> None:
        pass

    def choose(self, view: View) -> Any:
        WaitingBot.started.set()
        if not WaitingBot.release.wait(30):
            raise RuntimeError("the test never let the bot go")
        return view.legal_actions[0]


def test_a_thinking_bot_blocks_neither_the_server_nor_its_table(client: Any) -> None:
    BOTS["waiting"] = WaitingBot
    WaitingBot.started.clear()
    WaitingBot.release.clear()
    try:
        created = create(client, ["human", "human"])
        table = created["table"]
        actor = view(client, table)["view"]["actor"]
        token = created["seats"][actor]["token"]
        # the seat to act hands itself to the bot, which starts thinking at once
        r = client.post(f"/api/tables/{table}/seats/{actor}/bot",
                        json={"token": token, "level": "waiting"})
        assert r.status_code == 200, r.text
        assert WaitingBot.started.wait(20), "the bot never started thinking"
        # the bot is thinking (it cannot return before it is let go): the server answers
        assert client.get("/api/variants").status_code == 200
        during = view(client, table)
        assert during["view"]["actor"] == actor and not WaitingBot.release.is_set()
        WaitingBot.release.set()
        # and the bot's move lands once it is done thinking
        wait_for(lambda: view(client, table)["version"] > during["version"],
                 what="the bot's move")
    finally:
        WaitingBot.release.set()
        del BOTS["waiting"]


# -- hints -------------------------------------------------------------------------------------
def test_a_hint_lists_legal_moves_with_reasons_from_the_catalogue(client: Any) -> None:
    client.manager.hint_budget = 0.05
    created = create(client, ["human", "bot"], variant="international")
    table, token = created["table"], created["seats"][0]["token"]
    v = wait_turn(client, table, 0)
    r = client.post(f"/api/tables/{table}/hint", json={"token": token})
    assert r.status_code == 200, r.text
    hint = r.json()
    assert hint["type"] == "hint" and hint["version"] == v["version"]
    legal = {a["text"] for a in view(client, table, token)["view"]["legal"]}
    names = catalogue("en")
    assert 1 <= len(hint["items"]) <= 3
    for item in hint["items"]:
        assert item["action"]["text"] in legal
        assert item["reasons"] and all(r["key"] in names for r in item["reasons"])


def test_hints_switched_off_are_refused_and_only_the_seat_to_act_gets_one(client: Any) -> None:
    created = create(client, ["human", "human"], hints=False)
    table = created["table"]
    toks = [s["token"] for s in created["seats"]]
    r = client.post(f"/api/tables/{table}/hint", json={"token": toks[0]})
    assert r.status_code == 409 and "hints" in r.json()["message"]
    created = create(client, ["human", "human"])
    table = created["table"]
    actor = view(client, table)["view"]["actor"]
    other = created["seats"][1 - actor]["token"]
    r = client.post(f"/api/tables/{table}/hint", json={"token": other})
    assert r.status_code == 409 and r.json()["code"] == "not-your-turn"


# -- undo --------------------------------------------------------------------------------------
def _turn_with_a_meld(client: Any, created: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Play (draw, discard) until the seat to act, having drawn, can meld; returns its token
    and its view then."""
    table = created["table"]
    toks = [s["token"] for s in created["seats"]]
    for _ in range(200):
        v = view(client, table)
        tok = toks[v["view"]["actor"]]
        mine = view(client, table, tok)
        legal = mine["view"]["legal"]
        if mine["view"]["phase"] == "draw":
            act = next(a for a in legal if a["type"] == "draw")
        elif any(a["type"] == "meld" for a in legal):
            return tok, mine
        else:
            act = next(a for a in legal if a["type"] == "discard")
        act = {k: x for k, x in act.items() if k != "text"}
        r = client.post(f"/api/tables/{table}/actions",
                        json={"token": tok, "version": mine["version"], "action": act})
        assert r.status_code == 200, r.text
    raise AssertionError("no seat could meld")


def test_undo_takes_back_this_turns_melds_and_is_off_by_default(any_client: Any) -> None:
    client = any_client  # the undone actions are marked on SQLite and PostgreSQL alike
    created = create(client, ["human"] * 4, undo=True)
    table = created["table"]
    tok, before = _turn_with_a_meld(client, created)
    assert not before["can_undo"]
    meld = next(a for a in before["view"]["legal"] if a["type"] == "meld")
    meld = {k: x for k, x in meld.items() if k != "text"}
    r = client.post(f"/api/tables/{table}/actions",
                    json={"token": tok, "version": before["version"], "action": meld})
    melded = r.json()
    assert melded["can_undo"] and len(melded["view"]["hand"]) < len(before["view"]["hand"])
    r = client.post(f"/api/tables/{table}/undo", json={"token": tok, "version": 0})
    assert r.status_code == 409 and r.json()["code"] == "stale"
    r = client.post(f"/api/tables/{table}/undo",
                    json={"token": tok, "version": melded["version"]})
    assert r.status_code == 200, r.text
    back = r.json()
    assert back["version"] == melded["version"] + 1
    assert sorted(back["view"]["hand"]) == sorted(before["view"]["hand"])
    assert back["view"]["melds"] == before["view"]["melds"] and not back["can_undo"]
    # the log says so, after the draw, to the player and to everyone else (who saw the meld)
    cards = " ".join(sorted(meld["cards"], key=lambda c: parse_card(c)))
    mine = back["view"]["log_entries"]
    assert mine[:-1] == before["view"]["log_entries"]
    assert mine[-1] == {"key": "event.took_back.self", "values": {"cards": cards},
                        "seat": back["you"]}
    seen = view(client, table)["view"]["log_entries"]  # a spectator
    assert seen[-1] == {"key": "event.took_back.other", "values": {"cards": cards},
                        "seat": back["you"]}
    # the match's record, read from its state's events, lost the meld with the state
    held = client.manager.tables[table].game.match
    stored = [(seat, text) for _, _, seat, text in client.store.actions(table)]
    assert stored[-1][1].startswith("meld ") and held.record.actions == stored[:-1]
    # the undone action stays in the database, marked, and is not replayed
    client.manager.tables.pop(table)
    again = view(client, table, tok)
    assert sorted(again["view"]["hand"]) == sorted(before["view"]["hand"])
    assert again["version"] == back["version"]
    # a discard ends the turn: nothing left to undo
    r = client.post(f"/api/tables/{table}/undo", json={"token": tok, "version": again["version"]})
    assert r.status_code == 409 and "nothing to undo" in r.json()["message"]

    plain = create(client, ["human"] * 4)
    tok, before = _turn_with_a_meld(client, plain)
    r = client.post(f"/api/tables/{plain['table']}/undo",
                    json={"token": tok, "version": before["version"]})
    assert r.status_code == 409 and "house rule" in r.json()["message"]


def test_undo_survives_a_restart_mid_turn(any_client: Any) -> None:
    """A table taken up again from the database after a meld (a restart: the table is not in
    memory) still lets its player take the meld back: the mark is rebuilt from the record."""
    client = any_client
    created = create(client, ["human"] * 4, undo=True)
    table = created["table"]
    tok, before = _turn_with_a_meld(client, created)
    meld = next(a for a in before["view"]["legal"] if a["type"] == "meld")
    meld = {k: x for k, x in meld.items() if k != "text"}
    r = client.post(f"/api/tables/{table}/actions",
                    json={"token": tok, "version": before["version"], "action": meld})
    melded = r.json()
    client.manager.tables.pop(table)  # as after a restart
    again = view(client, table, tok)
    assert again["can_undo"] and again["version"] == melded["version"]
    r = client.post(f"/api/tables/{table}/undo",
                    json={"token": tok, "version": again["version"]})
    assert r.status_code == 200, r.text
    back = r.json()
    assert sorted(back["view"]["hand"]) == sorted(before["view"]["hand"])
    assert back["view"]["melds"] == before["view"]["melds"] and not back["can_undo"]


def test_dealing_the_next_hand_brings_an_away_person_back(client: Any) -> None:
    created = create(client, ["human", "bot"], clock=1, level="greedy")
    table, token = created["table"], created["seats"][0]["token"]
    wait_for(lambda: seat_of(view(client, table), 0)["away"], timeout=8, what="away")
    v = wait_for(lambda: (lambda v: v if v["view"]["phase"] == "over" else None)(
        view(client, table)), timeout=60, what="the hand to end")
    r = client.post(f"/api/tables/{table}/next-hand", json={"token": token,
                                                            "version": v["version"]})
    assert r.status_code == 200, r.text
    assert seat_of(r.json(), 0)["controller"] == "human" and not seat_of(r.json(), 0)["away"]
