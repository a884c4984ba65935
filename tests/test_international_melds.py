"""International Canasta (preset ``international``), seed 002_277939805e3ea5bf.txt: melds and
the opening (initial meld). One test per rule; each docstring quotes the seed."""

from __future__ import annotations

import pytest

from canasta import Meld, State, load_preset
from canasta.core.rules import Rules
from helpers import (
    RULES,
    card,
    cards,
    check_conservation,
    deal,
    legal_texts,
    play,
    points,
    rule_of,
    snapshot,
)


def seat1_after_draw(hand: str, draw: str = "Qd", *, rules: Rules = RULES,
                     scores: tuple[int, int] | None = None) -> State:
    """Seat 1 (team 1) holds ``hand`` and has drawn ``draw``; its turn goes on."""
    s = deal({1: hand}, after=f"Jd {draw} 10d 8d", rules=rules, scores=scores)
    play(s, "draw")
    return s


def test_meld_needs_at_least_three_cards() -> None:
    """Seed 002_277939805e3ea5bf.txt: "Ogni combinazione calata deve essere costituita da almeno
    tre carte"."""
    s = seat1_after_draw("Ks Kh As Ah Ad 9s 8s 7s 6s 5s 4s")
    assert rule_of(s, "meld Ks Kh") == "melds.min_cards"
    assert "meld Ks Kh" not in legal_texts(s)
    play(s, "meld As Ah Ad")  # three cards: legal


def test_meld_needs_at_least_two_natural_cards() -> None:
    """Seed 002_277939805e3ea5bf.txt: "almeno tre carte, di cui almeno due naturali"."""
    s = seat1_after_draw("Ks JK 2c As Ah 9s 8s 7s 6s 5s 4s")
    assert rule_of(s, "meld Ks JK 2c") == "melds.min_naturals"
    assert rule_of(s, "meld JK 2c Ks") == "melds.min_naturals"
    assert "meld As Ah JK" in legal_texts(s)


def test_meld_holds_at_most_three_wild_cards() -> None:
    """Seed 002_277939805e3ea5bf.txt: "In una stessa combinazione, non si possono mai avere più di
    tre matte". A fourth wild card is refused in a new meld and as a lay-off."""
    s = seat1_after_draw("Ks Kh Kd JK JK 2c 2d 9s 8s 7s 6s")
    assert rule_of(s, "meld Ks Kh Kd JK JK 2c 2d") == "melds.max_wilds"
    play(s, "meld Ks Kh Kd JK JK 2c")  # three wild cards: legal (150 points: open)
    assert s.opened[1]
    assert rule_of(s, "lay-off K 2d") == "melds.max_wilds"
    assert not any(a.text().startswith("lay-off K") and "2d" in a.text()
                   for a in s.legal_actions())


def test_default_wild_ratio_allows_two_naturals_and_three_wilds() -> None:
    """Seed 002_277939805e3ea5bf.txt: the rule is "almeno due naturali" and "non ... più di tre
    matte"; only "In alcune versioni" may wild cards not equal or outnumber the naturals. The
    preset's default is the plain rule (shared/rules/variants.md section 3: "2N+3W legal")."""
    s = seat1_after_draw("Ks Kh JK JK 2c 9s 8s 7s 6s 5s 4s")
    assert RULES.melds.wild_ratio == "any"
    assert "meld Ks Kh JK JK 2c" in legal_texts(s)


@pytest.mark.parametrize(
    ("ratio", "meld", "legal"),
    [
        ("lt", "meld Ks Kh JK 2c", False),
        ("lt", "meld Ks Kh Kd JK 2c", True),
        ("lt", "meld Ks Kh JK JK 2c", False),
        ("le", "meld Ks Kh JK 2c", True),
        ("le", "meld Ks Kh JK JK 2c", False),
        ("le", "meld Ks Kh Kd JK JK 2c", True),
    ],
)
def test_wild_ratio_option(ratio: str, meld: str, legal: bool) -> None:
    """Seed 002_277939805e3ea5bf.txt: "In alcune versioni, la combinazione non deve mai possedere
    un numero di matte pari o superiore al numero di carte naturali (per cui, ad esempio, non
    sarebbe consentito calare una combinazione di cinque carte di cui due naturali e tre
    matte)" (option ``wild_ratio=lt``; ``le``: never more wild cards than naturals)."""
    rules = load_preset("international", {"wild_ratio": ratio})
    s = seat1_after_draw("Ks Kh Kd JK JK 2c 9s 8s 7s 6s 5s", rules=rules)
    if legal:
        assert meld in legal_texts(s)
        play(s, meld)
    else:
        assert rule_of(s, meld) == "melds.wild_ratio"


def test_one_meld_per_rank_per_side() -> None:
    """Seed 002_277939805e3ea5bf.txt: the opening gives the right "ad attaccare carte alle
    combinazioni già formate" and "Le combinazioni danno punteggio solo alla coppia che le ha
    calate. Non è possibile attaccare carte alle combinazioni degli avversari". The seed
    implies one meld per rank per side; pagat states it (shared/rules/variants.md section 3:
    "enforce"). A second meld of kings is refused, a lay-off onto the first is legal; the
    other side may meld kings of its own."""
    s = seat1_after_draw("Ks Kh Kd Kc Ks Kh As Ah Ad 9s 8s", draw="Kd")
    play(s, "meld Ks Kh Kd", "meld As Ah Ad")
    assert rule_of(s, "meld Kc Ks Kh") == "one meld per rank"
    assert not any(isinstance(a, Meld) and card("Kc") in a.cards for a in s.legal_actions())
    play(s, "lay-off K Kc Ks Kh")
    assert len(s.melds[1][13]) == 6


def test_opponents_may_meld_a_rank_the_other_side_has() -> None:
    """Seed 002_277939805e3ea5bf.txt: "Non è possibile attaccare carte alle combinazioni degli
    avversari": each side melds on its own; a rank melded by one side can be melded by the
    other."""
    s = deal({1: "Ks Kh Kd As Ah Ad 9s 8s 7s 6s 5s", 2: "Kc Kc Ks JK Qs Qh"},
             after="Jd Qd 10d 8d")
    play(s, "draw", "meld Ks Kh Kd", "meld As Ah Ad", "discard 9s")
    play(s, "draw", "meld Kc Kc Ks JK")  # 80 points: team 0 opens with kings too
    assert s.opened[0] and 13 in s.melds[0] and 13 in s.melds[1]
    assert rule_of(s, "lay-off K Qs") == "melds"


def test_red_threes_never_reach_a_hand_or_a_meld() -> None:
    """Seed 002_277939805e3ea5bf.txt: "I 3 non possono fare parte di combinazioni" and "Non è
    possibile calare una combinazione ... di 3 rossi": red threes are laid out at once, so no
    meld action can name one."""
    s = seat1_after_draw("3h 3d Ks Kh 9s 8s 7s 6s 5s 4s Qs")
    assert s.red_threes[1] == cards("3h 3d")
    assert not any("3h" in t or "3d" in t for t in legal_texts(s))
    assert rule_of(s, "meld 3h 3d JK") == "cards"


def test_black_threes_melded_only_when_going_out() -> None:
    """Seed 002_277939805e3ea5bf.txt: "Non è possibile calare una combinazione di 3 neri (se non
    in sede di chiusura)" and "In sede di chiusura, anche i 3 neri possono essere calati in
    combinazione". Seat 1 makes a mixed canasta of kings; three black threes may be melded
    only as its last meld before the final discard."""
    s = seat1_after_draw("Ks Kh Kd Kc Ks Kh JK 2c 3s 3s 3c", draw="9d")
    play(s, "meld Ks Kh Kd Kc Ks Kh JK")
    assert rule_of(s, "meld 3s 3s 3c") == "melds.black_three_meld_going_out"
    play(s, "lay-off K 2c")
    play(s, "meld 3s 3s 3c")  # leaves 9d, the going-out discard
    play(s, "discard 9d")
    assert s.is_over and s.went_out == 1


def test_black_three_meld_may_take_wild_cards_but_is_never_a_mixed_canasta() -> None:
    """Seed 002_277939805e3ea5bf.txt: "In sede di chiusura, anche i 3 neri possono essere calati
    in combinazione. In alcune versioni, una combinazione finale di 3 neri può essere solo
    pulita; non è comunque mai concesso formare una canasta mista di 3 neri". Clean only "in
    alcune versioni": by the seed's own rule the going-out meld of black threes may hold wild
    cards (3s 3s 3c 2c), but never seven cards; the clean meld is the option
    ``black_three_meld_wilds=false`` (Britannica)."""
    s = seat1_after_draw("Ks Kh Kd Kc Ks Kh JK 3s 3s 3c 2c", draw="9d")
    play(s, "meld Ks Kh Kd Kc Ks Kh JK")
    play(s, "meld 3s 3s 3c 2c", "discard 9d")
    assert s.is_over and s.went_out == 1
    assert sorted(s.melds[1][3]) == sorted(cards("3s 3s 3c 2c"))
    clean = load_preset("international", {"black_three_meld_wilds": "false"})
    s3 = seat1_after_draw("Ks Kh Kd Kc Ks Kh JK 3s 3s 3c 2c", draw="9d", rules=clean)
    play(s3, "meld Ks Kh Kd Kc Ks Kh JK")
    assert rule_of(s3, "meld 3s 3s 3c 2c") == "melds.black_three_meld_going_out"


@pytest.mark.parametrize(
    ("score", "minimum"),
    [(-5, 15), (-1000, 15), (0, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120),
     (9000, 120)],
)
def test_opening_minimum_by_score_band(score: int, minimum: int) -> None:
    """Seed 002_277939805e3ea5bf.txt: "All'inizio della partita, il punteggio di apertura
    ammonta ad almeno 50 punti. Il punteggio di apertura aumenta nel corso della partita, a 90
    punti se la coppia ha tra i 1500 e i 2995 punti, a 120 se la coppia ha almeno 3000 punti.
    Se la coppia ha punteggio negativo, si richiede un punteggio di apertura simbolico di 15
    punti"."""
    assert RULES.opening_minimum(score) == minimum
    s = deal(scores=(0, score))
    assert s.opening_minimum(1) == minimum
    assert s.opening_minimum(0) == 50


def test_opening_below_the_minimum_does_not_open() -> None:
    """Seed 002_277939805e3ea5bf.txt: "Le carte comprese nella prima calata della coppia, nota
    come apertura, devono fornire un determinato punteggio complessivo" - with 1500 points the
    side needs 90: a meld of 60 points leaves the side unopened and it may not discard."""
    s = seat1_after_draw("As Ah Ad Ks Kh Kd 9s 8s 7s 6s 5s", scores=(0, 1500))
    play(s, "meld As Ah Ad")
    assert not s.opened[1] and s.provisional
    assert rule_of(s, "discard 9s") == "opening.minimums"
    play(s, "meld Ks Kh Kd")  # 60 + 30 = 90
    assert s.opened[1]
    play(s, "discard 9s")


def test_opening_counts_all_melds_laid_in_the_turn_together() -> None:
    """Seed 002_277939805e3ea5bf.txt: the opening is "la somma dei punteggi (non dei valori
    facciali) delle carte usate nella calata": K K K (30) alone does not reach 50; with 8 8 8
    (30) laid in the same turn the two melds open together."""
    s = seat1_after_draw("Ks Kh Kd 8s 8h 8d 9s 7s 6s 5s 4s")
    play(s, "meld Ks Kh Kd")
    assert s.opening_points == points("Ks Kh Kd") < 50
    assert not s.opened[1]
    assert rule_of(s, "discard 9s") == "opening.minimums"
    play(s, "meld 8s 8h 8d")
    assert s.opening_points == 60 and s.opened[1]
    play(s, "discard 9s")
    assert s.actor == 2


def test_opening_values_are_card_points_not_face_values() -> None:
    """Seed 002_277939805e3ea5bf.txt: "dalla somma dei punteggi (non dei valori facciali) delle
    carte usate" and "il jolly ... vale 50 punti; il 2 ... 20 punti; l'asso 20 punti; le carte
    dal re all'8, 10 punti ciascuna; le carte dal 7 al 4, 5 punti ciascuna"."""
    s = seat1_after_draw("7s 7h 7d JK 9s 8s 6s 5s 4s Qs Qh")
    play(s, "meld 7s 7h 7d JK")  # 15 + 50 = 65
    assert s.opening_points == 3 * 5 + 50 and s.opened[1]


def test_retract_takes_back_an_opening_short_of_the_minimum_and_raises_it_by_10() -> None:
    """Seed 002_277939805e3ea5bf.txt requires that the opening cards "devono fornire un
    determinato punteggio complessivo" but says nothing of a short opening. The preset keeps
    the engine's rule (``opening.retract_penalty``, from seed 000: "si riprendono in mano le
    carte esposte e il punteggio richiesto per l'apertura aumenta di 10 punti"; variants.md
    section 3 is silent on it): the melds go back to hand, the side's minimum rises by 10 for
    the hand, and the turn goes on from where it was."""
    s = seat1_after_draw("Ks Kh Kd 8s 8h 9s 9h 6s 5s 4s Qs", draw="9d")
    before = snapshot(s)
    play(s, "meld Ks Kh Kd")
    play(s, "retract")
    assert s.opening_minimum(1) == 60
    after = snapshot(s)
    for name in ("hands", "hand_size", "melds", "opened", "pile", "stock", "phase", "actor"):
        assert after[name] == before[name], name
    play(s, "meld Ks Kh Kd", "meld 9s 9h 9d")  # 60 points now needed: exactly enough
    assert s.opened[1]
    check_conservation(s)


def test_retracted_minimum_is_enforced() -> None:
    """Seed 000's retract rule as kept by the preset (``opening.retract_penalty`` = 10): after a
    retract 50 points no longer open."""
    assert RULES.opening.retract_penalty == 10
    s = seat1_after_draw("Ks Kh Kd 8s 8h 8d 6s 5s 4s Qs 9h", draw="9d")
    play(s, "meld Ks Kh Kd", "retract")
    play(s, "meld 8s 8h 8d", "meld Ks Kh Kd")  # 60 >= 60
    assert s.opened[1]
    s2 = seat1_after_draw("Ks Kh Kd 7s 7h 7d 6s 5s 4s Qs 9h", draw="9d")
    play(s2, "meld Ks Kh Kd", "retract")
    play(s2, "meld Ks Kh Kd", "meld 7s 7h 7d")  # 45 < 60
    assert not s2.opened[1]
