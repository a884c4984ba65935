"""Meld shapes: is a meld's final content a valid meld of its rank under the rules (minimum
cards, natural and wild counts, wild ratio, completed canastas, mattoni)? The checks of
:mod:`canasta.core.legality` ask it for melds, lay-offs and takes of the pile."""

from __future__ import annotations

from collections.abc import Sequence

from canasta.core.cards import JOKER, WILD_RANK
from canasta.core.data import HandData
from canasta.core.illegal import IllegalActionError
from canasta.core.melds import DEUCES, IS_WILD, SEQUENCE_KEY
from canasta.core.wildlimit import MAX_WILDS, MIN_NATURALS, ratio_code, wild_limit_broken


def meld_error(s: HandData, rank: int, cards: Sequence[int], added: Sequence[int],
                team: int) -> IllegalActionError | None:
    """Is ``cards`` (a meld's final content) a valid meld of ``rank``; ``added`` are the new
    cards (for the completed-canasta rule)."""
    mr = s.rules.melds
    wilds = sum(1 for c in cards if IS_WILD[c])
    naturals = len(cards) - wilds
    if rank >= SEQUENCE_KEY:
        return None  # checked whole by is_sequence when laid; closed afterwards
    if rank == WILD_RANK:
        if not mr.wild_melds:
            return IllegalActionError("melds.wild_melds",
                                      "a meld needs natural cards")
        if len(cards) < mr.min_cards:
            return IllegalActionError("melds.min_cards",
                                      f"a meld needs at least {mr.min_cards} cards",
                                      {"min_cards": mr.min_cards})
        if len(cards) > mr.canasta_size:
            return IllegalActionError("melds.wild_melds",
                                      f"a wild-card canasta has {mr.canasta_size} cards")
        return None
    if len(cards) < mr.min_cards:
        return IllegalActionError("melds.min_cards",
                                  f"a meld needs at least {mr.min_cards} cards",
                                  {"min_cards": mr.min_cards})
    if rank == 3:
        if not wilds:
            return None
        if not mr.black_three_meld_wilds:
            return IllegalActionError("melds.black_three_meld_going_out",
                                      "a meld of black threes takes no wild cards "
                                      "[melds.black_three_meld_wilds]", {"case": "wild_cards"})
        if len(cards) >= mr.canasta_size:
            return IllegalActionError("melds.black_three_meld_wilds",
                                      "a mixed canasta of black threes is never allowed")
    broken = wild_limit_broken(mr.min_naturals, mr.max_wilds, ratio_code(mr.wild_ratio),
                               naturals, wilds)
    if broken == MIN_NATURALS:
        return IllegalActionError("melds.min_naturals",
                                  f"a meld needs at least {mr.min_naturals} natural cards",
                                  {"min_naturals": mr.min_naturals})
    if broken == MAX_WILDS:
        return IllegalActionError("melds.max_wilds",
                                  f"a meld may hold at most {mr.max_wilds} wild cards",
                                  {"max_wilds": mr.max_wilds})
    if broken:
        return IllegalActionError("melds.wild_ratio",
                                  "wild cards must be fewer than natural cards"
                                  if mr.wild_ratio == "lt" else
                                  "wild cards may not outnumber natural cards")
    added_wilds = any(IS_WILD[c] for c in added)
    if added_wilds and not mr.wilds_on_completed_canasta:
        before = len(cards) - len(added)
        if before >= mr.canasta_size:
            return IllegalActionError("melds.wilds_on_completed_canasta",
                                      "no wild card may be added to a completed canasta")
    if added_wilds and mr.unfinished_wild_meld_restricts:
        wm = s.melds[team].get(WILD_RANK)
        if wm is not None and len(wm) < mr.canasta_size:
            return IllegalActionError("melds.unfinished_wild_meld_restricts",
                                      "while your wild-card canasta is unfinished, wild cards "
                                      "may not go into natural melds")
    return None


def is_mattoni(cards: Sequence[int]) -> bool:
    """Is ``cards`` (one meld as laid) an opening "di mattoni": three jokers, or two jokers and
    a deuce (seed 000: "Classica è l'apertura con tre Joker o con due Joker e una pinella
    detta anche «apertura» di «mattoni»")? Any other wild meld is not."""
    jokers = sum(1 for c in cards if c == JOKER)
    deuces = sum(1 for c in cards if c in DEUCES)
    return len(cards) == 3 and jokers + deuces == 3 and jokers >= 2
