"""Bots: players that see only their seat's :class:`~canasta.core.state.View`.

A bot is any object with ``choose(view) -> Action``; ``view.legal_actions`` lists what it may
play. :func:`make_bot` builds one by name (``random``, ``greedy``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from canasta.core.actions import Action
from canasta.core.state import View


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


BOTS: dict[str, Callable[[int | None], Bot]] = {"random": RandomBot, "greedy": _greedy}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """Build a bot by name.

    Raises:
        ValueError: unknown name (the message lists the known ones).
    """
    key = name.strip().lower()
    if key not in BOTS:
        raise ValueError(f"unknown bot '{name}'; choose one of {', '.join(sorted(BOTS))}")
    return BOTS[key](seed)
