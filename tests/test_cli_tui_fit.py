"""The full-screen table at 80×24, 100×30 and 160×48 with 2, 4 and 6 players: no text is cut.
At 100×30 the players' moves were cut ("West takes the discard pile: 7♥ w…") beside an empty
half of the screen; at 80×24 the hints' reasons were cut; with six players a side's line ran
into the border and the title lost the stock.

Each screen is played a few turns in, then every panel is checked: its text needs no more
lines than the panel has (none is clipped below), no line is cut short with "…" (the menu's
"… N more lines: type help" says where the rest is), no line of the melds runs into the
players' border, and the title keeps its last item, the stock. Set CANASTA_SHOTS=DIR to keep an
SVG and a text screenshot of each screen.
"""

from __future__ import annotations

import asyncio
import io
import os
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import Static

from canasta import Match, load_preset
from canasta.cli import moves, render
from canasta.cli.session import Reply, Session
from canasta.cli.tui import TableApp, fit_hint
from canasta.core.actions import Discard, Draw

SIZES = [(80, 24), (100, 30), (160, 48)]
GAMES = [("international", 2), ("international", 4), ("classic_italian", 6)]


def screen_text(app: TableApp) -> list[str]:
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True,
                      color_system=None, legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text().rstrip("\n").split("\n")


def problems(app: TableApp, lines: list[str]) -> list[str]:
    """What is cut on the screen, in words (empty: nothing)."""
    out = []
    for widget in app.query(Static):
        if not widget.id or not widget.display:
            continue
        size = widget.content_size
        need = widget.get_content_height(app.size, app.size, size.width)
        if need > size.height and widget.id != "melds":  # the melds pane scrolls
            out.append(f"#{widget.id} needs {need} lines, has {size.height}")
    for i, line in enumerate(lines):
        text = line.rstrip()
        if "…" in text and not text.lstrip().startswith("… ") and not text.endswith(" …"):
            out.append(f"line {i} is cut: {text!r}")
        border = line.find("▏")
        if border > 0 and line[border - 1] != " ":
            out.append(f"line {i} runs into the border: {text!r}")
    stock = str(app.session.view.stock_size)
    if not lines[0].rstrip().endswith(stock):
        out.append(f"the title lost the stock: {lines[0]!r}")
    return out


def shot(app: TableApp, name: str) -> list[str]:
    lines = screen_text(app)
    folder = os.environ.get("CANASTA_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        app.save_screenshot(f"{name}.svg", folder)
        Path(folder, f"{name}.txt").write_text("\n".join(lines) + "\n", "utf-8")
    return lines


@pytest.mark.parametrize("lang", ["en", "pt"])
@pytest.mark.parametrize(("variant", "players"), GAMES, ids=[f"{p}p" for _, p in GAMES])
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_no_text_is_cut_on_the_table(size: tuple[int, int], variant: str, players: int,
                                     lang: str) -> None:
    match = Match(load_preset(variant), players, seed=11)
    s = Session(match, render.seat_names(players, None, lang),
                [""] + ["greedy"] * (players - 1), lang=lang)
    app = TableApp.in_language(lang)(s, speed=0)
    found: list[str] = []

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            for turn in range(4):
                for _ in range(300):
                    if not s.bot_to_act():
                        break
                    await pilot.pause(0.01)
                if s.state.is_over:
                    break
                await pilot.pause()
                await pilot.pause()
                lines = shot(app, f"fit-{variant}-{players}p-{size[0]}x{size[1]}-{lang}-{turn}")
                found.extend(f"turn {turn}: {p}" for p in problems(app, lines))
                legal = s.view.legal_actions
                action = Draw() if Draw() in legal else next(
                    a for a in legal if isinstance(a, Discard))
                prompt = app.query_one("#prompt")
                prompt.value = moves.short_text(action)  # type: ignore[attr-defined]
                await pilot.press("enter")
                await pilot.pause()

    asyncio.run(main())
    assert found == []


def test_a_long_hint_gives_up_whole_sentences_not_words() -> None:
    line = ("2. d Kc  (+30 points) — Keeps the pair of queens. The discard is safe: "
            "nobody melds kings.")
    assert fit_hint(line, 200) == line
    assert fit_hint(line, 60) == "2. d Kc  (+30 points) — Keeps the pair of queens."
    assert fit_hint(line, 30) == "2. d Kc  (+30 points)"
    assert "…" not in fit_hint(line, 10)


def test_the_hints_at_80x24_are_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hints with long reasons at 80×24: shown without a cut word."""
    match = Match(load_preset("international"), 4, seed=5)
    s = Session(match, render.seat_names(4, None, "ro"), [""] + ["greedy"] * 3, lang="ro")
    app = TableApp.in_language("ro")(s, speed=0)
    long = ("Păstrează perechea de dame pentru o etalare viitoare. Decartarea este sigură: "
            "nimeni nu a etalat regi și teancul rămâne mic.")

    def hint(self: Session, n: int = 3) -> Reply:
        acts = tuple(self.view.legal_actions[:3])
        return Reply("info", [f"{i}. {moves.short_text(a)}  (+{10 * i} puncte) — {long}"
                              for i, a in enumerate(acts, 1)], choices=acts)

    monkeypatch.setattr(Session, "hint", hint)
    lines: list[str] = []

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(300):
                if not s.bot_to_act():
                    break
                await pilot.pause(0.01)
            prompt = app.query_one("#prompt")
            prompt.value = "s"  # type: ignore[attr-defined]
            await pilot.press("enter")  # drawn: several moves to hint at
            await pilot.pause()
            await pilot.press("f4")
            for _ in range(50):
                await pilot.pause(0.02)
                if app.hints is not None:
                    break
            await pilot.pause()
            lines.extend(shot(app, "fit-hints-80x24-ro"))

    asyncio.run(main())
    text = "\n".join(lines)
    hints = [line.rstrip() for line in lines if line[:3] in ("1. ", "2. ", "3. ")]
    assert [h[:2] for h in hints] == ["1.", "2.", "3."], text
    assert not any(h.endswith("…") for h in hints), text
    assert all(h.endswith(("puncte)", ".")) for h in hints), text  # whole sentences
