"""Screenshots of the full-screen table (`canasta play`) for checking by eye: SVG and text of
a few variants and player counts at 80x24, played a few turns by a simple policy.

    python tools/tui_shots.py OUTDIR        (e.g. /tmp/term-shots)
"""

from __future__ import annotations

import asyncio
import io
import sys
from pathlib import Path

from rich.console import Console

from canasta import Match, load_preset
from canasta.cli import render
from canasta.cli.session import Session
from canasta.cli.tui import TableApp
from canasta.core.actions import Discard, Draw

CASES = [("romanian", 4, 2, 0), ("canastone", 6, 4, 3), ("international", 2, 3, 6),
         ("brazilian", 4, 5, 8), ("classic_italian", 4, 6, 12)]


def text_of(app: TableApp) -> str:
    console = Console(width=app.size.width, height=app.size.height, file=io.StringIO(),
                      record=True, color_system=None, legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text()


async def one(out: Path, variant: str, players: int, seed: int, turns: int) -> None:
    match = Match(load_preset(variant), players, seed=seed)
    s = Session(match, render.seat_names(players), [""] + ["medium"] * (players - 1))
    for _ in range(turns):  # the person draws and discards the first card, a few times
        while s.bot_to_act():
            s.play_bot()
        if s.state.is_over:
            break
        if Draw() in s.view.legal_actions:
            s.play(Draw())
        s.play(next(a for a in s.view.legal_actions if isinstance(a, Discard)))
    while s.bot_to_act():
        s.play_bot()
    app = TableApp(s, speed=0, style=render.CardStyle(symbols=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        name = f"{variant}-{players}p"
        (out / f"{name}.txt").write_text(text_of(app), "utf-8")
        app.save_screenshot(f"{name}.svg", str(out))


if __name__ == "__main__":
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/term-shots")
    folder.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        asyncio.run(one(folder, *case))
    print(f"written to {folder}")
