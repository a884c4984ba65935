"""International Canasta (preset ``international``), seed 002_277939805e3ea5bf.txt: the
"in alcune versioni" alternatives as named options. The per-rule tests of the preset are the
``tests/test_international_*.py`` files."""

from __future__ import annotations

from deck_helpers import apply_all, deal, rule_of

from canasta import load_preset


def test_black_three_meld_wilds_option() -> None:
    """Seed 002_277939805e3ea5bf.txt: "In sede di chiusura, anche i 3 neri possono essere calati
    in combinazione. In alcune versioni, una combinazione finale di 3 neri può essere solo
    pulita; non è comunque mai concesso formare una canasta mista di 3 neri". Clean by default
    (variants.md section 3, Britannica); wild cards allowed with the option."""
    hand = "9s 9h 9d 9c 9s 9h 9d 3s 3c 2c 5d"
    for choice, ok in (("false", False), ("true", True)):
        rules = load_preset("international", {"black_three_meld_wilds": choice})
        s = deal(rules, {1: hand}, "4c 9c")
        apply_all(s, "draw", "meld 9s 9h 9d 9c 9s 9h 9d 9c")
        if ok:
            apply_all(s, "meld 3s 3c 2c", "discard 5d")
            assert s.is_over and s.went_out == 1
        else:
            assert rule_of(s, "meld 3s 3c 2c") == "melds.black_three_meld_going_out"


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
