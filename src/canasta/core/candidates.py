"""Candidate actions: every take of the pile and every play a hand's cards could make, before
any rule is checked (:func:`canasta.core.legality.reference_legal_actions` verifies each; the
fast generator :mod:`canasta.core.generate` is tested against that reference). The rare
rules' candidates (:func:`rare_candidates`) are shared with the fast generator."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from canasta.core.actions import (
    Action,
    AskPartner,
    Discard,
    EndHand,
    LayOff,
    Meld,
    Retract,
    TakePile,
)
from canasta.core.cards import BLACK_THREES, JOKER, NUM_CODES, WILD_RANK
from canasta.core.data import HandData
from canasta.core.melds import DEUCES, IS_WILD, RANK
from canasta.core.melds import meld_key as _meld_key


def rare_candidates(s: HandData) -> Iterator[Action]:
    """Candidates of the rare rules, in :func:`play_candidates`'s order: sequence canastas
    (``melds.real_canasta``) and kept red threes to declare (``red_threes.may_keep_as_stop``).
    """
    hand = s.hands[s.actor]
    if s.rules.melds.real_canasta:
        yield from sequence_candidates(s, hand)
    if s.rules.red_threes.may_keep_as_stop:
        yield from declare_candidates(hand)


def declare_candidates(hand: list[int]) -> Iterator[Meld]:
    """Declarations of kept red threes (``red_threes.may_keep_as_stop``): every count of
    hearts and of diamonds held, fewer cards first (``meld 3h``, ``meld 3d``, ``meld 3h 3h``,
    ``meld 3h 3d`` ...). Their suits are kept, as in a discard: the one left in hand is the
    stop card (seed 000 VARIANTI: "per valersene come «carte stop» al pari dei Tre neri")."""
    hearts, diamonds = hand[9], hand[10]
    for total in range(1, hearts + diamonds + 1):
        for h in range(min(hearts, total), -1, -1):
            d = total - h
            if d <= diamonds:
                yield Meld((9,) * h + (10,) * d)


def pick(hand: list[int], codes: Sequence[int], k: int) -> list[int]:
    out: list[int] = []
    for c in codes:
        take = min(hand[c], k - len(out))
        out.extend([c] * take)
        if len(out) == k:
            break
    return out


def wild_choices(hand: list[int], cap: int) -> list[list[int]]:
    """Distinct choices of up to ``cap`` wild cards from hand (jokers and deuces differ in
    points, deuces of different suits do not)."""
    jokers = hand[JOKER]
    deuces = sum(hand[c] for c in DEUCES)
    out: list[list[int]] = []
    for j in range(min(jokers, cap) + 1):
        for d in range(min(deuces, cap - j) + 1):
            out.append([JOKER] * j + pick(hand, DEUCES, d))
    return out


def take_candidates(s: HandData) -> Iterator[TakePile]:
    if not s.pile:
        return
    top = s.pile[-1]
    rank = RANK[top]
    if IS_WILD[top] or rank == 3:
        return
    hand = s.hands[s.actor]
    codes = range((rank - 1) * 4, rank * 4)
    n = sum(hand[c] for c in codes)
    for k in range(n + 1):
        nat = pick(hand, codes, k)
        for wilds in wild_choices(hand, s.rules.melds.max_wilds):
            yield TakePile(tuple(nat + wilds))


def play_candidates(s: HandData) -> Iterator[Action]:
    seat = s.actor
    hand = s.hands[seat]
    team = s.team_of[seat]
    melds = s.melds[team]
    mr = s.rules.melds
    if True:
        for rank in (1, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4):
            codes = range((rank - 1) * 4, rank * 4)
            n = sum(hand[c] for c in codes)
            existing = melds.get(rank)
            if existing is not None:
                cap = mr.max_wilds - sum(1 for c in existing if IS_WILD[c])
                for k in range(n + 1):
                    nat = pick(hand, codes, k)
                    for wilds in wild_choices(hand, max(cap, 0)):
                        if nat or wilds:
                            yield LayOff(rank, tuple(nat + wilds))
            elif n >= mr.min_naturals:
                # Only candidates that can pass _meld_error (which still checks them all).
                for k in range(mr.min_naturals, n + 1):
                    nat = pick(hand, codes, k)
                    for wilds in wild_choices(hand, mr.max_wilds):
                        if k + len(wilds) >= mr.min_cards:
                            yield Meld(tuple(nat + wilds))
        if mr.wild_melds:
            wild_meld = melds.get(WILD_RANK)
            room = mr.canasta_size - (len(wild_meld) if wild_meld is not None else 0)
            for wilds in wild_choices(hand, room):
                if not wilds:
                    continue
                if wild_meld is not None:
                    yield LayOff(WILD_RANK, tuple(wilds))
                else:
                    yield Meld(tuple(wilds))
        b = hand[8] + hand[11]
        if mr.black_three_meld_going_out:
            with_wilds = mr.black_three_meld_wilds
            for k in range(mr.min_naturals if with_wilds else mr.min_cards, b + 1):
                blacks = pick(hand, BLACK_THREES, k)
                for wilds in (wild_choices(hand, mr.max_wilds) if with_wilds else [[]]):
                    if k + len(wilds) >= mr.min_cards:
                        yield Meld(tuple(blacks + wilds))
        if mr.black_threes_out_of_play and b and (
            b + partners_black_threes(s, seat) >= mr.black_threes_out_of_play
        ):
            yield Meld(tuple(pick(hand, BLACK_THREES, b)))
        if mr.real_canasta:
            yield from sequence_candidates(s, hand)
        if s.rules.red_threes.may_keep_as_stop:
            yield from declare_candidates(hand)
    if s.rules.going_out.ask_partner:
        yield AskPartner()
    yield Retract()
    yield EndHand()
    for code in range(NUM_CODES):
        if hand[code]:
            yield Discard(code)


def partners_black_threes(s: HandData, seat: int) -> int:
    """Black threes in the hands of ``seat``'s partners: the side puts its black threes out
    of play together (``melds.black_threes_out_of_play``; S004 "Partenerii se pot intreba
    intre ei daca au treiari de negru pentru a-i scoate din joc")."""
    return sum(s.hands[p][8] + s.hands[p][11]
               for p in s.teams[s.team_of[seat]] if p != seat)


def sequence_candidates(s: HandData, hand: list[int]) -> Iterator[Meld]:
    """Sequence canastas in hand (``melds.real_canasta``): runs of one suit, ace high."""
    size = s.rules.melds.canasta_size
    for suit in range(4):
        for high in range(14, 2 + size, -1):  # ace high, 4 lowest
            ranks = [1 if v == 14 else v for v in range(high, high - size, -1)]
            codes = [(r - 1) * 4 + suit for r in ranks]
            if all(hand[c] for c in codes):
                yield Meld(tuple(codes))


def meld_key(s: HandData, team: int, cards: Sequence[int]) -> int:
    """Where a new meld of ``cards`` goes in the side's melds (see
    :func:`canasta.core.melds.meld_key`)."""
    return _meld_key(s.melds[team], cards)
