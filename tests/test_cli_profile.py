"""The local profile: a match finished at `canasta play` is added (not with --no-profile), and
`canasta stats` sums the matches up by variant and by the opponents' level."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from canasta import Match, load_preset
from canasta.bots import make_bot
from canasta.cli import _register as register_commands
from canasta.cli import app, render
from canasta.cli.play import Game
from canasta.cli.profile import MatchEntry, entry_of, read_profile, record, summarise
from canasta.cli.session import Session

register_commands()
runner = CliRunner()


def last_hand_played(seed: int = 2) -> Match:
    """A 2-player match whose hand just played (not yet scored) decides it: the match is
    played twice with the same seeded bots, the second time stopping before the last score."""

    def play(hands: int | None) -> Match:
        match = Match(load_preset("international"), 2, seed=seed)
        bots = [make_bot("greedy", 1), make_bot("greedy", 2)]
        while True:
            state = match.state
            while not state.is_over:
                match.apply(bots[state.actor].choose(state.view(state.actor)))
            if hands is not None and len(match.hands) == hands:
                return match
            match.finish_hand()
            if match.winner is not None:
                return match
            match.next_hand()

    whole = play(None)
    return play(len(whole.hands))


@pytest.fixture()
def profile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "data" / "profile.jsonl"
    monkeypatch.setenv("CANASTA_PROFILE", str(path))
    return path


@pytest.mark.parametrize("keep", [True, False])
def test_a_finished_match_is_added_to_the_profile(profile: Path, keep: bool) -> None:
    match = last_hand_played()
    session = Session(match, render.seat_names(2), ["", "greedy"])
    session.profile = keep  # canasta play sets it unless --no-profile
    out = io.StringIO()
    Game(session, Console(file=out, width=100), lambda prompt: "").run()
    assert match.winner is not None
    if not keep:
        assert not profile.exists()
        return
    assert "Added to your profile" in out.getvalue()
    [entry] = read_profile(profile)
    assert entry.variant == "international" and entry.players == 2
    assert entry.opponents == "greedy" and entry.hands == len(match.hands)
    assert entry.won == (match.winner == 0)
    assert entry.ours == match.scores[0] and entry.theirs == match.scores[1]


def test_stats_sum_up_by_variant_and_opponents(profile: Path) -> None:
    entries = [MatchEntry(f"2026-01-0{d} 10:00", v, 4, o, 6, ours, theirs, ours > theirs)
               for d, (v, o, ours, theirs) in enumerate(
                   [("international", "medium", 5200, 3100), ("international", "hard", 2900, 5100),
                    ("canastone", "medium", 12500, 9000)], 1)]
    for e in entries:
        record(e)
    profile.write_text(profile.read_text() + "not json\n")  # skipped, not fatal
    groups = summarise(read_profile())
    assert groups["all"][""].matches == 3 and groups["all"][""].won == 2
    assert groups["variant"]["international"].won == 1
    assert groups["opponents"]["medium"].matches == 2
    result = runner.invoke(app, ["stats"])
    assert result.exit_code == 0, result.output
    assert "International Canasta" in result.output and "Canastone" in result.output
    assert "2 (67%)" in result.output  # 2 of 3 won
    data = json.loads(runner.invoke(app, ["stats", "--json"]).output)
    assert data["opponents"]["hard"]["lost"] == 1
    it = runner.invoke(app, ["stats", "--lang", "it"])
    assert "Per variante" in it.output and "vinte" in it.output


def test_stats_without_a_profile_say_how_one_is_made(profile: Path) -> None:
    result = runner.invoke(app, ["stats"])
    assert result.exit_code == 0
    assert "No finished match in your profile yet" in " ".join(result.output.split())


def test_play_has_no_profile_option() -> None:
    result = runner.invoke(app, ["play", "--help"])
    assert "--no-profile" in result.output


def test_an_entry_names_the_opponents_not_the_partner() -> None:
    match = last_hand_played()
    match.finish_hand()
    entry = entry_of(match, ["", "easy"])
    assert entry.opponents == "easy"
