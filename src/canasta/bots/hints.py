"""Hints: the best moves of a seat's :class:`~canasta.core.view.View`, valued by the expert's
search at a small budget, each with short reasons a player can read.

``suggest(view, n=3, budget=0.25)`` returns :class:`Suggestion` values, best first. Their
``value`` is an estimate in points of the hand (the seat's side minus the best other side)
*relative to the baseline*, the move the playout policy (the plain heuristic) would play
there: 0 for that move, about +40 for a move the search finds 40 points better on average
over the sampled deals, negative for one it finds worse (less the expert's
``DEFAULT_CONFIDENCE`` standard errors, see :class:`Suggestion`). Reasons are :class:`Reason`
values, rendered by the front ends through the message catalogues (``hint.reason.<key>``,
:mod:`canasta.i18n`); they say what a move does (takes a pile of so many points, freezes the
pile, completes a canasta, opens, goes out, discards a card the next opponent has shown, ...)
and, for the first suggestion, why to wait where the search found waiting better: when it is
not going out though a searched move goes out (``wait_going_out``), or discards or draws
though a searched move melds (``wait_meld``), by how many points over the sampled deals.

Only the View is read: the search deals the unseen cards with ``view.sample_state``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from canasta.bots.expert import (
    DEFAULT_CONFIDENCE,
    DEFAULT_WIDTH,
    Arm,
    PolicyFactory,
    Searcher,
    discard_danger,
)
from canasta.core.actions import (
    Action,
    AskPartner,
    Discard,
    Draw,
    LayOff,
    Meld,
    Retract,
    TakePile,
)
from canasta.core.cards import POINTS, card_text, is_black_three, is_wild, rank_of, rank_text
from canasta.core.meldkey import MeldKey, is_run_key, is_wild_key
from canasta.core.melds import meld_key
from canasta.core.scoring import canasta_bonus
from canasta.core.state import View
from canasta.i18n import t

__all__ = ["Reason", "Suggestion", "suggest", "reasons_for", "DEFAULT_BUDGET"]

#: Seconds of search per hint by default: a hint is to answer within 0.3 s (median), and
#: the round in progress at the deadline is finished (docs/bots.md "Hints").
DEFAULT_BUDGET = 0.25
#: A pile of this many cards or more, open to the next player, is at risk.
BIG_PILE = 5


@dataclass(frozen=True, slots=True)
class Reason:
    """One reason of a suggestion: the catalogue key ``hint.reason.<key>`` and the values of
    its placeholders (numbers, and card or rank text such as ``"7h"`` or ``"K"``)."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def text(self, lang: str = "en") -> str:
        """The reason in ``lang`` (English when the language has no catalogue)."""
        return t(f"hint.reason.{self.key}", lang, **self.params)


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A suggested move.

    Attributes:
        action: a legal action of the view.
        value: estimated points of the hand for the seat's side (minus the best other side)
            relative to the playout policy's own move (0 for that move; see the module), a
            cautious estimate: the mean over the sampled deals less ``DEFAULT_CONFIDENCE``
            standard errors (the mean and the error are in the ``estimate`` reason).
            Suggestions come sorted by it, and the first is the move the expert bot plays
            with the same search.
        reasons: what the move does, best known first.
    """

    action: Action
    value: float
    reasons: tuple[Reason, ...]


def suggest(view: View, n: int = 3, budget: float = DEFAULT_BUDGET, *, policy: PolicyFactory,
            seed: int = 0, iterations: int | None = None) -> list[Suggestion]:
    """The ``n`` best moves of ``view``, best first (fewer when fewer are legal).

    Args:
        view: the view of the seat to act.
        n: how many suggestions.
        budget: seconds of search (a round in progress at the deadline is not counted).
        policy: the playout policy's factory (``canasta.bots.suggest`` passes the default).
        seed: seeds the deals and playouts (same view, seed and ``iterations``: same answer).
        iterations: rounds of sampled deals instead of a time budget.

    Raises:
        ValueError: ``n`` < 1, a budget that is not positive, or a view whose seat is not to
            act.
    """
    if n < 1:
        raise ValueError(f"suggest: n must be at least 1, got {n}")
    if iterations is None and not budget > 0:
        raise ValueError(f"suggest: budget must be a positive number of seconds, got {budget}")
    if not view.legal_actions:
        raise ValueError(f"suggest: seat {view.seat} is not to act (no legal action)")
    if len(view.legal_actions) == 1:
        # Nothing to compare: no value, only what the move does and why it is forced.
        only = view.legal_actions[0]
        return [Suggestion(only, 0.0, (*reasons_for(view, only), Reason("only_move")))]
    searcher = Searcher(policy, width=max(n, DEFAULT_WIDTH))
    result = searcher.search(view, seed, time=None if iterations else budget,
                             iterations=iterations, keep=n)
    rounds = result.rounds
    played = [a for a in result.arms if a.values] or result.arms[:1]
    # Ranked by the value the expert plays by: the mean advantage less its confidence,
    # so that the first suggestion is the expert's move and a noisy estimate ranks low.
    ranked = sorted(played, key=lambda a: (-_value(a), result.arms.index(a)))
    out = []
    for arm in ranked[:n]:
        value = _value(arm)
        reasons = reasons_for(view, arm.action)
        if arm is result.arms[0]:
            reasons = (*reasons, Reason("baseline"))
        elif rounds:
            mean, se = arm.advantage, arm.stderr
            reasons = (*reasons, Reason("estimate", {
                "value": f"{mean:+.0f}", "error": f"{se:.0f}" if math.isfinite(se) else "?",
                "deals": len(arm.values)}))
        if arm is ranked[0]:
            wait = _why_wait(view, arm, played)
            if wait is not None:
                reasons = (*reasons, wait)
        out.append(Suggestion(arm.action, value, reasons))
    if len(out) < n:
        # Moves the search did not look at, in the engine's order (value unknown: 0).
        shown = {s.action for s in out}
        for action in view.legal_actions:
            if len(out) >= n:
                break
            if action not in shown:
                out.append(Suggestion(action, 0.0, reasons_for(view, action)))
    return out


def _goes_out(view: View, action: Action) -> bool:
    """Does ``action`` play the last cards of the hand?"""
    if isinstance(action, (Meld, LayOff)):
        return len(action.cards) >= len(view.hand)
    return isinstance(action, Discard) and len(view.hand) == 1


def _lead(a: Arm, b: Arm) -> float:
    """Mean of ``a`` less ``b`` over the deals both played (a prefix: arms are only ever
    dropped)."""
    n = min(len(a.values), len(b.values))
    return sum(a.values[i] - b.values[i] for i in range(n)) / n if n else 0.0


def _why_wait(view: View, top: Arm, searched: list[Arm]) -> Reason | None:
    """Why the first suggestion waits (module docstring), or None: it does not go out
    though a searched move does, or it discards or draws though a searched move melds; by
    its lead over the best such move, in points (only where it leads)."""
    if not top.values or _goes_out(view, top.action):
        return None
    others = [a for a in searched if a is not top and a.values]
    out = [a for a in others if _goes_out(view, a.action)]
    if out:
        best = max(out, key=lambda a: _lead(a, top))
        lead = _lead(top, best)
        if lead > 0:
            return Reason("wait_going_out", {"move": best.action.text(),
                                              "points": f"{lead:.0f}"})
        return None
    if not isinstance(top.action, (Discard, Draw)):
        return None
    melds = [a for a in others if isinstance(a.action, (Meld, LayOff))]
    if not melds:
        return None
    best = max(melds, key=lambda a: _lead(a, top))
    lead = _lead(top, best)
    if lead <= 0:
        return None
    return Reason("wait_meld", {"move": best.action.text(), "points": f"{lead:.0f}"})


def _value(arm: Arm) -> float:
    """A suggestion's value (see :class:`Suggestion`), rounded to a tenth of a point."""
    if not arm.values:
        return 0.0
    low = arm.lower(DEFAULT_CONFIDENCE)
    return round(low, 1) if math.isfinite(low) else round(arm.advantage, 1)


def reasons_for(view: View, action: Action) -> tuple[Reason, ...]:
    """What ``action`` does, as :class:`Reason` values (read from the view only)."""
    if isinstance(action, TakePile):
        return _take_reasons(view, action)
    if isinstance(action, Draw):
        takes = any(isinstance(a, TakePile) for a in view.legal_actions)
        return (Reason("pile_left", {"cards": view.pile_size}),) if takes else \
            (Reason("draw", {}), _no_take_reason(view))
    if isinstance(action, (Meld, LayOff)):
        return _meld_reasons(view, action)
    if isinstance(action, Discard):
        return _discard_reasons(view, action.card)
    if isinstance(action, AskPartner):
        return (Reason("ask_partner", {}),)
    if isinstance(action, Retract):
        return (Reason("retract", {}),)
    return ()


def _no_take_reason(view: View) -> Reason:
    """Why the pile cannot be taken now (the draw is the only way to start the turn)."""
    top = view.pile_top
    if top is None or view.pile_size == 0:
        return Reason("pile_empty", {})
    if view.stopped:
        return Reason("pile_stopped", {})
    rank = rank_of(top)
    naturals = view.rules.pile.frozen_naturals
    held = sum(1 for c in view.hand if not is_wild(c) and rank_of(c) == rank)
    if view.pile_frozen and held < naturals and not is_wild(top) and not is_black_three(top):
        return Reason("pile_frozen_need", {"naturals": naturals, "rank": rank_text(rank)})
    if not view.opened[view.team]:
        return Reason("pile_opening", {"minimum": view.opening_minimum[view.team]})
    return Reason("pile_unusable", {"card": card_text(top)})


def _take_reasons(view: View, action: TakePile) -> tuple[Reason, ...]:
    points = sum(POINTS[c] for c in view.pile)
    out = [Reason("pile_value", {"cards": view.pile_size, "points": points})]
    if not view.opened[view.team]:
        out.append(Reason("opening", {"points": _points(action.cards, view.pile_top),
                                      "minimum": view.opening_minimum[view.team]}))
    wilds = sum(1 for c in action.cards if is_wild(c))
    if wilds:
        out.append(Reason("wild_cards", {"count": wilds}))
    return tuple(out)


def _points(cards: tuple[int, ...], extra: int | None = None) -> int:
    return sum(POINTS[c] for c in cards) + (POINTS[extra] if extra is not None else 0)


def _meld_reasons(view: View, action: Meld | LayOff) -> tuple[Reason, ...]:
    team = view.team
    rules = view.rules
    out: list[Reason] = []
    cards = action.cards
    if len(cards) >= len(view.hand):
        out.append(Reason("going_out", {"bonus": rules.going_out.bonus}))
    if all(is_black_three(c) for c in cards) and cards:
        return (*out, Reason("black_threes_meld", {}))
    if not view.opened[team]:
        out.append(Reason("opening", {"points": view.opening_points + _points(cards),
                                      "minimum": view.opening_minimum[team]}))
    melds = view.melds[team]
    if isinstance(action, LayOff):
        key = action.rank
        before = melds.get(key, ())
    else:
        key = meld_key(melds, cards)
        before = ()
    after = (*before, *cards)
    size = rules.melds.canasta_size
    rank = _rank_name(key)
    if len(before) < size <= len(after):
        out.append(Reason("canasta_complete", {"rank": rank,
                                               "bonus": canasta_bonus(after, rules)}))
    elif len(after) < size:
        out.append(Reason("canasta_progress", {"rank": rank, "count": len(after),
                                               "size": size}))
    wilds = sum(1 for c in cards if is_wild(c))
    if wilds:
        out.append(Reason("wild_cards", {"count": wilds}))
    return tuple(out)


def _rank_name(key: MeldKey) -> str:
    """Rank text of a meld key (``K``, ``7``; wild-card and sequence melds by their kind)."""
    if is_run_key(key):
        return "seq"
    return "2/JK" if is_wild_key(key) else rank_text(key)


def _discard_reasons(view: View, card: int) -> tuple[Reason, ...]:
    rules = view.rules
    text = card_text(card)
    out: list[Reason] = []
    if len(view.hand) == 1:
        out.append(Reason("going_out", {"bonus": rules.going_out.bonus}))
    if is_wild(card):
        if rules.pile.wild_discard_freezes:
            out.append(Reason("freeze", {"card": text, "cards": view.pile_size + 1}))
        out.append(Reason("wild_cards", {"count": 1}))
        return tuple(out)
    if is_black_three(card):
        out.append(Reason("black_three_stop", {"card": text}))
        return tuple(out)
    danger = discard_danger(view, card)
    if danger:
        out.append(Reason("discard_danger", {"card": text}))
        if not view.pile_frozen and view.pile_size + 1 >= BIG_PILE:
            out.append(Reason("freeze_risk", {"cards": view.pile_size + 1}))
    else:
        out.append(Reason("discard_safe", {"card": text}))
    return tuple(out)
