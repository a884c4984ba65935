"""``canasta score``: the scorepad. The itemized score of a hand typed in from a real table.

``canasta score FILE`` (``-`` for standard input) reads a hand result (docs/formats.md) and
prints each team's sheet (every canasta bonus, red threes, going out, melded points, hand points,
doubling, penalties), the hand total and the new match total; ``--json`` prints the same as JSON.
``canasta score --interactive`` asks for the table a team at a time, as a scorekeeper would
enter it, and keeps the match sheet across hands. No rule lives here: the hand result reader
checks the table against the rules and :func:`canasta.scoring.score_hand` scores it.
"""


from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from canasta import i18n
from canasta.cli.options import check_lang, check_save_path
from canasta.cli.scorepad import Scorepad
from canasta.cli.sheets import item_texts, print_sheets, sheet_table
from canasta.core.rules import RulesError, load_preset, parse_rule_args
from canasta.formats.handresult import (
    load_hand_result,
    sheets_to_json,
)
from canasta.formats.jsondoc import FormatError


def score_file(path: str, as_json: bool, console: Console, err: Console,
               lang: str = "en") -> int:
    """Score one hand result file; 0, or 2 after printing the error."""
    try:
        result = load_hand_result(path)
    except FormatError as exc:
        err.print(f"[bold red]error:[/] {exc}", highlight=False, soft_wrap=True)
        return 2
    sheets = result.score()
    if as_json:
        sys.stdout.write(json.dumps(sheets_to_json(result, sheets), indent=1,
                                    ensure_ascii=False) + "\n")
    else:
        console.print(Text(i18n.t("cli.score.header", lang,
                                  variant=i18n.variant_name(result.rules.name, lang)
                                  if lang != "en" else result.rules.name,
                                  players=result.players), style="bold"))
        print_sheets(console, result, sheets, lang)
    return 0


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""

    @app.command()
    def score(
        file: Annotated[str | None, typer.Argument(
            help="A hand result (JSON, docs/formats.md); - reads standard input.")] = None,
        as_json: Annotated[bool, typer.Option(
            "--json", help="Print per team items, hand_total and score_after as JSON.")] = False,
        interactive: Annotated[bool, typer.Option(
            "--interactive", "-i", help="Ask for the table a team at a time and keep the "
                                        "match sheet across hands.")] = False,
        variant: Annotated[str | None, typer.Option(
            help="Rule set for --interactive (asked when left out).")] = None,
        rule: Annotated[list[str] | None, typer.Option(
            "--rule", help="House rule name=value for --interactive (repeatable).")] = None,
        players: Annotated[int | None, typer.Option(
            help="Players for --interactive (asked when left out).")] = None,
        lang: Annotated[str, typer.Option(
            callback=check_lang,
            help="Language of the score sheet: " + ", ".join(i18n.languages()) + ".")] = "en",
        teams: Annotated[str | None, typer.Option(
            help="Team names for --interactive, comma-separated (Team 1, Team 2 ...).")
        ] = None,
        sheet: Annotated[Path | None, typer.Option(
            callback=check_save_path,
            help="The match sheet file of --interactive: reopened when it exists, saved "
                 "after every hand.")] = None,
    ) -> None:
        """Score a finished hand: every bonus, penalty and total, itemized per team."""
        console = Console(highlight=False)
        err = Console(stderr=True, highlight=False)
        if interactive:
            rules = None
            names = [n.strip() for n in teams.split(",")] if teams else None
            if variant is not None or rule:
                try:
                    rules = load_preset(variant or "international", parse_rule_args(rule))
                except RulesError as exc:
                    err.print(f"[bold red]error:[/] {exc}", highlight=False, soft_wrap=True)
                    raise typer.Exit(2) from None
            try:
                code = Scorepad(rules, players, console, lang=i18n.resolve_lang(lang),
                                names=names, sheet=sheet).run()
            except FormatError as exc:
                err.print(f"[bold red]error:[/] {exc}", highlight=False, soft_wrap=True)
                raise typer.Exit(2) from None
            raise typer.Exit(code)
        if file is None:
            err.print("[bold red]error:[/] name a hand result file (or - for standard input), "
                      "or use --interactive", highlight=False)
            raise typer.Exit(2)
        code = score_file(file, as_json, console, err, i18n.resolve_lang(lang))
        if code:
            raise typer.Exit(code)


__all__ = ["Scorepad", "item_texts", "print_sheets", "register", "score_file", "sheet_table"]
