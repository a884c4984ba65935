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

The history is a persistent chain (:class:`EventLog`, compiled in
:mod:`canasta.core.eventlog` and re-exported here): a copy of a state shares it, so
``clone()`` costs the same at any point of the hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from canasta.core.actions import Action
from canasta.core.eventlog import PUBLIC as PUBLIC
from canasta.core.eventlog import WHOLE as WHOLE
from canasta.core.eventlog import EventLog as EventLog
from canasta.core.eventlog import _log_of as _log_of
from canasta.core.eventlog import push as push
from canasta.core.eventlog import seen_by as seen_by
from canasta.core.scoring import ScoreSheet

Cards = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Dealt:
    """The cards were dealt: ``hands[seat]`` (None where hidden), ``hand_sizes`` per seat;
    ``first`` plays first."""

    dealer: int
    first: int
    hands: tuple[Cards | None, ...]
    hand_sizes: tuple[int, ...]

    def visible_to(self, seat: int) -> Dealt:
        return Dealt(self.dealer, self.first,
                     tuple(h if s == seat else None for s, h in enumerate(self.hands)),
                     self.hand_sizes)

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
        return self if seat == self.seat else RedThreesLaidOut(
            self.seat, self.cards, None, self.replaced_count)

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
        # The constructor, not dataclasses.replace (5x slower), here and in every
        # visible_to: every view copies the events it has not seen yet (seen_by).
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
        return TookPile(self.seat, self.action, self.top, self.key, self.cards, None,
                        self.pile_count, self.top_only, self.surprise, self.surprise_count,
                        None, self.drawn_count, self.red_threes)

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
        return self if seat == self.seat else RedThreesDeclared(
            self.seat, self.action, self.cards, None, self.drawn_count, self.red_threes)

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
        return self if seat == self.seat else Opened(
            self.team, self.seat, self.points, None, self.pile_count)

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
        return self if seat == self.seat else Retracted(
            self.seat, self.action, self.team, self.to_hand, None, self.to_pile_count,
            self.minimum, None, self.to_stock_count)

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


def events_of(log: EventLog | None) -> tuple[Event, ...]:
    """The events of ``log``, oldest first (``()`` for no log)."""
    return log.events() if log is not None else ()
