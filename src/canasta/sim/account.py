"""A hand's result for one side, split into the luck of the cards and the play.

The account follows one value ``V`` of the full state for the side (the learned value,
:func:`canasta.bots.learn.value.value`, where a model exists for the rules and player count;
else the expert's hand-written :func:`~canasta.bots.expert.evaluate`) from the deal to the end
of the hand, where both values are the exact score difference (the side's hand total less the
best other side's, points):

* the luck of the deal: ``V`` just after the deal;
* the luck of the draws: at every draw from the stock, ``V`` after the real draw less its mean
  after :data:`canasta.sim.luck.SAMPLES` draws from the same state with the stock shuffled
  again (each term has mean zero given the state, as in :mod:`canasta.sim.luck`);
* the play: every other change of ``V``, the side's when one of its seats moved, the others'
  otherwise (a draw's own part, its expected value less ``V`` before it, is the drawer's).

The four parts sum to ``V`` at the end: the hand's result. A hand that starts from a saved
position (``canasta play --from``) counts everything before that position as its deal.

Feed a :class:`Ledger` the hand step by step (:meth:`Ledger.before` each action,
:meth:`Ledger.after` it is applied).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from canasta.bots.expert import evaluate
from canasta.core.actions import Action, Draw
from canasta.core.state import State
from canasta.sim.luck import SAMPLES

__all__ = ["HandAccount", "Ledger", "value_for"]

#: A value of a full state for a seat's side, in points.
Value = Callable[[State, int], float]


def value_for(state: State) -> tuple[Value, str]:
    """The value an account of ``state``'s rules follows and its name: the learned value
    (``learned``) where a model exists and numpy is installed, else ``evaluate``."""
    try:
        from canasta.bots.learn.value import model_for, value
    except ImportError:  # numpy absent
        model = None
    else:
        model = model_for(state.rules, state.players)
    if model is not None:
        return value, "learned"
    return (lambda s, seat: evaluate(s, s.team_of[seat])), "evaluate"


@dataclass(frozen=True)
class HandAccount:
    """A hand's result for one side, split into luck and play (points).

    ``result = deal + draws + side + others`` (module docstring); ``finished`` is False for a
    hand left in progress (then ``result`` is the value's estimate).
    ``value`` names the value followed: ``learned`` or ``evaluate``.
    """

    result: float
    deal: float
    draws: float
    side: float
    others: float
    finished: bool
    value: str

    @property
    def luck(self) -> float:
        """The luck of the cards: the deal and the draws from the stock."""
        return self.deal + self.draws

    @property
    def play(self) -> float:
        """What the decisions of every seat changed."""
        return self.side + self.others


class Ledger:
    """The account of one hand for ``seat``'s side (module docstring), fed step by step;
    ``seed`` seeds the shuffles of the stock."""

    def __init__(self, state: State, seat: int, seed: int) -> None:
        self.value, self.name = value_for(state)
        self.seat = seat
        self.team = state.team_of[seat]
        self.rng = random.Random(seed)
        self.current = self.value(state, seat)
        self.deal = self.current
        self.draws = self.side = self.others = 0.0
        self.expected: float | None = None
        self.mover: int | None = None
        self.finished = state.is_over

    def before(self, state: State, action: Action) -> None:
        """``action`` is about to be applied to ``state``."""
        self.mover = state.actor
        self.expected = None
        if isinstance(action, Draw) and len(state.stock) >= 2:
            total = 0.0
            for _ in range(SAMPLES):
                alt = state.clone()
                self.rng.shuffle(alt.stock)
                alt.apply(action)
                total += self.value(alt, self.seat)
            self.expected = total / SAMPLES

    def after(self, state: State) -> None:
        """The action is applied: ``state`` is the position after it."""
        now = self.value(state, self.seat)
        change = now - self.current
        if self.expected is not None:
            luck = now - self.expected
            self.draws += luck
            change -= luck
        if self.mover is not None and state.team_of[self.mover] == self.team:
            self.side += change
        else:
            self.others += change
        self.current = now
        self.finished = state.is_over

    def account(self) -> HandAccount:
        """The account so far (the whole hand once it is over)."""
        return HandAccount(self.current, self.deal, self.draws, self.side, self.others,
                           self.finished, self.name)
