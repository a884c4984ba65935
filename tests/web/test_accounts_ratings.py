"""Glicko-2 against Glickman's published worked example, and what a rated match does to
ratings: teams as one opponent, bots as fixed anchors, abandoning as a loss, a seat without
an account voiding the match (canasta.web.accounts.glicko, .ratings, .anchors)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canasta.web.accounts import anchors
from canasta.web.accounts.glicko import SCALE, Rating, expected, update
from canasta.web.accounts.ratings import (
    PROVISIONAL_RD,
    MatchFacts,
    SeatFacts,
    composite,
    games,
    provisional,
    settle,
)


def test_glickmans_worked_example() -> None:
    # M. E. Glickman, "Example of the Glicko-2 system" (glicko.net, 2013): a player rated
    # 1500, RD 200, volatility 0.06 (tau 0.5) beats a 1400/30 and loses to 1550/100 and
    # 1700/300: "r' = 1464.06", "RD' = 151.52", "sigma' = 0.05999".
    after = update(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0),
                                             (Rating(1550, 100), 0.0),
                                             (Rating(1700, 300), 0.0)])
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = update(Rating(1600, 100, 0.06), [])
    assert after.rating == 1600
    assert 100 < after.rd < 101  # sqrt(phi^2 + sigma^2) on Glicko's scale: 100.37


def test_scores_outside_zero_to_one_are_refused() -> None:
    with pytest.raises(ValueError, match="score"):
        update(Rating(), [(Rating(), 2.0)])


@settings(max_examples=60, deadline=None)
@given(st.floats(800, 2200), st.floats(40, 350), st.floats(800, 2200), st.floats(40, 350))
def test_a_win_never_lowers_and_a_loss_never_raises_a_rating(r: float, rd: float,
                                                            o: float, ord_: float) -> None:
    me, them = Rating(r, rd), Rating(o, ord_)
    won, lost = update(me, [(them, 1.0)]), update(me, [(them, 0.0)])
    assert lost.rating < me.rating < won.rating
    # a game narrows the deviation the period began with (step 6: the new volatility
    # added to the old deviation)
    for after in (won, lost):
        assert after.rd < (rd**2 + (after.volatility * SCALE) ** 2) ** 0.5
    assert 0 < expected(me, them) < 1


def test_a_new_rating_is_provisional_until_its_deviation_comes_down() -> None:
    anchor = Rating(1500, 40)
    r = Rating()
    matches = 0
    while provisional(r.rd):
        r = update(r, [(anchor, matches % 2)])
        matches += 1
    # the threshold is reached after a handful of matches against anchors, not one or fifty
    assert 3 <= matches <= 8
    assert r.rd <= PROVISIONAL_RD


def _two_v_two(winner: int | None, *, abandoned: tuple[int, ...] = (),
               accounts: tuple[str | None, ...] = ("ann", None, "bea", None)) -> MatchFacts:
    seats = tuple(SeatFacts(human=a is not None, account=a,
                            level="" if a else "medium", abandoned=i in abandoned)
                  for i, a in enumerate(accounts))
    return MatchFacts(((0, 2), (1, 3)), winner, (5100, 3200), seats)


def test_a_team_is_one_opponent_its_mean_rating_and_rms_deviation() -> None:
    team = composite([Rating(1400, 30), Rating(1600, 40)])
    assert team.rating == 1500
    assert team.rd == pytest.approx((30**2 / 2 + 40**2 / 2) ** 0.5)


def test_people_beating_bots_gain_and_the_anchors_stay_fixed() -> None:
    bot = Rating(1500, 40)
    status, reason, results = settle(_two_v_two(0), {}, {1: bot, 3: bot})
    assert status == "settled" and reason == "match over"
    for who in ("ann", "bea"):
        result, before, after = results[who]
        assert result == "win" and before == Rating() and after.rating > 1500
    assert set(results) == {"ann", "bea"}  # bots have no rating to move


def test_abandoning_is_a_loss_even_for_the_winning_team() -> None:
    bot = Rating(1500, 40)
    _, reason, results = settle(_two_v_two(0, abandoned=(2,)), {}, {1: bot, 3: bot})
    assert results["bea"][0] == "loss" and results["bea"][2].rating < 1500
    assert results["ann"][0] == "win"
    assert reason == "abandoned at seat 2"


def test_a_match_abandoned_midway_rates_only_the_abandoner_and_the_other_team() -> None:
    facts = MatchFacts(((0, 2), (1, 3)), None, (800, 900), (
        SeatFacts(True, "ann"), SeatFacts(True, "cy"), SeatFacts(True, "bea", abandoned=True),
        SeatFacts(True, "dan")))
    _, _, results = settle(facts, {}, {})
    # bea lost; cy and dan beat her team; her partner ann has no finished game to rate
    assert results["bea"][0] == "loss"
    assert results["cy"][0] == results["dan"][0] == "win"
    assert "ann" not in results


def test_a_human_seat_without_an_account_voids_the_match() -> None:
    facts = MatchFacts(((0, 2), (1, 3)), 0, (5000, 10), (
        SeatFacts(True, "ann"), SeatFacts(False, level="easy"), SeatFacts(True, None),
        SeatFacts(False, level="easy")))
    status, reason, results = settle(facts, {}, {1: Rating(), 3: Rating()})
    assert status == "void" and results == {} and "seat 2" in reason


def test_three_teams_compare_their_totals_below_the_winner() -> None:
    facts = MatchFacts(((0,), (1,), (2,)), 1, (3000, 5200, 3000),
                       (SeatFacts(True, "ann"), SeatFacts(True, "bea"), SeatFacts(True, "cy")))
    played = games(facts, {0: Rating(), 1: Rating(), 2: Rating()})
    assert [s for _, s in played[0]] == [0.0, 0.5]   # lost to the winner, tied with cy
    assert [s for _, s in played[1]] == [1.0, 1.0]


def test_the_shipped_anchors_rank_the_bot_levels_and_name_their_seed() -> None:
    doc = json.loads(anchors.ANCHORS.read_text(encoding="utf-8"))
    assert doc["seed"] >= 0 and doc["deals"] > 0
    table = doc["variants"][doc["default"]]
    assert table["medium"]["rating"] == anchors.BASE[1]
    assert table["easy"]["rating"] < table["medium"]["rating"] < table["hard"]["rating"]
    # a spec's level counts, an unknown variant falls back to the default table
    assert anchors.anchor_of("hard:seed=3", "no-such-variant") == (
        table["hard"]["rating"], table["hard"]["rd"])


def test_anchor_differences_follow_the_logistic_curve() -> None:
    assert anchors.difference(0.5) == 0
    assert anchors.difference(0.76) == pytest.approx(200, abs=1)  # 400*log10(.76/.24)
    assert anchors.difference(1.0) == anchors.difference(0.98)     # clamped, finite
    chained = anchors.anchors({("medium", "easy"): (0.76, 0.6, 0.9),
                               ("hard", "medium"): (0.5, 0.4, 0.6),
                               ("expert", "hard"): (0.24, 0.1, 0.4)})
    assert chained["easy"]["rating"] == pytest.approx(1300, abs=1)
    assert chained["hard"]["rating"] == 1500
    assert chained["expert"]["rating"] == pytest.approx(1300, abs=1)
