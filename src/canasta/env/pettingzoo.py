"""Canasta as a PettingZoo AEC environment, built like PettingZoo's classic card games.

>>> from canasta.env.pettingzoo import env
>>> e = env(players=2)
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs), obs["action_mask"].dtype.name
(['action_mask', 'observation'], 'int8')

Agents are ``player_0 .. player_{P-1}`` (seat order; with 4 players seats 0 and 2 are one
team). The agent to act is the engine's ``state.actor``: the player whose turn it is, or its
partner while a "may I go out?" waits for the answer. Actions are the
:class:`~canasta.core.codec.ActionCodec` ids (docs/formats.md "Action ids"); observations are
``{"observation": float32 (layout.size,), "action_mask": int8 (codec.size,)}``: what
``state.view(seat)`` shows, read from the state by a seat-restricted reader without making
the view (:meth:`ObservationLayout.encode_state`, docs/env.md). An action whose mask
entry is 0 raises :class:`~canasta.core.legality.IllegalActionError` and changes nothing.

Episodes and rewards (``reward=``):

* ``"hand"`` (default): an episode is one hand (the first hand of ``Match(seed=...)``, so a
  misdeal is dealt again); at its end every agent receives its side's hand score minus the
  mean hand score of the other sides (two sides: the plain difference; zero-sum always).
* ``"match"``: an episode is a whole match; at its end the winning side's agents receive +1
  and the others ``-1 / (sides - 1)``; truncated after ``max_hands`` hands.

Either way an episode is truncated (reward 0) after ``max_steps`` decisions in one hand
(default :data:`MAX_STEPS`; None: never): the rules set
no limit on the melds taken back with ``retract`` in one turn, and a learning agent can find
the endless meld-retract loop (the PPO example's agent did).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from canasta.core.actions import Action
from canasta.core.codec import ActionCodec
from canasta.core.match import Match
from canasta.core.rules import load_preset
from canasta.core.state import State
from canasta.env.mask import INT8, ActionMask
from canasta.env.observation import FLOAT32, ObservationLayout
from canasta.env.render import render_text
from canasta.env.rewards import side_rewards

# PettingZoo's own, through the module its OrderEnforcingWrapper comes from.
EnvLogger = wrappers.order_enforcing.EnvLogger

REWARDS = ("hand", "match")
#: Decisions after which an episode is truncated by default (random play ends a hand in a
#: few hundred).
MAX_STEPS = 5000


def env(variant: str = "international", players: int = 4,
        options: dict[str, Any] | None = None, render_mode: str | None = None,
        **kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's call-order wrapper (``OrderEnforcingWrapper``;
    out-of-range ids are refused by :meth:`raw_env.step` itself, so the bounds wrapper, which
    would only repeat that check, is left out for speed).

    Args:
        variant: a preset name (``canasta.core.rules.PRESETS``) or alias.
        players: a player count of the preset (``rules.deal.player_counts``).
        options: house rules for :func:`canasta.core.rules.load_preset`.
        render_mode: None or ``"ansi"`` (``render()`` returns the table as text).
        **kwargs: ``reward`` (``"hand"``/``"match"``), ``team_size``, ``max_hands``,
            ``max_steps``, ``lang`` (of the rendered text); see :class:`raw_env`.

    Raises:
        RulesError: unknown variant or option. ValueError: a player count the rules do not
        allow, an unknown reward or render mode.
    """
    out: AECEnv = raw_env(variant, players, options, render_mode, **kwargs)
    out = OrderEnforcingWrapper(out)
    return out


def _before_reset(name: str) -> AttributeError:
    return AttributeError(f"{name} cannot be accessed before reset")


class OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper`` with the same checks, and the attributes an
    agent loop reads on every step (``agents``, ``agent_selection``, ``rewards``,
    ``terminations``, ``truncations``, ``infos``) as properties of the wrapper.

    PettingZoo's wrapper forwards them through ``__getattr__``, which Python calls only
    after the ordinary look-up has failed with an ``AttributeError``: about eight failed
    look-ups and two Python calls each per step, a fifth of a step's time here. Before
    ``reset()`` each still raises PettingZoo's ``AttributeError`` ("... cannot be accessed
    before reset"), and ``last()`` too, as PettingZoo's does (through ``agent_selection``).
    """

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise _before_reset("agents")
        return self.env.agents  # type: ignore[no-any-return]

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise _before_reset("agent_selection")
        return self.env.agent_selection  # type: ignore[no-any-return]

    @property
    def rewards(self) -> dict[str, float]:
        if not self._has_reset:
            raise _before_reset("rewards")
        return self.env.rewards  # type: ignore[no-any-return]

    @property
    def terminations(self) -> dict[str, bool]:
        if not self._has_reset:
            raise _before_reset("terminations")
        return self.env.terminations  # type: ignore[no-any-return]

    @property
    def truncations(self) -> dict[str, bool]:
        if not self._has_reset:
            raise _before_reset("truncations")
        return self.env.truncations  # type: ignore[no-any-return]

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        if not self._has_reset:
            raise _before_reset("infos")
        return self.env.infos  # type: ignore[no-any-return]

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise _before_reset("agent_selection")
        # raw_env.last, written out here (one Python call less on every step).
        env = self.env
        agent = env.agent_selection
        return (env.observe(agent) if observe else None, env._cumulative_rewards[agent],
                env.terminations[agent], env.truncations[agent], env.infos[agent])

    def step(self, action: Any) -> None:
        # PettingZoo's step, without its hops through super() and the agents property.
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)

    def agent_iter(self, max_iter: int = 2**63) -> _AgentIterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)

    def __str__(self) -> str:
        return str(self.env)


class _AgentIterable(wrappers.order_enforcing.AECOrderEnforcingIterable):  # type: ignore[misc]
    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(wrappers.order_enforcing.AECOrderEnforcingIterator):  # type: ignore[misc]
    """PettingZoo's iterator over the agent to act, with the same checks and errors, in one
    call per step (PettingZoo's makes three and reads two wrapper properties)."""

    def __init__(self, env: OrderEnforcingWrapper, max_iter: int) -> None:
        super().__init__(env, max_iter)
        self._inner = env.env

    def __next__(self) -> str:
        inner = self._inner
        if not inner.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        if not self.env._has_updated:
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
        self.env._has_updated = False
        return inner.agent_selection  # type: ignore[no-any-return]


class raw_env(AECEnv, EzPickle):  # noqa: N801 - PettingZoo's name for the unwrapped env
    """The unwrapped AEC environment (see the module docstring and :func:`env`).

    Attributes beyond PettingZoo's: ``rules``, ``codec`` (:class:`ActionCodec`), ``layout``
    (:class:`ObservationLayout`), ``state`` (the engine state of the hand being played; for
    the harness, never for an agent's observation), ``match`` (the :class:`Match`).
    """

    metadata = {"render_modes": ["ansi"], "name": "canasta_v0", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, variant: str = "international", players: int = 4,
                 options: dict[str, Any] | None = None, render_mode: str | None = None, *,
                 reward: str = "hand", team_size: int | None = None, max_hands: int = 60,
                 max_steps: int | None = MAX_STEPS, lang: str = "en") -> None:
        EzPickle.__init__(self, variant, players, options, render_mode, reward=reward,
                          team_size=team_size, max_hands=max_hands, max_steps=max_steps,
                          lang=lang)
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward {reward!r}: choose one of {', '.join(REWARDS)}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: choose None or 'ansi'")
        self.rules = load_preset(variant, options)
        self.players = players
        self.team_size = team_size
        self.codec = ActionCodec(self.rules, players)  # ValueError on a bad player count
        self.teams = self.rules.teams(players, team_size)
        self.layout = ObservationLayout(self.rules, players, len(self.teams))
        self.reward_kind = reward
        self.max_hands = max_hands
        self.max_steps = max_steps
        self.steps = 0
        self.render_mode = render_mode
        self.lang = lang
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = self.possible_agents[:]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": spaces.Box(self.layout.low(), self.layout.high(),
                                      (self.layout.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.codec.size,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.codec.size)
                              for a in self.possible_agents}
        self._rng = random.Random()
        self.match: Match | None = None
        # The legal actions of the seat to act, by id, listed with its last observation.
        self._legal: dict[int, Action] | None = None
        self._legal_log: object = None
        self._masks = ActionMask(self.codec)
        # The compiled writers' bound methods, called on every step.
        self._fill_mask = self._masks.writer.fill
        self._fill_ids = self._masks.writer.fill_ids
        self._encode = self.layout.writer.encode_state
        # True while every entry of ``rewards`` is 0 (every step but the last of an episode),
        # so that step() need not build and add a dict of zeros.
        self._zero_rewards = False

    # -- PettingZoo API ------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def state(self) -> State:  # type: ignore[override]
        """The engine state of the current hand (call :meth:`reset` first)."""
        if self.match is None:
            raise RuntimeError("call reset() first")
        return self.match.state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new episode: with ``seed``, the first hand of ``Match(seed=seed)`` (so the
        same seed gives the same deal); without it, a seed drawn from the environment's own
        generator (itself seeded by the last seed given)."""
        if seed is not None:
            self._rng.seed(seed)
        deal_seed = seed if seed is not None else self._rng.randrange(2**62)
        self.match = Match(self.rules, self.players, seed=deal_seed, team_size=self.team_size)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._legal = None
        self._zero_rewards = True
        self.steps = 0
        self.agent_selection = self.possible_agents[self.state.actor]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The observation of ``agent``: what ``state.view(seat)`` shows, encoded
        (:meth:`ObservationLayout.encode`), and the mask of its legal actions (all 0 for an
        agent not to act); new arrays on every call.

        The vector is written from the state by the compiled writer's seat-restricted
        reader (``ObservationWriter.encode_state``: the view's values, without making the
        view), the mask from ``state.legal_actions()``, listed once per state however often
        the agent to act is observed.
        """
        match = self.match
        if match is None:
            raise RuntimeError("call reset() first")
        state = match.state
        seat = self._seat[agent]
        if seat == state.actor:
            log = state.event_log
            if self._legal_log is log and self._legal is not None:
                mask = self._fill_ids(self._legal)
            else:
                mask, self._legal = self._fill_mask(state.legal_actions())
                self._legal_log = log
        else:
            mask = bytearray(self.codec.size)
        # C buffers from the compiled writers, handed to numpy without a copy.
        return {"observation": np.frombuffer(self._encode(state, seat), FLOAT32),
                "action_mask": np.frombuffer(mask, INT8)}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last()`` (the agent to act's observation, cumulative reward,
        termination, truncation and info), in one call."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        match = self.match
        if match is None:
            raise RuntimeError("call reset() first")
        state = match.state
        legal = self._legal if self._legal_log is state.event_log else None
        chosen = legal.get(int(action)) if legal is not None and action is not None else None
        if chosen is None:
            if action is None:
                raise ValueError(f"{agent} is to act: step(None) only for a finished agent")
            chosen = self.codec.decode(int(action), state)  # raises when not legal
        self._cumulative_rewards[agent] = 0.0
        if not self._zero_rewards:
            self.rewards = {a: 0.0 for a in self.agents}
            self._zero_rewards = True
        state.apply(chosen)
        self._legal = None
        self.steps += 1
        if state.is_over:
            self._end_of_hand()
        elif self.max_steps is not None and self.steps >= self.max_steps:
            self.truncations = {a: True for a in self.agents}
        self.agent_selection = self.possible_agents[match.state.actor]
        if not self._zero_rewards:
            self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_text(self.state, self.lang)

    def close(self) -> None:
        pass

    # -- episodes ------------------------------------------------------------------------------
    def _end_of_hand(self) -> None:
        match = self.match
        assert match is not None
        self._zero_rewards = False  # the rewards below are added in step()
        if self.reward_kind == "hand":
            totals = [sheet.hand_total for sheet in self.state.score()]
            for a, value in zip(self.agents, side_rewards(self.state.team_of, totals),
                                strict=True):
                self.rewards[a] = value
            self.terminations = {a: True for a in self.agents}
            return
        match.finish_hand()
        if match.winner is not None:
            sides = len(self.teams)
            for a in self.agents:
                won = self.state.team_of[self._seat[a]] == match.winner
                self.rewards[a] = 1.0 if won else -1.0 / (sides - 1)
            self.terminations = {a: True for a in self.agents}
        elif len(match.hands) >= self.max_hands:
            self.truncations = {a: True for a in self.agents}
        else:
            match.next_hand()
            self.steps = 0

