"""Going out for the bots: the engine's own plan, read from what the seat sees.

Whether a seat can go out this turn is a question of its own hand and its side's melds, and
the engine answers it exactly (:func:`canasta.core.goingout.going_out_plan`: every final
discard, every meld of the hand's ranks, every spread of its wild cards, checked by playing
it on a copy). The heuristic levels used to ask only "does this one move leave a card or
none", so they never began a going out that needs wild cards on several melds or a lay-off
that completes the required canasta. Here the plan is taken from ``view.table`` (the state
with every card this seat cannot see taken out, so the search reads nothing hidden) and its
first move is returned as one of ``view.legal_actions``.

The going out follows the rule texts (seed 002: "Si chiude quando un giocatore si libera di
tutte le carte che ha in mano"); the rules it must meet (canastas required, the final
discard, the opening minimum or its waiver) are the engine's, not re-stated here.
"""

from __future__ import annotations

from canasta.core.actions import Action, LayOff, Meld, canonical_suits
from canasta.core.cards import POINTS, is_wild
from canasta.core.melds import meld_key
from canasta.core.opening import naturals_only, reach
from canasta.core.state import Phase, View

__all__ = ["out_move", "out_plan", "spoils_opening"]


def out_plan(view: View) -> list[Action] | None:
    """The engine's going-out plan for the seat of ``view`` this turn (melds, lay-offs and
    a final discard, in order), or None: not this seat's play phase, or no way out (exact;
    :func:`canasta.core.goingout.going_out_plan`).

    A plan's search is over the seat's own hand and its side's melds only; the table it runs
    on holds no card the seat cannot see."""
    if view.phase is not Phase.PLAY or view.actor != view.seat:
        return None
    return view.table.going_out_plan()


def out_move(view: View) -> Action | None:
    """The first move of :func:`out_plan`, as listed in ``view.legal_actions`` (the suit
    choice the engine lists), or None when there is no plan or its move is not listed."""
    plan = out_plan(view)
    if not plan:
        return None
    legal = view.legal_actions
    move = canonical_suits(plan[0], view.hand_counts)
    if move is None or move not in legal:
        return None
    for a in legal:  # the listed object itself, not an equal copy
        if a == move:
            return a
    return move


def spoils_opening(view: View, action: Action) -> bool:
    """Would ``action`` leave the side's opening short this turn, so that the only way on
    is to take it back (``retract``, +10 to the minimum)?

    For a meld or lay-off while the side has not opened, unless it is the first move of the
    engine's going-out plan (a concealed going out that waives the minimum): True when it
    lays a wild card where the score band opens with natural cards only
    (:func:`canasta.core.opening.naturals_only`; seed 000: "Per la discesa a 50 punti si
    richiedono solo combinazioni con carte naturali"), or when, after it, the most the hand
    can still count this turn (:func:`canasta.core.opening.reach`, the engine's own bound)
    is under the minimum. The engine lists such moves as legal, a going out or more melds
    may follow, but it will not count the opening."""
    if not isinstance(action, (Meld, LayOff)) or view.opened[view.team]:
        return False
    rules = view.rules
    team = view.team
    band_natural = naturals_only(rules, view.scores[team])
    wild = any(is_wild(c) for c in action.cards)
    if wild and band_natural:
        spoiled = True
    else:
        hand = list(view.hand_counts)
        for c in action.cards:
            hand[c] -= 1
        melds = {k: list(v) for k, v in view.melds[team].items()}
        key = action.rank if isinstance(action, LayOff) else meld_key(melds, action.cards)
        melds.setdefault(key, []).extend(action.cards)
        base = view.opening_points + sum(POINTS[c] for c in action.cards)
        need = view.opening_minimum[team]
        spoiled = reach(rules, hand, melds, base, need,
                        rules.opening_minimum(view.scores[team])) < need
    return spoiled and out_move(view) != canonical_suits(action, view.hand_counts)
