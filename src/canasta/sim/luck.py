"""The luck of the draws, measured by the learned value, as a control variate of duplicate play.

Duplicate deals cancel the luck of the deal itself (both bots get both sides of the same
cards), but once the two plays of a deal part ways the cards they draw from the stock differ,
and that luck is left in each deal pair's score difference. This module measures it: at each
draw from the stock, the learned value (:func:`canasta.bots.learn.value.value`, the side's
expected hand-score difference) of the state after the real draw, less the mean value after
``samples`` other draws from the same state with the stock shuffled again. Given the state
before the draw, the real draw and the shuffled ones are equally likely (the stock's order is
a uniform shuffle that nothing has read), so each term has mean zero whatever the value's
quality: subtracting the summed luck from a score difference changes its expectation by
nothing and, where the value sees what a draw is worth, removes part of its variance.

Per play the luck is summed per side (:attr:`PlayResult.luck
<canasta.sim.duplicate.PlayResult.luck>`); per deal pair, :attr:`PairResult.luck
<canasta.sim.duplicate.PairResult.luck>` is *a*'s sides' mean luck less *b*'s, summed over
the plays, as the score difference is. :func:`control_variate` subtracts it, scaled by the
least-squares coefficient ``beta`` (the textbook control variate), and says how many deal pairs
each way needs to tell a win rate from 50%.

Needs numpy and a shipped model for the rules and player count (``canasta.bots.learn``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from canasta.core.actions import Action, Draw
from canasta.core.state import State


class _Play(Protocol):
    @property
    def luck(self) -> tuple[float, ...]: ...


class _Pair(Protocol):
    """What :func:`control_variate` reads of a deal pair (a
    :class:`~canasta.sim.duplicate.PairResult`; duplicate imports this module)."""

    @property
    def diff(self) -> Fraction: ...
    @property
    def luck(self) -> float: ...
    @property
    def plays(self) -> Sequence[_Play]: ...

__all__ = ["LuckMeter", "ControlVariate", "control_variate", "pairs_needed"]

#: Other draws per real draw whose mean is the expected value after it.
SAMPLES = 4


class LuckMeter:
    """Sums the luck of the stock draws of one play, per side (module docstring).

    Call :meth:`before` with the state and the action about to be applied, then
    :meth:`after` with the state once it is applied.

    Raises:
        LookupError: no learned value for these rules and player count; ImportError: numpy
            is not installed.
    """

    def __init__(self, state: State, seed: int, samples: int = SAMPLES) -> None:
        from canasta.bots.learn.value import NoModelError, model_for, value

        if model_for(state.rules, state.players) is None:
            raise NoModelError(f"the luck of the draws needs a learned value for "
                               f"{state.rules.name} with {state.players} players")
        self._value = value
        self.rng = random.Random(seed)
        self.samples = samples
        self.totals = [0.0] * len(state.teams)
        self._expected: list[float] | None = None

    def _values(self, state: State) -> list[float]:
        return [self._value(state, seats[0]) for seats in state.teams]

    def before(self, state: State, action: Action) -> None:
        """The expected values after ``action`` when it draws from the stock."""
        self._expected = None
        if not isinstance(action, Draw) or len(state.stock) < 2:
            return
        sums = [0.0] * len(state.teams)
        for _ in range(self.samples):
            alt = state.clone()
            self.rng.shuffle(alt.stock)
            alt.apply(action)
            for t, v in enumerate(self._values(alt)):
                sums[t] += v / self.samples
        self._expected = sums

    def after(self, state: State) -> None:
        """Add the real draw's luck (value now less the expected value) to each side."""
        if self._expected is None:
            return
        for t, v in enumerate(self._values(state)):
            self.totals[t] += v - self._expected[t]
        self._expected = None


def pairs_needed(rate: float, z: float = 1.96) -> float:
    """Deal pairs at which a win rate ``rate`` has its 95% lower bound at 50% (normal
    approximation: ``z² p (1 - p) / (p - 0.5)²``; inf at 50%)."""
    if rate == 0.5:
        return math.inf
    return z * z * rate * (1 - rate) / (rate - 0.5) ** 2


@dataclass(frozen=True)
class ControlVariate:
    """Deal pairs with and without the luck of the draws subtracted.

    Attributes:
        deal_pairs: how many.
        rate, adjusted_rate: *a*'s share of deal pairs won (a tie half), raw and with
            ``diff - beta * luck``.
        beta: the least-squares coefficient of the luck on the score difference.
        variance_ratio: variance of the adjusted differences over that of the raw ones
            (``1 - r²``): the share of deal pairs a test on points still needs.
        needed, adjusted_needed: :func:`pairs_needed` at the two rates.
    """

    deal_pairs: int
    rate: float
    adjusted_rate: float
    beta: float
    variance_ratio: float
    needed: float
    adjusted_needed: float


def _rate(diffs: list[float]) -> float:
    return sum(1.0 if d > 0 else 0.5 if d == 0 else 0.0 for d in diffs) / len(diffs)


def control_variate(pairs: Sequence[_Pair]) -> ControlVariate:
    """The statistics of :class:`ControlVariate` for deal pairs played with ``luck``.

    Raises:
        ValueError: fewer than two deal pairs, or pairs played without the luck measured.
    """
    if len(pairs) < 2:
        raise ValueError(f"a control variate needs two deal pairs or more, not {len(pairs)}")
    if any(not p.plays[0].luck for p in pairs):
        raise ValueError("deal pairs played without the luck measured (DuplicateSetup.luck)")
    d = [float(p.diff) for p in pairs]
    x = [p.luck for p in pairs]
    n = len(d)
    md, mx = sum(d) / n, sum(x) / n
    sxx = sum((v - mx) ** 2 for v in x)
    sxd = sum((v - mx) * (w - md) for v, w in zip(x, d, strict=True))
    sdd = sum((w - md) ** 2 for w in d)
    beta = sxd / sxx if sxx else 0.0
    adj = [w - beta * v for v, w in zip(x, d, strict=True)]
    ma = sum(adj) / n
    saa = sum((w - ma) ** 2 for w in adj)
    rate, adjusted = _rate(d), _rate(adj)
    return ControlVariate(n, rate, adjusted, beta, saa / sdd if sdd else 1.0,
                          pairs_needed(rate), pairs_needed(adjusted))
