"""Simulations: many hands between bots, summed up in a :class:`SimStats`.

The hands are the successive hands of matches: a match is played hand after hand (the opening
minimum rising with the score, the deal rotating) until a side wins, then a new match starts,
until ``hands`` hands have been played. The last match is usually left unfinished. A run is
reproducible: match ``k`` is shuffled from ``seed * 1_000_003 + k`` and each bot is seeded
from the run's seed and its seat; with ``seed=None`` a seed is drawn and reported in
``SimStats.seed``.

A hand that raises (a bot choosing an illegal action, an engine error) or runs past
``max_actions`` is counted in ``errors`` with its message, and its match is abandoned.

Standard library only: the ``canasta simulate`` command draws the progress bar and the table.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from canasta.bots import Bot, make_bot, split_specs
from canasta.core.events import EndReason
from canasta.core.match import Match
from canasta.core.rules import Rules
from canasta.core.state import Phase

__all__ = ["SimStats", "simulate", "parse_bots"]

END_REASONS: tuple[str, ...] = tuple(EndReason)


@dataclass
class SimStats:
    """What a simulation measured. Per-team lists are indexed by team number; ``teams[t]``
    lists team ``t``'s seats and ``bots[seat]`` the bot of each seat.

    Attributes:
        hands: hands asked for.
        hands_played: hands that ended normally (``hands - errors``).
        hand_wins: hands each team won outright (higher hand score than every other team).
        hand_ties: hands where the best hand score was shared.
        total_scores: sum of each team's hand scores over the hands played.
        actions / turns: actions and turns over the hands played (a turn starts with a draw,
            a pile take or ending the hand).
        canastas: canastas each team had at the end of its hands.
        end_reasons: how the hands ended (``state.end_reason``), e.g. ``went_out``.
        went_out_concealed: hands ended by a concealed going out.
        matches_finished / match_wins: matches played to a winner, and wins per team.
        errors / error_messages: hands that failed (the first messages are kept).
        seconds: wall-clock time of the run.
        interrupted: the run was stopped (Ctrl-C) before ``hands`` hands; the figures count
            the hands played until then.
    """

    variant: str
    players: int
    bots: list[str]
    teams: list[list[int]]
    seed: int
    hands: int
    hands_played: int = 0
    hand_wins: list[int] = field(default_factory=list)
    hand_ties: int = 0
    total_scores: list[int] = field(default_factory=list)
    actions: int = 0
    turns: int = 0
    canastas: list[int] = field(default_factory=list)
    end_reasons: dict[str, int] = field(default_factory=dict)
    went_out_concealed: int = 0
    matches_finished: int = 0
    match_wins: list[int] = field(default_factory=list)
    errors: int = 0
    error_messages: list[str] = field(default_factory=list)
    seconds: float = 0.0
    interrupted: bool = False

    def _per_hand(self, total: float) -> float:
        return total / self.hands_played if self.hands_played else 0.0

    @property
    def mean_scores(self) -> list[float]:
        """Mean hand score of each team."""
        return [self._per_hand(s) for s in self.total_scores]

    @property
    def mean_actions(self) -> float:
        return self._per_hand(self.actions)

    @property
    def mean_turns(self) -> float:
        return self._per_hand(self.turns)

    @property
    def canastas_per_hand(self) -> float:
        """Canastas per hand, all teams together."""
        return self._per_hand(sum(self.canastas))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data, the derived means included."""
        out = asdict(self)
        out["mean_scores"] = self.mean_scores
        out["mean_actions"] = self.mean_actions
        out["mean_turns"] = self.mean_turns
        out["canastas_per_hand"] = self.canastas_per_hand
        return out


def parse_bots(spec: str | Sequence[str], players: int) -> list[str]:
    """Bot specs per seat from ``"greedy,random,..."`` (split by
    :func:`canasta.bots.split_specs`: ``expert:time=0.5,width=4,greedy`` is two); one spec
    means every seat.

    Raises:
        ValueError: the wrong number of names or an unknown bot.
    """
    names = split_specs(spec) if isinstance(spec, str) else [b.strip() for b in spec if b.strip()]
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise ValueError(f"bots: expected 1 or {players} names (one per seat), got {len(names)}")
    for name in names:
        make_bot(name)
    return [n.lower() for n in names]


def simulate(
    rules: Rules,
    hands: int,
    bots: str | Sequence[str],
    *,
    players: int = 4,
    seed: int | None = None,
    team_size: int | None = None,
    max_actions: int = 20_000,
    progress: Callable[[int], None] | None = None,
    stop: Callable[[], bool] | None = None,
) -> SimStats:
    """Play ``hands`` hands between bots and sum them up (see the module docstring).

    Args:
        rules: the rule set.
        hands: number of hands to play.
        bots: bot names per seat (``"greedy,random,greedy,random"``) or one for all.
        players: number of players.
        seed: seed of the run; None draws one (reported in the result).
        team_size: players per team (6 players).
        max_actions: a hand longer than this counts as an error.
        progress: called with the number of hands done after each hand.
        stop: asked before each hand; once it returns True the run ends there, its figures
            those of the hands played (``interrupted``).

    Raises:
        ValueError: bad bot names or a player count the rules do not allow.
    """
    if hands < 0:
        raise ValueError("hands: must be 0 or more")
    names = parse_bots(bots, players)
    if players not in rules.deal.player_counts:
        raise ValueError(f"{rules.name} is played by "
                         f"{', '.join(map(str, rules.deal.player_counts))} players, "
                         f"not {players}")
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    team_seats = rules.teams(players, team_size)
    n_teams = len(team_seats)
    stats = SimStats(
        variant=rules.name, players=players, bots=names,
        teams=[list(t) for t in team_seats], seed=seed, hands=hands,
        hand_wins=[0] * n_teams, total_scores=[0] * n_teams, canastas=[0] * n_teams,
        end_reasons={r: 0 for r in END_REASONS}, match_wins=[0] * n_teams,
    )
    seat_bots: list[Bot] = [make_bot(n, seed * 100 + i) for i, n in enumerate(names)]
    started = time.perf_counter()
    match_no = 0
    match: Match | None = None
    for done in range(1, hands + 1):
        if stop is not None and stop():
            stats.interrupted = True
            break
        try:
            if match is None:
                match = Match(rules, players, seed=seed * 1_000_003 + match_no,
                              team_size=team_size)
                match_no += 1
            else:
                match.next_hand()
            _play_hand(match, seat_bots, stats, max_actions)
            if match.winner is not None:
                stats.matches_finished += 1
                stats.match_wins[match.winner] += 1
                match = None
        except Exception as exc:  # a failed hand is counted, never fatal to the run
            stats.errors += 1
            if len(stats.error_messages) < 10:
                stats.error_messages.append(f"hand {done}: {type(exc).__name__}: {exc}")
            match = None
        if progress is not None:
            progress(done)
    stats.seconds = time.perf_counter() - started
    return stats


def _play_hand(match: Match, bots: list[Bot], stats: SimStats, max_actions: int) -> None:
    state = match.state
    actions = turns = 0
    while not state.is_over:
        if actions >= max_actions:
            last = "; ".join(f"seat {seat} {a.text()}" for seat, a in state.actions[-6:])
            raise RuntimeError(f"the hand did not end in {max_actions} actions (last: {last})")
        if state.phase is Phase.DRAW:
            turns += 1
        match.apply(bots[state.actor].choose(state.view(state.actor)))
        actions += 1
    sheets = match.finish_hand()
    # Count only once the hand has scored, so a failing hand leaves no partial figures.
    stats.hands_played += 1
    stats.actions += actions
    stats.turns += turns
    totals = [s.hand_total for s in sheets]
    for sheet in sheets:
        stats.total_scores[sheet.team] += sheet.hand_total
    best = max(totals)
    winners = [t for t, v in enumerate(totals) if v == best]
    if len(winners) == 1:
        stats.hand_wins[winners[0]] += 1
    else:
        stats.hand_ties += 1
    for t in range(len(stats.canastas)):
        stats.canastas[t] += state.canastas(t)
    reason = state.end_reason
    stats.end_reasons[reason] = stats.end_reasons.get(reason, 0) + 1
    if state.concealed:
        stats.went_out_concealed += 1
