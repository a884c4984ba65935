"""The review of a hand: every decision of one seat, valued by the expert's search, and the
hand's result split into the luck of the cards and the play.

For each decision of the reviewed seat with more than one legal move, the position before the
move (seen from the seat's :class:`~canasta.core.view.View`: the search deals the cards it
cannot see with ``view.sample_state``) is searched as the ``expert`` bot searches it
(:mod:`canasta.bots.expert`: its candidates, ``hard`` play-outs cut after two rounds, the
leaf value ``evaluate``), with the move actually played always among the candidates and never
dropped. Every candidate plays on the same sampled deals (common random numbers), so each
move's *lead* over the played move is a paired mean with a standard error.

* ``points`` of a move: its mean value over the deals, points of the hand for the seat's side
  minus the best other side (the expert's unit);
* ``win``: the mean chance that the side wins the match at the play-outs' end, from the
  learned value's match-win head (:func:`canasta.bots.learn.value.win_chance`; exact where a
  play-out ends the match); None where no model exists ("not estimated");
* the *loss* of the decision: the largest lead of another move over the played one less
  :data:`LOSS_CONFIDENCE` standard errors of that lead (widened for a handful of deals as
  Student's t widens, :func:`~canasta.bots.expert.t_factor`), and never below 0 (a cautious
  estimate: a lead within the noise of a few sampled deals is no loss);
* the *mark*: ``inaccuracy`` from :data:`INACCURACY` points of loss, ``mistake`` from
  :data:`MISTAKE`, ``blunder`` from :data:`BLUNDER` (docs/bots.md, "Reviewing a hand").

The hand's *account* (:class:`~canasta.sim.account.HandAccount`) splits its result for the
seat's side into the luck of the deal, the luck of the draws from the stock, and the play of
the side and of the others (:mod:`canasta.sim.account`).

Reproducible for ``iterations`` (the seed fixes every deal and play-out of every decision,
each decision's seed derived from the run's seed, the hand and the action); a time
``budget`` plays as many deals as the machine allows.
"""

from __future__ import annotations

import math
import random
import time as _time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from canasta.bots.expert import (
    DEFAULT_DEPTH,
    DEFAULT_PLAYOUT,
    DEFAULT_WIDTH,
    DEFAULT_Z,
    MIN_ROUNDS,
    Arm,
    Searcher,
    candidates,
    evaluate_leaf,
    t_factor,
)
from canasta.bots.hints import Reason, reasons_for
from canasta.bots.registry import make_bot
from canasta.core.actions import Action, ActionParseError, action_to_json, parse_action
from canasta.core.match import decide_winner
from canasta.core.state import State, View
from canasta.formats.records import RecordError, replay_steps
from canasta.sim.account import HandAccount, Ledger

__all__ = [
    "BLUNDER", "DEFAULT_BUDGET", "INACCURACY", "LOSS_CONFIDENCE", "MARKS", "MISTAKE",
    "Analyst", "Decision", "HandAccount", "HandReview", "MoveValue", "Pending", "Plan", "Review",
    "mark_of",
    "plan_review", "review_record", "review_to_json",
]

#: Loss (points of the hand) from which a decision is an inaccuracy, a mistake, a blunder.
INACCURACY = 50.0
MISTAKE = 150.0
BLUNDER = 400.0
#: The marks, worst first, with the loss from which each applies.
MARKS: tuple[tuple[str, float], ...] = (
    ("blunder", BLUNDER), ("mistake", MISTAKE), ("inaccuracy", INACCURACY))
#: Standard errors taken off a lead before it counts as a loss.
LOSS_CONFIDENCE = 1.0
#: Seconds of search per decision by default (a 4-player hand has about 15 decisions with a
#: choice per seat, a 2-player hand about 35).
DEFAULT_BUDGET = 1.0
#: Moves shown per decision.
SHOWN = 3


def mark_of(loss: float) -> str | None:
    """The mark of a loss in points: ``blunder``, ``mistake``, ``inaccuracy`` or None."""
    for name, threshold in MARKS:
        if loss >= threshold:
            return name
    return None


@dataclass(frozen=True)
class MoveValue:
    """One move as the search valued it.

    Attributes:
        action: the move.
        points: mean value over the deals it played (points of the hand, the seat's side minus
            the best other side); None when it was not searched.
        lead: mean paired difference to the played move over the deals both played (0 for
            the played move itself).
        error: standard error of ``lead`` (inf with fewer than two deals; 0 for the played
            move).
        win: mean chance (0..1) that the side wins the match; None where not estimated.
        deals: sampled deals it played.
        reasons: what the move does, read from the seat's view
            (:func:`canasta.bots.hints.reasons_for`: ``hint.reason.<key>`` in the catalogues).
    """

    action: Action
    points: float | None
    lead: float
    error: float
    win: float | None
    deals: int
    reasons: tuple[Reason, ...] = ()


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed seat (see the module docstring).

    Attributes:
        hand: the hand (0 = the first of the record).
        index: the action's place in the hand (0 = its first action).
        seat: the seat that decided.
        legal: how many legal moves it had.
        played: the move played, valued.
        best: the best moves by ``points``, best first (at most :data:`SHOWN`; the played
            move among them when it is one of the best).
        rank: the played move's place among the moves searched (1: the best), by points.
        moves: how many moves were searched (the candidates and the played move).
        loss: points lost against the best move, cautious (module docstring), >= 0.
        mark: :func:`mark_of` the loss.
        deals: sampled deals the search played (0: a single candidate, not searched).
        state: the position before the move (for "play on from here").
    """

    hand: int
    index: int
    seat: int
    legal: int
    played: MoveValue
    best: tuple[MoveValue, ...]
    rank: int
    moves: int
    loss: float
    mark: str | None
    deals: int
    state: State = field(repr=False, compare=False)


@dataclass(frozen=True)
class HandReview:
    """The review of one hand: the seat's decisions and the account."""

    hand: int
    seat: int
    decisions: tuple[Decision, ...]
    account: HandAccount

    @property
    def loss(self) -> float:
        """The decisions' losses summed (points)."""
        return sum(d.loss for d in self.decisions)

    def marks(self) -> dict[str, int]:
        """How many decisions got each mark (every mark named, 0 where none)."""
        out = {name: 0 for name, _ in MARKS}
        for d in self.decisions:
            if d.mark is not None:
                out[d.mark] += 1
        return out


@dataclass(frozen=True)
class Review:
    """The review of a record for one seat."""

    source: str
    variant: str
    players: int
    seat: int
    names: tuple[str, ...]
    hands: tuple[HandReview, ...]
    budget: float | None
    iterations: int | None
    seed: int
    win_estimated: bool


# -- the first pass: the decisions to search and the hands' accounts -------------------------

@dataclass
class Pending:
    """A decision to search: where it is, the position before it and the move played."""

    hand: int
    index: int
    seat: int
    state: State
    played: Action


@dataclass
class Plan:
    """What :func:`plan_review` found: the decisions to search, in order, and per hand the
    account (the search is :func:`review_record`'s second pass)."""

    variant: str
    players: int
    names: tuple[str, ...]
    pending: list[Pending]
    accounts: dict[int, HandAccount]


def _played(view: View, text: str) -> Action:
    """The legal action of ``view`` the record's ``text`` names."""
    action = parse_action(text)
    legal = view.legal_actions
    if action in legal:
        return next(a for a in legal if a == action)
    for a in legal:
        if a.text() == action.text():
            return a
    return action


def plan_review(data: Any, source: str, seat: int, hands: Sequence[int] | None = None,
                seed: int = 0) -> Plan:
    """Replay a record: the decisions of ``seat`` with a choice in the hands ``hands``
    (0-based; None: every hand) and each such hand's :class:`HandAccount`.

    Raises:
        RecordError: a bad record (naming ``source`` and the place), a seat or hand the
            record does not have.
    """
    if not isinstance(data, dict):
        raise RecordError(source, "$", "expected a canasta-record object")
    players = data.get("players")
    if not isinstance(players, int) or not 0 <= seat < players:
        raise RecordError(source, "$.players", f"a seat of the record (0 to "
                                               f"{players - 1 if isinstance(players, int) else '?'}"
                                               f"), not {seat}")
    raw_hands = data.get("hands")
    count = len(raw_hands) if isinstance(raw_hands, list) else 0
    wanted = set(range(count)) if hands is None else set(hands)
    for h in sorted(wanted):
        if not 0 <= h < count:
            raise RecordError(source, "$.hands", f"no hand {h + 1}: the record has {count}")
    pending: list[Pending] = []
    accounts: dict[int, HandAccount] = {}
    ledger: Ledger | None = None
    current = -1
    variant = ""
    names: tuple[str, ...] = ()
    for step in replay_steps(data, source):
        state = step.match.state
        if not names:
            variant = state.rules.name
            raw = data.get("names")
            names = (tuple(str(n) for n in raw) if isinstance(raw, list) and len(raw) == players
                     else tuple(f"seat {i}" for i in range(players)))
        if step.hand != current:
            if ledger is not None:
                accounts[current] = ledger.account()
            current = step.hand
            ledger = Ledger(state, seat, _derive(seed, step.hand, -1)) \
                if step.hand in wanted else None
        elif ledger is not None:
            ledger.after(state)
        if ledger is None or state.is_over:
            continue
        actions = raw_hands[step.hand]["actions"]  # type: ignore[index]
        nxt = step.action + 1
        if nxt >= len(actions):
            continue
        try:
            action = parse_action(actions[nxt][1])
        except ActionParseError:
            continue  # replay_steps refuses it at the next step, naming the place
        if state.actor == seat:
            view = state.view(seat)
            if len(view.legal_actions) > 1:
                pending.append(Pending(step.hand, nxt, seat, state.clone(),
                                        _played(view, actions[nxt][1])))
        ledger.before(state, action)
    if ledger is not None:
        accounts[current] = ledger.account()
    return Plan(variant, players, names, pending, accounts)


def _derive(seed: int, hand: int, index: int) -> int:
    """A decision's seed from the run's seed, the hand and the action (str seeding of
    ``random.Random`` is stable across runs and platforms)."""
    return random.Random(f"review:{seed}:{hand}:{index}").getrandbits(63)


# -- the second pass: the search of each decision ------------------------------------------

class _WinLeaf:
    """The search's leaf value, noting the match-win chance of each leaf on the side."""

    def __init__(self, win: Callable[[State, int], float] | None) -> None:
        self.win = win
        self.last: float | None = None

    def __call__(self, state: State, seat: int) -> float:
        self.last = None if self.win is None else self._win(state, seat)
        return evaluate_leaf(state, seat)

    def _win(self, state: State, seat: int) -> float:
        assert self.win is not None
        if state.is_over:
            sheets = state.score()
            scores = [s.score_after for s in sorted(sheets, key=lambda s: s.team)]
            out = state.team_of[state.went_out] if state.went_out is not None else None
            winner = decide_winner(state.rules, state.players, scores, out)
            if winner is not None:
                return 1.0 if winner == state.team_of[seat] else 0.0
        return self.win(state, seat)


def _win_function(state: State) -> Callable[[State, int], float] | None:
    try:
        from canasta.bots.learn.value import model_for, win_chance
    except ImportError:
        return None
    model = model_for(state.rules, state.players)
    return win_chance if model is not None and model.has_win else None


def _paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of ``a[i] - b[i]`` over the deals both played (a prefix:
    arms are only ever dropped)."""
    n = min(len(a), len(b))
    if n == 0:
        return 0.0, math.inf
    diffs = [a[i] - b[i] for i in range(n)]
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


class Analyst:
    """Searches one decision with the played move among the candidates (module docstring).

    Args:
        playout: the play-out bot's spec (the expert's, ``hard``).
        depth, width, z: as :class:`~canasta.bots.expert.Searcher` (the expert's defaults).
    """

    def __init__(self, playout: str = DEFAULT_PLAYOUT, depth: int = DEFAULT_DEPTH,
                 width: int = DEFAULT_WIDTH, z: float = DEFAULT_Z) -> None:
        self.playout = playout
        self.width = width
        self.z = z
        self.depth = depth

    def decide(self, pending: Pending, seed: int, *, time: float | None,
               iterations: int | None) -> Decision:
        state = pending.state
        view = state.view(pending.seat)
        leaf = _WinLeaf(_win_function(state))
        searcher = Searcher(lambda s: make_bot(self.playout, s), self.depth, self.width,
                            self.z, leaf=leaf)
        baseline = searcher.baseline(seed).choose(view)
        if baseline not in view.legal_actions:
            baseline = view.legal_actions[0]
        moves = candidates(view, baseline, self.width)
        played = pending.played
        if played not in moves:
            moves.append(played)
        arms = [Arm(a) for a in moves]
        wins: dict[int, list[float]] = {i: [] for i in range(len(arms))}
        ref = moves.index(played)
        rounds = 0
        if len(arms) > 1:
            rounds = self._search(view, arms, wins, ref, searcher, leaf, seed, time, iterations)
        return self._decision(pending, view, arms, wins, ref, rounds)

    def _search(self, view: View, arms: list[Arm], wins: dict[int, list[float]], ref: int,
                searcher: Searcher, leaf: _WinLeaf, seed: int, time: float | None,
                iterations: int | None) -> int:
        start = _time.perf_counter()
        deadline = start + time if time is not None else math.inf
        rng = random.Random(seed)
        rounds = 0
        while iterations is None or rounds < iterations:
            deal_seed = rng.getrandbits(63)
            try:
                sample = view.sample_state(random.Random(deal_seed))
            except ValueError:  # a view no deal fits (never seen)
                break
            out: list[tuple[int, float, float | None]] = []
            for i, arm in enumerate(arms):
                if not arm.alive:
                    continue
                v = searcher.playout(sample, arm.action, view.team, deal_seed, view.seat)
                out.append((i, v, leaf.last))
                if rounds and _time.perf_counter() > deadline:
                    out = []  # a round cut short is dropped: arms compare on equal deals
                    break
            if not out:
                break
            for i, v, w in out:
                arms[i].values.append(v)
                if w is not None:
                    wins[i].append(w)
            rounds += 1
            if rounds >= MIN_ROUNDS:
                self._eliminate(arms, ref)
            if _time.perf_counter() > deadline:
                break
        return rounds

    def _eliminate(self, arms: list[Arm], ref: int) -> None:
        """Drop the moves behind the leader by ``z`` standard errors, but never the played
        move nor the best :data:`SHOWN`."""
        alive = sorted((i for i, a in enumerate(arms) if a.alive), key=lambda i: -arms[i].mean)
        leader = arms[alive[0]]
        for i in alive[SHOWN:]:
            if i == ref:
                continue
            mean, se = _paired(arms[i].values, leader.values)
            if mean + self.z * se < 0:
                arms[i].alive = False

    def _decision(self, pending: Pending, view: View, arms: list[Arm],
                  wins: dict[int, list[float]], ref: int, rounds: int) -> Decision:
        played_values = arms[ref].values

        def valued(i: int) -> MoveValue:
            arm = arms[i]
            why = reasons_for(view, arm.action)
            if not arm.values:
                return MoveValue(arm.action, None, 0.0, 0.0 if i == ref else math.inf, None, 0,
                                 why)
            lead, err = (0.0, 0.0) if i == ref else _paired(arm.values, played_values)
            w = wins[i]
            return MoveValue(arm.action, arm.mean, lead, err,
                             sum(w) / len(w) if w and len(w) == len(arm.values) else None,
                             len(arm.values), why)

        values = [valued(i) for i in range(len(arms))]
        # Survivors (every deal played) first by points, then the dropped ones; among equal
        # points the played move first (a move the search cannot tell from it is no better).
        def key(i: int) -> tuple[bool, float, bool, int]:
            points = values[i].points
            return (not arms[i].alive, -points if points is not None else math.inf,
                    i != ref, i)

        order = sorted(range(len(arms)), key=key)
        loss = 0.0
        for i, mv in enumerate(values):
            if i != ref and mv.deals and math.isfinite(mv.error):
                loss = max(loss, mv.lead - LOSS_CONFIDENCE * t_factor(mv.deals) * mv.error)
        loss = round(loss, 1)
        return Decision(pending.hand, pending.index, pending.seat, len(view.legal_actions),
                        values[ref], tuple(values[i] for i in order[:SHOWN]),
                        order.index(ref) + 1, len(arms), loss, mark_of(loss), rounds,
                        pending.state)


Progress = Callable[[int, int], None]


def review_record(data: Any, source: str, seat: int, *, hands: Sequence[int] | None = None,
                  budget: float | None = DEFAULT_BUDGET, iterations: int | None = None,
                  seed: int = 0, analyst: Analyst | None = None,
                  progress: Progress | None = None) -> Review:
    """Review the decisions of ``seat`` in a record (module docstring).

    Args:
        data, source: the record's JSON data and its name for errors.
        seat: the seat reviewed.
        hands: the hands to review (0-based); None: every hand.
        budget: seconds of search per decision (ignored when ``iterations`` is given).
        iterations: sampled deals per decision instead (reproducible).
        seed: seeds every decision's deals and play-outs.
        analyst: the search's settings (default the expert's).
        progress: called as ``progress(done, total)`` after each decision (and once with 0
            before the first).

    Raises:
        RecordError: a bad record, seat or hand. ValueError: a budget that is not positive.
    """
    if iterations is None and (budget is None or not budget > 0):
        raise ValueError(f"review: the budget must be a positive number of seconds, got {budget}")
    if iterations is not None and iterations < 1:
        raise ValueError(f"review: iterations must be at least 1, got {iterations}")
    plan = plan_review(data, source, seat, hands, seed)
    analyst = analyst or Analyst()
    total = len(plan.pending)
    if progress is not None:
        progress(0, total)
    decided: dict[int, list[Decision]] = {h: [] for h in plan.accounts}
    for k, p in enumerate(plan.pending):
        d = analyst.decide(p, _derive(seed, p.hand, p.index),
                           time=None if iterations is not None else budget,
                           iterations=iterations)
        decided.setdefault(p.hand, []).append(d)
        if progress is not None:
            progress(k + 1, total)
    reviews = tuple(HandReview(h, seat, tuple(decided.get(h, [])), plan.accounts[h])
                    for h in sorted(plan.accounts))
    first = plan.pending[0].state if plan.pending else None
    win = first is not None and _win_function(first) is not None
    return Review(source, plan.variant, plan.players, seat, plan.names, reviews,
                  None if iterations is not None else budget, iterations, seed, win)


# -- as data ---------------------------------------------------------------------------------

def _num(x: float | None) -> float | None:
    return None if x is None or not math.isfinite(x) else round(x, 1)


def _move_json(mv: MoveValue) -> dict[str, Any]:
    return {"action": mv.action.text(), "action_json": action_to_json(mv.action),
            "points": _num(mv.points), "lead": _num(mv.lead), "error": _num(mv.error),
            "win": None if mv.win is None else round(mv.win, 4), "deals": mv.deals,
            "reasons": [{"key": r.key, "params": r.params} for r in mv.reasons]}


def review_to_json(review: Review) -> dict[str, Any]:
    """The review as plain JSON data (docs/bots.md, "Reviewing a hand"); numbers in points
    rounded to a tenth, chances to 1e-4, an unknown number null."""
    return {
        "format": "canasta-review",
        "version": 1,
        "source": review.source,
        "variant": review.variant,
        "players": review.players,
        "seat": review.seat,
        "names": list(review.names),
        "settings": {"budget": review.budget, "iterations": review.iterations,
                     "seed": review.seed, "playout": DEFAULT_PLAYOUT,
                     "loss_confidence": LOSS_CONFIDENCE},
        "thresholds": {name: threshold for name, threshold in MARKS},
        "win_estimated": review.win_estimated,
        "hands": [{
            "hand": h.hand + 1,
            "loss": _num(h.loss),
            "marks": h.marks(),
            "account": {"result": _num(h.account.result), "luck": _num(h.account.luck),
                        "deal": _num(h.account.deal), "draws": _num(h.account.draws),
                        "play": _num(h.account.play), "side": _num(h.account.side),
                        "others": _num(h.account.others), "finished": h.account.finished,
                        "value": h.account.value},
            "decisions": [{
                "action": d.index + 1,
                "turn": d.state.turn,
                "legal": d.legal,
                "played": _move_json(d.played),
                "best": [_move_json(m) for m in d.best],
                "rank": d.rank,
                "moves": d.moves,
                "loss": d.loss,
                "mark": d.mark,
                "deals": d.deals,
            } for d in h.decisions],
        } for h in review.hands],
    }
