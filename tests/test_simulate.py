"""canasta.sim.simulate and `canasta simulate`: the figures add up, runs reproduce, failures
count."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from canasta import load_preset
from canasta.bots import BOTS
from canasta.cli import _register as register_commands
from canasta.cli import app
from canasta.core.actions import Action, Discard
from canasta.core.state import View
from canasta.sim.simulate import END_REASONS, SimStats, parse_bots, simulate

register_commands()
runner = CliRunner()
RULES = load_preset("international")


@pytest.fixture(scope="module")
def run() -> SimStats:
    return simulate(RULES, 30, "random", seed=11)


def test_the_figures_add_up(run: SimStats) -> None:
    assert run.errors == 0, run.error_messages
    assert run.hands == 30 and run.hands_played == 30
    assert sum(run.end_reasons.values()) == run.hands_played
    assert set(END_REASONS) <= set(run.end_reasons)
    assert sum(run.hand_wins) + run.hand_ties == run.hands_played
    assert run.teams == [[0, 2], [1, 3]] and run.bots == ["random"] * 4
    assert [round(m * run.hands_played) for m in run.mean_scores] == run.total_scores
    assert run.mean_turns * run.hands_played == run.turns
    # Every turn has at least a draw and a discard (or ends the hand), never more than the
    # actions played.
    assert run.turns < run.actions <= 40 * run.turns
    assert run.canastas_per_hand == pytest.approx(sum(run.canastas) / 30)
    assert sum(run.match_wins) == run.matches_finished
    assert run.went_out_concealed <= run.end_reasons["went_out"]


def test_a_seeded_run_reproduces(run: SimStats) -> None:
    again = simulate(RULES, 30, "random", seed=11).to_dict()
    first = run.to_dict()
    first.pop("seconds")
    again.pop("seconds")
    assert again == first
    other = simulate(RULES, 30, "random", seed=12).to_dict()
    assert other["total_scores"] != first["total_scores"]


def test_unseeded_run_reports_its_seed() -> None:
    stats = simulate(RULES, 2, "random")
    again = simulate(RULES, 2, "random", seed=stats.seed)
    assert again.total_scores == stats.total_scores
    assert again.actions == stats.actions


def test_progress_is_reported_after_each_hand() -> None:
    seen: list[int] = []
    simulate(RULES, 4, "random", seed=1, progress=seen.append)
    assert seen == [1, 2, 3, 4]


def test_matches_are_played_to_a_winner() -> None:
    rules = load_preset("international", {"end.target": 300})
    stats = simulate(rules, 12, "random", seed=3)
    assert stats.errors == 0
    assert stats.matches_finished >= 1
    assert sum(stats.match_wins) == stats.matches_finished


def test_bot_lists() -> None:
    assert parse_bots("random", 4) == ["random"] * 4
    assert parse_bots("Random, random", 2) == ["random", "random"]
    with pytest.raises(ValueError, match="expected 1 or 4 names"):
        parse_bots("random,random", 4)
    with pytest.raises(ValueError, match="unknown bot 'nobot'"):
        parse_bots("nobot", 4)
    with pytest.raises(ValueError, match="not 5"):
        simulate(RULES, 1, "random", players=5)


class CheatBot:
    """Discards a card it does not hold: the engine refuses it."""

    name = "cheat"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, view: View) -> Action:
        missing = next(c for c in range(52) if c not in view.hand)
        return Discard(missing)


def test_a_failing_bot_counts_as_an_error_and_the_run_goes_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "cheat", CheatBot)
    stats = simulate(RULES, 3, "cheat", seed=1)
    assert stats.errors == 3 and stats.hands_played == 0
    assert sum(stats.end_reasons.values()) + stats.errors == stats.hands
    assert "IllegalActionError" in stats.error_messages[0]
    assert stats.mean_scores == [0.0, 0.0]


def test_a_hand_that_runs_too_long_is_cut_off() -> None:
    stats = simulate(RULES, 2, "random", seed=1, max_actions=5)
    assert stats.errors == 2 and stats.hands_played == 0
    assert "did not end in 5 actions" in stats.error_messages[0]
    assert stats.actions == 0 and stats.turns == 0  # a failed hand leaves no partial figures


def test_cli_json_summary() -> None:
    result = runner.invoke(app, ["simulate", "-n", "6", "--bots", "random", "--seed", "4",
                                 "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["hands"] == 6 and data["errors"] == 0
    assert sum(data["end_reasons"].values()) == 6
    direct = simulate(RULES, 6, "random", seed=4)
    assert data["total_scores"] == direct.total_scores


def test_cli_table_summary_and_errors() -> None:
    result = runner.invoke(app, ["simulate", "-n", "3", "--bots", "random,random,random,random",
                                 "--seed", "2", "--players", "4"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "3 hands of international, 4 players (seed 2)" in out
    assert "ended: went out" in out and "ended: stock exhausted" in out
    assert "errors" in out
    bad = runner.invoke(app, ["simulate", "-n", "3", "--rule", "nonsense=1"])
    assert bad.exit_code == 2
    assert "unknown rule 'nonsense'" in " ".join(bad.output.split())
    bad = runner.invoke(app, ["simulate", "-n", "3", "--bots", "random,random"])
    assert bad.exit_code == 2
