"""The action mask of a view: which :class:`~canasta.core.codec.ActionCodec` ids are legal.

:class:`ActionMask` turns ``view.legal_actions`` into an ``int8`` vector over the codec's ids
and a map from each legal id to its action (what ``step(id)`` plays). Actions repeat from one
decision to the next (draws, discards, the common melds), so the id of an action is looked up
in caches filled as actions are met, keyed by the action's own fields: a discard by its card,
a meld or a take by its cards, a lay-off by its meld key and cards. Only an action met for
the first time is encoded by the codec.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from canasta.core.actions import Action, Discard, Draw, LayOff, Meld, TakePile
from canasta.core.cards import NUM_CODES
from canasta.core.codec import ActionCodec

_INT8 = np.dtype(np.int8)


class ActionMask:
    """Masks over the ids of ``codec``.

    Args:
        codec: the action ids (one rule set and player count).
    """

    def __init__(self, codec: ActionCodec) -> None:
        self.codec = codec
        self._discards = tuple(codec.encode(Discard(c)) for c in range(NUM_CODES))
        self._draw = codec.encode(Draw())
        self._melds: dict[tuple[int, ...], int] = {}
        self._takes: dict[tuple[int, ...], int] = {}
        self._lay_offs: dict[tuple[int, tuple[int, ...]], int] = {}
        self._others: dict[Action, int] = {}

    def mask(self, actions: Iterable[Action]) -> tuple[np.ndarray, dict[int, Action]]:
        """The mask of ``actions`` (``int8``, shape ``(codec.size,)``, 1 at each action's id)
        and each id's action (the last listed, should two share an id).

        Raises:
            ValueError: an action the codec gives no id (see ``ActionCodec.encode``).
        """
        out = bytearray(self.codec.size)
        legal: dict[int, Action] = {}
        discards = self._discards
        i: int | None
        for a in actions:
            # Keys of plain tuples: hashing them is C code, a dataclass's __hash__ is not.
            if type(a) is Discard:
                i = discards[a.card]
            elif type(a) is Draw:
                i = self._draw
            elif type(a) is Meld:
                i = self._melds.get(a.cards)
                if i is None:
                    i = self._melds[a.cards] = self.codec.encode(a)
            elif type(a) is LayOff:
                key = (a.rank, a.cards)
                i = self._lay_offs.get(key)
                if i is None:
                    i = self._lay_offs[key] = self.codec.encode(a)
            elif type(a) is TakePile:
                i = self._takes.get(a.cards)
                if i is None:
                    i = self._takes[a.cards] = self.codec.encode(a)
            else:
                i = self._others.get(a)
                if i is None:
                    i = self._others[a] = self.codec.encode(a)
            legal[i] = a
            out[i] = 1
        return np.frombuffer(out, _INT8), legal  # dtype positional: the keyword costs more
