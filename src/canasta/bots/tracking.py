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
from canasta.core.events import (
    Discarded,
    Drew,
    Event,
    Retracted,
    TookPile,
    UpcardTurned,
    action_of,
)
from canasta.core.state import View
from canasta.core.view import EventMark

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


class Tracker:
    """:func:`track` kept up to date event by event: one per bot and seat, fed every view
    of that seat (:meth:`update`); it reads only the events since the last view
    (:meth:`View.events_since <canasta.core.view.View.events_since>`) and starts again from
    the hand's first event when a view is of another hand or another copy of the state.

    Besides the :class:`Tracking` it follows whether the seat has taken an opening back in
    the turn now being played (:attr:`retracted`: no action of another seat since).
    """

    __slots__ = ("seat", "players", "mark", "discarded", "declined", "top", "may_take",
                 "retracted")

    def __init__(self) -> None:
        self.seat = -1
        self.players = 0
        self.mark: EventMark | None = None
        self.discarded: list[list[int]] = []
        self.declined: list[list[int]] = []
        self.top: int | None = None
        self.may_take = True
        self.retracted = False

    def _restart(self, view: View) -> None:
        n = self.players = view.players
        self.seat = view.seat
        self.discarded = [[0] * 14 for _ in range(n)]
        self.declined = [[0] * 14 for _ in range(n)]
        self.top = None
        self.may_take = True
        self.retracted = False

    def update(self, view: View) -> None:
        """Read the events of ``view`` not read yet."""
        if self.seat == view.seat and self.players == view.players:
            new, mark = view.events_since(self.mark)
            if new is not None:
                self.mark = mark
                for event in new:
                    self._read(event)
                return
        # A view of another history: start from the latest point of it some tracker of
        # this seat has read (the expert's playouts all branch from one sampled history).
        shared = _SHARED.setdefault((view.seat, view.players), {})
        if len(shared) > SHARED_POINTS:
            shared.clear()
        found, steps = view.events_since_known(shared)
        if isinstance(found, _Point):
            self._restore(view, found)
        else:
            self._restart(view)
        keep = len(steps) - KEEP_POINTS
        for i, (event, mark) in enumerate(steps):
            self._read(event)
            if i >= keep:
                shared[mark.key] = _Point(mark, self)
        self.mark = steps[-1][1] if steps else (found.mark if isinstance(found, _Point)
                                                else view.events_since(None)[1])

    def _read(self, event: Event) -> None:
        _step(self, event)
        played = action_of(event)
        if played is not None:
            if played[0] != self.seat:
                self.retracted = False
            elif isinstance(event, Retracted):
                self.retracted = True

    def _restore(self, view: View, point: _Point) -> None:
        self.seat = view.seat
        self.players = view.players
        self.discarded = [row[:] for row in point.discarded]
        self.declined = [row[:] for row in point.declined]
        self.top = point.top
        self.may_take = point.may_take
        self.retracted = point.retracted

    def tracking(self, view: View) -> Tracking:
        """The :class:`Tracking` of ``view`` (call :meth:`update` with it first); its
        ``discarded`` and ``declined`` are this tracker's own lists: read them only."""
        held = [_ranks(k) for k in view.known]
        unseen = unseen_by_rank(view)
        return Tracking(self.discarded, self.declined, held, unseen, sum(unseen))


#: Points of histories kept per (seat, players) for trackers that start on another copy
#: (cleared when there are more), and how many of the last events of such a start keep one.
SHARED_POINTS = 2048
KEEP_POINTS = 24


class _Point:
    """A tracker's accumulators at one point of a history (:attr:`mark`)."""

    __slots__ = ("mark", "discarded", "declined", "top", "may_take", "retracted")

    def __init__(self, mark: EventMark, t: Tracker) -> None:
        self.mark = mark  # keeps the point's log alive, so its key stays unique
        self.discarded = [row[:] for row in t.discarded]
        self.declined = [row[:] for row in t.declined]
        self.top = t.top
        self.may_take = t.may_take
        self.retracted = t.retracted


_SHARED: dict[tuple[int, int], dict[int, object]] = {}


def _step(acc: Tracker | _Replay, event: Event) -> None:
    """One event's effect on the discards, declines and the pile's top."""
    if isinstance(event, Discarded):
        acc.discarded[event.seat][rank_of(event.card)] += 1
        acc.top = event.card
        acc.may_take = rank_of(event.card) not in (0, 2, 3)
    elif isinstance(event, UpcardTurned):
        acc.top = event.card
        acc.may_take = not event.special
    elif isinstance(event, TookPile):
        acc.top = None
    elif isinstance(event, Drew) and acc.top is not None and acc.may_take:
        acc.declined[event.seat][rank_of(acc.top)] += 1


class _Replay:
    """The accumulators of one replay of :func:`track`."""

    __slots__ = ("discarded", "declined", "top", "may_take")

    def __init__(self, players: int) -> None:
        self.discarded = [[0] * 14 for _ in range(players)]
        self.declined = [[0] * 14 for _ in range(players)]
        self.top: int | None = None
        self.may_take = True


def track(view: View, events: Sequence[Event] | None = None) -> Tracking:
    """The :class:`Tracking` of ``view`` (reads its visible events once; ``events``: those
    events when the caller has them already)."""
    acc = _Replay(view.players)
    for event in view.events if events is None else events:
        _step(acc, event)
    held = [_ranks(k) for k in view.known]
    unseen = unseen_by_rank(view)
    return Tracking(acc.discarded, acc.declined, held, unseen, sum(unseen))


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
