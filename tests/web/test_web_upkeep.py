"""The upkeep of a server's tables: a cap on the actions of one turn, tables that expire, tables
taken up when first used (not all at start-up), and the settings every message carries."""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
from typing import Any

from sqlalchemy import update

from canasta.web.play.settings import TableSettings
from canasta.web.storage.models import TableRow
from conftest import create, steady, view, wait_for


def _my_turn(client: Any, table: str, tok: str, phase: str) -> dict[str, Any]:
    return wait_for(lambda: (lambda v: v if v["view"]["actor"] == v["you"]
                             and v["view"]["phase"] == phase else None)(
                                 view(client, table, tok)), what=f"my {phase} phase")


def test_a_turn_takes_at_most_the_cap_of_melds_then_only_moves_that_end_it(
        client: Any, monkeypatch: Any) -> None:
    import canasta.web.play.service as service

    monkeypatch.setattr(service, "MAX_TURN_ACTIONS", 1)  # the draw fills it
    created = create(client, ["human", "bot"])
    table, tok = created["table"], created["seats"][0]["token"]
    for _ in range(60):
        v = _my_turn(client, table, tok, "draw")
        r = client.post(f"/api/tables/{table}/actions",
                        json={"token": tok, "version": v["version"], "text": "draw"})
        assert r.status_code == 200, r.text
        mine = r.json()
        melds = [a for a in mine["view"]["legal"] if a["type"] in ("meld", "lay-off")]
        if melds:
            break
        discard = next(a for a in mine["view"]["legal"] if a["type"] == "discard")
        r = client.post(f"/api/tables/{table}/actions", json={
            "token": tok, "version": mine["version"], "text": discard["text"]})
        assert r.status_code == 200, r.text
    else:
        raise AssertionError("no meld came in 60 turns")
    before = client.store.actions(table)
    r = client.post(f"/api/tables/{table}/actions", json={
        "token": tok, "version": mine["version"], "text": melds[0]["text"]})
    assert r.status_code == 409 and r.json()["code"] == "not-allowed"
    assert "at most 1 actions in one turn" in r.json()["message"]
    assert client.store.actions(table) == before
    discard = next(a for a in mine["view"]["legal"] if a["type"] == "discard")
    r = client.post(f"/api/tables/{table}/actions", json={
        "token": tok, "version": mine["version"], "text": discard["text"]})
    assert r.status_code == 200, r.text


def test_expired_tables_are_deleted_and_forgotten(client: Any) -> None:
    # people only: no bot moves (and stamps) them meanwhile
    over = create(client, ["human", "human"])["table"]
    idle = create(client, ["human", "human"])["table"]
    fresh = create(client, ["human", "human"])["table"]
    manager = client.manager
    now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
    with client.store.engine.begin() as c:
        c.execute(update(TableRow).where(TableRow.id == over)
                  .values(status="over", updated_at=now - dt.timedelta(hours=2)))
        c.execute(update(TableRow).where(TableRow.id == idle)
                  .values(updated_at=now - dt.timedelta(days=10)))
    manager.cluster.keep_finished = 3600.0
    manager.cluster.keep_abandoned = 30 * 86_400.0
    gone = client.portal.call(manager.cluster.expire)
    assert gone == [over]  # the idle one is within its month
    manager.cluster.keep_abandoned = 7 * 86_400.0
    assert client.portal.call(manager.cluster.expire) == [idle]
    assert over not in manager.tables and idle not in manager.tables
    assert client.get(f"/api/tables/{over}").status_code == 404
    assert client.get(f"/api/tables/{fresh}").status_code == 200


def test_tables_are_taken_up_when_used_and_bots_resume_without_loading_every_table(
        sqlite_store: Any) -> None:
    from starlette.testclient import TestClient

    from canasta.web.app import create_app

    with TestClient(create_app(store=sqlite_store, bot_delay=0)) as client:
        waiting = [create(client, ["human", "bot"]) for _ in range(4)]
        for w in waiting:  # each waits for its person
            _my_turn(client, w["table"], w["seats"][0]["token"], "draw")
        playing = create(client, ["human", "bot", "bot", "bot"])
        r = client.post(f"/api/tables/{playing['table']}/seats/0/bot",
                        json={"token": playing["seats"][0]["token"], "level": "greedy"})
        assert r.status_code == 200
    with TestClient(create_app(store=sqlite_store, bot_delay=0)) as client:
        manager = client.app.state.manager
        # the bots' table was taken up at start-up (its bots play on); the others were not
        assert set(manager.tables) == {playing["table"]}
        start = sqlite_store.load(playing["table"]).version
        wait_for(lambda: sqlite_store.load(playing["table"]).version > start + 5,
                 what="the bots to play on")
        v = view(client, waiting[0]["table"], waiting[0]["seats"][0]["token"])
        assert v["view"]["actor"] == 0 and waiting[0]["table"] in manager.tables
        assert waiting[1]["table"] not in manager.tables


def test_the_settings_sent_are_every_field_of_the_settings() -> None:
    settings = TableSettings(clock=30, level="hard", hints=False, undo=True, public=True,
                             rematch="abcd")
    # a tournament's own fields are sent only at its tables (other tables read as before)
    plain = {k: v for k, v in dataclasses.asdict(settings).items()
             if k not in ("hands", "tournament")}
    assert settings.to_json() == plain
    at_a_tournament = dataclasses.replace(settings, hands=2, tournament="t1")
    assert at_a_tournament.to_json() == dataclasses.asdict(at_a_tournament)


def test_a_table_keeps_its_rules_when_its_preset_file_changes(sqlite_store: Any,
                                                              monkeypatch: Any) -> None:
    import copy

    from starlette.testclient import TestClient

    import canasta.core.rules as rules_module
    from canasta.web.app import create_app

    with TestClient(create_app(store=sqlite_store, bot_delay=0)) as client:
        created = create(client, ["human", "bot"])
        table, tok = created["table"], created["seats"][0]["token"]
        v = _my_turn(client, table, tok, "draw")
        r = client.post(f"/api/tables/{table}/actions",
                        json={"token": tok, "version": v["version"], "text": "draw"})
        assert r.status_code == 200
        before = view(client, table, tok)
    real = rules_module._read_preset

    def changed(name: str) -> dict[str, Any]:
        data = copy.deepcopy(real(name))
        if rules_module.preset_name(name) == "international":
            data.setdefault("fields", {})["melds.canasta_size"] = 5
        return data

    monkeypatch.setattr(rules_module, "_read_preset", changed)
    with TestClient(create_app(store=sqlite_store, bot_delay=0)) as client:
        after = view(client, table, tok)
        assert after["view"]["canasta_size"] == 7
        for msg in (before, after):
            for seat in msg["seats"]:
                seat["connected"] = False
        assert steady(after) == steady(before)
        # the changed preset is what a new table gets
        fresh = create(client, ["human", "bot"])
        assert view(client, fresh["table"])["view"]["canasta_size"] == 5


def test_a_new_hand_that_cannot_be_stored_is_not_dealt(client: Any, monkeypatch: Any) -> None:
    from canasta.web.storage.store import StorageError

    created = create(client, ["human", "human"])
    table, toks = created["table"], [s["token"] for s in created["seats"]]
    manager = client.manager
    rng = random.Random(3)
    # play the hand to its end through the API: a move's answer is the mover's view, so a
    # seat's view is asked for once a turn (the address's view budget, a client's fair use)
    mine = view(client, table)
    for _ in range(2000):
        if mine["view"]["phase"] == "over":
            break
        if mine["you"] != mine["view"]["actor"]:
            mine = view(client, table, toks[mine["view"]["actor"]])
        tok = toks[mine["you"]]
        move = mine["view"]["go_out"] and "go-out"
        if move:
            r = client.post(f"/api/tables/{table}/go-out",
                            json={"token": tok, "version": mine["version"]})
        else:
            legal = mine["view"]["legal"]
            melds = [a for a in legal if a["type"] in ("meld", "lay-off")]
            discards = [a for a in legal if a["type"] == "discard"]
            pick = rng.choice(melds) if melds and (not discards or rng.random() < 0.5) \
                else (rng.choice(discards) if discards else legal[0])
            r = client.post(f"/api/tables/{table}/actions", json={
                "token": tok, "version": mine["version"], "text": pick["text"]})
        assert r.status_code == 200, r.text
        mine = r.json()
    else:
        raise AssertionError("the hand did not end")
    before = view(client, table)

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise StorageError("disk on fire")

    monkeypatch.setattr(client.store, "append_hand", refuse)
    r = client.post(f"/api/tables/{table}/next-hand",
                    json={"token": toks[0], "version": before["version"]})
    assert r.status_code == 503 and r.json()["code"] == "storage"
    monkeypatch.undo()
    after = view(client, table)
    assert after["hand_number"] == before["hand_number"] == 0
    assert manager.tables[table].game.hand_number == 0
    r = client.post(f"/api/tables/{table}/next-hand",
                    json={"token": toks[0], "version": before["version"]})
    assert r.status_code == 200 and r.json()["hand_number"] == 1
