"""No reachable state without a legal action (DESIGN.md: "no reachable
non-terminal state without a legal action").

The case found: seed 000's variant "possibilità di trattenere in mano uno o più Tre rossi ...
per valersene come «carte stop»" (option ``keep_red_threes``, Canastone and classic Italian).
A lay-off could leave a player holding only a kept red three that he may neither discard (a
red three is no last discard, like a black three) nor declare (the replacement could not be
discarded either), with no legal move: ``canasta simulate --variant classic_italian --rule
keep_red_threes=true -n 150 --bots random --seed 3`` failed at hand 134.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta import State, load_preset
from canasta.core.rules import PRESETS, preset_options
from canasta.core.state import MisdealError
from helpers import deal, legal_texts, play, rule_of

MAX_STEPS = 5000


def test_a_lay_off_may_not_leave_only_a_kept_red_three() -> None:
    rules = load_preset("classic_italian", {"keep_red_threes": "true"})
    s = deal({1: "As Ah Ac Ks Kh Kd Kc Qs Qh Ad 3h"}, after="5c Qd", rules=rules,
             auto_replacements=False)
    play(s, "draw", "meld As Ah Ac", "meld Ks Kh Kd Kc", "meld Qs Qh Qd")
    # Laying off Ad would leave 3h alone: no canasta to go out with, and a red three kept as a
    # stop card is no last discard (seed 001 "scartando come ultima carta un Tre nero" names
    # only the black three).
    assert rule_of(s, "lay-off A Ad") == "going out"
    # Asking stays open to a player who wants to go out (seed 002 "Prima di chiudere, il
    # giocatore può chiedere al compagno il permesso per la chiusura").
    assert legal_texts(s) == {"ask-partner", "discard 3h", "discard Ad", "meld 3h"}
    play(s, "meld 3h")  # declared and replaced: the player still has a move
    assert legal_texts(s)


def test_the_simulation_of_the_issue_plays_every_hand() -> None:
    # The issue's command, in-process: 150 random hands of classic Italian with kept red threes
    # (hand 134 had no legal action).
    from canasta.sim.simulate import simulate

    stats = simulate(load_preset("classic_italian", {"keep_red_threes": "true"}), 150,
                     "random", players=4, seed=3)
    assert stats.errors == 0 and stats.hands_played == 150


@st.composite
def rule_sets(draw: st.DrawFn) -> tuple[str, dict[str, str], int]:
    preset = draw(st.sampled_from(PRESETS))
    options = {
        name: draw(st.sampled_from(sorted(opt.choices)))
        for name, opt in sorted(preset_options(preset).items())
        if draw(st.booleans())
    }
    players = draw(st.sampled_from(sorted(load_preset(preset).deal.player_counts)))
    return preset, options, players


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rule_set=rule_sets(), seed=st.integers(0, 2**32 - 1))
def test_random_play_under_any_accepted_options_never_strands_a_player(
    rule_set: tuple[str, dict[str, str], int], seed: int
) -> None:
    preset, options, players = rule_set
    rules = load_preset(preset, options)
    try:
        s = State.deal(rules, players, seed=seed)
    except MisdealError:
        return
    rng = random.Random(seed)
    for _ in range(MAX_STEPS):
        if s.is_over:
            return
        actions = s.legal_actions()
        assert actions, f"{preset} {options}: no legal action in {s!r}"
        s.apply(rng.choice(actions))
    raise AssertionError("the hand did not end")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1),
       preset=st.sampled_from(["canastone", "classic_italian"]))
def test_kept_red_threes_never_strand_a_player(seed: int, preset: str) -> None:
    rules = load_preset(preset, {"keep_red_threes": "true"})
    try:
        s = State.deal(rules, 4, seed=seed)
    except MisdealError:
        return
    rng = random.Random(seed)
    while not s.is_over:
        actions = s.legal_actions()
        assert actions, f"no legal action in {s!r}"
        s.apply(rng.choice(actions))


FIELD_VALUES = st.fixed_dictionaries({}, optional={
    "deal.cards_dealt.4": st.integers(1, 24), "turn.draw_count.4": st.integers(1, 5),
    "turn.draw_with_pile": st.integers(0, 5), "melds.canasta_size": st.integers(3, 15),
    "melds.min_cards": st.integers(2, 7), "melds.min_naturals": st.integers(1, 4),
    "melds.max_wilds": st.integers(0, 5), "pile.unfrozen_naturals": st.integers(1, 4),
    "pile.frozen_naturals": st.integers(1, 4), "going_out.canastas_required": st.integers(0, 4),
    "deal.surprise_cards": st.integers(0, 7), "deal.jokers_per_pack": st.integers(0, 4),
    "deal.packs": st.integers(1, 4), "pile.always_frozen": st.booleans(),
    "going_out.discard_required": st.booleans(), "melds.wild_melds": st.booleans(),
    "red_threes.may_keep_as_stop": st.booleans(), "melds.real_canasta": st.booleans(),
    "pile.opening_take_top_card_only": st.booleans(), "turn.first_round_no_meld": st.booleans(),
})


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(PRESETS), fields=FIELD_VALUES, seed=st.integers(0, 2**32 - 1))
def test_random_play_under_any_accepted_field_values_never_strands_a_player(
    preset: str, fields: dict[str, object], seed: int
) -> None:
    from canasta.core.rules import RulesError

    try:
        rules = load_preset(preset, fields)
    except RulesError:
        return  # refused before any deal: nothing to play
    players = 4 if 4 in rules.deal.player_counts else rules.deal.player_counts[0]
    try:
        s = State.deal(rules, players, seed=seed)
    except MisdealError:
        return
    rng = random.Random(seed)
    for _ in range(MAX_STEPS):
        if s.is_over:
            return
        actions = list(s.legal_actions())
        assert actions, f"{preset} {fields}: no legal action in {s!r}"
        s.apply(rng.choice(actions))
    raise AssertionError("the hand did not end")
