"""The table server accepts any bot spec the registry accepts (bots are
usable everywhere a bot is named), and refuses a bad one with the registry's reason."""

from __future__ import annotations

from typing import Any

import pytest

from canasta.bots.heuristic import HeuristicBot


def test_a_seat_takes_a_bot_spec_with_parameters(client: Any) -> None:
    body = {"variant": "international", "players": 2,
            "seats": [{"type": "human"}, {"type": "bot", "level": "easy:careless=0.9,seed=4"}]}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    table = client.manager.tables[r.json()["table"]]
    bot = table.seats[1].bot
    assert isinstance(bot, HeuristicBot) and bot.f.careless == 0.9


@pytest.mark.parametrize("level, words", [
    ("easy:careless=2", "out of range"),
    ("hard:depth=3", "has no parameter 'depth'"),
    ("genius", "unknown bot"),
    (7, "a bot spec"),
])
def test_a_bad_spec_is_refused_with_the_reason(client: Any, level: Any, words: str) -> None:
    body = {"variant": "international", "players": 2,
            "seats": [{"type": "human"}, {"type": "bot", "level": level}]}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400
    assert "seats[1].level" in r.json()["message"] and words in r.json()["message"]
