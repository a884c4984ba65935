"""Glicko-2 (Mark E. Glickman, "Example of the Glicko-2 system", 2013, glicko.net): one
rating period's update of one player from the games of that period.

A small implementation of our own: the one PyPI package of it (``glicko2`` 2.1.0, a fork of
a 2009 script) computes the volatility's function ``f`` with the player's rating in place of
its deviation (``self.__rating**2`` where the paper has ``phi**2``), so its volatility is off
wherever the rating is away from 1500 (a 2100 ± 60 player after Glickman's three games:
0.060004 where the paper's ``f`` gives 0.060028; the ratings agree to a hundredth).
tests/web/test_accounts_ratings.py checks this one against Glickman's worked example
(1500/200/0.06 against 1400/30 won, 1550/100 lost, 1700/300 lost: 1464.06, 151.52,
0.05999).

Ratings are on the Glicko scale (a new player: 1500, RD 350, volatility 0.06).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["DEFAULT_RD", "DEFAULT_RATING", "DEFAULT_VOLATILITY", "SCALE", "TAU", "Rating",
           "expected", "update"]

#: Glicko-2's conversion factor between the Glicko scale and its internal one (173.7178).
SCALE = 400 / math.log(10)
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
#: The system constant (Glickman: "between 0.3 and 1.2"); 0.5 as in his example.
TAU = 0.5
#: The convergence tolerance of the volatility's iteration (Glickman's epsilon).
EPSILON = 0.000001


@dataclass(frozen=True)
class Rating:
    """A player's rating, rating deviation (RD) and volatility, on the Glicko scale."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected(player: Rating, opponent: Rating) -> float:
    """The score ``player`` is expected to make against ``opponent`` (0 to 1)."""
    return _e((player.rating - DEFAULT_RATING) / SCALE,
              (opponent.rating - DEFAULT_RATING) / SCALE, opponent.rd / SCALE)


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the new volatility by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)
                / (2 * (phi * phi + v + ex) ** 2)) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def update(player: Rating, games: Sequence[tuple[Rating, float]],
           tau: float = TAU) -> Rating:
    """``player``'s rating after one rating period with ``games``: (opponent, score) pairs,
    the score 1 for a win, 0.5 a draw, 0 a loss. No games: only the deviation grows (step 6).

    Raises:
        ValueError: a score outside 0..1.
    """
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not games:
        return Rating(player.rating, min(DEFAULT_RD, math.sqrt(phi * phi + sigma * sigma)
                                         * SCALE), sigma)
    for _, score in games:
        if not 0 <= score <= 1:
            raise ValueError(f"a game's score is 0, 0.5 or 1 (or between), not {score}")
    opp = [((o.rating - DEFAULT_RATING) / SCALE, o.rd / SCALE, s) for o, s in games]
    v = 1 / sum(_g(pj) ** 2 * _e(mu, mj, pj) * (1 - _e(mu, mj, pj)) for mj, pj, _ in opp)
    total = sum(_g(pj) * (s - _e(mu, mj, pj)) for mj, pj, s in opp)
    delta = v * total
    sigma2 = _volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma2 * sigma2)
    phi2 = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu2 = mu + phi2 * phi2 * total
    return Rating(mu2 * SCALE + DEFAULT_RATING, phi2 * SCALE, sigma2)
