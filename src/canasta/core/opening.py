"""The opening: how many points a side that has not opened can still lay this turn.

Used by legality to allow taking the pile only when the opening can be completed with it (seed
000: the side that has not opened "non può impossessarsene"; seed 002: "può prendere il pozzo
solo se può utilizzare l'ultima carta scartata per aprire"), and to refuse a meld laid after
such a take that would leave the opening short (the take cannot be undone).

Pure functions over card counts; no state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from canasta.core.cards import JOKER, POINTS, WILD_RANK
from canasta.core.melds import DEUCES, IS_WILD
from canasta.core.rules import CANASTA_ONLY, Rules

#: What :func:`reach` returns when another rule opens whatever the points (a canasta with
#: ``opening.canasta_always_opens``, a sequence canasta with ``melds.real_canasta``).
UNLIMITED = 1 << 30
NATURAL_RANKS = (1, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4)


def _cap(rules: Rules, naturals: int, wilds: int) -> int:
    """Wild cards a meld of ``naturals`` and ``wilds`` may still take."""
    mr = rules.melds
    cap = mr.max_wilds - wilds
    if mr.wild_ratio == "lt":
        cap = min(cap, naturals - 1 - wilds)
    elif mr.wild_ratio == "le":
        cap = min(cap, naturals - wilds)
    return max(cap, 0)


def reach(rules: Rules, hand: Sequence[int], melds: Mapping[int, Sequence[int]], base: int,
          need: int) -> int:
    """The most opening points a player holding ``hand`` (counts per card code) can count this
    turn, starting from ``base`` points already counted, on top of the side's provisional
    ``melds`` (meld key -> cards); ``need`` is the side's minimum (natural cards only when it
    is in ``opening.naturals_only_at``).

    Every natural of a rank that has a meld, or enough naturals for one, is laid; ranks short
    of a meld are completed with wild cards, best first; the best remaining wild cards fill
    the room the melds leave (all of it with wild melds). Returns :data:`UNLIMITED` when a
    canasta (``opening.canasta_always_opens``) or a wild meld (``opening.wild_meld_opens``) can
    be made, or with ``melds.real_canasta``.
    Units: card points (``cards.POINTS``).
    """
    mr = rules.melds
    if mr.real_canasta:
        return UNLIMITED
    wilds_ok = need not in rules.opening.naturals_only_at
    wild_pts = sorted((POINTS[c] for c in (JOKER, *DEUCES) for _ in range(hand[c])),
                      reverse=True) if wilds_ok else []
    total = base
    shapes: list[tuple[int, int, int]] = []  # (naturals, wild cards, cards) of each meld
    short: list[tuple[int, int]] = []  # (points, naturals) of ranks needing wild cards
    for rk in NATURAL_RANKS:
        b = (rk - 1) * 4
        n = hand[b] + hand[b + 1] + hand[b + 2] + hand[b + 3]
        pts = POINTS[b] * n
        existing = melds.get(rk)
        if existing:
            w = sum(1 for c in existing if IS_WILD[c])
            total += pts
            shapes.append((len(existing) - w + n, w, len(existing) + n))
        elif n >= mr.min_cards:
            total += pts
            shapes.append((n, 0, n))
        elif n >= mr.min_naturals and n:
            short.append((pts, n))
    spare = len(wild_pts)
    for pts, n in sorted(short, reverse=True):
        k = mr.min_cards - n
        if k <= spare:
            spare -= k
            total += pts
            shapes.append((n, 0, n))
    if rules.opening.wild_meld_opens and mr.wild_melds and need < CANASTA_ONLY:
        wm0 = melds.get(WILD_RANK)
        if (len(wm0) if wm0 else 0) + len(wild_pts) >= mr.min_cards:
            return UNLIMITED  # S004: a wild meld opens whatever the points
    room = sum(_cap(rules, n, w) for n, w, _ in shapes)
    if mr.wild_melds:
        room = len(wild_pts)
    if rules.opening.canasta_always_opens:
        size = mr.canasta_size
        wm = melds.get(WILD_RANK)
        if mr.wild_melds and (len(wm) if wm else 0) + len(wild_pts) >= size:
            return UNLIMITED
        if any(cards + min(_cap(rules, n, w), len(wild_pts)) >= size
               for n, w, cards in shapes):
            return UNLIMITED
    return total + sum(wild_pts[:room])
