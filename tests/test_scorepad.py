"""``canasta score`` on hand results checked by hand against each seed's scoring rules, one test
per rule; each docstring quotes the seed's phrase (docs/formats.md, "Hand result")."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from canasta.formats.handresult import (
    PENALTY_TABLES,
    HandResultError,
    hand_result_from_dict,
    hand_result_of_state,
    penalty_catalogue,
)
from canasta.formats.jsondoc import schema
from formatkit import cli, preset, random_states, roundtrip

Hands = Sequence[Sequence[str]]


def team(melds: Sequence[str] = (), reds: Any = 0, hands: Hands = ((), ()), out: bool = False,
         concealed: bool = False, before: int = 0, penalties: Sequence[Any] = ()
         ) -> dict[str, Any]:
    return {"score_before": before, "melds": list(melds), "red_threes": reds,
            "hands": [list(h) for h in hands], "went_out": out, "concealed": concealed,
            "penalties": list(penalties)}


def score(variant: str, *teams: dict[str, Any], options: dict[str, Any] | None = None
          ) -> list[dict[str, Any]]:
    """``canasta score - --json`` on a hand result; the teams' sheets."""
    preset(variant)
    doc = {"format": "canasta-hand-result", "version": 1, "variant": variant,
           "options": options or {}, "teams": list(teams)}
    errors = list(jsonschema.Draft202012Validator(schema("hand_result")).iter_errors(doc))
    assert not errors, errors[0]
    result = cli(["score", "-", "--json"], json.dumps(doc))
    assert result.exit_code == 0, result.stderr
    out: list[dict[str, Any]] = json.loads(result.stdout)["teams"]
    for sheet in out:
        assert sheet["hand_total"] == sum(i["points"] for i in sheet["items"])
        assert sheet["score_after"] == sheet["score_before"] + sheet["hand_total"]
    return out


def items(sheet: dict[str, Any]) -> dict[str, int]:
    return {i["label"]: i["points"] for i in sheet["items"]}


def refused(variant: str, *teams: dict[str, Any]) -> HandResultError:
    preset(variant)
    with pytest.raises(HandResultError) as info:
        hand_result_from_dict({"variant": variant, "teams": list(teams)}, "table.json")
    return info.value


NAT_K = "Ks Kh Kd Kc Ks Kh Kd"        # 70 points
MIX_Q = "Qs Qh Qd Qc Qs 2c JK"        # 5 naturals + 2 wild cards: 50 + 20 + 50 = 120


# -- international (seed 002, completed from pagat as shared/rules/variants.md says) ---------

def test_international_natural_and_mixed_canastas() -> None:
    """Seed 002: "naturali o pulite o pure: formate da sette carte naturali dello stesso valore
    facciale, senza l'ausilio di matte. miste o sporche o impure: combinazioni di sette carte
    dello stesso valore facciale formata con l'ausilio di almeno una matta" (500 and 300, pagat)."""
    a, b = score("international",
                 team([NAT_K, MIX_Q], hands=[[], ["5c"]], out=True),
                 team(["9s 9d 9h"], hands=[["4h"], ["8s", "JK"]]))
    assert a["items"] == [
        {"label": "Natural canasta", "points": 500}, {"label": "Mixed canasta", "points": 300},
        {"label": "Going out", "points": 100}, {"label": "Melded cards", "points": 190},
        {"label": "Cards left in hand, player 2", "points": -5}]
    assert a["hand_total"] == 1085
    assert b["hand_total"] == 30 - 5 - 60


def test_international_card_values() -> None:
    """Seed 002: "il jolly, talvolta chiamato mattone, vale 50 punti; il 2, noto come pinella, 20
    punti; l'asso 20 punti; le carte dal re all'8, 10 punti ciascuna; le carte dal 7 al 4, 5 punti
    ciascuna ... i 3 neri, 5 punti"."""
    _, b = score("international",
                 team(["5s 5h 5d 5c 5s 5h 5d"], hands=[[], []], out=True),
                 team(["Qh Qd Qc"], hands=[["JK", "2s", "As", "Kh", "8d"], ["7c", "4s", "3s"]]))
    assert items(b) == {"Melded cards": 30, "Cards left in hand, player 1": -110,
                        "Cards left in hand, player 2": -15}


def test_international_hand_points_subtracted() -> None:
    """Seed 002: "la coppia che si è aggiudicata la chiusura sottrae dal proprio punteggio i punti
    delle carte rimaste in mano al giocatore che non ha chiuso, mentre l'altra coppia sottrae le
    carte rimaste in mano a entrambi i giocatori"."""
    a, b = score("international",
                 team([NAT_K], hands=[[], ["Jc", "Jd"]], out=True),
                 team(["9s 9d 9h"], hands=[["Qs"], ["Qh"]]))
    # the row keeps the partner's own number in the team (it was "player 1")
    assert [k for k in items(a) if k.startswith("Cards left")] == ["Cards left in hand, player 2"]
    assert items(a)["Cards left in hand, player 2"] == -20
    assert items(b)["Cards left in hand, player 1"] == -10
    assert items(b)["Cards left in hand, player 2"] == -10


def test_international_red_threes_100_each_and_800_for_four() -> None:
    """Seed 002: "I 3 rossi, noti come onori, valgono 100 punti ciascuno" (all four 800, pagat)."""
    a, _ = score("international", team([NAT_K], reds=3, hands=[["4c"], ["4d"]]),
                 team(["9s 9d 9h"], reds=["3d"], hands=[["4h"], ["4s"]]))
    assert items(a)["Red threes (3)"] == 300
    a, _ = score("international", team([NAT_K], reds=["3h", "3d", "3h", "3d"],
                                       hands=[["4c"], ["4d"]]),
                 team(["9s 9d 9h"], hands=[["4h"], ["4s"]]))
    assert items(a)["Red threes (4)"] == 800


def test_international_red_threes_count_against_a_side_without_melds() -> None:
    """Seed 002: "Gli onori scoperti possono dare diritto a punti aggiuntivi al termine della
    smazzata" (pagat: minus for a side that has melded nothing)."""
    _, b = score("international", team([NAT_K], hands=[[], ["4d"]], out=True),
                 team([], reds=1, hands=[["4h"], ["4s"]]))
    assert items(b)["Red threes (1)"] == -100


def test_international_concealed_going_out() -> None:
    """Seed 002: "Se un giocatore riesce ad aprire e a chiudere in uno stesso turno (calando
    ovviamente almeno una canasta), si parla di chiusura di mano" (200 in all, pagat)."""
    a, _ = score("international", team([NAT_K, "9s 9d 9h"], hands=[[], ["4d"]], out=True,
                                       concealed=True),
                 team([], hands=[["4h"], ["4s"]]))
    assert items(a)["Going out concealed"] == 200 and "Going out" not in items(a)


def test_international_red_three_left_in_hand() -> None:
    """Hoyle via shared/rules/variants.md: "Red 3 left in hand ... −500"."""
    _, b = score("international", team([NAT_K], hands=[[], ["4d"]], out=True),
                 team(["9s 9d 9h"], hands=[["4h", "3h"], ["4s"]]))
    assert items(b)["Red threes left in hand (1)"] == -500
    assert items(b)["Cards left in hand, player 1"] == -5


# -- Canastone (seed 000) ----------------------------------------------------------------------

def test_canastone_going_out_300_and_canastas_500_300() -> None:
    """Seed 000: "la «chiusura» di smazzata (300 punti); le «canaste» formate: 500 punti per
    canasta pura di carte naturali, 300 punti per canasta impura di carte naturali"."""
    a, b = score("canastone", team([NAT_K, MIX_Q], hands=[[], ["4c"]], out=True),
                 team(["9s 9d 9h"], hands=[["4h"], ["8s"]]))
    assert items(a) == {"Natural canasta": 500, "Mixed canasta": 300, "Going out": 300,
                        "Melded cards": 190, "Cards left in hand, player 2": -5}
    assert a["hand_total"] == 1285 and b["hand_total"] == 15


def test_canastone_aces_canastas() -> None:
    """Seed 000: "1000 e 500 punti per canasta rispettivamente pura e impura di Assi"."""
    a, b = score("canastone", team(["As Ah Ad Ac As Ah Ad"], hands=[["5c"], ["5d"]]),
                 team(["Ac Ac As Ah Ad 2c JK"], hands=[["6c"], ["6d"]]))
    assert items(a)["Natural canasta of aces"] == 1000 and a["hand_total"] == 1130
    assert items(b)["Mixed canasta of aces"] == 500 and b["hand_total"] == 660


def test_canastone_wild_canastas() -> None:
    """Seed 000: "2000 punti per canasta mista di Joker e pinelle, 3000 per canasta pura di
    pinelle, 5000 punti per canasta formata da sei Joker ed una pinella"."""
    a, b = score("canastone", team(["2s 2h 2d 2c 2s 2h 2d"], hands=[["4s"], ["4h"]]),
                 team(["JK JK JK JK JK JK 2c"], hands=[["4d"], ["4c"]]))
    assert items(a)["Wild canasta of deuces"] == 3000 and a["hand_total"] == 3000 + 140 - 10
    assert items(b)["Wild canasta of six jokers and a deuce"] == 5000
    assert b["hand_total"] == 5000 + 320 - 10
    a, _ = score("canastone", team(["JK JK 2s 2h 2d 2c 2c"], hands=[["4s"], ["4h"]]),
                 team([], hands=[["4d"], ["4c"]]))
    assert items(a)["Wild canasta"] == 2000 and items(a)["Melded cards"] == 200


def test_canastone_five_canastas() -> None:
    """Seed 000: "1000 punti suppletivi per la coppia che abbia chiuso almeno cinque canaste
    (con necessaria rappresentanza sia di canasta pura che di impura) e 2000 punti per la coppia
    che abbia chiuso almeno cinque canaste pure con in più almeno una impura"."""
    a, b = score(
        "canastone",
        team([NAT_K, "Qs Qh Qd Qc Qs Qh Qd", "Js Jh Jd Jc Js Jh Jd",
              "10s 10h 10d 10c 10s 10h 10d", "9s 9h 9d 9c 9s 2c JK"], hands=[["4s"], ["4h"]]),
        team(["8s 8h 8d 8c 8s 8h 8d", "7s 7h 7d 7c 7s 7h 7d", "6s 6h 6d 6c 6s 6h 6d",
              "5s 5h 5d 5c 5s 5h 5d", "4s 4h 4d 4c 4s 4h 4d", "As Ah Ad Ac As 2d JK"],
             hands=[["Ks"], ["Kh"]]))
    assert items(a)["Five canastas, natural and mixed"] == 1000
    assert a["hand_total"] == 4 * 500 + 300 + 1000 + 400 - 10
    assert items(b)["Five natural canastas and a mixed one"] == 2000
    assert "Five canastas, natural and mixed" not in items(b)  # tiered: 2000 replaces 1000
    assert b["hand_total"] == 5 * 500 + 500 + 2000 + 380 - 20


def test_canastone_red_three_sign_by_canastas() -> None:
    """Seed 000: "il punteggio viene attribuito positivamente se la coppia che li possiede ha
    esposto almeno una canasta pura ed una impura, non viene attribuito se sono state esposte una
    o più canaste pure ma non l'impura, viene attribuito negativamente se sono state esposte una o
    più canaste impure ma non almeno una pura, viene attribuito pure negativamente ma raddoppiato
    in assenza di canaste di ogni tipo"."""
    a, b = score("canastone", team([NAT_K, MIX_Q], reds=1, hands=[["4s"], ["4h"]]),
                 team(["Js Jh Jd Jc Js Jh Jd"], reds=2, hands=[["5s"], ["5h"]]))
    assert items(a)["Red threes (1)"] == 100 and a["hand_total"] == 1080
    assert items(b)["Red threes (2)"] == 0 and b["hand_total"] == 560
    a, b = score("canastone", team([MIX_Q], reds=1, hands=[["4s"], ["4h"]]),
                 team(["9s 9h 9d"], reds=2, hands=[["5s"], ["5h"]]))
    assert items(a)["Red threes (1)"] == -100 and a["hand_total"] == 310
    assert items(b)["Red threes (2)"] == -400 and b["hand_total"] == -380


@pytest.mark.parametrize(("count", "value"), [(4, 800), (5, 1000), (6, 1200)])
def test_canastone_four_five_six_red_threes(count: int, value: int) -> None:
    """Seed 000: "se una linea ne possiede quattro, cinque o sei segnerà rispettivamente 800,
    1000 e 1200 punti"."""
    a, _ = score("canastone", team([NAT_K, MIX_Q], reds=count, hands=[["4s"], ["4h"]]),
                 team(["Js Jh Jd Jc Js Jh Jd", "10s 10h 10d 10c 10s 2d JK"], reds=6 - count,
                      hands=[["5s"], ["5h"]]))
    assert items(a)[f"Red threes ({count})"] == value


def test_canastone_hand_doubled_for_a_side_that_had_not_opened() -> None:
    """Seed 000: "questi punti negativi vengono conteggiati raddoppiati se la coppia penalizzata
    al momento della chiusura non aveva ancora «aperto»"."""
    _, b = score("canastone", team([NAT_K, MIX_Q], hands=[[], ["4c"]], out=True),
                 team([], hands=[["Ks", "4c"], ["JK"]]))
    assert items(b) == {"Melded cards": 0,
                        "Cards left in hand, player 1 (x2, side had not opened)": -30,
                        "Cards left in hand, player 2 (x2, side had not opened)": -100}


CANASTONE_PENALTIES = [
    ("draw_out_of_turn", -100), ("draw_out_of_turn_uncorrectable", -200),
    ("extra_stock_cards", -50), ("pile_taken_without_right", -200),
    ("meld_out_of_turn_opponent", -100), ("meld_out_of_turn_partner", -200),
]


@pytest.mark.parametrize(("name", "points"), CANASTONE_PENALTIES)
def test_canastone_irregularities(name: str, points: int) -> None:
    """Seed 000, IRREGOLARITÀ: "prendere carte dal tallone fuori turno costa 100 punti negativi se
    l'irregolarità può essere sanata, altrimenti 200 punti; prendere carte in più dal tallone al
    proprio turno: 50 punti ...; prendere il «pozzo» senza averne diritto: 200 punti ...; mettere
    in tavola combinazioni o aggiungere carte a combinazioni già in tavola fuori turno: 100 punti
    se fatto quanto il turno è ad un avversario, 200 punti nel corso del turno del partner"."""
    _, b = score("canastone", team([NAT_K, MIX_Q], hands=[[], ["4c"]], out=True),
                 team(["9s 9d 9h"], hands=[["4h"], ["8s"]], penalties=[name, name]))
    rule = penalty_catalogue(preset("canastone"))[name]
    assert rule.points == points and "seed 000" in rule.source
    assert items(b)[f"Penalty: {rule.row}"] == points
    assert b["hand_total"] == 15 + 2 * points


def test_canastone_red_three_kept_in_hand() -> None:
    """Seed 000: "un Tre rosso trattenuto in mano al momento della chiusura costa 500 punti
    negativi"."""
    _, b = score("canastone", team([NAT_K, MIX_Q], hands=[[], ["4c"]], out=True),
                 team(["9s 9d 9h"], hands=[["4h"], ["8s"]], penalties=["red_three_in_hand"]))
    assert items(b)["Red threes left in hand (1)"] == -500


def test_canastone_going_out_needs_a_natural_and_a_mixed_canasta() -> None:
    """Seed 000: "la condizione che la coppia abbia completato almeno una canasta pura ed una
    impura"."""
    err = refused("canastone", team([NAT_K], hands=[[], ["4c"]], out=True),
                  team([], hands=[["4h"], ["8s"]]))
    assert err.path == "$.teams[0].went_out" and "natural_and_mixed_required" in err.expected


def test_canastone_wild_cards_fewer_than_naturals() -> None:
    """Seed 000: "possono comprendere Joker o pinelle, ma non mai in numero pari o superiore a
    quello delle carte naturali"."""
    err = refused("canastone", team(["Qs Qh 2c JK"], hands=[["4h"], ["8s"]]),
                  team([], hands=[["4h"], ["8s"]]))
    assert err.path == "$.teams[0].melds[0]" and "melds.wild_ratio" in err.expected


# -- classic Italian (seed 001) ----------------------------------------------------------------

def test_classic_italian_going_out_100_and_concealed_200() -> None:
    """Seed 001: "premio chiusura: 100 punti; 200 punti per «chiusura in mano» ovvero senza aver
    precedentemente messo in tavola alcuna carta"."""
    a, _ = score("classic_italian", team([NAT_K], hands=[[], ["4c"]], out=True),
                 team([], hands=[["4h"], ["8s"]]))
    assert items(a)["Going out"] == 100
    a, _ = score("classic_italian", team([NAT_K], hands=[[], ["4c"]], out=True, concealed=True),
                 team([], hands=[["4h"], ["8s"]]))
    assert items(a)["Going out concealed"] == 200


def test_classic_italian_one_canasta_to_go_out() -> None:
    """Seed 001: "obbligo di aver completato almeno una canasta per poter chiudere"."""
    score("classic_italian", team([NAT_K], hands=[[], ["4c"]], out=True),
          team([], hands=[["4h"], ["8s"]]))
    err = refused("classic_italian", team(["9s 9d 9h"], hands=[[], ["4c"]], out=True),
                  team([], hands=[["4h"], ["8s"]]))
    assert err.path == "$.teams[0].went_out" and "canastas_required" in err.expected


def test_classic_italian_black_three_meld() -> None:
    """Seed 001: "deponendo una combinazione di 3 o più Tre neri (che naturalmente non tollera
    Joker o pinelle annessi)"."""
    a, _ = score("classic_italian", team([NAT_K, "3s 3c 3s"], hands=[[], ["4c"]], out=True),
                 team([], hands=[["4h"], ["8s"]]))
    assert items(a)["Melded cards"] == 70 + 15
    err = refused("classic_italian", team([NAT_K, "3s 3c JK"], hands=[[], ["4c"]], out=True),
                  team([], hands=[["4h"], ["8s"]]))
    assert err.path == "$.teams[0].melds[1]"


def test_classic_italian_irregularities_as_canastone() -> None:
    """Seed 001: "Per le irregolarità ci si comporta come per il Canastone"."""
    assert PENALTY_TABLES["classic_italian"] is PENALTY_TABLES["canastone"]
    assert penalty_catalogue(preset("classic_italian")).keys() == penalty_catalogue(
        preset("canastone")).keys()


# -- Brazilian (seed 003) ----------------------------------------------------------------------

def test_brazilian_clean_and_dirty_canastra() -> None:
    """Seed 003: "Canastra naturale (pulita): 200 punti. Canastra mista (sporca), con almeno un
    jolly: 100 punti"."""
    a, _ = score("brazilian", team([NAT_K, MIX_Q], hands=[["4c"], ["4d"]]),
                 team([], hands=[["4h"], ["8s"]]))
    assert items(a)["Natural canasta"] == 200 and items(a)["Mixed canasta"] == 100


def test_brazilian_going_out() -> None:
    """Seed 003: "Chiusura della mano: 100 punti (200 se «in mano chiusa», cioè scesa in un unico
    turno)"."""
    a, _ = score("brazilian", team([NAT_K], hands=[[], ["4c"]], out=True),
                 team([], hands=[["4h"], ["8s"]]))
    assert items(a)["Going out"] == 100
    a, _ = score("brazilian", team([NAT_K], hands=[[], ["4c"]], out=True, concealed=True),
                 team([], hands=[["4h"], ["8s"]]))
    assert items(a)["Going out concealed"] == 200


def test_brazilian_red_threes() -> None:
    """Seed 003: "Ogni 3 rosso davanti alla vostra squadra: 100 punti (tutti e quattro i 3 rossi
    insieme: 800 punti totali, bonus quadruplo)"."""
    a, b = score("brazilian", team([NAT_K], reds=4, hands=[["4c"], ["4d"]]),
                 team([], hands=[["4h"], ["8s"]]))
    assert items(a)["Red threes (4)"] == 800
    a, b = score("brazilian", team([NAT_K], reds=1, hands=[["4c"], ["4d"]]),
                 team([], reds=2, hands=[["4h"], ["8s"]]))
    assert items(a)["Red threes (1)"] == 100
    assert items(b)["Red threes (2)"] == 200  # never negative in seed 003


def test_brazilian_hand_total() -> None:
    """Seed 003: "Totale della mano: sommate tutti i bonus più il valore di ogni carta che la
    squadra ha nelle combinazioni; sottraete il valore di ogni carta rimasta in mano" with
    "Jolly = 50, Asso = 20, 2 = 20, carte dall'8 al Re = 10, carte dal 4 al 7 e 3 nero = 5"."""
    a, b = score("brazilian", team([NAT_K, "As Ad 2s"], hands=[[], ["9c", "7c"]], out=True),
                 team(["8s 8h 8d"], hands=[["JK", "3s"], ["2d", "Ah", "Qc", "4c"]]))
    assert a["hand_total"] == 200 + 100 + (70 + 60) - 15
    assert b["hand_total"] == 30 - 55 - 55


# -- Romanian (seed 004, "Numararea punctelor") ------------------------------------------------

def test_romanian_going_out() -> None:
    """Seed 004: "inchiderea 100", "inchiderea ascunsa (cu cartile din mana) 200"."""
    a, _ = score("romanian", team([NAT_K], hands=[[], ["4c"]], out=True),
                 team(["9s 9d 9h"], hands=[["4h"], ["8s"]]))
    assert items(a)["Going out"] == 100
    a, _ = score("romanian", team([NAT_K], hands=[[], ["4c"]], out=True, concealed=True),
                 team(["9s 9d 9h"], hands=[["4h"], ["8s"]]))
    assert items(a)["Going out concealed"] == 200


def test_romanian_red_three_declared_and_undeclared() -> None:
    """Seed 004: "3 de rosu declarat (nedeclarat) 100 (-300)"."""
    a, b = score("romanian", team([NAT_K], reds=1, hands=[["4c"], ["4d"]]),
                 team(["9s 9d 9h"], hands=[["4h", "3h"], ["8s"]]))
    assert items(a)["Red threes (1)"] == 100
    assert items(b)["Red threes left in hand (1)"] == -300
    assert items(b)["Cards left in hand, player 1"] == -5


def test_romanian_all_four_red_threes() -> None:
    """Seed 004: "toate 4 cartile de 3 rosu declarate (nedeclarate) 800 (-1200)"."""
    a, _ = score("romanian", team([NAT_K], reds=4, hands=[["4c"], ["4d"]]),
                 team(["9s 9d 9h"], hands=[["4h"], ["8s"]]))
    assert items(a)["Red threes (4)"] == 800
    _, b = score("romanian", team([NAT_K], hands=[["4c"], ["4d"]]),
                 team(["9s 9d 9h"], hands=[["3h", "3d"], ["3h", "3d"]]))
    assert items(b)["Red threes left in hand (4)"] == -1200


def test_romanian_black_threes_in_hand() -> None:
    """Seed 004: "3 de negru in mana -100", "toate 4 cartile de 3 negru -1600"."""
    _, b = score("romanian", team([NAT_K], hands=[["4c"], ["4d"]]),
                 team(["9s 9d 9h"], hands=[["3s", "4h"], ["3c", "3s"]]))
    assert items(b)["Black threes in hand (3)"] == -300
    assert items(b)["Cards left in hand, player 1"] == -5
    _, b = score("romanian", team([NAT_K], hands=[["4c"], ["4d"]]),
                 team(["9s 9d 9h"], hands=[["3s", "3c"], ["3c", "3s"]]))
    assert items(b)["All four black threes in hand"] == -1600


def test_romanian_clean_and_dirty_canastas() -> None:
    """Seed 004: "canasta murdara (neagra) – contine valori 300", "canasta curata (rosie) – nu
    contine valori 500"."""
    a, _ = score("romanian", team([NAT_K, MIX_Q], hands=[["4c"], ["4d"]]),
                 team(["9s 9d 9h"], hands=[["4h"], ["8s"]]))
    assert items(a)["Natural canasta"] == 500 and items(a)["Mixed canasta"] == 300


def test_romanian_aces_canastas() -> None:
    """Seed 004: "canasta de 1 neagra 500", "canasta de 1 rosie 1,000"."""
    a, _ = score("romanian", team(["As Ah Ad Ac As Ah Ad"], hands=[["4c"], ["4d"]]),
                 team(["9s 9d 9h"], hands=[["4h"], ["8s"]]))
    assert items(a)["Natural canasta of aces"] == 1000
    _, b = score("romanian", team([NAT_K], hands=[["4c"], ["4d"]]),
                 team(["Ac As Ah Ad Ac 2c JK"], hands=[["4h"], ["8s"]]))
    assert items(b)["Mixed canasta of aces"] == 500


def test_romanian_wild_canastas() -> None:
    """Seed 004: "canasta de valori neagra 2,000", "canasta de valori rosie 2,500"."""
    a, _ = score("romanian", team(["2s 2h 2d 2c 2s 2h 2d"], hands=[["4c"], ["4d"]]),
                 team(["9s 9d 9h"], hands=[["4h"], ["8s"]]))
    assert items(a)["Wild canasta of deuces"] == 2500
    a, _ = score("romanian", team(["JK JK JK JK 2s 2h 2d"], hands=[["4c"], ["4d"]]),
                 team(["9s 9d 9h"], hands=[["4h"], ["8s"]]))
    assert items(a)["Wild canasta"] == 2000


def test_romanian_points_of_a_side_without_opening_or_canasta() -> None:
    """Seed 004: "In cazul in care o echipa nu s-a etalat deloc pe parcursul jocului i se scad
    toate punctele de pe tabla inmultite cu 2. Daca respectiva echipa s-a etalat, dar nu are nici
    o canasta, atunci i se scad toate punctele etalate si de pe tabla"."""
    _, b = score("romanian", team([NAT_K], hands=[[], ["4c"]], out=True),
                 team([], hands=[["Qs", "4h"], ["JK"]]))
    assert items(b)["Cards left in hand, player 1 (x2, side had not opened)"] == -30
    assert items(b)["Cards left in hand, player 2 (x2, side had not opened)"] == -100
    _, b = score("romanian", team([NAT_K], hands=[[], ["4c"]], out=True),
                 team(["9s 9d 9h"], hands=[["Qs"], ["4h"]]))
    assert items(b)["Melded cards, no canasta (counted against)"] == -30
    assert b["hand_total"] == -30 - 10 - 5


ROMANIAN_PENALTIES = [
    ("extra_stock_cards_repeated", -300), ("opening_card_replaced", -200),
    ("wrong_meld_card_kept", -200), ("partner_answer_disobeyed", -500),
]


@pytest.mark.parametrize(("name", "points"), ROMANIAN_PENALTIES)
def test_romanian_mistakes_and_penalties(name: str, points: int) -> None:
    """Seed 004, "Greseli si penalizari": "La repetarea greşelii idem, plus o penalizare de 300 de
    puncte"; "Dacă înlocuieşte o carte din formație, ex. un doi cu un Joker, echipa este penalizată
    cu 200 de puncte"; "Dacă vrea să o păstreze în mână, echipa sa este penalizată cu 200 de
    puncte"; "B răspunde “Da”, A fiind obligat să închidă, se dovedeşte că nu poate ... Echipa este
    penalizată cu 500 de puncte"."""
    _, b = score("romanian", team([NAT_K], hands=[[], ["4c"]], out=True),
                 team(["9s 9d 9h"], hands=[["4h"], ["8s"]], penalties=[{"name": name}]))
    rule = penalty_catalogue(preset("romanian"))[name]
    assert rule.points == points and "seed 004" in rule.source
    assert items(b)[f"Penalty: {rule.row}"] == points


def test_romanian_miscount() -> None:
    """Seed 004: "o echipă “greşeşte” cu mai mult de 20 de puncte în favoarea sa ... Echipa e
    penalizată cu de 10 ori diferența"."""
    _, b = score("romanian", team([NAT_K], hands=[[], ["4c"]], out=True),
                 team(["9s 9d 9h"], hands=[["4h"], ["8s"]],
                      penalties=[{"name": "miscount", "difference": 35}]))
    assert any(p == -350 for p in items(b).values())
    err = refused("romanian", team([NAT_K], hands=[[], ["4c"]], out=True),
                  team(["9s 9d 9h"], hands=[["4h"], ["8s"]],
                       penalties=[{"name": "miscount", "difference": 15}]))
    assert err.path == "$.teams[1].penalties[0].difference"


# -- the command itself ------------------------------------------------------------------------

def test_score_prints_an_itemized_rich_sheet(tmp_path: Path) -> None:
    doc = {"variant": "international", "teams": [
        team([NAT_K, MIX_Q], hands=[[], ["5c"]], out=True, before=1200),
        team(["9s 9d 9h"], hands=[["4h"], ["8s", "JK"]], before=300)]}
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(doc), "utf-8")
    result = cli(["score", str(path)])
    assert result.exit_code == 0, result.stderr
    for text in ("Natural canasta", "Mixed canasta", "Going out", "Melded cards", "+1085",
                 "2285", "Hand total", "Match total", "265"):
        assert text in result.stdout


def test_score_json_keys() -> None:
    doc = {"variant": "international", "teams": [
        team([NAT_K], hands=[[], ["5c"]], out=True, before=4000),
        team([], hands=[["4h"], ["8s"]])]}
    result = cli(["score", "-", "--json"], json.dumps(doc))
    out = json.loads(result.stdout)
    assert set(out["teams"][0]) >= {"items", "hand_total", "score_after"}
    assert out["teams"][0]["score_after"] == 4000 + 500 + 100 + 70 - 5


@pytest.mark.parametrize(("mutate", "where"), [
    (lambda d: d["teams"][1]["melds"].append(["9s", "Xx", "9h"]), "$.teams[1].melds[1][1]"),
    (lambda d: d["teams"][0].update(went_out="yes"), "$.teams[0].went_out"),
    (lambda d: d["teams"][1].update(went_out=True, melds=["Qs Qh Qd Qc Qs Qh Qd"],
                                    hands=[[], ["8s"]]), "$.teams[1].went_out"),
    (lambda d: d["teams"][1]["penalties"].append("shouting"), "$.teams[1].penalties[0].name"),
    (lambda d: d["teams"][1]["hands"].append([]), "$.teams"),
    (lambda d: d["teams"][1]["hands"][0].extend(["Ks"] * 2), "$.teams"),
    (lambda d: d.update(variant="chess"), "$.variant"),
])
def test_bad_hand_results_name_the_file_and_path(mutate: Any, where: str,
                                                 tmp_path: Path) -> None:
    doc = {"variant": "international", "teams": [
        team([NAT_K], hands=[[], ["5c"]], out=True), team(["9s 9d 9h"], hands=[["4h"], ["8s"]])]}
    mutate(doc)
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(doc), "utf-8")
    result = cli(["score", str(path), "--json"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert f"{path}: {where}" in result.stderr.replace("\n", "")


def test_bad_json_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text('{"variant": "international",\n "teams": [}\n', "utf-8")
    result = cli(["score", str(path)])
    assert result.exit_code == 2 and f"{path}: line 2" in result.stderr


def test_missing_file() -> None:
    result = cli(["score", "/no/such/file.json"])
    assert result.exit_code == 2 and "/no/such/file.json" in result.stderr


def test_the_engine_and_the_scorepad_agree() -> None:
    """A hand played in the engine, written as a hand result and scored by `canasta score`,
    gets the engine's own sheets."""
    rules = preset("international")
    for seed in range(4):
        *_, state = random_states(rules, 4, seed)
        doc = roundtrip(hand_result_of_state(state))
        assert not list(jsonschema.Draft202012Validator(schema("hand_result")).iter_errors(doc))
        result = cli(["score", "-", "--json"], json.dumps(doc))
        sheets = json.loads(result.stdout)["teams"]
        assert [{k: s[k] for k in ("items", "hand_total", "score_before", "score_after")}
                for s in sheets] == [
            {k: v for k, v in s.to_dict().items() if k != "team"} for s in state.score()]


# -- interactive -------------------------------------------------------------------------------

def test_interactive_scorepad_keeps_the_match_sheet() -> None:
    lines = [
        "international", "4",
        # hand 1, team 1
        NAT_K, "9s 9x", "9s 9d JK", "", "1", "y", "n", "", "5c 7d", "",
        # team 2
        "Qs Qh Qd", "", "0", "Js", "4h 4d", "bogus", "draw_out_of_turn", "",
        "y",
        # hand 2: team 1 did not go out, team 2 did
        "", "0", "n", "4c", "4d", "",
        NAT_K, "", "x", "2", "y", "y", "", "Kc", "",
        "n",
    ]
    result = cli(["score", "--interactive"], "\n".join(lines) + "\n")
    assert result.exit_code == 0, result.stdout
    out = result.stdout
    assert "is not a card" in out and "unknown penalty" in out  # re-asked, not fatal
    assert "'x' is not a whole number" in out
    assert "Match sheet" in out
    # Hand 1: team 1 = 500 + 100 (red three) + 100 (out) + 140 melded - 10 = 830; team 2 =
    # 30 - 10 - 10 = 10. Hand 2: team 1 = -5 - 5 (no melds: no doubling in international) =
    # -10; team 2 = 500 + 200 (concealed) + 200 (red threes) + 70 - 10 = 960.
    assert "+830 = 830" in out and "+10 = 10" in out
    assert "-10 = 820" in out and "+960 = 970" in out


def test_interactive_rule_options_and_eof() -> None:
    result = cli(["score", "-i", "--variant", "nosuch"], "")
    assert result.exit_code == 2 and "unknown variant" in result.stderr
    result = cli(["score", "-i", "--variant", "international", "--players", "4"], "")
    assert result.exit_code == 0


def test_hand_result_of_a_state_reads_back() -> None:
    rules = preset("romanian")
    *_, state = random_states(rules, 4, 3)
    result = hand_result_from_dict(roundtrip(hand_result_of_state(state)), "x")
    assert [s.hand_total for s in result.score()] == [s.hand_total for s in state.score()]
