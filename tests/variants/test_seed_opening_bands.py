"""Opening minimums at each score band of every variant, played: at the lower and the upper
score of each band, natural melds worth exactly the minimum open the side; melds five points
short leave it unopened (the turn cannot end with a discard until the opening is made or
taken back).

Seeds: 000_1cc8abd4e271b725.txt ("da O a 2995 punti attivi ... apertura a 50 ..."),
001_fb0497f152a2c2d6.txt ("se punteggio negativo apertura libera, 50 punti avendo punteggio da
zero a 1495, 90 punti con punteggio da 1500 a 2995 e 120 punti con punteggio oltre i 3000"),
002_277939805e3ea5bf.txt ("almeno 50 punti ... a 90 punti se la coppia ha tra i 1500 e i 2995
punti, a 120 se la coppia ha almeno 3000 punti ... punteggio negativo ... 15 punti"),
003_6aef22ca5c65dc7b.txt ("inferiore a 1500: minimo 50 punti ... da 1500 a 2999: minimo 90
punti ... 3000 e oltre: minimo 120 punti ... negativo: minimo 15 punti"),
004_de631c4ee768aa1b.txt ("15 puncte daca echipa are punctaj negativ; 50 puncte pana la 1,495
puncte; 90 puncte - intre 1,500 puncte si 2,995 puncte; 120 puncte – peste 3,000 puncte").
"""

from __future__ import annotations

import pytest
from deck_helpers import apply_all, deal

from canasta import Discard, State, load_preset
from canasta.core.cards import NUM_CODES

#: Natural melds worth exactly the points named (A 20, K Q 10, 7 5 5).
EXACT = {
    15: ["7s 7h 7d"],
    50: ["Ks Kh Kd", "5s 5h 5d 5c"],
    90: ["As Ah Ad", "Ks Kh Kd"],
    120: ["As Ah Ad", "Ks Kh Kd", "Qs Qh Qd"],
    160: ["As Ah Ad Ac", "Ks Kh Kd", "Qs Qh Qd Qc Qs"],
    180: ["As Ah Ad Ac As Ah", "Ks Kh Kd", "Qs Qh Qd"],
    200: ["As Ah Ad Ac As Ah", "Ks Kh Kd Kc", "Qs Qh Qd Qc"],
}
#: Natural melds five points short of the minimum named.
SHORT = {
    50: ["Ks Kh Kd", "5s 5h 5d"],
    90: ["As Ah Ad", "5s 5h 5d 5c 5s"],
    120: ["As Ah Ad", "Ks Kh Kd", "5s 5h 5d 5c 5s"],
    160: ["As Ah Ad Ac", "Ks Kh Kd", "Qs Qh Qd", "5s 5h 5d"],
    180: ["As Ah Ad Ac As Ah", "Ks Kh Kd", "5s 5h 5d 5c 5s"],
    200: ["As Ah Ad Ac As Ah", "Ks Kh Kd", "Qs Qh Qd", "5s 5h 5d"],
}

BANDS = {
    "canastone": [(-5, 50), (0, 50), (2995, 50), (3000, 90), (4995, 90), (5000, 120),
                  (6995, 120), (7000, 160), (9995, 160), (10000, 180), (11995, 180)],
    "classic_italian": [(-5, 0), (0, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120),
                        (4995, 120)],
    "international": [(-5, 15), (0, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120),
                      (4995, 120)],
    "brazilian": [(-5, 15), (0, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120),
                  (4995, 120)],
    "romanian": [(-5, 15), (0, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120),
                 (9995, 120)],
}
CASES = [(v, score, minimum) for v, bands in BANDS.items() for score, minimum in bands]


def to_seat_one_melding(variant: str, score: int, melds: list[str],
                        options: dict[str, str] | None = None) -> State:
    """Seat 1 (team 1, the first to play) holds ``melds`` and has drawn; in Romanian the first
    round passes first ("Etalarea se face numai dupa ce s-a incheiat prima tura")."""
    rules = load_preset(variant, options or {})
    s = deal(rules, {1: " ".join(melds)}, "4c", scores=[0, score])
    if rules.turn.first_round_no_meld:
        for _ in range(s.players):
            seat = s.actor
            before = s.hands[seat][:]
            apply_all(s, "draw")
            if seat == 1:
                drawn = [c for c in range(NUM_CODES) if s.hands[seat][c] > before[c]]
                s.apply(Discard(drawn[0]))
            else:
                s.apply(Discard(next(c for c in range(NUM_CODES) if s.hands[seat][c])))
    assert s.actor == 1
    apply_all(s, "draw")
    return s


@pytest.mark.parametrize(("variant", "score", "minimum"), CASES)
def test_melds_worth_the_minimum_open(variant: str, score: int, minimum: int) -> None:
    """Each band's minimum, from its lower to its upper score: natural melds worth exactly the
    minimum open the side (with no minimum, "apertura libera", any meld)."""
    s = to_seat_one_melding(variant, score, EXACT[max(minimum, 15)])
    assert s.opening_minimum(1) == minimum
    apply_all(s, *(f"meld {m}" for m in EXACT[max(minimum, 15)]))
    assert s.opened[1]


@pytest.mark.parametrize(("variant", "score", "minimum"),
                         [c for c in CASES if c[2] >= 50])
def test_melds_five_points_short_do_not_open(variant: str, score: int, minimum: int) -> None:
    """Five points short of the band's minimum the side has not opened: the turn cannot end
    with a discard (seed 000: "le combinazioni formate devono essere trattenute in mano")."""
    s = to_seat_one_melding(variant, score, SHORT[minimum])
    apply_all(s, *(f"meld {m}" for m in SHORT[minimum]))
    assert not s.opened[1]
    card = next(c for c in range(NUM_CODES) if s.hands[1][c])
    assert not s.can(Discard(card))


@pytest.mark.parametrize(("score", "minimum"), [(11995, 180), (12000, 200), (14995, 200)])
def test_canastone_15000_option_opening_200(score: int, minimum: int) -> None:
    """Seed 000, VARIANTI: "chiusura a 15.000 punti con obbligo di apertura a 200 per la coppia
    che ha già totalizzato da 12.000 a 14.995 punti"."""
    options = {"target_15000": "true"}
    s = to_seat_one_melding("canastone", score, EXACT[minimum], options)
    assert s.opening_minimum(1) == minimum
    apply_all(s, *(f"meld {m}" for m in EXACT[minimum]))
    assert s.opened[1]
    s2 = to_seat_one_melding("canastone", score, SHORT[minimum], options)
    apply_all(s2, *(f"meld {m}" for m in SHORT[minimum]))
    assert not s2.opened[1]


def test_romanian_canasta_only_from_5000_option() -> None:
    """Seed 004: "canasta – peste 5000 de puncte, dar se agreaza intre parteneri daca se aplica";
    "Indiferent de punctaj, etalarea se poate face direct cu canasta". With the option, at 5000
    120 points of melds do not open; a canasta does."""
    options = {"canasta_opening_over_5000": "true"}
    s = to_seat_one_melding("romanian", 5000, EXACT[120], options)
    apply_all(s, *(f"meld {m}" for m in EXACT[120]))
    assert not s.opened[1]
    s2 = to_seat_one_melding("romanian", 5000, ["9s 9s 9h 9h 9d 9d 9c"], options)
    apply_all(s2, "meld 9s 9s 9h 9h 9d 9d 9c")
    assert s2.opened[1]
    s3 = to_seat_one_melding("romanian", 4995, EXACT[120], options)
    apply_all(s3, *(f"meld {m}" for m in EXACT[120]))
    assert s3.opened[1]
    assert not s.can(Discard(next(c for c in range(NUM_CODES) if s.hands[1][c])))
