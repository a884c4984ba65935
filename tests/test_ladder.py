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


def test_a_variant_may_name_its_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    """``international:2`` plays two players whatever ``--players`` says, beside the
    four-player presets of the same run; a count that is not a number is refused by name."""
    code = ladder.main(["--variants", "international:2,canastone", "--deals", "1",
                        "--rungs", "easy/random"])
    assert code == 0
    printed = capsys.readouterr().out
    assert "| easy vs random | international:2 | 1 |" in printed
    assert "| easy vs random | canastone | 1 |" in printed
    [two] = ladder.play_ladder([(ladder.Rung("easy", "random"), "international:2", 1)])
    setup = DuplicateSetup(load_preset("international"), 2, seed=1)
    assert two.pairs[0].diff == run_deal_pairs(setup, "easy", "random", 1)[0].diff
    assert ladder.main(["--variants", "international:two", "--deals", "1"]) == 2
    assert "international:two" in capsys.readouterr().err


def test_every_rung_of_the_ladder_asks_for_the_lower_bound() -> None:
    """Each level against the one below: at least 60% with the 95% lower bound above 50%."""
    rungs = {(r.a, r.b): r for r in ladder.RUNGS}
    for pair in (("easy", "random"), ("medium", "easy"), ("hard", "medium"),
                 ("expert:time=1", "hard")):
        assert (rungs[pair].target, rungs[pair].lower_above) == (0.6, 0.5)


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
