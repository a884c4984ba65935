"""Duplicate tournaments for people: the round robin, who sits where (each team on both sides
of a deal), the deal-pair scoring against hand-computed values, the API, and a tournament
filled with bots played to its results through the server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from canasta.web.tournaments.schedule import (
    TablePlan,
    pairings,
    placements,
    tables_of_round,
)
from canasta.web.tournaments.scoring import compare_deal, hand_totals, standings
from conftest import wait_for


# -- the schedule ---------------------------------------------------------------------------
@given(st.integers(1, 16).map(lambda n: 2 * n))
def test_a_round_robin_meets_every_pair_once(teams: int) -> None:
    met: set[frozenset[int]] = set()
    for r in range(1, teams):
        matches = pairings(teams, r)
        assert sorted(x for m in matches for x in m) == list(range(teams))  # all play
        met.update(frozenset(m) for m in matches)
    assert len(met) == teams * (teams - 1) // 2
    assert pairings(teams, teams) == pairings(teams, 1)  # and starts again


def test_odd_teams_are_refused() -> None:
    with pytest.raises(ValueError, match="even"):
        pairings(5, 1)


def test_each_team_holds_both_sides_of_a_deal() -> None:
    # round 1 of four teams: matches (0, 3) and (1, 2); match 0 at tables 0 and 1
    plans = tables_of_round(4, 1)
    assert [(p.number, p.side0, p.side1) for p in plans] == [
        (0, 0, 3), (1, 3, 0), (2, 1, 2), (3, 2, 1)]
    sides = [(0, 2), (1, 3)]  # four players: seats 0 and 2 against 1 and 3
    first = placements(plans[0], sides)
    second = placements(plans[1], sides)
    # team 0's squad 0 (slots 0, 1) holds seats 0 and 2 at the first table; its squad 1
    # (slots 2, 3) holds seats 1 and 3 at the second: the cards team 3 held at the first
    assert [(p.seat, p.team, p.slot) for p in first] == [
        (0, 0, 0), (1, 3, 0), (2, 0, 1), (3, 3, 1)]
    assert [(p.seat, p.team, p.slot) for p in second] == [
        (0, 3, 2), (1, 0, 2), (2, 3, 3), (3, 0, 3)]
    with pytest.raises(ValueError, match="two sides"):
        placements(TablePlan(0, 0, 1), [(0,), (1,), (2,)])


# -- scoring (hand-computed) ----------------------------------------------------------------
def test_a_deal_pair_is_scored_across_both_tables() -> None:
    # first table: team 7 (side 0) 1230, team 2 (side 1) 455  -> 7 ahead by 775
    # second table: team 2 (side 0) 1600, team 7 (side 1) 890 -> 7 behind by 710
    # team 7's difference: 775 - 710 = 65: team 7 won the deal pair
    p = compare_deal(2, 1, 0, 7, 2, (1230, 455), (1600, 890))
    assert p.diff == 65 and p.winner == 7
    # the same cards, the other way round: the difference changes sign
    q = compare_deal(2, 1, 0, 2, 7, (455, 1230), (890, 1600))
    assert q.diff == -65 and q.winner == 7
    tie = compare_deal(1, 0, 3, 0, 1, (300, 100), (300, 100))  # 200 - 200
    assert tie.diff == 0 and tie.winner is None
    assert p.to_json()["diff"] == 65.0


def test_standings_count_points_then_the_difference() -> None:
    pairs = [compare_deal(1, 0, 0, 0, 1, (500, 100), (200, 300)),   # 0: 400 + 100
             compare_deal(1, 1, 0, 2, 3, (100, 100), (100, 100)),   # tie
             compare_deal(2, 0, 0, 0, 2, (100, 150), (100, 60)),    # 0 by -50 + -40: 2
             compare_deal(2, 1, 0, 1, 3, (90, 100), (120, 100))]    # 1 by -10 - 20: 3
    table = standings(4, pairs)
    got = [(s.rank, s.team, s.won, s.tied, s.lost, s.points, s.diff) for s in table]
    # team 0: won 1 lost 1, 500 - 90 = 410; team 2: won 1 tied 1 (1.5), +90;
    # team 3: won 1 tied 1 (1.5), +30; team 1: lost 2, -500 - 30 = -530
    assert got == [(1, 2, 1, 1, 0, 1.5, 90.0), (2, 3, 1, 1, 0, 1.5, 30.0),
                   (3, 0, 1, 0, 1, 1.0, 410.0), (4, 1, 0, 0, 2, 0.0, -530.0)]
    level = standings(2, [compare_deal(1, 0, 0, 0, 1, (10, 10), (10, 10))])
    assert [s.rank for s in level] == [1, 1]  # equal points and difference: one rank


def test_hand_totals_read_the_stored_sheets() -> None:
    sheets = [{"team": 1, "hand_total": -40}, {"team": 0, "hand_total": 615}]
    assert hand_totals(sheets) == (615, -40)
    with pytest.raises(ValueError, match="no score sheet"):
        hand_totals(sheets[:1])


# -- the API --------------------------------------------------------------------------------
@pytest.fixture
def tclient(tmp_path: Path) -> Iterator[Any]:
    from starlette.testclient import TestClient

    from canasta.web.app import create_app
    from canasta.web.storage.store import Store

    store = Store(f"sqlite:///{tmp_path / 'tables.sqlite3'}")
    app = create_app(store=store, bot_delay=0, away_after=0.05)
    with TestClient(app) as c:
        app.state.tournaments.tick = 0.05
        c.store = store
        c.app = app
        yield c
    store.dispose()


def _create(client: Any, **spec: Any) -> dict[str, Any]:
    body = {"players": 2, "tables": 2, "deals": 1, "clock": 0, "deal_pause": 0,
            "level": "greedy", **spec}
    r = client.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def _view(client: Any, tid: str, token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = client.get(f"/api/tournaments/{tid}", headers=headers)
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_bad_requests_are_refused_with_the_field_named(tclient: Any) -> None:
    r = tclient.post("/api/tournaments", json={"tables": 3})
    assert r.status_code == 400 and "tables" in r.json()["message"]
    r = tclient.post("/api/tournaments", json={"players": 3})
    assert r.status_code == 400 and r.json()["code"] == "bad-rules"
    assert "not 3" in r.json()["message"]
    r = tclient.post("/api/tournaments", json={"variant": "brazilian", "players": 3})
    assert r.status_code == 400 and "two sides" in r.json()["message"]
    r = tclient.post("/api/tournaments", json={"deals": "2"})
    assert r.status_code == 400 and r.json()["code"] == "malformed"
    assert tclient.get("/api/tournaments/nosuch").status_code == 404
    assert tclient.post("/api/tournaments/nosuch/join", json={}).json()["code"] == "not-found"
    made = _create(tclient)
    r = tclient.post(f"/api/tournaments/{made['tournament']}/start", json={"token": "x"})
    assert r.status_code == 403 and r.json()["code"] == "bad-token"
    r = tclient.post(f"/api/tournaments/{made['tournament']}/join", json={"team": 9})
    assert r.status_code == 404 and "teams 0 to 1" in r.json()["message"]


def test_entrants_join_teams_until_the_tournament_is_full(tclient: Any) -> None:
    made = _create(tclient)  # two tables of two players: two teams of two seats
    tid = made["tournament"]
    joined = [tclient.post(f"/api/tournaments/{tid}/join", json={"name": n}).json()
              for n in ("Ann", "Bea", "Cy", "Dan")]
    # a team of one's own first, then the free seats
    assert [(j["team"], j["slot"]) for j in joined] == [(0, 0), (1, 0), (0, 1), (1, 1)]
    r = tclient.post(f"/api/tournaments/{tid}/join", json={"name": "Eve"})
    assert r.status_code == 409 and "full" in r.json()["message"]
    view = _view(tclient, tid, joined[2]["token"])
    assert view["you"]["team"] == 0 and view["you"]["name"] == "Cy"
    assert view["you"]["table"] is None  # not started
    assert [m["name"] for m in view["teams"][1]["members"]] == ["Bea", "Dan"]
    assert view["host"] is False and _view(tclient, tid, made["host_token"])["host"] is True


def test_both_tables_of_a_match_get_the_same_deals_with_the_teams_swapped(
        tclient: Any) -> None:
    made = _create(tclient, players=4, deals=2)
    tid = made["tournament"]
    ann = tclient.post(f"/api/tournaments/{tid}/join", json={"name": "Ann", "team": 0}).json()
    bob = tclient.post(f"/api/tournaments/{tid}/join", json={"name": "Bob", "team": 0}).json()
    cy = tclient.post(f"/api/tournaments/{tid}/join", json={"name": "Cy", "team": 0}).json()
    started = tclient.post(f"/api/tournaments/{tid}/start",
                           json={"token": made["host_token"]})
    assert started.status_code == 200, started.text
    r = tclient.post(f"/api/tournaments/{tid}/join", json={"name": "Late"})
    assert r.status_code == 409 and "started" in r.json()["message"]
    view = _view(tclient, tid, cy["token"])
    first, second = view["schedule"][0]["matches"][0]["tables"]
    assert (first["side0"], first["side1"]) == (0, 1)
    assert (second["side0"], second["side1"]) == (1, 0)
    # Ann and Bob (slots 0, 1: squad 0) sit on side 0 at the first table; Cy (slot 2,
    # squad 1) on side 1 at the second, where team 1 holds the cards Ann's side held
    assert view["you"]["table"] == second["table"] and view["you"]["squad"] == 1
    a = tclient.store.load(first["table"])
    b = tclient.store.load(second["table"])
    assert [s.name for s in a.seats][0::2] == ["Ann", "Bob"]
    assert [s.name for s in b.seats][1] == "Cy"
    assert a.seats[0].token_hash != a.seats[2].token_hash
    assert a.hands[0].deck == b.hands[0].deck and a.hands[0].deal == b.hands[0].deal
    state = tclient.get(f"/api/tables/{first['table']}").json()
    assert state["settings"]["tournament"] == tid and state["settings"]["hands"] == 2
    assert [s["team"] for s in state["seats"]] == [0, 1, 0, 1]
    # the commitment the tournament published before the start is the one each table shows
    published = {(d["round"], d["deal"]): d["commitment"] for d in view["deals"]}
    assert state["deal"]["commitment"] == published[(1, 0)]
    assert "seed" not in view["deals"][0]  # secret until the round is over
    # Cy's token is her seat's at her table
    mine = tclient.get(f"/api/tables/{second['table']}",
                       headers={"Authorization": f"Bearer {cy['token']}"}).json()
    assert mine["you"] == 1
    # the people are away: bots play their turns and the second deal is dealt at both
    # tables from the same secrets
    done = wait_for(lambda: (v := _view(tclient, tid))["status"] == "over" and v, 60,
                    "the tournament to end")
    a, b = tclient.store.load(first["table"]), tclient.store.load(second["table"])
    assert len(a.hands) == len(b.hands) == 2
    assert a.hands[1].deck == b.hands[1].deck and a.hands[1].deal == b.hands[1].deal
    assert a.hands[1].deck != a.hands[0].deck
    assert a.status == b.status == "over"
    results = done["results"]
    assert [(p["deal"], p["a"], p["b"]) for p in results] == [(0, 0, 1), (1, 0, 1)]
    for p in results:  # the scoring of the bots' harness, from the stored sheets
        deal = p["deal"]
        totals = [{s["team"]: s["hand_total"] for s in t.hands[deal].sheets} for t in (a, b)]
        assert p["first"] == [totals[0][0], totals[0][1]]
        assert p["diff"] == (totals[0][0] - totals[0][1]) + (totals[1][1] - totals[1][0])
    assert done["deals"][0]["seed"] == a.hands[0].deal["seed"]  # revealed once over
    r = tclient.post(f"/api/tables/{first['table']}/rematch", json={"token": ann["token"]})
    assert r.status_code == 409 and "tournament" in r.json()["message"]
    assert bob["team"] == 0


def test_a_tournament_of_bots_runs_round_after_round(tclient: Any) -> None:
    made = _create(tclient, tables=4, rounds=2)
    tid = made["tournament"]
    tclient.post(f"/api/tournaments/{tid}/start", json={"token": made["host_token"]})
    done = wait_for(lambda: (v := _view(tclient, tid))["status"] == "over" and v, 60,
                    "two rounds")
    assert done["round"] == 2
    assert [(p["round"], p["match"]) for p in done["results"]] == [
        (1, 0), (1, 1), (2, 0), (2, 1)]
    # round 1: (0, 3) and (1, 2); round 2: (0, 2) and (3, 1)
    assert [(p["a"], p["b"]) for p in done["results"]] == [(0, 3), (1, 2), (0, 2), (3, 1)]
    assert sum(s["played"] for s in done["standings"]) == 8
    tables = [t for r in done["schedule"] for m in r["matches"] for t in m["tables"]]
    assert len(tables) == 8 and all(t["status"] == "over" for t in tables)
    record = tclient.get(f"/api/tournaments/{tid}/record")
    assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
    doc = record.json()
    assert doc["format"] == "canasta-tournament" and "you" not in doc
    assert all("seed" in d for d in doc["deals"])
    for t in tables:
        assert tclient.get(t["record"]).status_code == 200


def test_a_tournament_starts_at_its_time(tclient: Any) -> None:
    import time

    made = _create(tclient, starts_at=time.time() + 0.2)
    tid = made["tournament"]
    assert _view(tclient, tid)["status"] == "open"
    wait_for(lambda: _view(tclient, tid)["status"] != "open", 10, "the start")
    r = tclient.post(f"/api/tournaments/{tid}/start", json={"token": made["host_token"]})
    assert r.status_code == 409


# -- storage, on SQLite and PostgreSQL ------------------------------------------------------
def test_the_round_moves_once_and_a_seat_is_taken_once(store: Any) -> None:
    from canasta.web.tournaments.store import Entrant, TableEntry, Tournament, TournamentStore

    rows = TournamentStore(store)
    t = Tournament("tourney01", "Cup", "international", {}, 2, None, {"rules": {}},
                   {"tables": 2, "rounds": 2}, "open", 0, 1.0e9, "ab" * 32, 0.0)
    rows.create(t, [(1, 0, "s" * 32, "n" * 32), (2, 0, "t" * 32, "m" * 32)])
    ann = Entrant(0, 0, "Ann", "human", "medium", "cd" * 32, "account-7")
    assert rows.join(t.id, ann) is True
    assert rows.join(t.id, Entrant(0, 0, "Bea", "human", "medium", "ef" * 32)) is False
    assert rows.running() == [t.id]  # open, and its start time has passed
    bots = [Entrant(n, s, "Bot", "bot", "medium") for n, s in ((0, 1), (1, 0), (1, 1))]
    tables = [TableEntry(1, 0, "tourney01r1t0", 0, 1), TableEntry(1, 1, "tourney01r1t1", 1, 0)]
    assert rows.advance(t.id, 0, 1, "playing", bots, tables) is True
    assert rows.advance(t.id, 0, 1, "playing", [], []) is False  # another process was first
    assert rows.join(t.id, Entrant(1, 1, "Late", "human", "medium", "01" * 32)) is False
    got = rows.load(t.id)
    assert got is not None and got.status == "playing" and got.round == 1
    assert [(e.team, e.slot, e.kind) for e in got.entrants] == [
        (0, 0, "human"), (0, 1, "bot"), (1, 0, "bot"), (1, 1, "bot")]
    assert got.entrants[0].account_id == "account-7"
    assert [(e.table_id, e.status) for e in got.tables] == [
        ("tourney01r1t0", None), ("tourney01r1t1", None)]  # not made yet
    assert rows.deal("tourney01r1t1", 0) == ("s" * 32, "n" * 32)
    assert rows.deal("tourney01r1t1", 1) is None and rows.deal("nosuch", 0) is None
    assert rows.advance(t.id, 1, 1, "over", [], []) is True
    assert rows.advance(t.id, 1, 1, "over", [], []) is False  # over stays over
    assert rows.running() == [] and rows.load("nosuch") is None
