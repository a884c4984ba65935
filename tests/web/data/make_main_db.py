"""Write ``main-0003.sqlite3`` and ``main-0003.json.gz``: a database written by the table server
as it was before the event-log storage (schema 0003, main at c443397), and what that server
showed for each of its tables, so that tests/web/test_web_migration.py checks that the
migrated tables show and play on identically.

Run it with the code of that commit, not this checkout's::

    git -C /work/main worktree add /tmp/old c443397
    /work/main/.venv/bin/python tests/web/data/make_main_db.py /tmp/old/src

It plays, with greedy bots and people driven by a seeded generator, each table through a
whole hand into the next (so that each stored a game record, which carries its complete
rules: the migration takes them from there, and a later change of a preset file changes
nothing): a four-player international table (with the house rule undo used), a two-player
table with a seat handed to a bot, a public table whose free seat was taken, and a
Brazilian table with house rules.
"""

from __future__ import annotations

import gzip
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def main(src: str) -> None:
    sys.path.insert(0, src)
    import os

    os.environ["CANASTA_PURE"] = "1"
    from starlette.testclient import TestClient

    import canasta.web.app as app_module
    from canasta.web.storage.store import Store

    assert str(Path(app_module.__file__).resolve()).startswith(str(Path(src).resolve())), \
        "run this with the old sources first on sys.path"
    db = HERE / "main-0003.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    store = Store(f"sqlite:///{db}")
    rng = random.Random(12)
    out: dict[str, Any] = {"tables": []}
    with TestClient(app_module.create_app(store=store, bot_delay=0)) as client:

        def view(table: str, token: str | None = None) -> dict[str, Any]:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            r = client.get(f"/api/tables/{table}", headers=headers)
            assert r.status_code == 200, r.text
            return r.json()

        def settle(table: str, tokens: list[str | None]) -> dict[str, Any]:
            """Wait until a person is to act (or the hand is over)."""
            for _ in range(2000):
                v = view(table)
                if v["view"]["phase"] == "over" or tokens[v["view"]["actor"]]:
                    time.sleep(0.05)
                    v2 = view(table)
                    if v2["version"] == v["version"]:
                        return v
                time.sleep(0.01)
            raise AssertionError("the bots did not stop")

        def play(table: str, tokens: list[str | None], moves: int, undo: bool = False,
                 deal: bool = True) -> None:
            done = 0
            while done < moves:
                pub = settle(table, tokens)
                if pub["view"]["phase"] == "over":
                    if not deal:
                        return
                    tok = next(t for t in tokens if t)
                    r = client.post(f"/api/tables/{table}/next-hand",
                                    json={"token": tok, "version": pub["version"]})
                    assert r.status_code == 200, r.text
                    done += 1
                    continue
                tok = tokens[pub["view"]["actor"]]
                mine = view(table, tok)
                legal = mine["view"]["legal"]
                by: dict[str, list[dict[str, Any]]] = {}
                for a in legal:
                    by.setdefault(a["type"], []).append(a)
                if mine["view"]["go_out"] and rng.random() < 0.9:
                    r = client.post(f"/api/tables/{table}/go-out",
                                    json={"token": tok, "version": mine["version"]})
                    assert r.status_code == 200, r.text
                    done += 1
                    continue
                if "meld" in by and rng.random() < 0.8:
                    pick = rng.choice(by["meld"])
                elif "lay-off" in by and rng.random() < 0.8:
                    pick = rng.choice(by["lay-off"])
                elif "take-pile" in by and rng.random() < 0.7:
                    pick = rng.choice(by["take-pile"])
                elif "discard" in by:
                    pick = rng.choice(by["discard"])
                else:
                    pick = rng.choice(legal)
                action = {k: v for k, v in pick.items() if k != "text"}
                r = client.post(f"/api/tables/{table}/actions",
                                json={"token": tok, "version": mine["version"],
                                      "action": action})
                assert r.status_code == 200, r.text
                done += 1
                if undo and pick["type"] in ("meld", "lay-off") and mine2_can_undo(
                        client, table, tok):
                    v = view(table, tok)
                    r = client.post(f"/api/tables/{table}/undo",
                                    json={"token": tok, "version": v["version"]})
                    assert r.status_code == 200, r.text
                    out.setdefault("undos", 0)
                    out["undos"] += 1

        def mine2_can_undo(client: Any, table: str, tok: str) -> bool:
            return bool(view(table, tok)["can_undo"])

        def new_table(body: dict[str, Any]) -> tuple[str, list[str | None]]:
            r = client.post("/api/tables", json=body)
            assert r.status_code == 201, r.text
            data = r.json()
            return data["table"], [s["token"] for s in data["seats"]]

        def finish_hand(table: str, tokens: list[str | None]) -> None:
            for _ in range(3000):
                pub = settle(table, tokens)
                if pub["view"]["phase"] == "over":
                    return
                play(table, tokens, 1, deal=False)
            raise AssertionError("the hand did not end")

        # 1. four players, a whole hand, then into the next one (undo on)
        t1, k1 = new_table({"variant": "international", "players": 4, "undo": True,
                            "seats": [{"type": "human", "name": "Ana"},
                                      {"type": "bot", "level": "greedy"},
                                      {"type": "human", "name": "Ben"},
                                      {"type": "bot", "level": "greedy"}]})
        play(t1, k1, 30, undo=True)
        finish_hand(t1, k1)
        play(t1, k1, 12, undo=True)  # deals hand 2 and plays into it
        # 2. two players, mid-hand, then the person's seat handed to a bot and back
        t2, k2 = new_table({"variant": "international", "players": 2, "clock": 120,
                            "seats": [{"type": "human", "name": "Cai"},
                                      {"type": "bot", "level": "greedy"}]})
        finish_hand(t2, k2)
        play(t2, k2, 15)
        r = client.post(f"/api/tables/{t2}/seats/1/bot", json={"token": k2[0],
                                                                "level": "easy"})
        # 3. a public table with a free seat taken from the lobby
        t3, k3 = new_table({"variant": "international", "players": 4, "public": True,
                            "seats": [{"type": "human", "name": "Dan"},
                                      {"type": "open", "level": "greedy"},
                                      {"type": "bot", "level": "greedy"},
                                      {"type": "open", "level": "greedy"}]})
        r = client.post(f"/api/tables/{t3}/seats/1/join", json={"name": "Eve"})
        assert r.status_code == 200, r.text
        k3[1] = r.json()["token"]
        finish_hand(t3, k3)
        play(t3, k3, 10)
        # 4. Brazilian with house rules
        t4, k4 = new_table({"variant": "brazilian", "players": 4,
                            "seats": [{"type": "human", "name": "Fia"},
                                      {"type": "bot", "level": "greedy"},
                                      {"type": "human", "name": "Gus"},
                                      {"type": "bot", "level": "greedy"}]})
        finish_hand(t4, k4)
        play(t4, k4, 20)
        for table, tokens in ((t1, k1), (t2, k2), (t3, k3), (t4, k4)):
            settle(table, tokens)
            entry: dict[str, Any] = {"table": table, "tokens": tokens,
                                     "views": {"spectator": view(table)}}
            for seat, tok in enumerate(tokens):
                if tok:
                    entry["views"][str(seat)] = view(table, tok)
            records = []
            for n in entry["views"]["spectator"]["records"]:
                r = client.get(f"/api/tables/{table}/hands/{n}/record")
                assert r.status_code == 200
                records.append(r.json())
            entry["records"] = records
            out["tables"].append(entry)
    store.dispose()
    for suffix in ("-wal", "-shm"):
        assert not Path(str(db) + suffix).exists() or Path(str(db) + suffix).stat().st_size \
            == 0 or suffix == "-shm"
    with gzip.open(HERE / "main-0003.json.gz", "wt", encoding="utf-8") as f:
        f.write(json.dumps(out, indent=1) + "\n")
    print(f"wrote {db} ({db.stat().st_size} bytes) and main-0003.json.gz "
          f"({len(out['tables'])} tables, {out.get('undos', 0)} undos)")


if __name__ == "__main__":
    main(sys.argv[1])
