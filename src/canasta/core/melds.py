"""Meld shape: what a meld is made of, where it goes, and what kind of canasta it is.

One module for the engine, positions, hand results and the scorepad. Per-code tables
(``IS_WILD``, ``RANK``, ``RED3``, ``BLACK3``, ``DEUCES``) are indexed by card code
(:mod:`canasta.core.cards`). A side's melds are a dict keyed by *meld key*: the rank 1..13 of a
meld of one rank, ``WILD_RANK`` (0) for a meld of wild cards only, and ``SEQUENCE_KEY`` and up
for sequence canastas (``melds.real_canasta``), one key each.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum

from canasta.core.cards import (
    NUM_CODES,
    WILD_RANK,
    is_natural,
    is_wild,
    rank_of,
    suit_of,
)
from canasta.core.meldkey import RUN_KEY, MeldKey
from canasta.core.rules import Rules

#: The four deuces (wild cards of rank 2), card codes.
DEUCES = (4, 5, 6, 7)
#: First key of a sequence canasta in a side's melds (``melds.real_canasta``): the meld keys'
#: :data:`~canasta.core.meldkey.RUN_KEY`; rank keys are the wild meld's and 1..13.
SEQUENCE_KEY = RUN_KEY
RED3 = frozenset((9, 10))
BLACK3 = frozenset((8, 11))
#: ``IS_WILD[code]``: jokers and deuces.
IS_WILD = tuple(is_wild(c) for c in range(NUM_CODES))
#: ``RANK[code]``: 0 for the joker, 1 (ace) .. 13 (king).
RANK = tuple(rank_of(c) for c in range(NUM_CODES))


class CanastaKind(Enum):
    """The kind of a completed canasta. Its value is its code: the score item that carries its
    bonus (:class:`canasta.core.scoring.ScoreItem`) and the catalogue key ``score.<code>`` that
    names it for people (canasta.i18n); :attr:`label` is the English name.

    Seed 002: "naturali o pulite o pure: formate da sette carte naturali ... miste o sporche o
    impure: ... con l'ausilio di almeno una matta"; seed 000 for the canastas of aces and of
    wild cards; seed 003 for the sequence canasta.
    """

    NATURAL = "natural_canasta"
    NATURAL_ACES = "natural_canasta_aces"
    NATURAL_BLACK_THREES = "natural_canasta_black_threes"
    MIXED = "mixed_canasta"
    MIXED_ACES = "mixed_canasta_aces"
    MIXED_BLACK_THREES = "mixed_canasta_black_threes"
    WILD = "wild_canasta"
    WILD_DEUCES = "wild_canasta_deuces"
    WILD_SIX_JOKERS = "wild_canasta_six_jokers"
    SEQUENCE = "sequence_canasta"

    @property
    def natural(self) -> bool:
        """No wild card, or a wild canasta that scores as natural (deuces only, six jokers
        and a deuce)."""
        return self in _NATURAL_KINDS

    @property
    def wild(self) -> bool:
        """Wild cards only."""
        return self in _WILD_KINDS

    @property
    def label(self) -> str:
        """The English name (``natural canasta of aces``); other languages: ``score.<code>``."""
        return _KIND_LABELS[self]


_NATURAL_KINDS = frozenset((CanastaKind.NATURAL, CanastaKind.NATURAL_ACES,
                            CanastaKind.NATURAL_BLACK_THREES, CanastaKind.WILD_DEUCES,
                            CanastaKind.WILD_SIX_JOKERS, CanastaKind.SEQUENCE))
_WILD_KINDS = frozenset((CanastaKind.WILD, CanastaKind.WILD_DEUCES, CanastaKind.WILD_SIX_JOKERS))
_KIND_LABELS = {
    CanastaKind.NATURAL: "natural canasta",
    CanastaKind.NATURAL_ACES: "natural canasta of aces",
    CanastaKind.NATURAL_BLACK_THREES: "natural canasta of black threes",
    CanastaKind.MIXED: "mixed canasta",
    CanastaKind.MIXED_ACES: "mixed canasta of aces",
    CanastaKind.MIXED_BLACK_THREES: "mixed canasta of black threes",
    CanastaKind.WILD: "wild canasta",
    CanastaKind.WILD_DEUCES: "wild canasta of deuces",
    CanastaKind.WILD_SIX_JOKERS: "wild canasta of six jokers and a deuce",
    CanastaKind.SEQUENCE: "sequence canasta (canastra real)",
}


def is_sequence(cards: Sequence[int], size: int) -> bool:
    """Are ``cards`` a natural run of ``size`` cards of one suit, ace high and 4 lowest (seed
    003, Canastra Real: "una sequenza naturale di sette carte tutte dello stesso seme
    (A-K-Q-J-10-9-8, per esempio)")?"""
    if len(cards) != size or not all(is_natural(c) for c in cards):
        return False
    if len({suit_of(c) for c in cards}) != 1:
        return False
    values = sorted(14 if rank_of(c) == 1 else rank_of(c) for c in cards)
    return values == list(range(values[0], values[0] + size))


def classify_meld(cards: Sequence[int], rules: Rules) -> CanastaKind | None:
    """The canasta kind of a meld, or None when it is not a canasta (fewer than
    ``rules.melds.canasta_size`` cards).

    Seed 002: "naturali o pulite o pure: formate da sette carte naturali ... miste o sporche o
    impure: ... con l'ausilio di almeno una matta".
    """
    if len(cards) < rules.melds.canasta_size:
        return None
    if rules.melds.real_canasta and is_sequence(cards, rules.melds.canasta_size):
        return CanastaKind.SEQUENCE
    wilds = sum(1 for c in cards if is_wild(c))
    if wilds == len(cards):
        jokers = sum(1 for c in cards if rank_of(c) == 0)
        if jokers == 0:
            return CanastaKind.WILD_DEUCES
        if jokers >= 6 and len(cards) - jokers >= 1:
            return CanastaKind.WILD_SIX_JOKERS
        return CanastaKind.WILD
    rank = next(rank_of(c) for c in cards if not is_wild(c))
    if wilds == 0:
        return (CanastaKind.NATURAL_ACES if rank == 1 else
                CanastaKind.NATURAL_BLACK_THREES if rank == 3 else CanastaKind.NATURAL)
    return (CanastaKind.MIXED_ACES if rank == 1 else
            CanastaKind.MIXED_BLACK_THREES if rank == 3 else CanastaKind.MIXED)


def purity(cards: Sequence[int], rules: Rules) -> bool | None:
    """How a canasta counts where the rules ask for natural (pure) and mixed (impure) ones
    (going out, the red-three sign, the five-canasta bonuses): True natural, False mixed, None
    neither. A canasta of wild cards only counts by its kind when ``melds.wild_canasta_kinds``
    (seed 000: "3000 per canasta pura di pinelle", "2000 punti per canasta mista di Joker e
    pinelle": deuces only are pure, any joker makes it mixed); otherwise as neither."""
    wilds = sum(1 for c in cards if IS_WILD[c])
    if wilds < len(cards):
        return wilds == 0
    if not rules.melds.wild_canasta_kinds:
        return None
    return all(c in DEUCES for c in cards)


def meld_key(melds: Mapping[MeldKey, object], cards: Sequence[int]) -> MeldKey:
    """The key under which a new meld of ``cards`` goes in a side's ``melds``: its rank,
    ``WILD_RANK`` for wild cards only, or the first free key from ``SEQUENCE_KEY`` for cards
    of several ranks (a sequence canasta; whether it is one is checked by legality)."""
    ranks = {RANK[c] for c in cards if not IS_WILD[c]}
    if len(ranks) > 1:
        key = SEQUENCE_KEY
        while key in melds:
            key += 1
        return key
    return ranks.pop() if ranks else WILD_RANK
