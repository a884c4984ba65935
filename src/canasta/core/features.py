"""A seat's observation vector and action mask as flat C buffers, for learning environments.

:class:`ObservationWriter` fills an ``array('f')`` (C ``float``, 4 bytes an entry) from a
:class:`~canasta.core.view.View` and nothing else, so no hidden card can reach it;
:class:`MaskWriter` fills a ``bytearray`` (one byte per action id of an
:class:`~canasta.core.codec.ActionCodec`: 1 legal, 0 not) from ``view.legal_actions``. The
layout of the vector (:func:`observation_spec`) is the one docs/env.md documents;
:mod:`canasta.env.observation` and :mod:`canasta.env.mask` wrap these buffers as numpy
arrays without copying them.

Standard library only, and compiled with the rest of the core by mypyc (setup.py's
``COMPILED``): an environment builds an observation and a mask on every step, and this
module is where that time goes. ``CANASTA_PURE=1`` runs the same source as Python, with the
same results.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from typing import Any

from canasta.core.actions import Action, Discard, Draw, LayOff, Meld, TakePile
from canasta.core.cards import NUM_CODES
from canasta.core.codec import ActionCodec
from canasta.core.data import Phase
from canasta.core.melds import IS_WILD, SEQUENCE_KEY
from canasta.core.view import View

#: Meld keys with a slot of their own: 0 (the wild meld) and the ranks 1..13 (3 holds black
#: threes; 2 is never a key, deuces being wild). Sequence canastas are counted in ``runs``.
MELD_KEYS = 14
#: The phases in the order of the observation's one-hot ``phase`` part.
PHASES = (Phase.DRAW, Phase.PLAY, Phase.ANSWER, Phase.OVER)


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


def _zeros(n: int) -> array[float]:
    return array("f", bytes(4 * n))


class ObservationWriter:
    """Fills the observation vector of views for ``players`` seats in ``teams`` teams.

    Args:
        canasta_size: the cards of a canasta (``rules.melds.canasta_size``).
        players: the player count.
        teams: the number of sides.

    ``size`` is the vector's length and ``offsets`` each part's first index, by name. The
    writer keeps small caches keyed by values of the views it was given (known cards, a
    team's melds, the face-up pile), never by a state, so a hit is exact and serves any
    seat.
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
        self._o_teams_end = self._o_minimum + teams
        # Per seat, the last known-counts tuple seen and its floats (None: nothing known).
        self._known_counts: list[tuple[int, ...] | None] = [None] * players
        self._known_rows: list[array[float] | None] = [None] * players
        # Per team, the last melds seen (a copy) and their block.
        self._melds: list[dict[int, tuple[int, ...]]] = [{} for _ in range(teams)]
        self._meld_blocks: list[tuple[array[float], array[float], int, int]] = [
            self._meld_block({}) for _ in range(teams)]
        # Per observing team, the teams' values it last saw and their block.
        self._team_keys: list[object] = [None] * teams
        self._team_blocks: list[array[float]] = [_zeros(0) for _ in range(teams)]
        self._pile: tuple[int, ...] = ()
        self._pile_counts = _zeros(NUM_CODES)

    def encode(self, view: View[Any]) -> array[float]:
        """The observation of ``view.seat``: a new ``array('f')`` of ``size`` entries.

        Built from the view only (its hand counts, the table, ``view.known_counts``, counts
        of hidden cards), never from the state behind it.
        """
        out = self._zeros[:]
        p = self.players
        seat = view.seat
        base = self._o_hand
        c = 0
        for n in view.hand_counts:
            if n:
                out[base + c] = n
            c += 1
        base = self._o_sizes
        s = 0
        for n in view.hand_sizes:
            out[base + (s - seat) % p] = n
            s += 1
        base = self._o_known
        s = 0
        for counts in view.known_counts:
            r = (s - seat) % p
            if r != 0:
                # The state's known tuples are replaced, never changed, when a hand's known
                # cards change, so the same object means the same counts.
                if self._known_counts[s] is not counts:
                    self._known_counts[s] = counts
                    self._known_rows[s] = array("f", counts) if any(counts) else None
                row = self._known_rows[s]
                if row is not None:  # None: nothing known, the zeros stay
                    at = base + (r - 1) * NUM_CODES
                    out[at:at + NUM_CODES] = row
            s += 1
        # The teams' parts (meld_naturals .. opening_minimum) are one run of the vector; a
        # team sees them the same until a meld, a red three or an opening changes them.
        team = view.team
        key = (view.melds, view.red_threes, view.opened, view.scores, view.opening_minimum)
        if self._team_keys[team] != key:
            # The melds' dicts copied: the key must not change with the view it came from.
            self._team_keys[team] = (tuple([dict(m) for m in view.melds]), view.red_threes,
                                     view.opened, view.scores, view.opening_minimum)
            self._team_blocks[team] = self._team_block(view)
        out[self._o_nat:self._o_teams_end] = self._team_blocks[team]
        top = view.pile_top
        if top is not None:
            out[self._o_top + top] = 1.0
        pile = view.pile
        if pile:
            base = self._o_pile_cards
            out[base:base + NUM_CODES] = self._counts_of_pile(pile)
        base = self._o_pile
        hidden = view.hidden
        out[base] = view.pile_size
        if view.pile_frozen:
            out[base + 1] = 1.0
        if view.stopped:
            out[base + 2] = 1.0
        out[base + 3] = hidden["pile"] + hidden["pending"]
        base = self._o_pending
        for card in view.pending_pile:
            out[base + card] += 1.0
        base = self._o_stock
        out[base] = view.stock_size
        out[base + 1] = hidden["surprise"]
        phase = view.phase
        i = 0
        for ph in PHASES:
            if ph is phase:
                out[self._o_phase + i] = 1.0
            i += 1
        out[self._o_current + (view.current - seat) % p] = 1.0
        out[self._o_actor + (view.actor - seat) % p] = 1.0
        base = self._o_opening
        out[base] = view.opening_points
        if view.provisional is not None:
            out[base + 1] = 1.0
        return out

    def _team_block(self, view: View[Any]) -> array[float]:
        """The teams' parts of ``view``'s observation (``meld_naturals`` to
        ``opening_minimum``), relative to its team."""
        nt = self.teams
        start = self._o_nat
        out = _zeros(self._o_teams_end - start)
        nat = self._o_nat - start
        wild = self._o_wild - start
        for team in range(nt):
            r = (team - view.team) % nt
            melds = view.melds[team]
            if self._melds[team] != melds:
                self._melds[team] = dict(melds)
                self._meld_blocks[team] = self._meld_block(melds)
            naturals, wilds, runs, canastas = self._meld_blocks[team]
            out[nat + r * MELD_KEYS:nat + (r + 1) * MELD_KEYS] = naturals
            out[wild + r * MELD_KEYS:wild + (r + 1) * MELD_KEYS] = wilds
            out[self._o_runs - start + r] = runs
            out[self._o_canastas - start + r] = canastas
            out[self._o_reds - start + r] = len(view.red_threes[team])
            out[self._o_opened - start + r] = 1.0 if view.opened[team] else 0.0
            out[self._o_scores - start + r] = view.scores[team]
            out[self._o_minimum - start + r] = view.opening_minimum[team]
        return out

    def _meld_block(self, melds: dict[int, tuple[int, ...]]) -> tuple[array[float],
                                                                       array[float], int, int]:
        """One team's melds: natural and wild cards per meld key (two rows of
        :data:`MELD_KEYS`), sequence canastas, canastas."""
        naturals = _zeros(MELD_KEYS)
        wilds = _zeros(MELD_KEYS)
        size = self.canasta_size
        runs = 0
        canastas = 0
        for key, cards in melds.items():
            if len(cards) >= size:
                canastas += 1
            if key >= SEQUENCE_KEY:
                runs += 1
                continue
            w = 0
            for card in cards:
                if IS_WILD[card]:
                    w += 1
            naturals[key] = len(cards) - w
            wilds[key] = w
        return naturals, wilds, runs, canastas

    def _counts_of_pile(self, pile: tuple[int, ...]) -> array[float]:
        """Copies per card code of the face-up pile ``pile``; from the last pile counted when
        it is the same or has one card more on top (one discard since)."""
        last = self._pile
        if pile != last:
            counts: array[float]
            if len(pile) == len(last) + 1 and pile[:-1] == last:
                counts = self._pile_counts[:]
                counts[pile[-1]] += 1.0
            else:
                counts = _zeros(NUM_CODES)
                for card in pile:
                    counts[card] += 1.0
            self._pile = pile
            self._pile_counts = counts
        return self._pile_counts


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
            if isinstance(a, Discard):
                i = self._discards[a.card]
            elif isinstance(a, Draw):
                i = self._draw
            elif isinstance(a, Meld):
                found = self._melds.get(a.cards)
                if found is None:
                    i = self._melds[a.cards] = self.codec.encode(a)
                else:
                    i = found
            elif isinstance(a, LayOff):
                lay_key = (a.rank, a.cards)
                found = self._lay_offs.get(lay_key)
                if found is None:
                    i = self._lay_offs[lay_key] = self.codec.encode(a)
                else:
                    i = found
            elif isinstance(a, TakePile):
                found = self._takes.get(a.cards)
                if found is None:
                    i = self._takes[a.cards] = self.codec.encode(a)
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
