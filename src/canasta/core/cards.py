"""Cards: the encoding, decks, and the card text notation.

A card is a small ``int`` (a *card code*) so that hands can be held as counts per code
and copied cheaply:

* codes ``0..51`` are ``(rank - 1) * 4 + suit`` with ranks ``1`` (ace) to ``13`` (king)
  and suits ``0..3`` = spades, hearts, diamonds, clubs;
* code ``52`` is the joker.

Physical copies of the same card (two or three packs) share one code; a hand is a
``list[int]`` of 53 counts. Rank ``0`` is used for the joker and, for melds, for a meld made
only of wild cards (seed 000: "canasta di Joker e pinelle").

Card text (docs/formats.md): rank ``A K Q J 10 9 8 7 6 5 4 3 2`` (``T`` accepted for 10)
followed by a suit ``s h d c``; the joker is ``JK``. Parsing is case-insensitive.

Points (the same in all five seeds; e.g. seed 002: "il jolly ... vale 50 punti; il 2 ...
20 punti; l'asso 20 punti; le carte dal re all'8, 10 punti ciascuna; le carte dal 7 al 4,
5 punti ciascuna. I 3 rossi ... 100 punti ciascuno; i 3 neri, 5 punti").
"""

from __future__ import annotations

from collections.abc import Iterable

from canasta.core.meldkey import WILD_KEY, is_run_key, run_number

JOKER = 52
NUM_CODES = 53
SUITS = "shdc"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}
RANK_FROM_TEXT = {
    "A": 1, "K": 13, "Q": 12, "J": 11, "10": 10, "T": 10,
    "9": 9, "8": 8, "7": 7, "6": 6, "5": 5, "4": 4, "3": 3, "2": 2,
}
#: Natural ranks that can be melded, in display order (ace high).
NATURAL_RANKS = (1, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4)
#: Rank used for a meld of wild cards only (seed 000, seed 004 "canasta de valori"): its meld
#: key (:mod:`canasta.core.meldkey`).
WILD_RANK = WILD_KEY


class CardParseError(ValueError):
    """A card text could not be read; the message names the token and its position."""


def make_card(rank: int, suit: int) -> int:
    """Return the code of the card of ``rank`` (1..13) and ``suit`` (0..3)."""
    if not 1 <= rank <= 13 or not 0 <= suit <= 3:
        raise ValueError(f"no card of rank {rank} and suit {suit}")
    return (rank - 1) * 4 + suit


def rank_of(card: int) -> int:
    """Rank of a card code: 1 (ace) .. 13 (king); 0 for the joker."""
    return 0 if card == JOKER else card // 4 + 1


def suit_of(card: int) -> int:
    """Suit of a card code: 0..3 (s h d c); -1 for the joker."""
    return -1 if card == JOKER else card % 4


def is_red(card: int) -> bool:
    """True for hearts and diamonds (seed 002: "carte rosse ... cuori o ... quadri")."""
    return card != JOKER and card % 4 in (1, 2)


def is_wild(card: int) -> bool:
    """Jokers and deuces are wild in all five seeds (seed 002: "Le matte sono i jolly e le
    pinelle")."""
    return card == JOKER or card // 4 == 1


def is_red_three(card: int) -> bool:
    return card in (RED_THREES[0], RED_THREES[1])


def is_black_three(card: int) -> bool:
    return card in (BLACK_THREES[0], BLACK_THREES[1])


def is_natural(card: int) -> bool:
    """Natural cards are all but wild cards and threes (seed 002: "Le carte speciali sono le
    matte e i 3, mentre le naturali sono tutte le altre")."""
    return not is_wild(card) and card // 4 != 2


RED_THREES = (make_card(3, 1), make_card(3, 2))
BLACK_THREES = (make_card(3, 0), make_card(3, 3))

_POINTS_BY_RANK = {0: 50, 1: 20, 2: 20, 3: 5, 4: 5, 5: 5, 6: 5, 7: 5}


def card_points(card: int) -> int:
    """Point value of a card in melds and in hand (the same table in every seed).

    A red three is worth 100 as a bonus card (scored through the rules' red-three table, never
    as a melded card); a black three is worth 5.
    """
    if is_red_three(card):
        return 100
    return _POINTS_BY_RANK.get(rank_of(card), 10)


#: Points per code, precomputed for the hot path.
POINTS = tuple(card_points(c) for c in range(NUM_CODES))


def card_text(card: int) -> str:
    """Text form of a card code: ``Kh``, ``10s``, ``JK``."""
    if card == JOKER:
        return "JK"
    if not 0 <= card < JOKER:
        raise ValueError(f"no card has code {card}")
    rank = rank_of(card)
    return RANK_TEXT.get(rank, str(rank)) + SUITS[suit_of(card)]


def rank_text(rank: int) -> str:
    """Text of a rank: ``A``, ``10``, ``K``; ``W`` for the wild-card meld rank."""
    if rank == WILD_RANK:
        return "W"
    if is_run_key(rank):  # a sequence canasta's meld key (seed 003 "Canastra Real")
        return f"run {run_number(rank)}"
    return RANK_TEXT.get(rank, str(rank))


def parse_rank(token: str) -> int:
    """Parse a rank token (``A``, ``10``, ``T``, ``K``; ``W`` for a wild meld)."""
    t = token.strip().upper()
    if t in ("W", "WILD"):
        return WILD_RANK
    if t not in RANK_FROM_TEXT:
        raise CardParseError(f"'{token}' is not a rank (expected A K Q J 10 9 8 7 6 5 4 3 2 or W)")
    return RANK_FROM_TEXT[t]


def parse_card(token: str, position: int | None = None) -> int:
    """Parse one card token, e.g. ``Kh``, ``10s``, ``Td``, ``jk``.

    Raises:
        CardParseError: naming the token (and its 1-based position when given).
    """
    t = token.strip().upper()
    where = f" at position {position}" if position is not None else ""
    if t in ("JK", "JOKER", "*"):
        return JOKER
    if len(t) < 2 or t[-1].lower() not in SUITS or t[:-1] not in RANK_FROM_TEXT:
        raise CardParseError(
            f"'{token}'{where} is not a card (expected a rank A K Q J 10 9 8 7 6 5 4 3 2 "
            "or T, then a suit s h d c; or JK for a joker)"
        )
    return make_card(RANK_FROM_TEXT[t[:-1]], SUITS.index(t[-1].lower()))


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Parse cards separated by spaces or commas (or an iterable of tokens)."""
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(tok, i + 1) for i, tok in enumerate(tokens)]


def cards_text(cards: Iterable[int]) -> str:
    return " ".join(card_text(c) for c in cards)


def sort_key(card: int) -> tuple[int, int]:
    """Display order: naturals ace high to 4, then threes, deuces, jokers."""
    rank = rank_of(card)
    if card == JOKER:
        return (30, 0)
    if rank == 2:
        return (29, card % 4)
    if rank == 3:
        return (28, card % 4)
    order = 14 if rank == 1 else rank
    return (20 - order, card % 4)


def make_deck(packs: int, jokers_per_pack: int = 2) -> list[int]:
    """A fresh, unshuffled deck: ``packs`` x 52 cards plus ``packs * jokers_per_pack`` jokers.

    Seed 002: "108 carte francesi (due mazzi francesi di 52 carte l'uno più 2 jolly per
    mazzo)"; seed 000: "tre mazzi di 54 carte". The 106-tile Romanian rummy set (seed 004) is
    two packs with one joker each.
    """
    if packs < 1:
        raise ValueError("a deck needs at least one pack")
    deck = [c for _ in range(packs) for c in range(JOKER)]
    deck.extend([JOKER] * (packs * jokers_per_pack))
    return deck


def counts_of(cards: Iterable[int]) -> list[int]:
    """Counts per card code (length 53) of a sequence of cards."""
    counts = [0] * NUM_CODES
    for c in cards:
        counts[c] += 1
    return counts


#: The card codes in display order (:func:`sort_key`, which orders every code apart).
DISPLAY_ORDER: tuple[int, ...] = tuple(sorted(range(NUM_CODES), key=sort_key))


def cards_of(counts: list[int]) -> list[int]:
    """Cards of a counts list, in display order."""
    # Walking the codes in display order gives the sorted list without sorting.
    return [c for c in DISPLAY_ORDER for _ in range(counts[c])]


def display_cards(counts: tuple[int, ...]) -> tuple[int, ...]:
    """Cards of a counts tuple, in display order (``tuple(cards_of(list(counts)))``, for the
    counts tuples of a view)."""
    out: list[int] = []
    for c in DISPLAY_ORDER:
        n = counts[c]
        while n > 0:
            out.append(c)
            n -= 1
    return tuple(out)
