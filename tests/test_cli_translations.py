"""No English on the tables of the other languages: `canasta play --plain --lang pt` drew the
board in English (Stock, Pile, Team, Your hand…), its help and its messages too, and the input
line of the full-screen table offered "hint, help" in Romanian and Portuguese."""

from __future__ import annotations

import asyncio
import io
import re

import pytest
from rich.console import Console
from typer.testing import CliRunner

from canasta import Match, load_preset
from canasta.cli import _register as register_commands
from canasta.cli import app, render
from canasta.cli.session import Session
from canasta.cli.tui import TableApp

register_commands()
runner = CliRunner()

#: English words of the tables and their messages; none may show in another language.
ENGLISH = [
    "Stock", "Pile ", "Team", "Score", "Opening", "Canastas", "Red 3s", "Cards held",
    "Melds of", "Your hand", "no melds yet", "to canasta", "needs ", "Type help", "Bye",
    "Your partner", "players. Bots", "Hand 1", "Type the number", "draw from the stock",
    "Cannot read", "No move number", "Press Enter", "rules)", "Your turn", "Not allowed",
    "Other commands", "take the pile", "lay-off", "discard", "hint, help", "Melded",
    "you hold no", "is no move", " cards",
]


def flat(text: str) -> str:
    return " ".join(text.translate({ord(c): " " for c in "│┃╎╭╮╰╯─"}).split())


def english_in(text: str) -> list[str]:
    return [w for w in ENGLISH if w in text]


@pytest.mark.parametrize("lang", ["it", "ro", "pt"])
def test_the_plain_table_speaks_only_the_players_language(lang: str) -> None:
    lines = ["help", "table", "pile", "m 4 4 4", "99", "xx", "why", "d JK", "why", "quit"]
    result = runner.invoke(app, ["play", "--plain", "--lang", lang, "--seed", "3",
                                 "--bots", "random"], input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    text = flat(result.output)
    # the bots' specs (random) and the moves as typed (m 9 9 JK) are no English words
    assert english_in(text) == [], text


@pytest.mark.parametrize("lang", ["it", "ro", "pt"])
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_full_screen_table_speaks_only_the_players_language(
        lang: str, size: tuple[int, int]) -> None:
    match = Match(load_preset("international"), 4, seed=5)
    s = Session(match, render.seat_names(4, None, lang), [""] + ["greedy"] * 3, lang=lang)
    app_ = TableApp.in_language(lang)(s, speed=0)
    screens: list[str] = []

    def screen() -> str:
        console = Console(width=size[0], height=size[1], file=io.StringIO(), record=True,
                          color_system=None, legacy_windows=False, safe_box=False)
        console.print(app_.screen._compositor.render_update(full=True))
        return console.export_text()

    async def main() -> None:
        async with app_.run_test(size=size) as pilot:
            for _ in range(200):
                if not s.bot_to_act():
                    break
                await pilot.pause(0.01)
            await pilot.pause()
            screens.append(screen())
            prompt = app_.query_one("#prompt")
            for line in ("s", "xx", "m 4 4 4"):
                prompt.value = line  # type: ignore[attr-defined]
                await pilot.press("enter")
                await pilot.pause()
            screens.append(screen())

    asyncio.run(main())
    for text in screens:
        found = [w for w in english_in(flat(text)) if not re.search(r"\bdiscard\b", w)]
        assert found == [], text


@pytest.mark.parametrize("command", [["variants", "--details"], ["rules", "romanian"]])
@pytest.mark.parametrize("lang", ["en", "pt"])
def test_the_notes_cited_as_variants_md_are_said_to_be_outside_the_repository(
        command: list[str], lang: str) -> None:
    """`variants --details` cited variants.md 15 times, a file the repository lacks: a note
    says what it is and points to docs/rules.md, which the repository has."""
    from pathlib import Path

    result = runner.invoke(app, [*command, "--lang", lang])
    text = flat(result.output)
    assert "variants.md" in text
    assert "docs/rules.md" in text and "shared/rules/variants.md" in text
    assert (Path(__file__).parents[1] / "docs" / "rules.md").exists()
