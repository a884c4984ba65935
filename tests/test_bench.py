"""The benchmark's helpers (``python -m canasta.bench``): the states it times are what they
claim, and a tiny run prints every figure, naming the core that ran."""

from __future__ import annotations

import pytest

import canasta.core
from canasta.core.data import Phase
from canasta.sim import bench
from helpers import check_conservation


@pytest.mark.parametrize("size", [11, 30])
def test_state_with_hand_has_that_many_cards(size: int) -> None:
    s = bench.state_with_hand("international", size)
    assert s.phase is Phase.PLAY and s.hand_size[s.actor] == size
    assert sum(s.hands[s.actor]) == size
    check_conservation(s)
    assert s.legal_actions()


def test_tiny_run_prints_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    bench.main(["--rounds", "1", "--hands", "1", "--sample-seconds", "0.005"])
    out = capsys.readouterr().out
    kind = "compiled" if canasta.core.COMPILED else "pure Python"
    assert f"({kind} core" in out
    for label in ("decisions/s international", "decisions/s canastone",
                  "legal_actions() 11 cards", "legal_actions() 30 cards", "apply()",
                  "clone() after 10 / 150 decisions", "bytes",
                  "slowest 1% of international hands", "everything timed by CPU time"):
        assert label in out


def test_wall_clock_is_chosen_once_for_everything(capsys: pytest.CaptureFixture[str]) -> None:
    bench.main(["--rounds", "1", "--hands", "1", "--wall", "--sample-seconds", "0.005"])
    assert "everything timed by the wall clock" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        bench.main(["--cpu", "--wall"])


def test_tail_is_the_slowest_share_and_its_part_of_the_time() -> None:
    mean, part = bench.tail([1.0] * 99 + [101.0])
    assert mean == 101.0 and part == pytest.approx(101.0 / 200.0)
    mean, part = bench.tail([2.0, 1.0])  # fewer than 100 hands: the slowest one
    assert mean == 2.0 and part == pytest.approx(2.0 / 3.0)


def test_micro_timing_repeats_until_the_clock_can_measure_it() -> None:
    calls = [0]

    def fn() -> None:
        calls[0] += 1

    ticks = iter(range(10**9))
    us = bench.time_us(fn, clock=lambda: next(ticks) * 1e-3, samples=3, min_seconds=0.02)
    # A fake clock that ticks 1 ms per reading: the count doubles until a sample spans a
    # quarter of min_seconds, so every sample spans many ticks.
    assert calls[0] > 3 * 8 and us > 0


def test_bot_bench_times_every_level_it_is_given(capsys: pytest.CaptureFixture[str]) -> None:
    from canasta.sim import botbench

    botbench.main(["--positions", "2", "--levels", "random,greedy,expert:iterations=2"])
    out = capsys.readouterr().out
    assert "random" in out and "greedy" in out
    assert "deals per decision: median 2" in out
    with pytest.raises(ValueError):
        botbench.main(["--levels", "nosuchbot"])


def test_cpu_clock_times_ours_and_the_baseline(capsys: pytest.CaptureFixture[str]) -> None:
    """``--cpu`` times our play-outs and a baseline subprocess's (here: this package's own
    pure core) by CPU time, and says so."""
    import os

    here = os.path.dirname(os.path.dirname(os.path.abspath(bench.__file__)))
    n, secs = bench.baseline_run(os.path.dirname(here), "international", 1, 2, seed=0,
                                 pure=True, cpu=True)
    assert n > 20 and secs > 0
    bench.main(["--rounds", "1", "--hands", "1", "--cpu", "--sample-seconds", "0.005"])
    out = capsys.readouterr().out
    assert "everything timed by CPU time" in out and "samples of 0.005 s" in out
