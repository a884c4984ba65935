"""The observation of one seat as a fixed-shape array with named parts, built from its View.

:class:`ObservationLayout` fixes the parts and their order for one rule set, player count and
team split (docs/env.md lists them); :meth:`ObservationLayout.encode` fills a ``float32``
vector from ``state.view(seat)`` and nothing else, so no hidden card can leak into it;
:meth:`ObservationLayout.encode_state` gives the same vector read from the state by a
reader that takes only what that seat may see (the environments' path: no view is made). Seats
and teams are *relative*: index 0 is the observing seat (its team), then the seats (teams)
that follow it in playing order, so one policy can play any seat.

Units are raw: card counts, cards, points. Learners usually scale them (the PPO example
divides by :meth:`ObservationLayout.scale`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from canasta.core.data import HandData
from canasta.core.features import MELD_KEYS, PHASES, ObservationWriter, observation_spec
from canasta.core.rules import Rules
from canasta.core.state import View

__all__ = ["BOUND", "MELD_KEYS", "PHASES", "ObservationLayout", "Part"]

#: The bound of every entry of the observation in absolute value (points of a match score
#: stay far below it).
BOUND = 1_000_000.0
#: The observation's dtype.
FLOAT32 = np.dtype(np.float32)


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

    ``size`` is the vector's length; ``parts`` its parts in order; ``part(name)`` one of them;
    ``writer`` the compiled :class:`~canasta.core.features.ObservationWriter` that fills the
    vector (its ``encode(view)`` returns the ``array('f')`` :meth:`encode` wraps).
    """

    def __init__(self, rules: Rules, players: int, teams: int) -> None:
        self.rules = rules
        self.players = players
        self.teams = teams
        parts: list[Part] = []
        start = 0
        for name, shape, doc in observation_spec(players, teams):
            part = Part(name, start, shape, doc)
            parts.append(part)
            start += part.size
        self.parts = tuple(parts)
        self.size = start
        self._by_name = {q.name: q for q in parts}
        # The vector is filled by the core's compiled writer (canasta.core.features), which
        # lays the parts out from the same spec.
        self.writer = ObservationWriter(rules.melds.canasta_size, players, teams)
        if self.writer.offsets != {q.name: q.start for q in parts}:
            raise AssertionError("the compiled writer's layout differs from the parts")

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
        hidden cards), never from the state behind it. A new array on every call: the C
        float buffer :meth:`canasta.core.features.ObservationWriter.encode` fills, handed to
        numpy without a copy.
        """
        return np.frombuffer(self.writer.encode(view), FLOAT32)  # dtype positional: faster

    def encode_state(self, state: HandData, seat: int) -> np.ndarray:
        """:meth:`encode` of ``state.view(seat)``, the same vector, read from the state by a
        seat-restricted reader without making the view (what the environments observe with:
        :meth:`canasta.core.features.ObservationWriter.encode_state` says what it reads).

        Raises:
            IndexError: ``seat`` is not a seat of the state.
        """
        return np.frombuffer(self.writer.encode_state(state, seat), FLOAT32)
