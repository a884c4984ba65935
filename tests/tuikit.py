"""Driving the full-screen table (src/canasta/cli/tui.py) headless with Textual's pilot, for
tests/test_cli_tui*.py: a session against bots, the screen as text (and, with
CANASTA_SHOTS=DIR, an SVG and a text screenshot of each screen), typed lines, a hand played out.
"""

from __future__ import annotations

import asyncio
import io
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from textual.pilot import Pilot

from canasta import Match, load_preset
from canasta.cli import render
from canasta.cli.session import Session
from canasta.cli.tui import TableApp
from canasta.core.actions import Discard, Draw


def screen_text(app: TableApp) -> list[str]:
    """The screen as plain text lines, exactly as drawn."""
    console = Console(width=app.size.width, height=app.size.height, file=io.StringIO(),
                      record=True, color_system=None, legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text().rstrip("\n").split("\n")


def shot(app: TableApp, name: str) -> list[str]:
    lines = screen_text(app)
    folder = os.environ.get("CANASTA_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        app.save_screenshot(f"{name}.svg", folder)
        Path(folder, f"{name}.txt").write_text("\n".join(lines) + "\n", "utf-8")
    return lines


def new_session(variant: str = "international", seed: int = 5, players: int = 4,
                **kw: Any) -> Session:
    match = Match(load_preset(variant), players, seed=seed)
    kinds = [""] + ["greedy"] * (players - 1)
    return Session(match, render.seat_names(players), kinds, **kw)


def drive(app: TableApp, size: tuple[int, int],
          script: Callable[[Pilot[None]], Awaitable[None]]) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())


async def typed(pilot: Pilot[None], line: str) -> None:
    app = pilot.app
    prompt = app.query_one("#prompt")
    prompt.value = line  # type: ignore[attr-defined]
    await pilot.press("enter")
    await pilot.pause()


async def until_human(pilot: Pilot[None], session: Session) -> None:
    for _ in range(200):
        if not session.bot_to_act():
            return
        await pilot.pause(0.01)
    raise AssertionError("the bots did not hand over")


def play_out(s: Session) -> None:
    """Play the hand to its end through the session (the person draws and discards)."""
    while not s.state.is_over:
        if s.bot_to_act():
            s.play_bot()
            continue
        view = s.view
        if Draw() in view.legal_actions:
            s.play(Draw())
        else:
            s.play(next((a for a in view.legal_actions if isinstance(a, Discard)),
                        view.legal_actions[0]))
