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
    bench.main(["--rounds", "1", "--hands", "1"])
    out = capsys.readouterr().out
    kind = "compiled" if canasta.core.COMPILED else "pure Python"
    assert f"({kind} core" in out
    for label in ("decisions/s international", "decisions/s canastone",
                  "legal_actions() 11 cards", "legal_actions() 30 cards", "apply()",
                  "clone() after 10 / 150 decisions", "bytes"):
        assert label in out


def test_cpu_clock_times_ours_and_the_baseline(capsys: pytest.CaptureFixture[str]) -> None:
    """``--cpu`` times our play-outs and a baseline subprocess's (here: this package's own
    pure core) by CPU time, and says so."""
    import os

    here = os.path.dirname(os.path.dirname(os.path.abspath(bench.__file__)))
    n, secs = bench.baseline_run(os.path.dirname(here), "international", 1, 2, seed=0,
                                 pure=True, cpu=True)
    assert n > 20 and secs > 0
    bench.main(["--rounds", "1", "--hands", "1", "--cpu"])
    assert "play-outs timed by CPU time" in capsys.readouterr().out
