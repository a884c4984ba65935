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
from canasta.core.wildlimit import ratio_code, wild_cap

#: What :func:`reach` returns when another rule opens whatever the points (a canasta with
#: ``opening.canasta_always_opens``, a sequence canasta too; a wild meld with
#: ``opening.wild_meld_opens``).
UNLIMITED = 1 << 30
NATURAL_RANKS = (1, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4)


def _cap(rules: Rules, naturals: int, wilds: int) -> int:
    """Wild cards a meld of ``naturals`` and ``wilds`` may still take."""
    mr = rules.melds
    return max(wild_cap(mr.max_wilds, ratio_code(mr.wild_ratio), naturals) - wilds, 0)


def naturals_only(rules: Rules, score: int) -> bool:
    """Must the opening of a side whose match score is ``score`` use natural cards only?

    True when the score band's minimum (``Rules.opening_minimum``, without the retract
    penalties: a short opening taken back, +10, does not leave the band) is one of
    ``opening.naturals_only_at`` (seed 000: "Per la discesa a 50 punti si richiedono solo
    combinazioni con carte naturali"). Wild cards laid then do not open the side, in any meld
    of the opening turn; only a concealed going out that waives the minimum may use them."""
    return rules.opening_minimum(score) in rules.opening.naturals_only_at


def reach(rules: Rules, hand: Sequence[int], melds: Mapping[int, Sequence[int]], base: int,
          need: int, band: int = -1) -> int:
    """The most opening points a player holding ``hand`` (counts per card code) can count this
    turn, starting from ``base`` points already counted, on top of the side's provisional
    ``melds`` (meld key -> cards); ``need`` is the side's minimum and ``band`` the minimum of its
    score band without the retract penalties (``Rules.opening_minimum``; -1: ``need``), natural
    cards only when ``band`` is in ``opening.naturals_only_at``, as legality has it.

    Every natural of a rank that has a meld, or enough naturals for one, is laid; ranks short
    of a meld are completed with wild cards, best first; the best remaining wild cards fill
    the room the melds leave (all of it with wild melds). With ``melds.real_canasta``, where the
    hand holds a run of one suit, every natural of that suit not laid otherwise counts too (an
    upper bound). Returns :data:`UNLIMITED` when a canasta (``opening.canasta_always_opens``; a
    run is one) or a wild meld (``opening.wild_meld_opens``) can be made.
    Units: card points (``cards.POINTS``).
    """
    mr = rules.melds
    runs = run_suits(hand, mr.canasta_size) if mr.real_canasta else ()
    if runs and rules.opening.canasta_always_opens:
        return UNLIMITED
    # The band, not need: a short opening taken back (+10) leaves the 50 band natural-only.
    wilds_ok = (need if band < 0 else band) not in rules.opening.naturals_only_at
    wild_pts = sorted((POINTS[c] for c in (JOKER, *DEUCES) for _ in range(hand[c])),
                      reverse=True) if wilds_ok else []
    total = base
    laid: list[int] = []  # ranks whose naturals are counted
    shapes: list[tuple[int, int, int]] = []  # (naturals, wild cards, cards) of each meld
    short: list[tuple[int, int, int]] = []  # (points, naturals, rank) of ranks needing wilds
    for rk in NATURAL_RANKS:
        b = (rk - 1) * 4
        n = hand[b] + hand[b + 1] + hand[b + 2] + hand[b + 3]
        pts = POINTS[b] * n
        existing = melds.get(rk)
        if existing:
            w = sum(1 for c in existing if IS_WILD[c])
            total += pts
            laid.append(rk)
            shapes.append((len(existing) - w + n, w, len(existing) + n))
        elif n >= mr.min_cards:
            total += pts
            laid.append(rk)
            shapes.append((n, 0, n))
        elif n >= mr.min_naturals and n:
            short.append((pts, n, rk))
    spare = len(wild_pts)
    for pts, n, rk in sorted(short, reverse=True):
        k = mr.min_cards - n
        if k <= spare:
            spare -= k
            total += pts
            laid.append(rk)
            shapes.append((n, 0, n))
    for suit in runs:
        # A run lays single cards of ranks that make no meld of their own.
        total += sum(POINTS[(rk - 1) * 4 + suit] * hand[(rk - 1) * 4 + suit]
                     for rk in NATURAL_RANKS if rk not in laid)
    if rules.opening.wild_meld_opens and mr.wild_melds and need < CANASTA_ONLY:
        wm0 = melds.get(WILD_RANK)
        if (len(wm0) if wm0 else 0) + len(wild_pts) >= mr.min_cards:
            return UNLIMITED  # S004: a wild meld opens whatever the points
    room = sum(_cap(rules, n, w) for n, w, _ in shapes)
    wm1 = melds.get(WILD_RANK)
    if mr.wild_melds and (wm1 or len(wild_pts) >= mr.min_cards):
        # Every wild card may go to the wild meld: one exists or the hand can start one.
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


def run_suits(hand: Sequence[int], size: int) -> tuple[int, ...]:
    """The suits of which ``hand`` holds a run of ``size`` naturals, ace high and 4 lowest
    (``melds.real_canasta``; seed 003 "una sequenza naturale di sette carte tutte dello stesso
    seme")."""
    out: list[int] = []
    for suit in range(4):
        have = [hand[(rk - 1) * 4 + suit] > 0 for rk in (4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1)]
        longest = run = 0
        for h in have:
            run = run + 1 if h else 0
            longest = max(longest, run)
        if longest >= size:
            out.append(suit)
    return tuple(out)
