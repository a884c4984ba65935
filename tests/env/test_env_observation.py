"""The observation vector and the action mask against plain reference encodings, at every
decision of whole hands: the encoder's caches (known cards, melds, the pile's counts, action
ids) are warm and shared by every seat, so a stale or leaking cache would show here.

The reference is written from docs/env.md's table alone, part by part with numpy, and reads
``view.known`` (cards) where the encoder reads ``view.known_counts``."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from canasta.core.melds import IS_WILD, SEQUENCE_KEY  # noqa: E402
from canasta.core.rules import PRESETS, load_preset  # noqa: E402
from canasta.core.state import View  # noqa: E402
from canasta.env.observation import PHASES, ObservationLayout  # noqa: E402
from canasta.env.pettingzoo import raw_env  # noqa: E402

COUNTS = [(v, p) for v in PRESETS for p in load_preset(v).deal.player_counts]


def reference(layout: ObservationLayout, view: View) -> np.ndarray:
    """docs/env.md's observation of ``view``, built part by part."""
    parts = {q.name: np.zeros(q.shape, dtype=np.float32) for q in layout.parts}
    players, teams = layout.players, layout.teams

    def seat(s: int) -> int:
        return (s - view.seat) % players

    def team(t: int) -> int:
        return (t - view.team) % teams

    for c in view.hand:
        parts["hand"][c] += 1
    for s, n in enumerate(view.hand_sizes):
        parts["hand_sizes"][seat(s)] = n
    for s, cards in enumerate(view.known):
        if s != view.seat:
            for c in cards:
                parts["known"][seat(s) - 1, c] += 1
    size = view.rules.melds.canasta_size
    for t in range(teams):
        r = team(t)
        for key, cards in view.melds[t].items():
            parts["canastas"][r] += len(cards) >= size
            if key >= SEQUENCE_KEY:
                parts["runs"][r] += 1
                continue
            wild = sum(IS_WILD[c] for c in cards)
            parts["meld_naturals"][r, key] = len(cards) - wild
            parts["meld_wilds"][r, key] = wild
        parts["red_threes"][r] = len(view.red_threes[t])
        parts["opened"][r] = view.opened[t]
        parts["scores"][r] = view.scores[t]
        parts["opening_minimum"][r] = view.opening_minimum[t]
    if view.pile_top is not None:
        parts["pile_top"][view.pile_top] = 1
    for c in view.pile:
        parts["pile_cards"][c] += 1
    parts["pile"][:] = (view.pile_size, view.pile_frozen, view.stopped,
                        view.hidden["pile"] + view.hidden["pending"])
    for c in view.pending_pile:
        parts["pending"][c] += 1
    parts["stock"][:] = (view.stock_size, view.hidden["surprise"])
    parts["phase"][PHASES.index(view.phase)] = 1
    parts["current"][seat(view.current)] = 1
    parts["actor"][seat(view.actor)] = 1
    parts["opening"][:] = (view.opening_points, view.provisional is not None)
    return np.concatenate([parts[q.name].ravel() for q in layout.parts])


@pytest.mark.parametrize("variant,players", COUNTS)
def test_observations_and_masks_match_the_reference_at_every_decision(variant: str,
                                                                      players: int) -> None:
    e = raw_env(variant, players)
    rng = random.Random(players)
    sampler = random.Random(7)
    for hand in range(2):
        e.reset(seed=100 * players + hand)
        for agent in e.agent_iter(3000):
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            state = e.state
            seat = e.possible_agents.index(agent)
            view = state.view(seat)
            assert np.array_equal(obs["observation"], reference(e.layout, view))
            legal = {e.codec.encode(a) for a in view.legal_actions}
            assert set(np.flatnonzero(obs["action_mask"])) == legal
            # Another seat's observation in between (the caches serve every seat), and a
            # state dealt from this seat's view: the same observation, its hidden cards
            # elsewhere (DESIGN.md: hidden information stays hidden).
            other = (seat + 1 + rng.randrange(players - 1)) % players
            other_view = state.view(other)
            assert np.array_equal(e.layout.encode(other_view), reference(e.layout, other_view))
            sampled = view.sample_state(sampler).view(seat)
            assert np.array_equal(e.layout.encode(sampled), obs["observation"])
            e.step(int(rng.choice(sorted(legal))))


def test_each_observation_is_a_new_array() -> None:
    """An agent may keep an observation (a replay buffer): later steps do not change it."""
    e = raw_env("international", 2)
    e.reset(seed=3)
    rng = random.Random(3)
    kept = []
    for _ in range(40):
        obs = e.observe(e.agent_selection)
        kept.append((obs, {k: v.copy() for k, v in obs.items()}))
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert all(np.array_equal(obs[k], copy[k]) for obs, copy in kept for k in obs)
