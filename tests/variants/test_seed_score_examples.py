"""Exact scores of example hands, variant by variant, as a scorekeeper types them in
(`canasta score`: the hand-result reader, then the engine's own scoring). Every expected total
is worked out by hand in the test from the seed's tables: card points per rank, canasta bonuses
by kind, red-three values and signs, going-out and concealed bonuses, special canastas, the
hand doubled or counted against, penalties from the irregularity tables.

Seeds: 000_1cc8abd4e271b725.txt (Canastone), 001_fb0497f152a2c2d6.txt (Canasta classica),
002_277939805e3ea5bf.txt (International; its scoring stops part-way, the values after that are
pagat's, shared/rules/variants.md section 3), 003_6aef22ca5c65dc7b.txt (Canastra),
004_de631c4ee768aa1b.txt (Romanian).
"""

from __future__ import annotations

from typing import Any

import pytest

from canasta.formats.handresult import hand_result_from_dict

#: Seven kings, pure: 70 card points.
PURE_K = "Ks Ks Kh Kh Kd Kd Kc"
#: Five queens, a deuce and a joker (5 + 2), impure: 50 + 20 + 50 = 120 card points.
IMPURE_Q = "Qs Qs Qh Qh Qd 2c JK"


def team(melds: list[str] | None = None, hands: list[str] | None = None, *, red: int = 0,
         out: bool = False, concealed: bool = False, penalties: list[Any] | None = None,
         before: int = 0) -> dict[str, Any]:
    return {"melds": melds or [], "hands": [h.split() for h in (hands or ["", ""])],
            "red_threes": red, "went_out": out, "concealed": concealed,
            "penalties": penalties or [], "score_before": before}


def totals(variant: str, *teams: dict[str, Any], options: dict[str, str] | None = None
           ) -> list[tuple[int, dict[str, int]]]:
    """Each team's hand total and its items by label (the typed-in route of `canasta
    score`)."""
    doc = {"variant": variant, "options": options or {}, "teams": list(teams)}
    result = hand_result_from_dict(doc)
    out = []
    for sheet in result.score():
        items: dict[str, int] = {}
        for label, pts in sheet.items:
            items[label] = items.get(label, 0) + pts
        out.append((sheet.hand_total, items))
    return out


# -- card points per rank -------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["canastone", "classic_italian", "international",
                                     "brazilian", "romanian"])
@pytest.mark.parametrize(("card", "points"), [
    ("JK", 50), ("2s", 20), ("As", 20), ("Ks", 10), ("Qh", 10), ("Jd", 10), ("10c", 10),
    ("9s", 10), ("8h", 10), ("7d", 5), ("6c", 5), ("5s", 5), ("4h", 5)])
def test_card_points_per_rank_counted_against_a_hand(variant: str, card: str,
                                                     points: int) -> None:
    """Seed 000: "50 punti per ogni Joker, 20 punti per ogni pinella e per ognuno degli Assi, 10
    punti per ognuna delle carte dall'Otto al Re e 5 punti per ognuna delle carte dal Quattro al
    Sette"; seed 002: "il jolly ... 50 punti; il 2 ... 20 punti; l'asso 20 punti; le carte dal re
    all'8, 10 punti ciascuna; le carte dal 7 al 4, 5 punti ciascuna"; seed 003: "Jolly = 50, Asso
    = 20, 2 = 20, carte dall'8 al Re = 10, carte dal 4 al 7 e 3 nero = 5"; seed 004: "Jokers 50,
    Aces 20, Deuces 20, K,Q,J,10,9,8 10, 7,6,5,4 5". A side that has melded (three eights, 30;
    in Romanian counted against without a canasta: "i se scad toate punctele etalate si de pe
    tabla") loses the card left in a hand at its value, in every variant."""
    (total, items), _ = totals(variant, team(["8s 8h 8d"], [card, ""]), team())
    assert items["Cards left in hand, player 1"] == -points
    melded = -30 if variant == "romanian" else 30
    assert total == melded - points


@pytest.mark.parametrize(("variant", "points"), [
    ("canastone", 5), ("classic_italian", 5), ("international", 5), ("brazilian", 5)])
def test_black_three_left_in_hand_counts_five(variant: str, points: int) -> None:
    """Seed 000: "5 punti per ognuna delle carte dal Quattro al Sette e per ognuno dei Tre neri";
    seed 002: "i 3 neri, 5 punti"; seed 003: "carte dal 4 al 7 e 3 nero = 5". (Romanian: the
    next test.)"""
    (total, _), _ = totals(variant, team(["8s 8h 8d"], ["3s", ""]), team())
    assert total == 30 - points


def test_romanian_black_threes_in_hand_minus_100_all_four_minus_1600() -> None:
    """Seed 004: "3 de negru in mana -100"; "toate 4 cartile de 3 negru -1600" (for the side,
    whichever hands hold them)."""
    (one, i1), _ = totals("romanian", team([PURE_K], ["3s 4c", ""]), team())
    assert i1["Black threes in hand (1)"] == -100 and one == 570 - 5 - 100
    (two, _), _ = totals("romanian", team([PURE_K], ["3s 3c", ""]), team())
    assert two == 570 - 200
    (four, i4), _ = totals("romanian", team([PURE_K], ["3s 3c", "3s 3c"]), team())
    assert i4["All four black threes in hand"] == -1600 and four == 570 - 1600


# -- Canastone (seed 000) ------------------------------------------------------------------
def test_canastone_going_out_with_pure_and_impure_canastas() -> None:
    """Seed 000: "la «chiusura» di smazzata (300 punti)"; "500 punti per canasta pura di carte
    naturali, 300 punti per canasta impura"; red threes "valgono 100 punti l'uno" and count
    "positivamente se la coppia che li possiede ha esposto almeno una canasta pura ed una
    impura"; "vengono conteggiati positivi i punti delle carte esposte in combinazione e
    negativi i punti ... delle carte rimaste in mano".

    Team 1: 500 + 300 + 2 red threes 200 + going out 300 + melded 70 + 120 + 30 = 1520, less
    the partner's 5c 7d As (30): 1490. Team 2: a pure canasta of nines only, three red threes
    "non viene attribuito" (0): 500 + 70 - JK (50) - 4c 4d (10) = 510."""
    (t1, i1), (t2, i2) = totals(
        "canastone",
        team([PURE_K, IMPURE_Q, "8s 8h 8d"], ["", "5c 7d As"], red=2, out=True),
        team(["9s 9s 9h 9h 9d 9d 9c"], ["JK", "4c 4d"], red=3))
    assert i1["Going out"] == 300 and i1["Red threes (2)"] == 200
    assert i1["Natural canasta"] == 500 and i1["Mixed canasta"] == 300
    assert t1 == 1490
    assert i2["Red threes (3)"] == 0
    assert t2 == 510


@pytest.mark.parametrize(("melds", "reds", "red_points"), [
    ([PURE_K, IMPURE_Q], 1, 100),       # "positivamente se ... una canasta pura ed una impura"
    ([PURE_K], 1, 0),                   # "non viene attribuito se ... pure ma non l'impura"
    ([IMPURE_Q], 1, -100),              # "negativamente se ... impure ma non almeno una pura"
    (["8s 8h 8d"], 1, -200),            # "negativamente ma raddoppiato in assenza di canaste"
    ([PURE_K, IMPURE_Q], 4, 800),       # "quattro, cinque o sei segnerà ... 800, 1000 e 1200"
    ([IMPURE_Q], 4, -800),
    (["8s 8h 8d"], 4, -1600),
])
def test_canastone_red_three_values_and_signs(melds: list[str], reds: int,
                                              red_points: int) -> None:
    """Seed 000: "valgono 100 punti l'uno, ma se una linea ne possiede quattro, cinque o sei
    segnerà rispettivamente 800, 1000 e 1200 punti"; "alla chiusura il punteggio viene
    attribuito positivamente se la coppia che li possiede ha esposto almeno una canasta pura ed
    una impura, non viene attribuito se sono state esposte una o più canaste pure ma non
    l'impura, viene attribuito negativamente se sono state esposte una o più canaste impure ma
    non almeno una pura, viene attribuito pure negativamente ma raddoppiato in assenza di
    canaste di ogni tipo"."""
    (_, items), _ = totals("canastone", team(melds, red=reds), team())
    assert items[f"Red threes ({reds})"] == red_points


def test_canastone_five_and_six_red_threes_in_six_player_game() -> None:
    """Seed 000: "se una linea ne possiede quattro, cinque o sei segnerà rispettivamente 800, 1000
    e 1200 punti" (three packs: six red threes; two teams of three)."""
    (_, i5), _ = totals("canastone", {**team([PURE_K, IMPURE_Q], red=5), "hands": [[]] * 3},
                        {**team(), "hands": [[]] * 3})
    assert i5["Red threes (5)"] == 1000
    (_, i6), _ = totals("canastone", {**team([PURE_K, IMPURE_Q], red=6), "hands": [[]] * 3},
                        {**team(), "hands": [[]] * 3})
    assert i6["Red threes (6)"] == 1200


@pytest.mark.parametrize(("meld", "label", "bonus", "card_points"), [
    ("As As As Ah Ah Ad Ad", "Natural canasta of aces", 1000, 140),
    ("As As As Ah Ah 2c 2d", "Mixed canasta of aces", 500, 140),
    ("JK JK 2c 2d 2h 2s 2c", "Wild canasta", 2000, 200),
    ("2s 2s 2h 2h 2d 2d 2c", "Wild canasta of deuces", 3000, 140),
    ("JK JK JK JK JK JK 2c", "Wild canasta of six jokers and a deuce", 5000, 320),
])
def test_canastone_special_canastas(meld: str, label: str, bonus: int,
                                    card_points: int) -> None:
    """Seed 000: "1000 e 500 punti per canasta rispettivamente pura e impura di Assi, 2000 punti
    per canasta mista di Joker e pinelle, 3000 per canasta pura di pinelle, 5000 punti per
    canasta formata da sei Joker ed una pinella". Each canasta scores its bonus and its card
    points (Joker 50, pinella 20, Asso 20)."""
    (total, items), _ = totals("canastone", team([meld]), team())
    assert items[label] == bonus
    assert total == bonus + card_points


def test_canastone_five_canasta_bonuses() -> None:
    """Seed 000: "1000 punti suppletivi per la coppia che abbia chiuso almeno cinque canaste (con
    necessaria rappresentanza sia di canasta pura che di impura) e 2000 punti per la coppia che
    abbia chiuso almeno cinque canaste pure con in più almeno una impura"; the "canasta pura di
    pinelle" is a pure canasta. Four pure and one impure: 1000; five pure
    without an impure: nothing; five pure (one of deuces) and one impure: 2000 (not 3000:
    variants.md, tiered)."""
    pures = ["Ks Ks Kh Kh Kd Kd Kc", "Qs Qs Qh Qh Qd Qd Qc", "Js Js Jh Jh Jd Jd Jc",
             "10s 10s 10h 10h 10d 10d 10c", "9s 9s 9h 9h 9d 9d 9c"]
    impure = "8s 8s 8h 8h 8d 2c JK"
    (_, i1), _ = totals("canastone", team([*pures[:4], impure]), team())
    assert i1["Five canastas, natural and mixed"] == 1000
    assert "Five natural canastas and a mixed one" not in i1
    (_, i2), _ = totals("canastone", team(pures), team())
    assert not any(label.startswith("Five") for label in i2)
    deuces = "2s 2s 2h 2h 2d 2d 2c"
    (_, i3), _ = totals("canastone", team([*pures[:4], deuces, impure]), team())
    assert i3["Five natural canastas and a mixed one"] == 2000
    assert "Five canastas, natural and mixed" not in i3


def test_canastone_unopened_side_hand_doubled_and_red_threes_doubly_negative() -> None:
    """Seed 000: "questi punti negativi vengono conteggiati raddoppiati se la coppia penalizzata
    al momento della chiusura non aveva ancora «aperto»"; red threes "negativamente ma
    raddoppiato in assenza di canaste di ogni tipo". Hands As 2c (40) and Kd (10), doubled:
    -100; one red three: -200. Total -300."""
    _, (t2, i2) = totals("canastone",
                         team([PURE_K, IMPURE_Q], ["", "5c"], out=True),
                         team([], ["As 2c", "Kd"], red=1))
    assert i2["Red threes (1)"] == -200
    assert t2 == -300


def test_canastone_penalties_from_the_irregularity_table() -> None:
    """Seed 000 (IRREGOLARITÀ): "prendere carte dal tallone fuori turno costa 100 punti negativi
    se l'irregolarità può essere sanata, altrimenti 200 punti"; "prendere carte in più dal
    tallone al proprio turno: 50 punti"; "prendere il «pozzo» senza averne diritto: 200 punti";
    "mettere in tavola combinazioni ... fuori turno: 100 punti se fatto quanto il turno è ad un
    avversario, 200 punti nel corso del turno del partner"."""
    names = {"draw_out_of_turn": -100, "draw_out_of_turn_uncorrectable": -200,
             "extra_stock_cards": -50, "pile_taken_without_right": -200,
             "meld_out_of_turn_opponent": -100, "meld_out_of_turn_partner": -200}
    for name, points in names.items():
        (total, _), _ = totals("canastone", team(["8s 8h 8d"], penalties=[name]), team())
        assert total == 30 + points, name


def test_canastone_red_three_kept_in_hand_costs_500() -> None:
    """Seed 000 (IRREGOLARITÀ): "un Tre rosso trattenuto in mano al momento della chiusura costa
    500 punti negativi"."""
    (total, items), _ = totals("canastone", team(["8s 8h 8d"], ["3h", ""]), team())
    assert items["Red threes left in hand (1)"] == -500
    assert total == 30 - 500


# -- Canasta classica (seed 001) -----------------------------------------------------------
def test_classic_going_out_100_and_concealed_200() -> None:
    """Seed 001: "premio chiusura: 100 punti; 200 punti per «chiusura in mano»"; the rest is
    Canastone's ("Non differisce in modo sostanziale dal Canastone"): 500 a pure canasta, and
    the red threes of a side with a pure canasta but no impure one are not counted. Going out
    with seven kings: 500 + 100 + 70 = 670, concealed 500 + 200 + 70 = 770; one red three adds
    nothing."""
    (t1, i1), _ = totals("classic_italian", team([PURE_K], ["", ""], red=1, out=True), team())
    assert i1["Going out"] == 100 and i1["Red threes (1)"] == 0 and t1 == 670
    (t2, i2), _ = totals("classic_italian",
                         team([PURE_K], ["", ""], red=1, out=True, concealed=True), team())
    assert i2["Going out concealed"] == 200 and "Going out" not in i2 and t2 == 770


def test_classic_six_player_game_red_threes_and_six_jokers() -> None:
    """Seed 001: "nella Canasta a 6 si adoperano tre mazzi": six jokers and six red threes, as
    in Canastone ("se una linea ne possiede ... sei segnerà ... 1200"; "5000 punti per canasta
    formata da sei Joker ed una pinella")."""
    six = {**team(["JK JK JK JK JK JK 2c", PURE_K, "Qs Qs Qh Qh Qd 2c 2d"], red=6),
           "hands": [[]] * 3}
    (total, items), _ = totals("classic_italian", six, {**team(), "hands": [[]] * 3})
    assert items["Red threes (6)"] == 1200
    assert items["Wild canasta of six jokers and a deuce"] == 5000
    assert total == 5000 + 500 + 300 + 1200 + 320 + 70 + 90


# -- International (seed 002, completed from pagat) ----------------------------------------
def test_international_going_out_canastas_and_red_threes() -> None:
    """Seed 002: "I 3 rossi, noti come onori, valgono 100 punti ciascuno" and its card table;
    after the text stops, pagat (variants.md section 3): natural canasta 500, mixed 300, going
    out 100, all four red threes 800, and red threes count minus for a side that has melded
    nothing. Team 1: 500 + 300 + 800 + 100 + 70 + 120 - 3s 5c (10) = 1880. A side that melded
    nothing: its red three -100 and its hands 9d JK (60): -160."""
    (t1, i1), _ = totals("international",
                         team([PURE_K, IMPURE_Q], ["", "3s 5c"], red=4, out=True), team())
    assert i1["Red threes (4)"] == 800 and i1["Going out"] == 100
    assert t1 == 1880
    _, (t2, i2) = totals("international", team([PURE_K], ["", ""], out=True),
                         team([], ["9d", "JK"], red=1))
    assert i2["Red threes (1)"] == -100
    assert t2 == -160


def test_international_concealed_going_out_200() -> None:
    """Seed 002: "Se un giocatore riesce ad aprire e a chiudere in uno stesso turno (calando
    ovviamente almeno una canasta), si parla di chiusura di mano"; pagat: 200 instead of 100.
    500 + 200 + 70 = 770."""
    (total, items), _ = totals("international",
                               team([PURE_K], ["", ""], out=True, concealed=True), team())
    assert items["Going out concealed"] == 200 and total == 770


# -- Canastra (seed 003) -------------------------------------------------------------------
def test_brazilian_bonuses_and_red_threes_always_plus() -> None:
    """Seed 003: "Canastra naturale (pulita): 200 punti. Canastra mista (sporca), con almeno un
    jolly: 100 punti. Chiusura della mano: 100 punti (200 se «in mano chiusa» ...). Ogni 3 rosso
    davanti alla vostra squadra: 100 punti (tutti e quattro i 3 rossi insieme: 800 punti
    totali"; "sommate tutti i bonus più il valore di ogni carta ... nelle combinazioni;
    sottraete il valore di ogni carta rimasta in mano ... può essere negativo". Team 1: 200 +
    100 + 800 + 100 + 70 + 120 - 3s 7d (10) = 1380. Team 2, nothing melded: its two red threes
    still +200, hands JK and 4c (55), no doubling: +145."""
    (t1, i1), _ = totals("brazilian",
                         team([PURE_K, IMPURE_Q], ["", "3s 7d"], red=4, out=True), team())
    assert i1["Natural canasta"] == 200 and i1["Mixed canasta"] == 100
    assert i1["Red threes (4)"] == 800 and i1["Going out"] == 100
    assert t1 == 1380
    _, (t2, i2) = totals("brazilian", team([PURE_K], ["", ""], out=True),
                         team([], ["JK", "4c"], red=2))
    assert i2["Red threes (2)"] == 200 and t2 == 145
    (t3, i3), _ = totals("brazilian", team([PURE_K], ["", ""], out=True, concealed=True), team())
    assert i3["Going out concealed"] == 200 and t3 == 200 + 200 + 70


def test_brazilian_canastra_real_500() -> None:
    """Seed 003: "Canastra Real / Canasta Real: una sequenza naturale di sette carte tutte dello
    stesso seme (A-K-Q-J-10-9-8, per esempio) vale 500 punti bonus e conta come canastra" (the
    option ``canastra_real``): 500 + 20 + 6 x 10 = 580; it alone lets the side go out."""
    (total, items), _ = totals(
        "brazilian", team(["As Ks Qs Js 10s 9s 8s"], ["", ""], out=True), team(),
        options={"canastra_real": "true"})
    assert items["Sequence canasta (canastra real)"] == 500
    assert total == 500 + 100 + 80


# -- Romanian (seed 004) -------------------------------------------------------------------
def test_romanian_scoring_table() -> None:
    """Seed 004, "Numararea punctelor": "inchiderea 100"; "3 de rosu declarat ... 100";
    "toate 4 cartile de 3 rosu declarate ... 800"; "canasta murdara (neagra) – contine valori
    300"; "canasta curata (rosie) – nu contine valori 500"; "canasta de 1 neagra 500"; "canasta
    de 1 rosie 1,000"; "canasta de valori neagra 2,000"; "canasta de valori rosie 2,500".
    Team 1: 500 + 300 + 1000 + 800 + 100 + cards 70 + 120 + 140 = 3030 - 5c (5) = 3025."""
    (t1, i1), _ = totals(
        "romanian",
        team([PURE_K, IMPURE_Q, "As As Ah Ah Ad Ad Ac"], ["", "5c"], red=4, out=True),
        team())
    assert i1["Natural canasta"] == 500 and i1["Mixed canasta"] == 300
    assert i1["Natural canasta of aces"] == 1000 and i1["Red threes (4)"] == 800
    assert t1 == 3025
    # Aces with two jokers (100 + 100), seven deuces (140); the other side's jokers and deuces.
    (t2, i2), (t3, i3) = totals("romanian", team(["As As Ah Ah Ad JK JK", "2s 2s 2h 2h 2d 2d 2c"]),
                                team(["JK JK 2c 5s 5h 5d", "9s 9h 9d"]))
    assert i2["Mixed canasta of aces"] == 500 and i2["Wild canasta of deuces"] == 2500
    assert t2 == 500 + 2500 + 200 + 140
    (t4, i4), _ = totals("romanian", team(["JK JK 2s 2h 2d 2c 2s"]), team())
    assert i4["Wild canasta"] == 2000 and t4 == 2000 + 100 + 100


def test_romanian_concealed_going_out_200() -> None:
    """Seed 004: "inchiderea ascunsa (cu cartile din mana) 200" (instead of the 100)."""
    (total, items), _ = totals("romanian",
                               team([PURE_K], ["", ""], out=True, concealed=True), team())
    assert items["Going out concealed"] == 200 and "Going out" not in items
    assert total == 500 + 200 + 70


def test_romanian_never_melded_doubled_melded_without_canasta_counted_against() -> None:
    """Seed 004: "In cazul in care o echipa nu s-a etalat deloc pe parcursul jocului i se scad
    toate punctele de pe tabla inmultite cu 2. Daca respectiva echipa s-a etalat, dar nu are
    nici o canasta, atunci i se scad toate punctele etalate si de pe tabla. Daca echipa are
    macar o canasta, se aduna piesele etalate si se scad cele de pe tabla"; a declared red three
    is worth its 100 in every case ("3 de rosu declarat ... 100")."""
    # Never melded: Kd 4c (15) and As (20), doubled: -70; one red three +100.
    (t1, _), _ = totals("romanian", team([], ["Kd 4c", "As"], red=1), team())
    assert t1 == 100 - 70
    # Melded 8s 8h 8d (30) but no canasta: -30 - 35 + 100.
    (t2, i2), _ = totals("romanian", team(["8s 8h 8d"], ["Kd 4c", "As"], red=1), team())
    assert i2["Melded cards, no canasta (counted against)"] == -30
    assert t2 == -30 - 35 + 100
    # With a canasta: +500 + 70 + 30 - 35 + 100.
    (t3, _), _ = totals("romanian", team([PURE_K, "8s 8h 8d"], ["Qd 4c", "As"], red=1), team())
    assert t3 == 500 + 70 + 30 - 35 + 100


def test_romanian_undeclared_red_threes_and_the_penalty_table() -> None:
    """Seed 004: "3 de rosu declarat (nedeclarat) 100 (-300)"; "toate 4 cartile de 3 rosu
    declarate (nedeclarate) 800 (-1200)"; "Greseli si penalizari": "La repetarea greşelii idem,
    plus o penalizare de 300 de puncte"; "Dacă înlocuieşte o carte din formaţie, ex. un doi cu
    un Joker, echipa este penalizată cu 200 de puncte"; "Dacă vrea să o păstreze în mână,
    echipa sa este penalizată cu 200 de puncte"; "B răspunde «Da», A fiind obligat să închidă,
    se dovedeşte că nu poate ... Echipa este penalizată cu 500 de puncte"; a count wrong by more
    than 20 in the team's favour: "penalizată cu de 10 ori diferenţa"."""
    (t1, i1), _ = totals("romanian", team([PURE_K], ["3h", ""]), team())
    assert i1["Red threes left in hand (1)"] == -300 and t1 == 570 - 300
    (t4, _), _ = totals("romanian", team([PURE_K], ["3h 3d", "3h 3d"]), team())
    assert t4 == 570 - 1200
    for name, points in {"extra_stock_cards_repeated": -300, "opening_card_replaced": -200,
                         "wrong_meld_card_kept": -200, "partner_answer_disobeyed": -500}.items():
        (total, _), _ = totals("romanian", team([PURE_K], penalties=[name]), team())
        assert total == 570 + points, name
    (miscount, _), _ = totals(
        "romanian", team([PURE_K], penalties=[{"name": "miscount", "difference": 30}]), team())
    assert miscount == 570 - 300
