"""The engine: the state of one hand (deal to score), its legal actions and transitions.

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
from dataclasses import dataclass
from enum import Enum

from .actions import (
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
from .cards import (
    BLACK_THREES,
    JOKER,
    NUM_CODES,
    POINTS,
    WILD_RANK,
    card_text,
    cards_of,
    is_wild,
    make_deck,
    rank_of,
    rank_text,
)
from .rules import Rules
from .scoring import ScoreSheet, TeamHand, is_sequence, score_hand

_DEUCES = (4, 5, 6, 7)
#: First key of a sequence canasta in a side's melds (``melds.real_canasta``); rank keys are
#: 0 (wild meld) and 1..13.
SEQUENCE_KEY = 100
_RED3 = frozenset((9, 10))
_BLACK3 = frozenset((8, 11))
_IS_WILD = tuple(is_wild(c) for c in range(NUM_CODES))
_RANK = tuple(rank_of(c) for c in range(NUM_CODES))


class Phase(Enum):
    DRAW = "draw"
    PLAY = "play"
    ANSWER = "answer"
    OVER = "over"


class IllegalActionError(ValueError):
    """An action that the rules do not allow now. ``rule`` names the rule (a ``Rules`` field
    or a rule of the game); the state is unchanged."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.reason = message
        super().__init__(f"{message} [{rule}]")


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
    #: Turns begun in this hand (0 for the first player's first turn).
    turn: int = 0


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
            MisdealError: the deal must be redone (seed 000).
        """
        if players not in rules.deal.player_counts:
            raise ValueError(
                f"{rules.name} is played by {', '.join(map(str, rules.deal.player_counts))} "
                f"players, not {players} [deal.player_counts]"
            )
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
            special = _IS_WILD[card] or card in _RED3 or (
                r.black_three_upcard_special and card in _BLACK3
            )
            if not special:
                if r.upcard_seeds_pile_by_rank:
                    rank = _RANK[card]
                    count = 14 if rank == 1 else rank
                    under = [self.stock.pop() for _ in range(min(count, len(self.stock)))]
                    self.pile = under + self.pile
                self.pile.append(card)
                self.log.append(f"the upcard is {card_text(card)}")
                return
            self.log.append(f"the upcard {card_text(card)} is a special card")
            if _IS_WILD[card]:
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
                _IS_WILD[card] or (card in _RED3 and r.red_three_upcard_freezes)
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
            if not any(self._check_take(seat, a.cards) is None for a in self._take_candidates()):
                self._end("stock_exhausted")

    def _top_stops(self, team: int) -> bool:
        if not self.pile:
            return False
        top = self.pile[-1]
        if top in _BLACK3 and self.rules.pile.black_three_stops:
            return True
        if top in _RED3 and self.rules.red_threes.may_keep_as_stop:
            return True
        if self.rules.pile.canasta_rank_discard_stops:
            meld = self.melds[team].get(_RANK[top])
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
            legal_actions=tuple(self.legal_actions()) if seat == self.actor else (),
            turn=self.turn,
        )

    # -- legal actions -------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act (``self.actor``); empty once the hand is over.

        Cards of one rank are interchangeable for the rules, so an action names one canonical
        choice of suits; :meth:`apply` accepts any cards actually held. Never changes the state.
        """
        return list(self._iter_legal())

    def _iter_legal(self) -> Iterator[Action]:
        if self.phase is Phase.OVER:
            return
        if self.phase is Phase.ANSWER:
            yield Answer(True)
            yield Answer(False)
            return
        seat = self.actor
        if self.phase is Phase.DRAW:
            if self.stock:
                yield Draw()
            for take in self._take_candidates():
                if self._check_take(seat, take.cards) is None:
                    yield take
            if self._check_end_hand() is None:
                yield EndHand()
            return
        for a in self._play_candidates():
            if self.check(a) is None:
                yield a

    def _pick(self, hand: list[int], codes: Sequence[int], k: int) -> list[int]:
        out: list[int] = []
        for c in codes:
            take = min(hand[c], k - len(out))
            out.extend([c] * take)
            if len(out) == k:
                break
        return out

    def _wild_choices(self, hand: list[int], cap: int) -> list[list[int]]:
        """Distinct choices of up to ``cap`` wild cards from hand (jokers and deuces differ in
        points, deuces of different suits do not)."""
        jokers = hand[JOKER]
        deuces = sum(hand[c] for c in _DEUCES)
        out: list[list[int]] = []
        for j in range(min(jokers, cap) + 1):
            for d in range(min(deuces, cap - j) + 1):
                out.append([JOKER] * j + self._pick(hand, _DEUCES, d))
        return out

    def _take_candidates(self) -> Iterator[TakePile]:
        if not self.pile:
            return
        top = self.pile[-1]
        rank = _RANK[top]
        if _IS_WILD[top] or rank == 3:
            return
        hand = self.hands[self.actor]
        codes = range((rank - 1) * 4, rank * 4)
        n = sum(hand[c] for c in codes)
        for k in range(n + 1):
            nat = self._pick(hand, codes, k)
            for wilds in self._wild_choices(hand, self.rules.melds.max_wilds):
                yield TakePile(tuple(nat + wilds))

    def _play_candidates(self) -> Iterator[Action]:
        seat = self.actor
        hand = self.hands[seat]
        team = self.team_of[seat]
        melds = self.melds[team]
        mr = self.rules.melds
        if True:
            for rank in (1, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4):
                codes = range((rank - 1) * 4, rank * 4)
                n = sum(hand[c] for c in codes)
                existing = melds.get(rank)
                if existing is not None:
                    cap = mr.max_wilds - sum(1 for c in existing if _IS_WILD[c])
                    for k in range(n + 1):
                        nat = self._pick(hand, codes, k)
                        for wilds in self._wild_choices(hand, max(cap, 0)):
                            if nat or wilds:
                                yield LayOff(rank, tuple(nat + wilds))
                elif n >= mr.min_naturals:
                    # Only candidates that can pass _meld_error (which still checks them all).
                    for k in range(mr.min_naturals, n + 1):
                        nat = self._pick(hand, codes, k)
                        for wilds in self._wild_choices(hand, mr.max_wilds):
                            if k + len(wilds) >= mr.min_cards:
                                yield Meld(tuple(nat + wilds))
            if mr.wild_melds:
                wild_meld = melds.get(WILD_RANK)
                room = mr.canasta_size - (len(wild_meld) if wild_meld is not None else 0)
                for wilds in self._wild_choices(hand, room):
                    if not wilds:
                        continue
                    if wild_meld is not None:
                        yield LayOff(WILD_RANK, tuple(wilds))
                    else:
                        yield Meld(tuple(wilds))
            b = hand[8] + hand[11]
            if mr.black_three_meld_going_out:
                with_wilds = mr.black_three_meld_wilds
                for k in range(mr.min_naturals if with_wilds else mr.min_cards, b + 1):
                    blacks = self._pick(hand, BLACK_THREES, k)
                    for wilds in (self._wild_choices(hand, mr.max_wilds) if with_wilds else [[]]):
                        if k + len(wilds) >= mr.min_cards:
                            yield Meld(tuple(blacks + wilds))
            if mr.black_threes_out_of_play and b >= mr.black_threes_out_of_play:
                yield Meld(tuple(self._pick(hand, BLACK_THREES, mr.black_threes_out_of_play)))
            if mr.real_canasta:
                yield from self._sequence_candidates(hand)
            if self.rules.red_threes.may_keep_as_stop:
                for code in (9, 10):
                    if hand[code]:
                        yield Meld((code,))
        if self.rules.going_out.ask_partner:
            yield AskPartner()
        yield Retract()
        yield EndHand()
        for code in range(NUM_CODES):
            if hand[code]:
                yield Discard(code)

    def _sequence_candidates(self, hand: list[int]) -> Iterator[Meld]:
        """Sequence canastas in hand (``melds.real_canasta``): runs of one suit, ace high."""
        size = self.rules.melds.canasta_size
        for suit in range(4):
            for high in range(14, 2 + size, -1):  # ace high, 4 lowest
                ranks = [1 if v == 14 else v for v in range(high, high - size, -1)]
                codes = [(r - 1) * 4 + suit for r in ranks]
                if all(hand[c] for c in codes):
                    yield Meld(tuple(codes))

    def _meld_key(self, team: int, cards: Sequence[int]) -> int:
        """Where a new meld of ``cards`` goes in the side's melds: its rank, ``WILD_RANK``, or
        a fresh key from ``SEQUENCE_KEY`` for a sequence canasta."""
        ranks = {_RANK[c] for c in cards if not _IS_WILD[c]}
        if len(ranks) > 1:
            key = SEQUENCE_KEY
            while key in self.melds[team]:
                key += 1
            return key
        return ranks.pop() if ranks else WILD_RANK

    # -- checking ------------------------------------------------------------------------------
    def check(self, action: Action) -> str | None:
        """Why ``action`` is illegal now (the message names the rule), or None when legal."""
        try:
            self._verify(action)
        except IllegalActionError as exc:
            return str(exc)
        return None

    def is_legal(self, action: Action) -> bool:
        return self.check(action) is None

    def _fail(self, rule: str, message: str) -> None:
        raise IllegalActionError(rule, message)

    def _verify(self, action: Action) -> None:
        """Raise IllegalActionError when ``action`` is not legal now."""
        if self.phase is Phase.OVER:
            self._fail("hand over", "the hand is over")
        if self.phase is Phase.ANSWER:
            if not isinstance(action, Answer):
                self._fail("going_out.ask_partner",
                           f"seat {self.actor} must answer the partner's question first")
            return
        if isinstance(action, Answer):
            self._fail("going_out.ask_partner", "nobody has asked to go out")
        seat = self.actor
        if self.phase is Phase.DRAW:
            if isinstance(action, Draw):
                if not self.stock:
                    self._fail("end of stock", "the stock is empty: take the pile or end the hand")
                return
            if isinstance(action, TakePile):
                err = self._check_take(seat, action.cards)
                if err:
                    raise err
                return
            if isinstance(action, EndHand):
                err2 = self._check_end_hand()
                if err2:
                    raise err2
                return
            self._fail("turn order", "first draw from the stock or take the discard pile")
        # PLAY
        if isinstance(action, (Draw, TakePile)):
            self._fail("turn order", "you have already drawn this turn")
        if isinstance(action, EndHand):
            if not self.no_discard:
                self._fail("end of stock", "the hand ends only when the stock is gone")
            return
        if self.no_discard and isinstance(action, (Discard, AskPartner)):
            self._fail("red_threes.last_stock_red_three_ends_hand",
                       "the last card of the stock was a red three: meld, then end the hand")
        if isinstance(action, Meld):
            self._check_meld(seat, action.cards, None)
        elif isinstance(action, LayOff):
            self._check_meld(seat, action.cards, action.rank)
        elif isinstance(action, Discard):
            self._check_discard(seat, action.card)
        elif isinstance(action, AskPartner):
            self._check_ask(seat)
        elif isinstance(action, Retract):
            if not self.provisional:
                self._fail("opening.retract_penalty",
                           "there is no unfinished opening to take back")
            if self.answer is True and self._must_check and self.going_out_plan() is not None:
                self._fail("going_out.ask_partner",
                           "your partner said yes: the answer is binding and you must go out")

    def _has(self, seat: int, cards: Sequence[int]) -> bool:
        need = [0] * NUM_CODES
        hand = self.hands[seat]
        for c in cards:
            if not 0 <= c < NUM_CODES:
                return False
            need[c] += 1
            if need[c] > hand[c]:
                return False
        return True

    def _meld_error(self, rank: int, cards: Sequence[int], added: Sequence[int],
                    team: int) -> IllegalActionError | None:
        """Is ``cards`` (a meld's final content) a valid meld of ``rank``; ``added`` are the new
        cards (for the completed-canasta rule)."""
        mr = self.rules.melds
        wilds = sum(1 for c in cards if _IS_WILD[c])
        naturals = len(cards) - wilds
        if rank >= SEQUENCE_KEY:
            return None  # checked whole by is_sequence when laid; closed afterwards
        if rank == WILD_RANK:
            if not mr.wild_melds:
                return IllegalActionError("melds.wild_melds",
                                          "a meld needs natural cards (seed 002: \"almeno due "
                                          "naturali\")")
            if len(cards) < mr.min_cards:
                return IllegalActionError("melds.min_cards",
                                          f"a meld needs at least {mr.min_cards} cards")
            if len(cards) > mr.canasta_size:
                return IllegalActionError("melds.wild_melds",
                                          f"a wild-card canasta has {mr.canasta_size} cards")
            return None
        if len(cards) < mr.min_cards:
            return IllegalActionError("melds.min_cards",
                                      f"a meld needs at least {mr.min_cards} cards "
                                      "(seed 002: \"almeno tre carte\")")
        if rank == 3:
            if not wilds:
                return None
            if not mr.black_three_meld_wilds:
                return IllegalActionError("melds.black_three_meld_going_out",
                                          "a meld of black threes takes no wild cards "
                                          "[melds.black_three_meld_wilds]")
            if len(cards) >= mr.canasta_size:
                return IllegalActionError("melds.black_three_meld_wilds",
                                          "a mixed canasta of black threes is never allowed "
                                          "(seed 002: \"non è comunque mai concesso\")")
        if naturals < mr.min_naturals:
            return IllegalActionError("melds.min_naturals",
                                      f"a meld needs at least {mr.min_naturals} natural cards "
                                      "(seed 002: \"di cui almeno due naturali\")")
        if wilds > mr.max_wilds:
            return IllegalActionError("melds.max_wilds",
                                      f"a meld may hold at most {mr.max_wilds} wild cards")
        if mr.wild_ratio == "lt" and wilds >= naturals:
            return IllegalActionError("melds.wild_ratio",
                                      "wild cards must be fewer than natural cards (seed 000: "
                                      "\"non mai in numero pari o superiore\")")
        if mr.wild_ratio == "le" and wilds > naturals:
            return IllegalActionError("melds.wild_ratio",
                                      "wild cards may not outnumber natural cards")
        added_wilds = any(_IS_WILD[c] for c in added)
        if added_wilds and not mr.wilds_on_completed_canasta:
            before = len(cards) - len(added)
            if before >= mr.canasta_size:
                return IllegalActionError("melds.wilds_on_completed_canasta",
                                          "no wild card may be added to a completed canasta")
        if added_wilds and mr.unfinished_wild_meld_restricts:
            wm = self.melds[team].get(WILD_RANK)
            if wm is not None and len(wm) < mr.canasta_size:
                return IllegalActionError("melds.unfinished_wild_meld_restricts",
                                          "while your wild-card canasta is unfinished, wild cards "
                                          "may not go into natural melds (seed 000)")
        return None

    def _check_take(self, seat: int, cards: Sequence[int]) -> IllegalActionError | None:
        r = self.rules
        if not self.pile:
            return IllegalActionError("pile", "the discard pile is empty")
        if r.turn.first_round_no_meld and self.first_round:
            return IllegalActionError("turn.first_round_no_meld",
                                      "nobody takes the pile in the first round (seed 004: "
                                      "\"numai dupa ce s-a incheiat prima tura\")")
        top = self.pile[-1]
        team = self.team_of[seat]
        if top in _BLACK3:
            return IllegalActionError("pile.black_three_stops",
                                      "a black three on top stops the pile (seed 002: "
                                      "\"impedisce al giocatore successivo di prendere il "
                                      "pozzo\")")
        if _IS_WILD[top] or top in _RED3:
            return IllegalActionError("pile", "a wild card on top of the pile cannot be taken")
        if self.stopped_turn:
            return IllegalActionError("pile.canasta_rank_discard_stops",
                                      "this discard matches your side's canasta and stops you")
        if not self._has(seat, cards):
            return IllegalActionError("cards", "you do not hold those cards")
        rank = _RANK[top]
        for c in cards:
            if not (_IS_WILD[c] or _RANK[c] == rank):
                return IllegalActionError("pile", f"{card_text(c)} does not go with the top card "
                                                  f"{card_text(top)}")
        nat = sum(1 for c in cards if not _IS_WILD[c])
        wild = len(cards) - nat
        existing = self.melds[team].get(rank)
        final = (existing or []) + [top] + list(cards)
        frozen = self._frozen_for(team)
        unfrozen_ok = (
            nat >= r.pile.unfrozen_naturals
            or (r.pile.unfrozen_wild_may_substitute and nat >= 1 and wild >= 1
                and nat + 1 >= r.pile.unfrozen_naturals)
        )
        top_only = self._top_card_only(team, cards)
        if top_only:
            # An opening with the discard takes the top card only, whatever the freeze (S004).
            if not cards or not unfrozen_ok:
                return IllegalActionError("pile.opening_take_top_card_only",
                                          "opening with the discard needs "
                                          f"{r.pile.unfrozen_naturals} natural "
                                          f"{rank_text(rank)}s"
                                          + (" (or one and a wild card)"
                                             if r.pile.unfrozen_wild_may_substitute else "")
                                          + " from your hand (seed 004: \"plus alte 2 carti "
                                          "naturale\")")
        elif frozen and r.pile.frozen_requires_canasta:
            if not cards or not unfrozen_ok or len(final) < r.melds.canasta_size:
                return IllegalActionError("pile.frozen_requires_canasta",
                                          "the pile is frozen: it can be taken only to complete a "
                                          "canasta (seed 004: \"nu poate fi luat decat cu "
                                          "canasta\")")
        elif frozen:
            if nat < r.pile.frozen_naturals:
                why = "frozen" if self.pile_frozen else "frozen for a side that has not opened"
                return IllegalActionError("pile.frozen_naturals",
                                          f"the pile is {why}: taking it needs "
                                          f"{r.pile.frozen_naturals} natural {rank_text(rank)}s "
                                          "from your hand (seed 002: \"almeno due carte "
                                          "naturali dello stesso valore facciale\")")
        elif not cards:
            if existing is None or not r.pile.layoff_takes_unfrozen_pile:
                return IllegalActionError("pile.unfrozen_naturals",
                                          f"taking the pile needs the top card melded: with "
                                          f"{r.pile.unfrozen_naturals} natural "
                                          f"{rank_text(rank)}s"
                                          + (" (or one and a wild card)"
                                             if r.pile.unfrozen_wild_may_substitute else "")
                                          + (" or on your side's meld of that rank"
                                             if r.pile.layoff_takes_unfrozen_pile else ""))
            cap = r.pile.layoff_take_max_meld_size
            if cap and len(existing) > cap:
                return IllegalActionError("pile.layoff_take_max_meld_size",
                                          "the top card may be added only to a meld smaller "
                                          "than a canasta")
        elif not unfrozen_ok:
            return IllegalActionError("pile.unfrozen_naturals",
                                      f"taking the pile needs {r.pile.unfrozen_naturals} natural "
                                      f"{rank_text(rank)}s from your hand"
                                      + (" (or one and a wild card)"
                                         if r.pile.unfrozen_wild_may_substitute else ""))
        err = self._meld_error(rank, final, [top, *cards], team)
        if err:
            return err
        opened = self.opened[team]
        if not opened:
            need = r.opening_minimum(self.scores[team])
            if need in r.opening.naturals_only_at and wild:
                return IllegalActionError("opening.naturals_only_at",
                                          f"an opening of {need} uses natural cards only "
                                          "(seed 000)")
            if (r.opening.capture_cards_count and not top_only
                    and self._opening_reach(seat, top, cards) < self.opening_minimum(team)):
                return IllegalActionError("opening.minimums",
                                          "your hand cannot make the opening minimum of "
                                          f"{self.opening_minimum(team)} with this take (seed "
                                          "002: \"può prendere il pozzo solo se può utilizzare "
                                          "l'ultima carta scartata per aprire\")")
        # Cards in hand after the take (the pile goes to hand once the side is open).
        pts = POINTS[top] + sum(POINTS[c] for c in cards) if r.opening.capture_cards_count else 0
        opens_now = opened or pts >= self.opening_minimum(team) or (
            r.opening.canasta_always_opens and len(final) >= r.melds.canasta_size)
        gets_pile = opens_now and not top_only
        after = (self.hand_size[seat] - len(cards)
                 + min(r.turn.draw_with_pile, len(self.stock))
                 + (len(self.pile) - 1 + len(self.surprise) if gets_pile else 0))
        if (not r.pile.take_single_card_pile_to_go_out and self.hand_size[seat] == 1
                and len(self.pile) == 1 and not self.surprise):
            return IllegalActionError("pile.take_single_card_pile_to_go_out",
                                      "with one card in hand you may not take a pile of one card "
                                      "(Britannica: \"he cannot go out by taking the deck\")")
        if after == 0 and not r.pile.take_single_card_pile_to_go_out:
            return IllegalActionError("pile.take_single_card_pile_to_go_out",
                                      "you may not take the pile to be left with no card")
        if after <= 1 and self._must_check:
            probe = self.clone()
            probe._must_check = False
            probe._do_take(seat, tuple(cards))
            if not probe.is_over and not probe._has_any_action():
                return IllegalActionError("going out",
                                          "after this take you could neither discard nor go out")
        return None

    def _opening_reach(self, seat: int, top: int, cards: Sequence[int]) -> int:
        """The most points an unopened side could count toward its opening this turn after
        taking the pile with ``cards``: the top card and ``cards``, the naturals of that rank
        still in hand, every other rank that can make a meld (short ranks completed with wild
        cards, best first), and the best wild cards those melds can hold. Where other rules
        widen the opening (wild melds, sequences, a canasta that always opens) it does not
        limit the take."""
        r = self.rules
        mr = r.melds
        if r.opening.canasta_always_opens or mr.real_canasta:
            return 1 << 30
        hand = self.hands[seat][:]
        for c in cards:
            hand[c] -= 1
        rank = _RANK[top]
        need = self.opening_minimum(self.team_of[seat])
        wilds_ok = need not in r.opening.naturals_only_at
        wild_pts = sorted((POINTS[c] for c in (JOKER, *_DEUCES) for _ in range(hand[c])),
                          reverse=True) if wilds_ok else []
        take_nat = 1 + sum(1 for c in cards if not _IS_WILD[c])
        total = POINTS[top] + sum(POINTS[c] for c in cards)
        shapes: list[tuple[int, int]] = []  # (naturals, wild cards) of each meld laid
        short: list[tuple[int, int]] = []  # (points, naturals) of ranks needing wild cards
        for rk in (1, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4):
            b = (rk - 1) * 4
            n = hand[b] + hand[b + 1] + hand[b + 2] + hand[b + 3]
            pts = sum(POINTS[b + k] * hand[b + k] for k in range(4))
            if rk == rank:
                total += pts
                shapes.append((take_nat + n, len(cards) + 1 - take_nat))
            elif n >= mr.min_cards:
                total += pts
                shapes.append((n, 0))
            elif n >= mr.min_naturals:
                short.append((pts, n))
        spare = len(wild_pts)
        for pts, n in sorted(short, reverse=True):
            k = mr.min_cards - n
            if k <= spare:
                spare -= k
                total += pts
                shapes.append((n, 0))
        room = 0
        for n, w in shapes:
            cap = mr.max_wilds - w
            if mr.wild_ratio == "lt":
                cap = min(cap, n - 1 - w)
            elif mr.wild_ratio == "le":
                cap = min(cap, n - w)
            room += max(cap, 0)
        if mr.wild_melds:
            room = len(wild_pts)
        return total + sum(wild_pts[:room])

    def _top_card_only(self, team: int, cards: Sequence[int]) -> bool:
        """Does taking the pile with ``cards`` give ``team`` only its top card (an opening with
        the discard, ``pile.opening_take_top_card_only``)? A frozen-pile capture that
        completes a canasta takes the whole pile."""
        r = self.rules
        if self.opened[team] or not r.pile.opening_take_top_card_only:
            return False
        if r.pile.frozen_requires_canasta and cards and self._frozen_for(team):
            meld = self.melds[team].get(_RANK[self.pile[-1]])
            if (len(meld) if meld else 0) + 1 + len(cards) >= r.melds.canasta_size:
                return False
        return True

    def _check_end_hand(self) -> IllegalActionError | None:
        if self.stock:
            return IllegalActionError("end of stock", "the hand ends only when the stock is gone")
        if self.rules.end.must_take_matching_discard and (
            self._check_take(self.actor, ()) is None
        ):
            return IllegalActionError("end.must_take_matching_discard",
                                      "the discard fits your side's meld: with the stock gone you "
                                      "must take it")
        return None

    def _check_meld(self, seat: int, cards: Sequence[int], target: int | None) -> None:
        r = self.rules
        team = self.team_of[seat]
        if not cards:
            self._fail("melds.min_cards", "name the cards to meld")
        if r.turn.first_round_no_meld and self.first_round:
            self._fail("turn.first_round_no_meld", "nobody melds in the first round (seed 004)")
        if not self._has(seat, cards):
            self._fail("cards", "you do not hold those cards")
        if any(c in _RED3 for c in cards):
            if r.red_threes.may_keep_as_stop and target is None and all(
                c in _RED3 for c in cards
            ):
                self._check_declare(seat, cards)
                return
            self._fail("red threes", "red threes are never melded")
        naturals = [c for c in cards if not _IS_WILD[c]]
        ranks = {_RANK[c] for c in naturals}
        if target is not None and target >= SEQUENCE_KEY:
            self._fail("melds.real_canasta", "a sequence canasta takes no more cards")
        if len(ranks) > 1:
            if not (r.melds.real_canasta and target is None
                    and is_sequence(cards, r.melds.canasta_size)):
                self._fail("melds", "a meld is of one rank only (seed 002: \"non sono concesse "
                                    "combinazioni di carte in scala\")"
                           + ("; a sequence canasta is seven naturals of one suit in a run"
                              if r.melds.real_canasta else ""))
            rank = self._meld_key(team, cards)
        else:
            rank = ranks.pop() if ranks else WILD_RANK
        if target is not None and target != rank and not (rank == WILD_RANK and target):
            self._fail("melds", f"those cards do not go on the meld of {rank_text(target)}")
        if target is not None:
            rank = target
        if rank == 3 and any(c in _RED3 for c in cards):
            self._fail("red threes", "red threes are never melded")
        existing = self.melds[team].get(rank)
        if target is None and existing is not None:
            self._fail("one meld per rank",
                       f"your side already has a meld of {rank_text(rank)}: lay off onto it "
                       f"(`lay-off {rank_text(rank)} ...`)")
        if target is not None and existing is None:
            self._fail("melds", f"your side has no meld of {rank_text(rank)} to lay off onto")
        out_of_play = (rank == 3 and target is None and r.melds.black_threes_out_of_play > 0
                       and len(cards) == r.melds.black_threes_out_of_play)
        if rank == 3 and not r.melds.black_three_meld_going_out and not out_of_play:
            self._fail("melds.black_three_meld_going_out",
                       "black threes are never melded"
                       + (f" (they leave play only as a group of "
                          f"{r.melds.black_threes_out_of_play})"
                          if r.melds.black_threes_out_of_play else ""))
        final = (existing or []) + list(cards)
        err = self._meld_error(rank, final, cards, team)
        if err:
            raise err
        opened = self.opened[team]
        if not opened:
            need = r.opening_minimum(self.scores[team])
            if need in r.opening.naturals_only_at and any(_IS_WILD[c] for c in cards):
                self._fail("opening.naturals_only_at",
                           f"an opening of {need} uses natural cards only (seed 000: \"Per la "
                           "discesa a 50 punti si richiedono solo combinazioni con carte "
                           "naturali\")")
            if (rank == WILD_RANK and JOKER in cards and r.opening.joker_meld_blocks_mattoni
                    and self.took_pile and self._mattoni_blocked(team)):
                self._fail("opening.joker_meld_blocks_mattoni",
                           "an opponent put a joker down within the last round: you may not "
                           "open with jokers (\"mattoni\") in the turn you take the pile (seed "
                           "000: \"impedisce per un giro ai giocatori avversari di fare "
                           "l'apertura di mattoni e contemporaneamente impossessarsi del "
                           "pozzo\")")
        if self.answer is True and self._must_check:
            probe = self.clone()
            probe._must_check = False
            probe._do_meld(seat, tuple(cards), rank)
            if not probe.is_over and probe.going_out_plan() is None:
                self._fail("going_out.ask_partner",
                           "your partner said yes: you must go out, and this meld would stop you")
        after = self.hand_size[seat] - len(cards)
        if after == 0 and self.pending_pile:
            # A meld that completes the opening brings the taken pile to hand: not going out.
            probe = self.clone()
            probe._must_check = False
            probe._do_meld(seat, tuple(cards), rank)
            after = probe.hand_size[seat]
        if rank == 3 and after > 1 and not out_of_play:
            self._fail("melds.black_three_meld_going_out",
                       "black threes are melded only when going out (seed 002: \"In sede di "
                       "chiusura\")")
        if after == 0:
            if r.going_out.discard_required:
                self._fail("going_out.discard_required",
                           "you must keep a card to discard when going out (seed 000: \"con lo "
                           "scarto finale\")")
            err3 = self._going_out_error(seat, None, final_meld=(rank, tuple(cards)))
            if err3:
                raise IllegalActionError(err3.rule, "you may not meld your last card: "
                                         + err3.reason)
        elif after == 1 and self._must_check:
            probe = self.clone()
            probe._must_check = False
            probe._do_meld(seat, tuple(cards), rank)
            if not probe.is_over and not probe._has_any_action():
                self._fail("going out",
                           "you may not meld down to one card when you cannot then go out")

    def _check_declare(self, seat: int, cards: Sequence[int]) -> None:
        """Declaring kept red threes (``red_threes.may_keep_as_stop``): each is laid out and
        replaced from the stock."""
        after = self.hand_size[seat] - len(cards) + min(len(cards), len(self.stock))
        if after == 0:
            self._fail("red_threes.may_keep_as_stop",
                       "you may not declare your last card: discard it")
        if after == 1 and self._must_check:
            probe = self.clone()
            probe._must_check = False
            probe._do_declare(seat, tuple(cards))
            if not probe.is_over and not probe._has_any_action():
                self._fail("going out",
                           "you may not declare down to one card when you cannot then go out")

    def _check_discard(self, seat: int, card: int) -> None:
        r = self.rules
        team = self.team_of[seat]
        hand = self.hands[seat]
        if not 0 <= card < NUM_CODES or not hand[card]:
            self._fail("cards", "you do not hold that card")
        last = self.hand_size[seat] == 1
        if self.provisional and not last:
            self._fail("opening.minimums",
                       f"your opening has {self.opening_points} of the "
                       f"{self.opening_minimum(team)} points needed: meld more or `retract` "
                       "(seed 002: \"devono fornire un determinato punteggio complessivo\")")
        if last:
            err = self._going_out_error(seat, card)
            if err:
                raise IllegalActionError(err.rule, "you may not go out: " + err.reason)
            return
        if _IS_WILD[card] and r.melds.unfinished_wild_meld_restricts:
            wm = self.melds[team].get(WILD_RANK)
            if wm is not None and len(wm) < r.melds.canasta_size and any(
                hand[c] and not _IS_WILD[c] for c in range(NUM_CODES)
            ):
                self._fail("melds.unfinished_wild_meld_restricts",
                           "while your wild-card canasta is unfinished you may not discard wild "
                           "cards (seed 000)")
        if self.answer is True and self._must_check and self.going_out_plan() is not None:
            self._fail("going_out.ask_partner",
                       "your partner said yes: the answer is binding and you must go out "
                       "(seed 002: \"è obbligatorio obbedire alla risposta\")")

    def _check_ask(self, seat: int) -> None:
        g = self.rules.going_out
        if not g.ask_partner:
            self._fail("going_out.ask_partner", "asking the partner is not allowed")
        if len(self.teams[self.team_of[seat]]) < 2:
            self._fail("going_out.ask_partner", "you have no partner to ask")
        if self.asked:
            self._fail("going_out.ask_partner", "you have already asked this turn")
        if g.ask_partner_per_hand and self.asks[seat] >= g.ask_partner_per_hand:
            self._fail("going_out.ask_partner_per_hand",
                       "you may ask only once per hand (seed 003: \"solo una volta per mano\")")
        if self.melded_this_turn:
            self._fail("going_out.ask_partner", "ask before melding this turn")
        if self.hand_size[seat] < 2:
            # With one card a "no" could not be obeyed: any move would go out.
            self._fail("going_out.ask_partner",
                       "with one card left you could not obey a \"no\"")
        if self._must_check and self.going_out_plan() is None:
            self._fail("going_out.ask_partner", "you may ask only when you are able to go out")

    def _going_out_error(self, seat: int, discard: int | None,
                         final_meld: tuple[int, tuple[int, ...]] | None = None
                         ) -> IllegalActionError | None:
        """Why ``seat`` may not go out now (with ``discard`` as the last card, or by melding
        ``final_meld``), or None."""
        r = self.rules
        g = r.going_out
        team = self.team_of[seat]
        if self.answer is False:
            return IllegalActionError("going_out.ask_partner",
                                      "your partner said no (the answer is binding)")
        if self.pending_pile:
            # The pile taken this turn comes to hand only with a complete opening (seed 002:
            # "solo una volta calate le combinazioni di apertura potrà prendere il resto del
            # pozzo"); going out would leave it nowhere.
            return IllegalActionError("opening.minimums",
                                      f"your opening has {self.opening_points} of the "
                                      f"{self.opening_minimum(team)} points needed to take the "
                                      "rest of the pile into your hand")
        if self.stopped_turn and r.pile.black_three_stops_going_out and self.pile and (
            self.pile[-1] in _BLACK3
        ):
            return IllegalActionError("pile.black_three_stops_going_out",
                                      "a black three stops you from going out this turn (seed "
                                      "004: \"nu are voie nici sa inchida\")")
        if discard is not None:
            if _IS_WILD[discard] and not g.final_discard_may_be_wild:
                return IllegalActionError("going_out.final_discard_may_be_wild",
                                          "the last discard may not be a wild card (seed 002: "
                                          "\"non può essere una carta speciale\")")
            if discard in _BLACK3 and not g.final_discard_may_be_black_three:
                return IllegalActionError("going_out.final_discard_may_be_black_three",
                                          "the last discard may not be a black three")
            if discard in _RED3 and not g.final_discard_may_be_black_three:
                return IllegalActionError("going_out.final_discard_may_be_black_three",
                                          "a red three kept as a stop card is not a last discard, "
                                          "like a black three")
        size = r.melds.canasta_size
        melds = {k: list(v) for k, v in self.melds[team].items()}
        if final_meld is not None:
            rank, cards = final_meld
            melds.setdefault(rank, []).extend(cards)
        canastas = [m for k, m in melds.items() if len(m) >= size]
        if len(canastas) < g.canastas_required:
            return IllegalActionError("going_out.canastas_required",
                                      f"your side needs {g.canastas_required} canasta"
                                      f"{'s' if g.canastas_required > 1 else ''} to go out "
                                      "(seed 002: \"la coppia deve avere formato almeno una "
                                      "canasta\")")
        if g.natural_and_mixed_required:
            plain = [(k, m) for k, m in melds.items() if len(m) >= size and k != WILD_RANK]
            nat = any(not any(_IS_WILD[c] for c in m) for _, m in plain)
            mix = any(any(_IS_WILD[c] for c in m) for _, m in plain)
            if not (nat and mix):
                return IllegalActionError("going_out.natural_and_mixed_required",
                                          "your side needs a natural and a mixed canasta to go "
                                          "out (seed 000: \"almeno una canasta pura ed una "
                                          "impura\")")
        if g.natural_canastas_required:
            pure = sum(1 for k, m in melds.items()
                       if len(m) >= size and k != WILD_RANK and not any(_IS_WILD[c] for c in m))
            if pure < g.natural_canastas_required:
                return IllegalActionError("going_out.natural_canastas_required",
                                          f"your side needs {g.natural_canastas_required} natural "
                                          "canastas to go out (seed 000 variant: \"almeno due "
                                          "canaste pure\")")
        if r.melds.unfinished_wild_meld_restricts:
            wm = melds.get(WILD_RANK)
            if wm is not None and len(wm) < size:
                return IllegalActionError("melds.unfinished_wild_meld_restricts",
                                          "your wild-card canasta is unfinished (seed 000: \"non "
                                          "può chiudere la smazzata\")")
        if not self.opened[team]:
            points = self.opening_points
            if final_meld is not None:
                points += sum(POINTS[c] for c in final_meld[1])
            concealed = self._is_concealed(seat)
            if points < self.opening_minimum(team) and not (
                concealed and g.concealed_waives_minimum
            ) and not (r.opening.canasta_always_opens and canastas):
                return IllegalActionError("opening.minimums",
                                          f"your opening has {points} of the "
                                          f"{self.opening_minimum(team)} points needed")
        return None

    def _is_concealed(self, seat: int) -> bool:
        if self.rules.going_out.concealed_means == "side_opens_this_turn":
            return not self.opened_at_turn_start
        return not self.player_melded[seat]

    def _has_any_action(self) -> bool:
        for _ in self._iter_legal():
            return True
        return False

    # -- applying ------------------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Apply ``action`` for the seat to act.

        Raises:
            IllegalActionError: the action breaks a rule (named in ``.rule``); the state is
            unchanged.
        """
        self._verify(action)
        seat = self.actor
        self.history.append((seat, action))
        self.log.append(f"seat {seat}: {action.text() if not isinstance(action, Draw) else 'draw'}")
        if isinstance(action, Draw):
            self._do_draw(seat)
        elif isinstance(action, TakePile):
            self._do_take(seat, action.cards)
        elif isinstance(action, Meld):
            if action.cards and all(c in _RED3 for c in action.cards):
                self._do_declare(seat, action.cards)
            else:
                self._do_meld(seat, action.cards,
                              self._meld_key(self.team_of[seat], action.cards))
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
            if card in _RED3 and not self.rules.red_threes.may_keep_as_stop:
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
        top_only = self._top_card_only(team, cards)
        if not opened:
            self._start_provisional()
        top = self.pile.pop()
        rank = _RANK[top]
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
            if self._going_out_error(seat, None) is None:
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
        if (_IS_WILD[card] and p.wild_discard_freezes) or (
            card in _BLACK3 and p.black_three_discard_freezes
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
        self.concealed = self._is_concealed(seat)
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

    # -- going out -----------------------------------------------------------------------------
    def going_out_plan(self) -> list[Action] | None:
        """A sequence of melds, lay-offs and a final discard with which the player to act goes
        out this turn, checked by playing it on a copy; None when none is found.

        The search is greedy (one plan per choice of final discard), so it may miss an unusual
        way out; it never returns a plan that does not work.
        """
        if self.phase is not Phase.PLAY or self.no_discard:
            return None
        seat = self.actor
        hand = self.hands[seat]
        melds = self.melds[self.team_of[seat]]
        # Quick necessary condition: every natural rank without a meld needs two cards or more,
        # black threes three or more; one odd card may be the final discard.
        odd = 0
        for rank in (1, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4):
            b = (rank - 1) * 4
            n = hand[b] + hand[b + 1] + hand[b + 2] + hand[b + 3]
            if n == 1 and rank not in melds:
                odd += 1
        blacks = hand[8] + hand[11]
        if blacks and blacks < self.rules.melds.min_cards:
            odd += blacks
        if odd > 1:
            return None
        discards: list[int | None] = [] if self.rules.going_out.discard_required else [None]
        discards += [c for c in range(NUM_CODES) if hand[c]]
        for last in discards:
            plan = self._plan_with(seat, last)
            if plan is not None:
                return plan
        return None

    def _plan_with(self, seat: int, last: int | None) -> list[Action] | None:
        probe = self.clone()
        probe._must_check = False
        probe.answer = None if self.answer is True else self.answer
        team = self.team_of[seat]
        hand = probe.hands[seat][:]
        if last is not None:
            hand[last] -= 1
        plan: list[Action] = []
        melds = probe.melds[team]
        wilds = [JOKER] * hand[JOKER] + [c for c in _DEUCES for _ in range(hand[c])]
        blacks = [c for c in BLACK_THREES for _ in range(hand[c])]
        for rank in (1, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4):
            codes = range((rank - 1) * 4, rank * 4)
            nat = [c for c in codes for _ in range(hand[c])]
            if not nat:
                continue
            if rank in melds:
                plan.append(LayOff(rank, tuple(nat)))
            elif len(nat) >= self.rules.melds.min_cards:
                plan.insert(0, Meld(tuple(nat)))
            else:
                need = self.rules.melds.min_cards - len(nat)
                if len(wilds) < need:
                    return None
                plan.insert(0, Meld(tuple(nat + wilds[:need])))
                wilds = wilds[need:]
        # Remaining wild cards go one at a time wherever they fit, nearest canasta first.
        for w in wilds:
            placed = False
            ranks = sorted(
                {*melds, *(self._rank_of_action(a) for a in plan)},
                key=lambda k: -len(melds.get(k, [])),
            )
            for k in ranks:
                if k == 3:
                    continue
                plan.append(LayOff(k, (w,)))
                trial = probe.clone()
                ok = True
                for a in plan:
                    if trial.check(a) is not None:
                        ok = False
                        break
                    trial.apply(a)
                if ok or trial.is_over:
                    placed = True
                    break
                plan.pop()
            if not placed:
                return None
        # Black threes are melded only when going out: last, before the final discard.
        if blacks:
            plan.append(Meld(tuple(blacks)))
        if last is not None:
            plan.append(Discard(last))
        trial = probe
        for a in plan:
            if trial.check(a) is not None:
                return None
            trial.apply(a)
        if trial.is_over and trial.went_out == seat:
            return plan
        return None

    @staticmethod
    def _rank_of_action(a: Action) -> int:
        if isinstance(a, LayOff):
            return a.rank
        assert isinstance(a, Meld)
        nat = [c for c in a.cards if not _IS_WILD[c]]
        return _RANK[nat[0]] if nat else WILD_RANK

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
