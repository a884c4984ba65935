"""canasta.sim.duplicate: a deal pair plays the same deck orders with the bots' sides swapped
(or rotated, with more than two sides), is reproducible from its seed, and scores exactly."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from canasta import load_preset
from canasta.bots import make_bot
from canasta.sim import duplicate
from canasta.sim.duplicate import (
    DuplicateSetup,
    bot_seed,
    deal_seed,
    play_deal_pair,
    run_deal_pairs,
    seatings,
)

INTERNATIONAL = load_preset("international")
CANASTONE = load_preset("canastone")


@pytest.mark.parametrize("sides, plays", [(2, 2), (3, 6), (5, 10)])
def test_each_bot_holds_each_side_equally_often(sides: int, plays: int) -> None:
    rows = seatings(sides)
    assert len(rows) == plays == len(set(rows))
    for side in range(sides):
        held = Counter(row[side] for row in rows)
        assert held[0] == held[1] == plays // 2
    # Swapping the bots maps the set of plays onto itself: neither bot has a role the other
    # lacks.
    assert {tuple(1 - x for x in row) for row in rows} == set(rows)
    # Every play has both bots at the table.
    assert all(set(row) == {0, 1} for row in rows)


def test_seatings_refuses_a_single_side() -> None:
    with pytest.raises(ValueError, match="two sides"):
        seatings(1)


def test_a_deal_pair_swaps_the_teams_on_the_same_deck(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[tuple[str, int]] = []

    def spy(spec: str, seed: int | None = None):  # type: ignore[no-untyped-def]
        assert seed is not None
        built.append((spec, seed))
        return make_bot(spec, seed)

    monkeypatch.setattr(duplicate, "make_bot", spy)
    setup = DuplicateSetup(INTERNATIONAL, 4, seed=5)
    pair = play_deal_pair(setup, "greedy", "random", deal=3)
    first, second = pair.plays
    assert first.deck == second.deck and len(first.deck) == 108
    assert (first.seating, second.seating) == ((0, 1), (1, 0))
    seed = deal_seed(5, 3)
    seat_of = {bot_seed(seed, s): s for s in range(4)}
    # Play 1: greedy at seats 0 and 2 (team 0), random at 1 and 3; play 2 the other way round,
    # each seat's bot seeded the same in both plays.
    assert [(spec, seat_of[b]) for spec, b in built[:4]] == [
        ("greedy", 0), ("random", 1), ("greedy", 2), ("random", 3)]
    assert [(spec, seat_of[b]) for spec, b in built[4:]] == [
        ("random", 0), ("greedy", 1), ("random", 2), ("greedy", 3)]
    # a's score difference: its team's hand total minus the other's, in both plays.
    assert first.diff == first.scores[0] - first.scores[1]
    assert second.diff == second.scores[1] - second.scores[0]
    assert pair.diff == first.diff + second.diff
    assert pair.winner == ("a" if pair.diff > 0 else "b" if pair.diff < 0 else None)


def test_deal_pairs_reproduce_from_the_seed() -> None:
    setup = DuplicateSetup(INTERNATIONAL, 4, seed=21)
    one = run_deal_pairs(setup, "greedy", "random", 3)
    two = run_deal_pairs(setup, "greedy", "random", 3)
    assert one == two
    assert [p.deal for p in one] == [0, 1, 2]
    # Another seed deals other cards; another deal number too.
    other = run_deal_pairs(DuplicateSetup(INTERNATIONAL, 4, seed=22), "greedy", "random", 1)
    assert other[0].plays[0].deck != one[0].plays[0].deck
    assert one[1].plays[0].deck != one[0].plays[0].deck
    # A deal pair does not depend on what was played before it.
    assert run_deal_pairs(setup, "greedy", "random", 1, first=2)[0] == one[2]


def test_a_bot_against_itself_ties_every_deal_pair_exactly() -> None:
    pairs = run_deal_pairs(DuplicateSetup(INTERNATIONAL, 2, seed=3), "greedy", "greedy", 2)
    assert all(p.diff == 0 and p.winner is None for p in pairs)
    # ... although the hands themselves were not drawn.
    assert any(p.plays[0].scores[0] != p.plays[0].scores[1] for p in pairs)


def test_three_players_rotate_each_bot_through_every_seat() -> None:
    pair = play_deal_pair(DuplicateSetup(CANASTONE, 3, seed=8), "greedy", "random", deal=0)
    assert [p.seating for p in pair.plays] == seatings(3)
    assert len({p.deck for p in pair.plays}) == 1
    for play in pair.plays:
        a = [s for s, bot in zip(play.scores, play.seating, strict=True) if bot == 0]
        b = [s for s, bot in zip(play.scores, play.seating, strict=True) if bot == 1]
        # Sides' means, exact: a lone bot against the mean of the two others.
        assert play.diff == Fraction(sum(a), len(a)) - Fraction(sum(b), len(b))
        assert play.hands == 1


def test_match_mode_plays_the_same_deck_orders_until_a_side_wins() -> None:
    setup = DuplicateSetup(INTERNATIONAL, 4, seed=4, match=True, max_hands=2)
    pair = play_deal_pair(setup, "greedy", "random", deal=0)
    assert pair.plays[0].deck == pair.plays[1].deck
    assert all(1 <= p.hands <= 2 for p in pair.plays)
    hand_only = play_deal_pair(DuplicateSetup(INTERNATIONAL, 4, seed=4), "greedy", "random", 0)
    # The first hand is the same deal in both modes.
    assert hand_only.plays[0].deck == pair.plays[0].deck


@pytest.mark.parametrize("kwargs, match", [
    ({"players": 3}, "not 3"),
    ({"players": 6, "team_size": 4}, "teams of 4"),
    ({"max_actions": 0}, "max_actions"),
])
def test_a_bad_setup_is_refused(kwargs: dict[str, int], match: str) -> None:
    rules = CANASTONE if "team_size" in kwargs else INTERNATIONAL
    with pytest.raises(ValueError, match=match):
        run_deal_pairs(DuplicateSetup(rules, **kwargs), "greedy", "random", 1)  # type: ignore[arg-type]


def test_bad_deals_or_bots_are_refused() -> None:
    setup = DuplicateSetup(INTERNATIONAL)
    with pytest.raises(ValueError, match="at least one deal pair"):
        run_deal_pairs(setup, "greedy", "random", 0)
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        run_deal_pairs(setup, "greedy", "nobody", 1)


def test_a_hand_that_does_not_end_raises() -> None:
    with pytest.raises(RuntimeError, match="did not end in 5 actions"):
        play_deal_pair(DuplicateSetup(INTERNATIONAL, 4, max_actions=5), "random", "random", 0)
