"""Events in words (canasta.i18n.events): the acting seat reads "You draw 7h", the others
"… draws a card" with no hidden card; every line of real play has a text in every language."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from canasta.core.actions import Discard, Draw
from canasta.core.cards import parse_cards
from canasta.core.events import Drew, HandEnded, Melded
from canasta.core.rules import PRESETS, load_preset
from canasta.core.state import MisdealError, State
from canasta.i18n import catalogue, languages
from canasta.i18n.events import describe_event, event_entries, render

NAMES = ["Ann", "North", "Bea", "South"]


def test_the_drawer_sees_the_card_and_the_others_only_the_count() -> None:
    seven = tuple(parse_cards("7h"))
    event = Drew(0, Draw(), seven, 1)
    assert describe_event(event, 0, "en", NAMES) == "You draw 7h."
    assert describe_event(event, 0, "it", NAMES) == "Peschi 7h."
    other = describe_event(event, 1, "en", NAMES)
    assert other == "Ann draws a card from the stock." and "7h" not in other
    assert describe_event(Drew(0, Draw(), None, 1), 2, "it", NAMES) == \
        "Ann pesca una carta dal tallone."


def test_melds_lay_offs_and_the_end_of_the_hand() -> None:
    nines = tuple(parse_cards("9s 9d JK"))
    assert describe_event(Melded(2, None, 9, nines, True), 0, "it", NAMES) == \
        "Bea cala 9s 9d JK."
    assert describe_event(Melded(2, None, 9, nines[:1], False), 2, "en", NAMES) == \
        "You add 9s to the meld of 9."
    assert describe_event(HandEnded("went_out", 1, False, ()), 0, "it", NAMES) == \
        "La mano finisce: North chiude."
    assert describe_event(HandEnded("stock_exhausted", None, False, (), 3, "end"), 3,
                          "en", NAMES) == "You end the hand. The hand ends: the stock is gone."


def test_cards_in_words_can_carry_their_suit_symbols() -> None:
    from canasta.cli.render import symbol_text

    taken = Melded(2, None, 10, tuple(parse_cards("10h 10d JK")), True)
    assert describe_event(taken, 0, "en", NAMES, card_label=symbol_text) == \
        "Bea melds 10♥ 10♦ JK."
    assert describe_event(taken, 0, "en", NAMES) == "Bea melds 10h 10d JK."
    assert [symbol_text(c) for c in ("As", "10c", "JK", "Tx", "")] == \
        ["A♠", "10♣", "JK", "Tx", ""]


def test_the_player_who_went_out_reads_it_as_their_own() -> None:
    """"The hand ends: You goes out." was the line of the terminal player who went out (and
    "Tu chiude" in Italian): the seat that went out reads the ``.self`` form."""
    ended = HandEnded("went_out", 0, False, ())
    expected = {"en": "The hand ends: you go out.", "it": "La mano finisce: chiudi tu.",
                "ro": "Dona s-a încheiat: ai închis tu.", "pt": "A mão acabou: você bateu."}
    for lang, text in expected.items():
        assert describe_event(ended, 0, lang, NAMES) == text
    assert describe_event(ended, 1, "en", NAMES) == "The hand ends: Ann goes out."
    assert describe_event(ended, None, "en", NAMES) == "The hand ends: Ann goes out."


@settings(max_examples=15, deadline=None)
@given(variant=st.sampled_from(PRESETS), seed=st.integers(0, 10_000))
def test_every_event_of_real_play_has_a_text_in_every_language(variant: str,
                                                                  seed: int) -> None:
    """Every event of a hand (``state.events``), as seat 0 and as an onlooker sees it, has a
    catalogue entry in every language with every placeholder filled."""
    try:
        state = State.deal(load_preset(variant), 4, seed=seed)
    except MisdealError:
        return
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    entries = [e for ev in state.events for viewer in (0, None)
               for e in event_entries(ev, viewer)]
    assert entries and [e for e in entries if e["key"] == "event.unknown"] == []
    for entry in entries:
        for lang in languages():
            assert entry["key"] in catalogue(lang)
            text = render(entry, lang, NAMES)
            assert "{" not in text, (entry, text)


def test_the_engine_events_of_a_turn_in_words() -> None:
    state = State.deal(load_preset("international"), 4, seed=5)
    seat = state.actor
    event = state.apply(Draw())
    mine = describe_event(event, seat, "en", NAMES)
    theirs = describe_event(event, (seat + 1) % 4, "en", NAMES)
    assert mine.startswith("You draw ") and NAMES[seat] in theirs
    hand = state.hand_cards(seat)
    event = state.apply(Discard(hand[0]))
    assert describe_event(event, seat, "it", NAMES).startswith("Scarti ")
    for e in state.events:
        for entry in event_entries(e, seat):
            assert entry["key"] in catalogue("it")
