"""The wild-card limit of a natural meld, decided in one place.

Three rule values bound the wild cards of a meld of a natural rank: ``melds.min_naturals`` (the
natural cards it needs at least), ``melds.max_wilds`` (the wild cards it may hold in all) and
``melds.wild_ratio`` (``any``; ``lt``, fewer wild cards than natural cards, seed 000 "ma non mai
in numero pari o superiore a quello delle carte naturali"; ``le``, never more wild cards than
natural cards, the international rule). Every part of the engine that builds or checks a meld
(the legality checks, the generator, the going-out search, the opening reach, the action codec,
the scorepad's meld layout) asks :func:`wild_limit_broken` or :func:`wild_cap`, so the limit is
one predicate.

Black threes and wild-card melds have rules of their own (``meldshape``); these functions are for
the natural ranks.
"""

from __future__ import annotations

#: ``melds.wild_ratio`` as a small int, read once per call by the hot paths.
RATIO_ANY = 0
RATIO_FEWER = 1  # "lt"
RATIO_NO_MORE = 2  # "le"

#: The rule ids :func:`wild_limit_broken` names.
MIN_NATURALS = "melds.min_naturals"
MAX_WILDS = "melds.max_wilds"
WILD_RATIO = "melds.wild_ratio"


def ratio_code(wild_ratio: str) -> int:
    """``melds.wild_ratio`` (``"any"``, ``"lt"``, ``"le"``) as :data:`RATIO_ANY`,
    :data:`RATIO_FEWER` or :data:`RATIO_NO_MORE`."""
    if wild_ratio == "lt":
        return RATIO_FEWER
    if wild_ratio == "le":
        return RATIO_NO_MORE
    return RATIO_ANY


def wild_cap(max_wilds: int, ratio: int, naturals: int) -> int:
    """Most wild cards, in all, that a meld of ``naturals`` natural cards may hold under
    ``melds.max_wilds`` and the ratio code ``ratio`` (0 when it may hold none); the minimum of
    natural cards is :func:`wild_limit_broken`'s."""
    cap = max_wilds
    if ratio == RATIO_FEWER:
        cap = min(cap, naturals - 1)
    elif ratio == RATIO_NO_MORE:
        cap = min(cap, naturals)
    return cap if cap > 0 else 0


def wild_limit_broken(min_naturals: int, max_wilds: int, ratio: int, naturals: int,
                      wilds: int) -> str:
    """The rule a meld of ``naturals`` natural and ``wilds`` wild cards breaks, as its rule id
    (:data:`MIN_NATURALS`, :data:`MAX_WILDS` or :data:`WILD_RATIO`, checked in that order), or
    ``""`` when it keeps the wild-card limit."""
    if naturals < min_naturals:
        return MIN_NATURALS
    if wilds > max_wilds:
        return MAX_WILDS
    if wilds > wild_cap(max_wilds, ratio, naturals):
        return WILD_RATIO
    return ""
