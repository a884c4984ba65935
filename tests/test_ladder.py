"""The ladder benchmark (``python -m canasta.sim.ladder``) and the tuning script's measure
(``python -m canasta.sim.tune --measure``) work on a tiny slice: a couple of deals, figures
printed. Strength itself is measured by the commands, never asserted here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from canasta import load_preset
from canasta.sim import ladder, tune
from canasta.sim.duplicate import DuplicateSetup, run_deal_pairs
from canasta.sim.tournament import PairingResult, run_tournament


def test_the_ladder_prints_its_table_and_writes_json(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ladder.json"
    code = ladder.main(["--variants", "international", "--deals", "2", "--expert-deals", "1",
                        "--expert", "expert:iterations=1,width=2,depth=1",
                        "--rungs", "hard/greedy,expert/hard", "--players", "2",
                        "--json", str(out)])
    assert code == 0
    printed = capsys.readouterr().out
    assert "| hard vs greedy | international | 2 |" in printed
    assert "| expert:iterations=1,width=2,depth=1 vs hard | international | 1 |" in printed
    rows = json.loads(out.read_text())["rungs"]
    assert [r["deal_pairs"] for r in rows] == [2, 1]
    assert rows[0]["target"] == 0.6 and rows[1]["lower_above"] == 0.5
    assert rows[0]["a_median_ms"] > 0 and rows[0]["b_median_ms"] > 0


def test_the_ladder_plays_the_tournaments_deals() -> None:
    rung = ladder.Rung("medium", "easy")
    res = ladder.play_rung(rung, "international", 2, players=2, seed=5)
    setup = DuplicateSetup(load_preset("international"), 2, seed=5)
    assert res.pairs == run_deal_pairs(setup, "medium", "easy", 2)
    assert res.pairing == run_tournament(setup, ["medium", "easy"], 2).pairings[0]


def test_clocked_plays_time_each_decision_with_a_choice() -> None:
    setup = DuplicateSetup(load_preset("international"), 2, seed=3, clock=True)
    [pair] = run_deal_pairs(setup, "hard", "greedy", 1)
    assert pair.times("a") and pair.times("b")
    assert all(0 <= t < 1 for t in pair.times("a"))
    plain = DuplicateSetup(load_preset("international"), 2, seed=3)
    assert run_deal_pairs(plain, "hard", "greedy", 1)[0].times("a") == []


def test_tune_measures_with_the_duplicate_runner(capsys: pytest.CaptureFixture[str]) -> None:
    res = tune.measure("hard", "greedy", "international", 2, players=2, seed=4)
    setup = DuplicateSetup(load_preset("international"), 2, seed=4)
    assert res == PairingResult.of("hard", "greedy", run_deal_pairs(setup, "hard", "greedy", 2))
    tune.main(["--measure", "hard", "greedy", "--deals", "2", "--players", "2"])
    assert "hard vs greedy" in capsys.readouterr().out
