"""Bots: players that see only their seat's :class:`~canasta.core.state.View`.

A bot is any object with ``choose(view) -> Action``; ``view.legal_actions`` lists what it may
play. :func:`make_bot` builds one by name (``random``, ``greedy``, ``expert``).
:func:`suggest` gives hints: the best moves of a view with values and reasons.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from canasta.bots.hints import DEFAULT_BUDGET, Reason, Suggestion
from canasta.core.actions import Action
from canasta.core.state import View

__all__ = ["BOTS", "Bot", "RandomBot", "Reason", "Suggestion", "make_bot", "suggest"]


class Bot(Protocol):
    """A player: picks one of ``view.legal_actions``; never sees hidden cards."""

    name: str

    def choose(self, view: View) -> Action: ...


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


def _expert(seed: int | None) -> Bot:
    from canasta.bots.expert import DEFAULT_PLAYOUT, ExpertBot

    return ExpertBot(seed, policy=lambda s: make_bot(DEFAULT_PLAYOUT, s),
                     playout=DEFAULT_PLAYOUT)


BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot, "greedy": _greedy, "expert": _expert}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """Build a bot by name.

    Raises:
        ValueError: unknown name (the message lists the known ones).
    """
    key = name.strip().lower()
    if key not in BOTS:
        raise ValueError(f"unknown bot '{name}'; choose one of {', '.join(sorted(BOTS))}")
    return BOTS[key](seed)


def suggest(view: View, n: int = 3, budget: float = DEFAULT_BUDGET, *, seed: int = 0,
            iterations: int | None = None, playout: str | None = None) -> list[Suggestion]:
    """Hints: the ``n`` best moves of ``view`` (the seat to act), best first, each with its
    estimated value (points of the hand for the seat's side, relative to the plain
    heuristic's move) and reasons (``hint.reason.<key>`` in the message catalogues). See
    :func:`canasta.bots.hints.suggest`; ``playout`` names the playout policy (default the
    expert's).

    Raises:
        ValueError: ``n`` < 1, a budget that is not positive, or the seat is not to act.
    """
    from canasta.bots.expert import DEFAULT_PLAYOUT
    from canasta.bots.hints import suggest as _suggest

    name = playout or DEFAULT_PLAYOUT
    return _suggest(view, n, budget, policy=lambda s: make_bot(name, s), seed=seed,
                    iterations=iterations)
