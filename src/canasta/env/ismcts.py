"""OpenSpiel's ISMCTS as a canasta bot: ``openspiel-ismcts`` in the bot registry.

``canasta tournament --bots expert:time=1,openspiel-ismcts:time=1`` measures our ``expert``
against a search bot we did not write, at equal time per decision. The search is OpenSpiel's
own :class:`open_spiel.python.algorithms.ismcts.ISMCTSBot`, run on the ``python_canasta``
game (:mod:`canasta.env.openspiel`), with one of two evaluators through OpenSpiel's own
``Evaluator`` interface: ``playout=random`` (the default) is OpenSpiel's
:class:`~open_spiel.python.algorithms.mcts.RandomRolloutEvaluator`, named as such; any other
``playout`` (``greedy``, ``easy``, ``medium``, ``hard``) is :class:`BotPlayoutEvaluator`,
which plays each new node's hand out to its end with that canasta bot at every seat, so the
outside reference is not handicapped by random play-outs that never meld.

A bot receives only a :class:`~canasta.core.view.View`. The root state given to ISMCTS is a
``view.sample_state`` deal of the cards the seat cannot see; ISMCTS then deals every
simulation afresh through ``resample_from_infostate`` (``view.sample_state`` again), so the
choice depends on the view only.

Budget: ``iterations`` simulations, or ``time`` seconds per decision (the search stops at the
first simulation started after the deadline, and plays at least two), whichever ends first;
1 second when neither is given. ``uct_c`` is UCT's exploration constant in points of the hand
(the game's returns are hand score differences); ``rollouts`` random play-outs value each new
node, each cut after ``rollout_length`` decisions when that is above 0 (a cut play-out is
worth 0: OpenSpiel's evaluator returns the returns of a non-terminal state). Reproducible
for an iteration budget and a seed. ``last_simulations`` is the number of simulations
the last decision ran (what a comparison at equal time reports).
"""

from __future__ import annotations

import random
import time as _time
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from canasta.core.actions import Action
from canasta.core.rules import Rules
from canasta.core.state import View
from canasta.env.openspiel import CanastaGame, CanastaState
from canasta.env.rewards import side_rewards

DEFAULT_TIME = 1.0
DEFAULT_UCT_C = 500.0


class _TimeUp(Exception):
    """Raised inside the search when the time budget is spent."""


class _TimedISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTSBot with a deadline: every simulation starts by resampling the root,
    so the deadline is checked there; the policy is the one of the tree grown so far."""

    deadline: float | None = None
    _started = 0

    def sample_root_state(self, state: Any) -> Any:
        self._started += 1
        if (self.deadline is not None and self._started > 2
                and _time.perf_counter() > self.deadline):
            raise _TimeUp
        return super().sample_root_state(state)

    def run_search(self, state: Any) -> Any:
        self._started = 0
        try:
            return super().run_search(state)
        except _TimeUp:
            return self.get_final_policy(state, self._root_node)


#: The play-out policies: OpenSpiel's random rollouts, or a canasta bot at every seat.
PLAYOUTS = ("random", "greedy", "easy", "medium", "hard")

#: Decisions after which a bot play-out stops (a safety bound: bot hands end far sooner).
MAX_PLAYOUT = 3000


class BotPlayoutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """OpenSpiel's evaluator interface over a canasta bot: a state is worth the returns of
    its hand played out to the end by ``spec`` (a bot spec) at every seat; the prior is
    uniform over the legal actions (OpenSpiel's random evaluator's too).

    Args:
        spec: the play-out bot (``greedy``, ``hard``...).
        seed: seeds the bots (one per seat, each its own source).
    """

    def __init__(self, spec: str, seed: int) -> None:
        self.spec = spec
        self.seed = seed
        self._bots: dict[int, Any] = {}

    def _bot(self, seat: int) -> Any:
        from canasta.bots import make_bot

        bot = self._bots.get(seat)
        if bot is None:
            bot = self._bots[seat] = make_bot(f"{self.spec}:seed={self.seed + seat}")
        return bot

    def evaluate(self, state: Any) -> Any:
        inner = state.hand.state
        if inner is None:
            return np.array(state.returns(), dtype=float)
        hand = inner.clone()
        for _ in range(MAX_PLAYOUT):
            if hand.is_over:
                break
            seat = hand.actor
            hand.apply(self._bot(seat).choose(hand.view(seat)))
        if not hand.is_over:
            return np.zeros(len(inner.team_of))
        totals = [sheet.hand_total for sheet in hand.score()]
        return np.array(side_rewards(hand.team_of, totals), dtype=float)

    def prior(self, state: Any) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


#: Games built for the Rules records met (a record is a value: equal rules share a game).
_GAMES: dict[tuple[Rules, int, int | None], CanastaGame] = {}


def game_for(rules: Rules, players: int, team_size: int | None) -> CanastaGame:
    """The ``python_canasta`` game of these rules (built from the Rules record itself, so
    house rules set in any way are kept)."""
    key = (rules, players, team_size)
    found = _GAMES.get(key)
    if found is None:
        if len(_GAMES) > 64:
            _GAMES.clear()
        found = _GAMES[key] = CanastaGame(
            {"variant": rules.name, "players": players, "team_size": team_size or 0},
            rules=rules)
    return found


class OpenSpielISMCTSBot:
    """See the module docstring.

    Raises:
        ValueError: neither budget is positive.
    """

    name = "openspiel-ismcts"

    def __init__(self, seed: int | None = None, time: float | None = None,
                 iterations: int | None = None, uct_c: float = DEFAULT_UCT_C,
                 rollouts: int = 1, rollout_length: int = 0, playout: str = "random"
                 ) -> None:
        if time is None and iterations is None:
            time = DEFAULT_TIME
        if (time is not None and time <= 0) or (iterations is not None and iterations < 1):
            raise ValueError("openspiel-ismcts: time must be > 0 and iterations >= 1")
        if playout not in PLAYOUTS:
            raise ValueError(f"openspiel-ismcts: playout {playout!r} is not one of "
                             f"{', '.join(PLAYOUTS)}")
        self.playout = playout
        self.last_simulations = 0
        self.time = time
        self.iterations = iterations
        self.uct_c = uct_c
        self.rollouts = rollouts
        self.rollout_length = rollout_length or None
        self.rng = random.Random(seed)
        self.np_rng = np.random.RandomState(self.rng.randrange(2**31))

    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        self.last_simulations = 0
        if len(legal) == 1:
            return legal[0]
        team_size = len(view.teams[0]) if view.players == 6 else None
        game = game_for(view.rules, view.players, team_size)
        root = CanastaState(game)
        root.hand.state = view.sample_state(self.rng)
        evaluator: Any
        if self.playout == "random":
            evaluator = mcts.RandomRolloutEvaluator(self.rollouts, self.np_rng,
                                                    max_length=self.rollout_length)
        else:
            evaluator = BotPlayoutEvaluator(self.playout, self.rng.randrange(2**31))
        bot = _TimedISMCTS(game, evaluator, self.uct_c,
                           self.iterations if self.iterations is not None else 10**9,
                           random_state=self.np_rng)
        # OpenSpiel's own resampler draws from an unseeded C++ sampler; ours from the bot's
        # seeded source, so an iteration budget and a seed give the same moves.
        rng = self.rng
        bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.random))
        if self.time is not None:
            bot.deadline = _time.perf_counter() + self.time
        chosen = int(bot.step(root))
        self.last_simulations = bot._started
        by_id = {game.codec.encode(a): a for a in legal}
        return by_id[chosen]


def make_ismcts(seed: int | None = None, **params: Any) -> OpenSpielISMCTSBot:
    """The registry's factory (``make_bot("openspiel-ismcts:time=0.5")``)."""
    return OpenSpielISMCTSBot(seed, **params)
