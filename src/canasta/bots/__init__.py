"""Bots: players that see only their seat's :class:`~canasta.core.state.View`.

A bot is any object with ``choose(view) -> Action``; ``view.legal_actions`` lists what it may
play. :func:`make_bot` builds one from a spec string ``name[:key=value,...]``
(:mod:`canasta.bots.registry`): the baselines ``random`` and ``greedy``, and the levels
``easy``, ``medium`` and ``hard`` (:mod:`canasta.bots.levels`). Other bots register
themselves with :func:`register_bot`.
"""

from __future__ import annotations

import random

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

__all__ = ["BOTS", "Bot", "BotInfo", "Param", "RandomBot", "bot_info", "bot_names",
           "make_bot", "parse_spec", "register_bot", "split_specs"]


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


def _easy(seed: int | None, careless: float = 0.3, miss: float = 0.3) -> Bot:
    from canasta.bots.levels import easy

    return easy(seed, careless=careless, miss=miss)


def _medium(seed: int | None) -> Bot:
    from canasta.bots.levels import medium

    return medium(seed)


def _hard(seed: int | None) -> Bot:
    from canasta.bots.levels import hard

    return hard(seed)


register_bot("random", RandomBot, "bot.random")
register_bot("greedy", _greedy, "bot.greedy")
register_bot("easy", _easy, "bot.easy", (
    Param("careless", float, 0.3, 0.0, 1.0),
    Param("miss", float, 0.3, 0.0, 1.0),
))
register_bot("medium", _medium, "bot.medium")
register_bot("hard", _hard, "bot.hard")
