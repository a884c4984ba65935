"""Smaller defects once found: score-sheet rows keep each player's number in the team, the
rule sheet cites the preset's own seed, and the front ends show the target of the player count.
"""

from __future__ import annotations

import random
import re

from canasta import State, load_preset
from canasta.cli.rules_cmd import rule_sheet
from canasta.formats.handresult import hand_result_from_dict, hand_result_of_state
from formatkit import cli


def _hand_won_by(seat: int) -> State:
    rules = load_preset("international")
    for seed in range(400):
        s = State.deal(rules, 4, seed=seed)
        rng = random.Random(seed)
        while not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
        if s.went_out == seat:
            return s
    raise AssertionError(f"no random hand where seat {seat} went out")


def test_the_partner_of_the_player_out_keeps_his_number_on_the_sheet() -> None:
    # Seed 002: "la coppia che si è aggiudicata la chiusura sottrae ... i punti delle carte
    # rimaste in mano al giocatore che non ha chiuso": one row, the partner's, numbered as the
    # partner is in the team (seats 1 and 3 are team 1's players 1 and 2).
    for out, partner_number in ((1, 2), (3, 1)):
        s = _hand_won_by(out)
        labels = [label for label, _ in s.score()[1].items if label.startswith("Cards left")]
        assert labels == [f"Cards left in hand, player {partner_number}"]
        # `canasta score` of the hand result prints the same rows
        result = hand_result_from_dict(hand_result_of_state(s))
        assert result.score()[1].items == s.score()[1].items


def test_the_international_rule_sheet_cites_only_seed_002_and_outside_sources() -> None:
    rows = rule_sheet(load_preset("international"))
    for row in rows:
        assert "``" not in row.source, row
        assert row.source.count("(") == row.source.count(")"), row
        assert row.source.count('"') % 2 == 0, row
        assert not re.search(r"\b(S00[0134]|seed 00[0134])\b", row.source), row
    cited = {r.key: r.source for r in rows}
    assert cited["deal.packs"] == 'seed 002 "108 carte francesi (due mazzi ...)"'
    assert cited["deal.surprise_cards"].startswith("not in seed 002")


def test_variants_show_the_target_of_each_player_count() -> None:
    result = cli(["variants"])
    assert result.exit_code == 0
    text = " ".join(result.output.split())  # the console wraps long lines
    assert "extends canastone; players 2, 3, 4, 6; target 5000 (6 players: 10000)" in text
    assert load_preset("classic_italian").target(6) == 10_000


def test_the_hand_result_carries_the_penalties_the_engine_charged() -> None:
    # Seed 004: a player told "yes" who then cannot go out is charged 500 ("se dovedeşte că nu
    # poate"); `canasta score` of the engine's hand result must charge it too (found by the soak
    # benchmark, case 2:104).
    rules = load_preset("romanian")
    for seed in range(400):
        s = State.deal(rules, 4, seed=seed)
        rng = random.Random(seed)
        while not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
        mine = s.score()
        if not any(label.startswith("Penalty") for sheet in mine for label, _ in sheet.items):
            continue
        result = hand_result_from_dict(hand_result_of_state(s))
        assert [x.items for x in result.score()] == [x.items for x in mine]
        return
    raise AssertionError("no random hand with a penalty")
