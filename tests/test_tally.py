"""Tallies (canasta.formats.tally): a hand counted as at a real table — canastas by kind, cards
by point class — becomes a hand result whose score sheet is the one of the hand itself."""

from __future__ import annotations

import json
from typing import Any

import pytest

from canasta.bots import make_bot
from canasta.core.match import Match
from canasta.core.rules import load_preset
from canasta.formats.handresult import hand_result_from_dict, hand_result_of_state
from canasta.formats.tally import (
    TallyError,
    canasta_kinds,
    hand_result_of_tally,
    tally_of_hand_result,
)


def played_hand(variant: str, players: int, seed: int) -> dict[str, Any]:
    """A hand played to its end by greedy bots, as a hand result."""
    rules = load_preset(variant)
    state = Match(rules, players, seed=seed).state
    bots = [make_bot("greedy", seed + i) for i in range(players)]
    while not state.is_over:
        state.apply(bots[state.current].choose(state.view(state.current)))
    return hand_result_of_state(state)


CASES = [("international", 4, 1), ("international", 2, 3), ("classic_italian", 4, 2),
         ("canastone", 4, 5), ("brazilian", 4, 3), ("romanian", 4, 1), ("romanian", 3, 4),
         ("classic_italian", 6, 0)]


@pytest.mark.parametrize(("variant", "players", "seed"), CASES)
def test_a_tally_scores_as_the_hand_itself(variant: str, players: int, seed: int) -> None:
    doc = played_hand(variant, players, seed)
    rules = load_preset(variant)
    expected = hand_result_from_dict(doc).score()
    tally = json.loads(json.dumps(tally_of_hand_result(doc, rules)))
    before = [t["score_before"] for t in doc["teams"]]
    rebuilt = hand_result_of_tally(rules, players, tally, before)
    got = hand_result_from_dict(rebuilt).score()
    # the same rows (canastas in another order; a canasta of aces where aces score as any
    # rank is a plain one, as the scorekeeper counted it) and the same totals
    def rows(sheets: Any) -> list[list[tuple[str, int]]]:
        return [sorted((label.replace(" of aces", ""), pts) for label, pts in s.items)
                for s in sheets]

    assert rows(got) == rows(expected)
    assert [s.score_after for s in got] == [s.score_after for s in expected]


def test_the_kinds_follow_the_rules() -> None:
    assert canasta_kinds(load_preset("international")) == ["natural", "mixed"]
    assert "sequence" in canasta_kinds(load_preset("brazilian", {"canastra_real": "true"}))
    assert {"natural_aces", "mixed_aces", "wild_deuces", "wild_six_jokers"} <= set(
        canasta_kinds(load_preset("canastone")))


def team(**kw: Any) -> dict[str, Any]:
    return {"hands": [{}, {}], "red_threes": 0, **kw}


def test_counts_that_no_table_can_match_are_refused_by_name() -> None:
    rules = load_preset("international")
    with pytest.raises(TallyError) as err:
        hand_result_of_tally(rules, 4, {"teams": [
            team(canastas={"natural": 2}, melded={"10": 9}), team()]}, [0, 0])
    assert err.value.key == "scorepad.err.too_few" and err.value.where == 0
    with pytest.raises(TallyError) as err:
        hand_result_of_tally(rules, 4, {"teams": [team(melded={"50": 3}), team()]}, [0, 0])
    assert err.value.key == "scorepad.err.wilds"
    with pytest.raises(TallyError) as err:
        hand_result_of_tally(rules, 4, {"teams": [team(hands=[{"50": 5}, {}]), team()]},
                             [0, 0])
    assert err.value.key == "scorepad.err.deck"
    with pytest.raises(TallyError) as err:
        hand_result_of_tally(rules, 4, {"teams": [team(hands=["Kx"]), team()]}, [0, 0])
    assert err.value.key == "scorepad.err.cards"
    with pytest.raises(TallyError) as err:  # typed: three kings of hearts in two packs
        hand_result_of_tally(rules, 4, {"teams": [team(hands=["Kh Kh", "Kh"]), team()]},
                             [0, 0])
    assert err.value.key == "scorepad.err.deck" and err.value.where == 0


def test_a_typed_hand_scores_as_canasta_score_would() -> None:
    """One natural canasta (500), 35 + 20 more points melded, going out 100, partner's 7h."""
    rules = load_preset("international")
    tally = {"teams": [team(canastas={"natural": 1}, melded={"10": 9, "20": 1}, red_threes=1,
                            hands=[{}, "7h"]),
                       team(melded={"5": 3}, hands=[{"50": 1}, {"10": 2}])],
             "went_out": {"team": 0, "player": 0}}
    doc = hand_result_of_tally(rules, 4, tally, [100, 0])
    sheets = hand_result_from_dict(doc).score()
    assert sheets[0].hand_total == 500 + 100 + 100 + 110 - 5
    assert sheets[0].score_after == 100 + 805
    assert sheets[1].hand_total == 15 - 50 - 20
