"""Canastone's scoring (preset ``canastone``), seed 000_1cc8abd4e271b725.txt: red threes by
the canastas a side showed, the canasta bonuses, the five-canasta bonuses, doubled minus points
for a side that had not opened, a red three kept in hand. One test per rule, each docstring
quoting the seed sentence it rests on (or shared/rules/variants.md where the seed is silent);
the hands are score-sheet inputs (:class:`canasta.core.scoring.TeamHand`)."""

from __future__ import annotations

import pytest
from deck_helpers import cards

from canasta import load_preset
from canasta.core.scoring import TeamHand, score_hand

RULES = load_preset("canastone")


def test_red_three_sign_by_pure_and_impure_canastas() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "alla chiusura il punteggio viene attribuito
    positivamente se la coppia che li possiede ha esposto almeno una canasta pura ed una
    impura, non viene attribuito se sono state esposte una o più canaste pure ma non l'impura,
    viene attribuito negativamente se sono state esposte una o più canaste impure ma non almeno
    una pura, viene attribuito pure negativamente ma raddoppiato in assenza di canaste di ogni
    tipo"."""
    pure = tuple(cards("9s 9s 9h 9h 9d 9d 9c"))
    impure = tuple(cards("8s 8s 8h 8h 8d JK 2c"))
    small = tuple(cards("Ks Kh Kd"))

    def red(melds: tuple[tuple[int, ...], ...]) -> int:
        sheet = score_hand([TeamHand(melds=melds, red_threes=2)], RULES)[0]
        return dict(sheet.items)["Red threes (2)"]

    assert red((pure, impure)) == 200
    assert red((pure,)) == 0
    assert red((impure,)) == -200
    assert red((small,)) == -400


@pytest.mark.parametrize(("count", "total"), [(1, 100), (3, 300), (4, 800), (5, 1000),
                                               (6, 1200)])
def test_red_three_totals(count: int, total: int) -> None:
    """Seed 000_1cc8abd4e271b725.txt: "valgono 100 punti l'uno, ma se una linea ne possiede
    quattro, cinque o sei segnerà rispettivamente 800, 1000 e 1200 punti"."""
    pure = tuple(cards("9s 9s 9h 9h 9d 9d 9c"))
    impure = tuple(cards("8s 8s 8h 8h 8d JK 2c"))
    sheet = score_hand([TeamHand(melds=(pure, impure), red_threes=count)], RULES)[0]
    assert dict(sheet.items)[f"Red threes ({count})"] == total


@pytest.mark.parametrize(("meld", "label", "bonus"), [
    ("As As Ah Ah Ad Ad Ac", "Natural canasta of aces", 1000),
    ("As As Ah Ah Ad JK 2c", "Mixed canasta of aces", 500),
    ("JK JK 2c 2d 2h JK 2s", "Wild canasta", 2000),
    ("2c 2c 2d 2d 2h 2h 2s", "Wild canasta of deuces", 3000),
    ("JK JK JK JK JK JK 2s", "Wild canasta of six jokers and a deuce", 5000),
    ("Ks Ks Kh Kh Kd Kd Kc", "Natural canasta", 500),
    ("Ks Ks Kh Kh Kd JK Kc", "Mixed canasta", 300),
])
def test_canasta_bonuses(meld: str, label: str, bonus: int) -> None:
    """Seed 000_1cc8abd4e271b725.txt: "500 punti per canasta pura di carte naturali, 300 punti
    per canasta impura di carte naturali, 1000 e 500 punti per canasta rispettivamente pura e
    impura di Assi, 2000 punti per canasta mista di Joker e pinelle, 3000 per canasta pura di
    pinelle, 5000 punti per canasta formata da sei Joker ed una pinella"."""
    sheet = score_hand([TeamHand(melds=(tuple(cards(meld)),))], RULES)[0]
    assert dict(sheet.items)[label] == bonus


def _five(pure: int, impure: int) -> tuple[tuple[int, ...], ...]:
    ranks = ["K", "Q", "J", "10", "9", "8", "7"]
    out = []
    for i in range(pure):
        r = ranks[i]
        out.append(tuple(cards(f"{r}s {r}s {r}h {r}h {r}d {r}d {r}c")))
    for i in range(pure, pure + impure):
        r = ranks[i]
        out.append(tuple(cards(f"{r}s {r}s {r}h {r}h {r}d {r}d JK")))
    return tuple(out)


@pytest.mark.parametrize(("choice", "pure", "impure", "rows"), [
    ("tiered", 4, 1, {"Five canastas, natural and mixed": 1000}),
    ("tiered", 5, 1, {"Five natural canastas and a mixed one": 2000}),
    ("tiered", 5, 0, {}),
    ("cumulative", 5, 1, {"Five natural canastas and a mixed one": 2000,
                          "Five canastas, natural and mixed": 1000}),
    ("none", 5, 1, {}),
])
def test_five_canasta_bonuses(choice: str, pure: int, impure: int,
                              rows: dict[str, int]) -> None:
    """Seed 000_1cc8abd4e271b725.txt: "1000 punti suppletivi per la coppia che abbia chiuso
    almeno cinque canaste (con necessaria rappresentanza sia di canasta pura che di impura) e
    2000 punti per la coppia che abbia chiuso almeno cinque canaste pure con in più almeno una
    impura"; VARIANTI: "non contare i 1000 e i 2000 punti suppletivi". Tiered by default
    (variants.md), cumulative as an option."""
    rules = load_preset("canastone", {"five_canasta_bonus": choice})
    sheet = score_hand([TeamHand(melds=_five(pure, impure))], rules)[0]
    got = {label: pts for label, pts in sheet.items if label.startswith("Five")}
    assert got == rows


def test_hand_doubled_for_a_side_that_had_not_opened() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "questi punti negativi vengono conteggiati raddoppiati se
    la coppia penalizzata al momento della chiusura non aveva ancora «aperto»"."""
    hand = tuple(cards("Ks Qh 5c"))
    unopened = score_hand([TeamHand(hands=(hand,))], RULES)[0]
    opened = score_hand([TeamHand(melds=(tuple(cards("9s 9h 9d")),), hands=(hand,))], RULES)[0]
    assert unopened.items[-1][1] == -50 and opened.items[-1][1] == -25


def test_red_three_kept_in_hand_costs_500() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "un Tre rosso trattenuto in mano al momento della chiusura
    costa 500 punti negativi"."""
    sheet = score_hand([TeamHand(melds=(tuple(cards("9s 9h 9d")),),
                                 hands=(tuple(cards("3h 5c")),))], RULES)[0]
    assert dict(sheet.items)["Red threes left in hand (1)"] == -500
    assert dict(sheet.items)["Cards left in hand, player 1"] == -5
