"""Property tests (Hypothesis) on random games of the ``international`` preset: DESIGN.md's
invariants, checked at every step of random legal play.

* every physical card is in exactly one place (``State.card_locations()`` adds up to the deck);
* every legal action applies without error, and a state that is not over has one;
* every hand ends within a bounded number of steps;
* the score sheet adds up (items sum to the hand total; after = before + total);
* ``clone()`` is independent: playing on (and retracting on) the clone leaves the original equal;
* replaying the action list on the same deck gives the same state and scores.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta import Retract, State, load_preset
from helpers import (
    RULES,
    check_conservation,
    check_score_sheets,
    full_counts,
    location_totals,
    same_as,
    snapshot,
)

# A hand of random play ends within a few hundred actions; retracts are bounded because each
# raises the side's minimum by 10.
MAX_STEPS = 5000
SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

RULE_SETS = {
    "default": RULES,
    "wild_ratio=lt": load_preset("international", {"wild_ratio": "lt"}),
    "meld_after_last_red_three": load_preset("international",
                                             {"meld_after_last_red_three": "true"}),
    "last_discard_black_three": load_preset("international",
                                            {"last_discard_black_three": "true"}),
}


def _play(state: State, rng: random.Random, *, every_step: bool = True) -> int:
    steps = 0
    full = full_counts(state.rules, state.players)
    while not state.is_over:
        if every_step:
            assert location_totals(state) == full
        actions = state.legal_actions()
        assert actions, f"no legal action in a live state: {state!r}"
        state.apply(rng.choice(actions))
        steps += 1
        assert steps < MAX_STEPS, "the hand does not end"
    return steps


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(sorted(RULE_SETS)),
       dealer=st.integers(0, 3))
def test_random_hand_keeps_every_card_ends_and_scores(seed: int, rules: str,
                                                      dealer: int) -> None:
    """Cards are conserved at every step, a live state always has a legal action, every
    chosen legal action applies, the hand ends, and the score sheets add up."""
    s = State.deal(RULE_SETS[rules], 4, seed=seed, dealer=dealer)
    _play(s, random.Random(seed))
    check_conservation(s)
    assert s.legal_actions() == []
    check_score_sheets(s)
    assert s.end_reason in ("went_out", "stock_exhausted", "last_card_red_three")


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_replay_from_the_same_deck_gives_the_same_hand(seed: int) -> None:
    """DESIGN.md: "Rules + deal orders + actions give the same state and scores every time"."""
    s = State.deal(RULES, 4, seed=seed, dealer=seed % 4)
    _play(s, random.Random(seed), every_step=False)
    r = State.deal(RULES, 4, deck=s.deck, dealer=s.dealer)
    for seat, action in s.actions:
        assert r.actor == seat
        r.apply(action)
    assert r.is_over
    assert r.score() == s.score()
    assert same_as(r, snapshot(s))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), probe_every=st.integers(3, 12))
def test_clone_is_independent(seed: int, probe_every: int) -> None:
    """``clone()`` is a separate state: playing the clone on (retracting an opening when it can,
    then random actions to the end of the hand) leaves the original exactly as it was, and the
    original can go on."""
    s = State.deal(RULES, 4, seed=seed)
    rng = random.Random(seed)
    step = 0
    while not s.is_over and step < MAX_STEPS:
        if step % probe_every == 0:
            before = snapshot(s)
            c = s.clone()
            assert same_as(c, before)
            crng = random.Random(step)
            if Retract() in c.legal_actions():
                c.apply(Retract())
            for _ in range(25):
                if c.is_over:
                    break
                c.apply(crng.choice(c.legal_actions()))
            c.hands[0][0] += 1  # direct mutation of the clone's containers
            c.pile.append(0)
            assert same_as(s, before), f"playing a clone changed the original at step {step}"
        s.apply(rng.choice(s.legal_actions()))
        step += 1
    check_conservation(s)
