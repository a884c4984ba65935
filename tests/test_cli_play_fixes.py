"""Command-line bugs once found, each with its test: --save overwriting, --resume of a
position, --from headed with the right hand number, the replay prompt's seats, the short
`canasta variants`, --version and bot levels by spec through --bots."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

from typer.testing import CliRunner

from canasta import Match, load_preset
from canasta.cli import _register as register_commands
from canasta.cli import app
from canasta.cli.play import split_bot_specs
from canasta.cli.replay import Replayer
from canasta.formats.records import save_record

register_commands()
runner = CliRunner()


def flat(text: str) -> str:
    return " ".join(text.split())


def play(args: list[str], lines: list[str]) -> tuple[int, str]:
    result = runner.invoke(app, ["play", *args], input="\n".join(lines) + "\n")
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def two_hand_record(path: Path, players: int = 4) -> Match:
    """A match played at random into its second hand, saved as a record."""
    match = Match(load_preset("international"), players, seed=3)
    rng = random.Random(3)
    while not match.state.is_over:
        match.apply(rng.choice(match.state.legal_actions()))
    match.finish_hand()
    match.next_hand()
    while match.state.actor != 0:
        match.apply(rng.choice(match.state.legal_actions()))
    save_record(match, path, ["You", "West (random)", "North (random)", "East (random)"]
                [:players])
    return match


def test_save_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    save.write_text("precious", "utf-8")
    code, out = play(["--save", str(save), "--bots", "random"], ["quit"])
    assert code == 2
    assert "exists" in flat(out) and "--force" in flat(out)
    assert save.read_text("utf-8") == "precious"
    code, out = play(["--save", str(save), "--bots", "random", "--force"], ["quit"])
    assert code == 0
    assert json.loads(save.read_text("utf-8"))["format"] == "canasta-record"


def test_the_refusal_to_overwrite_speaks_the_players_language(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    save.write_text("precious", "utf-8")
    code, out = play(["--save", str(save), "--bots", "random", "--lang", "it"], ["quit"])
    assert code == 2 and save.read_text("utf-8") == "precious"
    assert flat(out).startswith(f"Errore: {save} esiste già") and "--force" in out


def test_resume_of_a_position_file_says_use_from(tmp_path: Path) -> None:
    rec = tmp_path / "rec.json"
    two_hand_record(rec)
    result = runner.invoke(app, ["position", str(rec)])
    assert result.exit_code == 0
    pos = tmp_path / "pos.json"
    pos.write_text(result.stdout, "utf-8")
    code, out = play(["--resume", str(pos)], [])
    assert code == 2
    assert f"use --from {pos}" in flat(out).replace("play on from it with ", "use ")


def test_play_from_a_hand_2_position_is_headed_hand_2(tmp_path: Path) -> None:
    rec = tmp_path / "rec.json"
    match = two_hand_record(rec)
    result = runner.invoke(app, ["position", str(rec)])
    doc = json.loads(result.stdout)
    assert doc["hand"] == 2 == len(match.hands)
    pos = tmp_path / "pos.json"
    pos.write_text(result.stdout, "utf-8")
    for source in (pos, rec):
        code, out = play(["--from", str(source), "--bots", "random", "--plain"], ["quit"])
        assert code == 0, out
        text = flat(out)
        assert "hand 2 in progress" in text
        assert "Hand 2 ·" in text and "Hand 1" not in text


def test_the_replay_prompt_offers_only_the_games_seats(tmp_path: Path) -> None:
    rec = tmp_path / "rec2.json"
    two_hand_record(rec, players=2)
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return "q" if len(prompts) > 1 else "5"  # seat 5 does not exist: ignored

    from rich.console import Console

    data = json.loads(rec.read_text("utf-8"))
    shower = Replayer(Console(file=io.StringIO()), None, read, None)
    shower.run(data, str(rec))
    assert "0-1 seat" in prompts[0] and "0-5" not in prompts[0]
    assert shower.seat is None  # "5" was not taken as a seat


def test_variants_is_short_by_default() -> None:
    result = runner.invoke(app, ["variants"], env={"COLUMNS": "100"})
    assert result.exit_code == 0
    lines = result.output.strip().splitlines()
    assert len(lines) <= 14
    assert "--details" in result.output
    full = runner.invoke(app, ["variants", "--details"], env={"COLUMNS": "100"})
    assert len(full.output.splitlines()) > 100 and "sujo" in full.output


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    import canasta

    assert result.output.startswith(f"canasta {canasta.__version__} (")


def test_bot_specs_keep_their_options_apart_from_the_seats() -> None:
    assert split_bot_specs("expert:time=0.5,seed=3,easy") == ["expert:time=0.5,seed=3", "easy"]
    assert split_bot_specs("random, greedy,random") == ["random", "greedy", "random"]


def finished_record(path: Path, names: list[str]) -> Match:
    """A match played at random to its end (a target of 1 point: one hand won is enough),
    saved as a record."""
    rules = load_preset("international", {"end.target": 1, "end.target_by_players": {}})
    match = Match(rules, len(names), seed=4)
    rng = random.Random(4)
    while not match.is_over:
        while not match.state.is_over:
            match.apply(rng.choice(match.state.legal_actions()))
        match.finish_hand()
        if not match.is_over:
            match.next_hand()
    save_record(match, path, names)
    return match


def test_resume_of_a_finished_match_says_it_is_over_and_never_rewrites_it(
        tmp_path: Path) -> None:
    rec = tmp_path / "done.json"
    match = finished_record(rec, ["Ana", "West (greedy)"])
    before = rec.read_bytes()
    for extra in ([], ["--bots", "random"], ["--lang", "it"]):
        code, out = play(["--resume", str(rec), *extra], ["", "", "quit"])
        assert code == 2, out
        assert rec.read_bytes() == before  # no new date, no made-up names
    code, out = play(["--resume", str(rec)], [])
    text = flat(out)
    assert f"{rec} holds a match that is over" in text
    assert f"Ana {match.scores[0]}, West {match.scores[1]}" in text
    # saving elsewhere is refused as well: nothing is written
    other = tmp_path / "other.json"
    code, out = play(["--resume", str(rec), "--save", str(other)], [])
    assert code == 2 and not other.exists()
    code, out = play(["--resume", str(rec), "--lang", "it"], [])
    assert "partita già finita" in flat(out)


def test_resume_keeps_every_seat_name_and_bot_spec(tmp_path: Path) -> None:
    rec = tmp_path / "g.json"
    two_hand_record(rec)
    data = json.loads(rec.read_text("utf-8"))
    data["names"] = ["Ana", "West (greedy)", "North (random)", "East"]  # East: no spec
    rec.write_text(json.dumps(data), "utf-8")
    code, out = play(["--resume", str(rec)], ["quit"])
    assert code == 0, out
    # each seat keeps its name and its spec; the one that had none gets the default bot
    assert json.loads(rec.read_text("utf-8"))["names"] == [
        "Ana", "West (greedy)", "North (random)", "East (hard)"]
    code, out = play(["--resume", str(rec), "--bots", "easy"], ["quit"])
    assert code == 0, out
    assert json.loads(rec.read_text("utf-8"))["names"] == [
        "Ana", "West (easy)", "North (easy)", "East (easy)"]


def test_names_name_the_other_seats_and_auto_draw_draws_when_nothing_else_starts_the_turn(
) -> None:
    """Six-player tables read "Seat 1 … Seat 5": --names names them. --auto-draw draws from
    the stock for the person when the pile cannot be taken."""
    result = runner.invoke(app, ["play", "--plain", "--seed", "3", "--auto-draw",
                                 "--names", "Ann,Bob,Cleo", "--bots", "random"],
                           input="d 3s\nquit\n")
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "Bots: Ann (random), Bob (random), Cleo (random)." in out
    assert "Your partner: Bob." in out
    assert "(Drawn for you from the stock: the pile could not be taken.)" in out
    assert out.index("You draw") < out.index("(Drawn for you")
    six = runner.invoke(app, ["play", "--plain", "--variant", "canastone", "--players", "6",
                              "--names", "Me,A,B,C,D,E", "--seed", "1"], input="quit\n")
    assert six.exit_code == 0, six.output
    assert "Seat " not in six.output and "Me & B & D" in " ".join(six.output.split())
    bad = runner.invoke(app, ["play", "--plain", "--names", "A,B,C,D,E"], input="quit\n")
    assert bad.exit_code == 2 and "--names" in bad.output
