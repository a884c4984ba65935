"""The scorepad of a real table (/scorepad, canasta.web.scorepad): a match is created, each
hand typed as a tally is scored by the code of ``canasta score`` (its downloaded hand result
scores the same there), the match is kept on the server and reopens from its link."""

from __future__ import annotations

import json
from typing import Any

from formatkit import cli

HAND = {"teams": [
    {"canastas": {"natural": 1}, "melded": {"10": 9, "20": 1}, "red_threes": 1,
     "hands": [{}, "7h"], "penalties": []},
    {"melded": {"5": 3}, "hands": [{"50": 1}, {"10": 2}], "red_threes": 0, "penalties": []},
], "went_out": {"team": 0, "player": 0}, "concealed": False}


def new_pad(client: Any, **body: Any) -> dict[str, Any]:
    r = client.post("/api/scorepads", json={"variant": "international", "players": 4,
                                            "names": ["Anna & Bea", "Carlo & Dan"], **body})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def keeper(pad: dict[str, Any]) -> dict[str, str]:
    """The headers of the scorepad's keeper (the key its creation answered)."""
    return {"X-Scorepad-Key": pad["key"]}


def test_a_hand_is_scored_kept_and_reopened_by_link(client: Any) -> None:
    pad = new_pad(client)
    assert pad["setup"]["target"] == 5000 and pad["setup"]["kinds"] == ["natural", "mixed"]
    assert client.get(f"/scorepad/{pad['id']}").status_code == 200
    r = client.post(f"/api/scorepads/{pad['id']}/hands", json={"tally": HAND}, headers=keeper(pad))
    assert r.status_code == 200, r.text
    sheets = r.json()["hands"][0]["sheets"]
    assert [s["hand_total"] for s in sheets] == [805, -55]
    codes = [i["code"] for i in sheets[0]["items"]]
    assert codes == ["natural_canasta", "red_threes", "going_out", "melded", "cards_in_hand"]
    # another device, by the link alone
    again = client.get(f"/api/scorepads/{pad['id']}").json()
    assert again["scores"] == [805, -55] and again["names"] == ["Anna & Bea", "Carlo & Dan"]
    # the second hand starts from the first one's totals
    r = client.post(f"/api/scorepads/{pad['id']}/hands", json={"tally": HAND}, headers=keeper(pad))
    assert r.json()["scores"] == [1610, -110]


def test_the_downloaded_hand_result_scores_the_same_in_canasta_score(client: Any) -> None:
    pad = new_pad(client, variant="romanian", options={"surprises": "none"})
    tally = {"teams": [
        {"canastas": {"mixed": 2}, "melded": {"10": 10, "5": 4, "20": 3, "50": 1},
         "red_threes": 2, "hands": [{}, {"10": 1, "b3": 1}],
         "penalties": [{"name": "miscount", "difference": 30}]},
        {"melded": {"10": 3, "5": 3}, "red_threes": 0,
         "hands": [{"20": 1, "r3": 1}, {"5": 2}], "penalties": []}],
        "went_out": {"team": 0, "player": 0}}
    r = client.post(f"/api/scorepads/{pad['id']}/hands", json={"tally": tally}, headers=keeper(pad))
    assert r.status_code == 200, r.text
    sheets = r.json()["hands"][0]["sheets"]
    doc = client.get(f"/api/scorepads/{pad['id']}/hands/0/result")
    assert doc.status_code == 200
    out = cli(["score", "-", "--json"], doc.text)
    assert out.exit_code == 0, out.stderr
    scored = json.loads(out.stdout)["teams"]
    assert [s["hand_total"] for s in scored] == [s["hand_total"] for s in sheets]
    assert [[i["points"] for i in s["items"]] for s in scored] == \
        [[i["points"] for i in s["items"]] for s in sheets]
    penalty = [i for i in sheets[0]["items"] if i["code"] == "penalty"][0]
    assert penalty["values"]["penalty"] == "miscount" and penalty["points"] == -300
    assert any(i["code"] == "black_threes_in_hand" for i in sheets[0]["items"])
    assert any(i["code"] == "red_threes_in_hand" for i in sheets[1]["items"])


def test_a_preview_stores_nothing_and_the_last_hand_can_be_removed(client: Any) -> None:
    pad = new_pad(client)
    r = client.post(f"/api/scorepads/{pad['id']}/hands", json={"tally": HAND, "preview": True},
                    headers=keeper(pad))
    assert r.status_code == 200 and [s["hand_total"] for s in r.json()["sheets"]] == [805, -55]
    assert client.get(f"/api/scorepads/{pad['id']}").json()["hands"] == []
    client.post(f"/api/scorepads/{pad['id']}/hands", json={"tally": HAND}, headers=keeper(pad))
    client.post(f"/api/scorepads/{pad['id']}/hands", json={"tally": HAND}, headers=keeper(pad))
    r = client.delete(f"/api/scorepads/{pad['id']}/hands/0", headers=keeper(pad))
    assert r.status_code == 409
    r = client.delete(f"/api/scorepads/{pad['id']}/hands/1", headers=keeper(pad))
    assert r.status_code == 200 and r.json()["scores"] == [805, -55]


def test_the_match_ends_at_the_target_for_the_player_count(client: Any) -> None:
    pad = new_pad(client, variant="brazilian", players=4, options={"target": "3000"})
    big = {"teams": [
        {"canastas": {"natural": 4, "mixed": 2}, "melded": {"10": 24, "5": 17, "20": 3,
                                                           "50": 1},
         "red_threes": 2, "hands": [{}, {}]},
        {"hands": [{"10": 3}, {"5": 2}]}], "went_out": {"team": 0, "player": 1}}
    r = client.post(f"/api/scorepads/{pad['id']}/hands", json={"tally": big}, headers=keeper(pad))
    assert r.status_code == 200, r.text
    assert r.json()["scores"][0] < 3000 and r.json()["winner"] is None
    data = client.post(f"/api/scorepads/{pad['id']}/hands", json={"tally": big},
                       headers=keeper(pad)).json()
    assert data["scores"][0] >= 3000 and data["winner"] == 0


def test_bad_tallies_are_refused_with_a_catalogue_key_and_nothing_stored(client: Any) -> None:
    pad = new_pad(client)
    url = f"/api/scorepads/{pad['id']}/hands"
    too_few = {"teams": [{"canastas": {"natural": 2}, "melded": {"10": 9}, "hands": [{}, {}]},
                         {"hands": [{}, {}]}]}
    r = client.post(url, json={"tally": too_few}, headers=keeper(pad))
    assert r.status_code == 400
    assert r.json()["key"] == "scorepad.err.too_few" and r.json()["team"] == 0
    no_canasta = {"teams": [{"melded": {"10": 6}, "hands": [{}, {}]}, {"hands": [{}, {}]}],
                  "went_out": {"team": 0, "player": 0}}
    r = client.post(url, json={"tally": no_canasta}, headers=keeper(pad))
    assert r.status_code == 400 and r.json()["code"] == "table"
    assert client.post(url, content=b"{nope", headers=keeper(pad)).status_code == 400
    bad = client.post(url, json={"tally": {"teams": "x"}}, headers=keeper(pad))
    assert bad.json()["key"] == "scorepad.err.bad"
    assert client.get(f"/api/scorepads/{pad['id']}").json()["hands"] == []
    assert client.get("/api/scorepads/nosuchpad").status_code == 404
    r = client.post("/api/scorepads", json={"variant": "international", "players": 7})
    assert r.status_code == 400
    r = client.post("/api/scorepads", json={"variant": "nope", "players": 4})
    assert r.status_code == 400


def test_the_share_link_reads_and_only_the_keepers_key_changes(client: Any) -> None:
    """The scorepad belongs to its keeper: without the key (the share link) it is read,
    never changed; a wrong key is no key; the keeper's key adds, previews and removes."""
    pad = new_pad(client)
    url = f"/api/scorepads/{pad['id']}"
    assert pad["editable"] is True and len(pad["key"]) >= 20
    client.post(f"{url}/hands", json={"tally": HAND}, headers=keeper(pad))
    shared = client.get(url).json()
    assert shared["editable"] is False and "key" not in shared
    assert shared["scores"] == [805, -55]
    for headers in ({}, {"X-Scorepad-Key": "not-the-key"}, {"X-Scorepad-Key": ""}):
        for r in (client.post(f"{url}/hands", json={"tally": HAND}, headers=headers),
                  client.post(f"{url}/hands", json={"tally": HAND, "preview": True},
                              headers=headers),
                  client.delete(f"{url}/hands/0", headers=headers)):
            assert r.status_code == 403 and r.json()["code"] == "bad-token", r.text
    assert client.get(url).json()["version"] == shared["version"]  # nothing changed
    assert client.get(url, headers=keeper(pad)).json()["editable"] is True
    # the hand result stays a download for anyone with the link
    assert client.get(f"{url}/hands/0/result").status_code == 200
    r = client.delete(f"{url}/hands/0", headers=keeper(pad))
    assert r.status_code == 200 and r.json()["hands"] == []
    assert r.json()["version"] != shared["version"]


def test_a_scorepad_stored_before_keys_changes_by_its_link(client: Any) -> None:
    """A scorepad stored before keys existed (no owner hash, as migration 0009 leaves it):
    its link goes on keeping it, as it did when it was made."""
    from sqlalchemy import update

    from canasta.web.storage.models import ScorepadRow

    pad = new_pad(client)
    with client.store.engine.begin() as c:
        c.execute(update(ScorepadRow).where(ScorepadRow.id == pad["id"]).values(owner_hash=None))
    url = f"/api/scorepads/{pad['id']}"
    assert client.get(url).json()["editable"] is True
    assert client.post(f"{url}/hands", json={"tally": HAND}).status_code == 200
