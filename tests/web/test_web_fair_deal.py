"""A shuffle anyone can verify: each hand served is dealt from secrets whose hash (the
commitment) every seat and spectator receives before the first move; the secrets are
revealed in the hand's sheet and record once it is over, and ``canasta replay
--verify-deal`` confirms the deal of a served record."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from canasta.core.dealproof import commitment_of
from canasta.formats.dealcheck import check_deals
from conftest import create, view, wait_for


def _give_own_seat(client: Any, table: str, token: str) -> None:
    r = client.post(f"/api/tables/{table}/seats/0/bot", json={"token": token})
    assert r.status_code == 200, r.text


def test_a_served_hand_is_committed_before_play_and_verifies_after(any_client: Any,
                                                                   tmp_path: Path) -> None:
    client = any_client
    created = create(client, ["human", "bot", "bot", "bot"])
    table, ann = created["table"], created["seats"][0]["token"]
    first = view(client, table, ann)
    deal = first["deal"]
    assert deal["hand"] == 0 and re.fullmatch(r"[0-9a-f]{64}", deal["commitment"])
    assert set(deal) == {"hand", "commitment"}  # nothing of the secrets before the end
    secrets = client.store.load(table).hands[0].deal
    assert commitment_of(secrets["seed"], secrets["nonce"]) == deal["commitment"]
    for token in (ann, None):
        text = json.dumps(view(client, table, token))
        assert secrets["seed"] not in text and secrets["nonce"] not in text
    _give_own_seat(client, table, ann)
    end = wait_for(lambda: (lambda v: v if v["view"]["phase"] == "over" else None)(
        view(client, table)), timeout=60, what="the hand's end")
    # the sheet of the finished hand reveals what was committed to
    sheet = end["match"]["hands"][0]
    assert sheet["deal"] == {"commitment": deal["commitment"], **secrets}
    record = client.get(f"/api/tables/{table}/record").json()
    assert record["hands"][0]["deal"] == sheet["deal"]
    assert [c.verified for c in check_deals(record)] == [True]
    path = tmp_path / "served.json"
    path.write_text(json.dumps(record))
    from formatkit import cli

    result = cli(["replay", str(path), "--verify-deal"])
    assert result.exit_code == 0, result.stdout
    assert deal["commitment"] in result.stdout
    # the next hand has secrets of its own, committed to anew, and survives a restart
    r = client.post(f"/api/tables/{table}/next-hand", json={"token": ann,
                                                            "version": end["version"]})
    assert r.status_code == 200, r.text
    nxt = r.json()["deal"]
    assert nxt["hand"] == 1 and nxt["commitment"] != deal["commitment"]
    stored = client.store.load(table).hands[1].deal
    assert stored["seed"] != secrets["seed"]
    assert commitment_of(stored["seed"], stored["nonce"]) == nxt["commitment"]
    client.manager.tables.pop(table)
    assert view(client, table)["deal"] == nxt
