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
from canasta.core.cards import is_wild
from canasta.core.opening import naturals_only
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
    """Would ``action`` lay wild cards that keep the side from opening this turn?

    True for a meld or lay-off with a wild card while the side has not opened and its score
    band opens with natural cards only (:func:`canasta.core.opening.naturals_only`; seed 000:
    "Per la discesa a 50 punti si richiedono solo combinazioni con carte naturali"), unless
    it is the first move of the engine's going-out plan (a concealed going out may use wild
    cards where ``going_out.concealed_waives_minimum``). The engine lists such a meld as
    legal (the going out may still follow) but will not count the opening, so the only way
    on after it is to retract."""
    if not isinstance(action, (Meld, LayOff)) or view.opened[view.team]:
        return False
    if not any(is_wild(c) for c in action.cards):
        return False
    if not naturals_only(view.rules, view.scores[view.team]):
        return False
    return out_move(view) != canonical_suits(action, view.hand_counts)
