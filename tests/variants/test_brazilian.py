"""Canastra, Brazilian Canasta (preset ``brazilian``), seed 003_6aef22ca5c65dc7b.txt: one test
per rule, each docstring quoting the seed sentence it rests on (or shared/rules/variants.md
section 4 where the seed is silent). The dealer is seat 0, so seat 1 plays first."""

from __future__ import annotations

import pytest
from deck_helpers import apply_all, cards, deal, legal_texts, rule_of

from canasta import LayOff, Match, Meld, State, load_preset, parse_action, preset_options
from canasta.core.cards import JOKER, make_deck, parse_card
from canasta.core.scoring import TeamHand, score_hand

RULES = load_preset("brazilian")
RUN = "As Ks Qs Js 10s 9s 8s"


def start(hands: dict[int, str], after: str = "4c", *, scores: list[int] | None = None,
          options: dict[str, str] | None = None, players: int = 4) -> State:
    rules = load_preset("brazilian", options) if options else RULES
    return deal(rules, hands, after, scores=scores, players=players)


def test_two_packs_four_jokers_eleven_cards_64_in_the_stock() -> None:
    """Seed 003_6aef22ca5c65dc7b.txt: "Si usano due mazzi standard da 52 carte mescolati insieme
    con quattro jolly, per un totale di 108 carte"; "Il mazziere distribuisce 11 carte a ogni
    giocatore"; "Posizionate le restanti 64 carte coperte come tallone; girate la carta in cima
    per iniziare la pila degli scarti"."""
    deck = make_deck(RULES.packs(4), RULES.deal.jokers_per_pack)
    assert len(deck) == 108 and deck.count(JOKER) == 4
    s = start({}, "Kd")
    assert s.hand_size == [11] * 4 and len(s.stock) == 64 - 1 and s.pile == [parse_card("Kd")]


def test_two_pack_game_without_jokers() -> None:
    """Seed 003_6aef22ca5c65dc7b.txt: "Two-Pack Canasta: usa solo due mazzi senza jolly,
    riducendo le carte jolly ed enfatizzando le combinazioni naturali"."""
    rules = load_preset("brazilian", {"jokers": "without"})
    s = State.deal(rules, 4, seed=1)
    assert len(s.deck) == 104 and JOKER not in s.deck


def test_special_upcard_buried_back_in_the_stock() -> None:
    """Seed 003_6aef22ca5c65dc7b.txt: "Se la carta girata è un jolly, un 2 o un 3 rosso,
    interratela immediatamente nel tallone e giratene un'altra"."""
    s = start({}, "JK 3h 2c Kd")
    assert s.pile == [parse_card("Kd")] and not s.pile_frozen
    assert s.stock.count(JOKER) >= 1 and parse_card("3h") in s.stock
    assert len(s.stock) == 108 - 44 - 1
    s = start({}, "3s Kd")  # a black three is not buried: it is the upcard
    assert s.pile == [parse_card("3s")]


def test_red_three_dealt_is_laid_out_and_replaced_after_the_upcard() -> None:
    """Seed 003_6aef22ca5c65dc7b.txt: "3 rossi in mano: chiunque riceva un 3 rosso lo scopre
    immediatamente davanti a sé e pesca una carta sostitutiva dal tallone" (step 4, after the
    upcard of step 3)."""
    s = start({1: "3h"}, "Kd Qs")
    assert s.pile == [parse_card("Kd")]
    assert s.red_threes[1] == [parse_card("3h")] and s.hands[1][parse_card("Qs")] == 1


def test_take_with_one_natural_and_a_wild_card() -> None:
    """Seed 003_6aef22ca5c65dc7b.txt: "prendi l'intera pila degli scarti, a condizione che tu
    possa immediatamente giocare in combinazione la carta in cima con almeno una carta naturale
    dalla tua mano (formando una nuova combinazione di 3+ ...). Non puoi prendere la pila degli
    scarti usando solo carte jolly come abbinamento naturale"."""
    s = start({1: "Ks JK 2c As Ah Ad 9s 9h 8c 7c 6c"}, "Kd")
    assert rule_of(s, "take-pile JK 2c") == "pile.unfrozen_naturals"
    apply_all(s, "take-pile Ks JK")
    assert sorted(s.melds[1][13]) == sorted(cards("Kd Ks JK"))
    assert s.opening_points == 70 and s.opened[1]  # the top card counts (variants.md)


def test_take_onto_an_own_meld() -> None:
    """Seed 003_6aef22ca5c65dc7b.txt: "a condizione che tu possa immediatamente giocare in
    combinazione la carta in cima con almeno una carta naturale dalla tua mano (formando una
    nuova combinazione di 3+ o aggiungendola a una combinazione esistente della squadra)": onto
    the side's meld the top card goes with a natural from hand too; the top
    card alone is the option take_onto_meld = top_card (variants.md)."""
    seat1 = "Ks Kh Kd As Ah Ad 9s 9h 8c 7c 6c"
    moves = ("draw", "meld Ks Kh Kd", "meld As Ah Ad", "discard 8c", "draw", "discard 5s",
             "draw", "discard 5h", "draw", "discard Kc")
    s = start({1: seat1, 0: "Kc Ks"}, "4c 4d 5s 5h 5d")
    apply_all(s, *moves)
    assert rule_of(s, "take-pile") == "pile.unfrozen_naturals"
    assert "take-pile" not in legal_texts(s)
    s = start({1: seat1.replace("6c", "Kc"), 0: "Kc Ks"}, "4c 4d 5s 5h 5d")
    apply_all(s, *moves, "take-pile Kc")
    assert len(s.melds[1][13]) == 5
    s = start({1: seat1, 0: "Kc Ks"}, "4c 4d 5s 5h 5d", options={"take_onto_meld": "top_card"})
    apply_all(s, *moves, "take-pile")
    assert len(s.melds[1][13]) == 4


def test_no_freeze_by_default_and_the_freezing_house_rules() -> None:
    """Seed 003_6aef22ca5c65dc7b.txt: "Regole del congelamento: in alcune case la pila viene
    «congelata» da un 3 nero o da una carta jolly, il che significa che non può essere presa con
    una coppia naturale dalla mano; concordate prima del gioco"; glossary: "tipicamente una
    coppia naturale dalla mano che corrisponde alla carta in cima"."""
    hands = {1: "JK 3s", 2: "Jc 4h", 3: "Js 2d As Ah Ad 9s 9h 8c 7c 6c 5c"}
    for choice, frozen in (("none", False), ("wild", True), ("wild_or_black_three", True)):
        s = start(hands, "4c 5d 6d", options={"frozen_pile": choice})
        apply_all(s, "draw", "discard JK")
        assert s.pile_frozen is frozen
        apply_all(s, "draw", "discard Jc")
        if frozen:
            assert rule_of(s, "take-pile Js 2d") == "pile.frozen_naturals"
        else:
            assert "take-pile Js 2d" in legal_texts(s)
    s = start(hands, "4c 5d 6d", options={"frozen_pile": "wild_or_black_three"})
    apply_all(s, "draw", "discard 3s")
    assert s.pile_frozen
    s = start(hands, "4c 5d 6d", options={"frozen_pile": "always"})
    apply_all(s, "draw", "discard 5d", "draw", "discard Jc")
    assert s.view(3).pile_frozen and not s.pile_frozen
    assert rule_of(s, "take-pile Js 2d") == "pile.frozen_naturals"


def test_black_three_stops_the_next_player() -> None:
    """Seed 003_6aef22ca5c65dc7b.txt: "I 3 neri sono carte di blocco: quando vengono scartati in
    cima alla pila degli scarti, «congelano» la pila impedendo al giocatore successivo di
    prenderla"."""
    s = start({1: "3s", 2: "3c 3d"}, "4c 5d")
    apply_all(s, "draw", "discard 3s")
    assert s.view(2).stopped and not s.pile_frozen


def test_meld_needs_two_naturals_and_one_meld_per_rank() -> None:
    """Seed 003_6aef22ca5c65dc7b.txt: "Una combinazione è composta da tre o più carte dello
    stesso valore; può contenere carte jolly ma deve avere almeno due carte naturali. Una
    squadra non può avere due combinazioni separate dello stesso valore contemporaneamente"."""
    s = start({1: "Ks JK 2c As Ah Ad Kh Kd Kc 9s 8c"}, "4c 5d")
    apply_all(s, "draw")
    assert rule_of(s, "meld Ks JK 2c") == "melds.min_naturals"
    apply_all(s, "meld As Ah Ad", "meld Kh Kd Kc")
    assert rule_of(s, "meld Ks JK 2c") == "one meld per rank"


@pytest.mark.parametrize(("choice", "ok"), [(None, True), ("3", False), ("unlimited", True)])
def test_wild_card_limit_option(choice: str | None, ok: bool) -> None:
    """Seed 003_6aef22ca5c65dc7b.txt: "può contenere carte jolly ma deve avere almeno due carte
    naturali": no wild-card maximum by default; at most 3 as in international
    Canasta is the option max_wilds = 3 (variants.md)."""
    options = {"max_wilds": choice} if choice else None
    s = start({1: "Ks Kh JK JK 2c 2d As Ah Ad 9s 8c"}, "4c 5d", options=options)
    apply_all(s, "draw")
    assert s.can(parse_action("meld Ks Kh JK JK 2c 2d")) is ok
    want = sorted(cards("Ks Kh JK JK 2c 2d"))
    assert any(isinstance(a, Meld) and sorted(a.cards) == want for a in s.legal_actions()) is ok
    if not ok:
        assert rule_of(s, "meld Ks Kh JK JK 2c 2d") == "melds.max_wilds"


@pytest.mark.parametrize(("score", "minimum"), [(-5, 15), (0, 50), (1495, 50), (1500, 90),
                                                (2999, 90), (3000, 120), (4000, 120)])
def test_opening_minimums(score: int, minimum: int) -> None:
    """Seed 003_6aef22ca5c65dc7b.txt: "Punteggio inferiore a 1500: minimo 50 punti. Punteggio da
    1500 a 2999: minimo 90 punti. Punteggio di 3000 e oltre: minimo 120 punti. Punteggio della
    squadra negativo: minimo 15 punti"."""
    assert RULES.opening_minimum(score) == minimum


@pytest.mark.parametrize(("choice", "minimum"), [("retract", 50), ("plus_ten", 60)])
def test_failed_opening(choice: str, minimum: int) -> None:
    """Seed 003_6aef22ca5c65dc7b.txt tips: "Un'apertura iniziale fallita (carte scese che non
    raggiungono il minimo) significa che la tua squadra non può scendere a tavolo per l'intera
    mano" is advice, not a rule (variants.md): the short opening is taken back; Canastone's +10
    as an option."""
    s = start({1: "Ks Kh Kd 9s 8c 7c 6c 5c 4s 4h Qd"}, "4c 5d",
              options={"failed_opening": choice})
    apply_all(s, "draw", "meld Ks Kh Kd", "retract")
    assert s.opening_minimum(1) == minimum and s.hand_size[1] == 12


def test_going_out_with_a_canastra_and_no_discard() -> None:
    """Seed 003_6aef22ca5c65dc7b.txt: "Una squadra può chiudere la mano ... solo se ha
    completato almeno una canastra, naturale o mista. Il giocatore che chiude la mano gioca o
    mette a tavola tutte le carte rimanenti (con la possibilità di scartarne una o nessuna)";
    "Chiusura della mano: 100 punti (200 se «in mano chiusa», cioè scesa in un unico
    turno)"."""
    s = start({1: "9s 9h 9d 9c 9s 9h JK As Ah Ad Ac"}, "4c 2c")
    apply_all(s, "draw", "meld 9s 9h 9d 9c 9s 9h JK 2c", "meld As Ah Ad Ac")
    assert s.is_over and s.went_out == 1 and s.concealed
    items = dict(s.score()[1].items)
    assert items["Going out concealed"] == 200 and items["Mixed canasta"] == 100


def test_concealed_going_out_needs_the_minimum() -> None:
    """Seed 003_6aef22ca5c65dc7b.txt: "I bonus per le canastre e i 3 rossi NON contano ai fini
    del minimo"; the minimum is not waived for a going out in one turn (variants.md)."""
    s = start({1: "5s 5h 5d 5c 5s 5h 4s 4h 4d 4c 6c"}, "4c 5d", scores=[0, 3000])
    apply_all(s, "draw", "meld 5s 5h 5d 5c 5s 5h 5d", "meld 4s 4h 4d 4c")
    assert s.opening_points == 55 and s.provisional
    assert rule_of(s, "discard 6c") == "opening.minimums"  # 55 of 120: only `retract` is left


def test_last_discard_may_be_any_card() -> None:
    """Seed 003_6aef22ca5c65dc7b.txt: "con la possibilità di scartarne una o nessuna": no card is
    barred as the last discard."""
    s = start({1: "9s 9h 9d 9c 9s 9h 9d As Ah Ad 3s"}, "4c 2c")
    apply_all(s, "draw", "meld 9s 9h 9d 9c 9s 9h 9d", "meld As Ah Ad 2c", "discard 3s")
    assert s.is_over and s.went_out == 1


def test_ask_partner_once_per_hand() -> None:
    """Seed 003_6aef22ca5c65dc7b.txt: "prima di chiudere la mano, un giocatore può chiedere al
    partner «Posso chiudere?» solo una volta per mano. Il partner risponde sì o no; chi ha
    chiesto deve rispettare la risposta. Concordate prima del gioco se questo è consentito
    (alcuni gruppi lo vietano)"."""
    seat1 = "9s 9h 9d 9c 9s 9h 9d As Ah Ad Kc"
    s = start({1: seat1}, "4c Ac 5s 5h 5d Jc")
    apply_all(s, "draw", "ask-partner", "answer no", "meld As Ah Ad Ac", "discard Kc",
              "draw", "discard 5s", "draw", "discard 5h", "draw", "discard 5d", "draw")
    assert s.going_out_plan() is not None
    assert rule_of(s, "ask-partner") == "going_out.ask_partner_per_hand"
    s = start({1: seat1}, "4c Qd", options={"ask_partner": "never"})
    apply_all(s, "draw")
    assert "ask-partner" not in legal_texts(s)


def test_canastra_bonuses_and_red_threes_always_plus() -> None:
    """Seed 003_6aef22ca5c65dc7b.txt: "Canastra naturale (pulita): 200 punti. Canastra mista
    (sporca), con almeno un jolly: 100 punti"; "Ogni 3 rosso davanti alla vostra squadra: 100
    punti (tutti e quattro i 3 rossi insieme: 800 punti totali, bonus quadruplo)"; "I 3 rossi
    sono regali puri"."""
    clean = tuple(cards("9s 9h 9d 9c 9s 9h 9d"))
    dirty = tuple(cards("8s 8h 8d 8c 8s JK 2c"))
    sheet = score_hand([TeamHand(melds=(clean, dirty), red_threes=4)], RULES)[0]
    items = dict(sheet.items)
    assert items["Natural canasta"] == 200 and items["Mixed canasta"] == 100
    assert items["Red threes (4)"] == 800
    bare = score_hand([TeamHand(red_threes=1, hands=(tuple(cards("5c")),))], RULES)[0]
    assert dict(bare.items)["Red threes (1)"] == 100


def test_red_three_sign_option() -> None:
    """variants.md section 4 (jogatina Tranca): "minus 100 each without a canastra", the option
    red_three_sign against the seed's "I 3 rossi sono regali puri"."""
    rules = load_preset("brazilian", {"red_three_sign": "no_canasta"})
    small = tuple(cards("9s 9h 9d"))
    sheet = score_hand([TeamHand(melds=(small,), red_threes=2)], rules)[0]
    assert dict(sheet.items)["Red threes (2)"] == -200


def test_hand_total_may_be_negative() -> None:
    """Seed 003_6aef22ca5c65dc7b.txt: "sottraete il valore di ogni carta rimasta in mano al
    termine della mano. Il totale con segno risultante viene aggiunto al punteggio progressivo
    della squadra; può essere negativo"."""
    sheet = score_hand([TeamHand(hands=(tuple(cards("JK As Kd")),), score_before=40)], RULES)[0]
    assert sheet.hand_total == -80 and sheet.score_after == -40


def _match(scores: list[int], options: dict[str, str] | None = None) -> Match:
    m = Match(load_preset("brazilian", options) if options else RULES, 4, seed=1)
    m.scores = list(scores)
    return m


@pytest.mark.parametrize(("scores", "winner"), [([3000, 100], 0), ([3100, 3050], 0),
                                                ([3010, 3020], 1), ([2995, 0], None),
                                                ([3050, 3050], None)])
def test_target_3000_higher_total_wins(scores: list[int], winner: int | None) -> None:
    """Seed 003_6aef22ca5c65dc7b.txt: "Si giocano mano dopo mano finché una squadra raggiunge il
    punteggio obiettivo (comunemente 3000 nella Canastra brasiliana). Se entrambe le squadre
    superano l'obiettivo nella stessa mano, vince quella con il punteggio più alto"."""
    m = _match(scores)
    assert m._decide_winner(m.state) == winner


def test_target_option() -> None:
    """Seed 003_6aef22ca5c65dc7b.txt: "(altri gruppi giocano fino a 5000 o 10000)"."""
    assert [load_preset("brazilian", {"target": t}).target(4) for t in ("3000", "5000", "10000")
            ] == [3000, 5000, 10000]


def test_sujo_exact_target() -> None:
    """Seed 003_6aef22ca5c65dc7b.txt: "Nella variante brasiliana «Sujo», è necessario
    raggiungere esattamente 3000; se si supera, bisogna aspettare il prossimo superamento della
    soglia" and "Sujo / Canastra Sporca: la squadra deve raggiungere esattamente il punteggio
    obiettivo; se lo supera, torna alla soglia precedente": both readings are choices."""
    for choice in ("stands", "reverts"):
        m = _match([3100, 0], {"sujo": choice})
        assert m._decide_winner(m.state) is None
        m = _match([3000, 0], {"sujo": choice})
        assert m._decide_winner(m.state) == 0
    hand = TeamHand(melds=(tuple(cards("9s 9h 9d 9c 9s 9h 9d")),), score_before=2900)
    stands = score_hand([hand], load_preset("brazilian", {"sujo": "stands"}))[0]
    reverts = score_hand([hand], load_preset("brazilian", {"sujo": "reverts"}))[0]
    assert stands.score_after == 2900 + 270
    assert reverts.score_after == 2900 and reverts.items[-1][1] == -270


def test_canastra_real_sequence() -> None:
    """Seed 003_6aef22ca5c65dc7b.txt: "Canastra Real / Canasta Real: una sequenza naturale di
    sette carte tutte dello stesso seme (A-K-Q-J-10-9-8, per esempio) vale 500 punti bonus e
    conta come canastra"."""
    s = start({1: f"{RUN} 9h 9d 9s 5c"}, "4c 9c")
    apply_all(s, "draw")
    assert rule_of(s, f"meld {RUN}") == "melds"  # off by default
    s = start({1: f"{RUN} 9h 9d 9s 5c"}, "4c 9c", options={"canastra_real": "true"})
    apply_all(s, "draw")
    assert f"meld {RUN}" in legal_texts(s)
    apply_all(s, f"meld {RUN}")
    assert s.opened[1] and s.canastas(1) == 1
    assert rule_of(s, "meld 9h 9d 5c") == "melds"  # not a run, not one rank
    apply_all(s, "meld 9h 9d 9s 9c", "discard 5c")  # goes out: the run counts as a canastra
    assert s.is_over and s.went_out == 1
    items = dict(s.score()[1].items)
    assert items["Sequence canasta (canastra real)"] == 500


@pytest.mark.parametrize(("run", "ok"), [("10h 9h 8h 7h 6h 5h 4h", True),
                                          ("Ks Qs Js 10s 9s 8s 7s", True),
                                          ("As Ks Qs Js 10s 9s 7s", False),
                                          ("As Ks Qs Js 10s 9h 8s", False)])
def test_canastra_real_is_seven_in_a_run_of_one_suit(run: str, ok: bool) -> None:
    """Seed 003_6aef22ca5c65dc7b.txt: "una sequenza naturale di sette carte tutte dello stesso
    seme": naturals (4 to ace, ace high), consecutive, one suit."""
    s = start({1: f"{run} 9c 9d Kh 5c"}, "4c 9h", options={"canastra_real": "true"})
    apply_all(s, "draw")
    assert (f"meld {run}" in legal_texts(s)) is ok


def test_canastra_real_pile_taken_only_when_the_opening_can_be_made() -> None:
    """Seed 003_6aef22ca5c65dc7b.txt: the pile is taken "a condizione che tu possa
    immediatamente giocare in combinazione la carta in cima", and the first meld "deve
    raggiungere un minimo"; a Canastra Real ("una sequenza naturale di sette carte") counts its
    card points there. With the option on, a side whose hand holds no run took the pile it
    could not open with (it could only retract); one with a run in hand still may."""
    rules = {"canastra_real": "true"}
    s = start({1: "5s 2c 4h 6d 7s 8c 9h 10d Jc Qh Kd"}, "5d", options=rules)
    assert not any(t.startswith("take-pile") for t in legal_texts(s))
    s = start({1: f"5s 2c {RUN} 4c 6d"}, "5d", options=rules)
    apply_all(s, "take-pile 5s 2c", f"meld {RUN}")
    assert s.opened[1] and len(s.pile) == 0


def test_canastra_real_takes_no_more_cards() -> None:
    """Seed 003_6aef22ca5c65dc7b.txt: a Canastra Real is "una sequenza naturale di sette carte";
    the seed adds nothing to it, so it is closed (docs/rules.md)."""
    s = start({1: f"{RUN} 7s Kh Kd 5c"}, "4c 9c", options={"canastra_real": "true"})
    apply_all(s, "draw", f"meld {RUN}")
    key = next(k for k in s.melds[1] if k >= 100)
    assert not s.can(LayOff(key, (parse_card("7s"),)))


@pytest.mark.parametrize(("count", "total"), [(3, 300), (4, 800), (5, 1000), (6, 1200)])
def test_red_threes_of_the_three_pack_game_never_score_less_for_more(count: int,
                                                                     total: int) -> None:
    """Seed 003_6aef22ca5c65dc7b.txt: "tutti e quattro i 3 rossi insieme: 800 punti totali,
    bonus quadruplo"; six players use three packs ("Bolivia ... 3 mazzi"), six red threes, for
    which the seed gives no total: five and six follow seed 000_1cc8abd4e271b725.txt
    ("quattro, cinque o sei segnerà rispettivamente 800, 1000 e 1200"); five scored 500 before,
    less than four."""
    sheet = score_hand([TeamHand(melds=(tuple(cards("9s 9h 9d")),), red_threes=count)],
                       RULES)[0]
    assert dict(sheet.items)[f"Red threes ({count})"] == total


@pytest.mark.parametrize("players", [2, 3, 6])
def test_other_player_counts(players: int) -> None:
    """Seed 003_6aef22ca5c65dc7b.txt: "Esistono varianti per due o tre giocatori, ma la versione
    in coppia è quella canonica in Brasile"; "Bolivia: una variante con 3 mazzi popolare in
    Brasile per gruppi numerosi; stessi principi, più carte"."""
    s = State.deal(RULES, players, seed=2)
    assert s.hand_size == [11] * players
    assert len(s.deck) == (162 if players == 6 else 108)


def test_every_seed_house_rule_is_an_option() -> None:
    """Seed 003_6aef22ca5c65dc7b.txt, "Varianti comuni": Canastra Real, Sujo, Two-Pack Canasta
    and the freezing rules are named options (Hand and Foot and Bolivia are other games: see
    docs/rules-matrix.md)."""
    names = set(preset_options("brazilian"))
    assert {"canastra_real", "sujo", "jokers", "frozen_pile", "ask_partner", "target"} <= names
