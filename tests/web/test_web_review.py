"""The browser's Review (canasta.web.play.reviews): a finished hand's review is started by the first
request, answered "running" with its progress until "done", the same as ``canasta review``
gives for the hand's record; a hand not finished, a seat the table does not have and a bad hand
number are refused."""

from __future__ import annotations

import copy
from typing import Any

from test_web_api import play_human_turns

from canasta.sim.review import mark_of, review_record, review_to_json
from conftest import create, wait_for


def _review(client: Any, table: str, hand: int, seat: int) -> dict[str, Any]:
    def ready() -> dict[str, Any] | None:
        r = client.get(f"/api/tables/{table}/hands/{hand}/review", params={"seat": seat})
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["type"] == "review"
        if body["status"] == "running":
            assert body["total"] is None or 0 <= body["done"] <= body["total"]
            return None
        return body
    return wait_for(ready, timeout=60, what="the review")


def test_a_finished_hand_is_reviewed_as_the_command_reviews_it(client: Any) -> None:
    client.app.state.dispatcher.reviews.iterations = 1
    created = create(client, ["human", "bot"])
    table = created["table"]
    r = client.get(f"/api/tables/{table}/hands/0/review")
    assert r.status_code == 404 and r.json()["code"] == "not-found"  # not finished yet
    play_human_turns(client, created)
    body = _review(client, table, 0, 1)
    assert body["status"] == "done", body
    # asked again: the same answer, kept
    assert _review(client, table, 0, 1) == body
    review = copy.deepcopy(body["review"])
    assert review["format"] == "canasta-review" and review["seat"] == 1
    record = client.get(f"/api/tables/{table}/hands/0/record").json()
    expected = review_to_json(review_record(record, f"table {table}", 1, hands=[0],
                                            iterations=1, seed=0))
    for d in review["hands"][0]["decisions"]:
        position = d.pop("position")
        assert (position is None) == (d["mark"] is None)
        assert d["loss"] >= 0 and d["mark"] == mark_of(d["loss"])
    assert review["hands"] == expected["hands"]


def test_bad_reviews_are_refused(client: Any) -> None:
    created = create(client, ["human", "bot"])
    table = created["table"]
    play_human_turns(client, created)
    r = client.get(f"/api/tables/{table}/hands/0/review", params={"seat": 2})
    assert r.status_code == 400 and "seat 2" in r.json()["message"]
    assert client.get(f"/api/tables/{table}/hands/x/review").status_code == 400
    assert client.get(f"/api/tables/{table}/hands/1/review").status_code == 404
    assert client.get("/api/tables/nope/hands/0/review").status_code == 404
