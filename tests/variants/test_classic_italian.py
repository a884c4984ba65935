"""Canasta classica (preset ``classic_italian``), seed 001_fb0497f152a2c2d6.txt, written as its
differences from Canastone (seed 000). One test per rule, each docstring quoting the seed
sentence it rests on. The dealer is seat 0, so seat 1 (team 1, with seat 3) plays first."""

from __future__ import annotations

import pytest
from deck_helpers import apply_all, deal, legal_texts, rule_of

from canasta import Match, Phase, State, load_preset
from canasta.core.cards import JOKER, make_deck, parse_card
from canasta.core.rules import preset_info
from canasta.core.scoring import TeamHand, score_hand
from helpers import burn_stock
from helpers import deal as deal_bottom

RULES = load_preset("classic_italian")
CANASTONE = load_preset("canastone")


def start(hands: dict[int, str], after: str = "4c", *, scores: list[int] | None = None,
          options: dict[str, str] | None = None, players: int = 4) -> State:
    """Deal with ``after`` (the upcard first, then the stock) on top of the stock."""
    rules = load_preset("classic_italian", options) if options else RULES
    return deal(rules, hands, after, scores=scores, players=players)


def test_written_as_canastone_plus_differences() -> None:
    """Seed 001_fb0497f152a2c2d6.txt: "Non differisce in modo sostanziale dal Canastone ... Le
    regole diverse sono": the preset extends Canastone, whose rules it does not restate stay
    in force (red threes by pure and impure canastas, wild-card canastas, hand doubling)."""
    assert preset_info("classic_italian")["extends"] == "canastone"
    for section in ("red_threes", "scoring"):
        assert getattr(RULES, section).__class__ is getattr(CANASTONE, section).__class__
    assert RULES.red_threes.sign == CANASTONE.red_threes.sign == "canasta_matrix"
    assert RULES.scoring.wild_canasta_deuces == 3000
    assert RULES.scoring.unopened_hand_multiplier == 2
    assert RULES.melds.wild_ratio == "lt" and RULES.melds.wild_melds


def test_two_packs_four_jokers_eight_deuces_eleven_cards() -> None:
    """Seed 001_fb0497f152a2c2d6.txt: "si gioca con due soli mazzi di 54 carte e quindi con solo
    4 Joker e otto pinelle"; "11 carte per giocatore"."""
    deck = make_deck(RULES.packs(4), RULES.deal.jokers_per_pack)
    assert len(deck) == 108 and deck.count(JOKER) == 4
    assert sum(1 for c in deck if c // 4 == 1) == 8
    assert State.deal(RULES, 4, seed=1).hand_size == [11, 11, 11, 11]


def test_thirteen_cards_option() -> None:
    """Seed 001_fb0497f152a2c2d6.txt: "11 carte per giocatore (in alcuni tavoli 13 carte per
    giocatore)"."""
    rules = load_preset("classic_italian", {"cards_13": "true"})
    assert State.deal(rules, 4, seed=1).hand_size == [13, 13, 13, 13]


@pytest.mark.parametrize(("players", "option", "dealt", "draw"), [
    (2, None, 15, 2), (3, None, 13, 2), (3, "11", 11, 2), (6, None, 13, 1)])
def test_two_three_and_six_player_games(players: int, option: str | None, dealt: int,
                                        draw: int) -> None:
    """Seed 001_fb0497f152a2c2d6.txt: "nella partita a due soli giocatori si distribuiscono 15
    carte a testa e ogni giocatore al suo turno pesca dal tallone due carte e ne scarta una;
    nella partita a tre giocatori (ognuno per sé) si distribuiscono 13 o anche solo 11 carte a
    testa e, al turno di gioco, si pescano dal tallone due carte e se ne scarta una; nella
    Canasta a 6 si adoperano tre mazzi, si distribuiscono 13 carte a testa e la partita va ai
    10.000 punti"."""
    rules = load_preset("classic_italian", {"three_player_cards": option} if option else None)
    s = State.deal(rules, players, seed=4)
    assert s.hand_size == [dealt] * players
    assert rules.draw_count(players) == draw
    if players == 3:
        assert s.teams == ((0,), (1,), (2,))
    if players == 6:
        assert len(s.deck) == 162 and rules.target(6) == 10000
        assert State.deal(rules, 6, seed=4, team_size=2).teams == ((0, 3), (1, 4), (2, 5))
    else:
        assert rules.target(players) == 5000


def test_no_cards_under_the_upcard_specials_buried() -> None:
    """Seed 001_fb0497f152a2c2d6.txt: "nella distribuzione non si sottomettono alle carte
    scoperte vicino al tallone tante carte quanto è il valore facciale di queste carte ... pur
    sotterrando eventuali carte «speciali» comparse prima della «naturale»"."""
    s = deal(RULES, {}, "Kd")
    assert s.pile == [parse_card("Kd")]
    s = deal(RULES, {}, "2c 3s Kd")
    assert s.pile == [parse_card("2c"), parse_card("3s"), parse_card("Kd")]
    assert not s.pile_frozen


def test_draw_one_and_none_with_the_pile() -> None:
    """Seed 001_fb0497f152a2c2d6.txt: "al suo turno il giocatore prende dal tallone una sola
    carta invece di due e non ne prende affatto se cattura il pozzo"."""
    s = start({}, "4c Qs")
    apply_all(s, "draw")
    assert s.hand_size[1] == 12
    s = start({1: "4s 4h Ks Kh Kd Qc Qd Qh 9s 9d 8c"}, "4c Qs")
    apply_all(s, "take-pile 4s 4h", "meld Ks Kh Kd", "meld Qc Qd Qh")
    assert s.opened[1] and s.hand_size[1] == 11 - 2 - 6 and s.hands[1][parse_card("Qs")] == 0


def test_impure_canasta_of_four_naturals_and_three_wild_cards() -> None:
    """Seed 001_fb0497f152a2c2d6.txt: "possibilità di comporre la canasta impura anche con solo 4
    carte naturali e tre fra Joker e pinelle" (wild cards still fewer than naturals)."""
    s = start({1: "9s 9h 9d 9c JK 2c 2d Ks Kh 8s 8h"}, "4c Qs", scores=[0, 1500])
    apply_all(s, "draw")
    assert rule_of(s, "meld 9s 9h 9d JK 2c 2d") == "melds.wild_ratio"
    apply_all(s, "meld 9s 9h 9d 9c JK 2c 2d")
    assert len(s.melds[1][9]) == 7 and s.opened[1]


def test_unfrozen_pile_pair_or_natural_and_wild() -> None:
    """Seed 001_fb0497f152a2c2d6.txt: "il pozzo non «gelato» si può catturare con due carte
    uguali a quelle esposte oppure con una coppia formata da una carta uguale a quella esposta e
    un Joker o pinella"."""
    # At the 90 level (wild cards are not allowed in an opening of 50, inherited from seed 000).
    s = start({1: "4s 2c Ks Kh Kd Qc Qd Qh 9s 9d 8c"}, "4c Qs", scores=[0, 1500])
    assert "take-pile 4s 2c" in legal_texts(s)
    apply_all(s, "take-pile 4s 2c", "meld Ks Kh Kd", "meld Qc Qd Qh")
    assert len(s.melds[1][4]) == 3 and s.opened[1]


def test_pile_taken_onto_an_own_meld_without_a_pair() -> None:
    """Seed 001_fb0497f152a2c2d6.txt: "se l'avversario ha scartato una carta di valore facciale
    uguale a quello di una combinazione aperta già in tavola del giocatore che riceve, il pozzo,
    se non gelato, è catturabile senza altre condizioni a parte quelle di apertura"."""
    s = start({1: "Ks Kh Kd As Ah Ad 9s 9d 8c 7c 6c", 0: "Kc"}, "4c Qs Qh Jd Jh 10d")
    apply_all(s, "draw", "meld Ks Kh Kd", "meld As Ah Ad", "discard 8c",
              "draw", "discard Qh", "draw", "discard Jd", "draw", "discard Kc", "take-pile")
    assert len(s.melds[1][13]) == 4


def test_frozen_pile_needs_a_natural_pair() -> None:
    """Seed 001_fb0497f152a2c2d6.txt: "il pozzo «gelato» si può catturare solo con due carte
    uguali a quelle esposte"."""
    s = start({1: "JK", 2: "Jc", 3: "Js 2d Jh Jd As Ah Ad Ks Kh Kd 9s"}, "4c 5c 6c 7c")
    apply_all(s, "draw", "discard JK", "draw", "discard Jc")
    assert s.pile_frozen
    assert rule_of(s, "take-pile Js 2d") == "pile.frozen_naturals"
    apply_all(s, "take-pile Js Jh")
    assert not s.pile_frozen


@pytest.mark.parametrize(("score", "minimum"), [(-10, 0), (0, 50), (1495, 50), (1500, 90),
                                                (2995, 90), (3000, 120), (9000, 120)])
def test_opening_minimums(score: int, minimum: int) -> None:
    """Seed 001_fb0497f152a2c2d6.txt: "per l'apertura sono richiesti: se punteggio negativo
    apertura libera, 50 punti avendo punteggio da zero a 1495, 90 punti con punteggio da 1500 a
    2995 e 120 punti con punteggio oltre i 3000"."""
    assert RULES.opening_minimum(score) == minimum


def test_top_and_capturing_cards_count_toward_the_opening() -> None:
    """Seed 001_fb0497f152a2c2d6.txt: "possibilità di conteggiare per l'apertura il valore della
    carta superiore del pozzo e delle carte catturanti"."""
    s = start({1: "Ks Kh As Ah Ad 9s 9d 8c 7c 6c 5d"}, "Kd Qs")
    apply_all(s, "take-pile Ks Kh")
    assert s.opening_points == 30
    apply_all(s, "meld As Ah Ad")
    assert s.opened[1]


def test_going_out_with_one_canasta_bonus_100() -> None:
    """Seed 001_fb0497f152a2c2d6.txt: "obbligo di aver completato almeno una canasta per poter
    chiudere"; "premio chiusura: 100 punti"."""
    s = start({1: "9s 9h 9d 9c 9s 9h 9d As Ah Ad 5c"}, "4c 8h 7s 7h 7d 9c")
    apply_all(s, "draw", "meld As Ah Ad", "discard 8h", "draw", "discard 7s", "draw",
              "discard 7h", "draw", "discard 7d", "draw")
    apply_all(s, "meld 9s 9h 9d 9c 9s 9h 9d 9c", "discard 5c")
    assert s.is_over and s.went_out == 1 and not s.concealed
    assert dict(s.score()[1].items)["Going out"] == 100


def test_concealed_going_out_200_without_the_minimum() -> None:
    """Seed 001_fb0497f152a2c2d6.txt: "200 punti per «chiusura in mano» ovvero senza aver
    precedentemente messo in tavola alcuna carta (da notare che per la «chiusura in mano» non è
    richiesta l'apertura)"."""
    s = start({1: "5s 5h 5d 5c 5s 5h 4s 4h 4d 4c 6c"}, "4c 5d", scores=[0, 3000])
    apply_all(s, "draw", "meld 5s 5h 5d 5c 5s 5h 5d", "meld 4s 4h 4d 4c")
    assert s.opening_points == 55 and s.opening_minimum(1) == 120
    apply_all(s, "discard 6c")
    assert s.is_over and s.went_out == 1 and s.concealed
    items = dict(s.score()[1].items)
    assert items["Going out concealed"] == 200 and "Going out" not in items


def test_going_out_without_a_discard_or_with_a_black_three() -> None:
    """Seed 001_fb0497f152a2c2d6.txt: "possibilità di chiusura anche senza scarto finale;
    possibilità di chiusura scartando come ultima carta un Tre nero oppure deponendo una
    combinazione di 3 o più Tre neri (che naturalmente non tollera Joker o pinelle annessi)"."""
    nines = "9s 9h 9d 9c 9s 9h 9d"
    s = start({1: f"{nines} Ks Kh Kd Kc"}, "4c Ks")
    apply_all(s, "draw", f"meld {nines}", "meld Ks Kh Kd Kc Ks")
    assert s.is_over and s.went_out == 1  # no discard
    s = start({1: f"{nines} Ks Kh Kd 3s"}, "4c Kc")
    apply_all(s, "draw", f"meld {nines}", "meld Ks Kh Kd Kc", "discard 3s")
    assert s.is_over and s.went_out == 1  # a black three as the last discard
    s = start({1: f"{nines} 3s 3c 3s 3c"}, "4c 9c")
    apply_all(s, "draw", f"meld {nines} 9c", "meld 3s 3c 3s 3c")
    assert s.is_over and s.went_out == 1  # melding the black threes


def test_ask_partner_answer_is_binding() -> None:
    """Seed 001_fb0497f152a2c2d6.txt: "possibilità di richiedere al compagno se gradisce la
    chiusura con l'obbligo però di adeguarsi alla risposta"."""
    s = start({1: "9s 9h 9d 9c 9s 9h 9d Ks Kh Kd 5c"}, "4c Kc")
    apply_all(s, "draw", "ask-partner")
    assert s.actor == 3
    apply_all(s, "answer no")
    apply_all(s, "meld 9s 9h 9d 9c 9s 9h 9d", "meld Ks Kh Kd")
    assert rule_of(s, "lay-off K Kc") == "going out"  # 5c left: going out is refused
    s = start({1: "9s 9h 9d 9c 9s 9h 9d Ks Kh Kd 5c"}, "4c Kc")
    apply_all(s, "draw", "ask-partner", "answer yes", "meld 9s 9h 9d 9c 9s 9h 9d")
    assert rule_of(s, "discard 5c") == "going_out.ask_partner"


def test_no_partner_to_ask_in_the_three_player_game() -> None:
    """Seed 001_fb0497f152a2c2d6.txt: "nella partita a tre giocatori (ognuno per sé)"."""
    s = State.deal(RULES, 3, seed=2)
    apply_all(s, "draw")
    assert "ask-partner" not in legal_texts(s)


def test_end_of_stock_play_goes_on_while_the_discard_can_be_taken() -> None:
    """Seed 001_fb0497f152a2c2d6.txt: "al termine del tallone se nessuno dei giocatori può o
    vuole chiudere si procede fin che ogni giocatore al suo turno può rilevare lo scarto: quando
    questo non è possibile la smazzata viene considerata chiusa e vengono attribuiti i punteggi
    acquisiti"."""
    s = State.deal(RULES, 4, seed=9)
    while not s.is_over:
        texts = legal_texts(s)
        if s.phase is Phase.DRAW and s.stock:
            apply_all(s, "draw")
        elif s.phase is Phase.DRAW:
            assert "draw" not in texts
            apply_all(s, "end-hand")  # no side has a meld: nobody can take the discard
        else:
            apply_all(s, sorted(t for t in texts if t.startswith("discard"))[0])
    assert s.end_reason in ("stock_exhausted", "last_card_red_three")
    assert len(s.score()) == 2


def test_end_of_stock_hand_ends_only_when_the_discard_cannot_be_taken() -> None:
    """Seed 001_fb0497f152a2c2d6.txt: "si procede fin che ogni giocatore al suo turno può
    rilevare lo scarto: quando questo non è possibile la smazzata viene considerata chiusa"
    (Canastone, silent, borrows it): while the player can take the discard he may not end the
    hand; the option end_of_stock = matching_meld lets him unless the discard
    fits his side's meld."""
    for option, may_end in ((None, False), ("until_no_take", False), ("matching_meld", True)):
        rules = load_preset("classic_italian", {"end_of_stock": option} if option else None)
        canastone = load_preset("canastone", {"end_of_stock": option} if option else None)
        assert canastone.end.must_take_any_discard is rules.end.must_take_any_discard is (
            not may_end)
        s = deal_bottom({0: "Qs Qh As Ah Ad 9s 8s 7s 6s 5s 4d"}, after="8d", bottom="Qd",
                        rules=rules, dealer=0)
        burn_stock(s, leave=0)
        assert s.actor == 0 and not s.stock and s.phase is Phase.DRAW
        assert any(t.startswith("take-pile") for t in legal_texts(s))
        assert ("end-hand" in legal_texts(s)) is may_end
        if not may_end:
            assert rule_of(s, "end-hand") == "end.must_take_any_discard"


def test_concealed_going_out_is_not_blocked_by_the_natural_opening() -> None:
    """Seed 001_fb0497f152a2c2d6.txt: "200 punti per «chiusura in mano» ovvero senza aver
    precedentemente messo in tavola alcuna carta (da notare che per la «chiusura in mano» non è
    richiesta l'apertura)": the natural-cards-only opening of 50 (seed 000) does not block a
    concealed going out with wild cards; laying them opens nothing, so the
    player goes out or takes them back."""
    s = start({1: "Ks Kh Kd Kc Ks JK 2c Qs Qh Qd Qc"}, "4c 7s")
    apply_all(s, "draw", "meld Ks Kh Kd Kc Ks JK 2c")
    assert not s.opened[1] and s.provisional
    # 90 points laid: the discard is refused for the wild cards, not for the points.
    assert rule_of(s, "discard 7s") == "opening.naturals_only_at"
    apply_all(s, "meld Qs Qh Qd Qc", "discard 7s")
    assert s.is_over and s.went_out == 1 and s.concealed
    s = start({1: "Ks Kh Kd Kc Ks JK 2c Qs Qh Qd Qc"}, "4c 7s")
    apply_all(s, "draw", "meld Qs Qh Qd Qc", "meld Ks Kh Kd Kc Ks")
    assert s.opened[1]
    assert rule_of(s, "lay-off K JK") == "opening.naturals_only_at"


def test_target_5000_and_10000_for_six() -> None:
    """Seed 001_fb0497f152a2c2d6.txt: "partita ai 5000 punti"; "nella Canasta a 6 ... la partita
    va ai 10.000 punti"."""
    assert RULES.target(4) == 5000 and RULES.target(2) == 5000 and RULES.target(6) == 10000
    m = Match(RULES, 6, seed=3)
    assert m.rules.target(m.players) == 10000


def test_inherited_red_three_sign_and_the_international_option() -> None:
    """Seed 001_fb0497f152a2c2d6.txt does not restate red threes ("Non differisce in modo
    sostanziale dal Canastone"): Canastone's sign rule, or international's as an option
    (variants.md section 2)."""
    melds = (tuple(parse_card(c) for c in "Ks Kh Kd".split()),)
    base = score_hand([TeamHand(melds=melds, red_threes=1)], RULES)[0]
    intl = score_hand([TeamHand(melds=melds, red_threes=1)],
                      load_preset("classic_italian", {"red_three_sign": "no_meld"}))[0]
    assert dict(base.items)["Red threes (1)"] == -200
    assert dict(intl.items)["Red threes (1)"] == 100


def test_dropped_canastone_option() -> None:
    """Seed 001_fb0497f152a2c2d6.txt: "partita ai 5000 punti": Canastone's 15,000 variant does
    not apply."""
    from canasta import preset_options

    assert "target_15000" in preset_options("canastone")
    assert "target_15000" not in preset_options("classic_italian")


def test_black_three_meld_takes_no_wild_card() -> None:
    """Seed 001_fb0497f152a2c2d6.txt: "una combinazione di 3 o più Tre neri (che naturalmente
    non tollera Joker o pinelle annessi)"."""
    s = start({1: "9s 9h 9d 9c 9s 9h 9d 3s 3c 2c 5d"}, "4c 9c")
    apply_all(s, "draw", "meld 9s 9h 9d 9c 9s 9h 9d 9c")
    assert rule_of(s, "meld 3s 3c 2c") == "melds.black_three_meld_going_out"
