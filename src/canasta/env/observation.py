"""The observation of one seat as a fixed-shape array with named parts, built from its View.

:class:`ObservationLayout` fixes the parts and their order for one rule set, player count and
team split (docs/env.md lists them); :meth:`ObservationLayout.encode` fills a ``float32``
vector from ``state.view(seat)`` and nothing else, so no hidden card can leak into it. Seats
and teams are *relative*: index 0 is the observing seat (its team), then the seats (teams)
that follow it in playing order, so one policy can play any seat.

Units are raw: card counts, cards, points. Learners usually scale them (the PPO example
divides by :meth:`ObservationLayout.scale`).
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass

import numpy as np

from canasta.core.cards import NUM_CODES
from canasta.core.data import Phase
from canasta.core.melds import IS_WILD, SEQUENCE_KEY
from canasta.core.rules import Rules
from canasta.core.state import View

#: Meld keys with a slot of their own: 0 (the wild meld) and the ranks 1..13 (3 holds black
#: threes; 2 is never a key, deuces being wild). Sequence canastas are counted in ``runs``.
MELD_KEYS = 14
#: The bound of every entry of the observation in absolute value (points of a match score
#: stay far below it).
BOUND = 1_000_000.0
PHASES = (Phase.DRAW, Phase.PLAY, Phase.ANSWER, Phase.OVER)
_FLOAT32 = np.dtype(np.float32)


@dataclass(frozen=True, slots=True)
class Part:
    """One named part of the observation: ``obs[start:start + size]`` reshaped to ``shape``."""

    name: str
    start: int
    shape: tuple[int, ...]
    doc: str

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))

    @property
    def slice(self) -> slice:
        return slice(self.start, self.start + self.size)


class ObservationLayout:
    """The parts of the observation vector for ``players`` seats in ``teams`` teams.

    Args:
        rules: the rule set (only its shape matters here).
        players: the player count.
        teams: the number of sides (``len(rules.teams(players, team_size))``).

    ``size`` is the vector's length; ``parts`` its parts in order; ``part(name)`` one of them.
    """

    def __init__(self, rules: Rules, players: int, teams: int) -> None:
        self.rules = rules
        self.players = players
        self.teams = teams
        p, t, c = players, teams, NUM_CODES
        spec: list[tuple[str, tuple[int, ...], str]] = [
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
        ]
        parts: list[Part] = []
        start = 0
        for name, shape, doc in spec:
            part = Part(name, start, shape, doc)
            parts.append(part)
            start += part.size
        self.parts = tuple(parts)
        self.size = start
        self._by_name = {q.name: q for q in parts}
        self._start = {q.name: q.start for q in parts}
        self._zeros = array("f", bytes(4 * self.size))
        # Offsets of the parts, as attributes: encode() runs once per environment step.
        self._o_hand, self._o_sizes, self._o_known = (self._start[n] for n in (
            "hand", "hand_sizes", "known"))
        self._o_nat, self._o_wild, self._o_runs, self._o_canastas = (self._start[n] for n in (
            "meld_naturals", "meld_wilds", "runs", "canastas"))
        self._o_reds, self._o_opened, self._o_scores, self._o_minimum = (
            self._start[n] for n in ("red_threes", "opened", "scores", "opening_minimum"))
        self._o_top, self._o_pile_cards, self._o_pile, self._o_pending = (
            self._start[n] for n in ("pile_top", "pile_cards", "pile", "pending"))
        self._o_stock, self._o_phase, self._o_current, self._o_actor, self._o_opening = (
            self._start[n] for n in ("stock", "phase", "current", "actor", "opening"))
        self._o_teams_end = self._o_minimum + teams
        self._phase_index = {phase: i for i, phase in enumerate(PHASES)}
        # Caches of encode(), keyed by values of the views encoded (never a state): per seat
        # the last known-cards tuple and its floats, per team the last melds and their
        # block, the last face-up pile and its counts.
        empty: tuple[int, ...] = ()
        self._known_cache: list[tuple[tuple[int, ...], array[float] | None]] = [
            (empty, None)] * players
        no_melds: dict[int, tuple[int, ...]] = {}
        self._meld_cache: list[tuple[dict[int, tuple[int, ...]], array[float], array[float],
                                     int, int]] = [(no_melds, *self._meld_block(no_melds))
                                                   ] * teams
        self._pile_cache: tuple[tuple[int, ...], array[float]] = (
            empty, array("f", bytes(4 * NUM_CODES)))
        # Per team, the teams' values it last saw and their block (see encode()).
        self._team_cache: list[tuple[object, array[float]]] = [(None, array("f"))] * teams

    def part(self, name: str) -> Part:
        """The part called ``name``.

        Raises:
            KeyError: no such part.
        """
        return self._by_name[name]

    def split(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        """The parts of ``obs`` (shape ``(size,)``) by name, each reshaped to its shape."""
        return {q.name: obs[q.slice].reshape(q.shape) for q in self.parts}

    def low(self) -> np.ndarray:
        """Lower bounds for a Box space: 0, and -:data:`BOUND` for the scores (they can be
        negative)."""
        low = np.zeros(self.size, dtype=np.float32)
        low[self.part("scores").slice] = -BOUND
        return low

    def high(self) -> np.ndarray:
        """Upper bounds for a Box space: :data:`BOUND` (far above any count or score)."""
        return np.full(self.size, BOUND, dtype=np.float32)

    def scale(self) -> np.ndarray:
        """A divisor per entry that brings typical values near 0..1 (counts by the copies in
        play, points by 1000, sizes by the deck), for learners."""
        packs = self.rules.packs(self.players)
        deck = packs * (52 + self.rules.deal.jokers_per_pack)
        out = np.ones(self.size, dtype=np.float32)
        for name in ("hand_sizes", "stock"):
            out[self.part(name).slice] = 15.0
        for name in ("meld_naturals", "meld_wilds"):
            out[self.part(name).slice] = 4.0 * packs
        for name in ("scores", "opening_minimum"):
            out[self.part(name).slice] = 1000.0
        out[self.part("opening").slice] = (100.0, 1.0)
        pile = self.part("pile").start
        out[pile] = 20.0
        out[pile + 3] = 10.0
        out[self.part("stock").start] = float(deck)
        return out

    def encode(self, view: View) -> np.ndarray:
        """The observation of ``view.seat``: a ``float32`` vector of shape ``(size,)``.

        Built from the view only (its hand, the table, ``view.known_counts``, counts of
        hidden cards), never from the state behind it. A new array on every call.
        """
        # A C float buffer copied from zeros, written in place and handed to numpy without a
        # copy: cheaper than numpy item writes or converting a list. Blocks that rarely
        # change (known cards, a team's melds, the pile's counts) come from small caches
        # keyed by the view's own values, so a hit is exact and no hidden card can reach one.
        out = self._zeros[:]
        p = self.players
        seat = view.seat
        base = self._o_hand
        for card in view.hand:
            out[base + card] += 1.0
        base = self._o_sizes
        for s, n in enumerate(view.hand_sizes):
            out[base + (s - seat) % p] = n
        base = self._o_known
        known_cache = self._known_cache
        for s, counts in enumerate(view.known_counts):
            r = (s - seat) % p
            if r == 0:
                continue
            cached = known_cache[s]
            # The state's known tuples are replaced, never changed, when a hand's known
            # cards change, so the same object means the same counts.
            if cached[0] is not counts:
                cached = known_cache[s] = (counts, array("f", counts) if any(counts) else None)
            if cached[1] is not None:  # None: nothing known, the zeros stay
                row = base + (r - 1) * NUM_CODES
                out[row:row + NUM_CODES] = cached[1]
        # The teams' parts (meld_naturals .. opening_minimum) are one run of the vector; a
        # team sees them the same until a meld, a red three or an opening changes them.
        teams = (view.melds, view.red_threes, view.opened, view.scores, view.opening_minimum)
        cached_teams = self._team_cache[view.team]
        if cached_teams[0] != teams:
            # The melds' dicts copied: the key must not change with the view it came from.
            key = (tuple(dict(m) for m in view.melds), *teams[1:])
            cached_teams = self._team_cache[view.team] = (key, self._team_block(view))
        out[self._o_nat:self._o_teams_end] = cached_teams[1]
        if view.pile_top is not None:
            out[self._o_top + view.pile_top] = 1.0
        pile = view.pile
        if pile:
            out[self._o_pile_cards:self._o_pile_cards + NUM_CODES] = self._pile_counts(pile)
        base = self._o_pile
        hidden = view.hidden
        out[base] = view.pile_size
        out[base + 1] = 1.0 if view.pile_frozen else 0.0
        out[base + 2] = 1.0 if view.stopped else 0.0
        out[base + 3] = hidden["pile"] + hidden["pending"]
        base = self._o_pending
        for card in view.pending_pile:
            out[base + card] += 1.0
        base = self._o_stock
        out[base] = view.stock_size
        out[base + 1] = hidden["surprise"]
        out[self._o_phase + self._phase_index[view.phase]] = 1.0
        out[self._o_current + (view.current - seat) % p] = 1.0
        out[self._o_actor + (view.actor - seat) % p] = 1.0
        base = self._o_opening
        out[base] = view.opening_points
        out[base + 1] = 0.0 if view.provisional is None else 1.0
        return np.frombuffer(out, _FLOAT32)  # dtype positional: the keyword costs more

    def _team_block(self, view: View) -> array[float]:
        """The teams' parts of ``view``'s observation (``meld_naturals`` to
        ``opening_minimum``), relative to its team."""
        nt = self.teams
        start = self._o_nat
        out = array("f", bytes(4 * (self._o_teams_end - start)))
        nat, wild = self._o_nat - start, self._o_wild - start
        meld_cache = self._meld_cache
        for team in range(nt):
            r = (team - view.team) % nt
            melds = view.melds[team]
            cached = meld_cache[team]
            if cached[0] != melds:
                cached = meld_cache[team] = (dict(melds), *self._meld_block(melds))
            out[nat + r * MELD_KEYS:nat + (r + 1) * MELD_KEYS] = cached[1]
            out[wild + r * MELD_KEYS:wild + (r + 1) * MELD_KEYS] = cached[2]
            out[self._o_runs - start + r] = cached[3]
            out[self._o_canastas - start + r] = cached[4]
            out[self._o_reds - start + r] = len(view.red_threes[team])
            out[self._o_opened - start + r] = 1.0 if view.opened[team] else 0.0
            out[self._o_scores - start + r] = view.scores[team]
            out[self._o_minimum - start + r] = view.opening_minimum[team]
        return out

    def _meld_block(self, melds: dict[int, tuple[int, ...]]) -> tuple[array[float],
                                                                       array[float], int, int]:
        """One team's melds: natural and wild cards per meld key (two rows of
        :data:`MELD_KEYS`), sequence canastas, canastas."""
        naturals = array("f", bytes(4 * MELD_KEYS))
        wilds = array("f", bytes(4 * MELD_KEYS))
        size = self.rules.melds.canasta_size
        runs = canastas = 0
        for key, cards in melds.items():
            if len(cards) >= size:
                canastas += 1
            if key >= SEQUENCE_KEY:
                runs += 1
                continue
            w = 0
            for card in cards:
                w += IS_WILD[card]
            naturals[key] = len(cards) - w
            wilds[key] = w
        return naturals, wilds, runs, canastas

    def _pile_counts(self, pile: tuple[int, ...]) -> array[float]:
        """Copies per card code of the face-up pile ``pile``; from the last pile counted when
        it is the same or has one card more on top (one discard since)."""
        last, counts = self._pile_cache
        if pile != last:
            if len(pile) == len(last) + 1 and pile[:-1] == last:
                counts = counts[:]
                counts[pile[-1]] += 1.0
            else:
                counts = array("f", bytes(4 * NUM_CODES))
                for card in pile:
                    counts[card] += 1.0
            self._pile_cache = (pile, counts)
        return counts
