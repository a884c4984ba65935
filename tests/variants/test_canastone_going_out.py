"""Canastone's going out (preset ``canastone``), seed 000_1cc8abd4e271b725.txt: the canastas
it needs (a pure and an impure one, or two pure as an option), the final discard, going out
without a discard as an option, and no going out while a wild canasta is unfinished. One test
per rule, each docstring quoting the seed sentence it rests on; positions come from crafted
deck orders (canastone_kit.start: the dealer is seat 0, seat 1 plays first)."""

from __future__ import annotations

from canastone_kit import start
from deck_helpers import apply_all, rule_of

from canasta import parse_action


def test_going_out_needs_pure_and_impure_canasta_and_a_plain_discard() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "La chiusura è possibile per quel giocatore che si è
    liberato di tutte le carte della sua mano con lo scarto finale di una carta che non può
    essere né un Tre nero, né un Joker o una pinella ... la condizione che la coppia abbia
    completato almeno una canasta pura ed una impura"; "la «chiusura» di smazzata (300
    punti)"."""
    seat1 = "9s 9s 9h 9h 9d 9d 9c 8s 8s 8h 8h 8d 8d 8c JK"
    s = start({1: seat1}, "2c 5h", scores=[0, 3000])
    apply_all(s, "draw", "meld 9s 9s 9h 9h 9d 9d 9c", "meld 8s 8s 8h 8h 8d 8d 8c JK",
              "lay-off 8 2c", "discard 5h")
    assert s.is_over and s.went_out == 1
    sheet = s.score()[1]
    items = dict(sheet.items)
    assert items["Going out"] == 300
    assert items["Natural canasta"] == 500 and items["Mixed canasta"] == 300


def test_going_out_refused_without_an_impure_canasta() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "abbia esposto almeno una canasta pura ed una impura"."""
    seat1 = "9s 9s 9h 9h 9d 9d 9c 8s 8s 8h 8h 8d 8d 8c 8s"
    s = start({1: seat1}, "8h 5h")
    apply_all(s, "draw", "meld 9s 9s 9h 9h 9d 9d 9c")
    # Nine eights would leave 5h, a last discard that could not go out: two pure canastas.
    assert rule_of(s, "meld 8s 8s 8s 8h 8h 8h 8d 8d 8c") == "going out"
    apply_all(s, "meld 8s 8s 8s 8h 8h 8h 8d 8d")
    assert not s.is_over


def test_final_discard_may_not_be_wild_or_black_three() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "lo scarto finale di una carta che non può essere né un
    Tre nero, né un Joker o una pinella"."""
    seat1 = "9s 9s 9h 9h 9d 9d 9c 8s 8s 8h 8h 8d 8d 8c JK"
    for last in ("3s", "2d", "5h"):
        s = start({1: seat1}, f"2c {last}", scores=[0, 3000])
        apply_all(s, "draw", "meld 9s 9s 9h 9h 9d 9d 9c", "meld 8s 8s 8h 8h 8d 8d 8c JK")
        if last == "5h":
            apply_all(s, "lay-off 8 2c", "discard 5h")
            assert s.is_over
        else:
            # Laying off 2c would leave a last card that may not be discarded to go out.
            assert rule_of(s, "lay-off 8 2c") == "going out"
            assert s.can(parse_action(f"discard {last}"))  # an ordinary discard


def test_going_out_without_discard_option() -> None:
    """Seed 000_1cc8abd4e271b725.txt, VARIANTI: "chiusura anche senza scarto"."""
    seat1 = "9s 9s 9h 9h 9d 9d 9c 8s 8s 8h 8h 8d 8d 8c JK"
    s = start({1: seat1}, "2c 8c", scores=[0, 3000])
    apply_all(s, "draw", "meld 9s 9s 9h 9h 9d 9d 9c", "meld 8s 8s 8h 8h 8d 8d 8c JK")
    assert rule_of(s, "lay-off 8 2c 8c") == "going_out.discard_required"
    s = start({1: seat1}, "2c 8c", scores=[0, 3000], options={"go_out_without_discard": "true"})
    apply_all(s, "draw", "meld 9s 9s 9h 9h 9d 9d 9c", "meld 8s 8s 8h 8h 8d 8d 8c JK",
              "lay-off 8 2c 8c")
    assert s.is_over and s.went_out == 1


def test_two_pure_canastas_option() -> None:
    """Seed 000_1cc8abd4e271b725.txt, VARIANTI: "obbligo di aver completato almeno due canaste
    pure per poter chiudere" (replacing the pure-and-impure condition, variants.md)."""
    opts = {"going_out_canastas": "two_pure"}
    s = start({1: "9s 9s 9h 9h 9d 9d 9c 8s 8s 8h 8h 8d 8d 8c JK"}, "2c 5h", scores=[0, 3000],
              options=opts)
    apply_all(s, "draw", "meld 9s 9s 9h 9h 9d 9d 9c", "meld 8s 8s 8h 8h 8d 8d 8c JK")
    assert rule_of(s, "lay-off 8 2c") == "going out"  # one pure canasta only
    s = start({1: "9s 9s 9h 9h 9d 9d 9c 8s 8s 8h 8h 8d 8d 8c Kc"}, "Kd 5h", options=opts)
    apply_all(s, "draw", "meld 9s 9s 9h 9h 9d 9d 9c", "meld 8s 8s 8h 8h 8d 8d 8c")
    assert s.hand_size[1] == 3


def test_no_going_out_while_a_wild_canasta_is_unfinished() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "Quando una coppia ha iniziato una canasta di Joker o
    pinelle fin quando non l'ha completata non può chiudere la smazzata"."""
    seat1 = "9s 9s 9h 9h 9d 9d 9c 8s 8s 8h 8h 8d 8d JK JK"
    s = start({1: seat1}, "JK 2c", scores=[0, 3000], options={"go_out_without_discard": "true"})
    apply_all(s, "draw", "meld 9s 9s 9h 9h 9d 9d 9c", "meld 8s 8s 8h 8h 8d 8d JK")
    assert rule_of(s, "meld JK JK 2c") == "melds.unfinished_wild_meld_restricts"
