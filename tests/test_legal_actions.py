"""Canonical actions and ``legal_actions()``: cards inside an action are
sorted on construction, ``repr()`` pastes back as code, and ``action in
state.legal_actions()`` agrees with ``state.can(action)`` for every action, while the listed
actions are exactly the legal ways to play up to the suit-choice rule (one choice of suits
per rank; docs/formats.md, "Actions")."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta.core.actions import (
    Action,
    Answer,
    AskPartner,
    Discard,
    Draw,
    EndHand,
    LayOff,
    Meld,
    Retract,
    TakePile,
    canonical_suits,
    parse_action,
)
from canasta.core.cards import JOKER, NUM_CODES, parse_cards
from canasta.core.melds import BLACK3, IS_WILD, RANK, RED3
from canasta.core.state import State
from formatkit import deal, loadable_presets

PRESETS = loadable_presets()


def test_cards_inside_an_action_are_sorted_on_construction() -> None:
    assert Meld(tuple(parse_cards("9s 9d JK"))) == Meld(tuple(parse_cards("9d JK 9s")))
    assert parse_action("meld 9d JK 9s") == parse_action("meld 9s 9d JK")
    assert parse_action("meld JK 9d 2c 9s").text() == "meld 9s 9d JK 2c"
    assert hash(LayOff.of("9", "2c 9h")) == hash(LayOff.of(9, "9h 2c"))
    assert TakePile.of("7c 7h") == TakePile.of("7h 7c")


@pytest.mark.parametrize("action", [
    Meld.of("9s 9d JK"), LayOff.of("W", "JK 2c"), LayOff.of("K", "Kh"), TakePile.of("7h 7c"),
    TakePile(), Discard.of("Kc"), Draw(), AskPartner(), Answer(True), Answer(False),
    Retract(), EndHand(), Meld((99,)),
])
def test_repr_pastes_back_as_code(action: Action) -> None:
    assert eval(repr(action)) == action  # noqa: S307 - the point of the test


def _class(card: int) -> object:
    """Cards the rules treat alike: naturals by rank, black and red threes apart, deuces,
    jokers."""
    if card == JOKER:
        return "JK"
    if card in RED3:
        return "red 3"
    if card in BLACK3:
        return "black 3"
    return RANK[card]


def _same_up_to_suits(a: Action, b: Action) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, Discard) and isinstance(b, Discard):
        return _class(a.card) == _class(b.card)
    if isinstance(a, (Meld, LayOff, TakePile)) and isinstance(b, (Meld, LayOff, TakePile)):
        if isinstance(a, LayOff) and isinstance(b, LayOff) and a.rank != b.rank:
            return False
        if len({RANK[c] for c in a.cards if not IS_WILD[c]}) > 1:
            return a == b  # a sequence canasta: its suit matters
        return Counter(map(_class, a.cards)) == Counter(map(_class, b.cards))
    return a == b


def _held(state: State, action: Action) -> bool:
    need = Counter(getattr(action, "cards", ()))
    if isinstance(action, Discard):
        need[action.card] += 1
    hand = state.hands[state.actor]
    return all(0 <= c < NUM_CODES and hand[c] >= n for c, n in need.items())


def _random_actions(state: State, rng: random.Random, n: int) -> list[Action]:
    """Actions built from the cards of the seat to act (any suits, any subset), melds keys
    of its side and a few cards it does not hold."""
    hand = state.hand_cards(state.actor)
    keys = [*state.melds[state.team_of[state.actor]], 0, rng.randint(1, 13)]
    out: list[Action] = [Draw(), TakePile(), AskPartner(), Answer(True), Answer(False),
                         Retract(), EndHand()]
    for _ in range(n):
        k = rng.randint(1, min(8, max(1, len(hand))))
        cards = tuple(rng.sample(hand, min(k, len(hand)))) if hand else ()
        if rng.random() < 0.15:
            cards = (*cards, rng.randrange(NUM_CODES))
        kind = rng.randrange(4)
        if kind == 0 and cards:
            out.append(Meld(cards))
        elif kind == 1 and cards:
            out.append(LayOff(rng.choice(keys), cards))
        elif kind == 2:
            out.append(TakePile(cards[:3]))
        else:
            out.append(Discard(rng.choice(hand) if hand and rng.random() < 0.9
                               else rng.randrange(NUM_CODES)))
    return out


def _suit_variants(state: State, listed: list[Action], rng: random.Random) -> list[Action]:
    """Listed actions with cards swapped for held cards of the same kind in other suits."""
    hand = state.hand_cards(state.actor)
    out: list[Action] = []
    for action in listed:
        if isinstance(action, Discard) or not getattr(action, "cards", ()):
            continue
        cards = list(getattr(action, "cards", ()))
        spare = Counter(hand) - Counter(cards)
        i = rng.randrange(len(cards))
        others = [c for c in spare if c != cards[i] and _class(c) == _class(cards[i])]
        if not others:
            continue
        cards[i] = rng.choice(others)
        if isinstance(action, LayOff):
            out.append(LayOff(action.rank, tuple(cards)))
        elif isinstance(action, Meld):
            out.append(Meld(tuple(cards)))
        elif isinstance(action, TakePile):
            out.append(TakePile(tuple(cards)))
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(range(len(PRESETS))), seed=st.integers(0, 10_000),
       steps=st.integers(0, 120))
def test_membership_agrees_with_can_and_the_list_is_every_way_to_play(
        preset: int, seed: int, steps: int) -> None:
    rules = PRESETS[preset]
    rng = random.Random(seed)
    state = deal(rules, rng.choice(rules.deal.player_counts), seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    legal = state.legal_actions()
    listed = list(legal)
    seen = state.view(state.actor).legal_actions  # what a bot gets, without the state
    assert list(seen) == listed
    assert len(set(listed)) == len(listed)
    for action in listed:
        assert action in legal and state.can(action), action
    for action in _random_actions(state, rng, 30) + _suit_variants(state, listed, rng):
        can = state.can(action)
        assert (action in legal) == can, action
        assert (action in seen) == can, action
        if _held(state, action):
            listed_alike = any(_same_up_to_suits(action, b) for b in listed)
            assert can == listed_alike, (action, can)


def test_canonical_suits_is_the_listed_choice() -> None:
    """The suit-choice rule as a function: of each kind, the held cards in suit order."""
    hand = [0] * NUM_CODES
    for c in parse_cards("9s 9h 9d 9c JK 2d 2c 3s 3c"):
        hand[c] += 1
    assert canonical_suits(Meld.of("9c 9d 2c JK"), hand) == Meld.of("9s 9h JK 2d")
    assert canonical_suits(Meld.of("3c 3s 2c"), hand) == Meld.of("3s 3c 2d")
    assert canonical_suits(TakePile.of("9d"), hand) == TakePile.of("9s")
    assert canonical_suits(Discard.of("9c"), hand) == Discard.of("9c")
    assert canonical_suits(Meld.of("Ks Kh Kd"), hand) is None  # not held
    assert canonical_suits(Draw(), hand) == Draw()


def test_membership_is_refused_once_the_state_has_moved_on() -> None:
    state = deal(PRESETS[0], PRESETS[0].deal.player_counts[0], 1)
    legal = state.legal_actions()
    state.apply(legal[0])
    with pytest.raises(RuntimeError):
        _ = Draw() in legal
