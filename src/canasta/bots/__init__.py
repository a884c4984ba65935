"""Bots: players that see only their seat's :class:`~canasta.core.state.View`.

A bot is any object with ``choose(view) -> Action``; ``view.legal_actions`` lists what it may
play. :func:`make_bot` builds one from a spec string ``name[:key=value,...]``
(:mod:`canasta.bots.registry`): the baselines ``random`` and ``greedy``, and the levels
``easy``, ``medium`` and ``hard`` (:mod:`canasta.bots.levels`), and ``expert``, a search
over sampled deals (:mod:`canasta.bots.expert`). Other bots register themselves with
:func:`register_bot`. :func:`suggest` gives hints: the best moves of a view with values and
reasons (:mod:`canasta.bots.hints`).
"""

from __future__ import annotations

import random

from canasta.bots.expert import (
    DEFAULT_CONFIDENCE,
    DEFAULT_DEPTH,
    DEFAULT_PLAYOUT,
    DEFAULT_WIDTH,
    VALUES,
)
from canasta.bots.hints import DEFAULT_BUDGET, Reason, Suggestion
from canasta.bots.levels import EASY_CARELESS, EASY_MISS, MEDIUM_CARELESS, MEDIUM_MISS
from canasta.bots.lookahead import DEFAULT_MARGIN as LOOK_MARGIN
from canasta.bots.lookahead import DEFAULT_SAMPLES as LOOK_SAMPLES
from canasta.bots.lookahead import DEFAULT_WIDTH as LOOK_WIDTH
from canasta.bots.registry import (
    BOTS,
    Bot,
    BotInfo,
    Param,
    bot_info,
    bot_names,
    make_bot,
    parse_spec,
    register_bot,
    split_specs,
)
from canasta.core.actions import Action
from canasta.core.state import View

__all__ = ["BOTS", "DEFAULT_BUDGET", "Bot", "BotInfo", "Param", "RandomBot", "Reason",
           "Suggestion", "bot_info", "bot_names", "make_bot", "parse_spec", "register_bot",
           "split_specs", "suggest"]


class RandomBot:
    """Uniform over the legal actions (the baseline of every benchmark)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        return self.rng.choice(view.legal_actions)


def _greedy(seed: int | None) -> Bot:
    from canasta.bots.greedy import GreedyBot

    return GreedyBot(seed)


def _easy(seed: int | None, careless: float = EASY_CARELESS, miss: float = EASY_MISS) -> Bot:
    from canasta.bots.levels import easy

    return easy(seed, careless=careless, miss=miss)


def _medium(seed: int | None, careless: float = MEDIUM_CARELESS,
            miss: float = MEDIUM_MISS) -> Bot:
    from canasta.bots.levels import medium

    return medium(seed, careless=careless, miss=miss)


def _hard(seed: int | None, samples: int = LOOK_SAMPLES, width: int = LOOK_WIDTH,
          margin: float = LOOK_MARGIN, at: str = "both",
          value: str = "learned") -> Bot:
    from canasta.bots.levels import hard

    return hard(seed, samples=samples, width=width, margin=margin, at=at,
                value=value)


register_bot("random", RandomBot, "bot.random")
register_bot("greedy", _greedy, "bot.greedy")
register_bot("easy", _easy, "bot.easy", (
    Param("careless", float, EASY_CARELESS, 0.0, 1.0),
    Param("miss", float, EASY_MISS, 0.0, 1.0),
))
register_bot("medium", _medium, "bot.medium", (
    Param("careless", float, MEDIUM_CARELESS, 0.0, 1.0),
    Param("miss", float, MEDIUM_MISS, 0.0, 1.0),
))
register_bot("hard", _hard, "bot.hard", (
    Param("samples", int, LOOK_SAMPLES, 0, 64),
    Param("width", int, LOOK_WIDTH, 1, 8),
    Param("margin", float, LOOK_MARGIN, -1000.0, 1000.0),
    Param("at", str, "both", choices=("both", "draw", "discard")),
    Param("value", str, "learned", choices=("learned", "evaluate")),
))
# By its "module:attribute" name: the expert module imports the registry (its playout policy
# is a bot spec), so the registry must not import it back. Its defaults are the module's.
register_bot("expert", "canasta.bots.expert:make_expert", "bot.expert", (
    Param("time", float, None, 0.001, 3600.0),
    Param("iterations", int, None, 1, 1_000_000),
    Param("playout", str, DEFAULT_PLAYOUT),
    Param("depth", int, DEFAULT_DEPTH, 0, 100),
    Param("width", int, DEFAULT_WIDTH, 1, 100),
    Param("confidence", float, DEFAULT_CONFIDENCE, 0.0, 10.0),
    Param("baseline", str, ""),
    Param("value", str, "evaluate", choices=VALUES),
))
# OpenSpiel's ISMCTS (canasta.env.ismcts, the `openspiel` extra): by name, so that listing the
# bots never imports pyspiel.
register_bot("openspiel-ismcts", "canasta.env.ismcts:make_ismcts", "bot.openspiel-ismcts", (
    Param("time", float, None, 0.001, 3600.0),
    Param("iterations", int, None, 1, 1_000_000),
    Param("uct_c", float, 500.0, 0.0, 1_000_000.0),
    Param("rollouts", int, 1, 1, 1000),
    Param("rollout_length", int, 0, 0, 100_000),
    Param("playout", str, "random", choices=("random", "greedy", "easy", "medium", "hard")),
))


def suggest(view: View, n: int = 3, budget: float = DEFAULT_BUDGET, *, seed: int = 0,
            iterations: int | None = None, playout: str | None = None) -> list[Suggestion]:
    """Hints: the ``n`` best moves of ``view`` (the seat to act), best first, each with its
    estimated value (points of the hand for the seat's side, relative to the playout
    policy's move) and reasons (``hint.reason.<key>`` in the message catalogues). See
    :func:`canasta.bots.hints.suggest`; ``playout`` is the playout policy's bot spec
    (default the expert's).

    Raises:
        ValueError: ``n`` < 1, a budget that is not positive, the seat is not to act, or an
            unknown playout bot.
    """
    from canasta.bots.hints import suggest as _suggest

    spec = playout or DEFAULT_PLAYOUT
    parse_spec(spec)
    return _suggest(view, n, budget, policy=lambda s: make_bot(spec, s), seed=seed,
                    iterations=iterations)
