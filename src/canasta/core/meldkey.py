"""Meld keys: where a meld sits among a side's melds (``state.melds[team]``, a ``View``'s
``melds``, a ``LayOff``'s ``rank``, a position's melds).

A key is a small whole number, kept so on the hot path (a dict key, compiled by mypyc as an
int): the rank ``1`` (ace) to ``13`` (king) of a meld of one rank, :data:`WILD_KEY` for the
meld of wild cards only (seed 000 "canasta mista di Joker e pinelle", seed 004 "canasta de
valori"), and :data:`RUN_KEY` and up for sequence canastas, one key each (seed 003, Canastra
Real: "una sequenza naturale di sette carte tutte dello stesso seme"). Code outside the engine
asks these functions instead of comparing with numbers. Standard library only.
"""

from __future__ import annotations

from typing import Final, TypeAlias

#: A meld's key (see the module docstring).
MeldKey: TypeAlias = int

#: The key of the meld of wild cards only (``W`` in text).
WILD_KEY: Final = 0
#: The key of a side's first sequence canasta; the n-th has ``RUN_KEY + n - 1``.
RUN_KEY: Final = 100


def is_wild_key(key: MeldKey) -> bool:
    """Is ``key`` the meld of wild cards only?"""
    return key == WILD_KEY


def is_run_key(key: MeldKey) -> bool:
    """Is ``key`` a sequence canasta's (``melds.real_canasta``)?"""
    return key >= RUN_KEY


def is_rank_key(key: MeldKey) -> bool:
    """Is ``key`` a meld of one natural rank (1 ace .. 13 king)?"""
    return 1 <= key <= 13


def run_key(index: int) -> MeldKey:
    """The key of a side's sequence canasta number ``index`` (0 first)."""
    return RUN_KEY + index


def run_number(key: MeldKey) -> int:
    """Which sequence canasta of its side ``key`` is, 1 first (``run 1``).

    Raises:
        ValueError: ``key`` is not a sequence canasta's.
    """
    if not is_run_key(key):
        raise ValueError(f"meld key {key} is not a sequence canasta's")
    return key - RUN_KEY + 1
