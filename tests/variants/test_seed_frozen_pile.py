"""What takes a frozen pile and what cannot, in the variants where a discarded wild card
freezes it: the cases the per-variant files do not already play (the pile onto a side's own
meld, a wild card among the capturing cards).

Seeds: 000_1cc8abd4e271b725.txt (Canastone), 001_fb0497f152a2c2d6.txt (Canasta classica),
002_277939805e3ea5bf.txt (International).
"""

from __future__ import annotations

from deck_helpers import apply_all, deal, legal_texts, rule_of

from canasta import State


def _opened_side_facing_a_frozen_pile(variant: str, seat1: str, melds: tuple[str, ...],
                                      discard: str, after: str, top: str) -> State:
    """Seat 1 opens with ``melds`` and discards; seat 2 freezes the pile with a joker; seat 3
    discards; seat 0 discards ``top``; seat 1 is to act."""
    s = deal(variant, {1: seat1, 2: "JK", 3: "5d", 0: top}, after)
    apply_all(s, "draw", *(f"meld {m}" for m in melds), f"discard {discard}")
    apply_all(s, "draw", "discard JK")
    assert s.pile_frozen
    apply_all(s, "draw", "discard 5d", "draw", f"discard {top}")
    assert s.actor == 1 and s.pile_frozen
    return s


def test_canastone_frozen_pile_needs_three_naturals_even_onto_an_own_meld() -> None:
    """Seed 000: "lo scarto di un Joker o di una pinella «gela» il pozzo stesso ovvero ne
    impedisce la cattura per tutti i giocatori e i giri seguenti se non con almeno tre carte
    «naturali» dello stesso valore facciale della carta scartata". The side has a meld of
    jacks: two jacks, or two jacks and a deuce, do not take the frozen pile; three jacks do,
    and go onto the meld with the top card (a canasta)."""
    two = _opened_side_facing_a_frozen_pile(
        "canastone", "Js Jh Jd Js Jh 2c As Ah Ad 9s 9h 9d 8s 8h 8d",
        ("As Ah Ad", "Js Jh Jd"), "9s", "4c 5s 5h 6s 6h", "Jc")
    assert rule_of(two, "take-pile Js Jh") == "pile.frozen_naturals"
    assert rule_of(two, "take-pile Js Jh 2c") == "pile.frozen_naturals"
    assert not any(t.startswith("take-pile") for t in legal_texts(two))
    three = _opened_side_facing_a_frozen_pile(
        "canastone", "Js Jh Jd Js Jh Jd As Ah Ad 9s 9h 9d 8s 8h 2c",
        ("As Ah Ad", "Js Jh Jd"), "9s", "4c 5s 5h 6s 6h", "Jc")
    apply_all(three, "take-pile Js Jh Jd")
    assert len(three.melds[1][11]) == 7 and not three.pile_frozen


def test_classic_frozen_pile_not_taken_onto_an_own_meld_without_a_pair() -> None:
    """Seed 001: "se l'avversario ha scartato una carta di valore facciale uguale a quello di una
    combinazione aperta già in tavola del giocatore che riceve, il pozzo, se non gelato, è
    catturabile senza altre condizioni"; "il pozzo «gelato» si può catturare solo con due carte
    uguali a quelle esposte". Frozen, the king on top does not go onto the side's kings alone,
    nor with a king and a joker; with two kings it does."""
    s = _opened_side_facing_a_frozen_pile(
        "classic_italian", "Ks Kh Kd Ks Kh As Ah Ad 9s 9d 2d", ("Ks Kh Kd", "As Ah Ad"),
        "9s", "4c Qs Qh Jd Jh", "Kc")
    assert rule_of(s, "take-pile") == "pile.frozen_naturals"
    assert rule_of(s, "take-pile Ks 2d") == "pile.frozen_naturals"
    apply_all(s, "take-pile Ks Kh")
    assert len(s.melds[1][13]) == 6 and not s.pile_frozen


def test_international_frozen_pile_not_taken_onto_an_own_meld_without_a_pair() -> None:
    """Seed 002: "Per scongelare e prendere il pozzo, è necessario avere almeno due carte naturali
    dello stesso valore facciale dell'ultima carta scartata (le une e l'altra dovranno essere
    immediatamente giocate dal giocatore che ha effettuato lo scongelamento)". The side's meld
    of kings does not take the frozen pile with the top king alone, nor with a king and a
    deuce; two kings do."""
    s = _opened_side_facing_a_frozen_pile(
        "international", "Ks Kh Kd Ks Kh As Ah Ad 9s 9d 2d", ("Ks Kh Kd", "As Ah Ad"),
        "9s", "4c Qs Qh Jd Jh", "Kc")
    assert rule_of(s, "take-pile") == "pile.frozen_naturals"
    assert rule_of(s, "take-pile Ks 2d") == "pile.frozen_naturals"
    apply_all(s, "take-pile Ks Kh")
    assert len(s.melds[1][13]) == 6 and not s.pile_frozen
