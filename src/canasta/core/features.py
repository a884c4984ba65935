"""A seat's observation vector and action mask as flat C buffers, for learning environments.

:class:`ObservationWriter` fills an ``array('f')`` (C ``float``, 4 bytes an entry) from a
:class:`~canasta.core.view.View` and nothing else, so no hidden card can reach it, or with
the same entries from a state through a reader that takes only what the seat may see
(:meth:`ObservationWriter.encode_state`, what the environments use: no view is made);
:class:`MaskWriter` fills a ``bytearray`` (one byte per action id of an
:class:`~canasta.core.codec.ActionCodec`: 1 legal, 0 not) from legal actions
(``state.legal_actions()`` or ``view.legal_actions``). The layout of the vector
(:func:`observation_spec`) is the one docs/env.md documents; :mod:`canasta.env.observation`
and :mod:`canasta.env.mask` wrap these buffers as numpy arrays without copying them.

Standard library only, and compiled with the rest of the core by mypyc (setup.py's
``COMPILED``): an environment builds an observation and a mask on every step, and this
module is where that time goes. ``CANASTA_PURE=1`` runs the same source as Python, with the
same results.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from typing import Any, Final, cast

from canasta.core.actions import Action, Discard, Draw, LayOff, Meld, TakePile
from canasta.core.cards import NUM_CODES
from canasta.core.codec import ActionCodec
from canasta.core.data import HandData, Phase, opening_minimums
from canasta.core.melds import IS_WILD, SEQUENCE_KEY
from canasta.core.view import View

#: Meld keys with a slot of their own: 0 (the wild meld) and the ranks 1..13 (3 holds black
#: threes; 2 is never a key, deuces being wild). Sequence canastas are counted in ``runs``.
MELD_KEYS: Final = 14
#: The phases in the order of the observation's one-hot ``phase`` part.
PHASES: Final = (Phase.DRAW, Phase.PLAY, Phase.ANSWER, Phase.OVER)


def observation_spec(players: int, teams: int) -> tuple[tuple[str, tuple[int, ...], str], ...]:
    """The parts of the observation in order: (name, shape, description) each; the vector is
    their entries flattened one after the other (docs/env.md's table)."""
    p, t, c = players, teams, NUM_CODES
    return (
        ("hand", (c,), "own hand: copies of each card code"),
        ("hand_sizes", (p,), "cards in each hand, relative seats (0 = this seat)"),
        ("known", (p - 1, c), "cards known to be in each other hand (view.known), "
                              "relative seats 1..P-1, copies per card code"),
        ("meld_naturals", (t, MELD_KEYS), "natural cards in each meld, relative teams, "
                                          "per meld key 0 (wild meld) .. 13"),
        ("meld_wilds", (t, MELD_KEYS), "wild cards in each meld, as meld_naturals"),
        ("runs", (t,), "sequence canastas of each team"),
        ("canastas", (t,), "canastas of each team (any kind)"),
        ("red_threes", (t,), "red threes on the table, each team"),
        ("opened", (t,), "1 when the team has made its opening meld"),
        ("scores", (t,), "match score of each team before this hand, points"),
        ("opening_minimum", (t,), "each team's opening minimum now, points"),
        ("pile_top", (c,), "one-hot card code of the pile's top card (all 0: empty)"),
        ("pile_cards", (c,), "face-up cards of the discard pile, copies per card code"),
        ("pile", (4,), "pile size, frozen for this team (0/1), top card stops the "
                       "current side (0/1), face-down cards under it"),
        ("pending", (c,), "face-up cards of a taken pile waiting for the opening"),
        ("stock", (2,), "stock size, surprise cards set aside"),
        ("phase", (len(PHASES),), "one-hot phase: draw, play, answer, over"),
        ("current", (p,), "one-hot relative seat whose turn it is"),
        ("actor", (p,), "one-hot relative seat to act"),
        ("opening", (2,), "opening points of this turn's melds (own side), provisional "
                          "opening in progress (0/1)"),
    )


#: The card codes (a ``Final`` of this module: compiled code reads it without a look-up).
_CODES: Final = NUM_CODES


def _zeros(n: int) -> array[float]:
    return array("f", bytes(4 * n))


#: Rows of zeros, copied (``[:]``) where a row is made.
_ZERO_CODES: Final = _zeros(NUM_CODES)
#: Names of other modules as ``Final``s of this one: compiled code reads a ``Final`` without
#: looking it up in the module's namespace, on every use.
_IS_WILD: Final = IS_WILD
_SEQUENCE_KEY: Final = SEQUENCE_KEY
_DISCARD: Final = Discard
_DRAW: Final = Draw
_MELD: Final = Meld
_LAY_OFF: Final = LayOff
_TAKE_PILE: Final = TakePile


class ObservationWriter:
    """Fills the observation vector of one seat for ``players`` seats in ``teams`` teams.

    Args:
        canasta_size: the cards of a canasta (``rules.melds.canasta_size``).
        players: the player count.
        teams: the number of sides.

    ``size`` is the vector's length and ``offsets`` each part's first index, by name. The
    writer keeps small caches keyed by the values it was given (known cards, each team's
    melds, the face-up pile), never by a state, so a hit is exact and serves any seat.
    """

    def __init__(self, canasta_size: int, players: int, teams: int) -> None:
        self.canasta_size = canasta_size
        self.players = players
        self.teams = teams
        offsets: dict[str, int] = {}
        start = 0
        for name, shape, _doc in observation_spec(players, teams):
            offsets[name] = start
            n = 1
            for d in shape:
                n *= d
            start += n
        self.size = start
        self.offsets = offsets
        self._zeros = _zeros(start)
        self._o_hand = offsets["hand"]
        self._o_sizes = offsets["hand_sizes"]
        self._o_known = offsets["known"]
        self._o_nat = offsets["meld_naturals"]
        self._o_wild = offsets["meld_wilds"]
        self._o_runs = offsets["runs"]
        self._o_canastas = offsets["canastas"]
        self._o_reds = offsets["red_threes"]
        self._o_opened = offsets["opened"]
        self._o_scores = offsets["scores"]
        self._o_minimum = offsets["opening_minimum"]
        self._o_top = offsets["pile_top"]
        self._o_pile_cards = offsets["pile_cards"]
        self._o_pile = offsets["pile"]
        self._o_pending = offsets["pending"]
        self._o_stock = offsets["stock"]
        self._o_phase = offsets["phase"]
        self._o_current = offsets["current"]
        self._o_actor = offsets["actor"]
        self._o_opening = offsets["opening"]
        # Per seat, the last known-counts tuple seen and its floats.
        self._known_counts: list[tuple[int, ...] | None] = [None] * players
        self._known_rows: list[array[float]] = [_ZERO_CODES] * players
        # The face-up pile last counted (a copy) and its counts per card code.
        self._pile: list[int] = []
        self._pile_counts = _zeros(NUM_CODES)
        # Per observing seat, its last vector and the values written in it.
        self._written = [_Written(self._zeros, players, teams) for _ in range(players)]

    def encode(self, view: View[Any]) -> array[float]:
        """The observation of ``view.seat``: a new ``array('f')`` of ``size`` entries.

        Built from the view only (its hand counts, the table, ``view.known_counts``, counts
        of hidden cards), never from the state behind it.
        """
        hidden = view.hidden
        return self._write(
            view.seat, view.team, list(view.hand_counts), list(view.hand_sizes),
            list(view.known_counts), [{k: list(v) for k, v in m.items()} for m in view.melds],
            [len(r) for r in view.red_threes], list(view.opened), list(view.scores),
            view.opening_minimum, view.pile_top, list(view.pile), view.pile_size,
            view.pile_frozen, view.stopped, hidden["pile"] + hidden["pending"],
            list(view.pending_pile), view.stock_size, hidden["surprise"], view.phase,
            view.current, view.actor, view.opening_points, view.provisional is not None)

    def encode_state(self, s: HandData, seat: int) -> array[float]:
        """:meth:`encode` of ``s.view(seat)``, the same entries, read from the state without
        making the view (a learning environment observes on every step; the view's history,
        table and copies are most of its cost).

        Reads only what ``seat`` may see, as the field table's sight says
        (:class:`~canasta.core.layout.Sight`, the rules :mod:`canasta.core.blanking` applies
        to make a view's table): of the hands (``OWN``) its own entry, never another's (of
        those, ``known`` and ``hand_size``, both public); of the stock and the surprise
        cards (``COUNT``) how many; of the pile and the pending pile (``FACE_UP``) the cards
        above the ``pile_hidden`` face-down ones, and the size; of the snapshot
        (``BLANKED``) only whether there is one; never the deal order or the history; every
        other field it reads is ``PUBLIC``. tests/test_features.py checks at every decision
        that the result is the view's :meth:`encode`, and the same for the state blanked for
        ``seat`` (:func:`~canasta.core.blanking.blank`: every card ``seat`` cannot see taken
        out).

        Raises:
            IndexError: ``seat`` is not a seat of the state.
        """
        players = s.players
        if not 0 <= seat < players:
            raise IndexError(f"no seat {seat} among {players} players")
        team_of = s.team_of
        team = team_of[seat]
        hid = s.pile_hidden
        pile = s.pile
        pending = s.pending_pile
        # The face-up cards, as make_view takes them: the face-down ones lie under the
        # pending pile while there is one, else under the pile.
        face_up = pile
        pending_up = pending
        if pending:
            if hid:
                pending_up = pending[hid:]
        elif hid:
            face_up = pile[hid:]
        current = s.current
        red_threes = s.red_threes
        return self._write(
            seat, team, s.hands[seat], s.hand_size, s.known, s.melds,
            [len(r) for r in red_threes], s.opened, s.scores, opening_minimums(s),
            pile[-1] if pile else None, face_up, len(pile), s.frozen_for(team),
            s.top_stops(team_of[current]), hid, pending_up, len(s.stock), len(s.surprise),
            s.phase, current, s.actor, s.opening_points if team_of[current] == team else 0,
            s.provisional and s.snapshot is not None)

    def _write(self, seat: int, team: int, hand: list[int], hand_sizes: list[int],
               known: list[tuple[int, ...]], melds: list[dict[int, list[int]]],
               red_threes: list[int], opened: list[bool], scores: list[int],
               minimums: tuple[int, ...], top: int | None, pile: list[int], pile_size: int,
               frozen: bool, stopped: bool, face_down: int, pending: list[int],
               stock_size: int, surprise: int, phase: Phase, current: int, actor: int,
               opening_points: int, provisional: bool) -> array[float]:
        """The vector of one seat's observation from the values its view shows (``pile``
        and ``pending``: their face-up cards; ``face_down``: the cards face down under
        either; ``red_threes``: how many each team has laid out).

        The seat's last vector is kept with the values it was written from
        (:class:`_Written`); only the entries whose values differ are written again (from
        one observation of a seat to its next, a few cards and counts change), and a copy
        is returned. Writing an ``array('f')`` entry costs far more than comparing two
        values in compiled code."""
        w = self._written[seat]
        out = w.out
        p = self.players
        base = self._o_hand
        seen = w.hand
        c = 0
        for n in hand:
            if n != seen[c]:
                out[base + c] = float(n)
                seen[c] = n
            c += 1
        base = self._o_sizes
        seen = w.sizes
        for s in range(p):
            n = hand_sizes[s]
            if n != seen[s]:
                out[base + (s - seat) % p] = float(n)
                seen[s] = n
        base = self._o_known
        for s in range(p):
            counts = known[s]
            # The state's known tuples are replaced, never changed, when a hand's known
            # cards change, so the same object means the same counts.
            if s != seat and w.known[s] is not counts:
                w.known[s] = counts
                at = base + ((s - seat) % p - 1) * _CODES
                out[at:at + _CODES] = self._known_row(s, counts)
        nt = self.teams
        size = self.canasta_size
        for t in range(nt):
            r = (t - team) % nt
            nat = [0] * MELD_KEYS
            wild = [0] * MELD_KEYS
            # The team's melds counted again (a few dozen cards): cheaper than comparing
            # them with a copy, and only the counts that changed are written.
            runs = 0
            canastas = 0
            for key, cards in melds[t].items():
                k = len(cards)
                if k >= size:
                    canastas += 1
                if key >= _SEQUENCE_KEY:
                    runs += 1
                    continue
                wilds = 0
                for card in cards:
                    if _IS_WILD[card]:
                        wilds += 1
                nat[key] = k - wilds
                wild[key] = wilds
            # Compared as lists first (in C, far cheaper than the loop): most steps
            # change no meld.
            seen = w.naturals[t]
            if nat != seen:
                at = self._o_nat + r * MELD_KEYS
                for key in range(MELD_KEYS):
                    n = nat[key]
                    if n != seen[key]:
                        out[at + key] = float(n)
                        seen[key] = n
            seen = w.wilds[t]
            if wild != seen:
                at = self._o_wild + r * MELD_KEYS
                for key in range(MELD_KEYS):
                    n = wild[key]
                    if n != seen[key]:
                        out[at + key] = float(n)
                        seen[key] = n
            if runs != w.runs[t]:
                out[self._o_runs + r] = float(runs)
                w.runs[t] = runs
            if canastas != w.canastas[t]:
                out[self._o_canastas + r] = float(canastas)
                w.canastas[t] = canastas
            n = red_threes[t]
            if n != w.reds[t]:
                out[self._o_reds + r] = float(n)
                w.reds[t] = n
            if opened[t] != w.opened[t]:
                out[self._o_opened + r] = 1.0 if opened[t] else 0.0
                w.opened[t] = opened[t]
            n = scores[t]
            if n != w.scores[t]:
                out[self._o_scores + r] = float(n)
                w.scores[t] = n
            n = minimums[t]
            if n != w.minimums[t]:
                out[self._o_minimum + r] = float(n)
                w.minimums[t] = n
        at = -1 if top is None else top
        if at != w.top:
            if w.top >= 0:
                out[self._o_top + w.top] = 0.0
            if at >= 0:
                out[self._o_top + at] = 1.0
            w.top = at
        counts_up = self._counts_of_pile(pile) if pile else None
        if counts_up is not w.pile_counts:
            w.pile_counts = counts_up
            base = self._o_pile_cards
            out[base:base + _CODES] = _ZERO_CODES if counts_up is None else counts_up
        base = self._o_pile
        if pile_size != w.pile_size:
            out[base] = float(pile_size)
            w.pile_size = pile_size
        if frozen != w.frozen:
            out[base + 1] = 1.0 if frozen else 0.0
            w.frozen = frozen
        if stopped != w.stopped:
            out[base + 2] = 1.0 if stopped else 0.0
            w.stopped = stopped
        if face_down != w.face_down:
            out[base + 3] = float(face_down)
            w.face_down = face_down
        if pending != w.pending:
            base = self._o_pending
            for card in w.pending:
                out[base + card] = 0.0
            for card in pending:
                out[base + card] += 1.0
            w.pending = pending[:]
        base = self._o_stock
        if stock_size != w.stock_size:
            out[base] = float(stock_size)
            w.stock_size = stock_size
        if surprise != w.surprise:
            out[base + 1] = float(surprise)
            w.surprise = surprise
        at = 0
        for ph in PHASES:
            if ph is phase:
                break
            at += 1
        w.phase = _one_hot(out, self._o_phase, w.phase, at)
        w.current = _one_hot(out, self._o_current, w.current, (current - seat) % p)
        w.actor = _one_hot(out, self._o_actor, w.actor, (actor - seat) % p)
        base = self._o_opening
        if opening_points != w.opening_points:
            out[base] = float(opening_points)
            w.opening_points = opening_points
        if provisional != w.provisional:
            out[base + 1] = 1.0 if provisional else 0.0
            w.provisional = provisional
        return out[:]

    def _known_row(self, seat: int, counts: tuple[int, ...]) -> array[float]:
        """``counts`` (``seat``'s known cards) as floats, from the last row made for that
        seat when it is the same tuple."""
        if self._known_counts[seat] is not counts:
            self._known_counts[seat] = counts
            self._known_rows[seat] = _row(counts)
        return self._known_rows[seat]

    def _counts_of_pile(self, pile: list[int]) -> array[float]:
        """Copies per card code of the face-up pile ``pile``; from the last pile counted when
        it is the same or has one card more on top (one discard since)."""
        last = self._pile
        if pile != last:
            counts: array[float]
            n = len(pile)
            if n == len(last) + 1 and _starts_with(pile, last):
                counts = self._pile_counts[:]
                counts[pile[n - 1]] += 1.0
            else:
                counts = _ZERO_CODES[:]
                for card in pile:
                    counts[card] += 1.0
            self._pile = pile[:]
            self._pile_counts = counts
        return self._pile_counts


def _row(counts: tuple[int, ...]) -> array[float]:
    """``counts`` as a row of floats (:data:`_ZERO_CODES` itself when all are 0)."""
    row = _ZERO_CODES
    c = 0
    for n in counts:
        if n:
            if row is _ZERO_CODES:
                row = _ZERO_CODES[:]
            row[c] = float(n)
        c += 1
    return row


def _one_hot(out: array[float], base: int, was: int, now: int) -> int:
    """Move the 1 of the one-hot part at ``base`` from entry ``was`` (-1: none) to ``now``;
    returns ``now``."""
    if now != was:
        if was >= 0:
            out[base + was] = 0.0
        out[base + now] = 1.0
    return now


class _Written:
    """One seat's last observation vector (``out``) and the values written in it, part by
    part (:meth:`ObservationWriter._write`): seat-indexed lists by absolute seat, team-indexed
    by absolute team; -1 for a one-hot part or pile top with no entry set, None for rows of
    zeros. A new one holds zeros everywhere, as its values say."""

    def __init__(self, zeros: array[float], players: int, teams: int) -> None:
        self.out = zeros[:]
        self.hand = [0] * _CODES
        self.sizes = [0] * players
        self.known: list[tuple[int, ...] | None] = [None] * players
        self.naturals = [[0] * MELD_KEYS for _ in range(teams)]
        self.wilds = [[0] * MELD_KEYS for _ in range(teams)]
        self.runs = [0] * teams
        self.canastas = [0] * teams
        self.reds = [0] * teams
        self.opened = [False] * teams
        self.scores = [0] * teams
        self.minimums = [0] * teams
        self.top = -1
        self.pile_counts: array[float] | None = None
        self.pile_size = 0
        self.frozen = False
        self.stopped = False
        self.face_down = 0
        self.pending: list[int] = []
        self.stock_size = 0
        self.surprise = 0
        self.phase = -1
        self.current = -1
        self.actor = -1
        self.opening_points = 0
        self.provisional = False


def _starts_with(cards: list[int], start: list[int]) -> bool:
    """Are the first cards of ``cards`` those of ``start``?"""
    if len(start) > len(cards):
        return False
    for i in range(len(start)):
        if cards[i] != start[i]:
            return False
    return True


class MaskWriter:
    """Fills the action mask of legal actions over the ids of ``codec``.

    Args:
        codec: the action ids (one rule set and player count).

    Actions repeat from one decision to the next (draws, discards, the common melds), so an
    action's id is looked up in caches filled as actions are met, keyed by the action's own
    fields as plain tuples: a discard by its card, a meld or a take by its cards, a lay-off by
    its meld key and cards. Only an action met for the first time is encoded by the codec.
    """

    def __init__(self, codec: ActionCodec) -> None:
        self.codec = codec
        self.size: int = codec.size
        self._discards = [codec.encode(Discard(c)) for c in range(NUM_CODES)]
        self._draw: int = codec.encode(Draw())
        self._melds: dict[tuple[int, ...], int] = {}
        self._takes: dict[tuple[int, ...], int] = {}
        self._lay_offs: dict[tuple[int, tuple[int, ...]], int] = {}
        self._others: dict[Action, int] = {}

    def fill_view(self, view: View[Any]) -> tuple[bytearray, dict[int, Action]]:
        """:meth:`fill` with ``view.legal_actions`` (read as the state listed them, without
        the ``ViewActions`` wrapper ``view.legal_actions`` builds when first read)."""
        return self.fill(view._actions)

    def fill_ids(self, ids: Iterable[int]) -> bytearray:
        """The mask with 1 at each of ``ids`` (a map :meth:`fill` returned: the same mask
        again, without encoding the actions again)."""
        out = bytearray(self.size)
        for i in ids:
            out[i] = 1
        return out

    def fill(self, actions: Iterable[Action]) -> tuple[bytearray, dict[int, Action]]:
        """The mask of ``actions`` (``size`` bytes, 1 at each action's id) and each id's
        action (the last listed, should two share an id).

        Raises:
            ValueError: an action the codec gives no id (see ``ActionCodec.encode``).
        """
        out = bytearray(self.size)
        legal: dict[int, Action] = {}
        for a in actions:
            i: int
            # Exact types, compared by identity: a failed isinstance() costs a call of
            # type.__instancecheck__ (any other value, a subclass included, goes to the codec).
            kind = type(a)
            if kind is _DISCARD:
                i = self._discards[cast(Discard, a).card]
            elif kind is _DRAW:
                i = self._draw
            elif kind is _MELD:
                cards = cast(Meld, a).cards
                found = self._melds.get(cards)
                if found is None:
                    i = self._melds[cards] = self.codec.encode(a)
                else:
                    i = found
            elif kind is _LAY_OFF:
                lay_off = cast(LayOff, a)
                lay_key = (lay_off.rank, lay_off.cards)
                found = self._lay_offs.get(lay_key)
                if found is None:
                    i = self._lay_offs[lay_key] = self.codec.encode(a)
                else:
                    i = found
            elif kind is _TAKE_PILE:
                cards = cast(TakePile, a).cards
                found = self._takes.get(cards)
                if found is None:
                    i = self._takes[cards] = self.codec.encode(a)
                else:
                    i = found
            else:
                found = self._others.get(a)
                if found is None:
                    i = self._others[a] = self.codec.encode(a)
                else:
                    i = found
            legal[i] = a
            out[i] = 1
        return out, legal
