"""Canastone (preset ``canastone``), seed 000_1cc8abd4e271b725.txt: one test per rule, each
docstring quoting the seed sentence it rests on (or shared/rules/variants.md where the seed is
silent). Positions come from crafted deck orders (deck_helpers.deal); the dealer is seat 0, so
seat 1 (team 1, with seat 3) plays first."""

from __future__ import annotations

import pytest
from canastone_kit import RULES, UNDER4, start
from deck_helpers import apply_all, cards, deal, legal_texts, rule_of

from canasta import Discard, Match, MisdealError, Phase, State, load_preset
from canasta.core.cards import JOKER, make_deck, parse_card
from canasta.core.goingout_rules import going_out_error
from canasta.core.scoring import TeamHand, score_hand


def test_three_packs_fifteen_cards_every_player_count() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "Vengono usati tre mazzi di 54 carte ... per un totale di
    162 carte comprendenti sei Joker" and "distribuirà, una alla volta in senso orario,
    quindici carte per giocatore"; "Si gioca in numero variabile da 2 a 6 persone"."""
    deck = make_deck(RULES.packs(4), RULES.deal.jokers_per_pack)
    assert len(deck) == 162 and deck.count(JOKER) == 6
    for players in (2, 3, 4, 5, 6):
        s = State.deal(RULES, players, seed=3)
        # A red three dealt is laid out and replaced, so every hand still holds 15.
        assert all(size == 15 for size in s.hand_size)


def test_five_players_each_for_themselves() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "Si gioca in numero variabile da 2 a 6 persone": five play
    each for themselves, as three do; classic Italian (seed 001) names only its
    two-, three-, four- and six-player games."""
    assert 5 in RULES.deal.player_counts
    s = State.deal(RULES, 5, seed=4)
    assert s.teams == ((0,), (1,), (2,), (3,), (4,)) and s.hand_size == [15] * 5
    assert RULES.draw_count(5) == 2
    m = Match(RULES, 5, seed=1)
    assert len(m.scores) == 5
    assert 5 not in load_preset("classic_italian").deal.player_counts
    with pytest.raises(ValueError, match="player"):
        State.deal(load_preset("classic_italian"), 5, seed=1)


@pytest.mark.parametrize(("upcard", "under"), [("As", 14), ("Kd", 13), ("Qh", 12),
                                                ("Jc", 11), ("10s", 10), ("4d", 4)])
def test_pile_seeded_under_the_upcard_by_its_rank(upcard: str, under: int) -> None:
    """Seed 000_1cc8abd4e271b725.txt: "A questa carta vengono sottoposte ... altre carte
    prelevate dal tallone in un numero determinato dalla carta esposta: per un Asso 14 carte,
    per un Re 13 carte, 12 per una Donna e così via"."""
    s = deal(RULES, {}, upcard)
    assert s.pile[-1] == parse_card(upcard)
    assert len(s.pile) == under + 1


def test_special_upcards_covered_and_not_counted() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "Se la carta esposta è un Joker, una pinella, un Tre nero
    o un Tre rosso viene ricoperta da una nuova carta ... le carte che vengono sottoposte a
    queste saranno sempre in numero determinato dal valore della carta esposta, non tenendosi
    conto delle carte speciali precedentemente esposte". The pile is not frozen by them."""
    s = deal(RULES, {}, "JK 3c 2d 6d")
    assert s.pile[-1] == parse_card("6d")
    assert len(s.pile) == 3 + 6 + 1
    assert not s.pile_frozen


def test_three_wild_upcards_void_the_deal() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "Nel caso, abbastanza improbabile, che vengano esposti tre
    Joker o pinelle prima che compaia la carta naturale, la smazzata verrà annullata e si
    rifaranno le carte da parte dello stesso mazziere"."""
    with pytest.raises(MisdealError):
        deal(RULES, {}, "JK 3s 2h 2c Kd")
    s = deal(RULES, {}, "JK 3s 2h 3d Kd")  # two wild cards and two threes: no redeal
    assert s.pile[-1] == parse_card("Kd")


def test_red_three_buried_in_the_pile_is_laid_out_not_replaced() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "Un eventuale Tre rosso imprigionato nel pozzo in questa
    fase, al momento della cattura viene posto in tavola da chi l'ha conquistato ma non viene
    (unico caso) sostituito con una carta prelevata dal tallone"."""
    s = start({1: "4s 4h Ks Kh Kd As Ah Ad 9s 9h 9d 8s 8h 8d 7s"}, "Qs Qh", upcard="3h 4c")
    assert 9 in s.pile or 10 in s.pile  # the red three is in the pile
    apply_all(s, "take-pile 4s 4h", "meld Ks Kh Kd", "meld As Ah Ad")
    assert s.opened[1]
    assert s.red_threes[1] == [parse_card("3h")]
    # 15 - 2 (pair) + 1 (stock card) + 4 under + 0 (no replacement) - 6 melded
    assert s.hand_size[1] == 15 - 2 + 1 + 4 - 6


def test_dealt_red_threes_replaced_after_the_pile_is_formed() -> None:
    """Seed 000_1cc8abd4e271b725.txt: the pile is formed first, then "Si procede quindi con la
    sostituzione a turno in senso orario, cominciando dal giocatore di mano, dei Tre rossi
    denunciati ... con altrettante carte prelevate dal tallone"."""
    s = deal(RULES, {1: "3h", 2: "3d"}, f"4c {UNDER4} Qs Jd")
    assert s.pile == cards(f"{UNDER4} 4c")
    assert s.hands[1][parse_card("Qs")] == 1 and s.hands[2][parse_card("Jd")] == 1
    assert s.red_threes[1] == [parse_card("3h")] and s.red_threes[0] == [parse_card("3d")]


def test_draw_two_cards() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "pesca le due carte superiori del tallone e scarta,
    scoperta, sulla sommità del pozzo, una sola carta"."""
    s = start({}, "Qs Jd")
    apply_all(s, "draw")
    assert s.hand_size[1] == 17
    assert s.hands[1][parse_card("Qs")] and s.hands[1][parse_card("Jd")]


def test_take_needs_a_natural_pair_and_draws_a_stock_card() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "Il giocatore che possiede nella sua dotazione in mano due
    carte «naturali» dello stesso valore facciale di quella scartata ... può prelevare questa
    carta ma con l'obbligo di rilevare con essa tutte le carte del «pozzo»"; "si impadronisce del
    mazzo degli scarti prendendo contemporaneamente una carta dal tallone"."""
    s = start({1: "4s JK Ks Kh Kd As Ah Ad 9s 9h 9d 8s 8h 8d 7s"}, "Qs")
    assert rule_of(s, "take-pile 4s JK") == "pile.unfrozen_naturals"
    s = start({1: "4s 4h Ks Kh Kd As Ah Ad 9s 9h 9d 8s 8h 8d 7s"}, "Qs")
    apply_all(s, "take-pile 4s 4h")
    assert s.hands[1][parse_card("Qs")] == 1  # the stock card drawn with the pile


def test_capture_cards_do_not_count_toward_the_opening() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "Un giocatore di una coppia che non ha ancora «aperto» può
    in uno stesso suo turno di gioco «aprire» e catturare il pozzo: la carta superiore del pozzo
    stesso però e le carte che la catturano non possono far parte del punteggio di
    «apertura»"."""
    s = start({1: "Ks Kh Ad Ah 9s 9h 9d 8s 8h 8d 7s 7h 7d 6c 5c"}, "Qs", upcard="Kd",
              under="4s 4h 4d 5s 5h 5d 6s 6h 6d 7c 8c 9c 10c")
    apply_all(s, "take-pile Ks Kh")
    assert s.opening_points == 0 and s.provisional and s.pending_pile
    apply_all(s, "meld 9s 9h 9d")
    assert s.opening_points == 30 and not s.opened[1]
    apply_all(s, "meld 8s 8h 8d")
    assert s.opened[1] and not s.pending_pile  # 60 >= 50: the pile comes to hand


def test_capture_cards_count_option() -> None:
    """Seed 000_1cc8abd4e271b725.txt, VARIANTI: "carta superiore del pozzo e carte che la
    catturano possono far parte del punteggio di apertura"."""
    s = start({1: "Ks Kh Ad Ah 9s 9h 9d 8s 8h 8d 7s 7h 7d 6c 5c"}, "Qs", upcard="Kd",
              under="4s 4h 4d 5s 5h 5d 6s 6h 6d 7c 8c 9c 10c",
              options={"capture_cards_count": "true"})
    apply_all(s, "take-pile Ks Kh")
    assert s.opening_points == 30
    apply_all(s, "meld 9s 9h 9d")
    assert s.opened[1]


@pytest.mark.parametrize(("score", "minimum"), [
    (0, 50), (2995, 50), (3000, 90), (4995, 90), (5000, 120), (6995, 120), (7000, 160),
    (9995, 160), (10000, 180), (11995, 180), (-300, 50)])
def test_opening_minimum_by_score(score: int, minimum: int) -> None:
    """Seed 000_1cc8abd4e271b725.txt: "da O a 2995 punti attivi ... da 3000 a 4995 ... da 5000
    a 6995 ... da 7000 a 9995 ... da 10000 a 11995 punti attivi: apertura a 50, apertura a 90,
    apertura a 120, apertura a 160, apertura a 180". A negative score is not in the table: the
    first band (variants.md section 1)."""
    assert RULES.opening_minimum(score) == minimum


@pytest.mark.parametrize(("choice", "minimum"), [("table", 50), ("15", 15), ("free", 0)])
def test_negative_opening_option(choice: str, minimum: int) -> None:
    """Seed 000_1cc8abd4e271b725.txt, VARIANTI: "apertura a 15 oppure apertura libera (non
    vincolata a punteggio minimo) per la coppia gravata da punteggio negativo"."""
    assert load_preset("canastone", {"negative_opening": choice}).opening_minimum(-20) == minimum


def test_opening_at_fifty_uses_natural_cards_only() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "Per la discesa a 50 punti si richiedono solo
    combinazioni con carte naturali. Per le discese a punteggi superiori è consentito usare
    anche Joker o pinelle"."""
    hand = "As Ah JK 9s 9h 9d 8s 8h 8d 7s 7h 7d 6c 5c Kc"
    s = start({1: hand}, "Qs Qh")
    apply_all(s, "draw")
    assert rule_of(s, "meld As Ah JK") == "opening.naturals_only_at"
    s = start({1: hand}, "Qs Qh", scores=[0, 3000])
    apply_all(s, "draw", "meld As Ah JK")
    assert s.opened[1]  # 90 at the 90 level


def test_clean_opening_option_at_every_level() -> None:
    """Seed 000_1cc8abd4e271b725.txt, VARIANTI: "obbligo di apertura solo con combinazioni
    «pulite» a tutti i livelli"."""
    s = start({1: "As Ah JK 9s 9h 9d 8s 8h 8d 7s 7h 7d 6c 5c Kc"}, "Qs Qh", scores=[0, 3000],
              options={"clean_opening": "true"})
    apply_all(s, "draw")
    assert rule_of(s, "meld As Ah JK") == "opening.naturals_only_at"


def test_wild_cards_fewer_than_naturals_and_at_most_two() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "possono comprendere Joker o pinelle, ma non mai in numero
    pari o superiore a quello delle carte naturali"; "canasta impura o sporca (formata da 5 o 6
    carte naturali dello stesso valore con l'aggiunta rispettivamente di 2 o 1 Joker o
    pinelle)"."""
    s = start({1: "9s 9h JK 2c 8s 8h 8d 8c 2d JK Ks Kh Kd 7s 7h"}, "Qs Qh", scores=[0, 3000])
    apply_all(s, "draw")
    assert rule_of(s, "meld 9s 9h JK 2c") == "melds.wild_ratio"
    assert rule_of(s, "meld 8s 8h 8d JK 2c 2d") == "melds.max_wilds"
    apply_all(s, "meld 8s 8h 8d JK 2c")  # 3 naturals + 2 wild cards
    assert rule_of(s, "lay-off 8 2d") == "melds.max_wilds"


def test_wild_card_meld_opens_and_unfinished_wild_canasta_restricts() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "Classica è l'apertura con tre Joker o con due Joker e una
    pinella"; "Quando una coppia ha iniziato una canasta di Joker o pinelle fin quando non l'ha
    completata non può chiudere la smazzata e non può usare Joker o pinelle per altri fini
    (sporcare le canaste di carte «naturali» o scartarle per «gelare» il pozzo)"."""
    s = start({1: "JK JK 2c 2d 2h 9s 9h 9d 8s 8h 8d 7s 7h 7d Kc"}, "Qs Qh", scores=[0, 3000])
    apply_all(s, "draw", "meld JK JK 2c")
    assert s.opened[1]
    apply_all(s, "meld 9s 9h 9d")
    assert rule_of(s, "lay-off 9 2d") == "melds.unfinished_wild_meld_restricts"
    assert rule_of(s, "meld 8s 8h 2d") == "melds.unfinished_wild_meld_restricts"
    assert rule_of(s, "discard 2d") == "melds.unfinished_wild_meld_restricts"
    apply_all(s, "lay-off W 2d 2h")  # the wild meld itself may grow
    assert len(s.melds[1][0]) == 5


def test_mattoni_opening_with_the_pile_blocked_for_a_round() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "un giocatore che mette in tavola in combinazione un Joker
    (mattone) impedisce per un giro ai giocatori avversari di fare l'apertura di mattoni e
    contemporaneamente impossessarsi del pozzo (anche se potranno impossessarsi del pozzo con
    una diversa apertura)"."""
    seat1 = "Qs Qh JK JK 2c As Ad Ac Ks Kh Kd 7s 7h 7d 6c"
    seat0 = "As Ah JK Qd 4s 4h 4d 5c 5d 6s 6h 6d 10s 10h 10d"

    def position(joker: bool) -> State:
        s = start({1: seat1, 0: seat0}, "Kc Kd Jc Jd 10c 9c Js Jh", scores=[3000, 3000])
        apply_all(s, "draw", "discard 6c", "draw", "discard Jc", "draw", "discard 10c", "draw")
        if joker:
            apply_all(s, "meld As Ah JK")  # 90: seat 0 opens with a joker
        apply_all(s, "discard Qd")
        return s

    s = position(joker=True)
    assert s.opened[0] and s.current == 1
    apply_all(s, "take-pile Qs Qh")
    assert rule_of(s, "meld JK JK 2c") == "opening.joker_meld_blocks_mattoni"
    apply_all(s, "meld As Ad Ac", "meld Ks Kh Kd")  # a different opening: 90
    assert s.opened[1]
    s = position(joker=False)
    apply_all(s, "take-pile Qs Qh", "meld JK JK 2c")
    assert s.opened[1]
    s = start({1: seat1, 0: seat0}, "Kc Kd Jc Jd 10c 9c Js Jh", scores=[3000, 3000],
              options={"mattoni_block": "false"})
    apply_all(s, "draw", "discard 6c", "draw", "discard Jc", "draw", "discard 10c", "draw",
              "meld As Ah JK", "discard Qd", "take-pile Qs Qh", "meld JK JK 2c")
    assert s.opened[1]


@pytest.mark.parametrize(("meld", "blocked"), [("JK JK JK", True), ("JK JK 2c", True),
                                              ("JK 2c 2d", False), ("JK JK 2c 2d", False)])
def test_mattoni_are_three_jokers_or_two_and_a_deuce(meld: str, blocked: bool) -> None:
    """Seed 000_1cc8abd4e271b725.txt: "Classica è l'apertura con tre Joker o con due Joker e una
    pinella detta anche «apertura» di «mattoni»": only those melds are blocked after an
    opponent's joker; another wild meld with a joker opens with the pile."""
    seat1 = "Qs Qh JK JK JK 2c 2d Ac Ks Kh Kd 7s 7h 7d 6c"
    seat0 = "As Ah JK Qd 4s 4h 4d 5c 5d 6s 6h 6d 10s 10h 10d"
    s = start({1: seat1, 0: seat0}, "Kc Kd Jc Jd 10c 9c Js Jh", scores=[3000, 3000])
    apply_all(s, "draw", "discard 6c", "draw", "discard Jc", "draw", "discard 10c", "draw",
              "meld As Ah JK", "discard Qd", "take-pile Qs Qh")
    assert s.mattoni_blocked(1)
    if blocked:
        assert rule_of(s, f"meld {meld}") == "opening.joker_meld_blocks_mattoni"
    else:
        apply_all(s, f"meld {meld}")
        assert s.opened[1]


def test_pile_taken_only_when_the_opening_can_be_completed_and_never_given_back() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "non può impossessarsene, anche avendo le due carte dello
    stesso valore facciale, il giocatore di una coppia che non ha ancora «aperto»"; "la carta
    superiore del pozzo stesso però e le carte che la catturano non possono far parte del
    punteggio di «apertura»": an unopened side takes the pile only when its hand can complete
    the opening without them, and the take (with the stock card drawn) cannot be undone by
    ``retract`` nor by a meld that leaves the opening short."""
    hand = "4s 4h Ks Kh Kd 9s 9h JK As 8d 7c 6c 5c 10c Jd"
    s = start({1: hand.replace("JK", "Qd")}, "5d", scores=[3000, 3000])
    assert rule_of(s, "take-pile 4s 4h") == "opening.minimums"  # 30 of 90 without the pile
    assert not any(t.startswith("take-pile") for t in legal_texts(s))
    s = start({1: hand}, "5d", scores=[3000, 3000])
    apply_all(s, "take-pile 4s 4h")
    assert s.provisional and s.pending_pile and s.hands[1][parse_card("5d")] == 1
    assert rule_of(s, "retract") == "retract after a take"
    assert "retract" not in legal_texts(s)
    assert rule_of(s, "meld Ks Kh Kd JK") == "opening.minimums"  # 80, the nines stranded
    apply_all(s, "meld Ks Kh Kd", "meld 9s 9h JK")
    assert s.opened[1] and not s.pending_pile and s.opening_points == 100


@pytest.mark.parametrize("order", [("meld As Ad Ac", "meld 9s 9h 2c"),
                                   ("meld 9s 9h 2c", "meld As Ad Ac")])
def test_natural_opening_covers_every_meld_of_the_opening_turn(order: tuple[str, str]) -> None:
    """Seed 000_1cc8abd4e271b725.txt: "Per la discesa a 50 punti si richiedono solo
    combinazioni con carte naturali": every meld laid in the opening turn, also after the
    minimum is reached, so the order of the melds does not matter; from the
    next turn wild cards may be melded."""
    s = start({1: "As Ad Ac 9s 9h 2c Ks Kh 7s 7h 6s 6h 5c 5d 4d"}, "8c 8d")
    apply_all(s, "draw")
    first, second = order
    if "2c" in first:
        assert rule_of(s, first) == "opening.naturals_only_at"
    else:
        apply_all(s, first)
        assert s.opened[1]
        assert rule_of(s, second) == "opening.naturals_only_at"
        assert second not in legal_texts(s)


@pytest.mark.parametrize(("option", "kinds"), [(None, True), ("literal", True),
                                              ("neither", False)])
def test_wild_canastas_are_pure_of_deuces_or_mixed(option: str | None, kinds: bool) -> None:
    """Seed 000_1cc8abd4e271b725.txt: "3000 per canasta pura di pinelle", "2000 punti per canasta
    mista di Joker e pinelle": a wild canasta of deuces is pure, one with a joker impure, for
    going out ("almeno una canasta pura ed una impura"), the red-three sign and the five
    canastas; wild_canasta_kinds = neither counts them as neither."""
    rules = load_preset("canastone", {"wild_canasta_kinds": option} if option else None)
    mixed_wild = tuple(cards("JK JK 2c 2d 2h 2s JK"))
    deuces = tuple(cards("2c 2d 2h 2s 2c 2d 2h"))
    natural = tuple(cards("Ks Kh Kd Kc Ks Kh Kd"))
    mixed = tuple(cards("Qs Qh Qd Qc Qs 2c JK"))
    s = start({1: "7s"}, scores=[0, 0], options={"wild_canasta_kinds": option} if option
              else None)
    s.opened[1] = True
    s.melds[1] = {13: list(natural), 0: list(mixed_wild)}
    err = going_out_error(s, 1, parse_card("7s"))
    assert (err is None) is kinds
    if not kinds:
        assert err is not None and err.rule == "going_out.natural_and_mixed_required"
    s.melds[1] = {12: list(mixed), 0: list(deuces)}
    assert (going_out_error(s, 1, parse_card("7s")) is None) is kinds
    # The going-out search knows the kinds: a joker finishing the wild meld makes it impure.
    s.melds[1] = {13: list(natural), 0: list(cards("JK JK 2c 2d 2h 2s"))}
    s.hands[1] = [0] * len(s.hands[1])
    s.hands[1][JOKER] = s.hands[1][parse_card("7s")] = 1
    s.hand_size[1] = 2
    s.phase, s.opened_at_turn_start = Phase.PLAY, True
    plan = s.going_out_plan()
    assert (plan is not None) is kinds
    if plan is not None:
        assert len(plan) == 2 and plan[-1] == Discard(parse_card("7s"))
    sheet = score_hand([TeamHand(melds=(natural, mixed_wild), red_threes=1)], rules)[0]
    assert dict(sheet.items)["Red threes (1)"] == (100 if kinds else 0)
    five = (natural, natural, natural, natural, natural, mixed_wild)
    sheet = score_hand([TeamHand(melds=five)], rules)[0]
    assert ("Five natural canastas and a mixed one" in dict(sheet.items)) is kinds


def test_mattoni_block_lasts_one_round() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "impedisce per un giro": from the joker's turn until the
    same player's next turn."""
    s = start({}, "", scores=[3000, 3000])
    s.turn = 10
    s.joker_turn[0] = 7  # seat 0 put a joker down three turns ago
    assert s.mattoni_blocked(1) and not s.mattoni_blocked(0)
    s.joker_turn[0] = 6  # a full round ago: seat 0 is to play again
    assert not s.mattoni_blocked(1)


def test_frozen_pile_needs_three_naturals() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "lo scarto di un Joker o di una pinella «gela» il pozzo
    stesso ovvero ne impedisce la cattura per tutti i giocatori e i giri seguenti se non con
    almeno tre carte «naturali» dello stesso valore facciale della carta scartata";
    "Naturalmente la cattura del pozzo pone fine alla condizione di mazzo degli scarti
    «gelato»"."""
    seat3 = "Js Jh Jd As Ah Ad Ks Kh Kd 9s 9h 9d 8s 8h 8d"
    s = start({1: "JK", 2: "Jc", 3: seat3}, "5c 5d 6c 6d")
    apply_all(s, "draw", "discard JK")
    assert s.pile_frozen
    apply_all(s, "draw", "discard Jc")
    assert rule_of(s, "take-pile Js Jh") == "pile.frozen_naturals"
    apply_all(s, "take-pile Js Jh Jd")
    assert not s.pile_frozen


def test_black_three_stops_the_next_player() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "Lo scarto di un Tre nero (carta stop) impedisce
    all'avversario immediatamente seguente di catturare comunque il pozzo"."""
    s = start({1: "3s", 2: "4s 4h"}, "5c 5d")
    apply_all(s, "draw", "discard 3s")
    assert not any(t.startswith("take-pile") for t in legal_texts(s))


def test_pair_needed_even_onto_an_own_meld() -> None:
    """Seed 000_1cc8abd4e271b725.txt: the partner may take the pile "sempre a condizione di
    avere in mano almeno due carte dello stesso valore di quella scartata": the top card alone
    does not go onto the side's meld to take the pile (the VARIANTI sentence "consente la
    cattura del pozzo" is the option take_onto_meld)."""
    seat1 = "Ks Kh Kd As Ah Ad 9s 9h 9d 8s 8h 8d 7s 7h 7d"
    moves = ("draw", "meld Ks Kh Kd", "meld As Ah Ad", "discard 9s",
             "draw", "discard 6c", "draw", "discard 4s", "draw", "discard Kc")
    s = start({1: seat1, 0: "Kc Ks Kh"}, "5c 5d 6c 6d 4s 4h 4d 5h")
    apply_all(s, *moves)
    assert rule_of(s, "take-pile") == "pile.unfrozen_naturals"
    s = start({1: seat1, 0: "Kc Ks Kh"}, "5c 5d 6c 6d 4s 4h 4d 5h",
              options={"take_onto_meld": "below_canasta"})
    apply_all(s, *moves, "take-pile")
    assert len(s.melds[1][13]) == 4


def test_no_adding_to_the_opponents_melds() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "(non è consentito aggiungere carte alle combinazioni
    esposte dall'avversario)"."""
    s = start({1: "Ks Kh Kd As Ah Ad 9s 9h 9d 8s 8h 8d 7s 7h 7d", 2: "Kc"}, "5c 5d 6c 6d")
    apply_all(s, "draw", "meld Ks Kh Kd", "meld As Ah Ad", "discard 9s", "draw")
    assert rule_of(s, "lay-off K Kc") == "melds"


def test_wild_cards_on_a_completed_canasta() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "Le carte scaricabili su combinazioni già in tavola
    possono essere aggiunte anche a canaste già completate"."""
    s = start({1: "9s 9s 9h 9h 9d 9d 9c 2c 8s 8h 8d Kc Kd Qc Qd"}, "5c 5d", scores=[0, 3000])
    apply_all(s, "draw", "meld 9s 9s 9h 9h 9d 9d 9c", "lay-off 9 2c")
    assert len(s.melds[1][9]) == 8


def test_retracted_opening_raises_the_minimum_by_ten() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "mettere in tavola l'apertura in difetto di punteggio: se
    non può essere rettificata si riprendono in mano le carte esposte e il punteggio richiesto
    per l'apertura aumenta di 10 punti"."""
    s = start({1: "9s 9h 9d 4s 4h 4d 8c Kc Kd Qc Qd Jc Jd 7c 6c"}, "5c 5d")
    apply_all(s, "draw", "meld 9s 9h 9d")
    assert s.provisional
    apply_all(s, "retract")
    assert s.hand_size[1] == 17 and s.opening_minimum(1) == 60


def test_raised_minimum_keeps_the_fifty_band_natural_for_taking_the_pile() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "il punteggio richiesto per l'apertura aumenta di 10 punti"
    and "Per la discesa a 50 punti si richiedono solo combinazioni con carte naturali": after a
    retract the side needs 60 but is still in the 50 band, so its wild cards do not count and
    it may not take a pile it cannot open with ("non può impossessarsene"). The take was legal
    (the wild cards were counted toward the 60) and left only `retract`."""
    s = start({0: "9c", 1: "9s 9h 9d JK 2c 2d Kc Qd 7h 6s 5h 4h 8c 10c Js"},
              "Ad Kh Qs Jd 10s 8d 7d 6h")
    apply_all(s, "draw", "meld 9s 9h 9d", "retract", "discard Js")
    apply_all(s, "draw", "discard Qs", "draw", "discard 10s", "draw", "discard 9c")
    assert s.current == 1 and s.opening_minimum(1) == 60
    assert rule_of(s, "take-pile 9s 9h") == "opening.minimums"


def test_keep_red_threes_option() -> None:
    """Seed 000_1cc8abd4e271b725.txt, VARIANTI: "possibilità di trattenere in mano uno o più
    Tre rossi, naturalmente non denunciandoli e rinunciando al rispettivo «bonus» per valersene
    come «carte stop» al pari dei Tre neri"."""
    s = start({1: "3h", 2: "4s 4h"}, "5c 5d 6c", options={"keep_red_threes": "true"})
    assert s.hands[1][parse_card("3h")] == 1 and not s.red_threes[1]
    apply_all(s, "draw", "discard 3h")
    assert s.view(2).stopped
    assert not any(t.startswith("take-pile") for t in legal_texts(s))
    s = start({1: "3h"}, "5c 5d 6c", options={"keep_red_threes": "true"})
    apply_all(s, "draw", "meld 3h")  # declared later: laid out and replaced
    assert s.red_threes[1] == [parse_card("3h")] and s.hand_size[1] == 17


def test_canasta_rank_stop_option() -> None:
    """Seed 000_1cc8abd4e271b725.txt, VARIANTI: "lo scarto di una carta dello stesso valore
    facciale di una canasta chiusa da una coppia, fatta a un giocatore di questa coppia, funge
    da stop come lo scarto di un Tre nero"."""
    seat1 = "9s 9s 9h 9h 9d 9d 9c Ks Kh Kd 8c 7c 6c 5c 4c"
    for choice, stopped in (("false", False), ("true", True)):
        s = start({1: seat1, 2: "9c"}, "Qc Qd Jc Jd", options={"canasta_rank_stops": choice})
        apply_all(s, "draw", "meld 9s 9s 9h 9h 9d 9d 9c", "discard 8c", "draw")
        apply_all(s, "discard 9c")
        assert s.view(3).stopped is stopped


def test_initial_wild_freezes_option() -> None:
    """Seed 000_1cc8abd4e271b725.txt, VARIANTI: "considerare il pozzo «gelato» fin dall'inizio
    quando si sia sotterrato un Joker o una pinella comparsa come carta di inizio del
    pozzo"."""
    assert not deal(RULES, {}, "JK 4c").pile_frozen
    rules = load_preset("canastone", {"initial_wild_freezes": "true"})
    assert deal(rules, {}, "JK 4c").pile_frozen
    assert not deal(rules, {}, "3h 4c").pile_frozen


def test_target_12000_and_15000_option() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "avendo superato un limite precedentemente concordato di
    punti: normalmente 12.000"; VARIANTI: "chiusura a 15.000 punti con obbligo di apertura a
    200 per la coppia che ha già totalizzato da 12.000 a 14.995 punti"."""
    assert RULES.target(4) == 12000 and RULES.opening_minimum(13000) == 180
    r15 = load_preset("canastone", {"target_15000": "true"})
    assert r15.target(4) == 15000 and r15.opening_minimum(12000) == 200
    assert r15.opening_minimum(11995) == 180


def test_match_redeals_a_void_deal() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "la smazzata verrà annullata e si rifaranno le carte da
    parte dello stesso mazziere": a match deals again until the deal stands."""
    m = Match(RULES, 4, seed=11)
    assert m.dealer == 0 and m.state.pile


def test_six_players_two_teams_of_three_or_three_pairs() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "Il Canastone a 6 giocatori vede applicate le stesse regole
    da due squadre, ognuna di tre giocatori oppure da tre coppie. Nell'un caso e nell'altro i
    giocatori dello stesso partito hanno gioco in comune e siedono sempre al tavolo alternati
    con gli avversari"."""
    s = State.deal(RULES, 6, seed=2)
    assert s.teams == ((0, 2, 4), (1, 3, 5))
    s = State.deal(RULES, 6, seed=2, team_size=2)
    assert s.teams == ((0, 3), (1, 4), (2, 5))
    assert len(s.scores) == 3  # one score per pair


def test_ask_partner_only_as_an_option() -> None:
    """Seed 000_1cc8abd4e271b725.txt, VARIANTI: "possibilità di richiedere al compagno il
    permesso di chiudere con l'obbligo però di comportarsi adeguandosi alla sua risposta"."""
    assert not RULES.going_out.ask_partner
    assert load_preset("canastone", {"ask_partner": "true"}).going_out.ask_partner


def test_first_player_is_left_of_the_dealer() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "Chi si siede alla destra del giocatore di mano sarà il
    primo mazziere ... distribuirà, una alla volta in senso orario"."""
    s = deal(RULES, {}, "4c", dealer=2)
    assert s.current == 3 and s.phase is Phase.DRAW


def test_partner_takes_the_pile_once_the_side_has_opened() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "Quando un membro della coppia ha esposto in tavola
    «l'apertura» anche il suo compagno può impossessarsi al suo turno del pozzo, sempre a
    condizione di avere in mano almeno due carte dello stesso valore di quella scartata"; "deve
    esporre subito in tavola la carta superiore catturata in combinazione con le carte che ne
    hanno consentito la cattura"."""
    seat1 = "Ks Kh Kd As Ah Ad 9s 9h 9d 8s 8h 8d 7s 7h 7d"
    s = start({1: seat1, 2: "Jc", 3: "Js Jh"}, "5c 5d 6c 6d")
    apply_all(s, "draw", "meld Ks Kh Kd", "meld As Ah Ad", "discard 9s", "draw", "discard Jc")
    size = len(s.pile)
    apply_all(s, "take-pile Js Jh")
    assert sorted(s.melds[1][11]) == sorted(cards("Jc Js Jh"))
    assert s.hand_size[3] == 15 - 2 + (size - 1) + 1


def test_black_three_meld_no_longer_allowed_to_go_out() -> None:
    """Seed 000_1cc8abd4e271b725.txt: "La chiusura con possibilità di mettere in tavola una
    combinazione di 3 o più Tre neri non viene attualmente più ammessa"."""
    seat1 = "9s 9s 9h 9h 9d 9d 9c 8s 8s 8h 8h 8d 8d JK 3s"
    s = start({1: seat1}, "3c 3s", scores=[0, 3000], options={"go_out_without_discard": "true"})
    apply_all(s, "draw", "meld 9s 9s 9h 9h 9d 9d 9c", "meld 8s 8s 8h 8h 8d 8d JK")
    assert rule_of(s, "meld 3s 3c 3s") == "melds.black_three_meld_going_out"
