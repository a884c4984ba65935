"""Positions (docs/formats.md, "Position"): save → load gives an equal state that plays on
identically, for random states of every preset; impossible positions are refused with what is
wrong and where."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from canasta import Retract, Rules, State, load_preset
from canasta.core.data import FIELDS
from canasta.core.state import Phase
from canasta.formats.jsondoc import schema
from canasta.formats.position import (
    PositionError,
    position_to_dict,
    same_state,
    save_position,
    state_from_dict,
    state_from_json,
)
from canasta.formats.records import load_position
from formatkit import preset, preset_params, random_states, roundtrip


def _slots_equal(a: State, b: State) -> None:
    """Attribute by attribute (beyond the position dict): the loaded state is the same."""
    for name in FIELDS:
        if name in ("snapshot", "event_log"):
            continue
        assert getattr(a, name) == getattr(b, name), name
    assert a.events == b.events
    assert (a.snapshot is None) == (b.snapshot is None) or not a.provisional


@pytest.mark.parametrize(("rules", "players"), preset_params())
def test_save_load_gives_an_equal_state_that_plays_on_identically(rules: Rules,
                                                                   players: int) -> None:
    """Random states of every preset: the position round trips through JSON text, the loaded
    state equals the original slot by slot and, played on with the same actions, stays equal
    to the end of the hand, scores included."""
    seen = {"provisional": 0, "answer": 0, "over": 0}
    for seed in range(3):
        for state in random_states(rules, players, seed * 7 + players, every=9):
            doc = position_to_dict(state)
            loaded = state_from_json(json.dumps(doc))
            assert position_to_dict(loaded) == doc
            _slots_equal(loaded, state)
            seen["provisional"] += state.provisional
            seen["answer"] += state.phase is Phase.ANSWER
            seen["over"] += state.is_over
            original = state.clone()
            rng = random.Random(seed)
            for _ in range(25):
                if original.is_over:
                    break
                legal = original.legal_actions()
                assert loaded.legal_actions() == legal
                action = rng.choice(legal)
                original.apply(action)
                loaded.apply(action)
            assert same_state(original, loaded)
            if original.is_over:
                assert [s.to_dict() for s in loaded.score()] == [
                    s.to_dict() for s in original.score()]
    assert seen["over"] == 3


@pytest.mark.parametrize(("rules", "players"), preset_params())
def test_positions_validate_against_the_schema(rules: Rules, players: int) -> None:
    validator = jsonschema.Draft202012Validator(schema("position"))
    for state in random_states(rules, players, 11, every=15):
        errors = list(validator.iter_errors(roundtrip(position_to_dict(state))))
        assert not errors, errors[0]


def test_a_provisional_opening_round_trips_and_retract_restores_the_same_position() -> None:
    rules = load_preset("international")
    for seed in range(60):
        for state in random_states(rules, 4, seed):
            if state.provisional and state.snapshot is not None:
                loaded = state_from_json(json.dumps(position_to_dict(state)))
                assert loaded.snapshot is not None
                assert position_to_dict(loaded)["turn"]["before_opening"] is not None
                state.apply(Retract())
                loaded.apply(Retract())
                assert same_state(state, loaded)
                return
    pytest.fail("no provisional opening in 60 random hands")


def test_save_position_and_load_position(tmp_path: Path) -> None:
    rules = load_preset("international")
    state = next(random_states(rules, 4, 5, every=20))
    path = tmp_path / "pos.json"
    save_position(state, path)
    assert same_state(load_position(path), state)


def test_load_position_reads_a_record_too(tmp_path: Path) -> None:
    from canasta import Match
    from canasta.formats.records import save_record

    match = Match(load_preset("international"), 4, seed=3)
    rng = random.Random(3)
    for _ in range(30):
        match.apply(rng.choice(match.state.legal_actions()))
    path = tmp_path / "game.json"
    save_record(match, path)
    assert same_state(load_position(path), match.state)


def test_a_hand_typed_position_without_history_or_deck_plays() -> None:
    """Only the required keys: a position typed in from a real table."""
    doc = position_to_dict(next(random_states(load_preset("international"), 4, 8)))
    for key in ("history", "events", "deck", "surprise", "asks", "player_melded", "joker_turn",
                "result", "rules", "options"):
        doc.pop(key)
    doc["turn"] = {"number": 0, "current": doc["turn"]["current"], "phase": "draw"}
    state = state_from_dict(roundtrip(doc), "typed.json")
    assert state.legal_actions()
    state.apply(state.legal_actions()[0])


# -- impossible positions ------------------------------------------------------------------

def _base(seed: int = 4) -> dict[str, Any]:
    rules = load_preset("international")
    for state in random_states(rules, 4, seed):
        if state.turn > 8 and not state.is_over and state.phase is Phase.DRAW and any(
                state.melds[t] for t in range(2)):
            return roundtrip(position_to_dict(state))
    raise AssertionError("no suitable state")


def _refused(doc: dict[str, Any]) -> PositionError:
    with pytest.raises(PositionError) as info:
        state_from_dict(doc, "bad.json")
    return info.value


def test_a_card_twice_too_many() -> None:
    doc = _base()
    doc["hands"][0].append(doc["stock"][0])  # a third copy of a two-pack card
    doc["hands"][0].append(doc["stock"][0])
    err = _refused(doc)
    assert err.source == "bad.json" and err.path == "$"
    assert f"{doc['stock'][0]} is on the table" in str(err) and "$.hands[0]" in str(err)
    assert "$.stock" in str(err)


def test_a_card_missing_is_a_wrong_total() -> None:
    doc = _base()
    gone = doc["stock"].pop()
    err = _refused(doc)
    assert "missing" in err.expected and gone in err.expected


def test_a_meld_breaking_the_rules() -> None:
    doc = _base()
    team = 0 if doc["melds"][0] else 1
    meld = doc["melds"][team][0]
    # Swap a natural card of the meld with a card of another rank from the stock.
    other = next(c for c in doc["stock"] if c[:-1] not in (meld[0][:-1], "2", "3", "J")
                 and c != "JK")
    doc["stock"].remove(other)
    k = next(i for i, c in enumerate(meld) if c not in ("JK",) and not c.startswith("2"))
    doc["stock"].append(meld[k])
    meld[k] = other
    err = _refused(doc)
    assert err.path == f"$.melds[{team}][0]"
    assert "one rank" in err.expected


def test_too_many_wild_cards_in_a_meld() -> None:
    doc = _base()
    team = 0 if doc["melds"][0] else 1
    wilds = [c for c in doc["stock"] if c == "JK" or c.startswith("2")]
    for w in wilds[:4]:
        doc["stock"].remove(w)
        doc["melds"][team][0].append(w)
    err = _refused(doc)
    assert err.path == f"$.melds[{team}][0]" and "melds.max_wilds" in err.expected


def test_an_empty_hand_in_a_hand_being_played() -> None:
    doc = _base()
    doc["stock"].extend(doc["hands"][1])
    doc["hands"][1] = []
    err = _refused(doc)
    assert err.path == "$.hands[1]" and "empty hand" in err.expected


def test_a_hand_size_that_cannot_occur_at_the_deal() -> None:
    state = next(random_states(load_preset("international"), 4, 2))
    doc = roundtrip(position_to_dict(state))
    doc["hands"][2].append(doc["stock"].pop())
    err = _refused(doc)
    assert err.path == "$.hands[2]" and "11 cards dealt" in err.expected


def test_a_red_three_in_a_hand() -> None:
    doc = _base()
    for where in ("red_threes", "pile", "stock"):
        source = doc[where] if where != "red_threes" else None
        if source is not None and any(c in ("3h", "3d") for c in source):
            card = next(c for c in source if c in ("3h", "3d"))
            source.remove(card)
            break
    else:
        team = 0 if doc["red_threes"][0] else 1
        card = doc["red_threes"][team].pop()
    doc["hands"][0].append(card)
    err = _refused(doc)
    assert err.path == "$.hands[0]" and "red three" in err.expected


def test_melds_of_a_side_that_has_not_opened() -> None:
    doc = _base()
    team = 0 if doc["melds"][0] else 1
    doc["opened"][team] = False
    err = _refused(doc)
    assert err.path == f"$.opened[{team}]"


def test_the_wrong_seat_to_act() -> None:
    doc = _base()
    doc["turn"]["actor"] = (doc["turn"]["current"] + 1) % 4
    assert _refused(doc).path == "$.turn.actor"


@pytest.mark.parametrize(("path", "value", "expected"), [
    ("format", "canasta-record", "canasta-position"),
    ("version", 99, "newer"),
    ("variant", "../../etc/passwd", "variant name"),
    ("players", 5, "played by"),
    ("teams", [[0, 1], [2, 3]], "alternately"),
    ("pile_frozen", "yes", "true or false"),
    ("hands", [[], [], []], "list of 4"),
    ("turn", {"number": 1, "current": 0, "phase": "thinking"}, "one of"),
    ("options", {"nonsense": 1}, "unknown rule"),
])
def test_structural_errors_name_the_path(path: str, value: Any, expected: str) -> None:
    doc = _base()
    del doc["rules"]  # the complete rules, when present, decide over variant and options
    doc[path] = value
    err = _refused(doc)
    assert expected in str(err)
    assert err.path.startswith("$")


def test_an_unknown_variant_needs_the_complete_rules() -> None:
    """Without ``rules`` the variant must be a preset; with them the position still loads (a
    position outlives its preset)."""
    doc = _base()
    doc["variant"] = "nosuchgame"
    state = state_from_dict(doc)
    assert state.rules.name == "nosuchgame"
    del doc["rules"]
    err = _refused(doc)
    assert err.path == "$.variant" and "unknown variant" in err.expected


def test_bad_card_text_names_the_token_and_path() -> None:
    doc = _base()
    doc["pile"][0] = "11h"
    err = _refused(doc)
    assert err.path == "$.pile[0]" and "'11h'" in err.expected


def test_cards_as_text_name_the_token_position() -> None:
    doc = _base()
    doc["hands"][1] = " ".join(doc["hands"][1][:2] + ["Zz"] + doc["hands"][1][2:])
    err = _refused(doc)
    assert err.path == "$.hands[1]" and "'Zz' at position 3" in err.expected


def test_json_syntax_errors_name_the_line() -> None:
    text = json.dumps(_base(), indent=1).replace('"dealer":', '"dealer"', 1)
    with pytest.raises(PositionError) as info:
        state_from_json(text, "broken.json")
    assert info.value.line is not None and "broken.json: line" in str(info.value)


def test_unknown_keys_are_refused() -> None:
    doc = _base()
    doc["turn"]["bogus"] = 1
    assert _refused(doc).path == "$.turn.bogus"


def test_a_refused_position_leaves_nothing_behind() -> None:
    doc = _base()
    before = copy.deepcopy(doc)
    doc["hands"][0].append("Zz")
    _refused(doc)
    doc["hands"][0].pop()
    assert doc == before  # the reader never changes its input
    state_from_dict(doc)


def test_other_presets_check_their_own_meld_rules() -> None:
    """Canastone: wild cards fewer than natural cards (seed 000: "non mai in numero pari o
    superiore a quello delle carte naturali")."""
    rules = preset("canastone")
    for state in random_states(rules, 4, 1):
        team = next((t for t in range(2) if any(len(m) == 3 and not any(
            c in (4, 5, 6, 7, 52) for c in m) for k, m in state.melds[t].items() if k)), None)
        if team is not None and not state.provisional:
            doc = roundtrip(position_to_dict(state))
            m = next(i for i, meld in enumerate(doc["melds"][team]) if len(meld) == 3 and not any(
                c == "JK" or c.startswith("2") for c in meld))
            wilds = [c for c in doc["stock"] if c == "JK" or c.startswith("2")][:2]
            for wild in wilds:
                doc["stock"].remove(wild)
            doc["stock"].append(doc["melds"][team][m][0])
            doc["melds"][team][m][0] = wilds[0]
            doc["melds"][team][m].append(wilds[1])  # two natural cards, two wild cards
            err = _refused(doc)
            assert "melds.wild_ratio" in err.expected or "melds.min_naturals" in err.expected
            return
    pytest.skip("no three-card natural meld in this hand")


def test_every_house_rule_choice_round_trips() -> None:
    """Each named option of each preset (with its choices applied): random states round trip."""
    from canasta.core.rules import preset_options
    from formatkit import loadable_presets

    for base in loadable_presets():
        for name, option in preset_options(base.name).items():
            for choice in option.choices:
                rules = load_preset(base.name, {name: choice})
                players = 4 if 4 in rules.deal.player_counts else rules.deal.player_counts[0]
                for state in random_states(rules, players, 1, every=40):
                    loaded = state_from_json(json.dumps(position_to_dict(state)))
                    assert same_state(loaded, state), (base.name, name, choice)
                    assert loaded.rules == state.rules
