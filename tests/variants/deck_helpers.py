"""Exact positions for the variant rule tests, built from crafted deck orders.

``tests/helpers.py`` (shared with the international tests) fills unnamed hands with red threes
and wild cards first and puts the red-three replacements before the upcard, as seed 002 deals.
The variants deal differently (Canastone and Brazilian Canastra turn the upcard before the red
threes are replaced; Canastone seeds the pile under it), so this builder fills unnamed hand
places with natural cards only and puts every card a test names in ``after`` in the exact
order the engine takes them from the stock: the upcard (and covered specials), the cards put
under it, red-three replacements, then draws. Wild cards, threes and the rest go to the bottom
of the stock, red threes last, so that a test draws no special card by accident.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from canasta import State, load_preset, parse_action
from canasta.core.cards import is_natural, is_red_three, make_deck
from canasta.core.rules import Rules
from helpers import cards, check_conservation, legal_texts, play, rule_of, snapshot

Cards = str | Sequence[int]

SEED_000 = "000_1cc8abd4e271b725.txt"
SEED_001 = "001_fb0497f152a2c2d6.txt"
SEED_002 = "002_277939805e3ea5bf.txt"
SEED_003 = "003_6aef22ca5c65dc7b.txt"
SEED_004 = "004_de631c4ee768aa1b.txt"


def build_order(
    rules: Rules,
    hands: dict[int, Cards] | None = None,
    after: Cards = (),
    *,
    players: int = 4,
    dealer: int = 0,
    seed: int = 0,
    avoid: Cards = (),
) -> list[int]:
    """A deck order, top card first: the named ``hands`` (seat -> cards; the rest of each hand
    is filled with natural cards), then ``after`` in order, then the rest of the stock
    (naturals, then wild cards and threes, red threes at the very bottom). ``avoid`` names
    cards that must not be used as filler in hands."""
    full = make_deck(rules.packs(players), rules.deal.jokers_per_pack)
    pool: Counter[int] = Counter(full)
    n = rules.cards_dealt(players)
    want = {seat: cards(v) for seat, v in (hands or {}).items()}
    after_l = cards(after)
    for c in [*(c for v in want.values() for c in v), *after_l]:
        if pool[c] <= 0:
            raise ValueError(f"the deck has no more copies of card {c}")
        pool[c] -= 1
    rng = random.Random(seed)
    avoid_set = set(cards(avoid))
    naturals = [c for c in sorted(pool.elements()) if is_natural(c) and c not in avoid_set]
    rng.shuffle(naturals)
    full_hands: dict[int, list[int]] = {}
    for seat in range(players):
        named = want.get(seat, [])
        if len(named) > n:
            raise ValueError(f"seat {seat}: {len(named)} cards named, the deal is {n}")
        extra = naturals[: n - len(named)]
        del naturals[: n - len(named)]
        full_hands[seat] = named + extra
        pool.subtract(extra)
    order: list[int] = []
    for r in range(n):
        for i in range(players):
            order.append(full_hands[(dealer + 1 + i) % players][r])
    rest = list((+pool).elements())
    nat_rest = [c for c in rest if is_natural(c)]
    rng.shuffle(nat_rest)
    special = sorted((c for c in rest if not is_natural(c) and not is_red_three(c)), reverse=True)
    reds = [c for c in rest if is_red_three(c)]
    deck = order + after_l + nat_rest + special + reds
    assert sorted(deck) == sorted(full)
    return deck


def deal(
    rules: Rules | str,
    hands: dict[int, Cards] | None = None,
    after: Cards = (),
    *,
    players: int = 4,
    dealer: int = 0,
    scores: Sequence[int] | None = None,
    team_size: int | None = None,
    seed: int = 0,
    avoid: Cards = (),
) -> State:
    """``State.deal`` of :func:`build_order`'s deck (``rules`` may be a preset name)."""
    if isinstance(rules, str):
        rules = load_preset(rules)
    deck = build_order(rules, hands, after, players=players, dealer=dealer, seed=seed,
                       avoid=avoid)
    state = State.deal(rules, players, deck=deck, dealer=dealer, scores=scores,
                       team_size=team_size)
    check_conservation(state)
    return state


def top_of_stock(state: State, k: int = 1) -> list[int]:
    """The next ``k`` cards the stock will give (the stock's next card is its last item)."""
    return list(reversed(state.stock[-k:]))


def apply_all(state: State, *actions: str) -> State:
    """Apply actions given as text, checking conservation after each."""
    for text in actions:
        state.apply(parse_action(text))
        check_conservation(state)
    return state


__all__ = [
    "SEED_000", "SEED_001", "SEED_002", "SEED_003", "SEED_004", "apply_all", "build_order",
    "cards", "check_conservation", "deal", "legal_texts", "play", "rule_of", "snapshot",
    "top_of_stock",
]
