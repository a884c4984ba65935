"""canasta.sim.tournament and `canasta tournament`: round robins on the same deals, Wilson
intervals, openskill ratings, the JSON document, worker processes and Ray giving the same
results, and bad input refused with a clear message."""

from __future__ import annotations

import json
import math
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from canasta import load_preset
from canasta.bots import BOTS, Bot
from canasta.cli import _register as register_commands
from canasta.cli import app
from canasta.core.actions import Action
from canasta.core.state import View
from canasta.formats.jsondoc import schema
from canasta.sim.duplicate import DuplicateSetup, run_deal_pairs
from canasta.sim.tournament import TournamentResult, rate_bots, run_tournament, wilson

register_commands()
runner = CliRunner()
# Two players: the shortest hands, so the whole file stays within a few seconds.
SETUP = DuplicateSetup(load_preset("international"), 2, seed=7)


class FirstBot:
    """Always the first legal action (a third, deterministic bot for the round robin)."""

    name = "first"

    def __init__(self, seed: int | None = None) -> None:
        pass

    def choose(self, view: View) -> Action:
        return view.legal_actions[0]


@pytest.fixture()
def first_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    def build(seed: int | None = None) -> Bot:
        return FirstBot(seed)

    monkeypatch.setitem(BOTS, "first", build)


@pytest.fixture(scope="module")
def two() -> TournamentResult:
    return run_tournament(SETUP, ["greedy", "random"], 6)


# -- interval math --------------------------------------------------------------------------


def test_wilson_matches_the_closed_forms() -> None:
    lo, hi = wilson(60, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.5020, 0.6906)
    # No successes: the lower bound is 0 and the upper z² / (n + z²).
    z2 = 1.959963984540054 ** 2
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(z2 / (10 + z2))
    lo, hi = wilson(10, 10)
    assert hi == pytest.approx(1.0) and lo == pytest.approx(10 / (10 + z2))
    # Symmetric around a half, narrower with more trials, always holding the estimate.
    lo, hi = wilson(5, 10)
    assert lo + hi == pytest.approx(1.0)
    assert wilson(50, 100)[0] > lo
    for k, n in [(0, 1), (1, 3), (7.5, 20), (199, 200)]:
        lo, hi = wilson(k, n)
        assert 0 <= lo <= k / n <= hi <= 1


def test_wilson_refuses_impossible_counts() -> None:
    with pytest.raises(ValueError, match="at least one trial"):
        wilson(0, 0)
    with pytest.raises(ValueError, match="outside"):
        wilson(11, 10)


# -- the round robin --------------------------------------------------------------------------


def test_pairings_count_the_deal_pairs(two: TournamentResult) -> None:
    [p] = two.pairings
    assert (p.a, p.b, p.deal_pairs) == ("greedy", "random", 6)
    assert p.a_wins + p.b_wins + p.ties == 6
    pairs = run_deal_pairs(SETUP, "greedy", "random", 6)
    assert two.pairs == pairs
    assert p.a_wins == sum(x.winner == "a" for x in pairs)
    assert p.ties == sum(x.winner is None for x in pairs)
    assert p.a_win_rate == (p.a_wins + p.ties / 2) / 6
    assert p.ci95 == wilson(p.a_wins + p.ties / 2, 6)
    assert two.games == 12 and two.hands == 12


def test_a_seeded_tournament_reproduces(two: TournamentResult) -> None:
    again = run_tournament(SETUP, ["greedy", "random"], 6)
    assert again.to_json() == two.to_json() and again.pairs == two.pairs
    other = run_tournament(DuplicateSetup(SETUP.rules, 2, seed=8), ["greedy", "random"], 6)
    assert [p.plays[0].deck for p in other.pairs] != [p.plays[0].deck for p in two.pairs]


def test_every_pairing_plays_the_same_deals(first_bot: None) -> None:
    res = run_tournament(SETUP, ["greedy", "random", "first"], 2)
    assert [(p.a, p.b) for p in res.pairings] == [
        ("greedy", "random"), ("greedy", "first"), ("random", "first")]
    decks: dict[int, set[tuple[int, ...]]] = {}
    for pair in res.pairs:
        assert len({play.deck for play in pair.plays}) == 1
        decks.setdefault(pair.deal, set()).add(pair.plays[0].deck)
    assert sorted(decks) == [0, 1] and all(len(d) == 1 for d in decks.values())
    assert {r.bot for r in res.ratings} == {"greedy", "random", "first"}


def test_worker_processes_give_the_same_results(two: TournamentResult) -> None:
    seen: list[tuple[int, int]] = []
    res = run_tournament(SETUP, ["greedy", "random"], 6, workers=2,
                         progress=lambda done, total: seen.append((done, total)))
    assert res.to_json() == two.to_json() and res.pairs == two.pairs
    assert (res.where, res.processes) == ("processes", 2)
    assert seen[-1] == (12, 12) and all(t == 12 for _, t in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_ray_gives_the_same_results(two: TournamentResult,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    ray = pytest.importorskip("ray")
    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        res = run_tournament(SETUP, ["greedy", "random"], 2, ray="local")
        assert ray.is_initialized()  # an instance the caller started is left running
    finally:
        ray.shutdown()
    local = run_tournament(SETUP, ["greedy", "random"], 2)
    assert res.where == "ray"
    assert res.to_json() == local.to_json() and res.pairs == local.pairs


# -- ratings -------------------------------------------------------------------------------


def test_ratings_follow_the_results(two: TournamentResult) -> None:
    [p] = two.pairings
    ratings = {r.bot: r for r in two.ratings}
    assert set(ratings) == {"greedy", "random"}
    if p.a_wins > p.b_wins:
        assert ratings["greedy"].mu > ratings["random"].mu
        assert two.ratings[0].bot == "greedy"
    # Every rating is more certain than openskill's starting σ 25/3.
    assert all(r.sigma < 25 / 3 for r in two.ratings)
    ordinals = [r.mu - 3 * r.sigma for r in two.ratings]
    assert ordinals == sorted(ordinals, reverse=True)


def test_ties_leave_equal_ratings() -> None:
    pairs = run_deal_pairs(SETUP, "greedy", "greedy", 2)
    assert all(p.winner is None for p in pairs)
    a, b = rate_bots(["x", "y"], [type(p)(p.deal, "x", "y", p.plays) for p in pairs])
    assert math.isclose(a.mu, b.mu) and math.isclose(a.mu, 25.0)
    assert a.sigma < 25 / 3


# -- the JSON document and the command -----------------------------------------------------


def test_the_json_document_has_exactly_its_shape(two: TournamentResult) -> None:
    doc = json.loads(json.dumps(two.to_json()))
    jsonschema.Draft202012Validator(schema("tournament")).validate(doc)
    assert list(doc) == ["pairings", "ratings"]
    assert list(doc["pairings"][0]) == ["a", "b", "deal_pairs", "a_wins", "b_wins", "ties",
                                        "a_win_rate", "ci95"]
    assert [list(r) for r in doc["ratings"]] == [["bot", "mu", "sigma"]] * 2
    bad = dict(doc, extra=1)
    assert list(jsonschema.Draft202012Validator(schema("tournament")).iter_errors(bad))


def test_the_command_prints_writes_json_and_plots(tmp_path: Path) -> None:
    out, png = tmp_path / "r.json", tmp_path / "r.png"
    result = runner.invoke(app, [
        "tournament", "--bots", "greedy,random", "--players", "2", "--deals", "3", "--seed",
        "7", "--workers", "1", "--json", str(out), "--plot", str(png)],
        env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "greedy – random" in result.output and "μ − 3σ" in result.output
    doc = json.loads(out.read_text("utf-8"))
    jsonschema.Draft202012Validator(schema("tournament")).validate(doc)
    expected = run_tournament(SETUP, ["greedy", "random"], 3).to_json()
    assert doc == json.loads(json.dumps(expected))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_command_speaks_italian() -> None:
    result = runner.invoke(app, ["tournament", "--bots", "greedy,random", "--players", "2",
                                 "--deals", "1", "--seed", "1", "--workers", "1", "--lang",
                                 "it"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "Torneo duplicato" in result.output and "Valutazioni" in result.output


@pytest.mark.parametrize("bots, deals, message", [
    ("greedy,nobody", 2, "unknown bot 'nobody'"),
    ("greedy", 2, "at least two bots, got 1"),
    ("greedy,greedy", 2, "greedy named more than once"),
    ("greedy,random", 0, "at least one deal pair, not 0"),
    ("greedy,random", -3, "at least one deal pair, not -3"),
])
def test_bad_input_is_refused(bots: str, deals: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run_tournament(SETUP, bots.split(","), deals)
    result = runner.invoke(app, ["tournament", "--bots", bots, "--deals", str(deals),
                                 "--players", "2", "--workers", "1"], env={"COLUMNS": "200"})
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="workers: at least 1"):
        run_tournament(SETUP, ["greedy", "random"], 1, workers=0)
    result = runner.invoke(app, ["tournament", "--bots", "greedy,random", "--players", "5"],
                           env={"COLUMNS": "200"})
    assert result.exit_code == 2 and "not 5" in result.output
    result = runner.invoke(app, ["tournament", "--bots", "greedy,random", "--variant", "nope"],
                           env={"COLUMNS": "200"})
    assert result.exit_code == 2 and "nope" in result.output
