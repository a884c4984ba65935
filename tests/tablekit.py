"""A position laid out by hand, for rule tests that need one situation and not the way to it.

:func:`table` deals a hand, then moves the cards a test names where it wants them (the hand of
the seat to act, each side's melds, the discard pile) and puts every other card in the other
hands and the stock, so that every physical card is still in exactly one place. The other
hands get natural cards of ranks the test does not name, and the stock is left with the
naturals on top and the special cards at its bottom, so that a draw brings no special card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from canasta import State, load_preset, parse_cards
from canasta.core.cards import is_natural, make_deck, rank_of
from canasta.core.data import Phase
from canasta.core.rules import Rules
from canasta.core.state import MisdealError


def table(
    rules: Rules | str,
    hand: str,
    *,
    melds: dict[int, Sequence[str]] | None = None,
    pile: str = "",
    players: int = 4,
    scores: Sequence[int] | None = None,
    opened: Sequence[bool] | None = None,
    phase: str = "draw",
    others: dict[int, str] | None = None,
    stock: int | None = None,
    frozen: bool = False,
    turn: int = 20,
) -> State:
    """A state in which seat 0 is to act (``phase`` ``"draw"`` or ``"play"``) holding
    ``hand``, with ``melds`` (team -> meld texts, ``"9s 9h 9d"``), the discard pile ``pile``
    (bottom first, its top card last) and ``others`` (seat -> that hand; the others get 5
    natural cards each). ``opened`` defaults to "a team with melds has opened"; ``stock``
    keeps only that many cards in the stock (the rest go to the other hands); ``frozen`` sets
    the pile frozen; ``turn`` is past the first round.

    Raises:
        ValueError: a card named more times than the deck holds.
    """
    r = load_preset(rules) if isinstance(rules, str) else rules
    for seed in range(50):
        try:
            s = State.deal(r, players, seed=seed, scores=scores)
            break
        except MisdealError:
            continue
    pool: Counter[int] = Counter(make_deck(r.packs(players), r.deal.jokers_per_pack))

    def take(text: str) -> list[int]:
        out = parse_cards(text) if text else []
        for c in out:
            if pool[c] <= 0:
                raise ValueError(f"the deck has no more copies of {text!r}'s card {c}")
            pool[c] -= 1
        return out

    named_ranks: set[int] = set()
    hands: dict[int, list[int]] = {0: take(hand)}
    for seat, text in (others or {}).items():
        hands[seat] = take(text)
    team_melds: list[dict[int, list[int]]] = [{} for _ in s.teams]
    for team, texts in (melds or {}).items():
        for text in texts:
            cards = take(text)
            naturals = [c for c in cards if is_natural(c)]
            key = rank_of(naturals[0]) if naturals else 0
            if text.strip().split()[0].startswith("3"):
                key = 3
            team_melds[team][key] = cards
    pile_cards = take(pile)
    for c in [*hands[0], *pile_cards, *(c for m in team_melds for v in m.values() for c in v)]:
        named_ranks.add(rank_of(c))
    # Other hands: natural cards of ranks nobody named, five each.
    spare = [c for c in sorted(pool.elements()) if is_natural(c) and rank_of(c) not in named_ranks]
    for seat in range(1, players):
        if seat not in hands:
            hands[seat] = [spare.pop(0) for _ in range(5)]
            for c in hands[seat]:
                pool[c] -= 1
    rest = list((+pool).elements())
    naturals = [c for c in rest if is_natural(c)]
    specials = [c for c in rest if not is_natural(c)]
    stock_cards = specials + naturals  # the next card is the end of the list: naturals first
    if stock is not None:
        extra, stock_cards = stock_cards[: len(stock_cards) - stock], stock_cards[len(stock_cards)
                                                                                  - stock:]
        hands[players - 1] = hands[players - 1] + extra
    for seat in range(players):
        counts = [0] * len(s.hands[seat])
        for c in hands[seat]:
            counts[c] += 1
        s.hands[seat] = counts
        s.hand_size[seat] = len(hands[seat])
    s.melds = team_melds
    s.pile = pile_cards
    s.stock = stock_cards
    s.surprise = []
    s.red_threes = [[] for _ in s.teams]
    s.pending_pile = []
    s.pile_frozen = frozen
    s.pile_hidden = 0
    s.opened = list(opened) if opened is not None else [bool(m) for m in team_melds]
    s.turn = turn
    s.current = s.actor = 0
    s.known = [(0,) * len(s.hands[0])] * players
    s.player_melded = [bool(team_melds[s.team_of[seat]]) for seat in range(players)]
    s.reset_turn()
    s.opened_at_turn_start = s.opened[s.team_of[0]]
    if phase == "play":
        s.phase = Phase.PLAY
    return s
