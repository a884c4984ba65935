"""Test helpers: exact positions from crafted deck orders, state snapshots, invariants.

A position is built the way a real hand starts: a deck order (top card first) is dealt by
``State.deal``, one card at a time to each seat starting at the dealer's left (seed 002: "il
mazziere distribuisce undici carte a ogni giocatore in senso orario partendo dal giocatore alla
sua sinistra"). :func:`build_deck` writes that order from the hands, upcard and stock cards a
test wants, filling the rest from the cards left over.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from canasta import Draw, IllegalActionError, State, load_preset, parse_action, parse_cards
from canasta.core.cards import (
    JOKER,
    NUM_CODES,
    POINTS,
    is_black_three,
    is_red_three,
    is_wild,
    make_deck,
    rank_of,
)
from canasta.core.data import FIELDS
from canasta.core.events import Drew, events_of
from canasta.core.rules import Rules

RULES = load_preset("international")
SEED_FILE = "002_277939805e3ea5bf.txt"

Cards = str | Sequence[int]


def cards(spec: Cards) -> list[int]:
    """Card codes from text (``"Ks Kh JK"``) or a sequence of codes."""
    return parse_cards(spec) if isinstance(spec, str) else list(spec)


def card(text: str) -> int:
    (code,) = parse_cards(text)
    return code


def points(spec: Cards) -> int:
    """Point value of cards (seed 002's card table, as ``cards.POINTS``)."""
    return sum(POINTS[c] for c in cards(spec))


def _filler_order(pool: Counter[int], rng: random.Random) -> list[int]:
    """Cards to fill hands with: red threes first (replaced at the deal, so the stock holds
    none), then wild cards and black threes, then naturals one rank at a time."""
    specials = [c for c in sorted(pool) if is_red_three(c)]
    specials += [c for c in sorted(pool) if is_wild(c) or is_black_three(c)]
    out: list[int] = []
    for c in specials:
        out.extend([c] * pool[c])
    naturals = [c for c in sorted(pool) if c not in specials]
    by_rank: dict[int, list[int]] = {}
    for c in naturals:
        by_rank.setdefault(rank_of(c), []).extend([c] * pool[c])
    ranks = sorted(by_rank)
    rng.shuffle(ranks)
    while any(by_rank.values()):
        for r in ranks:
            if by_rank[r]:
                out.append(by_rank[r].pop())
    return out


def build_deck(
    hands: dict[int, Cards] | None = None,
    after: Cards = (),
    bottom: Cards = (),
    *,
    rules: Rules = RULES,
    players: int = 4,
    dealer: int = 0,
    seed: int = 0,
    auto_replacements: bool = True,
) -> list[int]:
    """A deck order, top card first, that deals ``hands`` (seat -> cards, at most the deal
    size; the rest of each hand is filled), followed by ``after`` (the next cards of the stock,
    in the order they are turned or drawn: the upcard, covered specials, then draws) and ending
    with ``bottom`` (the last cards of the stock). Cards not named fill the hands and the middle
    of the stock.

    Red threes dealt (named or filled) are replaced from the stock before the upcard is turned
    (seed 002); with ``auto_replacements`` the helper puts one natural filler card per dealt red
    three before ``after``, so ``after[0]`` is the upcard. Pass ``auto_replacements=False`` to
    name the replacement cards in ``after`` yourself.
    """
    full = make_deck(rules.packs(players), rules.deal.jokers_per_pack)
    pool: Counter[int] = Counter(full)
    n = rules.cards_dealt(players)
    want = {seat: cards(v) for seat, v in (hands or {}).items()}
    after_l, bottom_l = cards(after), cards(bottom)
    for c in [*(c for v in want.values() for c in v), *after_l, *bottom_l]:
        if pool[c] <= 0:
            raise ValueError(f"the deck has no more copies of card {c}")
        pool[c] -= 1
    for seat, v in want.items():
        if len(v) > n:
            raise ValueError(f"seat {seat}: {len(v)} cards named, the deal is {n}")
    rng = random.Random(seed)
    fill = _filler_order(+pool, rng)
    full_hands: dict[int, list[int]] = {}
    for seat in range(players):
        named = want.get(seat, [])
        extra = fill[: n - len(named)]
        del fill[: n - len(named)]
        full_hands[seat] = named + extra
    pool = Counter(full)
    pool.subtract(c for h in full_hands.values() for c in h)
    pool.subtract(after_l)
    pool.subtract(bottom_l)
    assert all(k >= 0 for k in pool.values())
    pool = +pool
    order: list[int] = []
    for r in range(n):
        for i in range(players):
            seat = (dealer + 1 + i) % players
            order.append(full_hands[seat][r])
    red_dealt = sum(1 for c in order if is_red_three(c))
    rest = [c for c in sorted(pool.elements()) if not is_red_three(c)]
    rng.shuffle(rest)
    reds = [c for c in sorted(pool.elements()) if is_red_three(c)]
    replacements: list[int] = []
    if auto_replacements and red_dealt:
        naturals = [c for c in rest if not is_wild(c) and rank_of(c) != 3]
        replacements = naturals[:red_dealt]
        for c in replacements:
            rest.remove(c)
    mid = len(rest) // 2
    rest = rest[:mid] + reds + rest[mid:]
    deck = order + replacements + after_l + rest + bottom_l
    assert sorted(deck) == sorted(full)
    return deck


def deal(
    hands: dict[int, Cards] | None = None,
    after: Cards = (),
    bottom: Cards = (),
    *,
    rules: Rules = RULES,
    players: int = 4,
    dealer: int = 0,
    scores: Sequence[int] | None = None,
    seed: int = 0,
    auto_replacements: bool = True,
) -> State:
    """``State.deal`` of :func:`build_deck`'s order."""
    deck = build_deck(hands, after, bottom, rules=rules, players=players, dealer=dealer,
                      seed=seed, auto_replacements=auto_replacements)
    return State.deal(rules, players, deck=deck, dealer=dealer, scores=scores)


def play(state: State, *actions: str) -> State:
    """Apply actions given as text, in order; returns the state."""
    for text in actions:
        state.apply(parse_action(text))
    return state


def hand(state: State, seat: int) -> Counter[int]:
    return Counter({c: k for c, k in enumerate(state.hands[seat]) if k})


def burn_stock(state: State, leave: int = 0, turns: int | None = None) -> None:
    """Play turns in which the player draws and discards the card drawn, until the stock has
    ``leave`` cards (or ``turns`` turns are played). Each card burned must be a natural (so no
    discard freezes the pile)."""
    while len(state.stock) > leave and (turns is None or turns > 0):
        if turns is not None:
            turns -= 1
        event = state.apply(Draw())
        assert isinstance(event, Drew) and event.drawn is not None, event
        assert len(event.drawn) == 1, event
        drawn = event.drawn[0]
        assert not is_wild(drawn) and rank_of(drawn) != 3, f"burned a special card {drawn}"
        play(state, f"discard {_text(drawn)}")


def _text(code: int) -> str:
    from canasta.core.cards import card_text

    return card_text(code)


def rule_of(state: State, action_text: str) -> str:
    """The rule named by the IllegalActionError that ``action_text`` raises (asserting that it
    does and that the state is unchanged)."""
    before = snapshot(state)
    try:
        state.apply(parse_action(action_text))
    except IllegalActionError as exc:
        assert same_as(state, before), "an illegal action changed the state"
        return exc.rule
    raise AssertionError(f"{action_text!r} was accepted")


def legal_texts(state: State) -> set[str]:
    return {a.text() for a in state.legal_actions()}


def is_legal(state: State, action_text: str) -> bool:
    return state.can(parse_action(action_text))


# -- snapshots and invariants -------------------------------------------------------------------

def snapshot(state: State) -> dict[str, Any]:
    """Every slot of the state, deep-copied (the retract snapshot recursively)."""
    out: dict[str, Any] = {}
    for name in FIELDS:
        value = getattr(state, name)
        if name == "snapshot":
            out[name] = snapshot(value) if value is not None else None
        elif name in ("rules", "event_log"):
            # the event log is persistent (never changed, only extended into a new object):
            # an action that changes nothing leaves the very same log
            out[name] = value
        else:
            out[name] = copy.deepcopy(value)
    return out


def same_as(state: State, snap: dict[str, Any]) -> bool:
    """Does ``state`` equal a :func:`snapshot` taken earlier (compared without copying)?"""
    for name in FIELDS:
        value = getattr(state, name)
        if name == "snapshot":
            if (value is None) != (snap[name] is None):
                return False
            if value is not None and not same_as(value, snap[name]):
                return False
        elif name == "event_log" and value is not snap[name]:
            # two logs built apart (a replay) are equal when their events are
            if tuple(events_of(value)) != tuple(events_of(snap[name])):
                return False
        elif value != snap[name]:
            return False
    return True


def full_counts(rules: Rules = RULES, players: int = 4) -> list[int]:
    counts = [0] * NUM_CODES
    for c in make_deck(rules.packs(players), rules.deal.jokers_per_pack):
        counts[c] += 1
    return counts


def location_totals(state: State) -> list[int]:
    totals = [0] * NUM_CODES
    for counts in state.card_locations().values():
        for c, k in enumerate(counts):
            totals[c] += k
    return totals


def check_conservation(state: State) -> None:
    """Every physical card is in exactly one place, and the cached hand sizes agree."""
    assert location_totals(state) == full_counts(state.rules, state.players)
    for seat in range(state.players):
        assert state.hand_size[seat] == sum(state.hands[seat])
        assert all(k >= 0 for k in state.hands[seat])


def check_score_sheets(state: State) -> None:
    """The sheets add up: items sum to the hand total; after = before + total."""
    sheets = state.score()
    assert len(sheets) == len(state.teams)
    for t, sheet in enumerate(sheets):
        assert sheet.team == t
        assert sum(p for _, p in sheet.items) == sheet.hand_total
        assert sheet.score_before == state.scores[t]
        assert sheet.score_after == sheet.score_before + sheet.hand_total


def hand_points(counts: Iterable[int]) -> int:
    return sum(POINTS[c] * k for c, k in enumerate(counts))


__all__ = [
    "JOKER", "RULES", "SEED_FILE", "build_deck", "burn_stock", "card", "cards",
    "check_conservation", "check_score_sheets", "deal", "full_counts", "hand", "hand_points",
    "is_legal", "legal_texts", "location_totals", "play", "points", "rule_of", "same_as",
    "snapshot",
]
