"""International Canasta (preset ``international``): the score sheet and the match. Seed
002_277939805e3ea5bf.txt stops part-way through scoring; the values it does not give come from
pagat/Britannica, as shared/rules/variants.md section 3 says. One test per rule."""

from __future__ import annotations

import random

import pytest

from canasta import Match, TeamHand, score_hand
from canasta.core.scoring import ScoreSheet
from helpers import RULES, cards, check_score_sheets, deal, play, points


def _items(sheet: ScoreSheet) -> dict[str, int]:
    out: dict[str, int] = {}
    for label, pts in sheet.items:
        out[label] = out.get(label, 0) + pts
    return out


def test_card_points_in_melds_and_in_hand() -> None:
    """Seed 002_277939805e3ea5bf.txt: "il jolly ... vale 50 punti; il 2, noto come pinella, 20
    punti; l'asso 20 punti; le carte dal re all'8, 10 punti ciascuna; le carte dal 7 al 4, 5
    punti ciascuna ... i 3 neri, 5 punti" and "Ogni coppia segna come positivi i punteggi delle
    carte comprese nelle proprie combinazioni, mentre segna come negativi i punteggi rimasti in
    mano"."""
    hand = TeamHand(melds=(tuple(cards("As Ah JK")), tuple(cards("8s 8h 2c"))),
                    hands=(tuple(cards("Ks 7d 4c 3s")), tuple(cards("2d JK"))))
    sheet = score_hand([hand, TeamHand()], RULES)[0]
    items = _items(sheet)
    assert items["Melded cards"] == 20 + 20 + 50 + 10 + 10 + 20
    assert items["Cards left in hand, player 1"] == -(10 + 5 + 5 + 5)
    assert items["Cards left in hand, player 2"] == -(20 + 50)


def test_itemized_sheet_canastas_red_threes_going_out_melds_and_hands() -> None:
    """Seed 002_277939805e3ea5bf.txt: "la coppia che si è aggiudicata la chiusura sottrae dal
    proprio punteggio i punti delle carte rimaste in mano al giocatore che non ha chiuso, mentre
    l'altra coppia sottrae le carte rimaste in mano a entrambi i giocatori". The seed stops
    there; pagat/Britannica give "each natural canasta (500), each mixed canasta (300), going
    out (100 ...)" and red threes 100 each, 800 for all four (variants.md section 3)."""
    natural = tuple(cards("Ks Ks Kh Kh Kd Kd Kc"))
    mixed = tuple(cards("Qs Qs Qh Qh Qd JK 2c"))
    nines = tuple(cards("9s 9h 9d"))
    out = TeamHand(melds=(natural, mixed, nines), red_threes=4,
                   hands=(tuple(cards("8s 4d JK")),), went_out=True)
    other = TeamHand(melds=(tuple(cards("As Ah Ad")),), red_threes=0,
                     hands=(tuple(cards("7s 7h")), tuple(cards("Jc"))))
    a, b = score_hand([out, other], RULES)
    items = _items(a)
    assert items["Natural canasta"] == RULES.scoring.natural_canasta == 500
    assert items["Mixed canasta"] == RULES.scoring.mixed_canasta == 300
    assert items["Red threes (4)"] == 800
    assert items["Going out"] == 100
    assert items["Melded cards"] == points(natural) + points(mixed) + points(nines)
    assert items["Cards left in hand, player 1"] == -points("8s 4d JK")
    assert "Cards left in hand, player 2" not in items  # only the partner's hand counts
    assert a.hand_total == 500 + 300 + 800 + 100 + 70 + 120 + 30 - 65
    items_b = _items(b)
    assert items_b["Melded cards"] == 60
    assert items_b["Cards left in hand, player 1"] == -10
    assert items_b["Cards left in hand, player 2"] == -10
    assert b.hand_total == 60 - 10 - 10
    for sheet in (a, b):
        assert sum(p for _, p in sheet.items) == sheet.hand_total


@pytest.mark.parametrize(("n", "value"), [(1, 100), (2, 200), (3, 300), (4, 800)])
def test_red_threes_100_each_800_for_all_four(n: int, value: int) -> None:
    """Seed 002_277939805e3ea5bf.txt: "I 3 rossi, noti come onori, valgono 100 punti ciascuno";
    pagat/Britannica: all four held by one side count 800 (variants.md section 3)."""
    with_meld = TeamHand(melds=(tuple(cards("As Ah Ad")),), red_threes=n)
    assert _items(score_hand([with_meld], RULES)[0])[f"Red threes ({n})"] == value


@pytest.mark.parametrize(("n", "value"), [(1, -100), (2, -200), (4, -800)])
def test_red_threes_count_against_a_side_that_melded_nothing(n: int, value: int) -> None:
    """The seed gives no sign; pagat (variants.md section 3: "minus if no meld", "sign depends
    on any meld, not on a canasta"), Britannica: "If a side has failed to make any meld other
    than red 3s, then every red 3 counts for 100 against"."""
    bare = TeamHand(red_threes=n, hands=(tuple(cards("5s")),))
    assert _items(score_hand([bare], RULES)[0])[f"Red threes ({n})"] == value
    meld_no_canasta = TeamHand(melds=(tuple(cards("5s 5h 5d")),), red_threes=n)
    assert _items(score_hand([meld_no_canasta], RULES)[0])[f"Red threes ({n})"] == -value


def test_concealed_going_out_bonus_replaces_the_plain_one() -> None:
    """Seed 002_277939805e3ea5bf.txt names "chiusura di mano" without a value; pagat/Britannica:
    "going out (100, but 200 if concealed)" - 200 in place of 100 (variants.md section 3)."""
    canasta = tuple(cards("5s 5s 5h 5h 5d 5d 5c"))
    sheet = score_hand([TeamHand(melds=(canasta,), went_out=True, concealed=True)], RULES)[0]
    items = _items(sheet)
    assert items["Going out concealed"] == 200 and "Going out" not in items
    assert sheet.hand_total == 200 + 500 + 35


def test_state_sheet_counts_only_the_partner_of_the_player_who_went_out() -> None:
    """Seed 002_277939805e3ea5bf.txt: "la coppia che si è aggiudicata la chiusura sottrae dal
    proprio punteggio i punti delle carte rimaste in mano al giocatore che non ha chiuso, mentre
    l'altra coppia sottrae le carte rimaste in mano a entrambi i giocatori"."""
    s = deal({1: "Ks Kh Kd Kc Ks Kh JK Qs Qh Qc 2c"}, after="Jd 9d 10d 8d", scores=(120, -40))
    play(s, "draw", "meld Ks Kh Kd Kc Ks Kh JK", "meld Qs Qh Qc", "lay-off Q 2c", "discard 9d")
    assert s.is_over and s.went_out == 1
    b, a = s.score()  # team 0 (seats 0, 2), team 1 (seats 1, 3: seat 1 went out)
    rows_a = [p for label, p in a.items if label.startswith("Cards left in hand")]
    rows_b = [p for label, p in b.items if label.startswith("Cards left in hand")]
    assert rows_a == [-sum(points([c]) * k for c, k in enumerate(s.hands[3]))]
    assert sorted(rows_b) == sorted(
        -sum(points([c]) * k for c, k in enumerate(s.hands[seat])) for seat in (0, 2))
    assert a.score_before == -40 and b.score_before == 120
    check_score_sheets(s)


def _play_random(m: Match, rng: random.Random) -> None:
    while not m.state.is_over:
        m.apply(rng.choice(m.state.legal_actions()))


@pytest.mark.parametrize(
    ("scores", "minimums"),
    [((1500, 3000), (90, 120)), ((-20, 1495), (15, 50)), ((2995, 0), (90, 50))],
)
def test_match_opening_minimum_follows_the_score_from_hand_to_hand(
    scores: tuple[int, int], minimums: tuple[int, int]
) -> None:
    """Seed 002_277939805e3ea5bf.txt: "Il punteggio di apertura aumenta nel corso della partita,
    a 90 punti se la coppia ha tra i 1500 e i 2995 punti, a 120 se la coppia ha almeno 3000
    punti. Se la coppia ha punteggio negativo ... 15 punti". The match carries each side's
    score into the next hand's deal."""
    m = Match(RULES, 4, seed=11)
    _play_random(m, random.Random(11))
    m.finish_hand()
    assert m.winner is None
    m.scores = list(scores)  # the match has reached these scores
    state = m.next_hand()
    assert state.scores == list(scores)
    assert (state.opening_minimum(0), state.opening_minimum(1)) == minimums


def test_match_played_hand_after_hand_carries_scores_and_minimums() -> None:
    """Seed 002_277939805e3ea5bf.txt: the minimum rises "nel corso della partita". Each hand of a
    played match starts from the totals of the hands before, with the band of those totals."""
    m = Match(RULES, 4, seed=5)
    rng = random.Random(5)
    totals = [0, 0]
    for _ in range(3):
        state = m.state
        assert state.scores == totals
        for t in (0, 1):
            assert state.opening_minimum(t) == RULES.opening_minimum(totals[t])
        _play_random(m, rng)
        sheets = m.finish_hand()
        totals = [totals[t] + sheets[t].hand_total for t in (0, 1)]
        assert m.scores == totals
        if m.winner is not None:
            break
        m.next_hand()


@pytest.mark.parametrize("before", [(4990, 100), (9000, 8000), (8000, 9000), (0, 0)])
def test_match_target_5000_higher_total_wins_when_both_pass(before: tuple[int, int]) -> None:
    """Seed 002 stops before the target; pagat (variants.md section 3): "5000; if both sides
    reach it, higher total wins". The winner is derived from the totals after the hand."""
    assert RULES.end.target == 5000
    m = Match(RULES, 4, seed=21)
    _play_random(m, random.Random(21))
    m.finish_hand()
    if m.winner is not None:  # pragma: no cover - this seed's first hand is small
        pytest.skip("first hand already decided the match")
    m.scores = list(before)
    m.next_hand()
    _play_random(m, random.Random(22))
    m.finish_hand()
    after = m.scores
    reached = [t for t in (0, 1) if after[t] >= 5000]
    if not reached:
        assert m.winner is None
        m.next_hand()
    elif len(reached) == 1:
        assert m.winner == reached[0]
    elif after[0] != after[1]:
        assert m.winner == max(reached, key=lambda t: after[t])
    else:
        assert m.winner is None
    if min(before) >= 8000:  # both sides pass the target in this hand
        assert len(reached) == 2 and m.winner is not None
    if m.winner is not None:
        with pytest.raises(ValueError):
            m.next_hand()
