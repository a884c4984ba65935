"""The learned value (canasta.bots.learn): self-play shards, training, the shipped weights,
value(state, seat) and its batch form, and the expert's ``value=learned`` leaf. A tiny slice
of each command: 3 one-hand games, a few epochs."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from canasta import load_preset  # noqa: E402
from canasta.bots import make_bot  # noqa: E402
from canasta.bots.expert import Arm, ExpertBot, SearchResult, evaluate  # noqa: E402
from canasta.bots.learn import selfplay, train  # noqa: E402
from canasta.bots.learn.features import (  # noqa: E402
    FeatureError,
    extract,
    extract_many,
    feature_count,
    feature_names,
)
from canasta.bots.learn.model import WEIGHTS, WeightsError, load_models, save_models  # noqa: E402
from canasta.bots.learn.value import model_for, value, value_batch, win_chance  # noqa: E402
from canasta.core.actions import Action, Meld, Retract  # noqa: E402
from canasta.core.data import Phase  # noqa: E402
from canasta.core.match import Match  # noqa: E402
from canasta.core.state import State  # noqa: E402

SPEC = selfplay.GameSpec("international", 4, seed=3, sample=1.0, max_hands=1)


def _states(seed: int, moves: int, variant: str = "international", players: int = 4
            ) -> list[State]:
    """The states of a hand played by ``hard`` for at most ``moves`` actions."""
    state = Match(load_preset(variant), players, seed=seed).state
    bots = [make_bot("hard", seed + s) for s in range(players)]
    out = []
    for _ in range(moves):
        if state.is_over:
            break
        out.append(state.clone())
        state.apply(bots[state.actor].choose(state.view(state.actor)))
    return out


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("shards")
    selfplay.generate(SPEC, 3, out, shard=2)
    return out


def test_selfplay_writes_shards_with_seeds_and_targets(shards: Path) -> None:
    meta = json.loads((shards / "meta.json").read_text())
    assert (meta["variant"], meta["players"], meta["games"]) == ("international", 4, 3)
    assert meta["features"] == feature_names(4)
    paths = sorted(shards.glob("shard-*.npz"))
    assert [p.name for p in paths] == ["shard-00000.npz", "shard-00002.npz"]
    with np.load(paths[0]) as z:
        assert list(z["seeds"]) == [selfplay.game_seed(3, 0), selfplay.game_seed(3, 1)]
        x, diff, ev, seat = z["x"], z["diff"], z["evaluate"], z["seat"]
        games, seeds = z["game"], z["seeds"]
    assert x.shape == (len(diff), feature_count(4)) and len(diff) > 10
    assert set(np.unique(games)) == set(seeds)
    # the rows come in pairs: the seat to play and the next seat, opposite sides, so with
    # two sides the hand's difference and the hand-written evaluation change sign
    assert np.array_equal(diff[0::2], -diff[1::2])
    assert np.allclose(ev[0::2], -ev[1::2])
    assert np.array_equal((seat[0::2] + 1) % 4, seat[1::2])
    # the targets are the hand's final difference: one value per game and side
    game_rows = diff[0::2][games[0::2] == seeds[0]]
    assert len(set(np.abs(game_rows).tolist())) == 1


def test_a_game_depends_only_on_its_number() -> None:
    a = selfplay.play_game(SPEC, 1)
    b = selfplay.play_games(SPEC, [0, 1])
    n = len(a["diff"])
    assert np.array_equal(b["x"][-n:], a["x"]) and np.array_equal(b["diff"][-n:], a["diff"])


def test_selfplay_command_refuses_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                            ) -> None:
    assert selfplay.main(["--games", "0", "--out", str(tmp_path / "x")]) == 2
    assert "games" in capsys.readouterr().err
    assert selfplay.main(["--players", "7", "--games", "1", "--out", str(tmp_path)]) == 2
    assert not (tmp_path / "meta.json").exists()


def test_train_on_the_slice_predicts_finite_values(shards: Path, tmp_path: Path) -> None:
    rows = train.load_shards([shards])["international-4"]
    model, losses, wins = train.train_pair(rows, hidden=4, epochs=2)
    names = [name for name, _ in losses]
    assert names[0].startswith("mean") and any(n.startswith("evaluate") for n in names)
    assert names[-1].startswith("mlp") and all(math.isfinite(v) for _, v in losses + wins)
    pred = model.predict(rows["x"].astype(np.float64))
    assert pred.shape == (len(rows["diff"]),) and np.isfinite(pred).all()
    # batch equals single, and the file round-trips (float32, so to about 1e-3 points)
    assert float(model.predict(rows["x"][5].astype(np.float64))) == pytest.approx(pred[5])
    path = tmp_path / "w.npz"
    save_models({"international-4": model}, path)
    again = load_models(path, {4: feature_count(4)})["international-4"]
    assert np.allclose(again.predict(rows["x"].astype(np.float64)), pred, atol=0.05)
    assert 0 <= float(again.predict_win(rows["x"][0].astype(np.float64))) <= 1


def test_train_command_updates_the_weights_file(shards: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "w.npz"
    assert train.main([str(shards), "--out", str(out), "--epochs", "1", "--hidden", "4"]) == 0
    text = capsys.readouterr().out
    assert "held out" in text and "evaluate, fit on training" in text and "mlp" in text
    assert set(load_models(out)) == {"international-4"}
    assert train.main([str(tmp_path / "nothing")]) == 2
    assert "meta.json" in capsys.readouterr().err


def test_a_weights_file_of_another_width_is_refused(shards: Path, tmp_path: Path) -> None:
    rows = train.load_shards([shards])["international-4"]
    model, _, _ = train.train_pair(rows, hidden=2, epochs=1, model="ridge")
    path = tmp_path / "w.npz"
    save_models({"international-4": model}, path)
    with pytest.raises(WeightsError, match="international-4.*171"):
        load_models(path, {4: 171})


def test_shipped_weights_fit_the_extractor() -> None:
    models = load_models(WEIGHTS, {p: feature_count(p) for p in range(2, 7)})
    assert "international-4" in models
    assert WEIGHTS.stat().st_size < 3_000_000
    for key, m in models.items():
        assert m.features == feature_count(int(key.rsplit("-", 1)[1]))
        assert m.has_win


def test_value_batch_equals_value_and_a_finished_hand_is_exact() -> None:
    states = _states(11, 400)
    assert states[-1].is_over is False
    seats = [s.actor for s in states]
    batch = value_batch(states, seats)
    single = [value(s, seat) for s, seat in zip(states, seats, strict=True)]
    assert np.allclose(batch, single) and np.isfinite(batch).all()
    assert 0 <= win_chance(states[0], 0) <= 1
    end = states[-1].clone()
    while not end.is_over:
        end.apply(make_bot("hard", 1).choose(end.view(end.actor)))
    assert value(end, 0) == evaluate(end, 0)
    assert value_batch([end, states[3]], [1, 1])[0] == evaluate(end, 1)


def test_value_refuses_a_bad_seat_and_unknown_rules() -> None:
    state = _states(2, 1)[0]
    with pytest.raises(FeatureError, match="seat 4"):
        value(state, 4)
    with pytest.raises(ValueError, match="2 states but 1 seats"):
        value_batch([state, state], [0])
    assert model_for(load_preset("international"), 4) is not None
    assert model_for(load_preset("international"), 5) is None


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(1, 120),
       variant=st.sampled_from(["international", "classic_italian", "romanian"]))
def test_features_see_the_table_from_either_side(seed: int, moves: int, variant: str) -> None:
    """Invariant: with two sides, a side's block seen from one side is the other block seen
    from the other (the vector is relative to the side, not to seat numbers)."""
    state = _states(seed, moves, variant)[-1]
    half = (feature_count(4) - len(_shared(4))) // 2
    a, b = extract(state, 0), extract(state, 1)
    assert a.shape == (feature_count(4),) and np.isfinite(a).all()
    assert np.array_equal(a[:half], b[half:2 * half])
    assert np.array_equal(a[half:2 * half], b[:half])
    # the seats of one side see the same blocks; only the seat to play is relative
    c = extract(state, 2)
    assert np.array_equal(a[:2 * half], c[:2 * half])
    # the two sides' hands are every hand (nothing read twice or left out)
    names = feature_names(4)
    held = a[names.index("mine.hand_cards")] + a[names.index("others.hand_cards")]
    assert held == sum(sum(h) for h in state.hands)


def _shared(players: int) -> list[str]:
    return [n for n in feature_names(players) if not n.startswith(("mine.", "others."))]


def test_extract_many_checks_its_batch() -> None:
    two = _states(5, 1, "international", 2)[0]
    four = _states(5, 1)[0]
    with pytest.raises(ValueError, match="player counts"):
        extract_many([two, four], [0, 0])
    assert extract_many([four, four], [0, 1]).shape == (2, feature_count(4))


def test_expert_with_the_learned_value_plays_legal_moves() -> None:
    bot = make_bot("expert:iterations=2,value=learned", 7)
    assert "value='learned'" in repr(bot)
    state = Match(load_preset("international"), 4, seed=9).state
    for _ in range(30):
        view = state.view(state.actor)
        action = bot.choose(view) if state.actor == 0 else \
            view.legal_actions[random.Random(len(state.events)).randrange(
                len(view.legal_actions))]
        assert action in view.legal_actions
        state.apply(action)
    with pytest.raises(ValueError, match="value"):
        make_bot("expert:value=oracle", 1)


def _short_opening() -> tuple[State, Meld]:
    """A state where the seat to play can lay down a meld short of its opening minimum
    (which it may then retract), from hands played by ``hard``."""
    for seed in range(200):
        for state in _states(seed, 200):
            if state.phase is not Phase.PLAY or state.opened[state.team_of[state.actor]]:
                continue
            for a in state.legal_actions():
                if isinstance(a, Meld):
                    after = state.clone()
                    after.apply(a)
                    if any(isinstance(b, Retract) for b in after.legal_actions()):
                        return state, a
    raise AssertionError("no short opening found")


def test_the_expert_does_not_meld_again_what_it_retracted_this_turn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The loop seen in deal 0 of seed 2 (international, 4 experts with the learned value):
    meld Qh Qc 2s, retract, meld Qh Qc 2s, ... until the hand's action limit."""
    state, meld = _short_opening()
    bot = make_bot("expert:iterations=1", 3)
    assert isinstance(bot, ExpertBot)
    wanted: list[Action] = []
    monkeypatch.setattr(bot.searcher, "search", lambda view, seed, **kw: SearchResult(
        [Arm(wanted[0], [0.0], [0.0])], 1, 0.0))
    wanted[:] = [meld]
    assert bot.choose(state.view(state.actor)) == meld  # before any retract: played
    state.apply(meld)
    retract = next(a for a in state.legal_actions() if isinstance(a, Retract))
    wanted[:] = [retract]
    assert bot.choose(state.view(state.actor)) == retract
    state.apply(retract)
    wanted[:] = [meld]
    again = bot.choose(state.view(state.actor))
    assert again in state.legal_actions() and not isinstance(again, (Meld, Retract))


def test_branch_rows_share_a_root_and_train_jointly(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from canasta.bots.learn import branches

    out = tmp_path / "br"
    assert branches.main(["--games", "3", "--shard", "2", "--sample", "0.15", "--seed", "5",
                          "--out", str(out)]) == 0
    rows = train.load_shards([out])["international-4" + train.BRANCHES]
    roots, counts = np.unique(rows["root"], return_counts=True)
    assert len(roots) >= 3 and counts.max() > 1  # several candidates from one decision
    assert rows["x"].shape == (len(rows["diff"]), feature_count(4))
    model, table = train.train_branches(rows)
    assert [name for name, _, _ in table][0].startswith("evaluate")
    assert all(math.isfinite(a) and math.isfinite(b) for _, a, b in table)
    assert np.isfinite(model.predict(rows["x"].astype(np.float64))).all()
    # the differences within a decision are fitted: centring the rows of each root gives
    # zero mean differences
    dz, dy = train._within(rows["root"].astype(np.int64), rows["x"].astype(np.float64),
                           rows["diff"].astype(np.float64))
    assert abs(dy.sum()) < 1e-3 and np.allclose(dz.sum(axis=0), 0, atol=1e-6)
    weights = tmp_path / "w.npz"
    assert train.main([str(out), "--out", str(weights)]) == 0
    assert "rmse differences" in capsys.readouterr().out
    assert set(load_models(weights)) == {"international-4"}
