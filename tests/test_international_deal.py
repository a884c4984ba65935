"""International Canasta (preset ``international``), seed 002_277939805e3ea5bf.txt: the deal,
red threes dealt, the upcard. One test per rule; each docstring quotes the seed."""

from __future__ import annotations

import pytest

from canasta import Phase, State
from canasta.core.cards import is_red_three
from helpers import RULES, build_deck, card, cards, check_conservation, deal, hand, play


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_deal_eleven_cards_each_one_at_a_time_from_dealers_left_who_plays_first(
    dealer: int,
) -> None:
    """Seed 002_277939805e3ea5bf.txt: "il mazziere distribuisce undici carte a ogni giocatore in
    senso orario partendo dal giocatore alla sua sinistra, il quale sarà il primo a giocare";
    the deck is "108 carte francesi (due mazzi francesi di 52 carte l'uno più 2 jolly per
    mazzo)"."""
    deck = build_deck(dealer=dealer, seed=dealer)
    deck = [c for c in deck if not is_red_three(c)] + [c for c in deck if is_red_three(c)]
    assert len(deck) == 108
    s = State.deal(RULES, 4, deck=deck, dealer=dealer)
    first = (dealer + 1) % 4
    assert s.current == s.actor == first
    assert s.phase is Phase.DRAW
    for i in range(4):
        seat = (first + i) % 4
        dealt = deck[i:44:4]
        assert len(dealt) == 11
        assert hand(s, seat) == hand_of(dealt)
    assert s.pile == [deck[44]]
    assert len(s.stock) == 108 - 44 - 1
    assert s.stock[-1] == deck[45]  # the next card drawn
    check_conservation(s)


def hand_of(codes: list[int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for c in codes:
        out[c] = out.get(c, 0) + 1
    return out


def test_draw_one_card_from_the_stock() -> None:
    """Seed 002_277939805e3ea5bf.txt: the player's turn is "pescare una carte dal tallone;
    calare ...; scartare una carta nel pozzo"."""
    s = deal({1: "Ks Kh Qs Qh 9s 9h 8s 8h 7s 7h 6s"}, after="5d Jc Jd")
    before = len(s.stock)
    play(s, "draw")
    assert s.hand_size[1] == 12
    assert s.hands[1][card("Jc")] == 1
    assert len(s.stock) == before - 1
    assert s.phase is Phase.PLAY
    play(s, "discard Jc")
    assert s.pile[-1] == card("Jc")
    assert s.hand_size[1] == 11
    assert s.current == s.actor == 2


def test_dealt_red_threes_laid_out_and_replaced_before_the_upcard() -> None:
    """Seed 002_277939805e3ea5bf.txt: "se un giocatore ha uno o più 3 rossi di mano, li mette da
    parte (scoperti) e pesca dal tallone un uguale numero di carte coperte. A questo punto, il
    mazziere scopre la prima carta del tallone". Replacements are drawn seat by seat from the
    first player; a red three drawn as a replacement is laid out and replaced too."""
    hands = {
        1: "3h 3d Ks Kh Qs Qh 9s 9h 8s 8h 7s",
        2: "3h Jc Jd 10c 10d 6c 6d 5c 5d 4c 4d",
        3: "Ac Ad Kc Kd Qc Qd 9c 9d 8c 8d 7c",
        0: "As Ah Js Jh 10s 10h 6s 6h 5s 5h 4s",
    }
    # replacements: seat 1 gets Ad then 3d (laid out, replaced by 7d); seat 2 gets Jh; then the
    # upcard 9h.
    s = deal(hands, after="Ac 3d 7d Jh 9h 4h", auto_replacements=False)
    assert s.red_threes[1] == cards("3h 3d 3d")  # seat 1's team (seats 1 and 3)
    assert s.red_threes[0] == cards("3h")  # seat 2's team
    assert s.hand_size == [11, 11, 11, 11]
    assert s.hands[1][card("Ac")] == 1 and s.hands[1][card("7d")] == 1
    assert s.hands[2][card("Jh")] == 1
    assert not any(is_red_three(c) for seat in range(4) for c in s.hand_cards(seat))
    assert s.pile == [card("9h")]
    assert not s.pile_frozen
    assert s.stock[-1] == card("4h")
    check_conservation(s)


@pytest.mark.parametrize("specials", ["JK", "2c", "3h", "2d 3d JK"])
def test_special_upcard_is_covered_and_freezes_the_pile(specials: str) -> None:
    """Seed 002_277939805e3ea5bf.txt: "Se questa carta è una matta o un onore, essa viene messa di
    traverso e il pozzo risulta congelato (si veda sotto): sarà necessario continuare a scoprire
    la prima carta del tallone finché non si troverà una carta naturale, che sarà messa
    scoperta in cima al pozzo, mentre la carta che ha congelato il pozzo resterà di traverso
    sotto il pozzo"."""
    turned = cards(specials) + cards("Qd")
    s = deal(after=turned + cards("6c"))
    assert s.pile == turned
    assert s.pile_frozen
    assert s.view(1).pile_frozen
    assert s.stock[-1] == card("6c")


def test_natural_upcard_does_not_freeze_the_pile() -> None:
    """Seed 002_277939805e3ea5bf.txt: "il mazziere scopre la prima carta del tallone, che
    costituirà la prima carta del pozzo" (only "una matta o un onore" freezes it)."""
    s = deal(after="Qd 6c")
    assert s.pile == [card("Qd")]
    assert not s.pile_frozen


def test_black_three_upcard_is_covered_without_freezing() -> None:
    """Seed 002_277939805e3ea5bf.txt names only "una matta o un onore" as freezing upcards
    ("Se questa carta è una matta o un onore ... il pozzo risulta congelato"). A black three
    turned up is covered by the next card but does not freeze the pile: the open point is
    settled as shared/rules/variants.md section 3 recommends ("cover a black 3 as well, no
    freeze", after pagat and Bicycle)."""
    s = deal(after="3s Qd 6c")
    assert s.pile == cards("3s Qd")
    assert not s.pile_frozen
