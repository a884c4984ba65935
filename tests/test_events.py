"""Events: ``apply`` returns what happened; ``state.events`` is the one history.
Seat-visibility, the shared (persistent) history behind ``clone()``, the JSON form, and
the English lines front ends show."""

from __future__ import annotations

import random

import pytest

from canasta.core import events as ev
from canasta.core.actions import Draw, parse_action
from canasta.core.rules import Rules, load_preset
from canasta.core.state import MisdealError, State
from canasta.formats.eventjson import event_from_json, event_to_json
from canasta.formats.jsondoc import Reader
from canasta.formats.position import position_to_dict, state_from_dict
from canasta.i18n import describe_event
from formatkit import preset_params
from helpers import card, cards, deal, play


def seat1_after_draw(hand: str, draw: str = "Qd") -> State:
    s = deal({1: hand}, after=f"Jd {draw} 10d 8d")
    play(s, "draw")
    return s


def test_the_deal_is_recorded_dealt_then_upcard() -> None:
    s = deal({1: "Ks Kh Kd 8s 8h 9s 9h 6s 5s 4s Qs"}, after="Jd Qd")
    first = s.events[0]
    assert isinstance(first, ev.Dealt)
    assert sorted(first.hands[1] or ()) == sorted(cards("Ks Kh Kd 8s 8h 9s 9h 6s 5s 4s Qs"))
    assert first.first == 1 and first.hand_sizes == (11, 11, 11, 11)
    assert ev.UpcardTurned(card("Jd"), False) in s.events
    # Others see the deal without the cards of the hands they do not hold.
    seen = first.visible_to(0)
    assert seen.hands[0] == first.hands[0] and seen.hands[1] is None
    assert all(h is None for h in first.public().hands)


def test_a_draw_returns_the_cards_drawn_visible_to_the_drawer_only() -> None:
    s = deal({1: "Ks Kh Kd 8s 8h 9s 9h 6s 5s 4s Qs"}, after="Jd Qd")
    event = s.apply(Draw())
    assert isinstance(event, ev.Drew)
    assert event.seat == 1 and event.drawn == (card("Qd"),) and event.drawn_count == 1
    assert s.events[-1] is event
    assert event.visible_to(1) == event
    assert event.visible_to(2).drawn is None and event.visible_to(2).drawn_count == 1
    assert describe_event(event, 1) == "You draw Qd."
    assert describe_event(event, 2) == "seat 1 draws a card from the stock."
    assert "Qd" not in describe_event(event, ev.PUBLIC)


def test_a_meld_that_opens_is_followed_by_the_opening_event() -> None:
    """Seed 002: the opening melds "devono fornire un determinato punteggio complessivo"
    (50 at a score of 0): 30 points is not yet open, 60 is."""
    s = seat1_after_draw("Ks Kh Kd Qs Qh 9s 6s 5s 4s 8s 7s")
    n = len(s.events)
    event = s.apply(parse_action("meld Qs Qh Qd"))
    assert isinstance(event, ev.Melded) and event.new and event.key == 12
    event2 = s.apply(parse_action("meld Ks Kh Kd"))
    assert isinstance(event2, ev.Melded)
    assert s.events[n:] == (event, event2, ev.Opened(1, 1, 60, (), 0))
    assert describe_event(s.events[-1], 0) == "team 1 has opened with 60 points."


def test_retract_says_what_came_back() -> None:
    """Seed 000: "si riprendono in mano le carte esposte e il punteggio richiesto per
    l'apertura aumenta di 10 punti"."""
    s = seat1_after_draw("Ks Kh Kd 8s 8h 9s 9h 6s 5s 4s Qs", draw="9d")
    play(s, "meld Ks Kh Kd")
    event = s.apply(parse_action("retract"))
    assert isinstance(event, ev.Retracted)
    assert sorted(event.to_hand) == sorted(cards("Ks Kh Kd"))
    assert event.to_pile == () and event.minimum == 60
    assert ev.action_of(event) == (1, parse_action("retract"))


def test_the_hand_end_carries_the_score_sheets() -> None:
    rules = load_preset("international")
    rng = random.Random(3)
    s = State.deal(rules, 4, seed=3)
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
    last = s.events[-1]
    assert isinstance(last, ev.HandEnded)
    assert last.reason == s.end_reason and last.went_out == s.went_out
    assert list(last.scores) == s.score()


def test_clone_shares_the_history_and_stays_independent() -> None:
    """``clone()`` does not copy the history (so a copy costs the same at any point of
    the hand): the copy shares the persistent chain, and what either plays next is its own."""
    rules = load_preset("international")
    s = State.deal(rules, 4, seed=5)
    rng = random.Random(5)
    for _ in range(30):
        s.apply(rng.choice(s.legal_actions()))
    c = s.clone()
    assert c.event_log is s.event_log
    before = s.events
    c.apply(c.legal_actions()[0])
    assert s.events == before and len(c.events) > len(before)
    assert c.events[:len(before)] == before


@pytest.mark.parametrize(("rules", "players"), preset_params())
def test_every_action_gives_one_event_and_events_round_trip_as_json(rules: Rules,
                                                                     players: int) -> None:
    rng = random.Random(11)
    for seed in range(3):
        try:
            s = State.deal(rules, players, seed=seed)
        except Exception:  # a misdeal: another seed
            continue
        played = []
        while not s.is_over:
            action = rng.choice(s.legal_actions())
            seat = s.actor
            n = len(s.events)
            event = s.apply(action)
            assert s.events[n] is event  # the action's own event comes first
            assert ev.action_of(event) == (seat, action)
            played.append((seat, action))
        assert s.actions == played
        r = Reader("test")
        for i, e in enumerate(s.events):
            for seen in (e, e.public(), e.visible_to(0)):
                back = event_from_json(r, event_to_json(seen), f"$[{i}]")
                assert back == seen
                if isinstance(seen, ev.HandEnded) and isinstance(back, ev.HandEnded):
                    assert [s.codes for s in back.scores] == [s.codes for s in seen.scores]
            describe_event(e, 0)  # a line for every event


def test_a_position_written_before_events_still_loads() -> None:
    """Positions written by the previous engine hold ``history`` (action texts) and ``log``."""
    s = seat1_after_draw("Ks Kh Kd 8s 8h 9s 9h 6s 5s 4s Qs")
    doc = position_to_dict(s)
    doc.pop("events")
    doc["log"] = ["the upcard is Jd", "seat 1: draw"]
    loaded = state_from_dict(doc)
    assert loaded.events == (ev.Played(1, Draw()),)
    assert loaded.actions == [(1, Draw())]


def _replay_hands(events: tuple[ev.Event, ...], viewer: int, team_of: tuple[int, ...],
                  players: int) -> tuple[list[int], list[int]]:
    """What ``viewer`` can tell from its events alone: its own hand (counts per card code) and
    every seat's hand size."""
    own = [0] * 53
    sizes = [0] * players
    opened: set[int] = set()

    def move(seat: int, cards: tuple[int, ...] | None, count: int, sign: int) -> None:
        sizes[seat] += sign * count
        if seat == viewer:
            assert cards is not None and len(cards) == count
            for c in cards:
                own[c] += sign

    for raw in events:
        e = raw.visible_to(viewer)
        if isinstance(e, ev.Dealt):
            for seat in range(players):
                hand = e.hands[seat]
                move(seat, hand, e.hand_sizes[seat], +1)
        elif isinstance(e, ev.RedThreesLaidOut):
            move(e.seat, e.cards, len(e.cards), -1)
            move(e.seat, e.replaced, e.replaced_count, +1)
        elif isinstance(e, ev.Drew):
            move(e.seat, e.drawn, e.drawn_count, +1)
        elif isinstance(e, ev.TookPile):
            move(e.seat, e.cards, len(e.cards), -1)
            move(e.seat, e.drawn, e.drawn_count, +1)
            if not e.top_only and team_of[e.seat] in opened:
                move(e.seat, e.pile, e.pile_count, +1)
                move(e.seat, e.surprise, e.surprise_count, +1)
        elif isinstance(e, ev.Opened):
            opened.add(e.team)
            move(e.seat, e.pile_to_hand, e.pile_count, +1)
        elif isinstance(e, ev.Melded):
            move(e.seat, e.cards, len(e.cards), -1)
        elif isinstance(e, ev.RedThreesDeclared):
            move(e.seat, e.cards, len(e.cards), -1)
            move(e.seat, e.drawn, e.drawn_count, +1)
        elif isinstance(e, ev.Discarded):
            move(e.seat, (e.card,), 1, -1)
        elif isinstance(e, ev.Retracted):
            move(e.seat, e.to_hand, len(e.to_hand), +1)
            move(e.seat, e.to_stock, e.to_stock_count, -1)
    return own, sizes


@pytest.mark.parametrize(("rules", "players"), preset_params())
def test_each_seat_can_follow_its_hand_and_every_hand_size_from_its_events(
        rules: Rules, players: int) -> None:
    """Events say exactly what happened: replaying what a seat sees of them gives its own hand
    card for card, and the size of every other hand (cards drawn, pile taken and
    what came with it, red threes laid out and replaced)."""
    rng = random.Random(7)
    checked = 0
    for seed in range(4):
        try:
            s = State.deal(rules, players, seed=seed)
        except MisdealError:
            continue
        while True:
            for viewer in range(players):
                own, sizes = _replay_hands(s.events, viewer, s.team_of, players)
                assert own == s.hands[viewer], (viewer, s.events[-3:])
                assert sizes == s.hand_size
            checked += 1
            if s.is_over:
                break
            s.apply(rng.choice(s.legal_actions()))
    assert checked


@pytest.mark.parametrize(("rules", "players"), preset_params())
def test_the_public_form_is_what_no_seat_in_particular_sees(rules: Rules, players: int) -> None:
    """``event.public()`` hides every card that ``visible_to`` hides from a seat that is not
    concerned (the pile taken and given back, drawn cards, the deal)."""
    rng = random.Random(3)
    for seed in range(3):
        try:
            s = State.deal(rules, players, seed=seed)
        except MisdealError:
            continue
        while not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
        for e in s.events:
            assert e.public() == e.visible_to(ev.PUBLIC)
            seat = getattr(e, "seat", None)
            if isinstance(seat, int):
                other = (seat + 1) % players
                assert e.public() == e.visible_to(other) or isinstance(e, ev.Dealt)
