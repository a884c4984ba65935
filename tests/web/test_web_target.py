"""The table shows the target of its player count: seed 001 "nella
Canasta a 6 ... la partita va ai 10.000 punti", while the classic Italian target is 5000."""

from __future__ import annotations

from typing import Any

from conftest import create, view


def test_a_six_player_classic_italian_table_shows_the_target_it_plays_to(client: Any) -> None:
    created = create(client, ["human"] + ["bot"] * 5, variant="classic_italian")
    table = created["table"]
    shown = view(client, table)["match"]["target"]
    game = client.manager.tables[table].game
    assert shown == game.rules.target(6) == 10_000 != game.rules.end.target
