"""Card tracking kept up to date event by event (``canasta.bots.tracking.Tracker``) against
the replay of the whole history (``track``) at every decision of bot hands, on every preset:
the same discards, declines, known cards and unseen counts, and the same "taken back this
turn" as a backward scan of the events (the greedy bot's reading, seed 002: a short opening
is taken back, and trying it again in the turn would only repeat it)."""

from __future__ import annotations

import random

import pytest

from canasta import load_preset
from canasta.bots import make_bot
from canasta.bots.greedy import GreedyBot
from canasta.bots.tracking import Tracker, track
from canasta.core.match import Match

PRESETS = ("international", "canastone", "classic_italian", "brazilian", "romanian")


@pytest.mark.parametrize("variant", PRESETS)
def test_incremental_tracking_equals_the_replay(variant: str) -> None:
    rules = load_preset(variant)
    m = Match(rules, 4, seed=11)
    bots = [make_bot("hard" if p % 2 else "random", p) for p in range(4)]
    trackers = [Tracker() for _ in range(4)]
    greedy = GreedyBot(0)
    st = m.state
    rng = random.Random(3)
    for _ in range(400):
        if st.is_over:
            break
        seat = st.actor
        view = st.view(seat)
        tr = trackers[seat]
        tr.update(view)
        assert tr.tracking(view) == track(view)
        assert (not tr.retracted) == greedy._may_open(view)
        st.apply(bots[seat].choose(view))
        if rng.random() < 0.05:  # a view of a copy: the tracker starts again and agrees
            copy = st.clone()
            other = Tracker()
            other.update(copy.view(copy.actor))
            assert other.tracking(copy.view(copy.actor)) == track(copy.view(copy.actor))


def test_a_new_hand_starts_the_tracker_again() -> None:
    rules = load_preset("international")
    tr = Tracker()
    for seed in (1, 2):
        st = Match(rules, 4, seed=seed).state
        bot = make_bot("medium", seed)
        for _ in range(60):
            view = st.view(st.actor)
            if st.actor == 0:
                tr.update(view)
                assert tr.tracking(view) == track(view)
            st.apply(bot.choose(view))
