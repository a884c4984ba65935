"""What one seat knows (its information set), and deals consistent with it for search.

A :class:`View` holds the seat's hand, the table (melds, red threes, the face-up cards of the
discard pile), the turn, and for every seat the cards the others know to be in its hand: the
cards it received with the discard pile (every discard was seen; seed 004's surprise cards are
shown to the others, "dupa ce le arata celorlalti") or took back from the table, less the
copies of each it has played since (``HandData.known``). It never holds another player's
unknown cards, the stock or the surprise cards: those are the *hidden places*, and
``view.hidden`` counts the unseen cards in each.

``view.sample_state(rng)`` deals the cards the seat cannot see into the hidden places at
random, every deal consistent with what the seat knows equally likely, and returns a full
:class:`~canasta.core.state.State` to play on (determinization, for information-set search
such as ISMCTS or OpenSpiel's ``resample_from_infostate``). The real state is always one of
the possible samples.

The view holds its seat's own copy of the history (:func:`~canasta.core.events.seen_by`), never
the state's, and a table blanked by :mod:`canasta.core.blanking`: nothing reachable from it,
private fields included, holds a card the seat did not see, and it pickles.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from typing import Any, Final, Generic, TypeVar

from canasta.core.actions import Action, ViewActions
from canasta.core.blanking import HIDDEN as HIDDEN
from canasta.core.blanking import Provisional as Provisional
from canasta.core.blanking import blank as blank
from canasta.core.blanking import provisional_info, table_start, unseen_counts
from canasta.core.cards import NUM_CODES, display_cards
from canasta.core.data import HandData, Phase, opening_minimums
from canasta.core.eventlog import EventLog, events_of, seen_by
from canasta.core.events import Event
from canasta.core.legality import legal_actions
from canasta.core.melds import RED3
from canasta.core.rules import Rules

S = TypeVar("S", bound=HandData)


#: The public attributes of a :class:`View` (``hand``, ``known`` and ``table`` are built
#: from the others when first read).
VIEW_FIELDS = (
    "seat", "team", "players", "teams", "hand", "hand_counts", "hand_sizes", "melds",
    "red_threes", "pile_top", "pile_size", "pile_frozen", "stopped", "stock_size", "scores",
    "opened", "opening_minimum", "opening_points", "phase", "current", "actor", "rules",
    "legal_actions", "known", "known_counts", "pile", "pending_pile", "hidden", "table",
    "provisional",
)


class EventMark:
    """A point of a hand's history as one seat saw it, as :meth:`View.events_since` returns
    it (opaque)."""

    __slots__ = ("_log",)

    def __init__(self, log: EventLog | None) -> None:
        self._log: Final = log

    @property
    def key(self) -> int:
        """The point's identity (while this mark is kept)."""
        return id(self._log)


class View(Generic[S]):
    """What one seat may see: the information set's public part plus its own hand.

    Cards are card codes, lists in display order unless said otherwise. Never another player's
    unknown cards, the stock order or the surprise cards. A view is a snapshot: it holds no
    reference to the state, whose later moves do not change it. Its attributes are read only
    (``Final``; enforced at run time where the core is compiled).

    Attributes:
        seat, team, players, teams: this seat, its team, the player count, the seats of each
            team.
        hand: this seat's cards in display order; ``hand_counts``: the same as counts per
            card code (53 entries).
        hand_sizes: the cards in each hand, per seat.
        melds: per team, meld key -> its cards; ``red_threes``: per team, the red threes laid
            out.
        pile_top, pile_size: the discard pile's top card (None when empty) and its size;
            ``pile_frozen``: frozen for this seat's team; ``stopped``: the top card stops the
            side to play from taking it.
        stock_size, scores, opened, opening_minimum: the stock's size; per team, the match
            score before this hand, whether it has opened, its opening minimum now.
        opening_points: the points of this turn's provisional opening melds when the side to
            play is this seat's (else 0).
        phase, current, actor: the phase, whose turn it is, the seat to act.
        rules: the rule set. ``legal_actions``: the seat's legal actions when it is to act,
            else empty (:class:`~canasta.core.actions.ViewActions`).
        known: per seat, the cards the other seats know to be in its hand, in card-code
            order (this seat's entry is what the others know of its own hand);
            ``known_counts``: the same as counts per card code.
        pile: the discard pile's face-up cards, bottom first (the top card last).
        pending_pile: the taken pile's face-up cards while they wait for the opening.
        hidden: the count of cards this seat cannot see in each hidden place: ``"hand N"``
            (the unknown cards of seat N), ``"stock"``, ``"surprise"``, ``"pile"`` (the cards
            face down under the upcard, seed 000) and ``"pending"`` (those among a taken pile).
        table: the state with every card this seat cannot see taken out (other hands hold
            their known cards only; stock, surprise and face-down pile cards are
            :data:`HIDDEN`); what :meth:`sample_state` fills in. Not a state to play on.
        provisional: see :class:`Provisional`; None unless a side's opening is provisional.
    """

    __slots__ = ("seat", "team", "players", "teams", "hand_counts", "hand_sizes", "melds",
                 "red_threes", "pile_top", "pile_size", "pile_frozen", "stopped",
                 "stock_size", "scores", "opened", "opening_minimum", "opening_points",
                 "phase", "current", "actor", "_log", "rules", "_actions", "_legal_actions",
                 "known_counts", "pile", "pending_pile", "hidden", "provisional", "_hand",
                 "_known", "_table", "_table_done")

    def __init__(self, *, seat: int, team: int, players: int,
                 teams: tuple[tuple[int, ...], ...], hand_counts: tuple[int, ...],
                 hand_sizes: tuple[int, ...], melds: tuple[dict[int, tuple[int, ...]], ...],
                 red_threes: tuple[tuple[int, ...], ...], pile_top: int | None,
                 pile_size: int, pile_frozen: bool, stopped: bool, stock_size: int,
                 scores: tuple[int, ...], opened: tuple[bool, ...],
                 opening_minimum: tuple[int, ...], opening_points: int, phase: Phase,
                 current: int, actor: int, log: EventLog | None, rules: Rules,
                 legal_actions: Sequence[Action], known_counts: tuple[tuple[int, ...], ...],
                 pile: tuple[int, ...], pending_pile: tuple[int, ...], hidden: dict[str, int],
                 provisional: Provisional | None, table: S) -> None:
        self.seat: Final = seat
        self.team: Final = team
        self.players: Final = players
        self.teams: Final = teams
        self.hand_counts: Final = hand_counts
        self.hand_sizes: Final = hand_sizes
        self.melds: Final = melds
        self.red_threes: Final = red_threes
        self.pile_top: Final = pile_top
        self.pile_size: Final = pile_size
        self.pile_frozen: Final = pile_frozen
        self.stopped: Final = stopped
        self.stock_size: Final = stock_size
        self.scores: Final = scores
        self.opened: Final = opened
        self.opening_minimum: Final = opening_minimum
        self.opening_points: Final = opening_points
        self.phase: Final = phase
        self.current: Final = current
        self.actor: Final = actor
        #: The hand's history as this seat saw it (:func:`~canasta.core.events.seen_by`): a
        #: chain of its own, shared by this seat's views of the hand, never the state's.
        self._log: Final = log
        self.rules: Final = rules
        #: The legal actions as the state listed them; ``legal_actions`` wraps them in a
        #: ViewActions when first read (an environment reads this list directly).
        self._actions: Final = legal_actions
        self._legal_actions: ViewActions | None = (
            legal_actions if isinstance(legal_actions, ViewActions) else None)
        self.known_counts: Final = known_counts
        self.pile: Final = pile
        self.pending_pile: Final = pending_pile
        self.hidden: Final = hidden
        self.provisional: Final = provisional
        self._hand: tuple[int, ...] | None = None
        self._known: tuple[tuple[int, ...], ...] | None = None
        # The table, its fields taken from the state when the view is made except the card
        # lists, which are filled from this view's own fields when ``table`` is first read
        # (only sample_state and a few front ends read it).
        self._table = table
        self._table_done = False

    @property
    def hand(self) -> tuple[int, ...]:
        """This seat's cards in display order."""
        hand = self._hand
        if hand is None:
            hand = self._hand = display_cards(self.hand_counts)
        return hand

    @property
    def legal_actions(self) -> ViewActions:
        """The seat's legal actions when it is to act, else empty (see the class docstring);
        wrapped when first read."""
        actions = self._legal_actions
        if actions is None:
            actions = self._legal_actions = ViewActions(self._actions, self.hand_counts)
        return actions

    @property
    def known(self) -> tuple[tuple[int, ...], ...]:
        """Per seat, the cards the other seats know to be in its hand, in card-code order."""
        known = self._known
        if known is None:
            known = self._known = tuple(_cards(k) for k in self.known_counts)
        return known

    @property
    def table(self) -> S:
        """The state with every card this seat cannot see taken out (see the class
        docstring); built when first read."""
        t = self._table
        if not self._table_done:
            _fill_table(self, t)
            self._table_done = True
        return t

    @property
    def events(self) -> tuple[Event, ...]:
        """The hand's events as this seat sees them (``event.visible_to(seat)``), oldest
        first; built when asked for."""
        return events_of(self._log)

    def events_since(self, mark: EventMark | None) -> tuple[tuple[Event, ...] | None,
                                                            EventMark]:
        """The events this seat saw after ``mark``, oldest first, and the mark of now: what a
        reader that follows the hand event by event needs (``canasta.bots.tracking``),
        without building the whole history again at every decision.

        ``mark`` is one this method returned for an earlier view (None: from the start). The
        events are None when ``mark`` is not a point of this view's history (another hand,
        or a state that did not come from that one): read ``events`` then. The cost is the
        number of events since ``mark`` (or the history's length when it is not in it)."""
        end = self._log
        stop = mark._log if mark is not None else None
        size = stop.size if stop is not None else 0
        out: list[Event] = []
        node = end
        while node is not None and node is not stop and node.size > size:
            out.append(node.event)
            node = node.prev
        if node is not stop:
            return None, EventMark(end)
        out.reverse()
        return tuple(out), EventMark(end)

    def events_since_known(self, known: Mapping[int, object]
                           ) -> tuple[object | None, list[tuple[Event, EventMark]]]:
        """Like :meth:`events_since`, from the latest point of this view's history that
        ``known`` holds: ``known`` maps :attr:`EventMark.key` to what the caller kept for
        that point (the caller keeps the marks too, so their keys stay unique). Returns
        what ``known`` held for that point (None when none was found: from the start) and
        each later event with the mark just after it, oldest first."""
        out: list[tuple[Event, EventMark]] = []
        node = self._log
        found: object | None = None
        while node is not None:
            got = known.get(id(node))
            if got is not None:
                found = got
                break
            out.append((node.event, EventMark(node)))
            node = node.prev
        out.reverse()
        return found, out

    def seen_log(self) -> EventLog | None:
        """:attr:`events` as a log (shared by every view of this seat on the same hand and
        every :meth:`sample_state` of them)."""
        return self._log

    def unseen(self) -> list[int]:
        """Counts per card code of the cards this seat cannot see (in ``hidden``'s places)."""
        return unseen_counts(self.table, self.seat)

    def sample_state(self, rng: random.Random) -> S:
        """A full state consistent with everything this seat knows: the unseen cards
        (:meth:`unseen`) dealt at random into the hidden places (each arrangement equally
        likely), every other field as in the real state (turn, phase, opening points,
        provisional melds and their snapshot, frozen pile, ...).

        Args:
            rng: the source of randomness (``random.Random(seed)`` for a reproducible sample).

        Returns:
            a new state, independent of this view, with an empty ``deck`` (the deal order is
            unknown) and the events as this seat saw them.
        """
        return sample(self, rng)

    def __repr__(self) -> str:
        return (f"View(seat={self.seat}, phase={self.phase.value}, current={self.current}, "
                f"actor={self.actor}, hand={self.hand!r})")

    def __reduce__(self) -> tuple[object, ...]:
        # Pickled (and deep-copied) by its constructor's arguments, the table complete.
        return (_rebuilt, ({
            "seat": self.seat, "team": self.team, "players": self.players,
            "teams": self.teams, "hand_counts": self.hand_counts, "hand_sizes": self.hand_sizes,
            "melds": self.melds, "red_threes": self.red_threes, "pile_top": self.pile_top,
            "pile_size": self.pile_size, "pile_frozen": self.pile_frozen,
            "stopped": self.stopped, "stock_size": self.stock_size, "scores": self.scores,
            "opened": self.opened, "opening_minimum": self.opening_minimum,
            "opening_points": self.opening_points, "phase": self.phase,
            "current": self.current, "actor": self.actor, "log": self._log,
            "rules": self.rules, "legal_actions": self.legal_actions,
            "known_counts": self.known_counts, "pile": self.pile,
            "pending_pile": self.pending_pile, "hidden": self.hidden,
            "provisional": self.provisional, "table": self.table},))


def _rebuilt(fields: dict[str, Any]) -> View[Any]:
    """A view from the fields :meth:`View.__reduce__` gives (for pickle and deepcopy)."""
    return View(**fields)


#: The legal actions of a seat not to act (``in`` is False whatever the hand).
_NO_ACTIONS = ViewActions((), ())

#: ``View.hidden``'s key for each other seat's unknown cards.
_HAND_KEYS = tuple(f"hand {p}" for p in range(16))


def make_view(state: S, seat: int) -> View[S]:
    """The view of ``seat`` on ``state`` (``State.view``); ``legal_actions`` is filled when
    ``seat`` is to act.

    Raises:
        IndexError: ``seat`` is not a seat of the state.
    """
    s = state
    players = s.players
    if not 0 <= seat < players:
        raise IndexError(f"no seat {seat} among {players} players")
    team = s.team_of[seat]
    known = tuple(s.known)  # the state's tuples, shared: a move replaces them, never edits
    hidden: dict[str, int] = {}
    for p in range(players):
        if p != seat:
            hidden[_HAND_KEYS[p]] = s.hand_size[p] - sum(known[p])
    hid = s.pile_hidden
    pending = s.pending_pile
    hidden["stock"] = len(s.stock)
    hidden["surprise"] = len(s.surprise)
    hidden["pile"] = 0 if pending else hid
    hidden["pending"] = hid if pending else 0
    if pending:
        face_up = tuple(s.pile)
        pending_up = tuple(pending[hid:]) if hid else tuple(pending)
    else:
        face_up = tuple(s.pile[hid:]) if hid else tuple(s.pile)
        pending_up = ()
    hand = tuple(s.hands[seat])
    pile = s.pile
    return View(
        seat=seat,
        team=team,
        players=players,
        teams=s.teams,
        hand_counts=hand,
        hand_sizes=tuple(s.hand_size),
        melds=tuple({k: tuple(v) for k, v in m.items()} for m in s.melds),
        red_threes=tuple(tuple(r) for r in s.red_threes),
        pile_top=pile[-1] if pile else None,
        pile_size=len(pile),
        pile_frozen=s.frozen_for(team),
        stopped=s.top_stops(s.team_of[s.current]),
        stock_size=len(s.stock),
        scores=tuple(s.scores),
        opened=tuple(s.opened),
        opening_minimum=opening_minimums(s),
        opening_points=s.opening_points if s.team_of[s.current] == team else 0,
        phase=s.phase,
        current=s.current,
        actor=s.actor,
        log=seen_by(s.event_log, seat),
        rules=s.rules,
        legal_actions=legal_actions(s) if seat == s.actor else _NO_ACTIONS,
        known_counts=known,
        pile=face_up,
        pending_pile=pending_up,
        hidden=hidden,
        provisional=provisional_info(s, seat),
        table=table_start(s, seat),
    )


@functools.lru_cache(maxsize=4096)
def _cards(counts: tuple[int, ...]) -> tuple[int, ...]:
    """The cards of a counts tuple, in code order (``known`` tuples are shared by the states
    that follow, so the answer is cached)."""
    return tuple(c for c, n in enumerate(counts) if n for _ in range(n))


def _fill_table(view: View[S], t: S) -> None:
    """Set the fields of the table ``t`` that hold cards (``cards`` in the field table,
    :data:`canasta.core.layout.TABLE`), which :func:`~canasta.core.blanking.table_start` left
    unset, from the view's fields, as :func:`~canasta.core.blanking.blank` would: the other
    hands hold their known cards, the stock, the surprise cards and the face-down pile cards
    are :data:`HIDDEN`."""
    seat = view.seat
    t.hands = [list(view.hand_counts) if p == seat else list(view.known_counts[p])
               for p in range(view.players)]
    hidden = view.hidden
    t.stock = [HIDDEN] * view.stock_size
    t.surprise = [HIDDEN] * hidden["surprise"]
    t.pile = [HIDDEN] * hidden["pile"] + list(view.pile)
    t.pending_pile = [HIDDEN] * hidden["pending"] + list(view.pending_pile)
    t.melds = [{k: list(v) for k, v in m.items()} for m in view.melds]
    t.red_threes = [list(r) for r in view.red_threes]


# -- dealing the hidden cards ----------------------------------------------------------------
def sample(view: View[S], rng: random.Random) -> S:
    """See :meth:`View.sample_state`."""
    t = view.table
    seat = view.seat
    unseen = unseen_counts(t, seat)
    # Red threes are laid out at once (seed 002: "li mette da parte"), so none hides in a hand
    # unless the rules let players keep them.
    reds: list[int] = []
    if not t.rules.red_threes.may_keep_as_stop:
        for c in sorted(RED3):
            reds.extend([c] * unseen[c])
            unseen[c] = 0
    pool = [c for c, n in enumerate(unseen) for _ in range(n)]
    rng.shuffle(pool)
    places = (t.stock, t.surprise, t.pile, t.pending_pile)
    slots = sum(1 for cards in places for c in cards if c == HIDDEN)
    if len(reds) > slots:
        raise ValueError("the view is inconsistent: more unseen red threes than hidden cards "
                         "outside the hands")
    # The red threes take places outside the hands at random; the other cards fill the rest.
    spots = [HIDDEN] * slots
    for i in rng.sample(range(slots), len(reds)):
        spots[i] = reds.pop()
    for i in range(slots):
        if spots[i] == HIDDEN:
            spots[i] = pool.pop()
    s = t.clone()
    pos = 0

    def fill(cards: list[int]) -> list[int]:
        nonlocal pos
        out = []
        for c in cards:
            if c == HIDDEN:
                out.append(spots[pos])
                pos += 1
            else:
                out.append(c)
        return out

    s.stock = fill(t.stock)
    s.surprise = fill(t.surprise)
    s.pile = fill(t.pile)
    s.pending_pile = fill(t.pending_pile)
    for p in range(s.players):
        if p == seat:
            continue
        hand = s.hands[p]
        for _ in range(s.hand_size[p] - sum(t.hands[p])):
            if not pool:
                raise ValueError("the view is inconsistent: too few unseen cards for the "
                                 "hidden places")
            hand[pool.pop()] += 1
    if pool:
        raise ValueError(f"the view is inconsistent: {len(pool)} unseen cards left over")
    if t.snapshot is not None:
        s.snapshot = _sample_snapshot(view, s, rng)
    # The history as this seat saw it: no card it did not see.
    s.event_log = view.seen_log()
    return s


def _sample_snapshot(view: View[S], s: HandData, rng: random.Random) -> HandData:
    """The snapshot of the sampled state ``s``: the same cards where they were before the
    current player's first provisional meld."""
    t = view.table
    b = t.snapshot
    info = view.provisional
    assert b is not None and info is not None
    snap = b.clone()
    cur = s.current
    for p in range(s.players):
        if p not in (view.seat, cur):
            snap.hands[p] = s.hands[p][:]
    # The cards the current player drew unseen since, chosen among those it may hold: its
    # cards the others do not know of, and the cards it has put down since.
    hidden_draws = sum(1 for c in info.draws if c == HIDDEN)
    picked: list[int] = []
    if hidden_draws:
        candidates = [c for c in range(NUM_CODES)
                      for _ in range(s.hands[cur][c] - s.known[cur][c] + info.from_hand[c])]
        picked = rng.sample(candidates, hidden_draws)
    if cur != view.seat:
        hand = [s.hands[cur][c] + info.from_hand[c] for c in range(NUM_CODES)]
        for c in [*picked, *(c for c in info.draws if c != HIDDEN and c not in RED3)]:
            hand[c] -= 1
        snap.hands[cur] = hand
    it = iter(picked)
    snap.stock = s.stock + [next(it) if c == HIDDEN else c for c in info.draws]
    # Face-down pile cards and surprise cards are the same physical cards as in ``s``.
    hid = b.pile_hidden
    if hid:
        source = s.pending_pile if (s.pending_pile and not b.pending_pile) else s.pile
        snap.pile = source[:hid] + snap.pile[hid:]
    if any(c == HIDDEN for c in snap.surprise):
        snap.surprise = s.surprise[:]
    snap.snapshot = None
    return snap
