"""International Canasta (preset ``international``), seed 002_277939805e3ea5bf.txt: the
"in alcune versioni" alternatives as named options. The per-rule tests of the preset are the
``tests/test_international_*.py`` files."""

from __future__ import annotations

from deck_helpers import apply_all, deal, rule_of

from canasta import load_preset


def test_black_three_meld_wilds_option() -> None:
    """Seed 002_277939805e3ea5bf.txt: "In sede di chiusura, anche i 3 neri possono essere calati
    in combinazione. In alcune versioni, una combinazione finale di 3 neri può essere solo
    pulita; non è comunque mai concesso formare una canasta mista di 3 neri". Clean only in
    "alcune versioni": wild cards allowed by default; the option ``false`` is the clean meld
    (variants.md section 3, Britannica)."""
    assert load_preset("international").melds.black_three_meld_wilds
    hand = "9s 9h 9d 9c 9s 9h 9d 3s 3c 2c 5d"
    for choice, ok in (("true", True), ("false", False)):
        rules = load_preset("international", {"black_three_meld_wilds": choice})
        s = deal(rules, {1: hand}, "4c 9c")
        apply_all(s, "draw", "meld 9s 9h 9d 9c 9s 9h 9d 9c")
        if ok:
            apply_all(s, "meld 3s 3c 2c", "discard 5d")
            assert s.is_over and s.went_out == 1
        else:
            assert rule_of(s, "meld 3s 3c 2c") == "melds.black_three_meld_going_out"


def test_black_three_meld_is_never_a_mixed_canasta() -> None:
    """Seed 002_277939805e3ea5bf.txt: "non è comunque mai concesso formare una canasta mista di 3
    neri". Seat 1 opens with a canasta of kings; seat 3, to go out, may meld the four black
    threes with two wild cards (six cards) but not with three (seven: a mixed canasta of black
    threes). The meld of black threes is the last one ("In sede di chiusura")."""
    seat1 = "Ks Ks Kh Kh Kd Kd Kc 9s 9h 9d 4h"
    seat3 = "3s 3s 3c 3c JK 2c 2d 5s 5h 5d 5c"
    s = deal("international", {1: seat1, 3: seat3}, "4c 8c 8d 6c")
    apply_all(s, "draw", "meld Ks Ks Kh Kh Kd Kd Kc", "discard 4h", "draw", "discard 8d")
    apply_all(s, "draw", "meld 5s 5h 5d 5c")
    assert rule_of(s, "meld 3s 3s 3c 3c JK 2c 2d") == "melds.black_three_meld_wilds"
    apply_all(s, "lay-off 5 2d", "meld 3s 3s 3c 3c JK 2c", "discard 6c")
    assert s.is_over and s.went_out == 3


def test_wilds_on_a_completed_canasta_option() -> None:
    """Seed 002_277939805e3ea5bf.txt: "in alcune varianti, a una canasta completa è possibile
    attaccare anche delle matte ... In altre versioni, invece, non è consentito attaccare matte a
    una canasta completa, naturale o mista che sia"."""
    hand = "9s 9h 9d 9c 9s 9h 9d 2c Kd Kh Ks"
    for choice, ok in (("true", True), ("false", False)):
        rules = load_preset("international", {"wilds_on_canasta": choice})
        s = deal(rules, {1: hand}, "4c 5c")
        apply_all(s, "draw", "meld 9s 9h 9d 9c 9s 9h 9d")
        if ok:
            apply_all(s, "lay-off 9 2c")
            assert len(s.melds[1][9]) == 8
        else:
            assert rule_of(s, "lay-off 9 2c") == "melds.wilds_on_completed_canasta"
