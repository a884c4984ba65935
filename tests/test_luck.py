"""The luck of the draws (canasta.sim.luck): measured by the learned value in duplicate
plays, subtracted as a control variate, printed by the ladder. A slice: a few deal pairs."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

pytest.importorskip("numpy")

from canasta import load_preset  # noqa: E402
from canasta.bots import make_bot  # noqa: E402
from canasta.core.actions import Draw  # noqa: E402
from canasta.core.match import Match  # noqa: E402
from canasta.sim import ladder  # noqa: E402
from canasta.sim.duplicate import (  # noqa: E402
    DuplicateSetup,
    PairResult,
    PlayResult,
    run_deal_pairs,
)
from canasta.sim.luck import LuckMeter, control_variate, pairs_needed  # noqa: E402


def test_plays_with_luck_measure_it_per_side_and_change_nothing_else() -> None:
    rules = load_preset("international")
    lucky = run_deal_pairs(DuplicateSetup(rules, 4, seed=2, luck=True), "hard", "greedy", 2)
    plain = run_deal_pairs(DuplicateSetup(rules, 4, seed=2), "hard", "greedy", 2)
    assert lucky == plain  # the same games: luck is measured on copies
    assert all(len(p.luck) == 2 for pair in lucky for p in pair.plays)
    assert all(p.luck == () for pair in plain for p in pair.plays)
    assert any(pair.luck != 0 for pair in lucky) and all(pair.luck == 0 for pair in plain)
    again = run_deal_pairs(DuplicateSetup(rules, 4, seed=2, luck=True), "hard", "greedy", 2)
    assert [p.luck for p in again] == [p.luck for p in lucky]  # seeded by the deal


def test_a_draw_is_lucky_against_other_draws_from_the_same_state() -> None:
    """Each term is the value after the real draw less the mean after shuffled ones: a stock
    whose top is a joker (the best card) gives its drawer positive luck."""
    state = Match(load_preset("international"), 4, seed=4).state
    while not isinstance(state.legal_actions()[0], Draw):
        state.apply(make_bot("hard", 0).choose(state.view(state.actor)))
    seat = state.actor
    team = state.team_of[seat]
    if 52 in state.stock:
        state.stock.remove(52)
        state.stock.append(52)  # the joker on top: the next card drawn
    else:
        state.stock[-1] = 52  # a copy of the state is enough for the meter
    meter = LuckMeter(state, seed=1, samples=8)
    meter.before(state, Draw())
    state.apply(Draw())
    meter.after(state)
    assert meter.totals[team] > 0 and meter.totals[1 - team] < 0


def _pair(deal: int, diff: float, luck: float) -> PairResult:
    play = PlayResult((0, 1), (0, 0), (), 1, 1, Fraction(diff), luck=(luck / 2, -luck / 2))
    return PairResult(deal, "a", "b", (play,))


def test_the_control_variate_removes_the_luck_it_sees() -> None:
    rng = random.Random(3)
    lucks = [rng.gauss(0, 1000) for _ in range(200)]
    pairs = [_pair(i, 50 + x + rng.gauss(0, 100), x) for i, x in enumerate(lucks)]
    cv = control_variate(pairs)
    assert cv.beta == pytest.approx(1.0, abs=0.05)
    assert cv.variance_ratio < 0.05  # 100² of 1000² + 100² is left
    # what is left: 50 points of skill in 100 of noise, won 69% of the time (Φ(0.5))
    assert cv.rate < 0.6 < cv.adjusted_rate
    assert cv.adjusted_needed < cv.needed / 10
    assert pairs_needed(0.55) == pytest.approx(380.3, abs=0.1)


def test_the_control_variate_needs_the_luck() -> None:
    plain = PairResult(0, "a", "b", (PlayResult((0, 1), (0, 0), (), 1, 1, Fraction(3)),))
    with pytest.raises(ValueError, match="without the luck"):
        control_variate([plain, plain])
    with pytest.raises(ValueError, match="two deal pairs"):
        control_variate([_pair(0, 1, 1)])


def test_luck_needs_a_learned_value_for_the_rules() -> None:
    state = Match(load_preset("canastone"), 5, seed=1).state
    with pytest.raises(LookupError, match="canastone with 5 players"):
        LuckMeter(state, seed=0)


def test_the_ladder_prints_the_luck_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert ladder.main(["--variants", "international", "--deals", "2", "--rungs",
                        "hard/greedy", "--luck"]) == 0
    out = capsys.readouterr().out
    assert "with the luck subtracted" in out
    assert "| hard vs greedy | international | 2 |" in out.split("with the luck")[-1]
