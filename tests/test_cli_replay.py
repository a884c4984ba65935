"""``canasta replay`` and ``canasta position`` (docs/formats.md, "Commands")."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from canasta import Match, load_preset
from canasta.formats.position import position_to_dict, same_state, state_from_dict
from canasta.formats.records import load_position, match_to_record, record_to_match, save_record
from formatkit import cli


def saved_game(tmp_path: Path, hands: int = 2, extra: int = 12, seed: int = 5) -> Path:
    match = Match(load_preset("international"), 4, seed=seed)
    rng = random.Random(seed)
    for _ in range(hands):
        while not match.state.is_over:
            match.apply(rng.choice(match.state.legal_actions()))
        match.finish_hand()
        match.next_hand()
    for _ in range(extra):
        match.apply(rng.choice(match.state.legal_actions()))
    path = tmp_path / "game.json"
    save_record(match, path, ["Ann", "Bob", "Cy", "Di"])
    return path


def test_replay_check_confirms_the_recorded_scores(tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    result = cli(["replay", str(path), "--check"])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "hand 1: ok" in result.stdout and "hand 2: ok" in result.stdout
    assert "replay to the recorded scores" in result.stdout


def test_replay_check_exits_non_zero_on_a_mismatch(tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    data = json.loads(path.read_text())
    data["hands"][0]["sheets"][1]["hand_total"] += 100
    path.write_text(json.dumps(data))
    result = cli(["replay", str(path), "--check"])
    assert result.exit_code == 1
    assert "hand 1: mismatch" in result.stdout and "hand 1, team 1: recorded" in result.stdout


def test_replay_prints_every_action_with_all_hands(tmp_path: Path) -> None:
    path = saved_game(tmp_path, hands=1, extra=3)
    data = json.loads(path.read_text())
    result = cli(["replay", str(path), "--no-interactive"])
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    first = data["hands"][0]["actions"][0]
    assert f"1. {['Ann', 'Bob', 'Cy', 'Di'][first[0]]} (seat {first[0]}): {first[1]}" in out
    assert out.count("Hand 1:") == 1 and "Hand 2:" in out
    assert "Hand 1 scores:" in out
    n_actions = sum(len(h["actions"]) for h in data["hands"])
    assert sum(1 for line in out.splitlines() if line.strip()[:1].isdigit()
               and ". " in line[:8]) == n_actions
    # Every hand open: the dealt hands of all four seats are shown.
    assert out.count("Ann (seat 0): ") > 1 and "cards\n" not in out


def test_replay_from_one_seat_hides_the_other_hands(tmp_path: Path) -> None:
    path = saved_game(tmp_path, hands=0, extra=6)
    result = cli(["replay", str(path), "--seat", "2", "--no-interactive"])
    assert result.exit_code == 0
    assert "Ann (seat 0): 11 cards" in result.stdout
    assert "Cy (seat 2): 11 cards" not in result.stdout


def test_replay_one_hand_interactively(tmp_path: Path) -> None:
    path = saved_game(tmp_path, hands=1, extra=6)
    result = cli(["replay", str(path), "--hand", "2", "--interactive"], "\n\n1\nq\n")
    assert result.exit_code == 0
    assert "Hand 2:" in result.stdout and "Hand 1:" not in result.stdout
    assert "Ann (seat 0): 11 cards" in result.stdout  # after `1`: seat 1's view
    assert result.stdout.count("[Enter] next") == 4


def test_replay_refuses_bad_records_naming_the_place(tmp_path: Path) -> None:
    path = saved_game(tmp_path, hands=1)
    data = json.loads(path.read_text())
    data["hands"][1]["actions"][2][1] = "meld Xq"
    path.write_text(json.dumps(data))
    for args in (["replay", str(path), "--check"], ["replay", str(path), "--no-interactive"],
                 ["position", str(path)]):
        result = cli(args)
        assert result.exit_code == 2, args
        assert f"{path}: $.hands[1].actions[2]" in result.stderr
    broken = tmp_path / "broken.json"
    broken.write_text("{\n  \"format\": \"canasta-record\",\n  oops\n}")
    result = cli(["replay", str(broken)])
    assert result.exit_code == 2 and f"{broken}: line 3" in result.stderr
    assert result.stdout == ""


def test_position_prints_the_current_position_of_a_saved_game(tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    result = cli(["position", str(path)])
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    match = record_to_match(json.loads(path.read_text()))
    assert doc.pop("hand") == len(match.hands)  # which hand of the match (play --from)
    assert doc == position_to_dict(match.state)
    assert same_state(state_from_dict(doc), load_position(path))


def test_position_after_a_given_action(tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    result = cli(["position", str(path), "--hand", "1", "--action", "3", "--compact"])
    assert result.exit_code == 0, result.stderr
    assert len(result.stdout.strip().splitlines()) == 1
    doc = json.loads(result.stdout)
    assert len(doc["history"]) == 3
    result = cli(["position", str(path), "--hand", "9"])
    assert result.exit_code == 2 and "no hand 9" in result.stderr


def test_position_of_a_position_file_and_stdin(tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    first = cli(["position", str(path)]).stdout
    again = cli(["position", "-"], first)
    assert again.exit_code == 0 and json.loads(again.stdout) == json.loads(first)
    bad = json.loads(first)
    bad["stock"] = bad["stock"][1:]
    result = cli(["position", "-"], json.dumps(bad))
    assert result.exit_code == 2 and "<stdin>: the position holds" in result.stderr
    result = cli(["position", "-", "--hand", "1"], first)
    assert result.exit_code == 2


@pytest.mark.parametrize("command", ["replay", "position", "score"])
def test_a_missing_file_is_named(command: str) -> None:
    result = cli([command, "/no/such/game.json"])
    assert result.exit_code == 2 and "/no/such/game.json" in result.stderr


def test_a_game_begun_from_a_position_replays_and_checks(tmp_path: Path) -> None:
    """The `play --from` path: a position typed in (no deal order), played on, saved, checked."""
    from canasta.formats.records import match_from_state

    path = saved_game(tmp_path, hands=0, extra=0)
    doc = json.loads(cli(["position", str(path)]).stdout)
    doc["deck"] = []
    start = tmp_path / "start.json"
    start.write_text(json.dumps(doc))
    match = match_from_state(load_position(start), seed=3)
    rng = random.Random(4)
    while not match.state.is_over:
        match.apply(rng.choice(match.state.legal_actions()))
    match.finish_hand()
    out = tmp_path / "from.json"
    save_record(match, out)
    assert "start" in json.loads(out.read_text())["hands"][0]
    result = cli(["replay", str(out), "--check"])
    assert result.exit_code == 0, result.stdout + result.stderr
    result = cli(["replay", str(out), "--no-interactive"])
    assert "from a saved position" in result.stdout
    assert match_to_record(match)["hands"][0]["start"]["deck"] == []


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_position_draws_a_board_and_json_stays_json(tmp_path: Path, lang: str) -> None:
    """`canasta position FILE` was JSON only: `--board` (the default in a terminal) draws
    the table as the seat to act sees it, with the other hands below; `--json` keeps JSON,
    as does output to a pipe."""
    path = saved_game(tmp_path)
    board = cli(["position", str(path), "--board", "--lang", lang])
    assert board.exit_code == 0, board.output
    words = {"en": ("Your hand (", "Melds of", " holds: "),
             "pt": ("Sua mão (", "Jogos de", " tem na mão: ")}[lang]
    for w in words:
        assert w in board.stdout, board.stdout
    assert "{" not in board.stdout
    assert json.loads(cli(["position", str(path), "--json"]).stdout)["format"] == \
        "canasta-position"
    assert json.loads(cli(["position", str(path)]).stdout)["format"] == "canasta-position"
    assert cli(["position", str(path), "--board", "--seat", "9"]).exit_code == 2
