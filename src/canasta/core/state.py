"""The engine: the state of one hand (deal to score) and its transitions.

Which actions are legal, and why others are refused, is in :mod:`canasta.legality`; finding a
way to go out is in :mod:`canasta.goingout`. ``State.legal_actions``, ``State.check`` and
``State.apply`` are the entry points.

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

from canasta.core import goingout, legality
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
from canasta.core.cards import (
    JOKER,
    NUM_CODES,
    POINTS,
    card_text,
    cards_of,
    make_deck,
)
from canasta.core.legality import BLACK3, IS_WILD, RANK, RED3

# Defined with the legality checks, and part of the engine's API.
from canasta.core.legality import SEQUENCE_KEY as SEQUENCE_KEY
from canasta.core.legality import IllegalActionError as IllegalActionError
from canasta.core.legality import Phase as Phase
from canasta.core.rule_values import check_bounds, check_deal
from canasta.core.rules import Rules
from canasta.core.scoring import ScoreSheet, TeamHand, score_hand


class MisdealError(RuntimeError):
    """The deal must be redone (seed 000: three wild cards turned before a natural)."""


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


class State:
    """One hand of Canasta, from the deal to the score sheet.

    Create it with :meth:`deal`. Seats are numbered in playing order; ``teams[t]`` lists the
    seats of team ``t``. Hands are counts per card code (``hands[seat][code]``).
    """

    __slots__ = (
        "rules", "players", "teams", "team_of", "hands", "hand_size", "stock", "pile",
        "pile_frozen", "surprise", "melds", "red_threes", "opened", "scores", "min_extra",
        "dealer", "current", "actor", "phase", "turn", "deck",
        "took_pile", "melded_this_turn", "opening_points", "provisional", "snapshot",
        "pending_pile", "asked", "answer", "opened_at_turn_start", "player_melded",
        "stopped_turn", "no_discard", "asks", "end_reason", "went_out", "concealed",
        "history", "log", "_must_check", "joker_turn",
    )

    rules: Rules
    players: int
    teams: tuple[tuple[int, ...], ...]
    team_of: tuple[int, ...]
    hands: list[list[int]]
    hand_size: list[int]
    stock: list[int]
    pile: list[int]
    pile_frozen: bool
    surprise: list[int]
    melds: list[dict[int, list[int]]]
    red_threes: list[list[int]]
    opened: list[bool]
    scores: list[int]
    min_extra: list[int]
    dealer: int
    current: int
    actor: int
    phase: Phase
    turn: int
    deck: tuple[int, ...]
    took_pile: bool
    melded_this_turn: bool
    opening_points: int
    provisional: bool
    snapshot: State | None
    pending_pile: list[int]
    asked: bool
    answer: bool | None
    opened_at_turn_start: bool
    player_melded: list[bool]
    stopped_turn: bool
    no_discard: bool
    asks: list[int]
    end_reason: str
    went_out: int | None
    concealed: bool
    history: list[tuple[int, Action]]
    log: list[str]
    _must_check: bool
    #: Per team, the turn in which it last put a joker on the table (-1: never); see
    #: ``OpeningRules.joker_meld_blocks_mattoni``.
    joker_turn: list[int]

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
        s = cls.__new__(cls)
        s.rules = rules
        s.players = players
        s.teams = rules.teams(players, team_size)
        team_of = [0] * players
        for t, seats in enumerate(s.teams):
            for seat in seats:
                team_of[seat] = t
        s.team_of = tuple(team_of)
        n_teams = len(s.teams)
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
        s.deck = tuple(order)
        s.hands = [[0] * NUM_CODES for _ in range(players)]
        s.hand_size = [0] * players
        s.stock = []
        s.pile = []
        s.pile_frozen = False
        s.surprise = []
        s.melds = [{} for _ in range(n_teams)]
        s.red_threes = [[] for _ in range(n_teams)]
        s.opened = [False] * n_teams
        s.scores = list(scores) if scores is not None else [0] * n_teams
        if len(s.scores) != n_teams:
            raise ValueError(f"scores: expected {n_teams} team scores, got {len(s.scores)}")
        s.min_extra = [0] * n_teams
        s.dealer = dealer % players
        s.turn = -1
        s.asks = [0] * players
        s.player_melded = [False] * players
        s.end_reason = ""
        s.went_out = None
        s.concealed = False
        s.history = []
        s.log = []
        s.snapshot = None
        s._must_check = True
        s.joker_turn = [-1] * n_teams
        s._reset_turn()

        n_cards = rules.cards_dealt(players)
        first = (s.dealer + 1) % players
        starter = first if rules.deal.first_player == "next" else (s.dealer - 1) % players
        pos = 0
        for _ in range(n_cards):
            for i in range(players):
                seat = (first + i) % players
                s.hands[seat][order[pos]] += 1
                s.hand_size[seat] += 1
                pos += 1
        s.stock = list(reversed(order[pos:]))  # next card at the end
        if rules.deal.red_threes_replaced_before_upcard:
            s._replace_dealt_red_threes(starter)
        s._form_pile()
        if not rules.deal.red_threes_replaced_before_upcard:
            s._replace_dealt_red_threes(starter)
        s._begin_turn(starter)
        return s

    def _replace_dealt_red_threes(self, first: int) -> None:
        for i in range(self.players):
            seat = (first + i) % self.players
            self._lay_out_red_threes(seat, replace=True)

    def _lay_out_red_threes(self, seat: int, replace: bool) -> bool:
        """Lay out the red threes in ``seat``'s hand; draw replacements when ``replace``.
        Returns False when a replacement was due and the stock was empty."""
        if self.rules.red_threes.may_keep_as_stop:
            return True  # kept in hand until declared (``meld 3h``) or discarded
        hand = self.hands[seat]
        team = self.team_of[seat]
        while hand[9] or hand[10]:
            for code in (9, 10):
                while hand[code]:
                    hand[code] -= 1
                    self.hand_size[seat] -= 1
                    self.red_threes[team].append(code)
                    self.log.append(f"seat {seat} lays out the red three {card_text(code)}")
                    if replace:
                        if not self.stock:
                            return False
                        card = self.stock.pop()
                        hand[card] += 1
                        self.hand_size[seat] += 1
        return True

    def _form_pile(self) -> None:
        r = self.rules.deal
        for _ in range(r.surprise_cards):
            if self.stock:
                self.surprise.append(self.stock.pop())
        wild_upcards = 0
        while self.stock:
            card = self.stock.pop()
            special = IS_WILD[card] or card in RED3 or (
                r.black_three_upcard_special and card in BLACK3
            )
            if not special:
                if r.upcard_seeds_pile_by_rank:
                    rank = RANK[card]
                    count = 14 if rank == 1 else rank
                    under = [self.stock.pop() for _ in range(min(count, len(self.stock)))]
                    self.pile = under + self.pile
                self.pile.append(card)
                self.log.append(f"the upcard is {card_text(card)}")
                return
            self.log.append(f"the upcard {card_text(card)} is a special card")
            if IS_WILD[card]:
                wild_upcards += 1
                if r.redeal_after_wild_upcards and wild_upcards >= r.redeal_after_wild_upcards:
                    raise MisdealError(
                        f"{wild_upcards} wild cards turned before a natural: redeal "
                        "[deal.redeal_after_wild_upcards]"
                    )
            if r.special_upcard == "bury_in_stock":
                self.stock.insert(len(self.stock) // 2, card)
                continue
            self.pile.append(card)
            if r.special_upcard_freezes and (
                IS_WILD[card] or (card in RED3 and r.red_three_upcard_freezes)
            ):
                self.pile_frozen = True

    # -- copying -------------------------------------------------------------------------------
    def clone(self) -> State:
        """An independent copy (the history list is shared copy-on-write: it is copied)."""
        s = State.__new__(State)
        s.rules = self.rules
        s.players = self.players
        s.teams = self.teams
        s.team_of = self.team_of
        s.hands = [h[:] for h in self.hands]
        s.hand_size = self.hand_size[:]
        s.stock = self.stock[:]
        s.pile = self.pile[:]
        s.pile_frozen = self.pile_frozen
        s.surprise = self.surprise[:]
        s.melds = [{k: v[:] for k, v in m.items()} for m in self.melds]
        s.red_threes = [r[:] for r in self.red_threes]
        s.opened = self.opened[:]
        s.scores = self.scores[:]
        s.min_extra = self.min_extra[:]
        s.dealer = self.dealer
        s.current = self.current
        s.actor = self.actor
        s.phase = self.phase
        s.turn = self.turn
        s.deck = self.deck
        s.took_pile = self.took_pile
        s.melded_this_turn = self.melded_this_turn
        s.opening_points = self.opening_points
        s.provisional = self.provisional
        s.snapshot = self.snapshot
        s.pending_pile = self.pending_pile[:]
        s.asked = self.asked
        s.answer = self.answer
        s.opened_at_turn_start = self.opened_at_turn_start
        s.player_melded = self.player_melded[:]
        s.stopped_turn = self.stopped_turn
        s.no_discard = self.no_discard
        s.asks = self.asks[:]
        s.end_reason = self.end_reason
        s.went_out = self.went_out
        s.concealed = self.concealed
        s.history = self.history[:]
        s.log = self.log[:]
        s._must_check = self._must_check
        s.joker_turn = self.joker_turn[:]
        return s

    def _restore(self, other: State) -> None:
        for name in State.__slots__:
            setattr(self, name, getattr(other, name))

    # -- turn bookkeeping ----------------------------------------------------------------------
    def _reset_turn(self) -> None:
        self.phase = Phase.DRAW
        self.took_pile = False
        self.melded_this_turn = False
        self.opening_points = 0
        self.provisional = False
        self.snapshot = None
        self.pending_pile = []
        self.asked = False
        self.answer = None
        self.opened_at_turn_start = False
        self.stopped_turn = False
        self.no_discard = False

    def _begin_turn(self, seat: int) -> None:
        self._reset_turn()
        self.turn += 1
        self.current = self.actor = seat
        team = self.team_of[seat]
        self.opened_at_turn_start = self.opened[team]
        self.stopped_turn = self._top_stops(team)
        if not self.stock:
            takes = legality.take_candidates(self)
            if not any(legality.check_take(self, seat, a.cards) is None for a in takes):
                self._end("stock_exhausted")

    def _top_stops(self, team: int) -> bool:
        if not self.pile:
            return False
        top = self.pile[-1]
        if top in BLACK3 and self.rules.pile.black_three_stops:
            return True
        if top in RED3 and self.rules.red_threes.may_keep_as_stop:
            return True
        if self.rules.pile.canasta_rank_discard_stops:
            meld = self.melds[team].get(RANK[top])
            if meld is not None and len(meld) >= self.rules.melds.canasta_size:
                return True
        return False

    def _frozen_for(self, team: int) -> bool:
        """Is the pile frozen for ``team`` (frozen, always frozen, or not yet opened)?"""
        p = self.rules.pile
        return self.pile_frozen or p.always_frozen or (
            p.frozen_for_unopened_side and not self.opened[team])

    def _mattoni_blocked(self, team: int) -> bool:
        """Has an opponent of ``team`` put a joker on the table within the last round?"""
        return any(
            t != team and turn >= 0 and self.turn - turn < self.players
            for t, turn in enumerate(self.joker_turn)
        )

    def _end(self, reason: str) -> None:
        self.phase = Phase.OVER
        self.end_reason = reason
        self.log.append(f"the hand ends: {reason.replace('_', ' ')}")

    # -- public queries ------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def first_round(self) -> bool:
        return self.turn < self.players

    def hand_cards(self, seat: int) -> list[int]:
        """The cards in ``seat``'s hand, in display order."""
        return cards_of(self.hands[seat])

    def opening_minimum(self, team: int) -> int:
        """The side's opening minimum now (score band plus retract penalties)."""
        return self.rules.opening_minimum(self.scores[team]) + self.min_extra[team]

    def canastas(self, team: int) -> int:
        size = self.rules.melds.canasta_size
        return sum(1 for m in self.melds[team].values() if len(m) >= size)

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
            pile_frozen=self._frozen_for(team),
            stopped=self._top_stops(self.team_of[self.current]),
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

    # -- legal actions (canasta.legality) -------------------------------------------------------
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
            self._do_draw(seat)
        elif isinstance(action, TakePile):
            self._do_take(seat, action.cards)
        elif isinstance(action, Meld):
            if action.cards and all(c in RED3 for c in action.cards):
                self._do_declare(seat, action.cards)
            else:
                self._do_meld(seat, action.cards,
                              legality.meld_key(self, self.team_of[seat], action.cards))
        elif isinstance(action, LayOff):
            self._do_meld(seat, action.cards, action.rank)
        elif isinstance(action, Discard):
            self._do_discard(seat, action.card)
        elif isinstance(action, AskPartner):
            self.asked = True
            self.asks[seat] += 1
            team = self.teams[self.team_of[seat]]
            self.actor = team[(team.index(seat) + 1) % len(team)]
            self.phase = Phase.ANSWER
        elif isinstance(action, Answer):
            self.answer = action.yes
            self.actor = self.current
            self.phase = Phase.PLAY
        elif isinstance(action, Retract):
            self._do_retract(seat)
        elif isinstance(action, EndHand):
            self._end("stock_exhausted")

    def _draw_one(self, seat: int) -> bool:
        """Draw a card into ``seat``'s hand, laying out red threes; False when the hand ended."""
        while True:
            card = self.stock.pop()
            if card in RED3 and not self.rules.red_threes.may_keep_as_stop:
                team = self.team_of[seat]
                self.red_threes[team].append(card)
                self.log.append(f"seat {seat} draws and lays out the red three {card_text(card)}")
                if not self.stock:
                    rt = self.rules.red_threes
                    if rt.last_stock_red_three_ends_hand:
                        if rt.meld_after_last_red_three:
                            self.no_discard = True
                            return True
                        self._end("last_card_red_three")
                        return False
                    return True
                continue
            self.hands[seat][card] += 1
            self.hand_size[seat] += 1
            return True

    def _do_draw(self, seat: int) -> None:
        n = self.rules.draw_count(self.players)
        for _ in range(n):
            if not self.stock or not self._draw_one(seat):
                break
        if self.phase is not Phase.OVER:
            self.phase = Phase.PLAY

    def _start_provisional(self) -> None:
        if not self.provisional:
            self.snapshot = self.clone()
            self.snapshot.history = self.history[:-1]
            self.snapshot.log = self.log[:-1]
            self.provisional = True

    def _do_take(self, seat: int, cards: tuple[int, ...]) -> None:
        r = self.rules
        team = self.team_of[seat]
        opened = self.opened[team]
        top_only = legality.top_card_only(self, team, cards)
        if not opened:
            self._start_provisional()
        top = self.pile.pop()
        rank = RANK[top]
        hand = self.hands[seat]
        for c in cards:
            hand[c] -= 1
        self.hand_size[seat] -= len(cards)
        meld = self.melds[team].setdefault(rank, [])
        meld.append(top)
        meld.extend(cards)
        if JOKER in cards:
            self.joker_turn[team] = self.turn
        self.took_pile = True
        rest = self.pile
        self.pile = []
        if r.opening.capture_cards_count and not opened:
            self.opening_points += POINTS[top] + sum(POINTS[c] for c in cards)
        if top_only:
            self.pile = rest  # still frozen if it was: its freezing cards are still in it
        else:
            self.pile_frozen = False
            self.pending_pile = rest + self.surprise
            self.surprise = []
        for _ in range(r.turn.draw_with_pile):
            if not self.stock or not self._draw_one(seat):
                break
        if self.phase is Phase.OVER:
            return
        self.phase = Phase.PLAY
        if opened:
            self._receive_pile(seat)
        else:
            self._maybe_complete_opening(seat)
        if self.hand_size[seat] == 0 and self.phase is not Phase.OVER:
            if legality.going_out_error(self, seat, None) is None:
                self._go_out(seat)

    def _receive_pile(self, seat: int) -> None:
        """Move the taken pile into ``seat``'s hand; red threes in it are laid out and not
        replaced (seed 002: "non va sostituito con una carta pescata dal tallone")."""
        hand = self.hands[seat]
        for c in self.pending_pile:
            hand[c] += 1
        self.hand_size[seat] += len(self.pending_pile)
        self.pending_pile = []
        self._lay_out_red_threes(seat, replace=False)

    def _maybe_complete_opening(self, seat: int) -> None:
        team = self.team_of[seat]
        r = self.rules
        has_canasta = r.opening.canasta_always_opens and any(
            len(m) >= r.melds.canasta_size for m in self.melds[team].values()
        )
        if self.opening_points >= self.opening_minimum(team) or has_canasta:
            self.opened[team] = True
            self.provisional = False
            self.snapshot = None
            self.log.append(f"team {team} has opened with {self.opening_points} points")
            if self.pending_pile:
                self._receive_pile(seat)

    def _do_meld(self, seat: int, cards: tuple[int, ...], rank: int) -> None:
        team = self.team_of[seat]
        hand = self.hands[seat]
        opened = self.opened[team]
        if rank == 3 and self.rules.melds.black_threes_out_of_play:
            # Out of play, not a meld: no part of an opening (S004 "se scoate din joc").
            for c in cards:
                hand[c] -= 1
            self.hand_size[seat] -= len(cards)
            self.melds[team].setdefault(rank, []).extend(cards)
            self.log.append(f"seat {seat} puts {len(cards)} black threes out of play")
            if self.hand_size[seat] == 0:
                self._go_out(seat)
            return
        if not opened:
            self._start_provisional()
        if JOKER in cards:
            self.joker_turn[team] = self.turn
        for c in cards:
            hand[c] -= 1
        self.hand_size[seat] -= len(cards)
        self.melds[team].setdefault(rank, []).extend(cards)
        self.melded_this_turn = True
        if not opened:
            self.opening_points += sum(POINTS[c] for c in cards)
            self._maybe_complete_opening(seat)
        if self.hand_size[seat] == 0:
            self._go_out(seat)

    def _do_declare(self, seat: int, cards: tuple[int, ...]) -> None:
        """Lay out kept red threes and replace each from the stock."""
        team = self.team_of[seat]
        for c in cards:
            self.hands[seat][c] -= 1
            self.hand_size[seat] -= 1
            self.red_threes[team].append(c)
            self.log.append(f"seat {seat} declares the red three {card_text(c)}")
        for _ in cards:
            if not self.stock or not self._draw_one(seat):
                break

    def _do_discard(self, seat: int, card: int) -> None:
        self.hands[seat][card] -= 1
        self.hand_size[seat] -= 1
        self.pile.append(card)
        p = self.rules.pile
        if (IS_WILD[card] and p.wild_discard_freezes) or (
            card in BLACK3 and p.black_three_discard_freezes
        ):
            self.pile_frozen = True
        if self.hand_size[seat] == 0:
            self._go_out(seat)
            return
        self._finish_turn(seat)

    def _finish_turn(self, seat: int) -> None:
        if self.melded_this_turn or self.took_pile:
            self.player_melded[seat] = True
        self._begin_turn((seat + 1) % self.players)

    def _go_out(self, seat: int) -> None:
        self.concealed = legality.is_concealed(self, seat)
        team = self.team_of[seat]
        if not self.opened[team]:
            self.opened[team] = True
            self.provisional = False
        self.went_out = seat
        self.player_melded[seat] = True
        self._end("went_out")

    def _do_retract(self, seat: int) -> None:
        snap = self.snapshot
        assert snap is not None
        team = self.team_of[seat]
        history, log = self.history, self.log
        asked, answer, asks = self.asked, self.answer, self.asks[:]
        # Restore from a copy: clone() shares the snapshot, so its containers must not become
        # this state's (playing on would change the snapshot of every clone).
        self._restore(snap.clone())
        self.history = history
        self.log = log
        # A question asked this turn and its binding answer stand (seed 002: "è obbligatorio
        # obbedire alla risposta del compagno").
        self.asked, self.answer, self.asks = asked, answer, asks
        self.min_extra[team] += self.rules.opening.retract_penalty
        self.log.append(f"team {team} takes back its opening; its minimum rises by "
                        f"{self.rules.opening.retract_penalty}")

    # -- going out (canasta.goingout) --------------------------------------------------------------
    def going_out_plan(self) -> list[Action] | None:
        """A sequence of melds, lay-offs and a final discard with which the player to act goes
        out this turn, or None (see :func:`canasta.goingout.going_out_plan`)."""
        return goingout.going_out_plan(self)

    # -- the end of the hand -------------------------------------------------------------------
    def team_hands(self) -> list[TeamHand]:
        """The table of each team as the scorer sees it (valid once the hand is over)."""
        out = []
        for t, seats in enumerate(self.teams):
            out.append(TeamHand(
                melds=tuple(tuple(m) for m in self.melds[t].values() if m),
                red_threes=len(self.red_threes[t]),
                hands=tuple(
                    tuple(cards_of(self.hands[s])) for s in seats if s != self.went_out
                ),
                went_out=self.went_out is not None and self.team_of[self.went_out] == t,
                concealed=self.concealed and self.went_out is not None
                and self.team_of[self.went_out] == t,
                score_before=self.scores[t],
            ))
        return out

    def score(self) -> list[ScoreSheet]:
        """Itemized score sheets of every team.

        Raises:
            ValueError: the hand is not over.
        """
        if not self.is_over:
            raise ValueError("the hand is not over yet")
        return score_hand(self.team_hands(), self.rules)

    def card_locations(self) -> dict[str, list[int]]:
        """Counts per card code in each place (hands, stock, pile, melds, red threes, surprise,
        pending): the conservation invariant adds these up."""
        places: dict[str, list[int]] = {}
        for s in range(self.players):
            places[f"hand {s}"] = self.hands[s][:]
        extra = {"stock": self.stock, "pile": self.pile, "surprise": self.surprise,
                 "pending": self.pending_pile}
        for t in range(len(self.teams)):
            extra[f"melds {t}"] = [c for m in self.melds[t].values() for c in m]
            extra[f"red threes {t}"] = self.red_threes[t]
        for name, cards in extra.items():
            counts = [0] * NUM_CODES
            for c in cards:
                counts[c] += 1
            places[name] = counts
        return places

    def __repr__(self) -> str:
        return (f"<State {self.rules.name} turn {self.turn} seat {self.actor} "
                f"{self.phase.value} stock {len(self.stock)} pile {len(self.pile)}>")
