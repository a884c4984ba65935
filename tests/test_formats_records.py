"""Game records (docs/formats.md, "Game record"): written, read, replayed and checked."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from canasta import Match, Rules, load_preset
from canasta.bots import RandomBot
from canasta.formats.jsondoc import schema
from canasta.formats.position import position_to_dict, same_state, state_from_dict
from canasta.formats.records import (
    RecordError,
    check_record,
    load_record,
    match_from_state,
    match_to_record,
    record_state_at,
    record_to_match,
    replay_steps,
    save_record,
)
from formatkit import deal, loadable_presets, preset, preset_params, roundtrip

HANDS = 500


def play_match(rules: Rules, players: int, seed: int, hands: int,
               extra_actions: int = 0) -> Match:
    """A match of random bots (each seat its own seeded bot, deciding from its view only)."""
    match = Match(rules, players, seed=seed)
    bots = [RandomBot(seed * 10 + i) for i in range(players)]
    for h in range(hands):
        state = match.state
        while not state.is_over:
            match.apply(bots[state.actor].choose(state.view(state.actor)))
        match.finish_hand()
        if match.is_over or h == hands - 1:
            break
        match.next_hand()
    if extra_actions and match.state.is_over and not match.is_over:
        match.next_hand()
    for _ in range(extra_actions):
        if match.state.is_over:
            break
        state = match.state
        match.apply(bots[state.actor].choose(state.view(state.actor)))
    return match


@pytest.mark.slow
def test_a_replay_of_500_simulated_hands_reproduces_their_scores() -> None:
    """500 hands of random bots, spread over every preset and player count, each written as a
    record, read back from JSON text and replayed: every score sheet, every total and the final
    position are the engine's."""
    combos = [(r, n) for r in loadable_presets() for n in r.deal.player_counts]
    per = HANDS // len(combos)
    counts = [per + (1 if i < HANDS - per * len(combos) else 0) for i in range(len(combos))]
    played = 0
    seed = 0
    for (rules, players), want in zip(combos, counts, strict=True):
        done = 0
        while done < want:
            seed += 1
            match = play_match(rules, players, seed, min(want - done, 6))
            record = json.loads(json.dumps(match_to_record(match)))
            if seed % 10 == 0:
                assert check_record(record, f"sim {seed}") == []
            replayed = record_to_match(record, f"sim {seed}")
            assert replayed.scores == match.scores and replayed.winner == match.winner
            for a, b in zip(replayed.hands, match.hands, strict=True):
                assert [s.to_dict() for s in a.sheets] == [s.to_dict() for s in b.sheets]
            assert same_state(replayed.state, match.state)
            done += len(match.hands)
        played += done
    assert played == HANDS


@pytest.mark.parametrize(("rules", "players"), preset_params())
def test_record_round_trip_with_a_hand_in_progress(rules: Rules, players: int,
                                                   tmp_path: Path) -> None:
    match = play_match(rules, players, 5, 2, extra_actions=17)
    path = tmp_path / "game.json"
    save_record(match, path, [f"p{i}" for i in range(players)])
    loaded, data = load_record(path)
    assert same_state(loaded.state, match.state)
    assert data["names"] == [f"p{i}" for i in range(players)]
    assert check_record(data, str(path)) == []
    again = match_to_record(loaded, data["names"])
    data.pop("date"), again.pop("date")
    assert again == data


@pytest.mark.parametrize(("rules", "players"), preset_params())
def test_records_validate_against_the_schema(rules: Rules, players: int) -> None:
    match = play_match(rules, players, 9, 2, extra_actions=5)
    record = roundtrip(match_to_record(match))
    errors = list(jsonschema.Draft202012Validator(schema("record")).iter_errors(record))
    assert not errors, errors[0]


def test_a_version_1_record_still_reads() -> None:
    """The first record format (no rules, no start; the web server writes it) keeps working."""
    match = play_match(load_preset("international"), 4, 3, 2)
    record = roundtrip(match_to_record(match))
    record["version"] = 1
    del record["rules"]
    for hand in record["hands"]:
        hand["sheets"] = []
    del record["scores"], record["winner"], record["engine"], record["date"]
    replayed = record_to_match(record)
    assert replayed.scores == match.scores


def test_a_mismatch_is_found_and_named() -> None:
    match = play_match(load_preset("international"), 4, 4, 2)
    record = roundtrip(match_to_record(match))
    record["hands"][1]["sheets"][0]["items"][0]["points"] += 5
    record["hands"][1]["sheets"][0]["hand_total"] += 5
    problems = check_record(record, "x")
    assert problems and problems[0].startswith("hand 2, team 0: recorded")
    assert "first difference at item 1" in problems[0]
    record = roundtrip(match_to_record(match))
    record["scores"][1] += 1
    assert check_record(record, "x") == [
        f"final scores: recorded {record['scores']}, replayed {match.scores}"]


def test_an_illegal_action_names_the_hand_and_action() -> None:
    match = play_match(load_preset("international"), 4, 6, 1)
    record = roundtrip(match_to_record(match))
    record["hands"][0]["actions"][0][1] = "discard Kh"  # before drawing
    with pytest.raises(RecordError) as info:
        record_to_match(record, "game.json")
    assert info.value.path == "$.hands[0].actions[0]"
    assert str(info.value).startswith("game.json: $.hands[0].actions[0]: 'discard Kh'")


def test_the_wrong_seat_acting_is_refused() -> None:
    match = play_match(load_preset("international"), 4, 6, 1)
    record = roundtrip(match_to_record(match))
    record["hands"][0]["actions"][0][0] = (record["hands"][0]["actions"][0][0] + 1) % 4
    with pytest.raises(RecordError, match=r"\$\.hands\[0\]\.actions\[0\]: seat"):
        record_to_match(record, "game.json")


@pytest.mark.parametrize(("mutate", "path"), [
    (lambda r: r.update(format="chess-pgn"), "$.format"),
    (lambda r: r.update(version=7), "$.version"),
    (lambda r: r.update(players="four"), "$.players"),
    (lambda r: r.update(seed=[1]), "$.seed"),
    (lambda r: r.update(team_size=3), "$.team_size"),
    (lambda r: r.update(hands=[]), "$.hands"),
    (lambda r: r["hands"][0].update(deck=r["hands"][0]["deck"][:-1]), "$.hands[0].deck"),
    (lambda r: r["hands"][0]["deck"].__setitem__(5, "Kx"), "$.hands[0].deck[5]"),
    (lambda r: r["hands"][0]["actions"].__setitem__(0, "draw"), "$.hands[0].actions[0]"),
    (lambda r: r["hands"][0].pop("actions"), "$.hands[0]"),
    (lambda r: r["hands"][0].update(bogus=1), "$.hands[0].bogus"),
    (lambda r: r.update(rules={"deal": {"packs": 9}}), "$.rules"),
])
def test_malformed_records_name_the_path(mutate: Any, path: str) -> None:
    match = play_match(load_preset("international"), 4, 2, 1)
    record = roundtrip(match_to_record(match))
    mutate(record)
    with pytest.raises(RecordError) as info:
        record_to_match(record, "r.json")
    assert info.value.path == path, str(info.value)
    assert str(info.value).startswith("r.json: ")


def test_replay_steps_visit_every_action() -> None:
    match = play_match(load_preset("international"), 4, 12, 2)
    record = roundtrip(match_to_record(match))
    steps = [(s.hand, s.action, s.seat, s.text) for s in replay_steps(record)]
    expected = []
    for h, hand in enumerate(record["hands"]):
        expected.append((h, -1, None, ""))
        expected += [(h, k, seat, text) for k, (seat, text) in enumerate(hand["actions"])]
    assert steps == expected


def test_record_state_at_a_given_action() -> None:
    match = play_match(load_preset("international"), 4, 13, 2)
    record = roundtrip(match_to_record(match))
    state = record_state_at(record, "r", 1, 4)
    assert len(state.actions) == 5
    start = record_state_at(record, "r", 0, -1)
    assert start.actions == [] and start.turn == 0
    with pytest.raises(RecordError, match="no action"):
        record_state_at(record, "r", 0, 100000)
    with pytest.raises(RecordError, match="no hand 9"):
        record_state_at(record, "r", 8, None)


# -- matches started from a position (canasta play --from) -----------------------------------

def test_match_from_a_saved_game_state_records_the_deal_and_its_actions() -> None:
    match = play_match(load_preset("international"), 4, 21, 2, extra_actions=20)
    state = state_from_dict(roundtrip(position_to_dict(match.state)))
    resumed = match_from_state(state, seed=4)
    record = roundtrip(match_to_record(resumed))
    assert "deck" in record["hands"][0] and "start" not in record["hands"][0]
    assert record["hands"][0]["scores_before"] == list(match.state.scores)
    assert same_state(record_to_match(record).state, match.state)


def test_match_from_a_typed_position_records_it_as_the_start() -> None:
    rules = load_preset("international")
    state = deal(rules, 4, 3, [1200, 3400])
    doc = roundtrip(position_to_dict(state))
    doc["deck"] = []  # typed in: no deal order
    start = state_from_dict(doc)
    match = match_from_state(start, seed=8)
    rng = random.Random(1)
    while not match.state.is_over:
        match.apply(rng.choice(match.state.legal_actions()))
    match.finish_hand()
    match.next_hand()
    for _ in range(10):
        match.apply(rng.choice(match.state.legal_actions()))
    record = roundtrip(match_to_record(match))
    assert "start" in record["hands"][0] and "deck" not in record["hands"][0]
    assert record["version"] == 2
    assert check_record(record, "from") == []
    assert same_state(record_to_match(record).state, match.state)
    errors = list(jsonschema.Draft202012Validator(schema("record")).iter_errors(record))
    assert not errors
    # A start position that does not fit the record is refused where it is.
    bad = copy.deepcopy(record)
    bad["hands"][0]["start"]["hands"][0].append("Kh")
    with pytest.raises(RecordError) as info:
        record_to_match(bad, "from.json")
    assert info.value.path == "$.hands[0].start"
    bad = copy.deepcopy(record)
    bad["hands"][0]["start"]["dealer"] = 2
    with pytest.raises(RecordError, match=r"\$\.hands\[0\]\.start\.dealer"):
        record_to_match(bad, "from.json")


def test_a_finished_hand_as_a_start_scores_at_once() -> None:
    rules = preset("brazilian")
    state = deal(rules, 4, 5)
    rng = random.Random(2)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    doc = roundtrip(position_to_dict(state))
    doc["deck"] = []
    match = match_from_state(state_from_dict(doc))
    assert match.hands[0].sheets
    assert [s.to_dict() for s in match.hands[0].sheets] == [s.to_dict() for s in state.score()]
