"""A Gymnasium single-agent Canasta: one seat is the agent, the other seats named bots.

Importing this module registers ``canasta/Canasta-v0``::

    import gymnasium, canasta.env.gym
    env = gymnasium.make("canasta/Canasta-v0", players=2, opponents="greedy")

Observations and actions are those of :mod:`canasta.env.pettingzoo` (a dict with
``observation`` and ``action_mask``; ``ActionCodec`` ids). After the agent's action the bots
play (every other seat, the partner included) until the agent is to act again or the episode
ends. The reward is the agent's :mod:`canasta.env.pettingzoo` reward. An illegal id (mask 0)
ends the episode with ``illegal_reward`` and ``info["illegal"] = True`` (the PettingZoo
classic convention), leaving the game as it was.
"""

from __future__ import annotations

import random
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from canasta.bots.registry import Bot, make_bot, split_specs
from canasta.core.legality import IllegalActionError
from canasta.env.pettingzoo import MAX_STEPS, raw_env

ENV_ID = "canasta/Canasta-v0"


class CanastaEnv(gymnasium.Env[dict[str, np.ndarray], np.int64]):
    """One seat of Canasta against bots.

    Args:
        variant, players, options, render_mode, reward, team_size, max_hands, max_steps: as
            :class:`canasta.env.pettingzoo.raw_env`.
        opponents: a bot spec for every other seat (``"hard"``, ``"expert:time=0.1"``), or
            comma-separated specs (see :func:`canasta.bots.registry.split_specs`), one per
            other seat in seat order.
        seat: the agent's seat.
        illegal_reward: the reward of an illegal action (default -1000 points for
            ``reward="hand"``, -1 for ``"match"``).

    Raises:
        ValueError: a bad bot spec, seat, or count of specs; see also ``raw_env``.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, variant: str = "international", players: int = 2,
                 options: dict[str, Any] | None = None, render_mode: str | None = None, *,
                 opponents: str = "hard", seat: int = 0, reward: str = "hand",
                 team_size: int | None = None, max_hands: int = 60,
                 max_steps: int | None = MAX_STEPS, illegal_reward: float | None = None
                 ) -> None:
        self.game = raw_env(variant, players, options, render_mode, reward=reward,
                            team_size=team_size, max_hands=max_hands, max_steps=max_steps)
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat}: choose 0..{players - 1}")
        specs = split_specs(opponents)
        if len(specs) == 1:
            specs = specs * (players - 1)
        if len(specs) != players - 1:
            raise ValueError(f"opponents: {len(specs)} specs for {players - 1} other seats")
        for spec in specs:
            make_bot(spec, 0)  # check the spec now, not at the first reset
        self.specs = specs
        self.seat = seat
        self.agent = self.game.possible_agents[seat]
        self.render_mode = render_mode
        self.illegal_reward = illegal_reward if illegal_reward is not None else (
            -1000.0 if reward == "hand" else -1.0)
        self.observation_space = self.game.observation_space(self.agent)
        self.action_space = spaces.Discrete(self.game.codec.size)
        self.bots: dict[int, Bot] = {}
        self._obs: dict[str, np.ndarray] | None = None

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray],
                                                              dict[str, Any]]:
        super().reset(seed=seed)
        while True:
            deal = int(self.np_random.integers(2**62))
            self.game.reset(seed=deal)
            rng = random.Random(deal)
            others = [s for s in range(self.game.players) if s != self.seat]
            self.bots = {s: make_bot(spec, rng.randrange(2**31))
                         for s, spec in zip(others, self.specs, strict=True)}
            reward, done = self._play_bots()
            if not done:  # a hand the bots end before the agent's first move is dealt anew
                break
        self._obs = self.game.observe(self.agent)
        return self._obs, {}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], SupportsFloat, bool, bool,
                                         dict[str, Any]]:
        if self._obs is None:
            raise RuntimeError("call reset() first")
        a = int(action)
        if not (0 <= a < self.game.codec.size and self._obs["action_mask"][a]):
            return self._illegal()
        try:
            self.game.step(a)
        except IllegalActionError:
            return self._illegal()
        reward, done = self._play_bots()
        game = self.game
        terminated = game.terminations[self.agent]
        truncated = game.truncations[self.agent] and not terminated
        self._obs = game.observe(self.agent)
        return self._obs, reward, terminated, truncated, {}

    def _illegal(self) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        assert self._obs is not None
        self._obs = {k: v.copy() for k, v in self._obs.items()}  # new data on every call
        return self._obs, self.illegal_reward, True, False, {"illegal": True}

    def action_masks(self) -> np.ndarray:
        """The legal ids of the agent's current observation (for maskable learners)."""
        if self._obs is None:
            raise RuntimeError("call reset() first")
        return self._obs["action_mask"].astype(bool)

    def render(self) -> str | None:  # type: ignore[override]
        return self.game.render()

    def _play_bots(self) -> tuple[float, bool]:
        """Let the bots move until the agent is to act or the episode is over; returns the
        agent's reward gathered meanwhile (its own move's included) and whether it ended."""
        game = self.game
        reward = 0.0
        while True:
            reward += game.rewards.get(self.agent, 0.0)
            if game.terminations[self.agent] or game.truncations[self.agent]:
                return reward, True
            seat = game.state.actor
            if seat == self.seat:
                return reward, False
            action = self.bots[seat].choose(game.state.view(seat))
            game.step(game.codec.encode(action))


def register() -> None:
    """Register :data:`ENV_ID` with Gymnasium (done on import; again is harmless)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="canasta.env.gym:CanastaEnv")


register()
