"""Option values the commands cannot honour are refused with one line naming the option, never
replaced silently (`--lang de` played in English, `--speed -1` was taken, `--save /tmp`
suggested `--resume /tmp`); file errors are whole sentences without a bare "$:"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from formatkit import cli

# Every command with --lang, with what it needs besides.
LANG_COMMANDS = [
    ["play", "--plain", "--seed", "1"],
    ["tournament", "--bots", "greedy,random", "--deals", "1", "--players", "2"],
    ["score", "-i"],
    ["rules", "international"],
    ["variants"],
    ["bots"],
    ["hint", "nofile.json"],
]


@pytest.mark.parametrize("command", LANG_COMMANDS, ids=lambda c: c[0])
def test_a_language_without_a_catalogue_is_refused(command: list[str]) -> None:
    result = cli([*command, "--lang", "de"], "quit\n")
    assert result.exit_code == 2, result.output
    assert "'de' is not one of the languages: en, it, pt, ro" in result.output
    assert "Canasta (international rules)" not in result.output  # no game was started


@pytest.mark.parametrize("tag", ["it", "it-IT", "pt_BR", "RO"])
def test_language_tags_of_a_catalogue_are_taken(tag: str) -> None:
    result = cli(["rules", "international", "--lang", tag])
    assert result.exit_code == 0, result.output


def test_a_negative_speed_is_refused() -> None:
    result = cli(["play", "--plain", "--speed", "-1"], "quit\n")
    assert result.exit_code == 2
    assert "--speed" in result.output and "greater than or equal to 0" in result.output


def test_a_folder_is_no_save_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A short relative path: the error panel wraps a long one (a worker's tmp path) mid-word.
    monkeypatch.chdir(tmp_path.parent)
    result = cli(["play", "--plain", "--save", tmp_path.name], "quit\n")
    assert result.exit_code == 2
    out = " ".join(result.output.replace("│", " ").split())
    assert "is a folder; name a file, such as" in out and "match.json" in out
    assert "--resume" not in out
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("option", [["tournament", "--bots", "greedy,random", "--json"],
                                    ["tournament", "--bots", "greedy,random", "--plot"],
                                    ["score", "-i", "--sheet"]])
def test_other_files_written_are_no_folders_either(tmp_path: Path, option: list[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path.parent)
    result = cli([*option, tmp_path.name], "")
    assert result.exit_code == 2
    assert "is a folder" in " ".join(result.output.replace("│", " ").split())


@pytest.mark.parametrize("text, words", [
    ('{"format": "canasta-record", "vers', "a string is not closed"),
    ('{"format": "canasta-record",\n "version": 1,', "a key in double quotes was expected"),
    ('{"format": "canasta-record"} x', "more text follows the end of the document"),
])
def test_json_syntax_errors_are_whole_sentences(tmp_path: Path, text: str,
                                                words: str) -> None:
    path = tmp_path / "r.json"
    path.write_text(text)
    for command in (["replay", str(path)], ["play", "--plain", "--resume", str(path)],
                    ["score", str(path)], ["position", str(path)]):
        result = cli(command, "quit\n")
        assert result.exit_code == 2, (command, result.output)
        message = " ".join(result.output.split())
        assert f"not valid JSON: {words}" in message, (command, message)
        assert not message.endswith(" at"), message
        assert message.endswith((".", "?)", words)), message


def test_errors_about_the_whole_document_carry_no_bare_dollar(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps([1, 2]))
    for command in (["replay", str(path)], ["play", "--plain", "--resume", str(path)],
                    ["score", str(path)], ["position", str(path)]):
        result = cli(command, "quit\n")
        assert result.exit_code == 2
        assert "$:" not in result.output, (command, result.output)
        assert f"{path}: expected an object" in " ".join(result.output.split())
