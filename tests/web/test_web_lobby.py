"""The public lobby and the end of a match: tables listed only when they
ask for it and have a free seat, a free seat taken by one person only, the match end, and a
rematch at which every link works again; and the migration that brought the settings."""

from __future__ import annotations

import typing
from typing import Any

from sqlalchemy import update
from sqlalchemy.orm import Session

from canasta.i18n.catalogue import languages
from canasta.web.play.seats import UNCLAIMED, hash_token
from canasta.web.protocol.fields import Lang
from canasta.web.storage.store import HandRow, Store
from conftest import create, view, wait_for


def public_table(client: Any) -> dict[str, Any]:
    body = {"players": 4, "public": True, "level": "greedy",
            "seats": [{"type": "human", "name": "Ana"}, {"type": "bot", "level": "greedy"},
                      {"type": "open"}, {"type": "bot", "level": "greedy"}]}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def test_the_lobby_lists_public_tables_with_a_free_seat_only(client: Any) -> None:
    created = public_table(client)
    create(client, ["human", "bot"])  # a private table is never listed
    listed = client.get("/api/lobby").json()["tables"]
    assert [t["table"] for t in listed] == [created["table"]]
    entry = listed[0]
    assert entry["variant"] == "international" and entry["players"] == 4
    assert [s["kind"] for s in entry["seats"]] == ["human", "bot", "open", "bot"]
    assert created["seats"][2]["token"] is None  # nobody holds the free seat's link
    # until someone sits down, a bot keeps the free seat playing
    assert view(client, created["table"])["seats"][2]["controller"] == "bot"


def test_a_free_seat_is_taken_once_and_the_table_leaves_the_lobby(any_client: Any) -> None:
    client = any_client  # SQLite and PostgreSQL: the claim is one conditional UPDATE
    created = public_table(client)
    table = created["table"]
    r = client.post(f"/api/tables/{table}/seats/2/join", json={"name": "  Bia  "})
    assert r.status_code == 200, r.text
    joined = r.json()
    assert joined["path"] == f"/t/{table}#seat={joined['token']}"
    v = view(client, table, joined["token"])
    assert v["you"] == 2 and v["seats"][2]["name"] == "Bia"
    assert v["seats"][2]["kind"] == v["seats"][2]["controller"] == "human"
    assert client.get("/api/lobby").json()["tables"] == []
    before = client.store.load(table)
    for seat, body in ((2, {"name": "Caio"}), (0, {}), (1, {}), (9, {}), ("x", {})):
        r = client.post(f"/api/tables/{table}/seats/{seat}/join", json=body)
        assert r.status_code in (400, 404, 409), (seat, r.text)
    assert client.store.load(table).seats == before.seats


def test_a_free_seat_needs_a_public_table(client: Any) -> None:
    r = client.post("/api/tables", json={"players": 2, "seats": [{"type": "human"},
                                                                 {"type": "open"}]})
    assert r.status_code == 400 and "public" in r.json()["message"]


def test_an_empty_name_is_never_the_word_you(client: Any) -> None:
    """The bug of the issue: the default name "You" became a public name ("You lays out the
    red three" for the others). An empty name is "Player N" for everyone."""
    r = client.post("/api/tables", json={"players": 2, "seats": [
        {"type": "human", "name": ""}, {"type": "human", "name": "   "}]})
    created = r.json()
    assert [s["name"] for s in created["seats"]] == ["Player 1", "Player 2"]
    other = view(client, created["table"], created["seats"][1]["token"])
    assert [s["name"] for s in other["seats"]] == ["Player 1", "Player 2"]


def test_unnamed_people_are_named_in_the_language_asked(client: Any) -> None:
    """An API client (or the lobby's join button) that names nobody gets "Player N" in its
    language (`lang`, a catalogue language; English by default); bots stay "Bot N"."""
    r = client.post("/api/tables", json={"players": 4, "lang": "it", "public": True, "seats": [
        {"type": "human"}, {"type": "bot"}, {"type": "open"}, {"type": "bot"}]})
    assert r.status_code == 201, r.text
    created = r.json()
    assert [s["name"] for s in created["seats"]][:2] == ["Giocatore 1", "Bot 2"]
    r = client.post(f"/api/tables/{created['table']}/seats/2/join", json={"lang": "ro"})
    assert r.status_code == 200, r.text
    seats = view(client, created["table"])["seats"]
    assert [s["name"] for s in seats] == ["Giocatore 1", "Bot 2", "Jucătorul 3", "Bot 4"]
    r = client.post("/api/tables", json={"players": 2, "lang": "xx"})
    assert r.status_code == 400 and "lang" in r.text
    assert set(typing.get_args(Lang)) == set(languages())


def force_scores(store: Store, table: str, scores: list[int]) -> None:
    """Start the table's first hand with these scores (a match that ends after one hand)."""
    with Session(store.engine) as s, s.begin():
        s.execute(update(HandRow).where(HandRow.table_id == table, HandRow.number == 0)
                  .values(scores_before=scores))


def finished_match(client: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A table whose match ends with its first hand, played out by bots (the person gives
    the seat away); returns the creation answer and the final view of seat 0."""
    # seat 1 plays first: a person, so that no bot moves before the table is reloaded
    created = create(client, ["human", "human", "human", "bot"], level="greedy")
    table = created["table"]
    force_scores(client.store, table, [20_000, 0])
    client.manager.tables.pop(table)
    for seat in (0, 1, 2):
        tok = created["seats"][seat]["token"]
        r = client.post(f"/api/tables/{table}/seats/{seat}/bot",
                        json={"token": tok, "level": "greedy"})
        assert r.status_code == 200, r.text
    tok = created["seats"][0]["token"]
    final = wait_for(lambda: (lambda v: v if v["match"]["over"] else None)(
        view(client, table, tok)), timeout=60, what="the match to end")
    return created, final


def test_the_match_ends_with_a_winner_every_sheet_and_the_cards_left(client: Any) -> None:
    created, final = finished_match(client)
    assert final["match"]["winner"] == 0
    assert len(final["match"]["hands"]) == 1 and final["match"]["hands"][0]["sheets"]
    left = final["view"]["hands_left"]
    assert len(left) == 4 and sum(map(len, left)) == sum(final["view"]["hand_sizes"])
    r = client.post(f"/api/tables/{created['table']}/next-hand",
                    json={"token": created["seats"][0]["token"], "version": final["version"]})
    assert r.status_code == 409


def test_a_rematch_seats_everyone_again_with_new_links(client: Any) -> None:
    """The rematch has the same seats, each person's with a new token given once to the old
    link's request: the old links open no seat there, and a second ask is refused."""
    created, final = finished_match(client)
    table = created["table"]
    toks = [s["token"] for s in created["seats"]]
    r = client.post(f"/api/tables/{table}/rematch", json={"token": toks[2]})
    assert r.status_code == 200, r.text
    new, new2 = r.json()["table"], r.json()["token"]
    assert new != table and new2 not in toks
    assert r.json()["path"] == f"/t/{new}#seat={new2}"
    # asked twice (by the other person), the same new table and a token of its own
    again = client.post(f"/api/tables/{table}/rematch", json={"token": toks[0]}).json()
    assert again["table"] == new and again["token"] not in (new2, *toks)
    assert view(client, table)["settings"]["rematch"] == new
    v = view(client, new, new2)
    assert v["you"] == 2 and v["hand_number"] == 0 and v["match"]["scores"] == [0, 0]
    assert view(client, new, again["token"])["you"] == 0
    assert [s["name"] for s in v["seats"]] == [s["name"] for s in final["seats"]]
    assert v["seats"][0]["controller"] == "human"  # the people play again themselves
    assert v["seats"][3]["kind"] == "bot" and v["seats"][1]["kind"] == "human"
    # the old links control nothing at the new table
    for old in toks[:3]:
        r = client.post(f"/api/tables/{new}/hint", json={"token": old})
        assert r.status_code == 403 and r.json()["code"] == "bad-token", r.text
        with client.websocket_connect(f"/ws/{new}") as ws:
            ws.send_json({"type": "hello", "token": old})
            assert ws.receive_json()["code"] == "bad-token"
    # a copy of the old link cannot take the seat once its player asked
    r = client.post(f"/api/tables/{table}/rematch", json={"token": toks[2]})
    assert r.status_code == 409 and r.json()["code"] == "not-allowed", r.text
    assert view(client, new, new2)["you"] == 2
    # seat 1 has not asked yet: its old link gets its new one (over the WebSocket too)
    with client.websocket_connect(f"/ws/{table}") as ws:
        ws.send_json({"type": "hello", "token": toks[1]})
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "rematch"})
        got = ws.receive_json()
        while got.get("type") == "state":
            got = ws.receive_json()
    assert got["type"] == "rematched" and got["table"] == new, got
    assert view(client, new, got["token"])["you"] == 1
    r = client.post(f"/api/tables/{new}/rematch", json={"token": new2})
    assert r.status_code == 409  # that match has only begun
    r = client.post(f"/api/tables/{table}/rematch", json={})
    assert r.status_code == 403


def test_a_rematch_claimed_by_another_process_is_the_one_given(client: Any) -> None:
    """Another server process (on the same database) named the rematch first: this process,
    whose copy of the table has not heard of it yet, gives that table instead of a second."""
    created, _ = finished_match(client)
    table = created["table"]
    made = create(client, ["human", "bot", "human", "bot"])  # "its" rematch,
    other = made["table"]
    for seat in (0, 2):  # whose people wait for their new tokens
        assert client.store.claim_token(other, seat, hash_token(made["seats"][seat]["token"]),
                                        UNCLAIMED)
        client.manager.tables[other].seats[seat].token_hash = UNCLAIMED
    assert client.store.claim_rematch(table, other) == other
    assert client.manager.tables[table].settings.rematch is None  # not heard of yet
    r = client.post(f"/api/tables/{table}/rematch", json={"token": created["seats"][2]["token"]})
    assert r.status_code == 200, r.text
    assert r.json()["table"] == other
    assert view(client, other, r.json()["token"])["you"] == 2
    assert view(client, table)["settings"]["rematch"] == other


def test_migration_0003_keeps_the_tables_of_0002(tmp_path: Any) -> None:
    """A database made before the settings existed upgrades in place: its tables keep their
    seats and actions and get the default settings."""
    from alembic import command
    from alembic.config import Config

    from canasta.web.storage.store import MIGRATIONS

    store = Store(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", store.url)
    with store.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0002")
    with store.engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO canasta_tables (id, created_at, variant, options, players, team_size,"
            " version, status) VALUES ('oldtable', '2026-01-01', 'international', '{}', 2,"
            " NULL, 1, 'playing')")
        conn.exec_driver_sql(
            "INSERT INTO canasta_seats VALUES ('oldtable', 0, 'human', 'human', 'greedy',"
            " 'Ana', NULL)")
        conn.exec_driver_sql(
            "INSERT INTO canasta_actions VALUES ('oldtable', 1, 0, 1, 'draw', '2026-01-01')")
        conn.exec_driver_sql(
            "INSERT INTO canasta_hands VALUES ('oldtable', 0, 0, '[]', '[0, 0]', 0, '', NULL)")
    store.migrate()
    data = store.load("oldtable")
    assert data is not None and data.settings == {}
    assert data.seats[0].away is False and data.hands[0].actions == [(1, "draw")]
    store.dispose()


def test_the_results_and_the_record_say_which_hands_a_bot_played_for_a_seat(
        client: Any) -> None:
    """Each person of the table handed the seat to a bot, which played the hand out: the
    match's results and its record name those seats for that hand (seat 3, a bot from the
    start, stands in for nobody), after the table is taken up from the database too, and the
    record still checks."""
    from canasta.formats.records import check_record

    created, final = finished_match(client)
    table = created["table"]
    assert final["match"]["hands"][0]["stand_ins"] == [0, 1, 2]
    client.manager.tables.pop(table)  # taken up again from the database
    assert view(client, table)["match"]["hands"][0]["stand_ins"] == [0, 1, 2]
    r = client.get(f"/api/tables/{table}/record")
    assert r.status_code == 200, r.text
    record = r.json()
    assert record["hands"][0]["stand_ins"] == [0, 1, 2]
    check_record(record, "record")
    bad = {**record, "hands": [{**record["hands"][0], "stand_ins": [7]}]}
    try:
        check_record(bad, "record")
    except Exception as exc:  # a seat the table does not have is named
        assert "stand_ins[0]" in str(exc)
    else:
        raise AssertionError("a stand-in seat out of range was accepted")
