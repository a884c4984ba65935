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
from collections.abc import Sequence
from dataclasses import dataclass

from canasta.core import goingout, legality, transitions
from canasta.core.actions import (
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
)
from canasta.core.cards import cards_of, make_deck
from canasta.core.data import HandData
from canasta.core.data import MisdealError as MisdealError
from canasta.core.data import Phase as Phase
from canasta.core.legality import IllegalActionError as IllegalActionError
from canasta.core.melds import RED3, meld_key
from canasta.core.melds import SEQUENCE_KEY as SEQUENCE_KEY
from canasta.core.rule_values import check_bounds, check_deal
from canasta.core.rules import Rules


@dataclass(frozen=True, slots=True)
class View:
    """What one seat may see (the information set's public part plus its own hand).

    Never another player's hand, the stock order or the surprise cards.
    """

    seat: int
    team: int
    players: int
    teams: tuple[tuple[int, ...], ...]
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    melds: tuple[dict[int, tuple[int, ...]], ...]
    red_threes: tuple[tuple[int, ...], ...]
    pile_top: int | None
    pile_size: int
    pile_frozen: bool
    stopped: bool
    stock_size: int
    scores: tuple[int, ...]
    opened: tuple[bool, ...]
    opening_minimum: tuple[int, ...]
    opening_points: int
    phase: Phase
    current: int
    actor: int
    log: tuple[str, ...]
    rules: Rules
    legal_actions: tuple[Action, ...]


class State(HandData):
    """One hand of Canasta, from the deal to the score sheet.

    Create it with :meth:`deal`. Seats are numbered in playing order; ``teams[t]`` lists the
    seats of team ``t``. Hands are counts per card code (``hands[seat][code]``). The fields
    and read-only queries are :class:`~canasta.core.data.HandData`'s.
    """

    __slots__ = ()

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
            RulesError: deal or turn values out of bounds, or a deal that cannot leave a
                natural upcard (:func:`canasta.core.rule_values.check_deal`).
            MisdealError: the deal must be redone (seed 000).
        """
        if players not in rules.deal.player_counts:
            raise ValueError(
                f"{rules.name} is played by {', '.join(map(str, rules.deal.player_counts))} "
                f"players, not {players} [deal.player_counts]"
            )
        # Rules built directly (not through load_preset) are checked here too: no deal may
        # allocate a runaway deck or turn upcards without end (issue 9 item 14).
        check_bounds(rules, ("deal", "turn"))
        check_deal(rules)
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
        s = cls.__new__(cls)
        s.init_fields(rules, players, teams, tuple(order), dealer,
                      list(scores) if scores is not None else [0] * len(teams))
        starter = transitions.deal_cards(s, order)
        transitions.begin_turn(s, starter)
        s._end_if_stock_exhausted()
        return s

    def _end_if_stock_exhausted(self) -> None:
        """At the start of a turn, with the stock gone and no legal take, the hand ends."""
        if self.phase is Phase.DRAW and not self.stock:
            takes = legality.take_candidates(self)
            if not any(legality.check_take(self, self.actor, a.cards) is None for a in takes):
                transitions.end(self, "stock_exhausted")

    def view(self, seat: int) -> View:
        """What ``seat`` may see; ``legal_actions`` is filled when ``seat`` is to act."""
        top = self.pile[-1] if self.pile else None
        team = self.team_of[seat]
        return View(
            seat=seat,
            team=team,
            players=self.players,
            teams=self.teams,
            hand=tuple(cards_of(self.hands[seat])),
            hand_sizes=tuple(self.hand_size),
            melds=tuple({k: tuple(v) for k, v in m.items()} for m in self.melds),
            red_threes=tuple(tuple(r) for r in self.red_threes),
            pile_top=top,
            pile_size=len(self.pile),
            pile_frozen=self.frozen_for(team),
            stopped=self.top_stops(self.team_of[self.current]),
            stock_size=len(self.stock),
            scores=tuple(self.scores),
            opened=tuple(self.opened),
            opening_minimum=tuple(self.opening_minimum(t) for t in range(len(self.teams))),
            opening_points=self.opening_points if self.team_of[self.current] == team else 0,
            phase=self.phase,
            current=self.current,
            actor=self.actor,
            log=tuple(self.log),
            rules=self.rules,
            legal_actions=tuple(legality.legal_actions(self)) if seat == self.actor else (),
        )

    # -- legal actions (canasta.core.legality) --------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act (``self.actor``); empty once the hand is over.

        Cards of one rank are interchangeable for the rules, so an action names one canonical
        choice of suits; :meth:`apply` accepts any cards actually held. Never changes the state.
        """
        return legality.legal_actions(self)

    def check(self, action: Action) -> str | None:
        """Why ``action`` is illegal now (the message names the rule), or None when legal."""
        return legality.check(self, action)

    def is_legal(self, action: Action) -> bool:
        return legality.check(self, action) is None

    def can(self, action: Action) -> bool:
        """Is ``action`` legal now for the seat to act?"""
        return legality.check(self, action) is None

    # -- applying ------------------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Apply ``action`` for the seat to act.

        Raises:
            IllegalActionError: the action breaks a rule (named in ``.rule``); the state is
            unchanged.
        """
        legality.verify(self, action)
        seat = self.actor
        self.history.append((seat, action))
        self.log.append(f"seat {seat}: {action.text() if not isinstance(action, Draw) else 'draw'}")
        if isinstance(action, Draw):
            transitions.draw(self, seat)
        elif isinstance(action, TakePile):
            team = self.team_of[seat]
            top_only = legality.top_card_only(self, team, action.cards)
            transitions.take_pile(self, seat, action.cards, top_only)
            if self.hand_size[seat] == 0 and self.phase is not Phase.OVER:
                if legality.going_out_error(self, seat, None) is None:
                    transitions.go_out(self, seat)
        elif isinstance(action, Meld):
            if action.cards and all(c in RED3 for c in action.cards):
                transitions.declare(self, seat, action.cards)
            else:
                transitions.meld(self, seat, action.cards,
                                 meld_key(self.melds[self.team_of[seat]], action.cards))
        elif isinstance(action, LayOff):
            transitions.meld(self, seat, action.cards, action.rank)
        elif isinstance(action, Discard):
            transitions.discard(self, seat, action.card)
            self._end_if_stock_exhausted()
        elif isinstance(action, AskPartner):
            transitions.ask_partner(self, seat)
        elif isinstance(action, Answer):
            transitions.answer(self, action.yes)
        elif isinstance(action, Retract):
            transitions.retract(self, seat)
        elif isinstance(action, EndHand):
            transitions.end(self, "stock_exhausted")

    # -- going out (canasta.core.goingout) -------------------------------------------------------
    def going_out_plan(self) -> list[Action] | None:
        """A sequence of melds, lay-offs and a final discard with which the player to act goes
        out this turn, or None (see :func:`canasta.core.goingout.going_out_plan`)."""
        return goingout.going_out_plan(self)
