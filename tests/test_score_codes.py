"""Score items, canasta kinds and penalties are values (codes), named for people only by the
catalogues (canasta.i18n ``score.<code>``, ``penalty.<code>``).

A penalty row stayed English in every language ("Penalizare: Told "yes" but did not go out",
seed 004's "Echipa este penalizată cu 500 de puncte"), and scoring chose a canasta's bonus by
comparing English labels. Rows and hand results stored before the codes still read, their
code read back from the English words where it is the engine's own.
"""

from __future__ import annotations

import pytest

from canasta import load_preset
from canasta.cli.render import sheet_rows
from canasta.cli.sheets import item_texts
from canasta.core.cards import parse_cards
from canasta.core.melds import CanastaKind, classify_meld
from canasta.core.scoring import (
    ITEM_TEXT,
    KIND_ITEM,
    Penalty,
    ScoreItem,
    ScoreSheet,
    TeamHand,
    canasta_bonus,
    score_hand,
)
from canasta.formats.handresult import hand_result_from_dict, team_hand_to_json
from canasta.i18n import catalogue, languages, score_item_text

OLD_WORDS = 'Told "yes" but did not go out'


def test_every_item_and_kind_is_a_code_with_a_text_in_every_language() -> None:
    assert set(ITEM_TEXT) == set(ScoreItem)
    for kind in CanastaKind:
        assert KIND_ITEM[kind] == kind.value and kind.label
    for lang in languages():
        assert all(f"score.{item}" in catalogue(lang) for item in ScoreItem)


@pytest.mark.parametrize(("meld", "kind", "bonus"), [
    ("Ks Kh Kd Kc Ks Kh Kd", CanastaKind.NATURAL, 500),
    ("Ks Kh Kd Kc Ks Kh 2d", CanastaKind.MIXED, 300),
    ("As Ah Ad Ac As Ah Ad", CanastaKind.NATURAL_ACES, 1000),
    ("2s 2h 2d 2c 2s 2h 2d", CanastaKind.WILD_DEUCES, 3000),
    ("JK JK JK JK JK JK 2d", CanastaKind.WILD_SIX_JOKERS, 5000),
    ("JK JK 2s 2h 2d 2c JK", CanastaKind.WILD, 2000),
])
def test_canastone_bonuses_follow_the_kind(meld: str, kind: CanastaKind, bonus: int) -> None:
    # seed 000: "1000 e 500 punti per canasta rispettivamente pura e impura di Assi", "3000 per
    # canasta pura di pinelle", "5000 punti per canasta formata da sei Joker ed una pinella",
    # "2000 punti per canasta mista di Joker e pinelle"
    rules = load_preset("canastone")
    cards = parse_cards(meld)
    assert classify_meld(cards, rules) is kind
    assert canasta_bonus(cards, rules) == bonus
    sheet = score_hand([TeamHand(melds=(tuple(cards),))], rules)[0]
    assert sheet.codes[0][0] is KIND_ITEM[kind]


@pytest.mark.parametrize(("lang", "words"), [
    ("ro", "Penalizare: Răspunsul partenerului nerespectat"),
    ("it", "Penalità: Risposta del compagno non rispettata"),
    ("pt", "Multa: A resposta do parceiro não foi cumprida"),
])
def test_an_old_stored_penalty_row_reads_back_as_its_code(lang: str, words: str) -> None:
    # a sheet stored before the codes: ("penalty", {"name": <English words>})
    assert score_item_text("penalty", {"name": OLD_WORDS}, lang) == words
    old = ScoreSheet(1, (("Penalty: " + OLD_WORDS, -500),), -500, 0,
                     (("penalty", {"name": OLD_WORDS}),))
    assert sheet_rows(old, lang=lang) == [(words, -500)]
    # words that are no code stay as written
    assert score_item_text("penalty", {"name": "spilt coffee"}, lang).endswith("spilt coffee")


def test_an_old_hand_result_custom_row_of_the_engines_penalty_gets_its_code() -> None:
    doc = _romanian_doc([{"name": "custom", "points": -500, "label": OLD_WORDS}])
    sheet = hand_result_from_dict(doc).score()[0]
    assert sheet.codes[-1] == ("penalty", {"penalty": "partner_answer_disobeyed", "count": 1})
    assert sheet.items[-1][1] == -500
    assert item_texts(sheet, "ro")[-1] == "Penalizare: Răspunsul partenerului nerespectat"


@pytest.mark.parametrize(("penalty", "lang", "words", "points"), [
    ("draw_out_of_turn", "it",
     "Penalità: Carte prese dal tallone fuori turno, irregolarità sanata ×2", -200),
    ({"name": "miscount", "difference": 30}, "ro",
     "Penalizare: Numărătoare greșită în favoarea echipei (diferența 30)", -300),
    ({"name": "custom", "points": -70, "label": "carte căzută"}, "ro",
     "Penalizare: carte căzută", -70),
])
def test_a_named_penalty_is_shown_by_its_code(penalty: object, lang: str, words: str,
                                              points: int) -> None:
    # seed 000 (IRREGOLARITÀ) "prendere carte dal tallone fuori turno costa 100 punti negativi";
    # seed 004 "Echipa e penalizată cu de 10 ori diferența"
    variant = "canastone" if penalty == "draw_out_of_turn" else "romanian"
    entry = {"name": penalty, "count": 2} if isinstance(penalty, str) else penalty
    doc = _romanian_doc([entry], variant)
    result = hand_result_from_dict(doc)
    sheet = result.score()[0]
    assert item_texts(sheet, lang)[-1] == words and sheet.items[-1][1] == points
    # written back, the penalty keeps its name and reads the same
    again = dict(doc, teams=[team_hand_to_json(t) for t in result.teams])
    assert hand_result_from_dict(again).score()[0].codes == sheet.codes


def test_a_custom_penalty_keeps_its_words_and_count() -> None:
    p = Penalty("custom", -140, "carte căzută", 2)
    assert p.values() == {"penalty": "custom", "count": 2, "label": "carte căzută"}
    assert team_hand_to_json(TeamHand(penalties=(p,)))["penalties"] == [
        {"name": "custom", "points": -70, "label": "carte căzută", "count": 2}]


def _romanian_doc(penalties: list[object], variant: str = "romanian") -> dict[str, object]:
    return {"format": "canasta-hand-result", "version": 1, "variant": variant,
            "teams": [
                {"melds": ["9s 9h 9d"], "hands": [["5c"], ["6c"]], "penalties": penalties},
                {"melds": ["Ks Kh Kd"], "hands": [["7c"], ["8c"]]}]}


def test_a_hand_ends_with_an_end_reason_that_round_trips() -> None:
    # seed 004: "Fiecare joc (dona) se termina cand: un jucator a iesit ...; se termina stocul"
    import json
    import random

    from canasta import State
    from canasta.core.events import EndReason, HandEnded
    from canasta.formats.eventjson import event_from_json, event_to_json
    from canasta.formats.jsondoc import FormatError, Reader

    s = State.deal(load_preset("international"), 4, seed=3)
    rng = random.Random(3)
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
    assert isinstance(s.end_reason, EndReason) and s.end_reason in set(EndReason)
    ended = s.events[-1]
    assert isinstance(ended, HandEnded) and ended.reason is s.end_reason
    data = json.loads(json.dumps(event_to_json(ended)))
    assert data["reason"] == s.end_reason.value
    back = event_from_json(Reader("test", FormatError), data, "$")
    assert isinstance(back, HandEnded) and back.reason is s.end_reason
    with pytest.raises(FormatError, match=r"\$.reason: expected one of went_out"):
        event_from_json(Reader("test", FormatError), {**data, "reason": "gave_up"}, "$")
