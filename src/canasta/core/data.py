"""The data of one hand: every field of the state, its copy, and read-only queries.

:class:`HandData` holds what a hand is made of (hands as counts per card code, stock, discard
pile, melds, red threes, the turn's bookkeeping). It never changes itself: the changes are in
:mod:`canasta.core.transitions`, the checks in :mod:`canasta.core.legality`, and the public
:class:`~canasta.core.state.State` puts them together (``verify`` / ``can`` / ``apply``).
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING

from canasta.core import layout
from canasta.core.actions import Action, Answer, AskPartner, Discard, EndHand
from canasta.core.cards import NUM_CODES, cards_of
from canasta.core.eventlog import EventLog, push
from canasta.core.events import Event, actions_of, events_of
from canasta.core.melds import BLACK3, RANK, RED3
from canasta.core.rules import Rules
from canasta.core.scoring import (
    ANSWER_PENALTY,
    ANSWER_PENALTY_TEXT,
    Penalty,
    ScoreSheet,
    TeamHand,
    score_hand,
)

if TYPE_CHECKING:
    from typing import Self


class Phase(Enum):
    """Where the turn is: the seat to act draws, plays, answers its partner, or the hand is
    over."""

    DRAW = "draw"
    PLAY = "play"
    ANSWER = "answer"
    OVER = "over"


class MisdealError(Exception):
    """The deal must be redone (seed 000: three wild cards turned before a natural).

    An ``Exception`` (not a ``RuntimeError``: mypyc compiles no subclass of that)."""


#: The fields of :class:`HandData` (its ``__slots__``; a class compiled by mypyc has no
#: ``__slots__`` attribute, so code that walks the fields reads this): the names of the field
#: table, :data:`canasta.core.layout.TABLE`, which says how each is copied, seen and written.
FIELDS = layout.FIELDS


class HandData:
    """The fields of one hand of Canasta and the queries over them.

    Seats are numbered in playing order; ``teams[t]`` lists the seats of team ``t``. Hands are
    counts per card code (``hands[seat][code]``); ``stock`` and ``pile`` are lists of card codes
    with the next card (the pile's top) at the end; ``melds[team]`` maps a meld key
    (:mod:`canasta.core.melds`) to its cards.
    """

    __slots__ = FIELDS

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
    snapshot: HandData | None
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
    #: The history, newest last: a persistent chain shared by copies (see ``events``).
    event_log: EventLog | None
    #: False on the copies legality plays ahead on: checks that would look ahead again (can
    #: the player still go out?) are skipped there, so a look-ahead never recurses.
    lookahead: bool
    #: Per team, the turn in which it last put a joker on the table (-1: never); see
    #: ``OpeningRules.joker_meld_blocks_mattoni``.
    joker_turn: list[int]
    #: Per seat, counts per card code of the cards every other seat knows to be in that hand:
    #: cards that came to it with the pile (the discards were seen; seed 004's surprise cards
    #: are shown, "dupa ce le arata celorlalti") or that it took back from the table, less the
    #: copies of each code it has put down or discarded since (:mod:`canasta.core.view`).
    known: list[tuple[int, ...]]
    #: Cards at the bottom of the pile (of the pending pile, while it is pending) that nobody
    #: has seen: those put face down under the upcard (seed 000: "A questa carta vengono
    #: sottoposte ... altre carte prelevate dal tallone").
    pile_hidden: int

    # -- construction and copying --------------------------------------------------------------
    def init_fields(self, rules: Rules, players: int, teams: tuple[tuple[int, ...], ...],
                    deck: tuple[int, ...], dealer: int, scores: list[int]) -> None:
        """Set every field for a hand not yet dealt: empty hands, stock, pile and melds.

        Raises:
            ValueError: ``scores`` does not have one entry per team.
        """
        self.rules = rules
        self.players = players
        self.teams = teams
        team_of = [0] * players
        for t, seats in enumerate(teams):
            for seat in seats:
                team_of[seat] = t
        self.team_of = tuple(team_of)
        n_teams = len(teams)
        if len(scores) != n_teams:
            raise ValueError(f"scores: expected {n_teams} team scores, got {len(scores)}")
        self.deck = deck
        self.hands = [[0] * NUM_CODES for _ in range(players)]
        self.hand_size = [0] * players
        self.stock = []
        self.pile = []
        self.pile_frozen = False
        self.surprise = []
        self.melds = [{} for _ in range(n_teams)]
        self.red_threes = [[] for _ in range(n_teams)]
        self.opened = [False] * n_teams
        self.scores = scores
        self.min_extra = [0] * n_teams
        self.dealer = dealer % players
        self.current = self.actor = 0
        self.turn = -1
        self.asks = [0] * players
        self.player_melded = [False] * players
        self.end_reason = ""
        self.went_out = None
        self.concealed = False
        self.event_log = None
        self.lookahead = True
        self.joker_turn = [-1] * n_teams
        self.known = [(0,) * NUM_CODES] * players  # tuples: shared by clones
        self.pile_hidden = 0
        self.reset_turn()

    def reset_turn(self) -> None:
        """Clear the bookkeeping of one turn (phase back to DRAW)."""
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

    def clone(self) -> Self:
        """An independent copy of the same class. The history is shared, not copied (it is
        persistent), so a copy costs the same at any point of the hand."""
        s = type(self)()  # no __init__: every field is set below
        # The copy of each field as the field table says (canasta.core.layout), written out
        # for speed: a loop over the names costs 1.6 times as much.
        # -- generated from canasta.core.layout (clone): python tools/layout_code.py --write
        s.rules = self.rules
        s.players = self.players
        s.teams = self.teams
        s.team_of = self.team_of
        s.dealer = self.dealer
        s.scores = self.scores[:]
        s.hands = [x[:] for x in self.hands]
        s.hand_size = self.hand_size[:]
        s.melds = [{k: v[:] for k, v in m.items()} for m in self.melds]
        s.red_threes = [x[:] for x in self.red_threes]
        s.opened = self.opened[:]
        s.min_extra = self.min_extra[:]
        s.pile = self.pile[:]
        s.pile_frozen = self.pile_frozen
        s.stock = self.stock[:]
        s.surprise = self.surprise[:]
        s.deck = self.deck
        s.turn = self.turn
        s.current = self.current
        s.actor = self.actor
        s.phase = self.phase
        s.took_pile = self.took_pile
        s.melded_this_turn = self.melded_this_turn
        s.opening_points = self.opening_points
        s.provisional = self.provisional
        s.pending_pile = self.pending_pile[:]
        s.asked = self.asked
        s.answer = self.answer
        s.opened_at_turn_start = self.opened_at_turn_start
        s.stopped_turn = self.stopped_turn
        s.no_discard = self.no_discard
        s.snapshot = self.snapshot
        s.asks = self.asks[:]
        s.player_melded = self.player_melded[:]
        s.joker_turn = self.joker_turn[:]
        s.known = self.known[:]
        s.pile_hidden = self.pile_hidden
        s.end_reason = self.end_reason
        s.went_out = self.went_out
        s.concealed = self.concealed
        s.event_log = self.event_log
        s.lookahead = self.lookahead
        # -- end of generated code: clone
        return s

    def restore(self, other: HandData) -> None:
        """Make every field of this hand the same object as ``other``'s (used to take an
        opening back from its snapshot; pass a copy)."""
        for name in FIELDS:
            setattr(self, name, getattr(other, name))

    # -- the history ---------------------------------------------------------------------------
    @property
    def events(self) -> tuple[Event, ...]:
        """Everything that happened in the hand, oldest first (:mod:`canasta.core.events`)."""
        return events_of(self.event_log)

    @property
    def actions(self) -> list[tuple[int, Action]]:
        """The actions played, in order, as ``(seat, action)`` (derived from ``events``)."""
        return actions_of(self.events)

    def record(self, event: Event) -> Event:
        """Append ``event`` to the history; returns it."""
        self.event_log = push(self.event_log, event)
        return event

    # -- the operations, defined by the public State -------------------------------------------
    def can(self, action: Action) -> bool:
        """Is ``action`` legal now? (Defined by :class:`canasta.core.state.State`.)"""
        raise NotImplementedError

    def apply(self, action: Action) -> Event:
        """Apply a legal action. (Defined by :class:`canasta.core.state.State`.)"""
        raise NotImplementedError

    # -- queries -------------------------------------------------------------------------------
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
        """How many of ``team``'s melds are canastas (``melds.canasta_size`` cards or more)."""
        size = self.rules.melds.canasta_size
        return sum(1 for m in self.melds[team].values() if len(m) >= size)

    def top_stops(self, team: int) -> bool:
        """Does the pile's top card stop ``team`` from taking the pile this turn (a black
        three, a kept red three, or a discard of the rank of one of its canastas)?"""
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

    def frozen_for(self, team: int) -> bool:
        """Is the pile frozen for ``team`` (frozen, always frozen, or not yet opened)?"""
        p = self.rules.pile
        return self.pile_frozen or p.always_frozen or (
            p.frozen_for_unopened_side and not self.opened[team])

    def mattoni_blocked(self, team: int) -> bool:
        """Has an opponent of ``team`` put a joker on the table within the last round?"""
        return any(
            t != team and turn >= 0 and self.turn - turn < self.players
            for t, turn in enumerate(self.joker_turn)
        )

    def is_concealed(self, seat: int) -> bool:
        """Would ``seat`` going out now go out concealed (``going_out.concealed_means``)?"""
        if self.rules.going_out.concealed_means == "side_opens_this_turn":
            return not self.opened_at_turn_start
        return not self.player_melded[seat]

    # -- the end of the hand -------------------------------------------------------------------
    def team_hands(self) -> list[TeamHand]:
        """The table of each team as the scorer sees it (valid once the hand is over)."""
        out = []
        for t, seats in enumerate(self.teams):
            out.append(TeamHand(
                melds=tuple(tuple(m) for m in self.melds[t].values() if m),
                red_threes=len(self.red_threes[t]),
                # every player of the team in seat order, [] for the one who went out, so
                # that "player 2" of the score sheet is the team's second player
                hands=tuple(tuple(cards_of(self.hands[s])) for s in seats),
                went_out=self.went_out is not None and self.team_of[self.went_out] == t,
                concealed=self.concealed and self.went_out is not None
                and self.team_of[self.went_out] == t,
                score_before=self.scores[t],
                penalties=self.answer_penalties(t),
            ))
        return out

    def answer_penalties(self, team: int) -> tuple[Penalty, ...]:
        """The ``going_out.ask_yes_unable_penalty`` rows of ``team``: each turn in which one
        of its players, told "yes" by the partner, ended the turn without going out (read from
        ``actions``, derived from ``events``)."""
        points = self.rules.going_out.ask_yes_unable_penalty
        if not points:
            return ()
        rows: list[Penalty] = []
        asker: int | None = None
        told_yes: int | None = None
        history = self.actions
        for i, (seat, action) in enumerate(history):
            if isinstance(action, AskPartner):
                asker = seat
            elif isinstance(action, Answer):
                told_yes = asker if action.yes else None
            elif seat != told_yes:
                told_yes = None
            elif isinstance(action, (Discard, EndHand)):
                last = i == len(history) - 1
                if not (last and self.went_out == seat) and self.team_of[seat] == team:
                    rows.append(Penalty(ANSWER_PENALTY, -points, ANSWER_PENALTY_TEXT))
                told_yes = None
        return tuple(rows)

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
        return (f"<{type(self).__name__} {self.rules.name} turn {self.turn} seat {self.actor} "
                f"{self.phase.value} stock {len(self.stock)} pile {len(self.pile)}>")


#: The rule set last asked for opening minimums and its minimum by score (see
#: :func:`opening_minimums`), one pair replaced as a whole.
_MINIMUMS: list[tuple[Rules | None, dict[int, int]]] = [(None, {})]


def opening_minimums(s: HandData) -> tuple[int, ...]:
    """``s.opening_minimum(team)`` for each team (what a view shows), with the rules' minimum
    by score remembered for the last rule set seen: ``Rules.opening_minimum`` is plain
    Python, and an environment makes a view on every step. Rule sets are frozen, so a
    score's minimum never changes; a rule set and its dict are read and replaced as one
    pair, so that threads asking for different rule sets never mix their minimums."""
    rules = s.rules
    cached = _MINIMUMS[0]
    if cached[0] is not rules:
        cached = (rules, {})
        _MINIMUMS[0] = cached
    by_score = cached[1]
    out: list[int] = []
    for team in range(len(s.teams)):
        score = s.scores[team]
        minimum = by_score.get(score)
        if minimum is None:
            minimum = by_score[score] = rules.opening_minimum(score)
        out.append(minimum + s.min_extra[team])
    return tuple(out)
