"""Going out by taking the pile, per each seed text's own reading (``pile.take_single_card_pile
_to_go_out``; option ``one_card_pile``): a take that leaves the hand empty goes out where the
text sets no bar, and Britannica's international rule ("If a player holds just one card in
hand and the discard deck also consists of just one card, he cannot go out by taking the deck")
is the option's other choice. Positions are laid out by hand (``tests/tablekit.py``)."""

from __future__ import annotations

import pytest
from deck_helpers import SEED_000, SEED_001, SEED_002, SEED_003, SEED_004

from canasta import load_preset, parse_action, parse_cards, preset_options
from canasta.core.legality import IllegalActionError
from canasta.i18n.refusals import refusal_parts
from tablekit import table

CANASTA = "Ks Kh Kd Kc Ks Kh Kd"


def _take_goes_out(variant: str, options: dict[str, str] | None = None) -> None:
    s = table(load_preset(variant, options), "9h 9d", melds={0: [CANASTA]}, pile="9c")
    action = parse_action("take-pile 9h 9d")
    assert action in s.legal_actions()
    s.apply(action)
    assert s.is_over and s.end_reason == "went_out" and s.went_out == 0
    assert s.hand_size[0] == 0 and sorted(s.melds[0][9]) == sorted(parse_cards("9c 9h 9d"))
    assert ("Going out", 100) in s.score()[0].items


def _refused(variant: str, options: dict[str, str], hand: str = "9h 9d",
             action: str = "take-pile 9h 9d", melds: list[str] | None = None) -> str:
    s = table(load_preset(variant, options), hand, melds={0: melds or [CANASTA]}, pile="9c")
    with pytest.raises(IllegalActionError) as info:
        s.verify(parse_action(action))
    assert parse_action(action) not in s.legal_actions()
    return info.value.rule


def test_brazilian_take_with_the_last_two_cards_goes_out() -> None:
    """Seed 003 (SEED_003): "prendi l'intera pila degli scarti, a condizione che tu possa
    immediatamente giocare in combinazione la carta in cima con almeno una carta naturale
    dalla tua mano" and "Il giocatore che chiude la mano gioca o mette a tavola tutte le carte
    rimanenti (con la possibilità di scartarne una o nessuna)": with 9-9 in hand, a canastra
    down and the pile [9], taking the pile melds the nines and goes out."""
    assert SEED_003.startswith("003_")
    _take_goes_out("brazilian")
    assert preset_options("brazilian")["one_card_pile"].default == "true"


def test_classic_italian_take_with_the_last_two_cards_goes_out() -> None:
    """Seed 001 (SEED_001): "possibilità di chiusura anche senza scarto finale"; the taker
    "non ne prende affatto se cattura il pozzo"; the pile is "catturabile senza altre
    condizioni a parte quelle di apertura"."""
    assert SEED_001.startswith("001_")
    _take_goes_out("classic_italian")


@pytest.mark.parametrize("variant", ["brazilian", "classic_italian", "romanian",
                                     "international"])
def test_the_outside_rule_is_the_option_false(variant: str) -> None:
    """Britannica, for international Canasta (variants.md section 3): "If a player holds just
    one card in hand and the discard deck also consists of just one card, he cannot go out by
    taking the deck" -- the option ``one_card_pile=false`` refuses a take that empties the
    hand and, holding one card, the take of a one-card pile."""
    assert _refused(variant, {"one_card_pile": "false"}) == \
        "pile.take_single_card_pile_to_go_out"
    # Holding one card: the top card laid on the side's meld of nines (where that takes).
    rules = load_preset(variant, {"one_card_pile": "false"})
    if rules.pile.layoff_takes_unfrozen_pile:
        s = table(rules, "5h", melds={0: [CANASTA, "9s 9h 9d"]}, pile="9c")
        with pytest.raises(IllegalActionError) as info:
            s.verify(parse_action("take-pile"))
        assert info.value.rule == "pile.take_single_card_pile_to_go_out"
        assert info.value.values == {"case": "one_card"}
        parts = refusal_parts(info.value, rules, s)
        assert parts["key"] == "refusal.pile.take_single_card_pile_to_go_out.one_card"
        assert parts["quote"] is None  # an outside rule: no seed sentence carries it
        s2 = table(load_preset(variant, {"one_card_pile": "true"}), "5h",
                   melds={0: [CANASTA, "9s 9h 9d"]}, pile="9c")
        assert s2.can(parse_action("take-pile"))


def test_international_keeps_the_outside_rule_by_default() -> None:
    """Seed 002 (SEED_002) is silent on a one-card pile taken with one card in hand and only
    says "Si può chiudere con o senza scarto dell'ultima carta"; the preset keeps
    Britannica's rule (variants.md section 3: "adopt"), the option's true lets the take go
    out."""
    assert SEED_002.startswith("002_")
    assert not load_preset("international").pile.take_single_card_pile_to_go_out
    assert _refused("international", {}) == "pile.take_single_card_pile_to_go_out"
    _take_goes_out("international", {"one_card_pile": "true"})


def test_romanian_take_that_empties_the_hand_is_refused_for_the_last_card_face_down() -> None:
    """Seed 004 (SEED_004): going out is when a player "depune toate cartile din mana, iar pe
    ultima o pune cu fata in jos pe teancul de decartare": a take that would leave no card to
    put down is refused as one after which the player could neither discard nor go out."""
    assert SEED_004.startswith("004_")
    assert load_preset("romanian").pile.take_single_card_pile_to_go_out
    assert _refused("romanian", {}) == "going out"


def test_canastone_take_never_goes_out_by_itself() -> None:
    """Seed 000 (SEED_000): the capturer takes the pile "prendendo contemporaneamente una
    carta dal tallone", and "La chiusura è possibile per quel giocatore che si è liberato di
    tutte le carte della sua mano con lo scarto finale": the take leaves the stock card, and
    with the stock gone it is refused as one after which he could not go out."""
    assert SEED_000.startswith("000_")
    rules = load_preset("canastone")
    assert rules.pile.take_single_card_pile_to_go_out and "one_card_pile" not in \
        preset_options("canastone")
    both = [CANASTA, "Qs Qh Qd Qc Qs JK Qh"]
    s = table(rules, "9h 9d", melds={0: both}, pile="9c")
    s.apply(parse_action("take-pile 9h 9d"))
    assert not s.is_over and s.hand_size[0] == 1  # the stock card
    s = table(rules, "9h 9d", melds={0: both}, pile="9c", stock=0)
    with pytest.raises(IllegalActionError) as info:
        s.verify(parse_action("take-pile 9h 9d"))
    assert info.value.rule == "going out"


def test_every_preset_says_why_from_its_own_text() -> None:
    """Every rule sheet gives the reason for ``pile.take_single_card_pile_to_go_out`` from its
    own seed (classic Italian its own, not Canastone's "a capturer always draws a stock
    card")."""
    from canasta.core.rules import preset_info

    for variant, seed in (("international", "seed 002"), ("canastone", "seed 000"),
                          ("classic_italian", "seed 001"), ("brazilian", "seed 003"),
                          ("romanian", "seed 004")):
        source = preset_info(variant)["sources"]["pile.take_single_card_pile_to_go_out"]
        assert source.startswith(seed), (variant, source)


@pytest.mark.parametrize("spec", ["greedy", "medium", "hard"])
def test_the_bots_and_the_hints_go_out_by_the_take(spec: str) -> None:
    """Seed 003: "con la possibilità di scartarne una o nessuna": the bots see the take that
    goes out as a legal take, and take it; the hints put it first."""
    from canasta.bots import make_bot, suggest

    s = table("brazilian", "9h 9d", melds={0: [CANASTA]}, pile="9c")
    assert make_bot(spec, 1).choose(s.view(0)) == parse_action("take-pile 9h 9d")
    if spec == "greedy":
        best = suggest(s.view(0), n=1, iterations=8)[0]
        assert best.action == parse_action("take-pile 9h 9d")
