"""The itemized score sheets of ``canasta score`` and its scorepad, as Rich tables in the
scorekeeper's language (rows from the score items' codes, canasta.i18n ``score.*``)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from canasta import i18n
from canasta.cli.render import itemized_table
from canasta.core.scoring import ScoreSheet
from canasta.formats.handresult import (
    HandResult,
)


def item_texts(sheet: ScoreSheet, lang: str = "en") -> list[str]:
    """The sheet's rows in ``lang`` (canasta.i18n ``score.*``, from the items' codes; a
    penalty by its code as ``penalty.<code>``); English keeps the sheet's own labels."""
    if lang == "en" or len(sheet.codes) != len(sheet.items):
        return [label for label, _ in sheet.items]
    return [i18n.score_item_text(code, dict(values), lang) for code, values in sheet.codes]


def sheet_table(sheet: ScoreSheet, name: str, lang: str = "en") -> Table:
    """One team's itemized sheet: every row, the hand total and the match total."""
    rows = zip(item_texts(sheet, lang), (pts for _, pts in sheet.items), strict=True)
    return itemized_table(sheet, name, rows, lang, width=48, before_key="cli.score.before",
                          after_key="cli.score.match_total")


def print_sheets(console: Console, result: HandResult, sheets: Sequence[ScoreSheet],
                 lang: str = "en") -> None:
    for sheet in sheets:
        console.print(sheet_table(sheet, result.names[sheet.team], lang))
    summary = Table(title=i18n.t("cli.score.summary", lang), title_justify="left", min_width=48)
    summary.add_column(i18n.t("cli.score.team", lang))
    summary.add_column(i18n.t("ui.hand", lang), justify="right")
    summary.add_column(i18n.t("cli.score.match_total", lang), justify="right")
    target = result.rules.target(result.players)
    for sheet in sheets:
        total = Text(str(sheet.score_after))
        if sheet.score_after >= target:
            total.append(i18n.t("cli.score.reached", lang, target=target), style="bold green")
        summary.add_row(result.names[sheet.team], f"{sheet.hand_total:+d}", total)
    console.print(summary)
