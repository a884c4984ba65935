"""Duplicate play: the same deals played again with the bots' seats swapped.

Luck of the deal dominates a single hand of Canasta. Duplicate play removes most of it: each
deal (one deck order, or one match's sequence of deck orders) is played several times by the
same two bots, each time with the bots on other sides of the table, and only the difference of
their results counts.

Words used here:

* **side**: one team of :meth:`Rules.teams <canasta.core.rules.Rules.teams>`, i.e. the seats
  that score together (4 players: seats 0 and 2, seats 1 and 3; 2, 3 and 5 players: each seat
  alone; 6 players: two teams of three, or three pairs with ``team_size=2``). Every seat of a
  side is played by the same bot (each seat has its own instance).
* **deal**: deal number ``d`` of a run with seed ``S`` is the first hand of
  ``Match(rules, players, seed=S * 1_000_003 + d)``: one deck order (a misdeal is re-shuffled
  by :class:`~canasta.core.match.Match`), seat 0 deals, the seat after it plays first, match
  scores 0. With ``match=True`` a deal is the whole match from that seed (the match shuffles
  hand ``h`` from the seed and ``h`` only, so every play sees the same deck orders for as many
  hands as it lasts), capped at ``max_hands`` hands.
* **play**: one deal played with one assignment of the two bots to the sides
  (:func:`seatings`). With two sides (2 or 4 players, 6 in two teams) the plays are *a* on side
  0 and *b* on side 1, then swapped. With ``k`` > 2 sides (3 or 5 players, 6 in three pairs)
  they are, for each side ``j``: *a* alone on side ``j`` and *b* on every other side, then *b*
  alone on side ``j`` and *a* on the others: ``2k`` plays (6 for three sides, 10 for five),
  in which each bot holds each side as often as the other and each role (alone / with
  others) on each side once.
* **deal pair**: all the plays of one deal for one pair of bots (two plays with two sides, the
  name of the usual case). Its result is *a*'s **score difference**: summed over its plays, the
  mean score of *a*'s sides minus the mean score of *b*'s sides (the side's hand total, or its
  final match score with ``match=True``). The deal pair is won by *a* when that sum is
  positive, by *b* when negative, and tied at exactly 0 (exact fractions, no rounding).

Determinism: the bot of seat ``s`` in deal ``d`` is ``make_bot(spec, bot_seed(deal_seed, s))``,
a fresh instance per play, seeded by the deal and the seat and not by which bot sits there. So
a deal pair depends only on (rules, players, bots, seed, deal number), never on the order or
the process it runs in; and a deterministic bot against itself ties every deal pair exactly.

Standard library only (the bots aside); :mod:`canasta.sim.tournament` runs many deal pairs.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from canasta.bots import Bot, make_bot
from canasta.core.match import Match
from canasta.core.rules import Rules

__all__ = [
    "DuplicateSetup", "PlayResult", "PairResult", "seatings", "deal_seed", "bot_seed",
    "play_deal_pair", "run_deal_pairs", "score_difference",
]

#: ``0`` stands for bot *a*, ``1`` for bot *b* in a seating (one entry per side).
Seating = tuple[int, ...]


@dataclass(frozen=True)
class DuplicateSetup:
    """What every deal pair of a run shares.

    Attributes:
        rules: the rule set (a preset with its options applied).
        players: number of players (one of ``rules.deal.player_counts``).
        seed: the run's seed; deal ``d`` is shuffled from ``deal_seed(seed, d)``.
        team_size: players per team (6 players: 3 or 2), as in ``Rules.teams``.
        match: False: a deal is one hand; True: a whole match (see the module docstring).
        max_actions: a hand longer than this raises (a bot that cannot end a hand).
        max_hands: with ``match``: a match still undecided after this many hands ends there,
            scored as it stands.
        clock: time every decision with a choice (more than one legal action) into
            :attr:`PlayResult.times` (benchmarks; wall-clock seconds, so not reproducible).
        luck: measure the luck of the stock draws into :attr:`PlayResult.luck`
            (:mod:`canasta.sim.luck`; needs numpy and a learned value for the rules).
    """

    rules: Rules
    players: int = 4
    seed: int = 0
    team_size: int | None = None
    match: bool = False
    max_actions: int = 20_000
    max_hands: int = 60
    clock: bool = False
    luck: bool = False

    def check(self) -> None:
        """Raises ValueError for a player count the rules do not allow, a bad team size or
        bad limits."""
        if self.players not in self.rules.deal.player_counts:
            raise ValueError(f"{self.rules.name} is played by "
                             f"{', '.join(map(str, self.rules.deal.player_counts))} players, "
                             f"not {self.players}")
        self.rules.teams(self.players, self.team_size)  # RulesError (a ValueError) if bad
        if self.max_actions < 1 or self.max_hands < 1:
            raise ValueError("max_actions and max_hands must be 1 or more")

    @property
    def sides(self) -> int:
        return len(self.rules.teams(self.players, self.team_size))


@dataclass(frozen=True)
class PlayResult:
    """One play of a deal.

    Attributes:
        seating: per side, 0 for bot *a* and 1 for bot *b*.
        scores: per side, the hand total (one hand) or the final match score (``match``).
        deck: the deck order of the first hand, top card first (equal in every play of a deal).
        hands: hands played (1 unless ``match``).
        actions: actions applied over those hands.
        diff: mean score of *a*'s sides minus mean score of *b*'s sides (exact).
        times: with ``DuplicateSetup.clock``: seconds of each decision with a choice, of
            bot *a* and of bot *b* (empty otherwise; not compared).
        luck: with ``DuplicateSetup.luck``: per side, the summed luck of its stock draws in
            points (:mod:`canasta.sim.luck`; empty otherwise; not compared).
    """

    seating: Seating
    scores: tuple[int, ...]
    deck: tuple[int, ...]
    hands: int
    actions: int
    diff: Fraction
    times: tuple[tuple[float, ...], tuple[float, ...]] = field(default=((), ()),
                                                               compare=False)
    luck: tuple[float, ...] = field(default=(), compare=False)

    def luck_diff(self) -> float:
        """Mean luck of *a*'s sides less that of *b*'s (as :attr:`diff`; 0 without luck)."""
        if not self.luck:
            return 0.0
        mine = [v for v, who in zip(self.luck, self.seating, strict=True) if who == 0]
        theirs = [v for v, who in zip(self.luck, self.seating, strict=True) if who == 1]
        return sum(mine) / len(mine) - sum(theirs) / len(theirs)


@dataclass(frozen=True)
class PairResult:
    """One deal pair of bots *a* and *b*: its plays and who won it.

    Attributes:
        deal: the deal number.
        a, b: the bot specs.
        plays: one :class:`PlayResult` per seating, in the order of :func:`seatings`.
    """

    deal: int
    a: str
    b: str
    plays: tuple[PlayResult, ...]

    @property
    def diff(self) -> Fraction:
        """*a*'s score difference summed over the plays (positive: *a* did better)."""
        return sum((p.diff for p in self.plays), Fraction(0))

    @property
    def winner(self) -> Literal["a", "b"] | None:
        """``"a"``, ``"b"``, or None for an exact tie."""
        d = self.diff
        return "a" if d > 0 else "b" if d < 0 else None

    @property
    def hands(self) -> int:
        return sum(p.hands for p in self.plays)

    @property
    def luck(self) -> float:
        """*a*'s luck of the draws less *b*'s, summed over the plays (points; 0 unless
        played with ``DuplicateSetup.luck``)."""
        return sum(p.luck_diff() for p in self.plays)

    def times(self, bot: Literal["a", "b"]) -> list[float]:
        """Seconds of each decision with a choice of ``bot`` over the plays (needs
        ``DuplicateSetup.clock``; empty otherwise)."""
        k = 0 if bot == "a" else 1
        return [x for p in self.plays for x in p.times[k]]


def seatings(sides: int) -> list[Seating]:
    """The plays of one deal pair for ``sides`` sides: per play, 0 (bot *a*) or 1 (bot *b*)
    per side (see the module docstring).

    >>> seatings(2)
    [(0, 1), (1, 0)]
    >>> seatings(3)
    [(0, 1, 1), (1, 0, 1), (1, 1, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]

    Raises:
        ValueError: fewer than two sides.
    """
    if sides < 2:
        raise ValueError(f"duplicate play needs at least two sides, not {sides}")
    out: list[Seating] = []
    for alone in (0, 1):
        for j in range(sides):
            seating = tuple(alone if s == j else 1 - alone for s in range(sides))
            if seating not in out:  # with two sides the second half repeats the first
                out.append(seating)
    return out


def deal_seed(seed: int, deal: int) -> int:
    """The match seed of deal number ``deal`` of a run with seed ``seed``."""
    return seed * 1_000_003 + deal


def bot_seed(seed_of_deal: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in the deal with seed ``seed_of_deal`` (whichever bot
    sits there)."""
    return seed_of_deal * 64 + seat


def score_difference(scores: tuple[int, ...] | list[int], seating: Seating) -> Fraction:
    """One play's score difference: the mean score of *a*'s sides (``seating[t] == 0``) minus
    the mean score of *b*'s sides, exact (``scores``: per side, as :attr:`PlayResult.scores`).

    >>> score_difference((120, 40), (1, 0))
    Fraction(-80, 1)

    Raises:
        ValueError: ``scores`` and ``seating`` differ in length, or a bot holds no side.
    """
    if len(scores) != len(seating):
        raise ValueError(f"{len(scores)} scores for {len(seating)} sides")
    mine = [scores[t] for t in range(len(seating)) if seating[t] == 0]
    theirs = [scores[t] for t in range(len(seating)) if seating[t] == 1]
    if not mine or not theirs:
        raise ValueError(f"seating {seating}: each bot needs a side")
    return Fraction(sum(mine), len(mine)) - Fraction(sum(theirs), len(theirs))


def _play(setup: DuplicateSetup, specs: tuple[str, str], seating: Seating,
          seed_of_deal: int) -> PlayResult:
    match = Match(setup.rules, setup.players, seed=seed_of_deal, team_size=setup.team_size)
    teams = match.teams
    side_of = [0] * setup.players  # per seat: 0 for bot a, 1 for bot b
    for t, seats in enumerate(teams):
        for s in seats:
            side_of[s] = seating[t]
    bots: list[Bot] = [make_bot(specs[side_of[s]], bot_seed(seed_of_deal, s))
                       for s in range(setup.players)]
    times: tuple[list[float], list[float]] = ([], [])
    deck = match.state.deck
    totals = [0] * len(teams)
    hands = actions = 0
    meter = None
    if setup.luck:
        from canasta.sim.luck import LuckMeter

        meter = LuckMeter(match.state, seed_of_deal * 8 + seating.index(0))
    while True:
        state = match.state
        for s, bot in enumerate(bots):
            reset = getattr(bot, "reset", None)
            if reset is not None:
                reset(s)
        n = 0
        while not state.is_over:
            if n >= setup.max_actions:
                raise RuntimeError(f"hand {hands + 1} did not end in {setup.max_actions} "
                                   "actions")
            actor = state.actor
            view = state.view(actor)
            if setup.clock and len(view.legal_actions) > 1:
                start = time.perf_counter()
                action = bots[actor].choose(view)
                times[side_of[actor]].append(time.perf_counter() - start)
            else:
                action = bots[actor].choose(view)
            # state.apply, not match.apply: the match's text record of actions is not needed.
            if meter is not None:
                meter.before(state, action)
            state.apply(action)
            if meter is not None:
                meter.after(state)
            n += 1
        actions += n
        hands += 1
        for sheet in match.finish_hand():
            totals[sheet.team] += sheet.hand_total
        if not setup.match or match.winner is not None or hands >= setup.max_hands:
            break
        match.next_hand()
    scores = tuple(match.scores) if setup.match else tuple(totals)
    diff = score_difference(scores, seating)
    return PlayResult(seating, scores, deck, hands, actions, diff,
                      (tuple(times[0]), tuple(times[1])),
                      tuple(meter.totals) if meter is not None else ())


def play_deal_pair(setup: DuplicateSetup, a: str, b: str, deal: int) -> PairResult:
    """Play deal number ``deal`` once per seating of :func:`seatings` between bot specs ``a``
    and ``b`` (``make_bot`` specs such as ``"greedy"``).

    Raises:
        ValueError: an unknown bot spec (from ``make_bot``), a bad setup.
        RuntimeError: a hand longer than ``setup.max_actions`` actions.
        IllegalActionError: a bot chose an illegal action.
    """
    seed_of_deal = deal_seed(setup.seed, deal)
    plays = tuple(_play(setup, (a, b), s, seed_of_deal) for s in seatings(setup.sides))
    return PairResult(deal, a, b, plays)


def run_deal_pairs(setup: DuplicateSetup, a: str, b: str, deals: int,
                   first: int = 0) -> list[PairResult]:
    """Deal pairs ``first .. first + deals - 1`` between ``a`` and ``b``, in this process
    (:mod:`canasta.sim.tournament` spreads them over processes or Ray).

    Raises:
        ValueError: ``deals`` < 1, an unknown bot, a bad setup.
    """
    if deals < 1:
        raise ValueError(f"deals: play at least one deal pair, not {deals}")
    setup.check()
    make_bot(a, 0)
    make_bot(b, 0)
    return [play_deal_pair(setup, a, b, d) for d in range(first, first + deals)]
