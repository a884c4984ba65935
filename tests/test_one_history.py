"""One history: a hand's events are its record. However the moves are made (``Match.apply``,
``match.state.apply``, an undo that puts a copy of the state back), the hand record, the match
record, a resumed match and the undo mark are built from ``state.events``, so the record
replays and checks (``canasta replay --check``); and ``State.apply`` takes an action's text as
``Match.apply`` does, refusing what it cannot read with what was wrong with it."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canasta import Match, State, load_preset
from canasta.core.actions import ActionParseError, Discard, Draw, LayOff, Meld, TakePile
from canasta.core.state import IllegalActionError, Phase
from canasta.core.undo import TurnMark
from canasta.formats.position import same_state
from canasta.formats.records import check_record, match_to_record, record_to_match


def roundtrip(record: dict) -> dict:  # type: ignore[type-arg]
    return json.loads(json.dumps(record))


def play_hand_on_the_state(match: Match, rng: random.Random) -> None:
    """Play the current hand to its end through ``match.state.apply`` only."""
    while not match.state.is_over:
        match.state.apply(rng.choice(match.state.legal_actions()))


def test_a_hand_played_on_match_state_is_recorded_and_checks() -> None:
    """The reproduction: a whole hand played with ``match.state.apply`` (the README's call)
    gives a record holding every action, which replays to the same position and checks."""
    match = Match(load_preset("international"), 4, seed=3)
    rng = random.Random(1)
    match.apply("draw")
    play_hand_on_the_state(match, rng)
    match.finish_hand()
    played = [(seat, a.text()) for seat, a in match.state.actions]
    assert len(played) > 1
    assert match.record.actions == played
    record = roundtrip(match_to_record(match))
    assert [tuple(a) for a in record["hands"][0]["actions"]] == played
    assert check_record(record, "state.apply") == []
    replayed = record_to_match(record)
    assert same_state(replayed.state, match.state)
    assert replayed.scores == match.scores


def test_a_hand_that_ended_unscored_is_scored_in_its_record() -> None:
    """A hand played to its end without ``finish_hand`` still writes a record that checks:
    the writer scores it, as the replay does."""
    match = Match(load_preset("international"), 4, seed=5)
    play_hand_on_the_state(match, random.Random(5))
    record = roundtrip(match_to_record(match))
    assert record["hands"][0]["sheets"]
    assert check_record(record, "unscored") == []


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(
    ["international", "canastone", "brazilian", "classic_italian", "romanian"]))
def test_mixed_ways_of_playing_give_a_record_that_checks(seed: int, variant: str) -> None:
    """Over two hands, each move made at random by ``Match.apply`` (an action or its text) or
    ``match.state.apply``: the record holds them all, in order, and checks."""
    match = Match(load_preset(variant), 4, seed=seed)
    rng = random.Random(seed)
    for hand in range(2):
        while not match.state.is_over:
            action = rng.choice(match.state.legal_actions())
            how = rng.randrange(3)
            if how == 0:
                match.apply(action)
            elif how == 1:
                match.apply(action.text())
            else:
                match.state.apply(action)
        match.finish_hand()
        if match.is_over or hand == 1:
            break
        match.next_hand()
    for rec in match.hands:
        assert rec.state is not None
        assert rec.actions == [(s, a.text()) for s, a in rec.state.actions]
    record = roundtrip(match_to_record(match))
    assert check_record(record, "mixed") == []
    assert same_state(record_to_match(record).state, match.state)


def test_a_resumed_match_replays_the_moves_made_on_its_state() -> None:
    """``Match.resume`` (how a server takes a table up) replays the last hand's actions from
    its events: moves made on ``match.state`` come back too."""
    match = Match(load_preset("international"), 4, seed=11)
    rng = random.Random(11)
    for _ in range(30):
        match.state.apply(rng.choice(match.state.legal_actions()))
    resumed = Match.resume(match.rules, 4, match.hands, seed=match.seed)
    assert same_state(resumed.state, match.state)
    assert resumed.record.actions == match.record.actions


def test_an_undo_rewinds_the_record_with_the_state() -> None:
    """The undo puts back a copy of the state made at the draw; the record, built from the
    state's events, loses the melds taken back and nothing else."""
    rules = load_preset("international")
    for seed in range(200):
        match = Match(rules, 4, seed=seed)
        rng = random.Random(seed)
        mark = None
        while not match.state.is_over and len(match.state.actions) < 400:
            state = match.state
            seat = state.actor
            melds = [a for a in state.legal_actions() if isinstance(a, (Meld, LayOff))]
            if mark is not None and melds:
                before = list(match.record.actions)
                match.state.apply(melds[0])
                taken = mark.undo(match)
                assert taken == [(seat, melds[0])]
                assert match.record.actions == before[:mark.actions]
                assert match.record.actions == [(s, a.text()) for s, a in match.state.actions]
                record = roundtrip(match_to_record(match))
                assert same_state(record_to_match(record).state, match.state)
                return
            action = rng.choice([a for a in state.legal_actions()
                                 if not isinstance(a, (Meld, LayOff))] or state.legal_actions())
            match.apply(action)
            if isinstance(action, (Draw, TakePile)) and match.state.phase is Phase.PLAY:
                mark = TurnMark.after_draw(match, seat)
            elif match.state.actor != seat:
                mark = None
    pytest.fail("no turn with a meld after the draw in 200 deals")


def test_a_record_from_a_typed_position_keeps_only_the_actions_after_it() -> None:
    """A hand begun from a position (``start``) records the actions played after it; the
    position's own history is in the position."""
    from canasta.formats.position import position_to_dict, state_from_dict
    from canasta.formats.records import match_from_state

    rules = load_preset("international")
    state = State.deal(rules, 4, seed=4)
    rng = random.Random(4)
    for _ in range(12):
        state.apply(rng.choice(state.legal_actions()))
    doc = roundtrip(position_to_dict(state))
    doc["deck"] = []  # typed in: no deal order, so the hand starts from the position
    match = match_from_state(state_from_dict(doc), seed=2)
    for _ in range(5):
        match.state.apply(rng.choice(match.state.legal_actions()))
    assert len(match.record.actions) == 5
    assert len(match.state.actions) == 17
    record = roundtrip(match_to_record(match))
    assert "start" in record["hands"][0] and len(record["hands"][0]["actions"]) == 5
    assert check_record(record, "from") == []
    assert same_state(record_to_match(record).state, match.state)


# -- text in State.apply --------------------------------------------------------------------

def test_state_apply_takes_an_actions_text() -> None:
    """``state.apply("draw")`` is ``state.apply(Draw())`` (as python-chess's ``push_uci``);
    ``verify`` and ``can`` read text too."""
    rules = load_preset("international")
    a, b = State.deal(rules, 4, seed=1), State.deal(rules, 4, seed=1)
    assert a.can("draw") and b.can(Draw())
    a.verify("draw")
    assert a.apply("draw") == b.apply(Draw())
    card = next(x for x in b.legal_actions() if isinstance(x, Discard)).card
    from canasta.core.cards import card_text
    assert a.apply(f"discard {card_text(card)}") == b.apply(Discard(card))
    assert same_state(a, b)


@pytest.mark.parametrize(("text", "says"), [
    ("", "empty action"),
    ("drow", "drow"),
    ("draw 7h", "draw"),
    ("discard Kx", "Kx"),
])
def test_text_that_does_not_read_is_refused_with_what_was_wrong(text: str, says: str) -> None:
    state = State.deal(load_preset("international"), 4, seed=1)
    before = len(state.events)
    with pytest.raises(ActionParseError, match=says):
        state.apply(text)
    assert len(state.events) == before  # nothing changed


def test_a_refused_text_names_its_own_fault_not_the_draw() -> None:
    """``state.apply("draw")`` when the player has already drawn says so (it used to say
    "first draw from the stock or take the discard pile", as for a value it did not read)."""
    state = State.deal(load_preset("international"), 4, seed=1)
    state.apply("draw")
    with pytest.raises(IllegalActionError) as info:
        state.apply("draw")
    assert info.value.rule == "turn order" and "already drawn" in str(info.value)


@pytest.mark.parametrize("value", [42, None, ("draw",), b"draw"])
def test_a_value_that_is_no_action_is_a_type_error(value: object) -> None:
    """What is neither an action nor its text is refused as such, in every phase, and the
    hand is unchanged (in the play phase it used to end the hand)."""
    state = State.deal(load_preset("international"), 4, seed=1)
    for phase_step in (None, "draw"):
        if phase_step is not None:
            state.apply(phase_step)
        before = len(state.events)
        with pytest.raises(TypeError, match="action"):
            state.apply(value)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="action"):
            state.verify(value)  # type: ignore[arg-type]
        assert len(state.events) == before and not state.is_over
