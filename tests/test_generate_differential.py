"""Fast legal-action generation (``canasta.core.generate``): on random
positions of every preset and player count, ``legal_actions()`` yields exactly the actions, in
the same order, that verifying every candidate with the full checks yields
(``legality.reference_legal_actions``, the path the engine used before). The positions include
rigged hands (many cards of the side's meld ranks, wild cards, black threes) so that the last
cards of a hand, lay-offs onto canastas and the wild-card limits are exercised, and states
where the partner has said "yes" (seed 002_277939805e3ea5bf.txt: "è obbligatorio obbedire alla
risposta del compagno"), where the look-ahead checks decide."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canasta import MisdealError, State, load_preset, preset_options
from canasta.core.data import Phase
from canasta.core.legality import reference_legal_actions
from test_going_out_exact import rig_hand

PRESETS = ("international", "canastone", "classic_italian", "brazilian", "romanian")


def compare(s: State) -> int:
    fast = s.legal_actions()
    slow = reference_legal_actions(s)
    assert fast == slow, (s, [a.text() for a in fast], [a.text() for a in slow])
    return len(fast)


def walk(name: str, players: int, seed: int, options: dict[str, str] | None = None,
         rig: float = 0.2) -> int:
    """Play one random hand comparing the two generators at every step, and on rigged copies
    (some with a binding "yes"). Returns the number of comparisons."""
    rules = load_preset(name, options)
    try:
        s = State.deal(rules, players, seed=seed)
    except MisdealError:
        return 0
    rng = random.Random(seed)
    n = 0
    while not s.is_over:
        compare(s)
        n += 1
        if s.phase is Phase.PLAY and s.stock and rng.random() < rig:
            c = s.clone()
            if rig_hand(c, rng):
                compare(c)
                n += 1
                if rng.random() < 0.5:
                    c.answer = True
                    compare(c)
                    n += 1
        s.apply(rng.choice(s.legal_actions()))
    return n


def test_same_actions_every_preset_and_player_count() -> None:
    total = 0
    for name in PRESETS:
        for players in load_preset(name).deal.player_counts:
            for seed in range(3):
                total += walk(name, players, seed * 31 + players)
    assert total > 3000


@pytest.mark.slow
def test_same_actions_with_house_rules() -> None:
    """Every house rule of every preset, each of its other choices (for real_canasta,
    declared red threes and the other rare rules the full checks decide)."""
    total = 0
    for name in PRESETS:
        for option, spec in preset_options(name).items():
            for choice in spec.choices:
                if choice == spec.default:
                    continue
                rules = load_preset(name, {option: choice})
                players = 4 if 4 in rules.deal.player_counts else rules.deal.player_counts[0]
                total += walk(name, players, sum(map(ord, option + choice)),
                              {option: choice}, rig=0.3)
    assert total > 1000


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(PRESETS), st.integers(0, 10**6))
def test_same_actions_hypothesis(name: str, seed: int) -> None:
    players = load_preset(name).deal.player_counts[-1]
    walk(name, players, seed, rig=0.4)
