"""`canasta score --interactive` as a match sheet: team names, the sheet saved
after every hand and reopened, a typed meld corrected, a whole hand entered again, and the
running total to the target of the player count."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from formatkit import cli

NAT_K = "Ks Kh Kd Kc Ks Kh Kd"  # a natural canasta of kings: 500 + 70 melded

# Hand 1 as the scorekeeper types it: team 1 a natural canasta of kings and 9s 9d JK (typed
# first as 9s 9d 9h, then corrected with `fix 2`), one red three, went out; team 2 a meld of
# queens, Js in hand.
HAND_1_TEAM_1 = [NAT_K, "9s 9d 9h", "fix 2", "9s 9d JK", "", "1", "y", "n", "", "5c 7d", ""]
HAND_1_TEAM_2 = ["Qs Qh Qd", "", "0", "Js", "4h 4d", ""]


def test_names_save_and_reopen_with_the_running_total(tmp_path: Path) -> None:
    sheet = tmp_path / "match.json"
    lines = ["international", "4", *HAND_1_TEAM_1, *HAND_1_TEAM_2, "n"]
    result = cli(["score", "-i", "--teams", "Anna & Bo,Carla & Dan", "--sheet", str(sheet)],
                 "\n".join(lines) + "\n")
    assert result.exit_code == 0, result.stdout
    out = result.stdout
    # Team 1: 500 + 100 (red three) + 100 (out) + 70 + 70 melded (9s 9d JK; 9s 9d 9h
    # would be 30) - 10 (5c 7d left by the partner) = 830; team 2: 30 - 10 - 10 = 10.
    assert "meld 2 (was 9s 9d 9h)" in out
    assert "+830 = 830" in out and "+10 = 10" in out and "+790" not in out
    assert "Anna & Bo" in out and "Carla & Dan" in out
    assert "To go" in out and "4170" in out and "4990" in out  # target 5000 for 4 players
    doc = json.loads(sheet.read_text("utf-8"))
    assert doc["format"] == "canasta-match-sheet" and doc["names"] == ["Anna & Bo",
                                                                       "Carla & Dan"]
    assert len(doc["hands"]) == 1

    # Reopen: the match goes on from 830 / 10; hand 2, team 2 goes out.
    hand_2 = ["", "0", "n", "4c", "4d", "", NAT_K, "", "0", "y", "n", "", "", "", "n"]
    result = cli(["score", "-i", "--sheet", str(sheet)], "\n".join(hand_2) + "\n")
    assert result.exit_code == 0, result.stdout
    out = result.stdout
    assert "Reopened" in out and "1 hand." in out
    assert "Anna & Bo (match score 830)" in out
    # Hand 2: team 1 -5 - 5 = -10; team 2 500 + 100 (out) + 70 = 670.
    assert "-10 = 820" in out and "+670 = 680" in out
    assert len(json.loads(sheet.read_text("utf-8"))["hands"]) == 2


def test_a_hand_entered_again_rescores_the_match(tmp_path: Path) -> None:
    sheet = tmp_path / "m.json"
    hand_2 = ["", "0", "n", "4c", "4d", "", NAT_K, "", "0", "y", "n", "", "", ""]
    # Hand 1 again, with team 2's Js forgotten: 30 - 10 = 20 instead of 10.
    again = [*HAND_1_TEAM_1, "Qs Qh Qd", "", "0", "", "4h 4d", ""]
    lines = ["international", "4", *HAND_1_TEAM_1, *HAND_1_TEAM_2, "y", *hand_2,
             "fix 1", *again, "name 2 The Others", "n"]
    result = cli(["score", "-i", "--sheet", str(sheet)], "\n".join(lines) + "\n")
    assert result.exit_code == 0, result.stdout
    out = result.stdout
    assert "Hand 1 (again)" in out
    assert "+20 = 20" in out and "+670 = 690" in out  # hand 2 now starts from 20
    doc = json.loads(sheet.read_text("utf-8"))
    assert doc["names"][1] == "The Others"
    assert [t["score_before"] for t in doc["hands"][1]["teams"]] == [830, 20]


def test_a_file_that_is_not_a_match_sheet_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "x.json"
    bad.write_text('{"format": "canasta-record"}', "utf-8")
    result = cli(["score", "-i", "--sheet", str(bad)], "")
    assert result.exit_code == 2
    assert "canasta-match-sheet" in result.stderr


def test_a_card_counted_by_two_sides_asks_which_side_to_type_again(tmp_path: Path) -> None:
    """A Kd typed three times (twice in team 1's canasta, once in team 2's hand) was
    refused with JSON paths ("$.teams[1].hands[0]") and team 1 asked again, forever, with
    team 2's wrong hand kept: the error names the places as typed, and the scorekeeper
    picks the side to type again."""
    wrong_team_2 = ["Qs Qh Qd", "", "0", "Kd", "4h 4d", ""]
    lines = ["international", "4", *HAND_1_TEAM_1, *wrong_team_2, "2", *HAND_1_TEAM_2, "n"]
    result = cli(["score", "-i", "--teams", "Anna & Bo,Carla & Dan"],
                 "\n".join(lines) + "\n")
    assert result.exit_code == 0, result.stdout
    out = " ".join(result.stdout.split())
    assert "Kd is on the table 3 times" in out
    assert "Anna & Bo, meld 1" in out and "Carla & Dan, cards left of player 1" in out
    assert "$.teams" not in out
    assert "Which side to type again? 1 Anna & Bo, 2 Carla & Dan" in out
    assert out.count("Anna & Bo (match score 0)") == 1  # team 1 was not asked again
    assert "+830 = 830" in out and "+10 = 10" in out


def test_the_interactive_scorepad_speaks_the_scorekeepers_language(tmp_path: Path) -> None:
    sheet = tmp_path / "it.json"
    lines = ["international", "4", *HAND_1_TEAM_1, *HAND_1_TEAM_2, "n"]
    result = cli(["score", "-i", "--lang", "it", "--sheet", str(sheet)],
                 "\n".join(lines).replace("\ny\n", "\ns\n") + "\n")
    assert result.exit_code == 0, result.stdout
    out = " ".join(result.stdout.split())
    assert "`fix N` riscrive la combinazione N" in out
    assert "combinazione 2 (era 9s 9d 9h)" in out
    assert "Mancano" in out and "4170" in out
    for english in ("meld 2 (was", "again / away", "To go", "rename team"):
        assert english not in out
    result = cli(["score", "-i", "--lang", "it", "--sheet", str(sheet)], "quit\n")
    assert "Riaperto" in result.stdout and "1 mano." in result.stdout


def _reader(lines: list[str]) -> Callable[[str], str]:
    """Answers the prompts with ``lines``, then Ctrl-C (KeyboardInterrupt)."""
    answers = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise KeyboardInterrupt from None

    return read


def _pad(lines: list[str], sheet: Path | None) -> tuple[int, str]:
    import io

    from rich.console import Console

    from canasta.cli.scorepad import Scorepad

    out = io.StringIO()
    console = Console(file=out, width=100, highlight=False)
    code = Scorepad(None, None, console, _reader(lines), sheet=sheet).run()
    return code, out.getvalue()


def test_ctrl_c_saves_the_hands_entered_and_says_where(tmp_path: Path) -> None:
    sheet = tmp_path / "m.json"
    # hand 1 entered, then Ctrl-C half-way through hand 2
    code, out = _pad(["international", "4", *HAND_1_TEAM_1, *HAND_1_TEAM_2, "y", NAT_K],
                     sheet)
    assert code == 130
    assert "Interrupted (Ctrl-C): the hand entered is saved in" in out
    assert f"canasta score -i --sheet {sheet}" in out.replace("\n", "")
    assert len(json.loads(sheet.read_text("utf-8"))["hands"]) == 1


def test_ctrl_c_without_a_sheet_file_saves_one_here(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = _pad(["international", "4", *HAND_1_TEAM_1, *HAND_1_TEAM_2], None)
    assert code == 130
    saved = list(tmp_path.glob("canasta-sheet-*.json"))
    assert len(saved) == 1, out
    assert saved[0].name in out.replace("\n", "")
    assert json.loads(saved[0].read_text("utf-8"))["format"] == "canasta-match-sheet"


def test_ctrl_c_before_any_hand_says_nothing_is_saved(tmp_path: Path) -> None:
    code, out = _pad(["international"], tmp_path / "m.json")
    assert code == 130
    assert "no hand was entered" in out
    assert not (tmp_path / "m.json").exists()


def test_one_teams_line_of_a_hand_is_fixed_without_typing_the_hand_again(
        tmp_path: Path) -> None:
    """`fix 1 2` asks only team 2's line of hand 1 (the Js forgotten): team 1's line stays
    as typed, and the match is scored again."""
    sheet = tmp_path / "m.json"
    hand_2 = ["", "0", "n", "4c", "4d", "", NAT_K, "", "0", "y", "n", "", "", ""]
    team_2_again = ["Qs Qh Qd", "", "0", "", "4h 4d", ""]
    lines = ["international", "4", *HAND_1_TEAM_1, *HAND_1_TEAM_2, "y", *hand_2,
             "fix 1 2", *team_2_again, "n"]
    result = cli(["score", "-i", "--sheet", str(sheet)], "\n".join(lines) + "\n")
    assert result.exit_code == 0, result.stdout
    out = result.stdout
    assert "+830 = 830" in out and "+20 = 20" in out and "+670 = 690" in out
    doc = json.loads(sheet.read_text("utf-8"))
    assert [t["score_before"] for t in doc["hands"][1]["teams"]] == [830, 20]
    bad = cli(["score", "-i", "--sheet", str(tmp_path / "b.json")],
              "\n".join(["international", "4", *HAND_1_TEAM_1, *HAND_1_TEAM_2, "fix 1 3", "n"])
              + "\n")
    assert "there is no team 3" in bad.stdout
