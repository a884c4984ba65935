"""Positions that could not have happened are refused, with the path of what is wrong.

Every number a position holds is bounded by what a hand can reach: the match scores by a
stated maximum (``MAX_SCORE``), the turn by the deck (every turn draws from the stock or
puts the pile's top card on the table for good), a seat's questions by its turns (seed 002:
a player may ask once, "chiedere al compagno"), the raised minimum by the retract penalty
(seed 000: "il punteggio richiesto per l'apertura aumenta di 10 punti"). A position that
holds its deal order and its history is played again under its rules: an event that the
deal and the actions before it do not give, an action that was not legal when it was
played, or a value of the position the history does not lead to, is refused where it is.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from canasta import Discard, Draw, State, TakePile, load_preset
from canasta.cli import _register, app
from canasta.formats.jsondoc import MAX_SCORE
from canasta.formats.position import PositionError, position_to_dict, state_from_dict
from canasta.formats.position_checks import max_turn
from formatkit import roundtrip

_register()


def _state(name: str = "international", seed: int = 4, steps: int = 40,
           players: int = 4) -> State:
    state = State.deal(load_preset(name), players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        actions = state.legal_actions()
        takes = [a for a in actions if isinstance(a, TakePile)]
        state.apply(takes[0] if takes else rng.choice(actions))
    return state


def _doc(**kw: Any) -> dict[str, Any]:
    return roundtrip(position_to_dict(_state(**kw)))


def _refused(doc: dict[str, Any], path: str, words: str = "") -> PositionError:
    with pytest.raises(PositionError) as info:
        state_from_dict(doc, "bad.json")
    assert info.value.path == path, info.value
    assert words in info.value.expected, info.value
    return info.value


def _event(doc: dict[str, Any], kind: str, **match: Any) -> int:
    return next(i for i, e in enumerate(doc["events"]) if e["type"] == kind
                and all(e.get(k) == v for k, v in match.items()))


# -- bounds ------------------------------------------------------------------------------------

@pytest.mark.parametrize("score", [10**100, -10**100, MAX_SCORE + 1])
def test_a_match_score_beyond_the_stated_maximum(score: int) -> None:
    doc = _doc()
    doc["scores"][1] = score
    _refused(doc, "$.scores[1]", "at")


def test_a_turn_number_beyond_what_the_deck_allows() -> None:
    doc = _doc()
    doc["turn"]["number"] = 10**18
    _refused(doc, "$.turn.number", "at most")
    state = _state()
    doc = _doc()
    doc["turn"]["number"] = max_turn(state) + 1
    doc.pop("events"), doc.pop("history"), doc.pop("deck")
    _refused(doc, "$.turn.number", "draws from the stock")


def test_the_turn_bound_holds_for_the_longest_hands_played() -> None:
    """Hands played to their end never pass :func:`max_turn` (a stock's-end draw-heavy
    play: always draw, never meld)."""
    for name, players in (("international", 4), ("canastone", 6), ("brazilian", 2)):
        state = State.deal(load_preset(name), players, seed=1)
        while not state.is_over:
            actions = state.legal_actions()
            slow = [a for a in actions if isinstance(a, (Draw, Discard))]
            state.apply(slow[0] if slow else actions[0])
        assert 0 < state.turn <= max_turn(state)


def test_more_questions_than_turns_or_the_rules_allow() -> None:
    doc = _doc()
    doc["asks"][0] = 300
    _refused(doc, "$.asks[0]", "at most")
    doc = _doc()
    doc["asks"][2] = doc["turn"]["number"] // 4 + 2
    doc.pop("events"), doc.pop("history"), doc.pop("deck")
    _refused(doc, "$.asks[2]", "one a turn")


def test_a_joker_turn_after_the_turn_and_a_raised_minimum_not_of_retracts() -> None:
    doc = _doc()
    doc["joker_turn"][0] = doc["turn"]["number"] + 1
    _refused(doc, "$.joker_turn[0]", "turn up to")
    doc = _doc()
    doc["minimum_raised"][1] = 15  # the penalty is 10
    _refused(doc, "$.minimum_raised[1]", "multiple of 10")
    doc["minimum_raised"][1] = 10**30
    _refused(doc, "$.minimum_raised[1]", "at most")


def test_numbers_inside_events_are_bounded() -> None:
    doc = _doc(steps=400)
    assert doc["turn"]["phase"] == "over"
    end = _event(doc, "hand_ended")
    doc["events"][end]["scores"][0]["items"][0]["points"] = 10**100
    _refused(doc, f"$.events[{end}].scores[0].items[0].points", "at most")
    doc = _doc()
    i = _event(doc, "drew")
    doc["events"][i]["drawn_count"] = 10**18
    _refused(doc, f"$.events[{i}].drawn_count", "at most")


# -- a history that contradicts the cards ------------------------------------------------------

def test_a_deal_with_more_jokers_than_the_deck_holds() -> None:
    doc = _doc()
    dealt = doc["events"][0]
    assert dealt["type"] == "dealt"
    dealt["hands"][1] = ["JK"] * 5 + dealt["hands"][1][5:]
    err = _refused(doc, "$.events[0]", "more than the deck holds")
    assert "JK x" in err.expected


def test_a_deal_of_another_size() -> None:
    doc = _doc()
    doc["events"][0]["hands"][2] = doc["events"][0]["hands"][2][:-1]
    doc["deck"] = []
    _refused(doc, "$.events[0].hands[2]", "11 cards dealt")


def test_a_wild_meld_where_the_rules_have_none() -> None:
    doc = _doc()
    i = _event(doc, "melded", new=True)
    doc["events"][i]["key"] = 0
    doc["events"][i]["cards"] = ["JK", "JK", "2c"]
    _refused(doc, f"$.events[{i}].key", "[melds.wild_melds]")


def test_a_draw_the_deal_order_does_not_give() -> None:
    doc = _doc()
    i = _event(doc, "drew")
    drawn = doc["events"][i]["drawn"]
    other = next(c for c in ("Ks", "Qh", "5d") if c not in drawn)
    doc["events"][i]["drawn"] = [other, *drawn[1:]]
    err = _refused(doc, f"$.events[{i}]", "the deal order and the actions before it give")
    assert drawn[0] in err.expected


def test_an_action_that_was_not_legal_when_played() -> None:
    """A discard of a card the player did not hold: the history's actions agree with each
    other and with the cards' totals, but not with the deal."""
    doc = _doc()
    i = _event(doc, "discarded")
    seat = doc["events"][i]["seat"]
    card = next(c for c in ("Ks", "Qh", "5d", "9c") if c not in doc["events"][0]["hands"][seat]
                and c != doc["events"][i]["card"])
    doc["events"][i]["card"] = card
    doc["events"][i]["action"] = {"type": "discard", "card": card}
    doc["history"] = [[s, a if k != _action_index(doc, i) else f"discard {card}"]
                      for k, (s, a) in enumerate(doc["history"])]
    _refused(doc, f"$.events[{i}]", "could not be played then")


def _action_index(doc: dict[str, Any], event_index: int) -> int:
    """The history's index of the action of ``doc["events"][event_index]``."""
    return sum(1 for e in doc["events"][:event_index] if "action" in e and e["action"])


def test_a_seat_that_acts_out_of_turn_in_the_history() -> None:
    doc = _doc()
    i = _event(doc, "discarded")
    doc["events"][i]["seat"] = (doc["events"][i]["seat"] + 1) % 4
    doc.pop("history")
    _refused(doc, f"$.events[{i}].seat", "turn")


def test_cards_moved_between_hands_contradict_the_history() -> None:
    """The totals hold (each card still once), the table rules hold; only the history says
    the cards are elsewhere."""
    doc = _doc()
    a, b = doc["hands"][1][0], doc["hands"][3][0]
    if a == b:
        b = doc["hands"][3][1]
    doc["hands"][1][0], doc["hands"][3][doc["hands"][3].index(b)] = b, a
    err = _refused(doc, "$.hands[1][0]", "what the deal order and the history give")
    assert a in err.expected
    doc = _doc()
    doc["stock"][0], doc["stock"][1] = doc["stock"][1], doc["stock"][0]
    if doc["stock"][0] != doc["stock"][1]:
        _refused(doc, "$.stock[0]", "what the deal order and the history give")


@pytest.mark.parametrize(("name", "players"), [
    ("international", 4), ("canastone", 6), ("classic_italian", 6), ("brazilian", 2),
    ("romanian", 3),
])
def test_every_position_the_engine_writes_replays(name: str, players: int) -> None:
    """Positions along whole hands of every preset read back (the replay finds nothing)."""
    state = State.deal(load_preset(name), players, seed=11)
    rng = random.Random(11)
    while True:
        doc = roundtrip(position_to_dict(state))
        assert position_to_dict(state_from_dict(doc, "ok.json")) == doc
        if state.is_over:
            break
        for _ in range(7):
            if not state.is_over:
                state.apply(rng.choice(state.legal_actions()))


def test_play_from_refuses_a_position_that_could_not_have_happened(tmp_path: Path) -> None:
    doc = _doc()
    i = _event(doc, "drew")
    doc["events"][i]["drawn"] = ["JK"] * len(doc["events"][i]["drawn"])
    doc["events"][0]["hands"][0] = ["JK"] * 4 + doc["events"][0]["hands"][0][4:]
    bad = tmp_path / "impossible.json"
    bad.write_text(json.dumps(doc), "utf-8")
    result = CliRunner().invoke(app, ["play", "--from", str(bad)], input="quit\n")
    assert result.exit_code == 2
    out = " ".join(result.output.split())
    assert "impossible.json" in out and "$.events[" in out
