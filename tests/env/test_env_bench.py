"""``python -m canasta.env.bench`` runs and prints its figures (no speed is asserted)."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")

from canasta.env.bench import env_run, main, observe_run, view_run  # noqa: E402


def test_bench_prints_the_three_rates_and_the_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--rounds", "1", "--hands", "1", "--players", "2"])
    out = capsys.readouterr().out
    for label in ("raw engine decisions/s", "engine + one view/decision",
                  "raw_env observe + step/s", "PettingZoo env steps/s",
                  "the same, mask.nonzero()", "env / engine"):
        assert label in out


def test_env_and_view_loops_play_whole_hands() -> None:
    steps, secs = env_run("international", 1, 2, seed=0)
    decisions, _ = view_run("international", 1, 2, seed=0)
    direct, _ = observe_run("international", 1, 2, seed=0)
    assert steps > 20 and decisions > 20 and secs > 0
    assert direct == steps  # the same hand and choices, without PettingZoo's agent loop


def test_env_loops_play_the_engine_loops_games() -> None:
    """With the engine's plan the env loops make the engine loop's decisions on its deals:
    the same number of decisions in every loop, hand by hand."""
    from canasta.env.bench import engine_plan, playout_run

    plan = engine_plan("international", 2, 2, seed=1)
    decisions, _ = playout_run("international", 2, 2, seed=1)
    viewed, _ = view_run("international", 2, 2, seed=1)
    direct, _ = observe_run("international", 2, 2, seed=1, plan=plan)
    steps, _ = env_run("international", 2, 2, seed=1, plan=plan)
    assert decisions == viewed == direct == steps == sum(map(len, plan)) > 40


def test_bench_runs_with_independent_choices(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--rounds", "1", "--hands", "1", "--players", "2", "--independent", "--cpu"])
    assert "independent choices" in capsys.readouterr().out
