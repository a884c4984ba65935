"""Readings the seed texts seem to leave open, where the text itself decides: each test quotes
the sentence that settles it (docs/rules.md, "Readings the texts settle themselves")."""

from __future__ import annotations

import pytest
from deck_helpers import SEED_000, SEED_003, SEED_004

from canasta import LayOff, TakePile, load_preset, parse_cards
from canasta.core.cards import is_red_three, make_deck, rank_of
from canasta.core.legality import IllegalActionError
from canasta.core.match import decide_winner
from canasta.core.rules import CANASTA_ONLY
from canasta.core.scoring import TeamHand, score_team
from tablekit import table


def test_canastone_target_is_won_at_twelve_thousand_itself() -> None:
    """Seed 000 (SEED_000) says "avendo superato un limite ... normalmente 12.000", but its
    band table ends "da 10000 a 11995 punti attivi ... apertura a 180" (no minimum for a side
    at 12,000, which has won), and its VARIANTI put "apertura a 200 per la coppia che ha già
    totalizzato da 12.000 a 14.995 punti" under "chiusura a 15.000": the limit itself wins."""
    assert SEED_000.startswith("000_")
    rules = load_preset("canastone")
    assert decide_winner(rules, 4, [12000, 11000], 0) == 0
    assert decide_winner(rules, 4, [11995, 11000], 0) is None
    r15 = load_preset("canastone", {"target_15000": "true"})
    assert r15.opening_minimum(12000) == 200 and decide_winner(r15, 4, [15000, 0], 1) == 0


def test_romanian_target_is_won_at_ten_thousand_itself_by_going_out() -> None:
    """Seed 004 (SEED_004): "pana cand cei ce au punctajul mai mare sau egal cu 10.000 puncte
    reusesc sa inchida" -- "peste 10,000" elsewhere is read by this "mai mare sau egal"."""
    assert SEED_004.startswith("004_")
    rules = load_preset("romanian")
    assert decide_winner(rules, 4, [10000, 0], 0) == 0
    assert decide_winner(rules, 4, [10000, 0], 1) is None  # it must go out


def test_romanian_canasta_opening_from_5000_itself() -> None:
    """Seed 004: "canasta – peste 5000 de puncte" in the table whose "120 puncte – peste 3,000
    puncte" follows "90 puncte - intre 1,500 puncte si 2,995 puncte": in that table "peste"
    includes its bound, so 5,000 itself opens only with a canasta."""
    rules = load_preset("romanian", {"canasta_opening_over_5000": "true"})
    assert rules.opening_minimum(3000) == 120 and rules.opening_minimum(2995) == 90
    assert rules.opening_minimum(5000) == CANASTA_ONLY
    assert rules.opening_minimum(4995) == 120


def test_canastone_never_takes_a_third_wild_card_even_in_a_long_canasta() -> None:
    """Seed 000: "canasta impura o sporca (formata da 5 o 6 carte naturali dello stesso valore
    con l'aggiunta rispettivamente di 2 o 1 Joker o pinelle)": a mixed canasta holds one or
    two wild cards; seed 001 lists "possibilità di comporre la canasta impura anche con solo
    4 carte naturali e tre fra Joker e pinelle" as a difference from Canastone. So 6 naturals
    and 3 wild cards (wilds still fewer) are refused."""
    rules = load_preset("canastone")
    s = table(rules, "2c Ah", melds={0: ["Ks Kh Kd Kc Ks Kh JK 2h"]}, phase="play")
    with pytest.raises(IllegalActionError) as info:
        s.verify(LayOff(13, tuple(parse_cards("2c"))))
    assert info.value.rule == "melds.max_wilds"
    assert load_preset("classic_italian").melds.max_wilds == 3


def test_brazilian_frozen_pile_is_taken_with_a_natural_pair() -> None:
    """Seed 003 (SEED_003), the house rule: the pile "congelata" "non può essere presa con una
    coppia naturale dalla mano", read through the seed's own glossary, "Congelamento: stato
    della pila degli scarti che non può essere presa senza condizioni più severe (tipicamente
    una coppia naturale dalla mano che corrisponde alla carta in cima)": a frozen pile is
    taken under the stricter condition, a natural pair, never with a natural and a wild."""
    assert SEED_003.startswith("003_")
    rules = load_preset("brazilian", {"frozen_pile": "wild"})
    s = table(rules, "Jh Jd JK Ah", melds={0: ["Ks Kh Kd"]}, pile="Jc", frozen=True)
    assert s.can(TakePile(tuple(parse_cards("Jh Jd"))))
    with pytest.raises(IllegalActionError) as info:
        s.verify(TakePile(tuple(parse_cards("Jh JK"))))
    assert info.value.rule == "pile.frozen_naturals"
    s = table(load_preset("brazilian"), "Jh JK Ah Ad Qc", melds={0: ["Ks Kh Kd"]}, pile="Jc")
    assert s.can(TakePile(tuple(parse_cards("Jh JK"))))  # unfrozen: one natural suffices


def test_romanian_black_threes_of_a_side_that_never_melded_are_not_doubled() -> None:
    """Seed 004: "Mai intai se numara baza: cate canaste sunt ... + inchiderea + 3-arii. Apoi se
    numara toate cartile etalate": the threes are in the base ("3 de negru in mana -100"),
    and only the points of the cards ("toate punctele de pe tabla inmultite cu 2") double."""
    rules = load_preset("romanian")
    hand = TeamHand(melds=(), hands=(tuple(parse_cards("3s Kh")), tuple(parse_cards("Qd"))))
    items = dict(score_team(0, hand, rules).items)
    assert -100 in items.values()
    assert sum(v for k, v in items.items() if "hand" in k.lower() and "three" not in
               k.lower()) == -(10 + 10) * 2


def test_rummy_tiles_have_four_red_threes() -> None:
    """Seed 004: "toate 4 cartile de 3 rosu declarate ... 800" and "toate 4 cartile de 3 negru
    -1600": with the 106 tiles as with the cards there are four red threes and four black
    ones, so two tile colours stand for the red suits (hearts and diamonds) and two for the
    black ones."""
    rules = load_preset("romanian", {"tiles": "rummy_106"})
    deck = make_deck(rules.packs(4), rules.deal.jokers_per_pack)
    assert len(deck) == 106
    assert sum(1 for c in deck if is_red_three(c)) == 4
    assert sum(1 for c in deck if rank_of(c) == 3 and not is_red_three(c)) == 4
