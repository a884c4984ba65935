"""The Gymnasium single-agent wrapper: Gymnasium's own checker, bots in the other seats,
illegal actions."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import canasta.env.gym  # noqa: E402,F401  (registers canasta/Canasta-v0)
from canasta.env.gym import ENV_ID, CanastaEnv  # noqa: E402


def test_registered_and_passes_check_env() -> None:
    env = gymnasium.make(ENV_ID, players=2, opponents="greedy")
    assert isinstance(env.unwrapped, CanastaEnv)
    check_env(env.unwrapped, skip_render_check=True)


def test_four_players_hard_opponents_play_a_hand_to_the_end() -> None:
    env = CanastaEnv(players=4, opponents="hard", seat=1)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    total, steps, done = 0.0, 0, False
    while not done:
        assert env.game.state.actor == 1  # the agent acts only at its own seat
        action = rng.choice(np.flatnonzero(obs["action_mask"]))
        obs, reward, term, trunc, info = env.step(action)
        total += float(reward)
        steps += 1
        done = term or trunc
    sheets = env.game.state.score()
    mine = env.game.state.team_of[1]
    assert total == sheets[mine].hand_total - sheets[1 - mine].hand_total
    assert steps > 5


def test_same_seed_same_episode() -> None:
    def run() -> list[float]:
        env = CanastaEnv(players=2, opponents="random")
        obs, _ = env.reset(seed=8)
        out = []
        for _ in range(30):
            a = int(np.flatnonzero(obs["action_mask"])[0])
            obs, r, term, trunc, _ = env.step(a)
            out.append(float(obs["observation"].sum()) + float(r))
            if term or trunc:
                break
        return out

    assert run() == run()


def test_illegal_action_ends_the_episode_with_the_penalty() -> None:
    env = CanastaEnv(players=2, opponents="random")
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, term, _, info = env.step(illegal)
    assert term and info["illegal"] and reward == -1000.0


def test_bad_opponent_specs_are_refused() -> None:
    with pytest.raises(ValueError):
        CanastaEnv(players=4, opponents="greedy,random")
    with pytest.raises(ValueError):
        CanastaEnv(players=2, opponents="nosuchbot")


def test_gym_episode_truncated_after_max_steps() -> None:
    env = CanastaEnv(players=2, opponents="random", max_steps=6)
    obs, _ = env.reset(seed=2)
    truncated = terminated = False
    steps = 0
    while not (truncated or terminated):
        obs, _, terminated, truncated, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert truncated and not terminated and steps <= 6
