"""Storage on SQLite and on PostgreSQL: migrations, the version that only one writer can
advance, actions and records written in one transaction, a table rebuilt after a restart."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from sqlalchemy import inspect

from canasta.web.storage.store import (
    Base,
    FinishedHand,
    HandData,
    SeatData,
    StorageError,
    Store,
    TableData,
    normalise_url,
)
from conftest import BACKENDS, create, make_store, steady, view, wait_for


def table_data(table_id: str = "tbl0001") -> TableData:
    seats = [SeatData(0, "human", "human", "greedy", "Ann", "ab" * 32),
             SeatData(1, "bot", "bot", "random", "Bot", None)]
    hand = HandData(0, 0, ["Kh", "2c", "JK"], [0])
    return TableData(table_id, "international", {"wild_ratio": "le"}, 2, None, 0, "playing",
                     seats, [hand])


def test_migrations_create_the_tables_and_run_twice(store: Store) -> None:
    store.migrate()  # a second start-up finds nothing to do
    names = set(inspect(store.engine).get_table_names())
    assert {"canasta_tables", "canasta_seats", "canasta_hands", "canasta_actions",
            "canasta_alembic_version"} <= names
    with store.engine.connect() as conn:
        rows = conn.exec_driver_sql("SELECT version_num FROM canasta_alembic_version").all()
    assert rows == [("0010",)]


def test_the_models_match_the_migrations(store: Store) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    with store.engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"version_table": "canasta_alembic_version"})
        diff = [d for d in compare_metadata(ctx, Base.metadata)
                if not (isinstance(d, tuple) and "canasta_alembic_version" in str(d))]
    assert diff == []


def test_a_table_round_trips(store: Store) -> None:
    data = table_data()
    store.create_table(data)
    store.append_actions(data.id, 0, 0, [(1, "draw"), (1, "discard Kh")])
    loaded = store.load(data.id)
    assert loaded is not None
    assert loaded.version == 2 and loaded.status == "playing"
    assert loaded.options == {"wild_ratio": "le"}
    assert [s.name for s in loaded.seats] == ["Ann", "Bot"]
    assert loaded.seats[0].token_hash == "ab" * 32
    assert loaded.hands[0].deck == ["Kh", "2c", "JK"]
    assert loaded.hands[0].actions == [(1, "draw"), (1, "discard Kh")]
    assert store.actions(data.id) == [(1, 0, 1, "draw"), (2, 0, 1, "discard Kh")]
    assert store.load("nosuchtable") is None
    assert store.table_ids() == [data.id] and store.table_ids("over") == []


def test_only_the_writer_who_saw_the_version_advances_it(store: Store) -> None:
    data = table_data()
    store.create_table(data)
    store.append_actions(data.id, 0, 0, [(1, "draw")])
    with pytest.raises(StorageError):
        store.append_actions(data.id, 0, 0, [(1, "discard Kh")])  # stale: version is 1
    with pytest.raises(StorageError):
        store.append_hand(data.id, 0, HandData(1, 1, ["Kh"], [0]))
    loaded = store.load(data.id)
    assert loaded.version == 1 and len(loaded.hands) == 1
    assert store.actions(data.id) == [(1, 0, 1, "draw")]


def test_two_servers_on_one_database_cannot_both_move(store: Store, tmp_path: Any) -> None:
    data = table_data()
    store.create_table(data)
    other = Store(store.url) if store.dialect == "sqlite" else store
    other.append_actions(data.id, 0, 0, [(1, "draw")])
    with pytest.raises(StorageError):
        store.append_actions(data.id, 0, 0, [(0, "draw")])
    assert store.actions(data.id) == [(1, 0, 1, "draw")]


def test_processes_asking_for_a_rematch_at_once_agree_on_one(store: Store) -> None:
    """Eight writers claim a rematch id for one finished table at the same moment (as two
    server processes whose players click "rematch" together): one id wins and every writer
    is told it; a released claim (its table could not be made) lets the next one in."""
    data = table_data()
    store.create_table(data)
    start = threading.Barrier(8)
    got: list[str | None] = [None] * 8

    def ask(i: int) -> None:
        start.wait()
        got[i] = store.claim_rematch(data.id, f"new{i}")

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    winner = got[0]
    assert winner in {f"new{i}" for i in range(8)} and got == [winner] * 8
    loaded = store.load(data.id)
    assert loaded is not None and loaded.settings["rematch"] == winner
    assert store.claim_rematch(data.id, None) is None  # released
    assert store.claim_rematch(data.id, "later") == "later"


def test_the_end_of_a_hand_is_stored_with_its_last_action(store: Store) -> None:
    data = table_data()
    store.create_table(data)
    sheets = [{"team": 0, "items": [], "hand_total": 0, "score_before": 0, "score_after": 0,
               "codes": []}]
    store.append_actions(data.id, 0, 0, [(1, "discard Kh")],
                         FinishedHand(0, "went_out", sheets, match_over=True), turn="over")
    assert store.finished_hands(data.id) == [0]
    loaded = store.load(data.id)
    assert loaded.status == "over" and loaded.turn == "over"
    assert loaded.hands[0].end_reason == "went_out" and loaded.hands[0].sheets == sheets
    # a failed write leaves no half-finished hand behind
    with pytest.raises(StorageError):
        store.append_actions(data.id, 0, 0, [(1, "draw")],
                             FinishedHand(0, "stock_exhausted", [], match_over=False))
    assert store.load(data.id).hands[0].sheets == sheets
    assert store.load(data.id).hands[0].end_reason == "went_out"


def test_a_process_catches_up_with_only_what_changed(store: Store) -> None:
    data = table_data()
    store.create_table(data)
    store.append_actions(data.id, 0, 0, [(1, "draw"), (1, "discard Kh")])
    same = store.changes_since(data.id, 2, 0)
    assert same.version == 2 and same.actions == [] and same.hands is None
    later = store.changes_since(data.id, 1, 0)
    assert later.actions == [(1, "discard Kh")] and later.hands is None
    assert [s.name for s in later.seats] == ["Ann", "Bot"]
    # an undo (the version moves without a new action): the hand anew
    store.undo_actions(data.id, 2, 1)
    undone = store.changes_since(data.id, 2, 0)
    assert undone.version == 3 and undone.actions is None
    assert [h.actions for h in undone.hands] == [[(1, "draw")]]
    # a new hand: the hands from the one held on, the new one with its actions
    store.append_hand(data.id, 3, HandData(1, 1, ["2c"], [10]))
    store.append_actions(data.id, 4, 1, [(0, "draw")])
    dealt = store.changes_since(data.id, 3, 0)
    assert [h.number for h in dealt.hands] == [0, 1]
    assert dealt.hands[1].actions == [(0, "draw")] and dealt.hands[1].scores_before == [10]
    live = store.load_live(data.id)
    assert live.hands[0].actions == [] and live.hands[1].actions == [(0, "draw")]
    assert store.changes_since("nosuchtable", 0, 0) is None


def test_one_process_at_a_time_holds_a_lease(store: Store) -> None:
    import datetime as dt

    from sqlalchemy import update

    from canasta.web.storage.models import TableRow

    for n in range(3):
        d = table_data(f"tbl000{n}")
        d.turn = "bot"
        store.create_table(d)
    ids = ["tbl0000", "tbl0001", "tbl0002"]
    assert sorted(store.orphans()) == ids
    assert store.claim("a", ids[:2], 60) == ids[:2]
    assert store.claim("b", ids, 60) == ["tbl0002"]
    assert store.orphans() == []
    assert store.renew("a", 60) == set(ids[:2])
    # a's process dies: its leases run out and b takes them
    with store.engine.begin() as c:
        c.execute(update(TableRow).where(TableRow.owner == "a")
                  .values(lease_until=dt.datetime(2000, 1, 1)))
    assert sorted(store.orphans()) == ids[:2]
    assert sorted(store.claim("b", ids, 60)) == ids
    assert store.renew("a", 60) == set()
    store.release("b", ["tbl0000"])
    assert store.orphans() == ["tbl0000"]
    store.release(None)
    assert sorted(store.orphans()) == ids


def test_expired_tables_are_deleted(store: Store) -> None:
    import datetime as dt

    from sqlalchemy import update

    from canasta.web.storage.models import TableRow

    for n, status in enumerate(["over", "playing", "playing", "over"]):
        d = table_data(f"tbl000{n}")
        d.status = status
        store.create_table(d)
    old = dt.datetime(2000, 1, 1)
    with store.engine.begin() as c:
        c.execute(update(TableRow).where(TableRow.id.in_(["tbl0000", "tbl0001"]))
                  .values(updated_at=old))
    day_ago = dt.datetime(2001, 1, 1)
    assert sorted(store.expire(day_ago, old)) == ["tbl0000"]  # in play, not long enough
    assert store.expire(day_ago, day_ago) == ["tbl0001"]
    assert store.load("tbl0000") is None and store.actions("tbl0001") == []
    assert sorted(store.table_ids()) == ["tbl0002", "tbl0003"]


def test_seat_controller_is_stored(store: Store) -> None:
    data = table_data()
    store.create_table(data)
    store.set_controller(data.id, 0, "bot", "random")
    seat = store.load(data.id).seats[0]
    assert (seat.controller, seat.level, seat.kind) == ("bot", "random", "human")


def test_database_urls() -> None:
    assert normalise_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("tables.db") == "sqlite:///tables.db"
    assert normalise_url("sqlite:///x.db") == "sqlite:///x.db"


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_restarted_server_rebuilds_every_table_from_the_database(backend: str,
                                                                    tmp_path: Any) -> None:
    from starlette.testclient import TestClient

    from canasta.web.app import create_app

    store = make_store(backend, tmp_path)
    try:
        with TestClient(create_app(store=store, bot_delay=0)) as client:
            client.store = store
            tables = [create(client, ["human", "bot", "bot", "bot"]) for _ in range(2)]
            for created in tables:
                tok = created["seats"][0]["token"]
                v = wait_for(lambda c=created, t=tok: (lambda x: x if x["view"]["actor"] == 0
                                                      else None)(view(client, c["table"], t)),
                             what="seat 0's turn")
                r = client.post(f"/api/tables/{created['table']}/actions",
                                json={"token": tok, "version": v["version"], "text": "draw"})
                assert r.status_code == 200
            before = [(view(client, c["table"], c["seats"][0]["token"]),
                       view(client, c["table"])) for c in tables]
        fresh = Store(store.url, schema=store.schema)
        with TestClient(create_app(store=fresh, bot_delay=0)) as client:
            after = [(view(client, c["table"], c["seats"][0]["token"]),
                      view(client, c["table"])) for c in tables]
        for (b_seat, b_spec), (a_seat, a_spec) in zip(before, after, strict=True):
            for b, a in ((b_seat, a_seat), (b_spec, a_spec)):
                for msg in (a, b):  # nobody is connected in either snapshot
                    for seat in msg["seats"]:
                        seat["connected"] = False
                assert steady(a) == steady(b)
    finally:
        store.drop_schema()
