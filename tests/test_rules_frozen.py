"""The rules record is a value: immutable, hashable, checked once when built.

``Rules`` said it was "immutable and hashable" and was neither: ``hash(load_preset(...))``
raised, and ``rules.deal.cards_dealt[4] = 3`` silently dealt 3-card hands that no check had
seen (seed 002 deals "undici carte a ogni giocatore"). Its mappings are now
:class:`canasta.core.frozen.FrozenMap`, its lists tuples, and a record built any way is checked
by :func:`canasta.core.rule_values.validate` as it is built.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta import State, load_preset
from canasta.core.frozen import FrozenMap
from canasta.core.rules import PRESETS, DealRules, Rules, RulesError, TurnRules
from canasta.formats.jsondoc import Reader, rules_header


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_is_hashable_and_equal_records_hash_equal(name: str) -> None:
    a, b = load_preset(name), load_preset(name)
    assert a is not b and a == b and hash(a) == hash(b)
    assert len({a, b, load_preset(name, {"pile.frozen_naturals": 3})}) == 2
    assert {a: 1}[b] == 1


def test_setting_a_mapping_entry_raises_and_changes_nothing() -> None:
    # seed 002: "undici carte a ogni giocatore"; the silent 3-card deal of the report.
    rules = load_preset("international")
    with pytest.raises(TypeError, match="immutable"):
        rules.deal.cards_dealt[4] = 3  # type: ignore[index]
    with pytest.raises(TypeError):
        del rules.deal.cards_dealt[4]  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        rules.deal.cards_dealt.update({4: 3})  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        rules.deal.cards_dealt._data = {4: 3}  # type: ignore[misc]
    assert rules.cards_dealt(4) == 11
    s = State.deal(rules, 4, seed=1)
    assert all(len(s.hands[seat]) >= 11 for seat in range(4))


def test_setting_a_field_or_a_section_raises() -> None:
    rules = load_preset("romanian")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.deal.packs = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.deal = DealRules()  # type: ignore[misc]
    assert isinstance(rules.deal.player_counts, tuple)
    assert isinstance(rules.opening.minimums, tuple)
    assert all(isinstance(m, tuple) for m in rules.opening.minimums)


def test_a_section_built_from_json_like_values_is_frozen() -> None:
    deal = DealRules(cards_dealt={2: 15, 4: 13}, player_counts=[2, 4])  # type: ignore[arg-type]
    assert isinstance(deal.cards_dealt, FrozenMap) and deal.cards_dealt == {2: 15, 4: 13}
    assert deal.player_counts == (2, 4)
    assert hash(deal) == hash(DealRules(cards_dealt=FrozenMap({4: 13, 2: 15})))


@pytest.mark.parametrize(("build", "field"), [
    (lambda: Rules(deal=DealRules(jokers_per_pack=10**12)), "deal.jokers_per_pack"),
    (lambda: Rules(turn=TurnRules(draw_count={4: 0})), r"turn.draw_count\[4\]"),
    (lambda: Rules(deal=DealRules(packs="3")), "deal.packs: expected a whole number"),
    (lambda: Rules(deal=DealRules(cards_dealt={4: True})), r"deal.cards_dealt\[4\]"),
    (lambda: Rules(deal=DealRules(cards_dealt={4: 60})), r"deal.cards_dealt\[4\]"),
    (lambda: dataclasses.replace(load_preset("international"), deal=DealRules(packs=9)),
     "deal.packs"),
])
def test_a_record_built_directly_is_checked_as_it_is_built(build: object, field: str) -> None:
    with pytest.raises(RulesError, match=field):
        build()  # type: ignore[operator]


def test_with_options_builds_a_new_checked_record() -> None:
    rules = load_preset("international")
    other = rules.with_options({"deal.cards_dealt.4": 13})
    assert other.cards_dealt(4) == 13 and rules.cards_dealt(4) == 11
    with pytest.raises(RulesError, match=r"deal.cards_dealt\[4\]"):
        rules.with_options({"deal.cards_dealt.4": 60})
    # two fields that depend on each other change together (checked once, not per section)
    both = rules.with_options({"melds.wild_melds": True, "opening.wild_meld_opens": True})
    assert both.opening.wild_meld_opens


@pytest.mark.parametrize("name", PRESETS)
def test_pickle_copy_and_json_round_trips_give_an_equal_record(name: str) -> None:
    rules = load_preset(name)
    assert pickle.loads(pickle.dumps(rules)) == rules
    assert copy.deepcopy(rules) == rules and copy.copy(rules) == rules
    header = json.loads(json.dumps(rules_header(rules)))
    back = Reader("test", ValueError).rules(header)  # type: ignore[arg-type]
    assert back == rules and hash(back) == hash(rules)


_OPTION_VALUES = st.fixed_dictionaries({}, optional={
    "deal.cards_dealt.4": st.integers(9, 15),
    "turn.draw_count.2": st.integers(1, 3),
    "pile.frozen_naturals": st.integers(1, 3),
    "red_threes.totals": st.dictionaries(st.integers(1, 6).map(str), st.integers(0, 2000),
                                         max_size=3),
    "opening.naturals_only_at": st.lists(st.integers(0, 200), max_size=3),
    "end.target_by_players": st.dictionaries(st.sampled_from(["2", "4"]),
                                             st.integers(1, 20000), max_size=2),
})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(PRESETS), options=_OPTION_VALUES)
def test_any_accepted_record_is_a_value(name: str, options: dict[str, object]) -> None:
    try:
        rules = load_preset(name, options)
    except RulesError:
        return
    again = load_preset(name, json.loads(json.dumps(options)))
    assert again == rules and hash(again) == hash(rules)
    flat = {f"{section}.{key}": value for section, values in
            json.loads(json.dumps(rules.to_dict())).items() if isinstance(values, dict)
            for key, value in values.items()}
    assert Rules(name=name, options=rules.options).with_options(flat) == rules
