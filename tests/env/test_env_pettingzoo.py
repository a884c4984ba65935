"""The PettingZoo AEC environment: PettingZoo's own checks, every preset and player count,
observations of what the seat may see only, rewards from the score sheets."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from canasta.core.blanking import blank  # noqa: E402
from canasta.core.rules import PRESETS, load_preset  # noqa: E402
from canasta.env.pettingzoo import env, raw_env  # noqa: E402
from canasta.env.rewards import side_rewards  # noqa: E402

COUNTS = [(v, p) for v in PRESETS for p in load_preset(v).deal.player_counts]


def test_pettingzoo_api_test_passes() -> None:
    api_test(env(players=2), num_cycles=300, verbose_progress=False)


def test_pettingzoo_api_test_passes_four_players_match_rewards() -> None:
    api_test(env(variant="canastone", players=4, reward="match"), num_cycles=200,
             verbose_progress=False)


def test_pettingzoo_seed_test_passes() -> None:
    seed_test(lambda: env(players=4), num_cycles=100)


def test_five_players_only_in_canastone() -> None:
    assert {v for v, p in COUNTS if p == 5} == {"canastone"}
    with pytest.raises(ValueError):
        raw_env("international", 5)


def _play(e: raw_env, rng: random.Random, limit: int = 5000) -> int:
    steps = 0
    for _agent in e.agent_iter(limit):
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        ids = np.flatnonzero(obs["action_mask"])
        e.step(int(rng.choice(ids)))
        steps += 1
    return steps


@pytest.mark.parametrize("variant,players", COUNTS)
def test_every_preset_and_player_count_plays_a_hand(variant: str, players: int) -> None:
    e = raw_env(variant, players)
    e.reset(seed=3)
    space = e.observation_space("player_0")
    obs = e.observe(e.agent_selection)
    assert space.contains(obs)
    assert obs["observation"].shape == (e.layout.size,)
    # the mask is exactly the legal actions
    legal = {e.codec.encode(a) for a in e.state.legal_actions()}
    assert set(np.flatnonzero(obs["action_mask"])) == legal
    _play(e, random.Random(1))
    assert e.state.is_over and not e.agents
    assert all(e.terminations.values())


def test_hand_rewards_are_the_score_difference() -> None:
    e = raw_env("international", 4)
    e.reset(seed=5)
    rng = random.Random(2)
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter(5000):
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    sheets = e.state.score()
    diff = sheets[0].hand_total - sheets[1].hand_total
    assert diff != 0
    assert total == {"player_0": diff, "player_1": -diff, "player_2": diff, "player_3": -diff}


def test_side_rewards_are_zero_sum_for_three_sides() -> None:
    rewards = side_rewards((0, 1, 2), [300, -100, 100])
    assert rewards == [300 - 0.0, -100 - 200.0, 100 - 100.0]
    assert sum(rewards) == 0


def test_observation_holds_no_hidden_card() -> None:
    """Two states the seat cannot tell apart (the real one and one dealt by sample_state)
    give the same observation, while the hidden hands differ."""
    e = raw_env("international", 4)
    e.reset(seed=11)
    rng = random.Random(4)
    for _ in range(60):
        obs = e.observe(e.agent_selection)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    seat = e.state.actor
    view = e.state.view(seat)
    sampled = view.sample_state(random.Random(9))
    other = (seat + 1) % 4
    assert sampled.hands[other] != e.state.hands[other]
    a = e.layout.encode(view)
    b = e.layout.encode(sampled.view(seat))
    assert np.array_equal(a, b)
    # The env's own path (read from the state, no view): the same vector, the same for the
    # sampled state and for the state with every card the seat cannot see taken out.
    obs = e.observe(e.possible_agents[seat])
    assert np.array_equal(obs["observation"], a)
    assert np.array_equal(e.layout.encode_state(sampled, seat), a)
    assert np.array_equal(e.layout.encode_state(blank(e.state, seat), seat), a)


def test_observing_twice_gives_new_equal_arrays_and_the_others_no_mask() -> None:
    """The legal actions are listed once per state: observing the agent to act again gives
    equal, separate arrays; another agent's mask is all 0."""
    e = raw_env("international", 4)
    e.reset(seed=5)
    rng = random.Random(5)
    for _ in range(30):
        agent = e.agent_selection
        first, again = e.observe(agent), e.observe(agent)
        for k in first:
            assert np.array_equal(first[k], again[k])
            assert not np.shares_memory(first[k], again[k])
        first["action_mask"][:] = 0  # an agent may write into its arrays
        assert np.array_equal(e.observe(agent)["action_mask"], again["action_mask"])
        other = e.possible_agents[(e.possible_agents.index(agent) + 1) % 4]
        assert not e.observe(other)["action_mask"].any()
        e.step(int(rng.choice(np.flatnonzero(again["action_mask"]))))


def test_observation_parts_are_named_and_relative() -> None:
    e = raw_env("international", 4)
    e.reset(seed=1)
    agent = e.agent_selection
    seat = e.possible_agents.index(agent)
    parts = e.layout.split(e.observe(agent)["observation"])
    view = e.state.view(seat)
    assert parts["hand"].sum() == len(view.hand)
    assert parts["hand_sizes"][0] == len(view.hand)
    assert parts["actor"][0] == 1 and parts["phase"][0] == 1  # this seat, to draw
    assert parts["stock"][0] == view.stock_size
    assert parts["pile_top"].sum() == (view.pile_top is not None)
    assert sum(p.size for p in e.layout.parts) == e.layout.size


def test_illegal_action_raises_and_changes_nothing() -> None:
    from canasta.core.legality import IllegalActionError

    e = raw_env("international", 2)
    e.reset(seed=1)
    before = e.state.clone()
    with pytest.raises(IllegalActionError):
        e.step(e.codec.encode_all([a for a in e.state.legal_actions()])[0] + 6)  # a discard
    assert e.state.hands == before.hands and e.state.phase == before.phase


def test_ansi_render_shows_the_table() -> None:
    e = raw_env("international", 2, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str)
    assert "International Canasta" in text and f"{len(e.state.stock)}" in text
    assert raw_env("international", 2).render() is None


def test_episode_truncated_after_max_steps() -> None:
    """The rules allow endless meld-retract loops within a turn; max_steps bounds an
    episode."""
    e = raw_env("international", 2, max_steps=10)
    e.reset(seed=1)
    rng = random.Random(0)
    steps = _play(e, rng)
    assert steps == 10 and not e.state.is_over
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert not e.agents
