"""Impossible positions are refused, what the engine writes it reads back, and readers never
raise raw exceptions or run away.

Seeds for the refusals: seed 002 "Quando il tallone è esaurito ... la smazzata termina" (a hand
ends by the stock only when the stock is gone); seed 002 "la coppia deve avere formato almeno
una canasta" (going out needs the canastas of the rules); seed 004 "4 carti ascunse sub teancul
de decartat" (surprise cards only where the rules deal them); seed 002 "Quando un giocatore
scarta una matta ... il pozzo risulta congelato" (a wild card on top freezes the pile).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta import Match, State, load_preset
from canasta.core.cards import BLACK_THREES
from canasta.core.rule_values import COUNT_BOUNDS
from canasta.core.rules import PRESETS, preset_options
from canasta.core.state import MisdealError, Phase
from canasta.formats.position import (
    PositionError,
    position_to_dict,
    same_state,
    state_from_dict,
)
from canasta.formats.records import RecordError, match_to_record, record_to_match
from formatkit import random_states, roundtrip, time_limit


def _finished(preset: str, seed: int, reason: str) -> dict[str, Any]:
    """The position of a random hand of ``preset`` that ended with ``reason``."""
    rules = load_preset(preset)
    for k in range(200):
        *_, last = random_states(rules, 4, seed + k, every=1000)
        if last.end_reason == reason:
            return roundtrip(position_to_dict(last))
    raise AssertionError(f"no hand ended with {reason}")


def _refused(doc: dict[str, Any], path: str, words: str) -> None:
    with pytest.raises(PositionError) as err:
        state_from_dict(doc, "test")
    assert err.value.path.startswith(path), err.value
    assert words in str(err.value)


# -- item 17: impossible positions ------------------------------------------------------------

def test_a_hand_ended_by_the_stock_while_the_stock_holds_cards_is_refused() -> None:
    doc = _finished("international", 1, "stock_exhausted")
    state_from_dict(doc, "test")  # as written: read back
    stolen = doc["pile"].pop() if doc["pile"] else doc["hands"][0].pop()
    doc["stock"] = [stolen]
    _refused(doc, "$.result.end_reason", "stock holds 1 cards")


def test_a_side_out_without_the_canastas_its_rules_require_is_refused() -> None:
    doc = _finished("international", 2, "went_out")
    state_from_dict(doc, "test")
    seat = doc["result"]["went_out"]
    team = doc["teams"].index(next(t for t in doc["teams"] if seat in t))
    # break every canasta of the side into the pile: no canasta left
    kept = []
    for meld in doc["melds"][team]:
        if len(meld) >= 7:
            doc["pile"][:0] = meld[3:]
            meld = meld[:3]
        kept.append(meld)
    doc["melds"][team] = kept
    _refused(doc, "$.result.went_out", "its rules require 1")


def test_surprise_cards_under_rules_that_deal_none_are_refused() -> None:
    doc = roundtrip(position_to_dict(State.deal(load_preset("international"), 4, seed=3)))
    doc["surprise"] = [doc["stock"].pop()]
    _refused(doc, "$.surprise", "the rules deal 0")
    # Romanian with the surprises option deals four (seed 004): accepted
    romanian = load_preset("romanian", {"surprises": "four"})
    state_from_dict(roundtrip(position_to_dict(State.deal(romanian, 4, seed=3))), "test")


def test_an_unfrozen_pile_with_a_wild_card_on_top_is_refused() -> None:
    doc = roundtrip(position_to_dict(State.deal(load_preset("international"), 4, seed=4)))
    joker = next(i for i, c in enumerate(doc["stock"]) if c in ("JK", "2s", "2h", "2d", "2c"))
    doc["pile"].append(doc["stock"].pop(joker))
    doc["pile_frozen"] = False
    _refused(doc, "$.pile_frozen", "freezes it")
    doc["pile_frozen"] = True
    # A position typed in (no deal order): with the deal order, the replay of the history
    # would refuse the card moved to the pile (test_formats_replay.py).
    doc["deck"] = []
    state_from_dict(doc, "test")
    # Brazilian: a discarded wild card does not freeze (seed 003), so the same pile is fine
    brazil = roundtrip(position_to_dict(State.deal(load_preset("brazilian"), 4, seed=4)))
    wild = next(i for i, c in enumerate(brazil["stock"]) if c == "JK" or c.startswith("2"))
    brazil["pile"].append(brazil["stock"].pop(wild))
    brazil["pile_frozen"] = False
    brazil["deck"] = []
    state_from_dict(brazil, "test")


# -- item 17: what the engine writes it reads back ----------------------------------------------

@st.composite
def presets_with_options(draw: st.DrawFn) -> tuple[str, dict[str, str], int]:
    preset = draw(st.sampled_from(PRESETS))
    options = {name: draw(st.sampled_from(sorted(o.choices)))
               for name, o in sorted(preset_options(preset).items()) if draw(st.booleans())}
    players = draw(st.sampled_from(sorted(load_preset(preset, options).deal.player_counts)))
    return preset, options, players


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=presets_with_options(), seed=st.integers(0, 2**31))
def test_every_position_and_record_written_reads_back(case: tuple[str, dict[str, str], int],
                                                      seed: int) -> None:
    preset, options, players = case
    rules = load_preset(preset, options)
    try:
        match = Match(rules, players, seed=seed)
    except MisdealError:
        return
    rng = random.Random(seed)
    step = 0
    while True:
        state = match.state
        if step % 5 == 0 or state.is_over:
            doc = roundtrip(position_to_dict(state))
            again = state_from_dict(doc, "written")
            assert position_to_dict(again) == doc
            assert sorted(a.text() for a in again.legal_actions()) == sorted(
                a.text() for a in state.legal_actions())
        if state.is_over:
            break
        match.apply(rng.choice(state.legal_actions()))
        step += 1
    record = roundtrip(match_to_record(match))
    replayed = record_to_match(record, "written")
    assert position_to_dict(replayed.state) == position_to_dict(match.state)


# -- item 18: readers on documents whose rules come only from options ---------------------------

def _base_docs() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for preset in PRESETS:
        rules = load_preset(preset)
        state = State.deal(rules, 4 if 4 in rules.deal.player_counts else 2, seed=7)
        pos = roundtrip(position_to_dict(state))
        pos.pop("rules", None)
        out.append(("position", pos))
        match = Match(rules, state.players, seed=7)
        rng = random.Random(7)
        for _ in range(12):
            if match.state.is_over:
                break
            match.apply(rng.choice(match.state.legal_actions()))
        rec = roundtrip(match_to_record(match))
        rec.pop("rules", None)
        out.append(("record", rec))
    return out


BASES = _base_docs()
RULE_KEYS = sorted(COUNT_BOUNDS) + ["deal.cards_dealt.4", "deal.cards_dealt.2",
                                    "deal.packs_by_players.4", "turn.draw_count.4",
                                    "opening.minimums", "red_threes.totals"]
option_values = st.one_of(
    st.integers(-5, 300), st.sampled_from([10**12, 10**30, 2**63]),
    st.lists(st.integers(0, 10**12), max_size=3), st.text(max_size=6),
    st.dictionaries(st.sampled_from(["2", "4", "x", "-1", "99"]), st.integers(-1, 10**9),
                    max_size=2),
)


def _reader(kind: str) -> Callable[[Any], Any]:
    return (lambda d: state_from_dict(d, "fuzz")) if kind == "position" else (
        lambda d: record_to_match(d, "fuzz"))


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(base=st.sampled_from(BASES),
       options=st.dictionaries(st.sampled_from(RULE_KEYS), option_values, min_size=1,
                               max_size=3))
def test_rules_from_options_only_are_checked_like_the_others(
    base: tuple[str, dict[str, Any]], options: dict[str, Any]
) -> None:
    kind, doc = base
    doc = copy.deepcopy(doc)
    doc["options"] = {**doc.get("options", {}), **options}
    before = copy.deepcopy(doc)
    with time_limit(10):
        try:
            _reader(kind)(doc)
        except (PositionError, RecordError) as exc:
            assert str(exc)
    assert doc == before, "a reader changed its input"


@pytest.mark.parametrize(("kind", "options", "where"), [
    ("record", {"deal.cards_dealt.4": 60}, "options"),
    ("record", {"deal.jokers_per_pack": 10**12}, "options"),
    ("position", {"deal.jokers_per_pack": 10**12}, "options"),
    ("record", {"turn.draw_count.4": 0}, "options"),
    ("record", {"deal.packs_by_players.4": 0}, "options"),
])
def test_the_runaway_reads_of_the_issue_are_refused_at_once(kind: str, options: dict[str, Any],
                                                            where: str) -> None:
    doc = copy.deepcopy(next(d for k, d in BASES if k == kind and d["variant"] == "brazilian"))
    doc["options"] = options
    error = PositionError if kind == "position" else RecordError
    with time_limit(5), pytest.raises(error) as err:
        _reader(kind)(doc)
    assert where in err.value.path


def test_a_black_three_turned_up_leaves_the_pile_unfrozen_and_the_position_reads_back() -> None:
    """Seed 003: black threes freeze the pile "quando vengono scartati in cima alla pila degli
    scarti" (house rule frozen_pile=wild_or_black_three), so a black three turned up as the
    upcard freezes nothing, and a position written before the first discard reads back (the
    soak's break 2026:2223). Once a black three is discarded, the unfrozen pile is refused."""
    rules = load_preset("brazilian", {"frozen_pile": "wild_or_black_three"})
    state = next(s for seed in range(400)
                 if (s := State.deal(rules, 3, seed=seed)).pile[-1] in BLACK_THREES)
    assert not state.pile_frozen
    while state.phase is not Phase.PLAY:  # the first player draws: still the upcard on top
        state.apply(state.legal_actions()[0])
    doc = roundtrip(position_to_dict(state))
    assert same_state(state_from_dict(doc, "test"), state)
    # the same top card as a discard (a Discarded event) on an unfrozen pile is refused
    later = State.deal(rules, 3, seed=0)
    while later.turn < 1:
        later.apply(next(a for a in later.legal_actions() if a.text() != "end-hand"))
    doc = roundtrip(position_to_dict(later))
    three = next(i for i, c in enumerate(doc["stock"]) if c in ("3c", "3s"))
    doc["pile"].append(doc["stock"].pop(three))
    doc["pile_frozen"] = False
    _refused(doc, "$.pile_frozen", "freezes it")
