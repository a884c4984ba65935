"""International Canasta (preset ``international``), seed 002_277939805e3ea5bf.txt: taking the
discard pile, the frozen pile, the black-three stop. One test per rule; each docstring quotes
the seed (or the outside source where the seed stops, as shared/rules/variants.md section 3)."""

from __future__ import annotations

from collections import Counter

import pytest

from canasta import Phase, State, TakePile, load_preset
from canasta.core.cards import card_text, is_wild
from canasta.core.rules import Rules
from helpers import (
    RULES,
    card,
    cards,
    check_conservation,
    deal,
    hand,
    is_legal,
    legal_texts,
    play,
    points,
    rule_of,
)

# Seat 1 (team 1, with seat 3) plays first (dealer 0). Its opening: A A A (60) + 7 7 7 (15).
SEAT1 = "As Ah Ad 7s 7d 7c 4s 5h 6c 9h 10c"
SEAT3 = "9s 9d 7h Qc JK 2c Ks Kh 8s 6d 5d"


def seat3_to_act(
    seat2_discard: str = "9c",
    *,
    seat1_opens: bool = True,
    seat1_discard: str = "4s",
    seat3: str = SEAT3,
    seat2: str | None = None,
    upcard: str = "Jd",
    scores: tuple[int, int] | None = None,
    seat1: str = SEAT1,
    rules: Rules = RULES,
) -> State:
    """Seat 1 draws (Qd), opens with A A A and 7 7 7 (or does not), discards; seat 2 draws and
    discards ``seat2_discard``; seat 3 is to act with that card on top of the pile."""
    # Seat 1 draws its discard when it is not in SEAT1 (a wild card, to freeze the pile).
    draw1 = "Qd" if card(seat1_discard) in cards(seat1) else seat1_discard
    s = deal({1: seat1, 2: seat2 or seat2_discard, 3: seat3}, after=f"{upcard} {draw1} 10d 8d",
             scores=scores, rules=rules)
    play(s, "draw")
    if seat1_opens:
        play(s, "meld As Ah Ad", "meld 7s 7d 7c")
        assert s.opened[1]
    play(s, f"discard {seat1_discard}")
    play(s, "draw", f"discard {seat2_discard}")
    assert s.actor == 3 and s.phase is Phase.DRAW
    return s


def test_taking_the_pile_melds_its_top_card_in_the_same_step() -> None:
    """Seed 002_277939805e3ea5bf.txt: "Il giocatore di turno che proceda alla presa del pozzo
    deve utilizzarne l'ultima carta (scartata dal giocatore precedente), attaccandola a una
    combinazione preesistente della coppia o giocandola con altre carte di mano per formare una
    nuova combinazione". The take is one action: after it the top card is in a meld with the
    cards named, and the rest of the pile is in the hand."""
    s = seat3_to_act("9c")
    pile = list(s.pile)
    before = hand(s, 3)
    play(s, "take-pile 9s 9d")
    assert sorted(s.melds[1][9]) == sorted(cards("9c 9s 9d"))
    assert s.pile == []
    after = hand(s, 3)
    expected = before - Counter(cards("9s 9d"))
    for c in pile[:-1]:
        expected[c] += 1
    assert after == expected
    assert s.phase is Phase.PLAY
    check_conservation(s)


def test_taking_the_pile_without_melding_its_top_card_is_illegal() -> None:
    """Seed 002_277939805e3ea5bf.txt: the taker "deve utilizzarne l'ultima carta": a take that
    does not meld the top card (no matching cards, no meld of its rank) is refused."""
    s = seat3_to_act("Jc")
    assert rule_of(s, "take-pile") == "pile.unfrozen_naturals"
    assert rule_of(s, "take-pile Qc") == "pile"
    assert not any(isinstance(a, TakePile) for a in s.legal_actions())


@pytest.mark.parametrize(
    ("top", "take"),
    [("9c", "take-pile 9s 9d"), ("9c", "take-pile 9s JK"), ("9c", "take-pile 9s 2c"),
     ("7h", "take-pile")],
    ids=["natural pair", "natural and joker", "natural and deuce", "top card onto own meld"],
)
def test_unfrozen_pile_taken_in_every_way_the_variant_allows(top: str, take: str) -> None:
    """Seed 002_277939805e3ea5bf.txt: the top card is used "attaccandola a una combinazione
    preesistente della coppia o giocandola con altre carte di mano per formare una nuova
    combinazione"; a new meld needs "almeno tre carte, di cui almeno due naturali", so with an
    unfrozen pile a natural pair or one natural and a wild card take it (pagat, as
    shared/rules/variants.md section 3: "natural pair or natural + wild")."""
    s = seat3_to_act(top)
    assert not s.pile_frozen
    assert take in legal_texts(s)
    play(s, take)
    assert s.took_pile and s.pile == []
    assert card(top) in s.melds[1][card(top) // 4 + 1]


@pytest.mark.parametrize("take", ["take-pile JK 2c", "take-pile 9s", "take-pile JK"])
def test_unfrozen_pile_not_taken_with_wild_cards_alone_or_one_natural(take: str) -> None:
    """Seed 002_277939805e3ea5bf.txt: a meld needs "almeno due naturali", so the top card with
    two wild cards (one natural in all) cannot be taken; nor with a single natural card."""
    s = seat3_to_act("9c")
    assert take not in legal_texts(s)
    assert rule_of(s, take) in ("pile.unfrozen_naturals", "melds.min_naturals")


def test_frozen_pile_needs_two_natural_cards() -> None:
    """Seed 002_277939805e3ea5bf.txt: "Per scongelare e prendere il pozzo, è necessario avere
    almeno due carte naturali dello stesso valore facciale dell'ultima carta scartata (le une e
    l'altra dovranno essere immediatamente giocate dal giocatore che ha effettuato lo
    scongelamento)". Natural + wild and the top card onto an own meld are refused."""
    s = seat3_to_act("9c", seat1_discard="2h")  # seat 1's wild discard freezes the pile
    assert s.pile_frozen
    assert rule_of(s, "take-pile 9s JK") == "pile.frozen_naturals"
    assert "take-pile 9s 9d" in legal_texts(s)
    s2 = seat3_to_act("7h", seat1_discard="2h")
    assert s2.melds[1].get(7)  # the side has a meld of sevens
    assert rule_of(s2, "take-pile") == "pile.frozen_naturals"
    assert rule_of(s2, "take-pile 7h JK") == "pile.frozen_naturals"
    assert not any(isinstance(a, TakePile) for a in s2.legal_actions())
    play(s, "take-pile 9s 9d JK")  # two naturals and a wild card: the meld may hold it
    assert not s.pile_frozen and s.pile == []


def test_unfrozen_pile_taken_by_an_unopened_side_with_a_natural_and_a_wild_card() -> None:
    """Seed 002_277939805e3ea5bf.txt: "Se la rispettiva coppia non ha ancora aperto, il giocatore
    può prendere il pozzo solo se può utilizzare l'ultima carta scartata per aprire, insieme ad
    altre carte di mano ... Se il pozzo è congelato, a questo vincolo si aggiunge l'obbligo di
    possedere almeno due carte naturali dello stesso valore facciale dell'ultima carta
    scartata". The natural pair is added only for a frozen pile: an unopened side takes an
    unfrozen pile with a natural and a wild card when that opens (9c 9s JK, 70 points). Pagat's
    pile frozen against an unopened side is the option ``frozen_for_unopened=true``
    (shared/rules/variants.md section 3)."""
    s = seat3_to_act("9c", seat1_opens=False)
    assert not s.opened[1] and not s.pile_frozen and not s.view(3).pile_frozen
    assert "take-pile 9s JK" in legal_texts(s)
    play(s, "take-pile 9s JK")
    assert s.opened[1] and sorted(s.melds[1][9]) == sorted(cards("9c 9s JK"))
    frozen = load_preset("international", {"frozen_for_unopened": "true"})
    s2 = seat3_to_act("9c", seat1_opens=False, rules=frozen)
    assert s2.view(3).pile_frozen
    assert rule_of(s2, "take-pile 9s JK") == "pile.frozen_naturals"
    assert "take-pile 9s 9d" in legal_texts(s2)


def test_frozen_pile_needs_a_natural_pair_from_an_unopened_side_too() -> None:
    """Seed 002_277939805e3ea5bf.txt: "Se il pozzo è congelato, a questo vincolo si aggiunge
    l'obbligo di possedere almeno due carte naturali dello stesso valore facciale dell'ultima
    carta scartata". Seat 1, unopened, freezes the pile with a deuce; seat 3, unopened, takes it
    only with a natural pair."""
    s = seat3_to_act("9c", seat1_opens=False, seat1_discard="2h")
    assert s.pile_frozen and not s.opened[1]
    assert rule_of(s, "take-pile 9s JK") == "pile.frozen_naturals"
    assert "take-pile 9s 9d" in legal_texts(s)


def test_unopened_side_takes_the_pile_only_if_it_can_open() -> None:
    """Seed 002_277939805e3ea5bf.txt: "Se la rispettiva coppia non ha ancora aperto, il giocatore
    può prendere il pozzo solo se può utilizzare l'ultima carta scartata per aprire, insieme ad
    altre carte di mano". Nines alone (9c 9s 9d, 30 points) with no other meld in hand cannot
    reach 50: the take is refused; a pair of kings without a wild card is no meld either. With
    K K and a joker (70 more) the take is allowed and the opening made."""
    short = "9s 9d 4s 5h 6c 7d 8s Qc Js 10h Kd"
    s = seat3_to_act("9c", seat1_opens=False, seat3=short)
    assert rule_of(s, "take-pile 9s 9d") == "opening.minimums"
    assert legal_texts(s) == {"draw"}
    pair = "9s 9d 4s 5h 6c 7d 8s Qc Ks 10h Kd"  # K K with no wild card is not a meld
    s2 = seat3_to_act("9c", seat1_opens=False, seat3=pair)
    assert rule_of(s2, "take-pile 9s 9d") == "opening.minimums"
    enough = "9s 9d 4s 5h 6c 7d 8s JK Ks 10h Kd"  # K K JK: 70 more
    s3 = seat3_to_act("9c", seat1_opens=False, seat3=enough)
    assert "take-pile 9s 9d" in legal_texts(s3)
    play(s3, "take-pile 9s 9d", "meld Ks Kd JK")
    assert s3.opened[1] and s3.opening_points == 100


def test_unopened_side_receives_the_pile_only_once_the_opening_is_complete() -> None:
    """Seed 002_277939805e3ea5bf.txt: "solo una volta calate le combinazioni di apertura potrà
    prendere il resto del pozzo ed eventualmente giocarlo". The top card and the pair are
    melded at once (30 points, short of 50); the rest of the pile stays out of the hand until
    the turn's melds reach the minimum; discarding before that is refused."""
    s = seat3_to_act("9c", seat1_opens=False)
    rest = list(s.pile[:-1])
    play(s, "take-pile 9s 9d")
    assert s.opening_points == points("9c 9s 9d") < s.opening_minimum(1)
    assert s.pending_pile == rest
    assert s.hand_size[3] == 9
    assert rule_of(s, "discard 8s") == "opening.minimums"
    play(s, "meld Ks Kh JK")  # 30 + 70 = 100 >= 50
    assert s.opened[1]
    assert s.pending_pile == []
    assert s.hand_size[3] == 6 + len(rest)
    check_conservation(s)


def test_taken_pile_must_come_to_hand_before_going_out() -> None:
    """Seed 002_277939805e3ea5bf.txt: "solo una volta calate le combinazioni di apertura potrà
    prendere il resto del pozzo". With 3000 points the side needs 120. Seat 3 takes the pile
    with six fives (a canasta, 35 points) holding five aces (the opening is reachable: 135) and
    melds four aces (115): discarding the last ace would go out below the minimum with the rest
    of the pile never taken, so it is refused (the concealed waiver of the minimum does not let
    a short opening take the pile); laying the ace off opens and brings the pile to hand."""
    seat1 = "Ks Kh Kd 7s 7d 7c 4s 6h 6c 9h 10c"
    seat3 = "5s 5s 5d 5d 5c 5h As As Ah Ah Ad"
    s = seat3_to_act("5c", seat1_opens=False, seat1=seat1, seat3=seat3, scores=(0, 3000))
    assert s.opening_minimum(1) == 120
    rest = len(s.pile) - 1
    play(s, "take-pile 5s 5s 5d 5d 5c 5h")
    assert s.canastas(1) == 1 and len(s.pending_pile) == rest
    play(s, "meld As As Ah Ah")
    assert s.opening_points == 115 and s.hand_cards(3) == cards("Ad")
    assert rule_of(s, "discard Ad") == "opening.minimums"
    play(s, "lay-off A Ad")
    assert s.opened[1] and not s.pending_pile and s.hand_size[3] == rest
    check_conservation(s)


def test_top_card_counts_toward_the_opening_the_rest_of_the_pile_does_not() -> None:
    """Seed 002_277939805e3ea5bf.txt: the taker must "utilizzare l'ultima carta scartata per
    aprire, insieme ad altre carte di mano" (the top card is part of the opening); pagat: the
    rest of the pile does not count (shared/rules/variants.md section 3, "What counts toward
    it")."""
    seat3 = "As Ad Qc Qh 9s 8s 6d 5d 4d 4h 10h"
    s = seat3_to_act("Ac", seat1_opens=False, seat3=seat3, seat1_discard="JK")
    # The pile is frozen by the joker under it (50 points that do not count).
    assert points("As Ad") < s.opening_minimum(1) <= points("Ac As Ad")
    play(s, "take-pile As Ad")
    assert s.opening_points == points("Ac As Ad")
    assert s.opened[1]
    assert s.hands[3][card("JK")] == 1  # the rest of the pile came to hand


def test_wild_discard_freezes_the_pile_until_it_is_taken() -> None:
    """Seed 002_277939805e3ea5bf.txt: "Quando un giocatore scarta una matta, questa viene messa
    di traverso rispetto al pozzo, il quale risulta congelato: da quel momento, nessun
    giocatore, compreso il responsabile del congelamento, potrà prendere il pozzo, finché il
    pozzo non risulterà scongelato"."""
    s = seat3_to_act("9c", seat1_discard="JK", seat2="9c 9c")
    assert s.pile_frozen
    # Natural discards on top do not thaw it.
    play(s, "draw", "discard 8s")  # seat 3
    play(s, "draw")  # seat 0
    natural = next(c for c in s.hand_cards(0) if not is_wild(c) and c // 4 != 2)
    play(s, f"discard {card_text(natural)}")
    assert s.pile_frozen
    play(s, "draw", "discard 5h")  # seat 1
    play(s, "draw", "discard 9c")  # seat 2
    assert s.pile_frozen
    play(s, "take-pile 9s 9d")  # seat 3 unfreezes it with a natural pair
    assert not s.pile_frozen
    play(s, "discard Ks")
    assert not s.pile_frozen


def test_black_three_stops_the_next_player_only() -> None:
    """Seed 002_277939805e3ea5bf.txt: "se un giocatore scarta un 3 nero, impedisce al giocatore
    successivo di prendere il pozzo, obbligandolo a pescare dal tallone. Il blocco del pozzo
    tramite carta stop, a differenza del congelamento, è temporaneo: il giocatore successivo a
    quello che ha subito il blocco potrà tornare a prendere il pozzo"."""
    s = deal({1: SEAT1, 2: "3s 9c", 3: SEAT3, 0: "Kc Kd Qs"}, after="Jd Qd 10d 8d 6h")
    play(s, "draw", "meld As Ah Ad", "meld 7s 7d 7c", "discard 4s")
    play(s, "draw", "discard 3s")  # seat 2 stops seat 3
    assert s.pile[-1] == card("3s")
    assert s.view(3).stopped
    assert legal_texts(s) == {"draw"}
    assert rule_of(s, "take-pile") == "pile.black_three_stops"
    play(s, "draw", "discard Ks")  # seat 3
    # Seat 0 is not stopped: the black three is under the king and the pile is not frozen.
    assert not s.pile_frozen and not s.view(0).stopped
    assert is_legal(s, "take-pile Kc Kd")


def test_black_three_stops_without_freezing() -> None:
    """Seed 002_277939805e3ea5bf.txt: "Il blocco del pozzo tramite carta stop, a differenza del
    congelamento, è temporaneo": after the next player's discard the pile can be taken as an
    unfrozen pile (natural + wild) by an opened side."""
    s = deal({1: SEAT1, 2: "3s 9c", 3: SEAT3, 0: "Kc Kd Qs"}, after="Jd Qd 10d 8d 6h")
    play(s, "draw", "meld As Ah Ad", "meld 7s 7d 7c", "discard 4s")  # seat 1 opens
    play(s, "draw", "discard 3s")  # seat 2: stop
    play(s, "draw", "discard 8s")  # seat 3 is stopped
    play(s, "draw", "discard Qs")  # seat 0
    assert s.actor == 1 and not s.pile_frozen
    play(s, "draw", "discard 5h")  # seat 1
    play(s, "draw", "discard 9c")  # seat 2
    assert "take-pile 9s JK" in legal_texts(s)  # seat 3: unfrozen, side open


def test_wild_card_on_top_cannot_be_taken() -> None:
    """Seed 002_277939805e3ea5bf.txt: "Quando il pozzo è già congelato, lo scarto di un 3 nero o
    di una matta lo blocca, impedendo al giocatore successivo di procedere allo
    scongelamento": a wild card on top cannot be melded as the top card by anyone."""
    s = deal({1: SEAT1, 2: "2d 9c", 3: SEAT3}, after="Jd Qd 10d 8d 6h")
    play(s, "draw", "meld As Ah Ad", "meld 7s 7d 7c", "discard 4s")
    play(s, "draw", "discard 2d")
    assert s.pile_frozen and s.pile[-1] == card("2d")
    assert legal_texts(s) == {"draw"}
    assert rule_of(s, "take-pile JK 2c") == "pile"
    assert rule_of(s, "take-pile") == "pile"


def test_black_three_on_top_of_a_frozen_pile_stops_the_unfreezing() -> None:
    """Seed 002_277939805e3ea5bf.txt: "Quando il pozzo è già congelato, lo scarto di un 3 nero o
    di una matta lo blocca, impedendo al giocatore successivo di procedere allo
    scongelamento"."""
    s = seat3_to_act("3s", seat1_discard="JK")
    assert s.pile_frozen and s.view(3).stopped
    assert legal_texts(s) == {"draw"}
