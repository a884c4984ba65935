"""Migration 0004 (the event log) on a database written by the server before it: the file
``data/main-0003.sqlite3`` was written by main at c443397 (``data/make_main_db.py``), and
``data/main-0003.json.gz`` holds what that server showed for each table. After the migration
every table shows the same, serves the same records, and plays on consistently with its
stored history; on PostgreSQL the same rows are copied into a schema at 0003 first."""

from __future__ import annotations

import gzip
import json
import random
import shutil
import uuid
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import MetaData, inspect, select
from test_web_restart import essentials, essentials_of

from canasta.core.actions import parse_action
from canasta.core.cards import parse_card
from canasta.core.rules import load_preset
from canasta.core.state import State
from canasta.formats.records import check_record
from canasta.web.storage.store import MIGRATIONS, Store
from conftest import BACKENDS, PG_URL, pg_reachable, wait_for

DATA = Path(__file__).with_name("data")
OLD = json.loads(gzip.decompress((DATA / "main-0003.json.gz").read_bytes()))
#: What may differ from what the old server showed: the time of the last move is new, and
#: a restarted server knows of no open connection, running clock or undo mark.
VOLATILE = ("at", "clock", "can_undo")


def _old_store(backend: str, tmp_path: Path) -> Store:
    """A database of schema 0003 holding the rows main wrote."""
    copy = tmp_path / "old.sqlite3"
    shutil.copy(DATA / "main-0003.sqlite3", copy)
    if backend == "sqlite":
        return Store(f"sqlite:///{copy}")
    reason = pg_reachable()
    if reason:
        pytest.skip(reason)
    from alembic import command
    from alembic.config import Config

    store = Store(PG_URL, schema=f"canasta_test_{uuid.uuid4().hex[:12]}")
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", store.url)
    with store.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0003")
    source = Store(f"sqlite:///{copy}")
    old = MetaData()
    old.reflect(source.engine)
    new = MetaData()
    new.reflect(store.engine)
    with source.engine.connect() as src, store.engine.begin() as dst:
        for name in ("canasta_tables", "canasta_seats", "canasta_hands", "canasta_actions"):
            rows = [dict(r._mapping) for r in src.execute(select(old.tables[name]))]
            if rows:
                dst.execute(new.tables[name].insert(), rows)
    source.dispose()
    return store


def _drop_retired(record: dict[str, Any]) -> None:
    """Rule names of older records that no longer exist (``rule_values.RETIRED``): read and
    dropped, so the record written again lacks them."""
    from canasta.core.rule_values import RETIRED

    for name in [k for k in record.get("options", {}) if k in RETIRED]:
        del record["options"][name]
    for section, values in record.get("rules", {}).items():
        for name in [k for k in values if f"{section}.{k}" in RETIRED]:
            del values[name]


def _same(message: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in message.items() if k not in VOLATILE}
    out["seats"] = [{**s, "connected": False} for s in message["seats"]]
    return out


@pytest.mark.parametrize("backend", BACKENDS)
def test_tables_written_before_the_event_log_show_and_play_on_the_same(
        backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from starlette.testclient import TestClient

    from canasta.core.dealproof import DealProof

    # the new hands' deal secrets from a seeded source: the moves played on are the same
    rng = random.Random(11)
    monkeypatch.setattr(DealProof, "fresh", classmethod(
        lambda cls: cls(f"{rng.getrandbits(128):032x}", f"{rng.getrandbits(128):032x}")))

    from canasta.web.app import create_app

    store = _old_store(backend, tmp_path)
    try:
        store.migrate()
        assert "record" not in {c["name"] for c in inspect(store.engine)
                                .get_columns("canasta_hands")}
        for entry in OLD["tables"]:
            data = store.load(entry["table"])
            assert data is not None and data.rules is not None and data.seed is not None
            assert data.turn in ("human", "deal")  # each was left waiting for a person
            finished = [h for h in data.hands if h.finished]
            assert all(h.sheets and all(s["codes"] for s in h.sheets) for h in finished)
        with TestClient(create_app(store=store, bot_delay=0)) as client:
            for entry in OLD["tables"]:
                table, tokens = entry["table"], entry["tokens"]
                for who, before in entry["views"].items():
                    tok = None if who == "spectator" else tokens[int(who)]
                    headers = {"Authorization": f"Bearer {tok}"} if tok else {}
                    now = client.get(f"/api/tables/{table}", headers=headers).json()
                    # An option named since the data was written (one_card_pile) shows with
                    # the value the stored rules give it; every option shown then is the same.
                    added = set(now.get("options", {})) - set(before.get("options", {}))
                    assert added <= {"one_card_pile"}, added
                    for name in added:
                        del now["options"][name]
                    # a setting named since (the chat's) shows its default
                    if "chat" not in before["settings"]:
                        assert now["settings"].pop("chat") == "presets"
                    # a hand dealt before deals were committed to shows no commitment
                    assert now.pop("deal") is None
                    assert _same(now) == _same(before), (table, who)
                for old_record in entry["records"]:
                    n = len(old_record["hands"]) - 1
                    rec = client.get(f"/api/tables/{table}/hands/{n}/record").json()
                    for key in ("engine", "date", "seed"):
                        rec.pop(key, None)
                        old_record.pop(key, None)
                    _drop_retired(old_record)
                    for name in set(rec.get("options", {})) - set(old_record.get("options", {})):
                        assert name == "one_card_pile", name  # named since (as above)
                        del rec["options"][name]
                    assert rec == old_record
                    assert check_record(rec) == []
            _play_on(client, store, OLD["tables"][0], random.Random(4), 60)
            _play_on(client, store, OLD["tables"][3], random.Random(5), 80)
    finally:
        store.drop_schema()
        store.dispose()


def _person_to_act(client: Any, table: str, tokens: list[str | None]) -> bool:
    """The hand is over or a person is to act (read in the server's memory, not asked)."""
    state = client.app.state.manager.tables[table].game.state
    return bool(state.is_over or tokens[state.actor] is not None)


def _play_on(client: Any, store: Store, entry: dict[str, Any], rng: random.Random,
             moves: int) -> None:
    """Play the people's moves (and deal new hands); after each, every seat's view is the
    engine's replay of the stored deck orders and actions. While a seat's turn goes on, its
    next move is chosen from the last one's answer (the mover's view): the address's view
    budget is a client's fair use, not a poll per move."""
    table, tokens = entry["table"], entry["tokens"]
    hands = checked = 0
    last: dict[str, Any] | None = None
    for _ in range(moves):
        if last is not None and last["view"]["actor"] == last["you"] \
                and last["view"]["phase"] != "over":
            mine, tok = last, tokens[last["you"]]
        else:
            pub = client.get(f"/api/tables/{table}").json()
            if pub["view"]["phase"] == "over":
                tok = next(t for t in tokens if t)
                r = client.post(f"/api/tables/{table}/next-hand",
                                json={"token": tok, "version": pub["version"]})
                assert r.status_code == 200, r.text
                hands += 1
                continue
            tok = tokens[pub["view"]["actor"]]
            if tok is None:  # a bot moves (bot_delay 0): look again once a person is to act
                wait_for(lambda: _person_to_act(client, table, tokens), what="a person to act")
                continue
            mine = client.get(f"/api/tables/{table}",
                              headers={"Authorization": f"Bearer {tok}"}).json()
            if mine["version"] != pub["version"]:
                continue
        last = None
        legal = mine["view"]["legal"]
        pick = rng.choice([a for a in legal if a["type"] != "discard"] or legal) \
            if rng.random() < 0.4 else rng.choice(legal)
        r = client.post(f"/api/tables/{table}/actions", json={
            "token": tok, "version": mine["version"],
            "action": {k: v for k, v in pick.items() if k != "text"}})
        assert r.status_code in (200, 409), r.text
        msg = r.json()
        if r.status_code != 200:
            continue
        last = msg
        if msg["view"]["actor"] != msg["you"]:
            continue  # the bots may have moved on since: checked at the next move
        data = store.load(table)
        assert data.version == msg["version"]
        hand = data.hands[-1]
        state = State.deal(load_preset(data.variant, data.options), data.players,
                           deck=[parse_card(c) for c in hand.deck], dealer=hand.dealer,
                           scores=hand.scores_before, team_size=data.team_size)
        for seat, text in hand.actions:
            assert seat == state.actor
            state.apply(parse_action(text))
        assert essentials(msg["view"]) == essentials_of(state, msg["you"])
        checked += 1
    assert checked >= 5
