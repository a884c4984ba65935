"""Storage grows linearly with the actions played: a long match between bots, the table's
rows and bytes measured after every hand (before the event log, each finished hand stored
the whole match record so far, and every new hand replayed the whole match)."""

from __future__ import annotations

from typing import Any

from conftest import create, view, wait_for


def test_storage_per_table_grows_linearly_with_the_actions(client: Any, capsys: Any) -> None:
    # a target no side reaches in six hands: the match goes on
    created = create(client, ["human", "bot"], options={"end.target": 100_000})
    table, tok = created["table"], created["seats"][0]["token"]
    r = client.post(f"/api/tables/{table}/seats/0/bot", json={"token": tok, "level": "greedy"})
    assert r.status_code == 200, r.text
    store = client.store
    points: list[tuple[int, int, int]] = []  # (actions, rows, bytes) after each hand
    for hand in range(6):
        done = wait_for(lambda h=hand: (lambda v: v if v["hand_number"] == h and
                                        v["view"]["phase"] == "over" else None)(
                                            view(client, table)),
                        timeout=120, what=f"the end of hand {hand}")
        actions = len(store.actions(table))
        rows, size = store.footprint(table)
        points.append((actions, rows, size))
        assert not done["match"]["over"]
        if hand == 5:
            break
        r = client.post(f"/api/tables/{table}/next-hand",
                        json={"token": tok, "version": done["version"]})
        assert r.status_code == 200, r.text
    # one row per action and per hand, on top of the table and its seats
    for n, (actions, rows, _) in enumerate(points):
        assert rows == 1 + 2 + (n + 1) + actions
    # the bytes each hand adds, per action of that hand, stay the same from the first hand
    # to the last (quadratic storage would make the late hands cost more per action)
    steps = [(b[2] - a[2]) / (b[0] - a[0]) for a, b in zip(points, points[1:], strict=False)]
    first = points[0][2] / points[0][0]
    with capsys.disabled():
        print(f"\nstorage per table after each hand (actions, rows, bytes): {points}; "
              f"bytes per action of each later hand: {[round(s, 1) for s in steps]}")
    assert max(steps) < 1.5 * min(steps)
    assert max(steps) < 1.5 * first
