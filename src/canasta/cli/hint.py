"""``canasta hint POSITION --seat N``: the best moves of a seat in a saved position, with their
estimated values and reasons (:func:`canasta.bots.suggest`).

The position is a position file or a game record (docs/formats.md; ``-`` reads standard
input). The seat must be the one to act; by default it is. Texts come from the message
catalogues (``--lang``); ``--json`` prints the suggestions as data instead.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from canasta.bots import DEFAULT_BUDGET, Suggestion, suggest
from canasta.cli.options import check_lang
from canasta.core.actions import action_to_json
from canasta.formats.jsondoc import FormatError
from canasta.formats.records import load_position
from canasta.i18n import languages, resolve_lang, t


def suggestions_json(items: list[Suggestion], lang: str) -> list[dict[str, object]]:
    """The suggestions as plain JSON data (action text and JSON, value, reasons by key)."""
    return [{
        "action": s.action.text(),
        "action_json": action_to_json(s.action),
        "value": s.value,
        "reasons": [{"key": r.key, "params": r.params, "text": r.text(lang)}
                    for r in s.reasons],
    } for s in items]


def register(app: typer.Typer) -> None:
    """Add ``hint`` to ``app``."""

    @app.command()
    def hint(
        position: Annotated[str, typer.Argument(
            help="A position file or game record (JSON); - reads standard input.")],
        seat: Annotated[int | None, typer.Option(
            help="The seat to advise (default: the seat to act).")] = None,
        n: Annotated[int, typer.Option("--n", min=1, max=20,
                                       help="How many moves to suggest.")] = 3,
        lang: Annotated[str, typer.Option(
            callback=check_lang,
            help="Language of the reasons: " + ", ".join(languages()) + ".")] = "en",
        budget: Annotated[float, typer.Option(
            min=0.01, max=60.0, help="Seconds of search.")] = DEFAULT_BUDGET,
        iterations: Annotated[int | None, typer.Option(
            min=1, help="Sampled deals instead of a time budget (reproducible).")] = None,
        seed: Annotated[int, typer.Option(help="Seed of the sampled deals.")] = 0,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Suggest the best moves of a seat, with estimated values and reasons."""
        err = Console(stderr=True, highlight=False)
        console = Console(highlight=False)
        code = resolve_lang(lang)
        try:
            state = load_position(position)
        except FormatError as exc:
            err.print(f"[bold red]error:[/] {escape(str(exc))}")
            raise typer.Exit(2) from None
        who = state.actor if seat is None else seat
        if not 0 <= who < state.players or state.is_over or who != state.actor:
            err.print("[bold red]error:[/] " + escape(t(
                "hint.not_to_act", code, seat=who,
                actor="-" if state.is_over else state.actor)))
            raise typer.Exit(2)
        items = suggest(state.view(who), n, budget, seed=seed, iterations=iterations)
        if as_json:
            console.print_json(json.dumps(suggestions_json(items, code)))
            return
        table = Table(title=t("hint.title", code, seat=who), title_justify="left")
        table.add_column("#", justify="right")
        table.add_column(t("hint.move", code))
        table.add_column(t("hint.value", code), justify="right")
        table.add_column(t("hint.reasons", code))
        for i, item in enumerate(items, 1):
            table.add_row(str(i), escape(item.action.text()), f"{item.value:+.0f}",
                          escape("\n".join(r.text(code) for r in item.reasons)))
        console.print(table)
