"""The schedule of a duplicate tournament: who meets whom in each round and who sits where.

A tournament of ``N`` tables (``N`` even) has ``N`` teams. Each round pairs the teams into
``N / 2`` matches by the circle method of a round robin (team 0 stays, the others turn one
place a round; after ``N - 1`` rounds every team has met every other once, and the schedule
starts again). Match ``k`` is played at the pair of tables ``2k`` and ``2k + 1``, which are
dealt the same deals:

* table ``2k``: squad 0 of team *a* on side 0, squad 0 of team *b* on side 1;
* table ``2k + 1``: squad 1 of team *b* on side 0, squad 1 of team *a* on side 1.

So each deal is played by both teams from both sides, as the bots' duplicate harness plays a
deal pair (:func:`canasta.sim.duplicate.seatings` of two sides: ``(0, 1)`` then ``(1, 0)``).
A team has ``2 × team size`` seats ("slots"): slot ``s`` is in squad ``s // team size`` and
takes place ``s % team size`` of its side (:meth:`canasta.core.rules.Rules.teams`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Placement", "TablePlan", "pairings", "placements", "squad_of", "tables_of_round"]


def pairings(teams: int, round_: int) -> list[tuple[int, int]]:
    """The matches of round ``round_`` (from 1) among ``teams`` teams: ``(a, b)`` per match,
    by the circle method (round ``teams`` is round 1 again).

    >>> pairings(4, 1), pairings(4, 2), pairings(4, 3)
    ([(0, 3), (1, 2)], [(0, 2), (3, 1)], [(0, 1), (2, 3)])

    Raises:
        ValueError: an odd or too small number of teams, or a round below 1.
    """
    if teams < 2 or teams % 2:
        raise ValueError(f"a round robin of {teams} teams: an even number, 2 or more")
    if round_ < 1:
        raise ValueError(f"round {round_}: rounds are numbered from 1")
    turn = (round_ - 1) % (teams - 1)
    others = list(range(1, teams))
    others = others[-turn:] + others[:-turn] if turn else others
    ring = [0, *others]
    return [(ring[i], ring[teams - 1 - i]) for i in range(teams // 2)]


@dataclass(frozen=True)
class TablePlan:
    """Table ``number`` of a round: match ``number // 2``, ``side0`` and ``side1`` the teams
    on each side, ``squad`` the squad of both teams that plays it."""

    number: int
    side0: int
    side1: int

    @property
    def match(self) -> int:
        return self.number // 2

    @property
    def squad(self) -> int:
        return squad_of(self.number)


def squad_of(table_number: int) -> int:
    """The squad of each team that plays table ``table_number`` of its pair (0 or 1)."""
    return table_number % 2


def tables_of_round(teams: int, round_: int) -> list[TablePlan]:
    """The tables of round ``round_``: two per match, the teams swapping sides.

    >>> tables_of_round(2, 1)
    [TablePlan(number=0, side0=0, side1=1), TablePlan(number=1, side0=1, side1=0)]
    """
    out = []
    for k, (a, b) in enumerate(pairings(teams, round_)):
        out += [TablePlan(2 * k, a, b), TablePlan(2 * k + 1, b, a)]
    return out


@dataclass(frozen=True)
class Placement:
    """Seat ``seat`` of a table is taken by slot ``slot`` of team ``team``."""

    seat: int
    team: int
    slot: int


def placements(plan: TablePlan, sides: Sequence[Sequence[int]]) -> list[Placement]:
    """Who sits where at ``plan``'s table, by seat; ``sides`` are the seats of side 0 and
    side 1 (``Rules.teams``: 4 players ``[(0, 2), (1, 3)]``).

    >>> placements(TablePlan(1, 5, 2), [(0, 2), (1, 3)])  # doctest: +NORMALIZE_WHITESPACE
    [Placement(seat=0, team=5, slot=2), Placement(seat=1, team=2, slot=2),
     Placement(seat=2, team=5, slot=3), Placement(seat=3, team=2, slot=3)]

    Raises:
        ValueError: not two sides of the same size.
    """
    if len(sides) != 2 or len(sides[0]) != len(sides[1]):
        raise ValueError("duplicate tournaments need two sides of the same size")
    size = len(sides[0])
    out = []
    for side, team in ((0, plan.side0), (1, plan.side1)):
        for place, seat in enumerate(sides[side]):
            out.append(Placement(seat, team, plan.squad * size + place))
    return sorted(out, key=lambda p: p.seat)
