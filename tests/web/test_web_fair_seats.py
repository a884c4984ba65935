"""Seats are safe: a rival cannot hand a person's seat to a bot before the grace period
(``--away-after``) has passed, nor choose that bot; and what a bot does for a person is
marked in every log ("Bot for Ann takes ...")."""

from __future__ import annotations

from typing import Any

from canasta.i18n import languages, t
from canasta.i18n.events import render
from conftest import create, view, wait_for


def _give(client: Any, table: str, seat: int, token: str, level: str | None = None) -> Any:
    body: dict[str, Any] = {"token": token}
    if level is not None:
        body["level"] = level
    return client.post(f"/api/tables/{table}/seats/{seat}/bot", json=body)


def test_a_rival_cannot_hand_a_seat_to_a_bot_before_the_grace_period(client: Any) -> None:
    created = create(client, ["human", "bot", "human", "bot"], level="greedy")
    table = created["table"]
    ann, bea = created["seats"][0]["token"], created["seats"][2]["token"]
    live = client.manager.tables[table]
    grace = client.manager.clocks.away_after
    assert grace > 1
    # (the test client cancels a closing socket's task: no bot may hold the lock then)
    wait_for(lambda: view(client, table)["view"]["actor"] in (0, 2), what="a person to act")
    # Bea's connection has just dropped: her seat is hers for the grace period
    with client.websocket_connect(f"/ws/{table}") as ws:
        ws.send_json({"type": "hello", "token": bea})
        ws.receive_json()
    wait_for(lambda: not view(client, table)["seats"][2]["connected"], what="Bea to leave")
    r = _give(client, table, 2, ann)
    assert r.status_code == 409 and r.json()["code"] == "not-allowed", r.text
    assert "away" in r.json()["message"]
    assert client.store.load(table).seats[2].controller == "human"
    # past the grace period, only the table's level plays for her, never one a rival picks
    live.seats[2].gone_since -= grace + 1
    r = _give(client, table, 2, ann, level="random")
    assert r.status_code == 409 and r.json()["code"] == "not-allowed", r.text
    assert client.store.load(table).seats[2].controller == "human"
    r = _give(client, table, 2, ann)
    assert r.status_code == 200, r.text
    stored = client.store.load(table).seats[2]
    assert (stored.controller, stored.level, stored.away) == ("bot", "greedy", True)
    # one's own seat may go to any bot, at once
    r = _give(client, table, 0, ann, level="random")
    assert r.status_code == 200, r.text
    assert client.store.load(table).seats[0].level == "random"


def test_what_a_bot_plays_for_a_person_is_marked_in_every_log(client: Any) -> None:
    created = create(client, ["human", "bot", "human", "bot"], level="greedy")
    table = created["table"]
    ann, bea = created["seats"][0]["token"], created["seats"][2]["token"]
    client.manager.tables[table].seats[2].gone_since -= 3600
    assert _give(client, table, 2, ann).status_code == 200
    # the bots play round to Ann, past Bea's seat
    v = wait_for(lambda: (lambda x: x if x["view"]["actor"] == 0 and any(
        e.get("seat") == 2 for e in x["view"]["log_entries"]) else None)(
        view(client, table, ann)), what="a move for Bea")
    names = [s["name"] for s in v["seats"]]
    for token in (ann, bea, None):
        entries = view(client, table, token)["view"]["log_entries"]
        bea_moves = [e for e in entries if e.get("seat") == 2 and e["key"].startswith(
            ("event.draw.", "event.discard.", "event.take_pile."))]
        assert bea_moves and all(e.get("bot") for e in bea_moves), entries
        assert not any(e.get("bot") for e in entries if e.get("seat") in (1, 3))
        # never "You draw": the seat's own log says what the bot did for it
        assert not any(e["key"].endswith(".self") for e in bea_moves)
        for lang in languages():
            text = render(bea_moves[0], lang, names)
            bot_for = t("event.bot_for", lang, name=names[2])
            assert text.startswith(bot_for), (lang, text)
    assert render(bea_moves[0], "en", names).startswith(f"Bot for {names[2]} ")
