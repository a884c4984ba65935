"""The OpenSpiel game python_canasta: registration, GameType/GameInfo, OpenSpiel's own random
simulation test with serialization, information sets and resampling, ISMCTS playing a hand."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")

import canasta.env.openspiel  # noqa: E402,F401  (registers python_canasta)
from canasta.core.codec import ActionCodec  # noqa: E402
from canasta.core.rules import load_preset  # noqa: E402


def _decision_state(game, seed: int, decisions: int):
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    done = 0
    while not state.is_terminal() and done < decisions:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=False)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
            done += 1
    return state


def test_registered_with_the_right_game_type_and_info() -> None:
    assert "python_canasta" in pyspiel.registered_names()
    game = pyspiel.load_game("python_canasta(players=2)")
    gt = game.get_type()
    assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert gt.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert gt.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert (gt.min_num_players, gt.max_num_players) == (2, 6)
    assert game.num_players() == 2
    assert game.num_distinct_actions() == ActionCodec(load_preset("international"), 2).size
    assert game.max_chance_outcomes() == 53
    romanian = pyspiel.load_game("python_canasta", {"variant": "romanian", "players": 3})
    assert romanian.num_players() == 3


def test_random_sim_test_with_serialization() -> None:
    game = pyspiel.load_game("python_canasta", {"players": 2})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_random_sim_test_six_players_with_options() -> None:
    game = pyspiel.load_game("python_canasta", {
        "variant": "canastone", "players": 6, "team_size": 2,
        "options": "keep_red_threes:true;ask_partner:true"})
    assert game.num_players() == 6
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_strings_and_tensors_come_from_the_view() -> None:
    game = pyspiel.load_game("python_canasta", {"players": 4})
    state = _decision_state(game, 1, 40)
    p = state.current_player()
    assert len(state.observation_tensor(p)) == game.observation_tensor_size()
    assert len(state.information_state_tensor(p)) == game.information_state_tensor_size()
    # a state dealt from p's information set looks the same to p, and differs elsewhere
    other = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.information_state_string(p) == state.information_state_string(p)
    assert other.observation_tensor(p) == state.observation_tensor(p)
    assert other.legal_actions() == state.legal_actions()
    q = (p + 1) % 4
    assert other.canasta_state.hands[q] != state.canasta_state.hands[q]


def test_serialize_round_trip_keeps_the_hand() -> None:
    game = pyspiel.load_game("python_canasta", {"players": 2})
    state = _decision_state(game, 2, 30)
    again = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state))[1]
    assert str(again) == str(state)
    assert again.history() == state.history()
    assert again.legal_actions() == state.legal_actions()


def test_openspiel_ismcts_plays_a_complete_hand() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_canasta", {"players": 2})
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(1, rng, max_length=8)
    bot = ismcts.ISMCTSBot(game, evaluator, 500.0, 3, random_state=rng)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=False)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(bot.step(state)))
            decisions += 1
    assert decisions > 10
    assert sum(state.returns()) == 0 and state.returns()[0] != 0


@pytest.mark.parametrize("variant,players", [
    (v, p) for v in ("international", "canastone", "classic_italian", "brazilian", "romanian")
    for p in load_preset(v).deal.player_counts])
def test_every_preset_and_player_count_loads_and_plays(variant: str, players: int) -> None:
    game = pyspiel.load_game("python_canasta", {"variant": variant, "players": players})
    assert game.num_players() == players
    assert game.num_distinct_actions() == ActionCodec(load_preset(variant), players).size
    state = _decision_state(game, 5, 30)
    assert not state.is_chance_node()
    p = state.current_player()
    assert len(state.observation_tensor(p)) == game.observation_tensor_size()
