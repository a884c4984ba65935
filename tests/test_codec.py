"""Integer action ids (``canasta.core.codec.ActionCodec``, docs/formats.md "Action ids").

Over random play of every preset and player count (and the house rules that add kinds of
actions): every legal action has an id, no two legal actions of a state share one, the mask has
a one exactly at the legal ids, and decoding an id gives back the legal action by the canonical
suit choice. Ids do not depend on suits where the rules do not: the same meld with other suits
has the same id.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canasta import (
    Answer,
    Discard,
    Draw,
    IllegalActionError,
    LayOff,
    Meld,
    MisdealError,
    State,
    TakePile,
    load_preset,
    parse_action,
    parse_cards,
)
from canasta.core.actions import Action
from canasta.core.cards import JOKER, rank_of
from canasta.core.codec import ActionCodec
from canasta.core.rules import PRESETS, Rules
from variants.deck_helpers import SEED_003, apply_all
from variants.deck_helpers import deal as deal_variant

#: Presets with the house rules that bring kinds of actions of their own.
CONFIGS: list[tuple[str, dict[str, str]]] = [
    ("international", {}),
    ("international", {"black_three_meld_wilds": "true", "wild_ratio": "lt"}),
    ("canastone", {}),
    ("classic_italian", {"keep_red_threes": "true"}),
    ("brazilian", {"canastra_real": "true"}),
    ("brazilian", {"max_wilds": "3"}),
    ("romanian", {"surprises": "four"}),
    ("romanian", {"black_threes": "meld_going_out"}),
]
CASES = [(name, opts, players) for name, opts in CONFIGS
         for players in load_preset(name, opts).deal.player_counts]


def _same_up_to_suits(a: Action, b: Action) -> bool:
    """Equal but for the suits of interchangeable cards (naturals of a meld's rank, deuces)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (Meld, LayOff, TakePile)):
        assert isinstance(b, (Meld, LayOff, TakePile))
        if isinstance(a, LayOff) and isinstance(b, LayOff) and a.rank != b.rank:
            return False
        return sorted(map(rank_of, a.cards)) == sorted(map(rank_of, b.cards))
    return a == b


def _resuit(action: Action, hand: list[int], rng: random.Random) -> Action:
    """The same meld, lay-off or take with other cards of the same rank from ``hand`` where the
    hand holds them (deuces and naturals of the meld's rank change suit)."""
    if not isinstance(action, (Meld, LayOff, TakePile)) or len(
            {rank_of(c) for c in action.cards if c != JOKER and rank_of(c) != 2}) > 1:
        return action
    left = hand[:]
    out = []
    for c in action.cards:
        if c == JOKER or rank_of(c) == 3:
            out.append(c)
            left[c] -= 1
            continue
        base = (rank_of(c) - 1) * 4
        choices = [base + k for k in range(4) if left[base + k]]
        pick = rng.choice(choices)
        left[pick] -= 1
        out.append(pick)
    cards = tuple(out)
    if isinstance(action, Meld):
        return Meld(cards)
    if isinstance(action, LayOff):
        return LayOff(action.rank, cards)
    return TakePile(cards)


def check_state(codec: ActionCodec, state: State, rng: random.Random) -> list[Action]:
    """The codec's invariants at ``state``; returns the legal actions."""
    actions = state.legal_actions()
    ids = [codec.encode(a) for a in actions]
    assert all(0 <= i < codec.size for i in ids)
    clash = {i for i in ids if ids.count(i) > 1}
    assert not clash, [a for a, i in zip(actions, ids, strict=True) if i in clash]
    mask = codec.legal_mask(state)
    assert len(mask) == codec.size
    assert sum(mask) == len(set(ids)) == len(actions)
    assert all(mask[i] == 1 for i in ids)
    hand = state.hands[state.actor]
    for a, i in zip(actions, ids, strict=True):
        back = codec.decode(i, state)
        assert back == a and state.can(back)
        other = _resuit(a, hand, rng)
        assert codec.encode(other) == i, (a, other)
        assert _same_up_to_suits(codec.decode(codec.encode(other), state), other)
    return actions


def play_out(rules: Rules, players: int, seed: int) -> int:
    codec = ActionCodec(rules, players)
    rng = random.Random(seed)
    for k in range(50):  # a misdeal (seed 000: three wild upcards) is dealt again
        try:
            state = State.deal(rules, players, seed=seed + k * 1_000_003)
            break
        except MisdealError:
            continue
    steps = 0
    while not state.is_over:
        actions = check_state(codec, state, rng)
        state.apply(rng.choice(actions))
        steps += 1
    assert codec.legal_mask(state) == bytes(codec.size)
    return steps


@pytest.mark.parametrize(("name", "opts", "players"), CASES)
def test_ids_round_trip_over_random_play(name: str, opts: dict[str, str], players: int) -> None:
    rules = load_preset(name, opts)
    assert play_out(rules, players, seed=players) > 0


@settings(max_examples=15, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6))
def test_ids_round_trip_property(case: tuple[str, dict[str, str], int], seed: int) -> None:
    name, opts, players = case
    play_out(load_preset(name, opts), players, seed)


@pytest.mark.parametrize("name", PRESETS)
def test_size_is_fixed_and_small(name: str) -> None:
    """The id space depends only on the rules and the player count: a few thousand ids, some
    tens of thousands where a meld has no wild-card maximum (Brazilian, seed 003 "può
    contenere carte jolly ma deve avere almeno due carte naturali")."""
    rules = load_preset(name)
    for players in rules.deal.player_counts:
        a, b = ActionCodec(rules, players), ActionCodec(load_preset(name), players)
        assert a.size == b.size == len(a.keys) and a.keys == b.keys
        assert a.size < (3000 if rules.melds.max_wilds <= 4 else 30000)
        assert len(set(a.keys)) == a.size


def test_layout_starts_with_the_fixed_actions() -> None:
    """docs/formats.md: ids 0-5 are draw, end-hand, ask-partner, answer yes/no, retract; 6-58
    the discards by card code."""
    codec = ActionCodec(load_preset("international"), 4)
    assert codec.encode(Draw()) == 0
    assert codec.encode(Answer(True)) == 3 and codec.encode(Answer(False)) == 4
    assert codec.encode(Discard(0)) == 6 and codec.encode(Discard(JOKER)) == 58
    assert codec.keys[codec.encode(parse_action("meld 9s 9d JK 2c"))] == ("meld", 9, 2, 1, 1)
    assert codec.keys[codec.encode(parse_action("take-pile 7h 2d"))] == ("take", 1, 0, 1)
    assert codec.keys[codec.encode(parse_action("lay-off 9 JK"))] == ("lay-off", 9, 0, 1, 0)


def test_discards_keep_the_suit() -> None:
    """Discards are exact: a black three (seed 002: "i 3 neri") stops, a red one may not."""
    codec = ActionCodec(load_preset("classic_italian", {"keep_red_threes": "true"}), 4)
    ids = {codec.encode(Discard(c)) for c in parse_cards("3s 3h 3d 3c Ks Kh")}
    assert len(ids) == 6


def test_encode_refuses_what_has_no_id() -> None:
    codec = ActionCodec(load_preset("international"), 4)
    with pytest.raises(ValueError, match="meld 9s 8s 7s"):
        codec.encode(parse_action("meld 9s 8s 7s"))  # two ranks, no sequence canastas here
    with pytest.raises(ValueError, match="meld JK JK 2c"):
        codec.encode(parse_action("meld JK JK 2c"))  # no wild melds in international
    with pytest.raises(ValueError, match="JK JK JK JK"):
        codec.encode(parse_action("meld 9s 9d JK JK JK JK"))  # over melds.max_wilds
    with pytest.raises(ValueError, match="lay-off"):
        codec.encode(LayOff(100, parse_cards("7s")))  # a sequence canasta takes no cards


def test_decode_refuses_ids_not_legal_now() -> None:
    rules = load_preset("international")
    codec = ActionCodec(rules, 4)
    state = State.deal(rules, 4, seed=3)
    with pytest.raises(ValueError, match="range"):
        codec.decode(codec.size, state)
    with pytest.raises(ValueError, match="range"):
        codec.decode(-1, state)
    with pytest.raises(IllegalActionError):
        codec.decode(codec.encode(Answer(True)), state)  # nobody asked
    state.apply(Draw())
    with pytest.raises(IllegalActionError):
        codec.decode(codec.encode(Draw()), state)  # drawn already
    nine = codec.encode(parse_action("meld 9s 9s 9s 9s 9s 9s 9s 9s"))
    with pytest.raises(IllegalActionError) as err:
        codec.decode(nine, state)
    assert err.value.rule == "cards"


def test_sequence_canasta_id_is_its_suit_and_high_card() -> None:
    """Seed 003_6aef22ca5c65dc7b.txt: "Canastra Real ... una sequenza naturale di sette carte
    tutte dello stesso seme (A-K-Q-J-10-9-8, per esempio)": suit and high card name it."""
    assert SEED_003.startswith("003")
    rules = load_preset("brazilian", {"canastra_real": "true"})
    run = "As Ks Qs Js 10s 9s 8s"
    state = deal_variant(rules, {1: f"{run} 9h 9d 9s 5c"}, "4c 9c")
    apply_all(state, "draw")
    codec = ActionCodec(rules, 4)
    i = codec.encode(parse_action(f"meld {run}"))
    assert codec.keys[i] == ("run", 0, 14)
    assert codec.decode(i, state) == parse_action(f"meld {run}")
    assert codec.legal_mask(state)[i] == 1
    hearts = codec.encode(parse_action("meld Ah Kh Qh Jh 10h 9h 8h"))
    low = codec.encode(parse_action("meld 10s 9s 8s 7s 6s 5s 4s"))
    assert len({i, hearts, low}) == 3


def test_declaring_kept_red_threes() -> None:
    """Seed 000 VARIANTI: "possibilità di trattenere in mano uno o più Tre rossi": a declaration
    is counted per red three (hearts, diamonds)."""
    codec = ActionCodec(load_preset("canastone", {"keep_red_threes": "true"}), 4)
    one = codec.keys[codec.encode(parse_action("meld 3h"))]
    two = codec.keys[codec.encode(parse_action("meld 3d 3h"))]
    assert one == ("declare", 1, 0) and two == ("declare", 1, 1)


def test_wild_melds_and_lay_offs() -> None:
    """Seed 000: "canasta di Joker e pinelle": a wild meld is (jokers, deuces), at most a
    canasta."""
    codec = ActionCodec(load_preset("canastone"), 4)
    assert codec.keys[codec.encode(parse_action("meld JK JK 2c"))] == ("wild-meld", 2, 1)
    assert codec.keys[codec.encode(parse_action("lay-off W 2h"))] == ("wild-lay-off", 0, 1)
    with pytest.raises(ValueError):
        codec.encode(parse_action("meld JK JK JK JK JK JK 2c 2c"))  # more than a canasta


def test_legal_mask_reads_only_the_legal_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    """The mask costs the legal actions, not the id space: a state with no legal action gives
    an all-zero mask without asking for more. (``State.legal_actions`` is patched, not
    overridden in a subclass: the compiled ``State`` takes no Python subclass.)"""
    rules = load_preset("international")
    codec = ActionCodec(rules, 2)
    calls = []

    def spy(self: State) -> list[Action]:
        calls.append(1)
        return [Draw()]

    state = State.deal(rules, 2, seed=1)
    monkeypatch.setattr(State, "legal_actions", spy)
    mask = codec.legal_mask(state)
    assert calls == [1] and mask[0] == 1 and sum(mask) == 1


def test_sizes_in_the_docs() -> None:
    """docs/formats.md "Action ids" gives each preset's size; they must be the codec's."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "formats.md").read_text()
    section = text.split("## Action ids", 1)[1].split("\n## ", 1)[0]
    for name, players in [("international", 4), ("canastone", 4), ("classic_italian", 4),
                          ("classic_italian", 6), ("brazilian", 4), ("brazilian", 6),
                          ("romanian", 4)]:
        size = ActionCodec(load_preset(name), players).size
        assert f"{size:,}" in section, (name, players, size)
    capped = load_preset("brazilian", {"max_wilds": "3"})
    for players in (4, 6):
        assert f"{ActionCodec(capped, players).size:,}" in section
