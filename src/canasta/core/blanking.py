"""Taking out of a state every card one seat cannot see: the table of a
:class:`~canasta.core.view.View`, what :meth:`View.sample_state
<canasta.core.view.View.sample_state>` deals the hidden cards into.

Another player's hand keeps the cards the others know it holds (``HandData.known``); the
stock, the surprise cards and the cards face down under the upcard become :data:`HIDDEN`;
while an opening is provisional, the state it returns to (its snapshot) is blanked the same
way, with the cards drawn since shown only to the seat that drew them (and red threes laid
out, to all). No history is kept: the view carries its seat's own.
"""

from __future__ import annotations

import functools
from typing import NamedTuple, TypeVar

from canasta.core.cards import NUM_CODES, make_deck
from canasta.core.data import HandData
from canasta.core.melds import RED3

#: A card the seat cannot see, in the lists of :attr:`View.table
#: <canasta.core.view.View.table>`.
HIDDEN = -1

S = TypeVar("S", bound=HandData)


class Provisional(NamedTuple):
    """What a seat knows of the current player's turn since its first provisional meld (the
    snapshot a ``retract`` returns to): the cards drawn since, in stock order (the next card
    last), :data:`HIDDEN` where this seat did not see them, and the counts per card code of
    the cards that left that player's hand for the table since. A named tuple: immutable,
    and it pickles where the core is compiled (a compiled frozen dataclass does not)."""

    draws: tuple[int, ...]
    from_hand: tuple[int, ...]


def blank(state: S, seat: int) -> S:
    """A copy of ``state`` with every card ``seat`` cannot see taken out (see
    :attr:`View.table <canasta.core.view.View.table>`; a view builds the same table from its
    own fields, the tests check both agree)."""
    t = state.clone()
    _blank_fields(t, seat, hide_surprise=True)
    t.snapshot = _blank_snapshot(state, seat)
    return t


def _blank_snapshot(state: HandData, seat: int) -> HandData | None:
    """The table's snapshot: the state's snapshot (while the opening is provisional) with
    what ``seat`` cannot see taken out."""
    snap = state.snapshot if state.provisional else None
    if snap is None:
        return None
    b = snap.clone()
    # Surprise cards taken since were shown; those still set aside are hidden.
    _blank_fields(b, seat, hide_surprise=bool(state.surprise))
    # The seats other than the current player's hold now what they held then; the current
    # player's hand then is rebuilt from its hand now (see sample()).
    for p in range(b.players):
        if p != seat:
            b.hands[p] = [0] * NUM_CODES
    drawn = len(snap.stock) - len(state.stock)
    b.stock = [HIDDEN] * len(state.stock) + _draws(state, seat)
    assert len(b.stock) == len(state.stock) + drawn
    b.snapshot = None
    return b


def table_start(s: S, seat: int) -> S:
    """The part of :func:`blank` that a view cannot rebuild from its own fields: a new state
    with every field but the card lists (hands, hand sizes, stock, surprise, pile, pending
    pile, melds, red threes; ``view._fill_table`` sets them) copied from ``s``. The lists
    copied here are the ones a move changes in place."""
    t = type(s)()  # no __init__: every field is set here or in _fill_table
    t.rules = s.rules
    t.players = s.players
    t.teams = s.teams
    t.team_of = s.team_of
    t.pile_frozen = s.pile_frozen
    t.opened = s.opened[:]
    t.scores = s.scores[:]
    t.min_extra = s.min_extra[:]
    t.dealer = s.dealer
    t.current = s.current
    t.actor = s.actor
    t.phase = s.phase
    t.turn = s.turn
    t.deck = ()
    t.took_pile = s.took_pile
    t.melded_this_turn = s.melded_this_turn
    t.opening_points = s.opening_points
    t.provisional = s.provisional
    t.snapshot = _blank_snapshot(s, seat)
    t.asked = s.asked
    t.answer = s.answer
    t.opened_at_turn_start = s.opened_at_turn_start
    t.player_melded = s.player_melded[:]
    t.stopped_turn = s.stopped_turn
    t.no_discard = s.no_discard
    t.asks = s.asks[:]
    t.end_reason = s.end_reason
    t.went_out = s.went_out
    t.concealed = s.concealed
    t.event_log = None  # the sample gets this seat's events (see sample())
    t.lookahead = s.lookahead
    t.joker_turn = s.joker_turn[:]
    t.known = s.known[:]
    t.pile_hidden = s.pile_hidden
    return t


def _blank_fields(t: HandData, seat: int, hide_surprise: bool) -> None:
    for p in range(t.players):
        if p != seat:
            t.hands[p] = list(t.known[p])
    t.stock = [HIDDEN] * len(t.stock)
    if hide_surprise:
        t.surprise = [HIDDEN] * len(t.surprise)
    if t.pending_pile:
        t.pending_pile = [HIDDEN] * t.pile_hidden + t.pending_pile[t.pile_hidden:]
    else:
        t.pile = [HIDDEN] * t.pile_hidden + t.pile[t.pile_hidden:]
    t.deck = ()
    t.event_log = None  # the sample gets this seat's events (see sample())


def _draws(state: HandData, seat: int) -> list[int]:
    """The cards drawn since the snapshot, stock order, hidden from ``seat`` unless it drew
    them or they were red threes laid out on the table."""
    snap = state.snapshot
    assert snap is not None
    drawn = snap.stock[len(state.stock):]
    if seat == state.current:
        return list(drawn)
    laid_out = not state.rules.red_threes.may_keep_as_stop
    return [c if laid_out and c in RED3 else HIDDEN for c in drawn]


def provisional_info(s: HandData, seat: int) -> Provisional | None:
    snap = s.snapshot if s.provisional else None
    if snap is None:
        return None
    cur = s.current
    drawn = [0] * NUM_CODES
    for c in snap.stock[len(s.stock):]:
        if not (c in RED3 and not s.rules.red_threes.may_keep_as_stop):
            drawn[c] += 1
    from_hand = tuple(snap.hands[cur][c] - s.hands[cur][c] + drawn[c] for c in range(NUM_CODES))
    return Provisional(draws=tuple(_draws(s, seat)), from_hand=from_hand)


@functools.lru_cache(maxsize=64)
def _deck_counts(packs: int, jokers_per_pack: int) -> tuple[int, ...]:
    deck = make_deck(packs, jokers_per_pack)
    return tuple(deck.count(c) for c in range(NUM_CODES))


def unseen_counts(t: HandData, seat: int) -> list[int]:
    """Counts per card code of the cards not visible in the blanked state ``t``."""
    counts = list(_deck_counts(t.rules.packs(t.players), t.rules.deal.jokers_per_pack))
    for hand in t.hands:
        counts = [a - b for a, b in zip(counts, hand, strict=True)]
    seen = [*t.pile, *t.pending_pile, *t.surprise]
    for m in t.melds:
        for cards in m.values():
            seen.extend(cards)
    for r in t.red_threes:
        seen.extend(r)
    for c in seen:
        if c != HIDDEN:
            counts[c] -= 1
    return counts

