"""``canasta review`` and :mod:`canasta.sim.review`: every decision of the seat with a choice
is reviewed, its played move is the record's, losses are never negative and marks follow the
stated thresholds, the hand's account sums to its result, the review is reproducible for an
iteration budget, and the command speaks the four languages and writes positions that play on.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from canasta import Match, load_preset
from canasta.bots import make_bot
from canasta.bots.expert import Arm
from canasta.core.actions import Discard, Draw
from canasta.formats.position import same_state
from canasta.formats.records import load_position, match_to_record, record_state_at
from canasta.i18n import has, languages, t
from canasta.sim import review as rv
from formatkit import cli


def _record(players: int = 2, seed: int = 3, actions: int | None = 40,
            variant: str = "international") -> dict[str, Any]:
    """A record of one hand of greedy bots: ``actions`` actions (None: the whole hand)."""
    match = Match(load_preset(variant), players, seed=seed)
    bots = [make_bot("greedy", seed * 10 + i) for i in range(players)]
    n = 0
    while not match.state.is_over and (actions is None or n < actions):
        state = match.state
        match.apply(bots[state.actor].choose(state.view(state.actor)))
        n += 1
    if match.state.is_over:
        match.finish_hand()
    return match_to_record(match, ["Ann", "Bob", "Cy", "Di"][:players])


def _choices(data: dict[str, Any], seat: int) -> list[tuple[int, int]]:
    """(hand, action) of every decision of ``seat`` with more than one legal move."""
    out = []
    for h, hand in enumerate(data["hands"]):
        for k, (who, _) in enumerate(hand["actions"]):
            if who != seat:
                continue
            state = record_state_at(data, "t", h, k - 1)
            if len(state.view(seat).legal_actions) > 1:
                out.append((h, k))
    return out


def test_marks_follow_the_thresholds() -> None:
    assert rv.INACCURACY < rv.MISTAKE < rv.BLUNDER
    assert rv.mark_of(0.0) is None
    assert rv.mark_of(rv.INACCURACY - 0.1) is None
    assert rv.mark_of(rv.INACCURACY) == "inaccuracy"
    assert rv.mark_of(rv.MISTAKE - 0.1) == "inaccuracy"
    assert rv.mark_of(rv.MISTAKE) == "mistake"
    assert rv.mark_of(rv.BLUNDER - 0.1) == "mistake"
    assert rv.mark_of(rv.BLUNDER) == "blunder"
    assert rv.mark_of(10_000.0) == "blunder"


def test_a_review_covers_every_choice_with_the_moves_played() -> None:
    data = _record()
    review = rv.review_record(data, "t", 0, iterations=2, seed=1)
    (hand,) = review.hands
    decisions = hand.decisions
    assert [(d.hand, d.index) for d in decisions] == _choices(data, 0)
    assert decisions, "the record has decisions with a choice"
    for d in decisions:
        seat, text = data["hands"][d.hand]["actions"][d.index]
        assert seat == 0 == d.seat
        assert d.played.action.text() == text
        assert d.played.action in d.state.view(0).legal_actions
        assert d.loss >= 0 and math.isfinite(d.loss)
        assert d.mark == rv.mark_of(d.loss)
        assert 1 <= len(d.best) <= rv.SHOWN and 1 <= d.rank <= d.moves
        points = [mv.points for mv in d.best if mv.deals == d.deals]
        assert points == sorted(points, reverse=True)  # type: ignore[type-var]
        assert d.played.lead == 0 and d.played.error == 0
        # The loss is never more than the largest lead over the played move.
        assert d.loss <= max([0.0, *(mv.lead for mv in d.best)]) + 1e-6
        if d.rank <= rv.SHOWN:
            assert d.best[d.rank - 1].action == d.played.action
        assert d.state.actor == 0


def test_the_same_seed_and_iterations_give_the_same_review() -> None:
    data = _record(actions=24)
    a = rv.review_to_json(rv.review_record(data, "t", 0, iterations=2, seed=5))
    b = rv.review_to_json(rv.review_record(data, "t", 0, iterations=2, seed=5))
    assert a == b
    assert json.loads(json.dumps(a, allow_nan=False)) == a


def test_the_account_splits_the_result_into_luck_and_play() -> None:
    data = _record(players=4, seed=2, actions=None)
    review = rv.review_record(data, "t", 1, iterations=1, seed=0)
    (hand,) = review.hands
    a = hand.account
    assert a.finished
    assert a.result == pytest.approx(a.deal + a.draws + a.side + a.others)
    assert a.luck == pytest.approx(a.deal + a.draws)
    assert a.play == pytest.approx(a.side + a.others)
    totals = {s["team"]: s["hand_total"] for s in data["hands"][0]["sheets"]}
    mine = totals.pop(1)  # seat 1 plays for team 1
    assert a.result == pytest.approx(mine - max(totals.values()))


def test_a_clearly_better_move_makes_a_loss_and_its_mark() -> None:
    """The loss is the best lead less one standard error (widened for few deals)."""
    data = _record(actions=6)
    plan = rv.plan_review(data, "t", 0)
    pending = plan.pending[0]
    analyst = rv.Analyst()
    played = Arm(Draw(), values=[0.0, 10.0, 20.0, 30.0])
    better = Arm(Discard(5), values=[500.0, 500.0, 520.0, 530.0])
    same = Arm(Discard(6), values=[0.0, 10.0, 20.0, 30.0])
    decision = analyst._decision(pending, pending.state.view(0), [played, better, same],
                                 {0: [], 1: [], 2: []}, 0, 4)
    lead, se = 497.5, rv._paired(better.values, played.values)[1]
    assert decision.best[0].action == Discard(5) and decision.best[0].lead == lead
    assert decision.loss == pytest.approx(lead - rv.t_factor(4) * se, abs=0.1)
    assert decision.mark == "blunder" and decision.rank == 2
    # Ties with the played move list it first.
    assert [mv.action for mv in decision.best[1:]] == [Draw(), Discard(6)]


def test_bad_seats_hands_and_budgets_are_refused() -> None:
    data = _record(actions=6)
    with pytest.raises(rv.RecordError, match="seat"):
        rv.review_record(data, "t", 2, iterations=1)
    with pytest.raises(rv.RecordError, match="no hand 2"):
        rv.review_record(data, "t", 0, hands=[1], iterations=1)
    with pytest.raises(ValueError, match="budget"):
        rv.review_record(data, "t", 0, budget=0)


@pytest.mark.parametrize("lang", languages())
def test_the_command_speaks_every_language(tmp_path: Path, lang: str) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_record(actions=30)), "utf-8")
    result = cli(["review", str(path), "--iterations", "1", "--lang", lang, "--positions",
                  "none"])
    assert result.exit_code == 0, result.stdout + result.stderr
    out = result.stdout
    assert t("review.hand", lang, n=1) in out
    assert t("review.col.loss", lang) in out
    summary = t("review.summary", lang, count="X").split("X")[0]
    assert summary in out
    assert t("review.win_note", lang) in out  # international, 2 players has a model
    assert not (tmp_path / "game-review").exists()


def test_the_command_writes_positions_that_play_on(tmp_path: Path) -> None:
    data = _record(actions=30)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), "utf-8")
    result = cli(["review", str(path), "--iterations", "1", "--positions", "all", "--json"])
    assert result.exit_code == 0, result.stdout + result.stderr
    doc = json.loads(result.stdout)
    assert doc["format"] == "canasta-review" and doc["seat"] == 0
    assert doc["thresholds"] == {"blunder": rv.BLUNDER, "mistake": rv.MISTAKE,
                                 "inaccuracy": rv.INACCURACY}
    decisions = doc["hands"][0]["decisions"]
    assert decisions
    for d in decisions:
        assert d["loss"] >= 0 and d["mark"] == rv.mark_of(d["loss"])
        for mv in [d["played"], *d["best"]]:
            assert mv["reasons"], mv  # what the move does, in the hints' words
            assert all(has(f"hint.reason.{r['key']}") for r in mv["reasons"])
        assert d["played"]["action"] == data["hands"][0]["actions"][d["action"] - 1][1]
        position = Path(d["position"])
        assert position.parent == tmp_path / "game-review"
        state = load_position(position)
        assert same_state(state, record_state_at(data, "t", 0, d["action"] - 2))
    text = cli(["review", str(path), "--iterations", "1", "--positions", "all"]).stdout
    assert f"canasta play --from {tmp_path / 'game-review' / 'hand1-action'}" in text


def test_the_command_refuses_a_bad_record_and_seat(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("{}", "utf-8")
    assert cli(["review", str(path)]).exit_code == 2
    path.write_text(json.dumps(_record(actions=4)), "utf-8")
    result = cli(["review", str(path), "--seat", "5", "--iterations", "1"])
    assert result.exit_code == 2 and "seat" in result.stderr
    assert cli(["review", str(path), "--positions", "some"]).exit_code == 2


def test_marked_lists_only_the_marked_decisions(tmp_path: Path) -> None:
    """With one sampled deal no lead is beyond its noise: nothing is marked, so ``--marked``
    prints the hand without a table, and its summary."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_record(actions=20)), "utf-8")
    result = cli(["review", str(path), "--iterations", "1", "--marked", "--positions", "none"])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert t("review.hand", "en", n=1) in result.stdout
    assert t("review.col.moves", "en") not in result.stdout  # no table
    assert "Decisions reviewed:" in result.stdout
