"""OpenSpiel's ISMCTS as the registered bot openspiel-ismcts: lazy registration, legal choices
from a view, a duplicate deal pair of the tournament."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("pyspiel")

from canasta.bots import bot_info, make_bot  # noqa: E402
from canasta.core.rules import load_preset  # noqa: E402
from canasta.core.state import State  # noqa: E402
from canasta.sim.duplicate import DuplicateSetup, run_deal_pairs  # noqa: E402

FAST = "openspiel-ismcts:iterations=3,rollout_length=4"


def test_listing_bots_does_not_import_pyspiel() -> None:
    code = ("import sys; from canasta.bots import bot_names; "
            "assert 'openspiel-ismcts' in bot_names(); print('pyspiel' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_params_are_declared() -> None:
    names = {p.name for p in bot_info("openspiel-ismcts").all_params()}
    assert {"time", "iterations", "uct_c", "rollouts", "rollout_length", "seed"} <= names
    with pytest.raises(ValueError):
        make_bot("openspiel-ismcts:iterations=0")


def test_chooses_legal_actions_from_the_view() -> None:
    state = State.deal(load_preset("international"), 4, seed=2)
    bot = make_bot(FAST, 1)
    for _ in range(25):
        view = state.view(state.actor)
        action = bot.choose(view)
        assert action in view.legal_actions
        state.apply(action)
        if state.is_over:
            break


def test_plays_a_tournament_deal_pair() -> None:
    setup = DuplicateSetup(load_preset("international"), players=2, seed=1)
    pairs = run_deal_pairs(setup, FAST, "random", 1)
    assert len(pairs) == 1 and pairs[0].winner in ("a", "b", "tie")


def _moves(seed: int) -> list[object]:
    state = State.deal(load_preset("international"), 2, seed=5)
    bots = [make_bot("openspiel-ismcts:iterations=8,rollout_length=6", seed + s)
            for s in range(2)]
    moves = []
    for _ in range(30):
        if state.is_over:
            break
        action = bots[state.actor].choose(state.view(state.actor))
        moves.append(action)
        state.apply(action)
    return moves


def test_same_seed_same_moves() -> None:
    """With an iteration budget the search is reproducible from its seed: every resampled
    deal comes from the bot's seeded source, not OpenSpiel's unseeded sampler."""
    assert _moves(3) == _moves(3)


def test_bot_playouts_value_a_state_by_the_hand_played_to_its_end() -> None:
    from canasta.env.ismcts import BotPlayoutEvaluator, game_for
    from canasta.env.openspiel import CanastaState

    rules = load_preset("international")
    state = State.deal(rules, 2, seed=4)
    root = CanastaState(game_for(rules, 2, None))
    root.hand.state = state.clone()
    values = BotPlayoutEvaluator("greedy", seed=1).evaluate(root)
    # a finished hand's returns: one side's gain is the other's loss, and not all zero (the
    # play-out reached the end: a cut play-out would be worth 0 to both)
    assert len(values) == 2 and values[0] == -values[1] and values[0] != 0
    again = BotPlayoutEvaluator("greedy", seed=1).evaluate(root)
    assert list(again) == list(values)
    assert not root.hand.state.is_over  # the play-out ran on a copy
    prior = BotPlayoutEvaluator("greedy", seed=1).prior(root)
    assert abs(sum(p for _a, p in prior) - 1.0) < 1e-9


def test_a_bot_playout_search_chooses_legal_moves_and_counts_its_simulations() -> None:
    state = State.deal(load_preset("international"), 2, seed=6)
    bot = make_bot("openspiel-ismcts:iterations=4,playout=greedy", 2)
    chose = 0
    for _ in range(12):
        view = state.view(state.actor)
        action = bot.choose(view)
        assert action in view.legal_actions
        if len(view.legal_actions) > 1:
            assert bot.last_simulations == 4
            chose += 1
        state.apply(action)
    assert chose
    with pytest.raises(ValueError, match="playout"):
        make_bot("openspiel-ismcts:playout=expert")
