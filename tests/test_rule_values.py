"""Rule values are validated before any deal, and preset names come only from the packaged
presets.

Every field has bounds (``canasta.core.rule_values.COUNT_BOUNDS``); a combination that cannot
make a playable deal is refused naming the fields; no accepted value makes a deal that runs away.
The deal is the one of seed 002 ("undici carte a ogni giocatore" ... "il mazziere scopre la
prima carta") and of seed 003 for special upcards ("interratela immediatamente nel tallone").
"""

from __future__ import annotations

import dataclasses
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta import State, load_preset
from canasta.core.cards import is_black_three, is_red_three, is_wild
from canasta.core.match import Match
from canasta.core.rule_values import COUNT_BOUNDS, POINTS_MAX
from canasta.core.rules import (
    PRESETS,
    DealRules,
    Rules,
    RulesError,
    TurnRules,
    field_names,
    preset_info,
    preset_name,
    preset_options,
)
from formatkit import time_limit

# -- item 14: the examples of the issue --------------------------------------------------------

@pytest.mark.parametrize(("options", "field"), [
    # seed 003 "interratela immediatamente nel tallone": with 200 jokers a pack the stock held
    # only special cards after the deal and the upcard loop never ended.
    ({"deal.jokers_per_pack": 200, "deal.cards_dealt.4": 125}, "deal.jokers_per_pack"),
    ({"deal.jokers_per_pack": 10**12}, "deal.jokers_per_pack"),
    ({"deal.cards_dealt.4": 60}, "deal.cards_dealt[4]"),
    ({"deal.packs_by_players.4": 0}, "deal.packs_by_players[4]"),
    ({"turn.draw_count.4": 0}, "turn.draw_count[4]"),
    ({"deal.packs": 10**9}, "deal.packs"),
    ({"end.target": 10**30}, "end.target"),
    ({"melds.canasta_size": 10**6}, "melds.canasta_size"),
])
def test_the_issue_examples_are_refused_naming_the_field(options: dict[str, int],
                                                         field: str) -> None:
    tracemalloc.start()
    try:
        with time_limit(5), pytest.raises(RulesError) as err:
            load_preset("brazilian", options)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert str(err.value).startswith(field)
    assert peak < 5_000_000, "the value was refused only after allocating"


def test_a_deal_without_room_for_a_natural_upcard_is_refused_naming_the_fields() -> None:
    # Four jokers a pack and 22 cards each: 4 x 22 = 88 cards dealt, and two packs hold
    # 2 x (52 - 4 deuces - 2 red threes - 2 black threes) = 88 naturals, so a deck order can
    # leave only special cards in the stock (seed 002: "il mazziere scopre la prima carta").
    with pytest.raises(RulesError) as err:
        load_preset("international", {"deal.jokers_per_pack": 4, "deal.cards_dealt.4": 22})
    message = str(err.value)
    for name in ("deal.cards_dealt[4]", "deal.packs", "deal.jokers_per_pack",
                 "deal.surprise_cards"):
        assert name in message
    # one card fewer each leaves room for a natural upcard, whatever the order
    rules = load_preset("international", {"deal.jokers_per_pack": 4, "deal.cards_dealt.4": 21})
    deck = State.deal(rules, 4, seed=0).deck
    special = [c for c in deck if is_wild(c) or is_red_three(c) or is_black_three(c)]
    natural = [c for c in deck if c not in special]
    # the worst order: the hands take 84 naturals, the stock turns every special card first
    worst = natural[:84] + special + natural[84:]
    with time_limit(5):
        s = State.deal(rules, 4, deck=worst)
    assert s.pile and not is_wild(s.pile[-1]) and not is_red_three(s.pile[-1])


def test_the_bury_in_stock_upcard_loop_ends_on_a_stock_of_mostly_special_cards() -> None:
    # seed 003: "Se la carta scoperta è un jolly, un 2 o un 3 rosso, interratela immediatamente
    # nel tallone": the stock is mostly special cards, the deal must still end.
    rules = load_preset("brazilian", {"deal.jokers_per_pack": 4, "deal.cards_dealt.4": 21})
    for seed in range(30):
        with time_limit(5):
            s = State.deal(rules, 4, seed=seed)
        assert s.pile and not is_wild(s.pile[-1])
        assert s.legal_actions()


def test_rules_built_directly_are_checked_when_built() -> None:
    # The record is checked once, when it is built: no deal ever meets an unchecked one.
    with time_limit(5), pytest.raises(RulesError, match="deal.jokers_per_pack"):
        dataclasses.replace(Rules(), deal=DealRules(jokers_per_pack=10**12))
    with pytest.raises(RulesError, match=r"turn.draw_count\[4\]"):
        Rules(turn=TurnRules(draw_count={4: 0}))


def test_every_count_field_has_bounds_and_the_bounds_name_real_fields() -> None:
    names = field_names()
    assert set(COUNT_BOUNDS) <= set(names)
    for key, (low, high) in COUNT_BOUNDS.items():
        assert 0 <= low <= high <= POINTS_MAX, key
    # every preset's own values lie within the bounds
    for name in PRESETS:
        load_preset(name)


@pytest.mark.parametrize("key", sorted(COUNT_BOUNDS))
def test_one_past_each_bound_is_refused(key: str) -> None:
    low, high = COUNT_BOUNDS[key]
    section, name = field_names()[key]
    current = getattr(getattr(load_preset("international"), section), name)
    for bad in (high + 1, low - 1):
        if bad < 0:
            continue  # negative numbers are refused for every field
        if isinstance(current, dict):
            value: object = {"4": bad}
        elif isinstance(current, tuple):
            value = [bad]
        else:
            value = bad
        with pytest.raises(RulesError, match=key.replace(".", r"\.")):
            load_preset("international", {key: value})


def test_misdeals_are_bounded() -> None:
    # seed 000: "vengano esposti tre Joker o pinelle ... la smazzata verrà annullata": a redeal
    # after one wild upcard with many jokers still deals within the bounded attempts.
    rules = load_preset("canastone", {"deal.redeal_after_wild_upcards": 1})
    with time_limit(20):
        match = Match(rules, 4, seed=5)
    assert match.state.pile


# -- item 14: any accepted value deals and plays ------------------------------------------------

DEAL_KEYS = st.fixed_dictionaries({}, optional={
    "deal.jokers_per_pack": st.integers(0, 6),
    "deal.packs": st.integers(0, 5),
    "deal.cards_dealt.4": st.integers(0, 40),
    "deal.cards_dealt.2": st.integers(0, 60),
    "deal.surprise_cards": st.integers(0, 25),
    "deal.upcard_seeds_pile_by_rank": st.booleans(),
    "deal.special_upcard": st.sampled_from(["cover", "bury_in_stock"]),
    "deal.black_three_upcard_special": st.booleans(),
    "turn.draw_count.4": st.integers(0, 6),
    "turn.draw_with_pile": st.integers(0, 6),
})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(PRESETS), options=DEAL_KEYS, seed=st.integers(0, 2**32 - 1))
def test_accepted_deal_values_always_deal_a_hand_with_a_legal_action(
    preset: str, options: dict[str, object], seed: int
) -> None:
    try:
        rules = load_preset(preset, options)
    except RulesError:
        return
    for players in rules.deal.player_counts:
        with time_limit(5):
            try:
                s = State.deal(rules, players, seed=seed)
            except RulesError:
                pytest.fail("accepted rules were refused by the deal")
            except Exception as exc:  # a misdeal is a legal outcome of seed 000's rule
                assert type(exc).__name__ == "MisdealError", exc
                continue
        assert s.pile, "no upcard"
        assert s.legal_actions(), "no legal action after the deal"


# -- item 15: preset names ----------------------------------------------------------------------

@pytest.mark.parametrize("name", ["../../x", "/etc/passwd", "international.json",
                                  "presets/international", "..", "", "klondike"])
def test_only_packaged_presets_are_read(name: str, tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text('{"fields": {}}')
    for read in (load_preset, preset_options, preset_info):
        with pytest.raises(RulesError) as err:
            read(name)
        assert all(p in str(err.value) for p in PRESETS)


def test_a_path_to_an_existing_file_is_refused(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "evil.json").write_text('{"fields": {}}')
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RulesError, match="unknown variant"):
        load_preset("evil")
    with pytest.raises(RulesError, match="unknown variant"):
        load_preset(str(tmp_path / "evil"))


@pytest.mark.parametrize(("alias", "name"), [("classic", "classic_italian"),
                                              ("Italian", "classic_italian"),
                                              ("canastra", "brazilian"),
                                              ("Classic-Italian", "classic_italian")])
def test_aliases_name_their_preset(alias: str, name: str) -> None:
    assert preset_name(alias) == name
    assert load_preset(alias).name == name


@pytest.mark.parametrize("options", [
    {"opening.minimums": [[0, 5]] * 10**6},
    {"deal.cards_dealt": {str(i): 1 for i in range(10**5)}},
    {"deal.player_counts": "x" * 10**6},
    {"deal.packs": list(range(10**6))},
])
def test_a_huge_value_is_refused_at_once_with_a_short_message(options: dict[str, object]) -> None:
    # it was a 30-second, 318 MB read: neither the time nor the message may grow
    # with the value.
    with time_limit(5), pytest.raises(RulesError) as err:
        load_preset("international", options)
    assert len(str(err.value)) < 200


def test_the_bury_in_stock_loop_ends_when_every_card_above_the_middle_is_special() -> None:
    # seed 003 "interratela immediatamente nel tallone": a special card buried in the middle of
    # the stock; the cards below the middle never move, so with only special cards above it the
    # loop turned them for ever on this deck order.
    rules = load_preset("brazilian", {"deal.jokers_per_pack": 4, "deal.cards_dealt.4": 21})
    deck = State.deal(rules, 4, seed=0).deck
    special = [c for c in deck if is_wild(c) or is_red_three(c)]
    natural = [c for c in deck if c not in special]
    order = natural[:84] + special + natural[84:]  # the stock turns every special card first
    with time_limit(5):
        s = State.deal(rules, 4, deck=order)
    assert s.pile and not is_wild(s.pile[-1]) and not is_red_three(s.pile[-1])
    assert s.legal_actions()
