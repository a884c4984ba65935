"""The engine: the state of one hand (deal to score) and its transitions.

The data of a hand is :class:`~canasta.core.data.HandData`; which actions are legal, and why
others are refused, is in :mod:`canasta.core.legality`; the changes an action makes are in
:mod:`canasta.core.transitions`; finding a way to go out is in :mod:`canasta.core.goingout`.
``State.legal_actions``, ``State.verify``, ``State.can`` and ``State.apply`` are the entry
points.

One :class:`State` serves every variant; it asks the :class:`~canasta.rules.Rules` record and
never which variant it plays. A turn is::

    DRAW  -> draw | take-pile ...            (the stock empty: take-pile | end-hand)
    PLAY  -> meld | lay-off | ask-partner | retract | ... | discard (ends the turn)
    ANSWER (the partner) -> answer yes | answer no

Bookkeeping with no decision in it is automatic: dealing, laying out and replacing red threes,
forming the pile, ending the hand when the stock is gone and nobody can take the discard.

The initial meld is made one meld at a time: while a side has not opened, the melds of the turn
are provisional and their points add up (seed 002: "la somma dei punteggi ... delle carte usate
nella calata"); the side is open once they reach the minimum. Until then the player may not
discard; ``retract`` takes the provisional melds back and raises the side's minimum by
``rules.opening.retract_penalty`` (seed 000: "si riprendono in mano le carte esposte e il
punteggio richiesto per l'apertura aumenta di 10 punti").
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import TypeAlias, overload

from canasta.core import candidates, goingout, goingout_rules, legality, transitions
from canasta.core.actions import (
    ACTION_TYPES,
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
    parse_action,
)
from canasta.core.cards import make_deck
from canasta.core.data import HandData
from canasta.core.data import MisdealError as MisdealError
from canasta.core.data import Phase as Phase
from canasta.core.eventlog import EventLog
from canasta.core.events import Event
from canasta.core.illegal import not_an_action
from canasta.core.legality import IllegalActionError as IllegalActionError
from canasta.core.melds import RED3, meld_key
from canasta.core.melds import SEQUENCE_KEY as SEQUENCE_KEY
from canasta.core.rules import Rules
from canasta.core.view import View as _View
from canasta.core.view import make_view


class LegalActions(Sequence[Action]):
    """The legal actions of a state, as python-chess's ``board.legal_moves``: iterating,
    ``len`` and indexing give the canonical choices (:meth:`State.legal_actions`), and ``in``
    asks the state (:meth:`State.can`), so it agrees with ``can`` for every action.

    A view of the state when it was listed: once the state has changed, ``in`` raises
    ``RuntimeError`` (list the legal actions again).
    """

    __slots__ = ("_state", "_log", "_actions")

    def __init__(self, state: State, actions: list[Action]) -> None:
        self._state = state
        self._log = state.event_log
        self._actions = actions

    def __len__(self) -> int:
        return len(self._actions)

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        return self._actions[index]

    def __iter__(self) -> Iterator[Action]:
        return iter(self._actions)

    def __contains__(self, action: object) -> bool:
        if self._state.event_log is not self._log:
            raise RuntimeError("the state has changed since its legal actions were listed")
        if not isinstance(action, ACTION_TYPES):
            return False
        return self._state.can(action)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalActions):
            return self._actions == other._actions
        if isinstance(other, (list, tuple)):
            return self._actions == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LegalActions({self._actions!r})"


class State(HandData):
    """One hand of Canasta, from the deal to the score sheet.

    Create it with :meth:`deal`. Seats are numbered in playing order; ``teams[t]`` lists the
    seats of team ``t``. Hands are counts per card code (``hands[seat][code]``). The fields
    and read-only queries are :class:`~canasta.core.data.HandData`'s.
    """

    __slots__ = ("_listed", "_listed_log")

    def __init__(self) -> None:
        # The legal actions last listed for the seat to act (legal_actions(), or view() of
        # that seat) and the history they were listed at: apply() does not check those very
        # objects again while the history has not moved on. Not a field of the hand: a copy
        # starts without (clone() makes its copy through this constructor).
        self._listed: Sequence[Action] | None = None
        self._listed_log: EventLog | None = None

    # -- construction --------------------------------------------------------------------------
    @classmethod
    def deal(
        cls,
        rules: Rules,
        players: int = 4,
        *,
        deck: Sequence[int] | None = None,
        seed: int | None = None,
        dealer: int = 0,
        scores: Sequence[int] | None = None,
        team_size: int | None = None,
    ) -> State:
        """Deal a new hand.

        Args:
            rules: the rule set.
            players: number of players (one of ``rules.deal.player_counts``).
            deck: the deck order, top card first; shuffled from ``seed`` when omitted.
            seed: seed of the shuffle (``random.Random(seed)``).
            dealer: the dealer's seat; the seat after the dealer plays first (seed 002: "partendo
                dal giocatore alla sua sinistra, il quale sarà il primo a giocare").
            scores: each team's match score before the hand (sets the opening minimum).
            team_size: players per team (6 players: 3, or 2 for three pairs).

        Raises:
            ValueError: a player count or deck that the rules do not allow.
            MisdealError: the deal must be redone (seed 000).
        """
        if players not in rules.deal.player_counts:
            raise ValueError(
                f"{rules.name} is played by {', '.join(map(str, rules.deal.player_counts))} "
                f"players, not {players} [deal.player_counts]"
            )
        teams = rules.teams(players, team_size)
        full = make_deck(rules.packs(players), rules.deal.jokers_per_pack)
        if deck is None:
            order = list(full)
            random.Random(seed).shuffle(order)
        else:
            order = list(deck)
            if sorted(order) != sorted(full):
                raise ValueError(
                    f"the deck order is not a full deck of {len(full)} cards for these rules"
                )
        s = cls()  # no __init__: every field is set by init_fields
        s.init_fields(rules, players, teams, tuple(order), dealer,
                      list(scores) if scores is not None else [0] * len(teams))
        starter = transitions.deal_cards(s, order)
        transitions.begin_turn(s, starter)
        s._end_if_stock_exhausted()
        return s

    def _end_if_stock_exhausted(self) -> None:
        """At the start of a turn, with the stock gone and no legal take, the hand ends."""
        if self.phase is Phase.DRAW and not self.stock:
            takes = candidates.take_candidates(self)
            if not any(legality.check_take(self, self.actor, a.cards) is None for a in takes):
                transitions.end(self, "stock_exhausted")

    def view(self, seat: int) -> View:
        """What ``seat`` may see, with the cards the others know to be in each hand; see
        :class:`canasta.core.view.View` (``view.sample_state(rng)`` deals the rest)."""
        view = make_view(self, seat)
        if seat == self.actor:
            self._listed = view._actions
            self._listed_log = self.event_log
        return view

    # -- legal actions (canasta.core.legality) --------------------------------------------------
    def legal_actions(self) -> LegalActions:
        """Every legal action of the seat to act (``self.actor``); empty once the hand is over.

        A sequence (iterate, ``len``, index, ``random.choice``) of one canonical choice of
        suits per legal way to play (the suit-choice rule, :mod:`canasta.core.actions`);
        ``action in state.legal_actions()`` is :meth:`can`, so it holds for any choice of
        suits actually held. Never changes the state.

        :meth:`apply` trusts the very actions listed here (or in ``view(actor).legal_actions``)
        without checking them again, until the state moves on; a state whose fields are set by
        hand must list them again.
        """
        actions = legality.legal_actions(self)
        self._listed = actions
        self._listed_log = self.event_log
        return LegalActions(self, actions)

    def verify(self, action: Action | str) -> None:
        """Raise when ``action`` (an action, or its text as :func:`parse_action
        <canasta.core.actions.parse_action>` reads it) is not legal now for the seat to act;
        never changes the state.

        Raises:
            ActionParseError: the text does not read (the message says what is wrong in it).
            TypeError: ``action`` is neither an action nor a string.
            IllegalActionError: ``.rule`` names the rule broken (a ``Rules`` field path such as
                ``melds.min_cards``, or a named rule of the game such as ``turn order``),
                ``.values`` what broke it (for message catalogues), ``.reason`` an English
                sentence.
        """
        if isinstance(action, str):
            action = parse_action(action)
        legality.verify(self, action)

    def can(self, action: Action | str) -> bool:
        """Is ``action`` (or its text) legal now for the seat to act? Agrees with ``verify``
        and with ``action in self.legal_actions()``.

        Raises:
            ActionParseError, TypeError: as :meth:`verify` (text that does not read is no
            action at all).
        """
        if isinstance(action, str):
            action = parse_action(action)
        try:
            legality.verify(self, action)
        except IllegalActionError:
            return False
        return True

    # -- applying ------------------------------------------------------------------------------
    def apply(self, action: Action | str) -> Event:
        """Apply ``action`` for the seat to act and return its event; ``action`` may be its
        text (``state.apply("meld 9s 9d JK")``, read by :func:`parse_action
        <canasta.core.actions.parse_action>`, as python-chess's ``push_uci``).

        The event is the action's own (:mod:`canasta.core.events`: ``Drew``, ``TookPile``,
        ``Melded``, ...); what it set off (an opening completed, red threes laid out, the end
        of the hand with its score sheet) follows it in ``state.events``.

        An action that is one of the very objects :meth:`legal_actions` (or ``view(actor)``)
        listed for this state, the state unchanged since, is applied without checking it
        again; any other value (an equal action built elsewhere included) is checked first.

        Raises:
            IllegalActionError: the action breaks a rule (named in ``.rule``); the state is
                unchanged.
            ActionParseError: the text does not read (the message says what is wrong in it);
                the state is unchanged.
            TypeError: ``action`` is neither an action nor a string; the state is unchanged.
        """
        if isinstance(action, str):
            action = parse_action(action)
        try:
            listed = self._listed
            trusted = (listed is not None and self._listed_log is self.event_log
                       and _among(action, listed))
        except AttributeError:  # made without __init__ (State.__new__): nothing listed
            trusted = False
        if not trusted:
            legality.verify(self, action)
        self._listed = None
        seat = self.actor
        event: Event
        if isinstance(action, Draw):
            event = transitions.draw(self, seat, action)
        elif isinstance(action, TakePile):
            team = self.team_of[seat]
            top_only = legality.top_card_only(self, team, action.cards)
            event = transitions.take_pile(self, seat, action, action.cards, top_only)
            if self.hand_size[seat] == 0 and self.phase is not Phase.OVER:
                if goingout_rules.going_out_error(self, seat, None) is None:
                    transitions.go_out(self, seat)
        elif isinstance(action, Meld):
            if action.cards and all(c in RED3 for c in action.cards):
                event = transitions.declare(self, seat, action, action.cards)
            else:
                event = transitions.meld(self, seat, action, action.cards,
                                         meld_key(self.melds[self.team_of[seat]], action.cards))
        elif isinstance(action, LayOff):
            event = transitions.meld(self, seat, action, action.cards, action.rank)
        elif isinstance(action, Discard):
            event = transitions.discard(self, seat, action, action.card)
            self._end_if_stock_exhausted()
        elif isinstance(action, AskPartner):
            event = transitions.ask_partner(self, seat, action)
        elif isinstance(action, Answer):
            event = transitions.answer(self, seat, action, action.yes)
        elif isinstance(action, Retract):
            event = transitions.retract(self, seat, action)
        elif isinstance(action, EndHand):
            event = transitions.end(self, "stock_exhausted", seat, action)
        else:  # verify lets no other value through; kept so that nothing ends a hand by default
            raise not_an_action(action)
        return event

    # -- going out (canasta.core.goingout) -------------------------------------------------------
    def going_out_plan(self) -> list[Action] | None:
        """A sequence of melds, lay-offs and a final discard with which the player to act goes
        out this turn, or None (see :func:`canasta.core.goingout.going_out_plan`)."""
        return goingout.going_out_plan(self)


def _among(action: object, listed: Sequence[Action]) -> bool:
    """Is ``action`` one of the very objects of ``listed`` (identity, not equality: an equal
    action built elsewhere is checked as any other)?"""
    for a in listed:
        if a is action:
            return True
    return False


#: What one seat may see of a :class:`State` (:class:`canasta.core.view.View`).
View: TypeAlias = _View[State]
