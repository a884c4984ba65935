"""``legal_actions()`` lists every action ``can()`` accepts (in the suits of the suit-choice
rule), ``canonical_suits`` is the identity on what it lists, and ``ActionCodec.legal_mask``
marks exactly the listed ids: over every preset with every house rule drawn at random, kept
red threes included (seed 000 VARIANTI: "possibilità di trattenere in mano uno o più Tre
rossi ... per valersene come «carte stop»": any of them may be declared, alone or together).
"""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta import (
    Action,
    ActionCodec,
    Discard,
    LayOff,
    Meld,
    MisdealError,
    State,
    TakePile,
    load_preset,
    preset_options,
)
from canasta.core.actions import canonical_suits
from canasta.core.cards import NUM_CODES
from canasta.core.data import Phase

PRESETS = ("international", "canastone", "classic_italian", "brazilian", "romanian")


def sampled(name: str, rng: random.Random) -> dict[str, str]:
    options = {o: rng.choice(sorted(spec.choices)) for o, spec in preset_options(name).items()}
    if "keep_red_threes" in options and rng.random() < 0.6:
        options["keep_red_threes"] = "true"
    return options


def give_red_threes(s: State, rng: random.Random) -> None:
    """Swap up to three red threes from the stock into the hand of the seat to act (kept red
    threes; every card stays in the game)."""
    seat = s.actor
    reds = [c for c in s.stock if c in (9, 10)]
    hand = [c for c in range(NUM_CODES) for _ in range(s.hands[seat][c]) if c not in (9, 10)]
    rng.shuffle(hand)
    for red in reds[:rng.randrange(1, 4)]:
        if not hand:
            break
        out = hand.pop()
        s.stock.remove(red)
        s.stock.append(out)
        s.hands[seat][red] += 1
        s.hands[seat][out] -= 1


def candidates(s: State, rng: random.Random) -> list[Action]:
    """Actions made of the held cards: every declaration of held red threes, every discard,
    and random melds, lay-offs and takes of any suits."""
    hand = s.hand_cards(s.actor)
    out: list[Action] = [Discard(c) for c in set(hand)]
    reds = [c for c in hand if c in (9, 10)]
    for k in range(1, len(reds) + 1):
        out.extend(Meld(cards) for cards in set(combinations(reds, k)))
    keys = list(s.melds[s.team_of[s.actor]])
    for _ in range(40):
        if not hand:
            break
        cards = tuple(rng.sample(hand, rng.randint(1, min(7, len(hand)))))
        kind = rng.randrange(3)
        if kind == 0:
            out.append(Meld(cards))
        elif kind == 1 and keys:
            out.append(LayOff(rng.choice(keys), cards))
        else:
            out.append(TakePile(cards[:3]))
    return out


def check(s: State, codec: ActionCodec, rng: random.Random) -> int:
    """The three properties at ``s``; returns how many held red threes it had."""
    listed = list(s.legal_actions())
    hand = s.hands[s.actor]
    for a in listed:
        assert s.can(a), a
        assert canonical_suits(a, hand) == a, (a, canonical_suits(a, hand))
    ids = {codec.encode(a) for a in listed}
    assert len(ids) == len(listed)
    mask = codec.legal_mask(s)
    assert {i for i, bit in enumerate(mask) if bit} == ids
    as_set = set(listed)
    for a in candidates(s, rng):
        if s.can(a):
            assert canonical_suits(a, hand) in as_set, (a, [b.text() for b in listed])
            assert mask[codec.encode(a)] == 1, a
    return hand[9] + hand[10]


def play_and_check(seed: int) -> int:
    rng = random.Random(seed)
    name = PRESETS[seed % len(PRESETS)]
    rules = load_preset(name, sampled(name, rng))
    players = rng.choice(rules.deal.player_counts)
    try:
        s = State.deal(rules, players, seed=seed)
    except MisdealError:
        return 0
    codec = ActionCodec(rules, players)
    reds = 0
    for _ in range(rng.randrange(0, 150)):
        if s.is_over:
            return reds
        s.apply(rng.choice(s.legal_actions()))
    if s.is_over:
        return reds
    if rules.red_threes.may_keep_as_stop and s.phase is Phase.PLAY and rng.random() < 0.7:
        give_red_threes(s, rng)
    return check(s, codec, rng)


def test_every_accepted_action_is_listed_on_seeded_positions() -> None:
    """Several hundred positions; some hold two or more kept red threes to declare."""
    many_reds = sum(play_and_check(seed) >= 2 for seed in range(250))
    assert many_reds >= 5


def test_two_kept_red_threes_are_declared_together() -> None:
    """The missing move: with ``keep_red_threes`` (Canastone), ``meld 3h 3d`` is listed, its
    id is set in the mask, and ``meld 3d`` is listed as itself."""
    rules = load_preset("canastone", {"keep_red_threes": "true"})
    for seed in range(200):
        s = State.deal(rules, 4, seed=seed)
        s.apply(s.legal_actions()[0])  # draw
        if s.phase is not Phase.PLAY:
            continue
        rng = random.Random(seed)
        give_red_threes(s, rng)
        hand = s.hands[s.actor]
        if hand[9] and hand[10]:
            break
    else:
        raise AssertionError("no position with both red threes")
    listed = [a.text() for a in s.legal_actions()]
    assert "meld 3h 3d" in listed and "meld 3d" in listed and "meld 3h" in listed
    assert s.can(Meld.of("3h 3d"))
    codec = ActionCodec(rules, 4)
    assert codec.legal_mask(s)[codec.encode(Meld.of("3h 3d"))] == 1
    assert canonical_suits(Meld.of("3d"), s.hands[s.actor]) == Meld.of("3d")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=1000, max_value=10**9))
def test_every_accepted_action_is_listed(seed: int) -> None:
    play_and_check(seed)
