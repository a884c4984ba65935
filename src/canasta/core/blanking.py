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

from canasta.core import layout
from canasta.core.cards import NUM_CODES, make_deck
from canasta.core.data import HandData
from canasta.core.layout import Sight
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
    with every field that holds no cards copied from ``s`` (the fields with ``cards`` in the
    field table, :data:`canasta.core.layout.TABLE`: hands, stock, surprise, pile, pending
    pile, melds, red threes; ``view._fill_table`` sets them), the deal order emptied, the
    history left to the sample and the snapshot blanked."""
    t = type(s)()  # no __init__: every field is set here or in _fill_table
    # Every field without cards as the field table says (canasta.core.layout): copied, or
    # emptied where no seat may see it.
    # -- generated from canasta.core.layout (table_start): python tools/layout_code.py --write
    t.rules = s.rules
    t.players = s.players
    t.teams = s.teams
    t.team_of = s.team_of
    t.dealer = s.dealer
    t.scores = s.scores[:]
    t.hand_size = s.hand_size[:]
    t.opened = s.opened[:]
    t.min_extra = s.min_extra[:]
    t.pile_frozen = s.pile_frozen
    t.deck = ()
    t.turn = s.turn
    t.current = s.current
    t.actor = s.actor
    t.phase = s.phase
    t.took_pile = s.took_pile
    t.melded_this_turn = s.melded_this_turn
    t.opening_points = s.opening_points
    t.provisional = s.provisional
    t.asked = s.asked
    t.answer = s.answer
    t.opened_at_turn_start = s.opened_at_turn_start
    t.stopped_turn = s.stopped_turn
    t.no_discard = s.no_discard
    t.snapshot = _blank_snapshot(s, seat)
    t.asks = s.asks[:]
    t.player_melded = s.player_melded[:]
    t.joker_turn = s.joker_turn[:]
    t.known = s.known[:]
    t.pile_hidden = s.pile_hidden
    t.end_reason = s.end_reason
    t.went_out = s.went_out
    t.concealed = s.concealed
    t.event_log = None  # the sample gets this seat's events (see view.sample)
    t.lookahead = s.lookahead
    # -- end of generated code: table_start
    return t


def _blank_fields(t: HandData, seat: int, hide_surprise: bool) -> None:
    """Take out of ``t``, in place, what ``seat`` may not see, field by field as the field
    table's sight says (:class:`~canasta.core.layout.Sight`; the snapshot is the caller's)."""
    for name in _OWN:
        entries = getattr(t, name)
        for p in range(t.players):
            if p != seat:
                entries[p] = list(t.known[p])
    for name in _COUNT:
        if name != "surprise" or hide_surprise:
            setattr(t, name, [HIDDEN] * len(getattr(t, name)))
    # The face-down cards lie under the pending pile while there is one, else under the pile.
    under = _FACE_UP[1] if t.pending_pile else _FACE_UP[0]
    cards = getattr(t, under)
    setattr(t, under, [HIDDEN] * t.pile_hidden + cards[t.pile_hidden:])
    for name in _NOBODY:
        setattr(t, name, ())
    for name in _OWN_EVENTS:
        setattr(t, name, None)  # the sample gets this seat's events (see view.sample)


#: The fields by sight (canasta.core.layout), for :func:`_blank_fields`.
_OWN = layout.names(sight=Sight.OWN)
_COUNT = layout.names(sight=Sight.COUNT)
_FACE_UP = layout.names(sight=Sight.FACE_UP)
_NOBODY = layout.names(sight=Sight.NOBODY)
_OWN_EVENTS = layout.names(sight=Sight.OWN_EVENTS)
assert _FACE_UP == ("pile", "pending_pile"), _FACE_UP


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

