"""A match: hands played one after another until a side reaches the target.

The match keeps the team scores (which set each hand's opening minimum), rotates the deal
(seed 003: "La distribuzione ruota in senso orario dopo ogni mano") and records every hand:
its deck order, dealer and score sheets, and its state, whose events are the hand's one
history. A hand's actions are read from those events, so a record holds every move however it
was made (``Match.apply`` or ``match.state.apply``) and replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from canasta.core.actions import Action, parse_action
from canasta.core.cards import make_deck
from canasta.core.events import Event
from canasta.core.rules import Rules
from canasta.core.scoring import ScoreSheet
from canasta.core.state import MisdealError, State


class HandRecord:
    """One finished (or current) hand: how it began, what was played and its result.

    ``state`` is the hand as played (the match's current state for the hand in play); its
    events are the record, and ``played`` and ``actions`` are read from them: the actions
    since the hand began (``first``: how many the state held then, the history of a start
    position). A hand taken as stored without being replayed (the finished hands given to
    :meth:`Match.resume`) has no state and holds the ``actions`` it was given.

    Args:
        dealer: the dealer's seat.
        deck: the deck order the hand was dealt from, top card first (empty: not dealt).
        scores_before: each team's match score before the hand.
        actions: ``(seat, action text)`` of a hand without a state (ignored with one).
        sheets: the score sheets, once the match scored the hand.
        end_reason: how it ended (an :class:`~canasta.core.events.EndReason`'s text).
        start: the position the hand started from (a position document,
            canasta.formats.position) when it was not dealt from ``deck`` (``canasta play
            --from``); ``actions`` follow it.
        state: the hand's state (its events are the record).
        first: actions of ``state`` played before the hand's record begins.
    """

    __slots__ = ("dealer", "deck", "scores_before", "sheets", "end_reason", "start", "state",
                 "first", "_stored")

    def __init__(self, dealer: int, deck: tuple[int, ...], scores_before: tuple[int, ...],
                 actions: Sequence[tuple[int, str]] | None = None,
                 sheets: Sequence[ScoreSheet] | None = None, end_reason: str = "",
                 start: dict[str, Any] | None = None, *, state: State | None = None,
                 first: int = 0) -> None:
        self.dealer = dealer
        self.deck = deck
        self.scores_before = scores_before
        self.sheets: list[ScoreSheet] = list(sheets) if sheets is not None else []
        self.end_reason = end_reason
        self.start = start
        self.state = state
        self.first = first
        self._stored: tuple[tuple[int, str], ...] = tuple(actions) if actions else ()

    @property
    def played(self) -> list[tuple[int, Action]]:
        """The actions of the hand, oldest first, as ``(seat, action)``: from the state's
        events (a new list each time).

        Raises:
            ActionParseError: a stored text (a hand without a state) does not read.
        """
        state = self.state
        if state is None:
            return [(seat, parse_action(text)) for seat, text in self._stored]
        return state.actions[self.first:]

    @property
    def actions(self) -> list[tuple[int, str]]:
        """The actions of the hand as ``(seat, action text)`` (the record's form; a new list
        each time)."""
        if self.state is None:
            return list(self._stored)
        return [(seat, action.text()) for seat, action in self.played]

    def copy(self) -> HandRecord:
        """A copy sharing the state (a hand's state is replaced, never changed, once the
        match moves on) with its own list of sheets."""
        return HandRecord(self.dealer, self.deck, self.scores_before, self._stored,
                          self.sheets, self.end_reason, self.start, state=self.state,
                          first=self.first)

    def __repr__(self) -> str:
        return (f"HandRecord(dealer={self.dealer}, actions={len(self.actions)}, "
                f"sheets={len(self.sheets)}, end_reason={self.end_reason!r})")


#: Most deals tried for one hand before :class:`MisdealError` is raised.
MAX_REDEALS = 1000


class Match:
    """A match of ``players`` players under ``rules``.

    Args:
        rules: the rule set.
        players: number of players.
        seed: seed of the shuffles; None draws one (kept in ``self.seed`` and in records).
        team_size: players per team (6 players: 3, or 2 for three pairs).
        first_dealer: the seat that deals the first hand.
    """

    def __init__(self, rules: Rules, players: int = 4, *, seed: int | None = None,
                 team_size: int | None = None, first_dealer: int = 0) -> None:
        self.rules = rules
        self.players = players
        self.team_size = team_size
        self.teams = rules.teams(players, team_size)
        self.scores = [0] * len(self.teams)
        self.hands: list[HandRecord] = []
        self.dealer = first_dealer % players
        # Each hand's shuffle depends only on (seed, hand number, attempt), so a match rebuilt
        # from its record deals the same next hand without replaying any generator state.
        self.seed = seed if seed is not None else random.randrange(2**63)
        self.winner: int | None = None
        self._state: State = self._deal()

    @property
    def state(self) -> State:
        """The hand in play (the last hand's ``state``). Play on it directly
        (``match.state.apply``) or through :meth:`apply`: the record reads its events either
        way. Setting it (an undo putting a copy back, a record read from a position) sets the
        current hand's state too."""
        return self._state

    @state.setter
    def state(self, state: State) -> None:
        self._state = state
        if self.hands:
            self.hands[-1].state = state

    @classmethod
    def resume(cls, rules: Rules, players: int, hands: Sequence[HandRecord], *, seed: int,
               team_size: int | None = None) -> Match:
        """A match taken up where its stored hands stop, replaying only the last hand.

        Every hand but the last is taken as recorded (its ``sheets`` give the match scores;
        its actions are not replayed); the last is dealt from its ``deck`` with its dealer
        and ``scores_before``, and its actions (``played``: its state's, or the stored ones)
        applied; when they end it, it is scored.
        The next hand is dealt from ``seed`` like any match's (:meth:`next_hand`), so a match
        stored by a server and resumed deals as if it had never stopped.

        Raises:
            ValueError: no hands, or a finished hand without sheets.
            MisdealError: the last deck does not deal.
            IllegalActionError, ActionParseError: a stored action does not replay.
        """
        if not hands:
            raise ValueError("a match needs at least one hand")
        for number, rec in enumerate(hands[:-1]):
            if not rec.sheets:
                raise ValueError(f"hand {number} is not finished (it has no score sheets)")
        last = hands[-1]
        # the constructor deals a hand of its own, replaced below (a deal costs little and
        # keeps a single way of building a match, compiled or not)
        match = cls(rules, players, seed=seed, team_size=team_size, first_dealer=last.dealer)
        match.hands = [rec.copy() for rec in hands[:-1]]
        match.scores = list(last.scores_before)
        match.dealer = last.dealer % players
        match.state = match._deal(last.deck)
        for _seat, action in last.played:
            match.state.apply(action)
        if match.state.is_over:
            match.finish_hand()
        return match

    def _deal(self, deck: Sequence[int] | None = None) -> State:
        # A misdeal (seed 000: wild cards turned before a natural) is dealt again; the number
        # of attempts is bounded so that no rule value can loop for ever.
        for attempt in range(MAX_REDEALS):
            order = list(deck) if deck is not None else self._shuffled(attempt)
            try:
                state = State.deal(self.rules, self.players, deck=order, dealer=self.dealer,
                                   scores=self.scores, team_size=self.team_size)
            except MisdealError:
                if deck is not None:
                    raise
                continue
            self.hands.append(HandRecord(self.dealer, state.deck, tuple(self.scores),
                                         state=state))
            return state
        raise MisdealError(f"{MAX_REDEALS} misdeals in a row [deal.redeal_after_wild_upcards]")

    def _shuffled(self, attempt: int = 0) -> list[int]:
        """The shuffled deck of the next hand (``attempt`` > 0 after a misdeal)."""
        deck = make_deck(self.rules.packs(self.players), self.rules.deal.jokers_per_pack)
        random.Random(f"{self.seed}:{len(self.hands)}:{attempt}").shuffle(deck)
        return deck

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def record(self) -> HandRecord:
        """The record of the current hand."""
        return self.hands[-1]

    def apply(self, action: Action | str) -> Event:
        """Apply an action (or its text) to the current hand; returns its event. The same
        as ``match.state.apply(action)`` (:meth:`State.apply
        <canasta.core.state.State.apply>`): the record reads the state's events.

        Raises:
            IllegalActionError: the action is illegal (nothing changes).
            ActionParseError: the text is malformed.
        """
        return self._state.apply(action)

    def finish_hand(self) -> list[ScoreSheet]:
        """Score the finished hand, add it to the match and decide the winner.

        Raises:
            ValueError: the current hand is not over.
        """
        state = self._state
        sheets = state.score()
        rec = self.record
        rec.sheets = sheets
        rec.end_reason = state.end_reason
        for sheet in sheets:
            self.scores[sheet.team] = sheet.score_after
        self.winner = self._decide_winner(state)
        return sheets

    def _decide_winner(self, state: State) -> int | None:
        out_team = state.team_of[state.went_out] if state.went_out is not None else None
        return decide_winner(self.rules, self.players, self.scores, out_team)

    def next_hand(self) -> State:
        """Deal the next hand (the deal passes to the next seat).

        Raises:
            ValueError: the current hand is not finished or the match is over.
        """
        if not self.state.is_over or not self.record.sheets:
            raise ValueError("finish the current hand first")
        if self.is_over:
            raise ValueError("the match is over")
        self.dealer = (self.dealer + 1) % self.players
        self.state = self._deal()
        return self.state


def decide_winner(rules: Rules, players: int, scores: Sequence[int],
                  out_team: int | None) -> int | None:
    """The team that wins the match after a hand, or None to play on.

    ``scores`` are the match totals after the hand and ``out_team`` the team that went out
    (None when nobody did). The target is ``rules.target(players)``: reached exactly where the
    rules say so (seed 003, Sujo), and only by the team that went out where it must go out to
    win (seed 004 "Castigatorii sunt cei care ajung primii la 10.000 si inchid jocul"). When
    several teams reach it, the higher total wins; an exact tie plays another hand.
    """
    end = rules.end
    target = rules.target(players)
    if end.exact_target:
        reached = [t for t, s in enumerate(scores) if s == target]
    else:
        reached = [t for t, s in enumerate(scores) if s >= target]
    if end.must_go_out_to_win:
        reached = [t for t in reached if t == out_team]
    if not reached:
        return None
    best = max(scores[t] for t in reached)
    leaders = [t for t in reached if scores[t] == best]
    # Seed 003: "Se entrambe le squadre superano l'obiettivo ... vince quella con il
    # punteggio più alto"; an exact tie plays another hand.
    return leaders[0] if len(leaders) == 1 else None
