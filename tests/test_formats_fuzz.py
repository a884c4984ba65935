"""Hypothesis feeds random and mutated documents to every parser (position, hand result,
record, action JSON, action and card text): each either returns a complete, valid object or
raises its documented error, never anything else, and never changes its input."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta import (
    ActionParseError,
    CardParseError,
    Match,
    action_from_json,
    action_to_json,
    load_preset,
    parse_action,
    parse_cards,
)
from canasta.formats.handresult import HandResultError, hand_result_from_dict, hand_result_of_state
from canasta.formats.position import PositionError, position_to_dict, state_from_dict
from canasta.formats.records import RecordError, match_to_record, record_to_match
from formatkit import random_states, roundtrip

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=False)
    | st.text(max_size=12) | st.sampled_from(["Kh", "10s", "JK", "3h", "draw", "meld"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.text(max_size=8) | st.sampled_from(
            ["format", "version", "variant", "teams", "hands", "players", "turn", "melds"]),
        inner, max_size=5),
    max_leaves=20,
)


# -- valid documents to mutate ---------------------------------------------------------------

def _position_docs() -> list[dict[str, Any]]:
    out = []
    for name, players in (("international", 4), ("international", 2)):
        try:
            rules = load_preset(name)
        except ValueError:
            continue
        states = list(random_states(rules, players, 3, every=7))
        for state in states[:: max(1, len(states) // 6)]:
            out.append(roundtrip(position_to_dict(state)))
    return out


def _record_doc() -> dict[str, Any]:
    match = Match(load_preset("international"), 4, seed=2)
    rng = random.Random(2)
    for _ in range(40):
        match.apply(rng.choice(match.state.legal_actions()))
    return roundtrip(match_to_record(match))


def _hand_result_doc() -> dict[str, Any]:
    *_, state = random_states(load_preset("international"), 4, 5)
    return roundtrip(hand_result_of_state(state))


POSITIONS = _position_docs()
RECORD = _record_doc()
HAND_RESULT = _hand_result_doc()


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _paths(v, (*prefix, i))
    return out


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        doc = doc[k]
    return doc


@st.composite
def mutated(draw: st.DrawFn, base: Any) -> Any:
    """``base`` with one to three mutations at random places."""
    doc = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(doc)
        path = draw(st.sampled_from(paths))
        kind = draw(st.sampled_from(["replace", "delete", "insert", "card", "number", "dup"]))
        if not path:
            if kind == "replace":
                doc = draw(json_values)
            continue
        parent = _get(doc, path[:-1])
        key = path[-1]
        if kind == "replace":
            parent[key] = draw(json_values)
        elif kind == "delete":
            del parent[key]
        elif kind == "insert":
            if isinstance(parent, list):
                parent.insert(key, draw(json_values))
            else:
                parent[draw(st.text(max_size=6))] = draw(json_values)
        elif kind == "card":
            parent[key] = draw(st.sampled_from(["Kh", "kh", "Td", "10c", "JK", "3h", "3s", "2c",
                                                "As", "Xx", "", " 9d ", "11s", "joker"]))
        elif kind == "number":
            value = parent[key]
            if isinstance(value, int) and not isinstance(value, bool):
                parent[key] = value + draw(st.sampled_from([-1, 1, 5, -100, 10**9]))
            else:
                parent[key] = draw(st.integers(-3, 8))
        elif kind == "dup" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))
    return doc


def _unchanged(call: Any, doc: Any, errors: tuple[type[Exception], ...]) -> Any:
    before = copy.deepcopy(doc)
    try:
        result = call(doc)
    except errors as exc:
        assert str(exc)
        result = None
    assert doc == before, "a parser changed its input"
    return result


# -- positions -------------------------------------------------------------------------------

@SETTINGS
@given(json_values)
def test_random_documents_as_positions(doc: Any) -> None:
    _unchanged(lambda d: state_from_dict(d, "fuzz"), doc, (PositionError,))


@SETTINGS
@given(st.sampled_from(range(len(POSITIONS))).flatmap(lambda i: mutated(POSITIONS[i])))
def test_mutated_positions(doc: Any) -> None:
    state = _unchanged(lambda d: state_from_dict(d, "fuzz"), doc, (PositionError,))
    if state is not None:
        # What loads is whole: it writes back to a document that loads to the same position,
        # and every card of the deck is somewhere.
        again = position_to_dict(state)
        assert position_to_dict(state_from_dict(roundtrip(again))) == again
        total = sum(sum(c) for c in state.card_locations().values())
        full = state.rules.packs(state.players) * (52 + state.rules.deal.jokers_per_pack)
        assert total == full
        state.legal_actions()


# -- hand results ----------------------------------------------------------------------------

@SETTINGS
@given(json_values)
def test_random_documents_as_hand_results(doc: Any) -> None:
    _unchanged(lambda d: hand_result_from_dict(d, "fuzz"), doc, (HandResultError,))


@SETTINGS
@given(mutated(HAND_RESULT))
def test_mutated_hand_results(doc: Any) -> None:
    result = _unchanged(lambda d: hand_result_from_dict(d, "fuzz"), doc, (HandResultError,))
    if result is not None:
        sheets = result.score()
        assert len(sheets) == len(result.teams)


# -- records ---------------------------------------------------------------------------------

@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(json_values)
def test_random_documents_as_records(doc: Any) -> None:
    _unchanged(lambda d: record_to_match(d, "fuzz"), doc, (RecordError,))


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated(RECORD))
def test_mutated_records(doc: Any) -> None:
    match = _unchanged(lambda d: record_to_match(d, "fuzz"), doc, (RecordError,))
    if match is not None:
        match.state.legal_actions()


# -- actions and cards -----------------------------------------------------------------------

@SETTINGS
@given(json_values)
def test_random_action_json(doc: Any) -> None:
    action = _unchanged(action_from_json, doc, (ActionParseError,))
    if action is not None:
        assert action_from_json(action_to_json(action)) == action
        assert parse_action(action.text()) == action


@SETTINGS
@given(st.sampled_from([{"type": "meld", "cards": ["9s", "9d", "JK"]},
                        {"type": "lay-off", "rank": "9", "cards": ["9h", "2c"]},
                        {"type": "discard", "card": "Kc"}, {"type": "answer", "yes": True},
                        {"type": "take-pile", "cards": []}]).flatmap(mutated))
def test_mutated_action_json(doc: Any) -> None:
    test_random_action_json.hypothesis.inner_test(doc)  # type: ignore[attr-defined]


@SETTINGS
@given(st.text(max_size=40) | st.lists(
    st.sampled_from(["draw", "meld", "lay-off", "take-pile", "discard", "answer", "W", "9",
                     "Kh", "10s", "td", "JK", "yes", "x", "3", "2c", "retract", "end-hand"]),
    max_size=6).map(" ".join))
def test_action_and_card_text(text: str) -> None:
    try:
        action = parse_action(text)
    except ActionParseError as exc:
        assert str(exc)
    else:
        assert parse_action(action.text()) == action
    try:
        cards = parse_cards(text)
    except CardParseError as exc:
        assert "position" in str(exc) and "'" in str(exc)
    else:
        assert len(cards) == len(text.replace(",", " ").split())


def test_card_text_is_case_insensitive_and_accepts_t() -> None:
    assert parse_cards("kh KH Td 10D jk") == parse_cards("Kh Kh 10d 10d JK")
    try:
        parse_cards("Kh Qh 1h")
    except CardParseError as exc:
        assert "'1h' at position 3" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("1h parsed")


def test_json_text_round_trip_of_every_fuzz_base() -> None:
    for doc in [*POSITIONS, RECORD, HAND_RESULT]:
        assert json.loads(json.dumps(doc)) == doc
