"""International Canasta (preset ``international``), seed 002_277939805e3ea5bf.txt: red threes
drawn or taken, and the end of the stock (where the seed stops: Britannica and pagat, as
shared/rules/variants.md section 3). One test per rule."""

from __future__ import annotations

from canasta import EndHand, Match, Phase, State, TakePile, load_preset
from canasta.core.cards import card_text, is_wild, rank_of
from helpers import (
    RULES,
    burn_stock,
    card,
    cards,
    check_conservation,
    check_score_sheets,
    deal,
    legal_texts,
    play,
    rule_of,
)


def test_red_three_drawn_is_laid_out_and_replaced() -> None:
    """Seed 002_277939805e3ea5bf.txt: "Quando un giocatore pesca dal tallone un 3 rosso (onore),
    deve immediatamente mostrarlo agli altri giocatori, ponendolo scoperto accanto a sé, dove
    resterà fino al termine della smazzata: procederà poi a pescare una carta sostitutiva,
    sempre dal tallone"."""
    s = deal({1: "Ks Kh Qs Qh 9s 9h 8s 8h 7s 7h 6s"}, after="Jd 3h 3d 5c 4d")
    stock = len(s.stock)
    play(s, "draw")
    assert s.red_threes[1][-2:] == cards("3h 3d")
    assert s.hand_size[1] == 12 and s.hands[1][card("5c")] == 1
    assert len(s.stock) == stock - 3
    assert s.phase is Phase.PLAY
    check_conservation(s)


def test_red_three_taken_with_the_pile_is_laid_out_not_replaced() -> None:
    """Seed 002_277939805e3ea5bf.txt: "Un onore ottenuto con la presa del pozzo (eventualità
    possibile nel caso di pozzo congelato da un onore all'inizio della smazzata) deve essere
    dichiarato allo stesso modo, ma non va sostituito con una carta pescata dal tallone"."""
    s = deal({1: "As Ad Ks Kh 9s 9h 8s 8h 7s 7h 6s"}, after="3h Ah 5c")
    assert s.pile == cards("3h Ah") and s.pile_frozen
    stock = len(s.stock)
    red_before = list(s.red_threes[1])
    play(s, "take-pile As Ad")  # 60 points: opens, and the pile (the red three) comes up
    assert s.opened[1]
    assert s.red_threes[1] == red_before + cards("3h")
    assert s.hands[1][card("3h")] == 0
    assert len(s.stock) == stock  # not replaced
    assert s.hand_size[1] == 9
    check_conservation(s)


def test_last_stock_card_red_three_ends_the_hand_without_deadlock() -> None:
    """Seed 002 is silent on the end of the stock. Pagat (shared/rules/variants.md section 3,
    preset default ``meld_after_last_red_three=false``): a red three drawn as the last card of
    the stock ends the hand at once, with no meld and no discard. The hand is then over, has no
    legal action and is scored (Britannica: "If the last card drawn is a red 3, it
    automatically ends the game")."""
    s = deal({1: "As Ah Ad 9s 9h 8s 8h 7s 7h 6s 6h", 3: "Ks Kh Kd Qs Qh Js Jh 10s 10h 5s 5h"},
             bottom="3h")
    burn_stock(s, leave=1)
    drawer = s.actor
    team = s.team_of[drawer]
    size = s.hand_size[drawer]
    play(s, "draw")
    assert s.is_over and s.end_reason == "last_card_red_three"
    assert s.red_threes[team][-1] == card("3h")
    assert s.hand_size[drawer] == size
    assert s.legal_actions() == []
    check_conservation(s)
    check_score_sheets(s)


def test_last_red_three_option_lets_the_player_meld_but_not_discard() -> None:
    """Option ``meld_after_last_red_three=true`` (Britannica: "If the last card drawn is a red 3,
    it automatically ends the game, although the player drawing it may first meld and lay off.
    (That player may not discard.)"). The player melds, cannot discard, and ends the hand."""
    rules = load_preset("international", {"meld_after_last_red_three": "true"})
    # Dealer 1: seat 2 plays first; with 60 cards in the stock seat 1 draws the last one.
    s = deal({1: "As Ah Ad 9s 9h 8s 8h 7s 7h 6s 6h", 3: "Ks Kh Kd Qs Qh Js Jh 10s 10h 5s 5h"},
             bottom="3h", rules=rules, dealer=1)
    burn_stock(s, leave=1)
    assert s.actor == 1
    play(s, "draw")
    assert not s.is_over and s.phase is Phase.PLAY
    texts = legal_texts(s)
    assert "end-hand" in texts and not any(t.startswith("discard") for t in texts)
    assert rule_of(s, "discard 6s") == "red_threes.last_stock_red_three_ends_hand"
    play(s, "meld As Ah Ad")
    play(s, "end-hand")
    assert s.is_over and s.melds[1][1] == cards("As Ah Ad")
    check_score_sheets(s)


def _stock_gone(seat1: str, *, seat1_melds: tuple[str, ...] = (), last: str = "9h") -> State:
    """Dealer 1 (seat 2 plays first). Seats 2, 3, 0 draw and discard the card drawn; seat 1
    draws, lays ``seat1_melds`` and discards the card drawn; then every player draws and
    discards the card drawn until the stock is gone. The last card, ``last``, is discarded by
    seat 0 (the four red threes are dealt and replaced, leaving 59 cards after the upcard), and
    seat 1 faces it with no stock."""
    s = deal({1: seat1, 3: "Ks Kh Kd Qs Qh Js Jh 10s 10h 5s 5h"}, after="8d", bottom=last,
             dealer=1)
    burn_stock(s, turns=3)
    assert s.actor == 1
    before = s.hands[1][:]
    play(s, "draw", *(f"meld {m}" for m in seat1_melds))
    drawn = next(c for c in range(53) if s.hands[1][c] > before[c])
    play(s, f"discard {card_text(drawn)}")
    burn_stock(s, leave=0)
    assert s.actor == 1 and s.pile[-1] == card(last) and not s.stock
    return s


def test_empty_stock_hand_ends_when_the_player_cannot_take_the_discard() -> None:
    """Seed 002 is silent; Britannica: with no stock "Each player in turn then takes the upcard
    if it can be melded or layed off ... This continues until someone either goes out or cannot
    use the previous player's discard, when all play ceases." Seat 1 holds no nine and its side
    has no meld of nines: the hand ends and is scored."""
    s = _stock_gone("As Ah Ad 8s 8h 7s 7h 6s 6h 5d 4d")
    assert s.is_over and s.end_reason == "stock_exhausted"
    assert s.legal_actions() == []
    check_conservation(s)
    check_score_sheets(s)


def test_empty_stock_discard_that_fits_a_meld_must_be_taken() -> None:
    """Pagat (shared/rules/variants.md section 3, ``end.must_take_matching_discard``): with the
    stock gone, a discard that fits one of the side's melds must be taken; Britannica: "Each
    player in turn then takes the upcard if it can be melded or layed off". No draw, no
    ending the hand."""
    s = _stock_gone("As Ah Ad 9s 9d 9c 8s 7h 6s 5h 4d", seat1_melds=("As Ah Ad", "9s 9d 9c"))
    assert not s.is_over and s.phase is Phase.DRAW
    acts = s.legal_actions()
    assert acts and all(isinstance(a, TakePile) for a in acts)
    assert "take-pile" in legal_texts(s)
    assert rule_of(s, "end-hand") == "end.must_take_matching_discard"
    assert rule_of(s, "draw") == "end of stock"
    play(s, "take-pile")
    assert s.phase is Phase.PLAY and len(s.melds[1][9]) == 4
    # Discard a card seat 2 (whose side has no melds) cannot take: the hand ends.
    seat2 = s.hands[2]
    bad = next(
        c for c in s.hand_cards(1)
        if not is_wild(c) and rank_of(c) != 3
        and sum(seat2[(rank_of(c) - 1) * 4 + k] for k in range(4)) < 2
    )
    play(s, f"discard {card_text(bad)}")
    assert s.is_over and s.end_reason == "stock_exhausted"
    check_conservation(s)
    check_score_sheets(s)


def test_empty_stock_discard_taken_with_a_pair_is_optional() -> None:
    """Pagat/Britannica (shared/rules/variants.md section 3): only a discard that fits a meld is
    compulsory; one the player could take with a pair from hand he may take or decline, and
    declining ends the hand."""
    s = _stock_gone("As Ah Ad 9s 9d 8s 7h 6s 5h 4d 4c", seat1_melds=("As Ah Ad",))
    texts = legal_texts(s)
    assert "take-pile 9s 9d" in texts and "end-hand" in texts and "draw" not in texts
    play(s, "end-hand")
    assert s.is_over and s.end_reason == "stock_exhausted"
    assert any(isinstance(a, EndHand) for _, a in s.actions)
    check_score_sheets(s)


def test_one_card_in_hand_may_not_take_a_one_card_pile() -> None:
    """Seed 002 is silent; Britannica (adopted in shared/rules/variants.md section 3, field
    ``pile.take_single_card_pile_to_go_out=false``): "If a player holds just one card in hand
    and the discard deck also consists of just one card, he cannot go out by taking the
    deck"."""
    s = deal({1: "Ks Kh Kd Kc Ks Kh JK 9s 9d 9c 5h", 0: "As Ad 9h"},
             after="Jd 8h 10d Ac 7c")
    play(s, "draw", "meld Ks Kh Kd Kc Ks Kh JK", "meld 9s 9d 9c", "discard 8h")  # seat 1: 5h
    play(s, "draw", "discard 10d")  # seat 2
    play(s, "draw", "discard Ac")  # seat 3
    play(s, "take-pile As Ad", "discard 9h")  # seat 0 opens with the aces; one-card pile
    assert s.actor == 1 and s.pile == cards("9h") and s.hand_size[1] == 1
    assert s.canastas(1) == 1 and 9 in s.melds[1]
    assert rule_of(s, "take-pile") == "pile.take_single_card_pile_to_go_out"
    assert legal_texts(s) == {"draw"}


def test_match_hand_ending_at_the_stock_is_scored_and_the_match_goes_on() -> None:
    """Britannica: when play ceases at the end of the stock the hand is scored as usual; the
    match deals the next hand until a side reaches 5000 (pagat, variants.md section 3)."""
    m = Match(RULES, 4, seed=3)
    import random

    rng = random.Random(3)
    while not m.state.is_over:
        m.apply(rng.choice(m.state.legal_actions()))
    sheets = m.finish_hand()
    assert [sh.score_after for sh in sheets] == m.scores
    if m.winner is None:
        nxt = m.next_hand()
        assert nxt.dealer == 1 and nxt.scores == m.scores
