"""Card tracking for bots, from what one seat sees: its :class:`~canasta.core.state.View`.

A :class:`Tracking` sums up, per seat and rank, what the hand's visible events tell: the ranks
each seat discarded, the pile tops it declined (drew from the stock while it could have taken
the pile by rank), the ranks it took with the pile (``view.known`` keeps the cards still in its
hand), and per rank the copies this seat has not seen (the deck less its own hand, the melds,
the red threes, the face-up pile and the cards known in other hands). Nothing here reads a
state: only ``view.events``, ``view.known`` and the table fields of the view.

Ranks are 1..13 (:func:`canasta.core.cards.rank_of`); wild cards are counted under rank 0
(jokers) and 2 (deuces).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from canasta.core.cards import rank_of
from canasta.core.events import Discarded, Drew, Event, TookPile, UpcardTurned
from canasta.core.state import View

NATURALS_PER_PACK = 4


@dataclass(slots=True)
class Tracking:
    """What the seat knows of the others, per seat (index = seat) and rank (index 0..13).

    Attributes:
        discarded: ``discarded[s][r]``: copies of rank ``r`` seat ``s`` discarded this hand.
        declined: ``declined[s][r]``: times seat ``s`` drew from the stock with a top card of
            rank ``r`` on an unfrozen pile (it probably holds no pair of ``r``).
        held: ``held[s][r]``: copies of rank ``r`` known to be in seat ``s``'s hand.
        unseen: ``unseen[r]``: copies of rank ``r`` this seat has not seen anywhere.
        unseen_total: the sum of ``unseen``.
    """

    discarded: list[list[int]]
    declined: list[list[int]]
    held: list[list[int]]
    unseen: list[int]
    unseen_total: int


def _ranks(cards: tuple[int, ...] | list[int]) -> list[int]:
    out = [0] * 14
    for c in cards:
        out[rank_of(c)] += 1
    return out


def unseen_by_rank(view: View) -> list[int]:
    """Copies per rank (0..13) this seat has not seen: not in its hand, the melds, the red
    threes, the face-up pile or the cards known in another seat's hand."""
    packs = view.rules.packs(view.players)
    unseen = [NATURALS_PER_PACK * packs] * 14
    unseen[0] = view.rules.deal.jokers_per_pack * packs
    seen: list[int] = list(view.hand)
    for side in view.melds:
        for cards in side.values():
            seen.extend(cards)
    for reds in view.red_threes:
        seen.extend(reds)
    seen.extend(view.pile)
    seen.extend(view.pending_pile)
    for seat, known in enumerate(view.known):
        if seat != view.seat:
            seen.extend(known)
    for c in seen:
        unseen[rank_of(c)] -= 1
    return [max(0, n) for n in unseen]


def track(view: View, events: Sequence[Event] | None = None) -> Tracking:
    """The :class:`Tracking` of ``view`` (reads its visible events once; ``events``: those
    events when the caller has them already)."""
    n = view.players
    discarded = [[0] * 14 for _ in range(n)]
    declined = [[0] * 14 for _ in range(n)]
    top: int | None = None
    may_take = True
    for event in view.events if events is None else events:
        if isinstance(event, Discarded):
            discarded[event.seat][rank_of(event.card)] += 1
            top = event.card
            may_take = rank_of(event.card) not in (0, 2, 3)
        elif isinstance(event, UpcardTurned):
            top = event.card
            may_take = not event.special
        elif isinstance(event, TookPile):
            top = None
        elif isinstance(event, Drew) and top is not None and may_take:
            declined[event.seat][rank_of(top)] += 1
    held = [_ranks(k) for k in view.known]
    unseen = unseen_by_rank(view)
    return Tracking(discarded, declined, held, unseen, sum(unseen))


def pair_chance(unseen: int, unseen_total: int, hand: int) -> float:
    """The chance that a hand of ``hand`` unseen cards holds two or more of a rank with
    ``unseen`` copies among ``unseen_total`` unseen cards (binomial approximation)."""
    if unseen < 2 or hand < 2 or unseen_total <= 0:
        return 0.0
    p = min(1.0, hand / unseen_total)
    q = 1.0 - p
    none = q ** unseen
    one = unseen * p * q ** (unseen - 1)
    return max(0.0, 1.0 - none - one)
