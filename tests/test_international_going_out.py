"""International Canasta (preset ``international``), seed 002_277939805e3ea5bf.txt: going out,
concealed going out, asking the partner. One test per rule; each docstring quotes the seed (or
the outside source where the seed stops, as shared/rules/variants.md section 3)."""

from __future__ import annotations

import pytest

from canasta import AskPartner, IllegalActionError, Phase, State, load_preset
from canasta.core.rules import Rules
from helpers import (
    RULES,
    card,
    cards,
    check_conservation,
    check_score_sheets,
    deal,
    hand_points,
    is_legal,
    legal_texts,
    play,
    points,
    rule_of,
)

# Seat 1 (team 1, with seat 3) plays first. A mixed canasta of kings (6 K + JK) opens it.
CANASTA = "Ks Kh Kd Kc Ks Kh JK"
# Seven fives (a natural canasta, 35 points) and four fours (20): 55 points in all.
FIVES_FOURS = "5s 5h 5d 5c 5s 5h 5d 4s 4h 4d 9c"


def seat1_after_draw(hand: str, draw: str = "Qd", *, scores: tuple[int, int] | None = None,
                     rules: Rules = RULES) -> State:
    """Seat 1 holds ``hand`` and has drawn ``draw`` in the first turn of the hand."""
    s = deal({1: hand}, after=f"Jd {draw} 10d 8d", scores=scores, rules=rules)
    play(s, "draw")
    return s


def test_going_out_needs_a_canasta() -> None:
    """Seed 002_277939805e3ea5bf.txt: "Per chiudere, la coppia deve avere formato almeno una
    canasta". An opened side without a canasta may not meld its last cards."""
    s = seat1_after_draw("As Ah Ad Ks Kh Kd Qs Qh Qc Js Jh", draw="Jd")
    play(s, "meld As Ah Ad", "meld Ks Kh Kd", "meld Qs Qh Qc")
    assert s.opened[1] and s.canastas(1) == 0
    assert rule_of(s, "meld Js Jh Jd") == "going_out.canastas_required"
    assert "meld Js Jh Jd" not in legal_texts(s)
    play(s, "discard Jd")  # the turn ends with a discard instead


def test_may_not_meld_down_to_one_card_without_a_canasta() -> None:
    """Seed 002_277939805e3ea5bf.txt: "Per chiudere, la coppia deve avere formato almeno una
    canasta", and a turn ends by "scartare una carta nel pozzo": melding down to one card,
    which could only be discarded to go out, is refused while the side has no canasta."""
    s = seat1_after_draw("As Ah Ad Ac Ks Kh Kd Kc Qs Qh Qc", draw="9h")
    play(s, "meld As Ah Ad Ac", "meld Ks Kh Kd Kc")
    assert s.hand_cards(1) == cards("Qs Qh Qc 9h")
    assert rule_of(s, "meld Qs Qh Qc") == "going out"
    assert not any(t.startswith("meld Q") for t in legal_texts(s))
    play(s, "discard 9h")  # keeping the queens is legal


def test_going_out_by_melding_every_card_without_a_discard() -> None:
    """Seed 002_277939805e3ea5bf.txt: "Si può chiudere con o senza scarto dell'ultima carta"."""
    s = seat1_after_draw(CANASTA + " Qs Qh Qc 2c", draw="Qd")
    upcard = s.pile[-1]
    play(s, "meld " + CANASTA, "meld Qs Qh Qc Qd")
    assert s.hand_cards(1) == cards("2c")
    play(s, "lay-off Q 2c")
    assert s.is_over and s.went_out == 1 and s.end_reason == "went_out"
    assert s.pile[-1] == upcard  # no discard was made
    check_conservation(s)
    check_score_sheets(s)


def test_going_out_with_a_final_discard() -> None:
    """Seed 002_277939805e3ea5bf.txt: "Si può chiudere con o senza scarto dell'ultima carta"."""
    s = seat1_after_draw(CANASTA + " Qs Qh Qc 2c", draw="9d")
    play(s, "meld " + CANASTA, "meld Qs Qh Qc", "lay-off Q 2c")
    assert s.hand_cards(1) == cards("9d")
    play(s, "discard 9d")
    assert s.is_over and s.went_out == 1
    assert s.pile[-1] == card("9d")
    check_conservation(s)


def test_last_discard_may_not_be_a_wild_card() -> None:
    """Seed 002_277939805e3ea5bf.txt: "L'ultima carta scartata non può essere una carta
    speciale" (the special cards: "Le carte speciali sono le matte e i 3"). A lone deuce must
    be laid off, not discarded."""
    s = seat1_after_draw(CANASTA + " Qs Qh Qc Qd", draw="2c")
    play(s, "meld " + CANASTA, "meld Qs Qh Qc Qd")
    assert s.hand_cards(1) == cards("2c")
    assert rule_of(s, "discard 2c") == "going_out.final_discard_may_be_wild"
    assert legal_texts(s) >= {"lay-off Q 2c", "lay-off K 2c"}
    assert "discard 2c" not in legal_texts(s)


def test_last_discard_may_not_be_a_black_three() -> None:
    """Seed 002_277939805e3ea5bf.txt: "L'ultima carta scartata non può essere una carta
    speciale" (the default of option ``last_discard_black_three``). A player left with a lone
    black three could not go out, so he may not meld or lay off down to it."""
    s = seat1_after_draw(CANASTA + " Qs Qh Qc 3s", draw="2c")
    play(s, "meld " + CANASTA, "meld Qs Qh Qc")
    assert s.hand_cards(1) == cards("3s 2c")
    assert rule_of(s, "lay-off Q 2c") == "going out"
    assert "lay-off Q 2c" not in legal_texts(s)
    play(s, "discard 3s")  # not the last card: an ordinary stop discard


def test_last_discard_black_three_option() -> None:
    """Option ``last_discard_black_three=true``: Britannica allows what seed 002 forbids ("With
    just one black 3, he could go out by discarding it"; seed: "L'ultima carta scartata non può
    essere una carta speciale")."""
    rules = load_preset("international", {"last_discard_black_three": "true"})
    s = seat1_after_draw(CANASTA + " Qs Qh Qc 3s", draw="2c", rules=rules)
    play(s, "meld " + CANASTA, "meld Qs Qh Qc", "lay-off Q 2c")
    assert is_legal(s, "discard 3s")
    play(s, "discard 3s")
    assert s.is_over and s.went_out == 1


def test_concealed_going_out_scores_200_and_waives_the_minimum() -> None:
    """Seed 002_277939805e3ea5bf.txt: "Se un giocatore riesce ad aprire e a chiudere in uno
    stesso turno (calando ovviamente almeno una canasta), si parla di chiusura di mano". The
    seed gives no value: pagat and Britannica give 200 in place of 100 ("going out (100, but
    200 if concealed)"), and pagat waives the opening minimum (shared/rules/variants.md
    section 3). With 3000 points the side needs 120; it goes out concealed with 55."""
    s = seat1_after_draw(FIVES_FOURS, draw="4c", scores=(0, 3000))
    assert s.opening_minimum(1) == 120
    play(s, "meld 5s 5h 5d 5c 5s 5h 5d")
    assert rule_of(s, "discard 9c") == "opening.minimums"  # not going out: the minimum holds
    play(s, "meld 4s 4h 4d 4c")
    assert s.opening_points == points("5s 5h 5d 5c 5s 5h 5d 4s 4h 4d 4c") < 120
    play(s, "discard 9c")
    assert s.is_over and s.went_out == 1 and s.concealed
    sheet = s.score()[1]
    labels = dict(sheet.items)
    assert labels["Going out concealed"] == RULES.going_out.concealed_bonus == 200
    assert "Going out" not in labels
    assert labels["Natural canasta"] == 500
    assert labels["Melded cards"] == 55
    partner = hand_points(s.hands[3])
    # seat 3 is the team's second player: its row keeps that number
    assert labels["Cards left in hand, player 2"] == -partner
    assert "Cards left in hand, player 1" not in labels
    assert sheet.hand_total == 200 + 500 + 55 - partner + _red_threes(s, 1)
    check_score_sheets(s)


def _red_threes(s: State, team: int) -> int:
    n = len(s.red_threes[team])
    if not n:
        return 0
    value = 800 if n == 4 else 100 * n
    return value if s.melds[team] else -value


def test_going_out_after_the_partner_opened_is_not_concealed() -> None:
    """Seed 002_277939805e3ea5bf.txt: concealed is "aprire e a chiudere in uno stesso turno";
    when the partner has already opened, going out in one turn scores the plain 100 (pagat,
    Britannica: "going out (100, but 200 if concealed)")."""
    s = deal({1: FIVES_FOURS, 3: "As Ah Ad"}, after="Jd Kc 8h 8d 7c 4c")
    play(s, "draw", "discard Kc")  # seat 1
    play(s, "draw", "discard 8h")  # seat 2
    play(s, "draw", "meld As Ah Ad", "discard 8d")  # seat 3 opens for the side
    play(s, "draw", "discard 7c")  # seat 0
    play(s, "draw", "meld 5s 5h 5d 5c 5s 5h 5d", "meld 4s 4h 4d 4c", "discard 9c")  # seat 1
    assert s.is_over and s.went_out == 1 and not s.concealed
    labels = dict(s.score()[1].items)
    assert labels["Going out"] == RULES.going_out.bonus == 100
    assert "Going out concealed" not in labels


def test_ask_partner_whenever_the_player_wants_to_go_out() -> None:
    """Seed 002_277939805e3ea5bf.txt: "Prima di chiudere, il giocatore può chiedere al compagno il
    permesso per la chiusura (unico tipo di comunicazione consentito all'interno della coppia)".
    The question is the player's to ask whenever he wants to go out, whether or not the engine
    finds a way out; a "yes" he cannot obey leaves him to play on."""
    s = seat1_after_draw("As Ah Ad Ks Kh Kd Qs Qh Qc Js Jh")
    assert s.going_out_plan() is None
    assert "ask-partner" in legal_texts(s)
    play(s, "ask-partner", "answer yes", "meld As Ah Ad", "discard Jh")
    assert not s.is_over and s.actor == 2
    s2 = seat1_after_draw(FIVES_FOURS, draw="4c")
    assert "ask-partner" in legal_texts(s2)


def test_ask_partner_the_partner_answers() -> None:
    """Seed 002_277939805e3ea5bf.txt: "può chiedere al compagno il permesso per la chiusura":
    the partner (seat 3) answers yes or no, and nothing else happens until he does."""
    s = seat1_after_draw(FIVES_FOURS, draw="4c")
    play(s, "ask-partner")
    assert s.phase is Phase.ANSWER and s.actor == 3 and s.current == 1
    assert legal_texts(s) == {"answer yes", "answer no"}
    assert rule_of(s, "discard 9c") == "going_out.ask_partner"
    play(s, "answer no")
    assert s.phase is Phase.PLAY and s.actor == 1
    assert rule_of(s, "ask-partner") == "going_out.ask_partner"  # once per turn


def test_ask_partner_yes_binds_the_player_to_go_out() -> None:
    """Seed 002_277939805e3ea5bf.txt: "non è obbligatorio fare la richiesta, ma è obbligatorio
    obbedire alla risposta del compagno": after "yes" the player must go out."""
    s = seat1_after_draw(FIVES_FOURS, draw="4c")
    play(s, "ask-partner", "answer yes")
    assert rule_of(s, "discard 9c") == "going_out.ask_partner"  # 12 cards: not going out
    play(s, "meld 5s 5h 5d 5c 5s 5h 5d", "meld 4s 4h 4d 4c", "discard 9c")
    assert s.is_over and s.went_out == 1


def test_ask_partner_no_forbids_going_out_this_turn() -> None:
    """Seed 002_277939805e3ea5bf.txt: "è obbligatorio obbedire alla risposta del compagno": after
    "no" the player may not go out this turn, neither by melding down to a card he must then
    discard nor by the last discard; he may meld and discard as usual."""
    s = seat1_after_draw(FIVES_FOURS, draw="4c")
    play(s, "ask-partner", "answer no")
    play(s, "meld 5s 5h 5d 5c 5s 5h 5d")
    assert rule_of(s, "meld 4s 4h 4d 4c") == "going out"  # would leave only 9c
    play(s, "meld 4s 4h 4d")  # 50: open, two cards left
    assert s.opened[1]
    assert "lay-off 4 4c" not in legal_texts(s)
    play(s, "discard 9c")
    assert not s.is_over and s.actor == 2


def test_going_out_without_asking_is_allowed() -> None:
    """Seed 002_277939805e3ea5bf.txt: "non è obbligatorio fare la richiesta"."""
    s = seat1_after_draw(FIVES_FOURS, draw="4c")
    play(s, "meld 5s 5h 5d 5c 5s 5h 5d", "meld 4s 4h 4d 4c", "discard 9c")
    assert s.is_over and s.went_out == 1
    assert not any(isinstance(a, AskPartner) for _, a in s.actions)


def test_ask_partner_is_offered_when_going_out_needs_a_black_three_meld() -> None:
    """Seed 002_277939805e3ea5bf.txt: "Prima di chiudere, il giocatore può chiedere al compagno il
    permesso" and "In sede di chiusura, anche i 3 neri possono essere calati in combinazione":
    a player who can go out by a canasta with a joker, three black threes and a discard may
    ask (the black threes are melded last, just before the discard)."""
    hand = "Ks Kh Kd Kc Ks Kh Kd JK 3s 3s 3c"
    s = seat1_after_draw(hand, draw="9d")
    assert "ask-partner" in legal_texts(s)
    play(s, "ask-partner", "answer yes")
    play(s, "meld Ks Kh Kd Kc Ks Kh Kd JK", "meld 3s 3s 3c", "discard 9d")
    assert s.is_over and s.went_out == 1 and s.concealed


def test_ask_partner_answer_stands_after_a_retract() -> None:
    """Seed 002_277939805e3ea5bf.txt: "è obbligatorio obbedire alla risposta del compagno". Seat 1
    takes the one-card pile (the upcard 5c) with six fives, a canasta of 35 points, short of 50;
    he can still open and go out with four fours and 9c. After "yes" he may not take the short
    opening back to escape the answer (nor, after "no", the take); after "no",
    taking back a short opening from hand does not let him ask again in the same turn, and the
    "no" still holds."""
    hand = "5s 5s 5d 5d 5h 5h 4s 4h 4d 4c 9c"
    s = deal({1: hand}, after="5c 5c 10d")
    play(s, "take-pile 5s 5s 5d 5d 5h 5h")
    assert s.provisional and s.canastas(1) == 1
    play(s, "ask-partner", "answer yes")
    assert rule_of(s, "retract") == "going_out.ask_partner"
    play(s, "meld 4s 4h 4d 4c", "discard 9c")
    assert s.is_over and s.went_out == 1
    s2 = deal({1: hand}, after="5c 5c 10d")
    play(s2, "take-pile 5s 5s 5d 5d 5h 5h", "ask-partner", "answer no")
    assert rule_of(s2, "retract") == "retract after a take"  # not even after "no"
    s3 = deal({1: hand}, after="5c 5c 10d")
    play(s3, "draw", "meld 5s 5s 5d 5d 5h 5h 5c", "ask-partner", "answer no", "retract")
    assert s3.phase is Phase.PLAY and s3.opening_minimum(1) == 60 and not s3.melds[1]
    assert s3.answer is False and s3.going_out_plan() is None  # "no" still binds this turn
    assert rule_of(s3, "ask-partner") == "going_out.ask_partner"
    with pytest.raises(IllegalActionError, match="already asked"):
        s3.verify(AskPartner())


def test_two_players_need_two_canastas_to_go_out() -> None:
    """Seed 002_277939805e3ea5bf.txt: "si gioca in 2 o 4", but the seed gives no two-handed
    rules; pagat's two-handed Canasta (variants.md, section 3): 15 cards, draw two, and "two
    canastas" to go out. One canasta is not enough with two players."""
    s = deal({1: "Ks Kh Kd Kc Ks Kh Kd Qs Qh Qd Js Jh Jd 10s 10h"}, after="5d 10d Qc",
             players=2, dealer=0)
    play(s, "draw")
    assert s.hand_size[1] == 17
    play(s, "meld Ks Kh Kd Kc Ks Kh Kd", "meld Qs Qh Qd Qc", "meld Js Jh Jd")
    assert s.canastas(1) == 1
    assert rule_of(s, "meld 10s 10h 10d") == "going_out.canastas_required"


def test_two_players_go_out_with_two_canastas() -> None:
    """Pagat's two-handed Canasta (for seed 002's "si gioca in 2"): with two canastas the
    side goes out, here by melding its last cards."""
    s = deal({1: "Ks Kh Kd Kc Ks Kh Kd Qs Qh Qd Qc Qs Qh Qd Js"}, after="5d Jh Jd",
             players=2, dealer=0)
    play(s, "draw", "meld Ks Kh Kd Kc Ks Kh Kd", "meld Qs Qh Qd Qc Qs Qh Qd")
    assert s.canastas(1) == 2
    play(s, "meld Js Jh Jd")
    assert s.is_over and s.went_out == 1
