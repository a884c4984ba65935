"""Refusals that told a card player something untrue, and `why` that answered with an internal
rule id or a seed sentence about something else, in the table's language."""

from __future__ import annotations

import pytest

from canasta import parse_cards
from canasta.cli import render
from canasta.cli.session import Session
from canasta.core.actions import LayOff, TakePile
from canasta.core.cards import card_text
from canasta.core.state import IllegalActionError, State
from canasta.formats.records import match_from_state
from canasta.i18n import languages
from canasta.i18n.refusals import refusal_parts, refusal_text
from tablekit import table

LANGS = languages()


def session(state: State, lang: str) -> Session:
    match = match_from_state(state, seed=1)
    players = match.players
    return Session(match, render.seat_names(players, None, lang),
                   [""] + ["greedy"] * (players - 1), lang=lang)


def one_natural_under_an_open_pile() -> State:
    """International, side opened, the pile not frozen with Js on top; the hand holds one
    natural J and no wild card."""
    return table("international", "Jh 5c 6d 7h 8s 9c", melds={0: ["Qs Qh Qd"]},
                 pile="4c Js")


@pytest.mark.parametrize("lang", LANGS)
def test_an_open_pile_refusal_says_a_wild_card_may_stand_in(lang: str) -> None:
    """The pile's line said "(one may be a wild card)" while the refusal said "needs 2
    natural cards": the refusal now says what the line says."""
    s = one_natural_under_an_open_pile()
    err = pytest.raises(IllegalActionError, s.verify, TakePile(tuple(parse_cards("Jh")))).value
    assert err.rule == "pile.unfrozen_naturals"
    text = refusal_text(err, s.rules, lang, s)
    words = {"en": "one natural and one wild card", "it": "una naturale e una matta",
             "ro": "una naturală și o valoare", "pt": "uma natural e um curinga"}
    assert words[lang] in text, text
    assert "2 natural cards" not in text


def test_where_no_wild_card_may_stand_in_the_refusal_says_naturals() -> None:
    s = table("canastone", "Jh 5c 6d 7h 8s 9c", melds={0: ["Qs Qh Qd"]}, pile="4c Js")
    err = pytest.raises(IllegalActionError, s.verify, TakePile(tuple(parse_cards("Jh")))).value
    assert "2 natural cards" in refusal_text(err, s.rules, "en", s)


@pytest.mark.parametrize("cards", ["8c", "5h"])
def test_laying_off_onto_no_meld_or_the_wrong_one_quotes_no_sentence_on_sequences(
        cards: str) -> None:
    """`l 8 8c` with no meld of 8s and `l 10 5h` quoted "non sono concesse combinazioni di
    carte in scala": the sentence is about sequences, not about these moves."""
    s = table("international", "8c 5h 6d 7h Kc Kd", melds={0: ["Ts Th Td"]}, phase="play")
    target = 8 if cards == "8c" else 10
    err = pytest.raises(IllegalActionError, s.verify,
                        LayOff(target, tuple(parse_cards(cards)))).value
    assert err.rule == "melds"
    parts = refusal_parts(err, s.rules, s)
    assert parts["quote"] is None
    for lang in LANGS:
        game = session(s, lang)
        refused = game.submit(f"l {'8' if target == 8 else '10'} {cards}")
        assert refused.kind == "refused", refused.lines
        why = " ".join(game.submit("why").lines)
        assert "scala" not in why and "sequenz" not in why, why
        assert "rule id" not in why and "melds" not in why, why


@pytest.mark.parametrize("lang", LANGS)
def test_why_after_cards_not_held_never_answers_with_a_rule_id(lang: str) -> None:
    s = table("international", "8c 5h 6d 7h Kc Kd", melds={0: ["Ts Th Td"]}, phase="play")
    game = session(s, lang)
    not_held = next(c for c in ("Qs", "Qh", "Qd", "Qc") if c not in
                    [card_text(x) for x in s.hand_cards(0)])
    refused = game.submit(f"d {not_held}")
    assert refused.kind == "refused"
    why = " ".join(game.submit("why").lines)
    for internal in ("rule id", "id regulă", "id da regra", "(regola cards)", "cards)"):
        assert internal not in why, why
    assert why.split(":", 1)[1].strip()  # the rule in words


@pytest.mark.parametrize(("lang", "label"), [
    ("en", "the International Canasta text (seed 002, written in Italian) says: “"),
    ("pt", "o texto de Canastra internacional (seed 002, escrito em italiano) diz: “"),
    ("it", "scritto in italiano) dice: «"),
    ("ro", "scris în italiană) spune: „"),
])
def test_why_labels_the_seed_sentence_in_the_tables_language(lang: str, label: str) -> None:
    """`why` quoted "seed 002: …" in Italian with no word of which text it was, in English
    and Portuguese tables too: the label says which variant's text and its language."""
    s = one_natural_under_an_open_pile()
    game = session(s, lang)
    assert game.submit("t Jh").kind == "refused"
    why = game.submit("why").lines
    assert label in why[0], why
    assert "(rule:" not in " ".join(why)
    assert len(why) == 2 and "2" in why[1]  # the rule again, in the table's words


def test_why_after_a_line_that_is_no_move_does_not_explain_an_older_refusal() -> None:
    s = one_natural_under_an_open_pile()
    game = session(s, "en")
    assert game.submit("t Jh").kind == "refused"
    assert game.submit("m 4 4 4").kind == "error"
    why = " ".join(game.submit("why").lines)
    assert "not read as a move" in why and "giocandola" not in why
