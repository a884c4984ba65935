"""Events: frozen values saying what happened in a hand, the one history of a state.

Every action applied gives one event (:meth:`State.apply <canasta.core.state.State.apply>`
returns it); the bookkeeping an action or the deal sets off (red threes laid out, the upcard,
an opening completed, the end of the hand) gives events of its own, which follow it in
``state.events``. An action's event carries the action itself (``event.action``) and the seat
that played it (``event.seat``).

Hidden information: an event may hold cards that only one seat may see (a draw, the deal, the
cards drawn with the pile, the replacements of red threes). ``event.visible_to(seat)`` is the
event as ``seat`` sees it: hidden cards become ``None`` while their count stays
(``drawn_count``); ``event.public()`` is what every seat sees. Card values are card codes
(:mod:`canasta.core.cards`); meld keys are those of :mod:`canasta.core.melds`.

The history is a persistent chain (:class:`EventLog`): a copy of a state shares it, so
``clone()`` costs the same at any point of the hand.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from canasta.core.actions import Action
from canasta.core.scoring import ScoreSheet

Cards = tuple[int, ...]

#: ``visible_to`` for a seat that sees no hand (an onlooker): every hidden card is hidden.
PUBLIC = -1


@dataclass(frozen=True, slots=True)
class Dealt:
    """The cards were dealt: ``hands[seat]`` (None where hidden), ``hand_sizes`` per seat;
    ``first`` plays first."""

    dealer: int
    first: int
    hands: tuple[Cards | None, ...]
    hand_sizes: tuple[int, ...]

    def visible_to(self, seat: int) -> Dealt:
        return replace(self, hands=tuple(h if s == seat else None
                                         for s, h in enumerate(self.hands)))

    def public(self) -> Dealt:
        return self.visible_to(PUBLIC)


@dataclass(frozen=True, slots=True)
class RedThreesLaidOut:
    """``seat`` laid out the red threes ``cards`` from its hand (after the deal, or found in
    the pile it received) and drew ``replaced`` (hidden: None; ``replaced_count`` cards) from
    the stock."""

    seat: int
    cards: Cards
    replaced: Cards | None = ()
    replaced_count: int = 0

    def visible_to(self, seat: int) -> RedThreesLaidOut:
        return self if seat == self.seat else replace(self, replaced=None)

    def public(self) -> RedThreesLaidOut:
        return self.visible_to(PUBLIC)


@dataclass(frozen=True, slots=True)
class UpcardTurned:
    """The top card of the stock was turned to start the pile; ``special`` (a wild card, a red
    three or a black three where the rules say) means another card is turned after it."""

    card: int
    special: bool

    def visible_to(self, seat: int) -> UpcardTurned:
        return self

    def public(self) -> UpcardTurned:
        return self


@dataclass(frozen=True, slots=True)
class Drew:
    """``seat`` drew ``drawn`` (hidden from the others: None; ``drawn_count`` cards) into its
    hand; red threes drawn on the way were laid out (``red_threes``, public)."""

    seat: int
    action: Action
    drawn: Cards | None
    drawn_count: int
    red_threes: Cards = ()

    def visible_to(self, seat: int) -> Drew:
        # The constructor, not dataclasses.replace (5x slower): every view's ``events`` hides
        # every other seat's draws, on the search bots' hot path.
        return self if seat == self.seat else Drew(self.seat, self.action, None,
                                                   self.drawn_count, self.red_threes)

    def public(self) -> Drew:
        return self.visible_to(PUBLIC)


@dataclass(frozen=True, slots=True)
class TookPile:
    """``seat`` took the discard pile: its ``top`` card went on the side's meld ``key`` with
    ``cards`` from hand; ``pile`` are the pile's other cards (into the hand, or held until the
    opening is complete; empty with ``top_only``; ``pile_count`` of them), seen by the taker
    only, as the pile below its top is seen by nobody; ``surprise`` the surprise cards that
    came with it (``surprise_count``), seen by every seat: the taker shows them (S004 "Cel care
    rupe primul ia si surprizele daca exista dupa ce le arata celorlalti jucatori"); ``drawn``
    the cards drawn from the stock
    with the pile (hidden: None; ``drawn_count``); ``red_threes`` laid out while drawing."""

    seat: int
    action: Action
    top: int
    key: int
    cards: Cards
    pile: Cards | None
    pile_count: int
    top_only: bool
    surprise: Cards | None = ()
    surprise_count: int = 0
    drawn: Cards | None = ()
    drawn_count: int = 0
    red_threes: Cards = ()

    def visible_to(self, seat: int) -> TookPile:
        if seat == self.seat:
            return self
        return replace(self, pile=None, drawn=None)

    def public(self) -> TookPile:
        return self.visible_to(PUBLIC)


@dataclass(frozen=True, slots=True)
class Melded:
    """``seat`` put ``cards`` on the side's meld ``key`` (``new``: a new meld; ``lay-off``
    otherwise); ``out_of_play``: black threes put out of play
    (``melds.black_threes_out_of_play``), with ``partner_cards``, the black threes of the
    partners that leave play with them (S004 "Partenerii se pot intreba intre ei daca au
    treiari de negru pentru a-i scoate din joc")."""

    seat: int
    action: Action
    key: int
    cards: Cards
    new: bool
    out_of_play: bool = False
    partner_cards: Cards = ()

    def visible_to(self, seat: int) -> Melded:
        return self

    def public(self) -> Melded:
        return self


@dataclass(frozen=True, slots=True)
class RedThreesDeclared:
    """``seat`` declared kept red threes ``cards`` (``red_threes.may_keep_as_stop``) and drew
    their replacements ``drawn`` (hidden: None; ``drawn_count``)."""

    seat: int
    action: Action
    cards: Cards
    drawn: Cards | None
    drawn_count: int
    red_threes: Cards = ()

    def visible_to(self, seat: int) -> RedThreesDeclared:
        return self if seat == self.seat else replace(self, drawn=None)

    def public(self) -> RedThreesDeclared:
        return self.visible_to(PUBLIC)


@dataclass(frozen=True, slots=True)
class Opened:
    """``team`` completed its initial meld with ``points`` (``seat`` melded last);
    ``pile_to_hand``: the pile taken this turn, which now comes to ``seat``'s hand (seen by
    ``seat`` only: None for the others; ``pile_count`` cards)."""

    team: int
    seat: int
    points: int
    pile_to_hand: Cards | None = ()
    pile_count: int = 0

    def visible_to(self, seat: int) -> Opened:
        return self if seat == self.seat else replace(self, pile_to_hand=None)

    def public(self) -> Opened:
        return self.visible_to(PUBLIC)


@dataclass(frozen=True, slots=True)
class Discarded:
    """``seat`` discarded ``card`` (the turn passes, or, with the last card, it went out)."""

    seat: int
    action: Action
    card: int

    def visible_to(self, seat: int) -> Discarded:
        return self

    def public(self) -> Discarded:
        return self


@dataclass(frozen=True, slots=True)
class Asked:
    """``seat`` asked ``partner`` whether it may go out."""

    seat: int
    action: Action
    partner: int

    def visible_to(self, seat: int) -> Asked:
        return self

    def public(self) -> Asked:
        return self


@dataclass(frozen=True, slots=True)
class Answered:
    """``seat`` answered its partner: ``yes`` (binding)."""

    seat: int
    action: Action
    yes: bool

    def visible_to(self, seat: int) -> Answered:
        return self

    def public(self) -> Answered:
        return self


@dataclass(frozen=True, slots=True)
class Retracted:
    """``seat`` took back its side's unfinished opening: ``to_hand`` came back to its hand
    (cards that were on the table), ``to_pile`` back to the discard pile and ``to_stock``
    from its hand back to the stock (cards drawn with the pile), both seen by ``seat`` only
    (None for the others; ``to_pile_count``, ``to_stock_count`` cards); ``team``'s minimum
    is now ``minimum``."""

    seat: int
    action: Action
    team: int
    to_hand: Cards
    to_pile: Cards | None
    to_pile_count: int
    minimum: int
    to_stock: Cards | None = ()
    to_stock_count: int = 0

    def visible_to(self, seat: int) -> Retracted:
        return self if seat == self.seat else replace(self, to_pile=None, to_stock=None)

    def public(self) -> Retracted:
        return self.visible_to(PUBLIC)


class EndReason(StrEnum):
    """How a hand ended, as data (a ``StrEnum``: the value is its text in JSON, records and
    positions; front ends name it through the catalogues). Seed 004 "Fiecare joc (dona) se
    termina cand: un jucator a iesit ...; se termina stocul de carti (daca ultima carte e 3
    rosu, jocul se incheie in acel punct ...)"."""

    #: A player went out.
    WENT_OUT = "went_out"
    #: The stock ran out and play on the discard ended.
    STOCK_EXHAUSTED = "stock_exhausted"
    #: The last card of the stock was a red three (``red_threes.last_stock_red_three_ends_hand``).
    LAST_CARD_RED_THREE = "last_card_red_three"


@dataclass(frozen=True, slots=True)
class HandEnded:
    """The hand is over: ``reason`` (an :class:`EndReason`) is ``went_out``,
    ``stock_exhausted`` or ``last_card_red_three``; ``went_out`` the seat that went out
    (``concealed``: without having melded before); ``scores`` the score sheet of each team;
    ``seat``/``action``: the ``end-hand`` action that ended it, or None when the hand ended by
    itself."""

    reason: str
    went_out: int | None
    concealed: bool
    scores: tuple[ScoreSheet, ...]
    seat: int | None = None
    action: Action | None = None

    def visible_to(self, seat: int) -> HandEnded:
        return self

    def public(self) -> HandEnded:
        return self


@dataclass(frozen=True, slots=True)
class Played:
    """``seat`` played ``action``; what it did beyond that was not recorded (a history read
    from a position written before events existed)."""

    seat: int
    action: Action

    def visible_to(self, seat: int) -> Played:
        return self

    def public(self) -> Played:
        return self


Event = (Dealt | RedThreesLaidOut | UpcardTurned | Drew | TookPile | Melded | RedThreesDeclared
         | Opened | Discarded | Asked | Answered | Retracted | HandEnded | Played)

#: The events that are an action's own (they carry ``seat`` and ``action``).
ACTION_EVENTS = (Drew, TookPile, Melded, RedThreesDeclared, Discarded, Asked, Answered,
                 Retracted, Played)


def action_of(event: Event) -> tuple[int, Action] | None:
    """``(seat, action)`` when ``event`` is an action's own event, else None."""
    if isinstance(event, ACTION_EVENTS):
        return event.seat, event.action
    if isinstance(event, HandEnded) and event.action is not None and event.seat is not None:
        return event.seat, event.action
    return None


def actions_of(events: tuple[Event, ...] | list[Event]) -> list[tuple[int, Action]]:
    """The actions played, in order, as ``(seat, action)``."""
    out: list[tuple[int, Action]] = []
    for e in events:
        sa = action_of(e)
        if sa is not None:
            out.append(sa)
    return out


#: ``EventLog.seat`` of a hand's whole history (every card, hidden ones included).
WHOLE = -2


class EventLog:
    """A persistent (immutable, shared) chain of events: ``push`` returns a longer log and
    leaves this one as it was, so copies of a state share their history.

    ``len(log)`` is the number of events; ``log.events()`` the tuple, oldest first (cached).
    ``log.seat`` is :data:`WHOLE` for a state's own history, else the seat (or
    :data:`PUBLIC`) whose copy of a history this is (:func:`seen_by`): its events are
    ``visible_to(seat)``, and nothing reachable from it holds a card that seat did not see.
    Pickled as its events (a long chain pickles without deep recursion).
    """

    __slots__ = ("event", "prev", "size", "_tuple", "seat", "_seen")

    def __init__(self, event: Event, prev: EventLog | None, seat: int = WHOLE) -> None:
        self.event = event
        self.prev = prev
        self.size: int = 1 + (prev.size if prev is not None else 0)
        self._tuple: tuple[Event, ...] | None = None
        self.seat = seat
        # This point's copy per seat that saw it (seen_by); never reachable from a copy.
        self._seen: dict[int, EventLog] | None = None

    def __len__(self) -> int:
        return self.size

    def __eq__(self, other: object) -> bool:
        """Equal logs hold equal events (the same object, or a replay of the same hand)."""
        if self is other:
            return True
        if not isinstance(other, EventLog):
            return NotImplemented
        return self.size == other.size and self.events() == other.events()

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[object, ...]:
        return (_log_of, (self.events(), self.seat))

    def events(self) -> tuple[Event, ...]:
        if self._tuple is None:
            out: list[Event] = []
            node: EventLog | None = self
            while node is not None:
                if node._tuple is not None:
                    out.extend(reversed(node._tuple))
                    break
                out.append(node.event)
                node = node.prev
            out.reverse()
            self._tuple = tuple(out)
        return self._tuple


def _log_of(events: tuple[Event, ...], seat: int) -> EventLog | None:
    """The log of ``events`` (what :meth:`EventLog.__reduce__` gives pickle)."""
    log: EventLog | None = None
    for event in events:
        log = EventLog(event, log, seat)
    if log is not None:
        log._tuple = events
    return log


def push(log: EventLog | None, event: Event) -> EventLog:
    """``log`` with ``event`` appended (``log`` itself is unchanged); the new point is a
    whole history's (:data:`WHOLE`), whatever ``log`` is (a state played on from a seat's
    copy, as :meth:`View.sample_state <canasta.core.view.View.sample_state>` gives, has a
    whole history of its own from there)."""
    return EventLog(event, log)


def seen_by(log: EventLog | None, seat: int) -> EventLog | None:
    """The history ``log`` as ``seat`` saw it (:data:`PUBLIC`: an onlooker): a chain of its
    own, each event ``visible_to(seat)``, holding no reference to ``log``. Each point's copy
    is kept on that point, so a seat's copies of one history share their common part and
    the cost is the number of events not copied yet for that seat."""
    todo: list[EventLog] = []
    node = log
    base: EventLog | None = None
    while node is not None:
        if node.seat == seat:
            base = node
            break
        seen = node._seen
        if seen is not None:
            got = seen.get(seat)
            if got is not None:
                base = got
                break
        todo.append(node)
        node = node.prev
    for node in reversed(todo):
        base = EventLog(node.event.visible_to(seat), base, seat)
        if node._seen is None:
            node._seen = {seat: base}
        else:
            node._seen[seat] = base
    return base


def events_of(log: EventLog | None) -> tuple[Event, ...]:
    return log.events() if log is not None else ()

