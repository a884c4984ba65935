"""The ``expert`` bot: determinized Monte Carlo search over the seat's information set.

Method: *perfect-information Monte Carlo with common random numbers and paired elimination*
(flat determinized Monte Carlo, as used for Skat, Bridge and the Gin Rummy bots of the issue).
For one decision:

1. the candidate moves are the legal actions of the :class:`~canasta.core.view.View`, at most
   ``width`` of them, ranked by a cheap prior (:func:`prior`); the *baseline*, the move of the
   baseline bot (by default the playout policy) on the real view, is always among them;
2. each *round* deals the cards the seat cannot see at random with ``view.sample_state(rng)``
   (every deal consistent with what the seat knows equally likely) and plays every surviving
   candidate once on that same deal, followed by a playout of the playout policy for every
   seat with the same seeds (common random numbers: the candidates are compared on identical
   futures, which removes most of the variance of a comparison);
3. a playout stops when the hand ends or after ``depth`` more rounds of turns; the position is then
   valued by :func:`evaluate` (the seat's side minus the best other side);
4. after each round (from the :data:`MIN_ROUNDS`-th on) a candidate whose paired difference
   to the leader, or to the baseline, is below zero by more than ``z`` standard errors is
   dropped (the baseline is kept, as the reference of :func:`canasta.bots.hints.suggest`'s
   values);
5. the search stops as soon as only the baseline is left (nothing else can still beat it: the
   bot answers at once), or at the budget, ``iterations`` rounds or ``time`` seconds, both
   maxima (whichever ends first when both are given; at least one round is always played).
   The move played is the baseline unless another's advantage over it is more than
   ``confidence`` standard errors (:meth:`SearchResult.best`): with several candidates, one
   of them beats the baseline by one standard error by luck alone more often than not, so
   the default asks for two; and over a handful of deals the standard error is itself
   uncertain, so the threshold is widened as Student's t widens (:meth:`Arm.lower`).

With one legal action, or one candidate (:func:`candidates`), the bot answers without
searching.

Value unit: points of the hand, the seat's side minus the best other side (the exact hand
score when the playout reaches the end of the hand, else :func:`evaluate`). Maximising the
expected score difference of the hand is our proxy for the chance of winning the match: it
is what decides a duplicate deal pair, and the hand is the unit the search can see.

Hidden information: the bot receives only a View; ``sample_state`` deals the unseen cards, so
two states with the same view give the same choice for the same seed and iteration budget.
Reproducible for an iteration budget (the seed fixes every deal and playout); a time budget
plays as many rounds as the machine allows, so its choices depend on the machine's speed.
"""

from __future__ import annotations

import math
import random
import time as _time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from canasta.bots.outplan import spoils_opening
from canasta.bots.registry import make_bot, parse_spec
from canasta.core.actions import (
    Action,
    Answer,
    AskPartner,
    Discard,
    Draw,
    EndHand,
    LayOff,
    Meld,
    Retract,
    TakePile,
)
from canasta.core.cards import POINTS, is_black_three, is_wild, rank_of
from canasta.core.legality import IllegalActionError
from canasta.core.scoring import TeamHand, score_team
from canasta.core.state import State, View


class Policy(Protocol):
    """A playout policy: any bot (``choose(view) -> Action``)."""

    def choose(self, view: View) -> Action: ...


#: Builds the playout policy of one seat from a seed (``lambda seed: make_bot("greedy", seed)``).
PolicyFactory = Callable[[int], Policy]
#: Values a playout's last state for a seat's side, in points (``leaf(state, seat)``).
Leaf = Callable[[State, int], float]
#: The leaf values by name (the ``value`` parameter): ``evaluate`` (hand-written, below) or
#: ``learned`` (:mod:`canasta.bots.learn`, where numpy and a model for the rules exist).
VALUES = ("evaluate", "learned")

#: The playout policy by default (a bot spec of :mod:`canasta.bots.registry`).
DEFAULT_PLAYOUT = "hard"
#: Default budget per decision, seconds, when neither ``time`` nor ``iterations`` is given.
DEFAULT_TIME = 1.0
#: Rounds (each seat one turn) a playout plays past the decision's turn before it is cut and
#: valued (0: to the end of the hand).
DEFAULT_DEPTH = 2
#: Most candidate moves searched per decision (fewer candidates get more deals each in the
#: same time: the baseline and the prior's best five).
DEFAULT_WIDTH = 6
#: Standard errors below the leader at which a candidate is dropped.
DEFAULT_Z = 2.5
#: Standard errors an alternative must beat the baseline by to be played (``best``).
DEFAULT_CONFIDENCE = 2.0
#: Rounds every candidate plays before any is dropped.
MIN_ROUNDS = 6
#: Actions after which a playout stops whatever its depth (no policy can loop for ever).
MAX_PLAYOUT_ACTIONS = 600

# Evaluation of a position cut before the end of the hand (points). A card still in hand
# counts this fraction of its value against its side (it may yet be melded), and a meld
# short of a canasta earns this fraction of the mixed-canasta bonus per card it already has
# over the minimum, squared (a meld one card short is most of the way there).
HAND_WEIGHT = 0.5
PROGRESS_WEIGHT = 0.6


def evaluate(state: State, team: int) -> float:
    """Value of ``state`` for ``team``, in points: its hand score minus the best other team's.

    A finished hand gives the exact difference of the score sheets (going out, penalties
    included). A hand in progress is scored as if it ended now with nobody going out, except
    that cards in hand count :data:`HAND_WEIGHT` of their points against their side and that
    melds in progress earn part of a canasta bonus (:func:`meld_progress`).
    """
    totals: list[float]
    if state.is_over:
        totals = [float(sheet.hand_total) for sheet in state.score()]
    else:
        totals = [team_value(state, t) for t in range(len(state.teams))]
    mine = totals[team]
    others = [v for t, v in enumerate(totals) if t != team]
    return float(mine - max(others)) if others else float(mine)


def evaluate_leaf(state: State, seat: int) -> float:
    """:func:`evaluate` for ``seat``'s side (the :data:`Leaf` form)."""
    return evaluate(state, state.team_of[seat])


def learned_leaf() -> Leaf:
    """The learned value (:func:`canasta.bots.learn.value.value`) as a :data:`Leaf`, with
    :func:`evaluate` where it has no model (a rule set or player count not trained) and
    where numpy is not installed."""
    try:
        from canasta.bots.learn.value import model_for, value
    except ImportError:  # numpy absent: the hand-written evaluation
        return evaluate_leaf

    def leaf(state: State, seat: int) -> float:
        if state.is_over or model_for(state.rules, state.players) is None:
            return evaluate_leaf(state, seat)
        return value(state, seat)

    return leaf


def team_value(state: State, team: int) -> float:
    """A side's score if the hand stopped now (see :func:`evaluate`)."""
    rules = state.rules
    melds = [tuple(m) for m in state.melds[team].values() if m]
    sheet = score_team(team, TeamHand(melds=tuple(melds), red_threes=len(state.red_threes[team]),
                                      score_before=state.scores[team]), rules)
    value = float(sheet.hand_total)
    size = rules.melds.canasta_size
    value += sum(meld_progress(len(m), size, rules.scoring.mixed_canasta) for m in melds)
    in_hand = sum(POINTS[c] * n for s in state.teams[team] for c, n in enumerate(state.hands[s])
                  if n)
    factor = rules.scoring.unopened_hand_multiplier if not melds else 1
    return value - HAND_WEIGHT * factor * in_hand


def meld_progress(cards: int, size: int, bonus: int) -> float:
    """Part of a canasta bonus credited to a meld of ``cards`` cards (0 for a canasta, whose
    bonus the score sheet already counts, and for a meld at the minimum or less)."""
    if cards >= size or size <= 3:
        return 0.0
    done = max(0, cards - 2) / (size - 2)
    return PROGRESS_WEIGHT * bonus * done * done


# -- the prior: which candidates to search ---------------------------------------------------
def discard_danger(view: View, card: int) -> int:
    """How much discarding ``card`` may help the next player: 0 safe (a black three, or a
    frozen pile against a rank they have not shown), 1 possible (they hold or melded the rank,
    or the pile is open), 2 likely (they are known to hold two or more of it). Read from the
    view: the next seat's melds and the cards the table saw go into its hand."""
    if is_black_three(card) or is_wild(card):
        return 0
    nxt = (view.seat + 1) % view.players
    team = next(t for t, seats in enumerate(view.teams) if nxt in seats)
    if team == view.team:
        return 0
    rank = rank_of(card)
    known = sum(1 for c in view.known[nxt] if not is_wild(c) and rank_of(c) == rank)
    if known >= 2:
        return 2
    if known == 1 or rank in view.melds[team]:
        return 1
    return 0 if view.pile_frozen else 1


def prior(view: View, action: Action) -> float:
    """A cheap score of ``action`` used only to pick the candidates (higher first)."""
    if isinstance(action, TakePile):
        wilds = sum(1 for c in action.cards if is_wild(c))
        return 40.0 + 8.0 * view.pile_size - 25.0 * wilds
    if isinstance(action, Draw):
        return 30.0
    if isinstance(action, (Meld, LayOff)):
        wilds = sum(1 for c in action.cards if is_wild(c))
        naturals = len(action.cards) - wilds
        if any(is_black_three(c) for c in action.cards):
            return 5.0
        gain = 25.0 + 3.0 * naturals - 12.0 * wilds
        if isinstance(action, LayOff):
            before = len(view.melds[view.team].get(action.rank, ()))
            size = view.rules.melds.canasta_size
            if before < size <= before + len(action.cards):
                gain += 40.0
        return gain
    if isinstance(action, Discard):
        card = action.card
        same = sum(1 for c in view.hand if rank_of(c) == rank_of(card))
        score = 20.0 - POINTS[card] / 5 - 15.0 * discard_danger(view, card) - 4.0 * same
        if is_wild(card):
            score -= 30.0
        if is_black_three(card):
            score += 10.0
        return score
    if isinstance(action, (Answer, AskPartner, EndHand)):
        return 20.0
    if isinstance(action, Retract):
        return 0.0
    return 0.0


def candidates(view: View, baseline: Action, width: int) -> list[Action]:
    """The moves to search: ``baseline`` first, then the best of the others by :func:`prior`
    (``width`` in all; ties keep the engine's order). Asking the partner is searched only
    when it is the baseline: its worth lies in the plan to go out after a yes, which a
    playout of the policy does not carry, and it is legal at nearly every turn. A meld whose
    wild cards keep the side from opening (:func:`canasta.bots.outplan.spoils_opening`) is
    never a candidate. With no other candidate the bot answers without searching."""
    legal = list(view.legal_actions)
    others = [a for a in legal if a != baseline and not isinstance(a, AskPartner)
              and not spoils_opening(view, a)]
    others.sort(key=lambda a: -prior(view, a))
    return [baseline, *others[: max(0, width - 1)]]


# -- the search ------------------------------------------------------------------------------
@dataclass
class Arm:
    """One candidate move and its values, one per round it played (rounds it survived)."""

    action: Action
    values: list[float] = field(default_factory=list)
    #: Per value, the value of the baseline on the same deal (for paired differences).
    base: list[float] = field(default_factory=list)
    alive: bool = True

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values) if self.values else -math.inf

    @property
    def advantage(self) -> float:
        """Mean paired difference to the baseline (0 for the baseline itself)."""
        if not self.values:
            return -math.inf
        return _paired(self.values, self.base)[0]

    @property
    def stderr(self) -> float:
        """Standard error of :attr:`advantage` (inf with fewer than two values)."""
        return _paired(self.values, self.base)[1] if self.values else math.inf

    def lower(self, c: float) -> float:
        """``advantage`` less ``c`` standard errors, widened for a small number of deals as
        Student's t widens the normal quantile (``c`` at many deals; at 2 deals 6.5 times
        ``c``, at 5 deals 1.4 times): a standard error from a handful of deals is itself
        noisy, and the search often has no more (the baseline: exactly 0)."""
        if not self.values:
            return -math.inf
        mean, se = _paired(self.values, self.base)
        if mean == 0 and all(v == b for v, b in zip(self.values, self.base, strict=True)):
            return 0.0
        return mean - c * t_factor(len(self.values)) * se


@dataclass
class SearchResult:
    """What one search found: the arms (baseline first), the rounds played and the time."""

    arms: list[Arm]
    rounds: int
    seconds: float

    def best(self, confidence: float = 0.0) -> Arm:
        """The arm of highest ``advantage - confidence * se`` (ties: the earlier arm, the
        baseline first): with ``confidence`` > 0 the search leaves the playout policy's move
        only for one that is better by more than the noise of its estimate."""
        played = [a for a in self.arms if a.values]
        if not played:
            return self.arms[0]
        return max(played, key=lambda a: (a.lower(confidence), -self.arms.index(a)))


#: Student's t 97.5% quantile for 1..30 degrees of freedom.
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
         2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
         2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t_factor(n: int) -> float:
    """How much wider Student's t interval is than the normal one for a mean of ``n`` values
    (the 97.5% quantiles' ratio; 1 for many values, inf for fewer than two)."""
    if n < 2:
        return math.inf
    dof = n - 1
    t = _T975[dof - 1] if dof <= len(_T975) else 1.96 + 2.5 / dof
    return t / 1.96


def _paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of ``a - b`` over the last ``len(a)`` values of both."""
    n = len(a)
    diffs = [x - y for x, y in zip(a, b[len(b) - n:], strict=True)]
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)



class Searcher:
    """Runs the search of the module docstring for one seat's view.

    Args:
        policy: builds the playout policy of a seat from a seed.
        baseline: builds the bot whose move is the reference (default: ``policy``).
        depth: rounds of turns after the decision's turn before a playout is cut (0: to the end
            of the hand).
        width: most candidates searched.
        z: elimination threshold, in standard errors of the paired difference.
        leaf: values a playout's last state (default :func:`evaluate_leaf`).
    """

    def __init__(self, policy: PolicyFactory, depth: int = DEFAULT_DEPTH,
                 width: int = DEFAULT_WIDTH, z: float = DEFAULT_Z,
                 baseline: PolicyFactory | None = None, leaf: Leaf | None = None) -> None:
        self.policy = policy
        self.leaf = leaf or evaluate_leaf
        self.baseline = baseline or policy
        self.depth = depth
        self.width = width
        self.z = z

    def search(self, view: View, seed: int, *, time: float | None = None,
               iterations: int | None = None, keep: int = 1) -> SearchResult:
        """Search ``view``'s legal actions; ``keep`` candidates are never dropped (the best
        ``keep`` by value stay, for hints).

        Raises:
            ValueError: the view has no legal action (the seat is not to act).
        """
        start = _time.perf_counter()
        if not view.legal_actions:
            raise ValueError(f"seat {view.seat} is not to act: no legal action in its view")
        if time is None and iterations is None:
            time = DEFAULT_TIME
        baseline = self.baseline(seed).choose(view)
        if baseline not in view.legal_actions:
            baseline = view.legal_actions[0]
        arms = [Arm(a) for a in candidates(view, baseline, self.width)]
        rounds = 0
        if len(arms) == 1:
            return SearchResult(arms, rounds, _time.perf_counter() - start)
        rng = random.Random(seed)
        deadline = start + time if time is not None else math.inf
        while iterations is None or rounds < iterations:
            deal_seed = rng.getrandbits(63)
            try:
                sample = view.sample_state(random.Random(deal_seed))
            except ValueError:  # a view no deal fits (never seen): play the baseline
                break
            out: list[tuple[Arm, float]] = []
            expired = False
            for arm in arms:
                if not arm.alive:
                    continue
                out.append((arm, self.playout(sample, arm.action, view.team, deal_seed,
                                                      view.seat)))
                if rounds and _time.perf_counter() > deadline:
                    expired = True  # a round cut short is dropped: arms compare on equal deals
                    break
            if expired:
                break
            base_value = next(v for a, v in out if a is arms[0])
            for arm, value in out:
                arm.values.append(value)
                arm.base.append(base_value)
            rounds += 1
            if rounds >= MIN_ROUNDS:
                self._eliminate(arms, keep)
            if _time.perf_counter() > deadline or self._decided(arms, keep):
                break
        return SearchResult(arms, rounds, _time.perf_counter() - start)

    def _decided(self, arms: list[Arm], keep: int) -> bool:
        """Only the baseline is left, or one other move that beats it by ``z`` standard
        errors (more rounds would not change the move; hints want ``keep`` > 1 moves)."""
        alive = [a for a in arms[1:] if a.alive]
        if keep > 1 or len(alive) > 1:
            return False
        return not alive or alive[0].lower(self.z) > 0

    def _eliminate(self, arms: list[Arm], keep: int) -> None:
        alive = [a for a in arms if a.alive]
        ranked = sorted(alive, key=lambda a: -a.mean)
        leader = ranked[0]
        for arm in ranked[keep:]:
            if arm is arms[0]:
                continue  # the baseline stays: the reference of the values
            n = len(arm.values)
            mean, se = _paired(arm.values, leader.values[len(leader.values) - n:])
            # Behind the leader, or unable to beat the baseline (which is played unless
            # beaten; a move that always scores as the baseline does is no better).
            base_mean, base_se = _paired(arm.values, arm.base)
            if mean + self.z * se < 0 or base_mean + self.z * base_se <= 0:
                arm.alive = False

    def playout(self, sample: State, action: Action, team: int, seed: int,
                seat: int | None = None) -> float:
        """Play ``action`` on a copy of ``sample``, then the policy for every seat for
        ``depth`` turns (or to the end of the hand); the value for ``team`` (by
        :attr:`leaf`, seen from ``seat``: by default the team's first seat)."""
        if seat is None:
            seat = sample.teams[team][0]
        s = sample.clone()
        # The cut is at a fixed turn counted from the decision, not from after the action: a
        # discard ends the turn and a meld does not, and both must be valued at the same
        # point of the table's rotation (the same seat about to play).
        last = s.turn + self.depth * s.players
        try:
            s.apply(action)
        except IllegalActionError:
            # Legal in the view but not on this deal (a rule reading a card the seat cannot
            # see): the move is valued as not played here.
            return self.leaf(s, seat)
        bots = [self.policy(seed + 7919 * p) for p in range(s.players)]
        for _ in range(MAX_PLAYOUT_ACTIONS):
            if s.is_over or (self.depth and s.turn >= last):
                break
            actor = s.actor
            move = bots[actor].choose(s.view(actor))
            try:
                s.apply(move)
            except IllegalActionError:
                s.apply(s.legal_actions()[0])  # a policy's slip must not end the search
        return self.leaf(s, seat)


class ExpertBot:
    """The ``expert`` level (module docstring). ``choose`` sees only the seat's View.

    Args:
        seed: seeds every deal and playout (decision ``k`` of the bot uses the ``k``-th
            draw of ``random.Random(seed)``); None draws one.
        policy: the playout policy's factory (seed -> bot); ``canasta.bots`` passes the bot
            named by ``playout``.
        time: seconds per decision (default :data:`DEFAULT_TIME` when ``iterations`` is not
            given either).
        iterations: rounds (sampled deals) per decision.
        depth, width, z: see :class:`Searcher`.
        confidence: see :meth:`SearchResult.best`.
        playout: the playout policy's name, for ``repr`` and records.
        baseline: the baseline bot's factory (default: ``policy``), see :class:`Searcher`.
        value: the leaf value's name, one of :data:`VALUES`.

    Raises:
        ValueError: a budget that is not positive.
    """

    name = "expert"

    def __init__(self, seed: int | None = None, *, policy: PolicyFactory,
                 time: float | None = None, iterations: int | None = None,
                 depth: int = DEFAULT_DEPTH, width: int = DEFAULT_WIDTH, z: float = DEFAULT_Z,
                 confidence: float = DEFAULT_CONFIDENCE, playout: str = DEFAULT_PLAYOUT,
                 baseline: PolicyFactory | None = None, value: str = "evaluate") -> None:
        if value not in VALUES:
            raise ValueError(f"expert: value must be one of {', '.join(VALUES)}, not {value!r}")
        if time is not None and not time > 0:
            raise ValueError(f"expert: time must be a positive number of seconds, got {time}")
        if iterations is not None and iterations < 1:
            raise ValueError(f"expert: iterations must be at least 1, got {iterations}")
        if depth < 0 or width < 1:
            raise ValueError(f"expert: depth must be >= 0 and width >= 1, got {depth}, {width}")
        self.rng = random.Random(seed)
        self.time = time
        self.iterations = iterations
        self.playout = playout
        self.value = value
        self.searcher = Searcher(policy, depth, width, z, baseline,
                                 learned_leaf() if value == "learned" else evaluate_leaf)
        self.confidence = confidence
        self.last: SearchResult | None = None
        self._retracted: tuple[int, int] | None = None

    def __repr__(self) -> str:
        budget = f"iterations={self.iterations}" if self.iterations else \
            f"time={self.time or DEFAULT_TIME}"
        return (f"ExpertBot({budget}, playout={self.playout!r}, depth={self.searcher.depth}, "
                f"value={self.value!r})")

    def choose(self, view: View) -> Action:
        seed = self.rng.getrandbits(63)
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        self.last = self.searcher.search(view, seed, time=self.time,
                                         iterations=self.iterations)
        chosen = self.last.best(self.confidence).action
        # After retracting a short opening, melding towards it again in the same turn can
        # only be retracted again: a search that likes the meld would loop for ever (meld,
        # retract, meld, ...). The turn is known by its player and the stock, which no move
        # of a turn changes after its draw.
        turn = (view.current, view.stock_size)
        if isinstance(chosen, Meld) and self._retracted == turn and not view.opened[view.team]:
            others = [a for a in legal if not isinstance(a, (Meld, Retract))]
            if others:
                chosen = max(others, key=lambda a: prior(view, a))
        if isinstance(chosen, Retract):
            self._retracted = turn
        return chosen


def make_expert(seed: int | None = None, *, time: float | None = None,
                iterations: int | None = None, playout: str = DEFAULT_PLAYOUT,
                depth: int = DEFAULT_DEPTH, width: int = DEFAULT_WIDTH,
                confidence: float = DEFAULT_CONFIDENCE, baseline: str = "",
                value: str = "evaluate") -> ExpertBot:
    """The registry's factory of ``expert`` (``expert:time=0.5,playout=medium``): the
    playout policy of every seat is the bot named ``playout``, seeded per playout; the
    reference move is that of the bot named ``baseline`` (default: the playout bot);
    ``value`` names the leaf value (:data:`VALUES`).

    Raises:
        ValueError: an unknown playout or baseline bot, or a bad budget (see
            :class:`ExpertBot`).
    """
    for spec in (playout, baseline or playout):
        name, _ = parse_spec(spec)
        if name == "expert":
            raise ValueError("expert: the playout and baseline bots cannot be the expert")
    base = baseline or playout
    return ExpertBot(seed, policy=lambda s: make_bot(playout, s), time=time,
                     iterations=iterations, depth=depth, width=width, confidence=confidence,
                     playout=playout, baseline=lambda s: make_bot(base, s), value=value)
