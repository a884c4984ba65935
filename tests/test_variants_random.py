"""Random play of every seed variant: each preset at each of its player counts (six players as
two teams of three and as three pairs), and each of its house rules, played by a seeded random
bot. The engine's invariants hold at every step (DESIGN.md): every physical card is in exactly
one place, a state not over always has a legal action, every legal action applies, every hand
ends, and the score sheets add up."""

from __future__ import annotations

import random

import pytest

from canasta import Match, State, load_preset, preset_options
from canasta.bots import RandomBot
from helpers import check_conservation, check_score_sheets

VARIANTS = ("canastone", "classic_italian", "brazilian", "romanian")
#: A random hand is long but finite; no hand of these tests comes near this.
MAX_ACTIONS = 5000


def _forms(name: str) -> list[tuple[int, int | None]]:
    out: list[tuple[int, int | None]] = []
    for n in load_preset(name).deal.player_counts:
        out.append((n, None))
        if n == 6:
            out.append((6, 2))
    return out


def play_hand(state: State, seed: int, probe: int = 3) -> int:
    """Play ``state`` to its end with random legal actions, checking the invariants at every
    step and applying ``probe`` other legal actions to copies. Returns the number of actions."""
    rng = random.Random(seed)
    steps = 0
    while not state.is_over:
        actions = state.legal_actions()
        assert actions, f"no legal action in {state!r}"
        for other in rng.sample(actions, min(probe, len(actions))):
            trial = state.clone()
            trial.apply(other)
            check_conservation(trial)
        state.apply(rng.choice(actions))
        check_conservation(state)
        steps += 1
        assert steps < MAX_ACTIONS, f"the hand does not end: {state!r}"
    assert state.legal_actions() == []
    check_score_sheets(state)
    return steps


CASES = [(name, players, team_size) for name in VARIANTS for players, team_size in _forms(name)]


@pytest.mark.parametrize(("name", "players", "team_size"), CASES)
def test_random_hands_every_player_count(name: str, players: int, team_size: int | None) -> None:
    rules = load_preset(name)
    for seed in range(2):
        state = State.deal(rules, players, seed=seed * 7 + players, team_size=team_size)
        check_conservation(state)
        play_hand(state, seed)


OPTION_CASES = [
    (name, option, choice)
    for name in VARIANTS
    for option, spec in preset_options(name).items()
    for choice in spec.choices
    if choice != spec.default
]


@pytest.mark.parametrize(("name", "option", "choice"), OPTION_CASES)
def test_random_hand_with_each_house_rule(name: str, option: str, choice: str) -> None:
    rules = load_preset(name, {option: choice})
    players = 4 if 4 in rules.deal.player_counts else rules.deal.player_counts[0]
    seed = sum(map(ord, option + choice))
    state = State.deal(rules, players, seed=seed)
    play_hand(state, seed, probe=1)


@pytest.mark.parametrize("name", VARIANTS)
def test_random_match_hands_are_scored_and_dealt_on(name: str) -> None:
    """A few hands of a match: each is scored into the match totals and the deal passes on."""
    rules = load_preset(name)
    match = Match(rules, 4, seed=5)
    bots = [RandomBot(seed=i) for i in range(4)]
    for _ in range(3):
        state = match.state
        steps = 0
        while not state.is_over:
            state.apply(bots[state.actor].choose(state.view(state.actor)))
            steps += 1
            assert steps < MAX_ACTIONS
        before = list(match.scores)
        sheets = match.finish_hand()
        assert [b + s.hand_total for b, s in zip(before, sheets, strict=True)] == match.scores
        if match.is_over:
            break
        dealer = match.dealer
        match.next_hand()
        assert match.dealer == (dealer + 1) % 4
