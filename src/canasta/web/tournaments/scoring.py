"""Scoring a duplicate tournament: each deal compared across the pair of tables of a match,
and the standings.

Deal ``d`` of match ``k`` (teams *a* and *b*) was played at table ``2k`` with *a* on side 0
and at table ``2k + 1`` with *a* on side 1 (:mod:`canasta.web.tournaments.schedule`). It is
scored as the bots' duplicate harness scores a deal pair (:mod:`canasta.sim.duplicate`, one
hand a deal): per table, the hand total of *a*'s side minus that of *b*'s side
(:func:`canasta.sim.duplicate.score_difference`), summed over the two tables; positive, *a*
won the deal pair, negative *b* did, exactly 0 a tie. A deal counts once both tables have
finished it (a match that ended early at the target leaves its later deals unscored).

Standings: a won deal pair is 1 point, a tie half a point each; ties in points are broken by
the summed score difference, then by the team's number.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from canasta.sim.duplicate import PairResult, PlayResult, score_difference, seatings

__all__ = ["DealPair", "Standing", "compare_deal", "hand_totals", "standings"]


def hand_totals(sheets: Sequence[Mapping[str, Any]], sides: int = 2) -> tuple[int, ...]:
    """Per side, the hand total of one finished hand's stored score sheets
    (:func:`canasta.web.play.game.sheet_to_json`: ``{"team", "hand_total", ...}``).

    Raises:
        ValueError: a side without a sheet, or a sheet of a side that does not exist.
    """
    out: list[int | None] = [None] * sides
    for sheet in sheets:
        team = int(sheet["team"])
        if not 0 <= team < sides:
            raise ValueError(f"a score sheet of side {team}, of {sides} sides")
        out[team] = int(sheet["hand_total"])
    if any(v is None for v in out):
        raise ValueError("a side has no score sheet")
    return tuple(int(v or 0) for v in out)


@dataclass(frozen=True)
class DealPair:
    """Deal ``deal`` of match ``match`` in round ``round``: teams ``a`` and ``b``, the hand
    totals per side at the first table (*a* on side 0) and the second (*a* on side 1), and
    the result as :class:`canasta.sim.duplicate.PairResult` reads it."""

    round: int
    match: int
    deal: int
    a: int
    b: int
    first: tuple[int, ...]
    second: tuple[int, ...]
    result: PairResult

    @property
    def diff(self) -> Fraction:
        """*a*'s score difference over the two tables (points, exact)."""
        return self.result.diff

    @property
    def winner(self) -> int | None:
        """The team that won the deal pair, None for a tie."""
        won = self.result.winner
        return None if won is None else self.a if won == "a" else self.b

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "match": self.match, "deal": self.deal, "a": self.a,
                "b": self.b, "first": list(self.first), "second": list(self.second),
                "diff": float(self.diff), "winner": self.winner}


def compare_deal(round_: int, match: int, deal: int, a: int, b: int,
                 first: Sequence[int], second: Sequence[int]) -> DealPair:
    """Deal ``deal`` of a match of teams ``a`` and ``b``: ``first`` and ``second`` are the
    hand totals per side at the match's first table (*a* on side 0) and second table (*a* on
    side 1).

    >>> p = compare_deal(1, 0, 0, 3, 5, (400, 150), (300, 220))
    >>> p.diff, p.winner
    (Fraction(170, 1), 3)
    """
    plays = []
    for seating, scores in zip(seatings(2), (tuple(first), tuple(second)), strict=True):
        plays.append(PlayResult(seating, scores, (), 1, 0, score_difference(scores, seating)))
    return DealPair(round_, match, deal, a, b, tuple(first), tuple(second),
                    PairResult(deal, str(a), str(b), tuple(plays)))


@dataclass(frozen=True)
class Standing:
    """A team's line of the standings."""

    rank: int
    team: int
    played: int
    won: int
    tied: int
    lost: int
    points: float
    diff: float

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "team": self.team, "played": self.played,
                "won": self.won, "tied": self.tied, "lost": self.lost,
                "points": self.points, "diff": self.diff}


def standings(teams: int, pairs: Iterable[DealPair]) -> list[Standing]:
    """The standings of ``teams`` teams after ``pairs``, best first (equal points and
    difference share a rank)."""
    won = [0] * teams
    tied = [0] * teams
    lost = [0] * teams
    diff = [Fraction(0)] * teams
    for p in pairs:
        diff[p.a] += p.diff
        diff[p.b] -= p.diff
        if p.winner is None:
            tied[p.a] += 1
            tied[p.b] += 1
        else:
            loser = p.b if p.winner == p.a else p.a
            won[p.winner] += 1
            lost[loser] += 1

    def key(t: int) -> tuple[Fraction, Fraction, int]:
        return (-(won[t] + Fraction(tied[t], 2)), -diff[t], t)

    order = sorted(range(teams), key=key)
    out: list[Standing] = []
    for i, t in enumerate(order):
        rank = out[-1].rank if out and key(order[i - 1])[:2] == key(t)[:2] else i + 1
        out.append(Standing(rank, t, won[t] + tied[t] + lost[t], won[t], tied[t], lost[t],
                            won[t] + tied[t] / 2, float(diff[t])))
    return out
