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


def item_texts(sheet: ScoreSheet, lang: str = "en",
               penalties: Sequence[tuple[str, int, int | str | None]] = ()) -> list[str]:
    """The sheet's rows in ``lang`` (canasta.i18n ``score.*``, penalties by name as
    ``penalty.<name>``); English keeps the scorer's own labels."""
    if lang == "en" or len(sheet.codes) != len(sheet.items):
        return [label for label, _ in sheet.items]
    named = list(penalties)
    out = []
    for (label, _), (code, values) in zip(sheet.items, sheet.codes, strict=True):
        if code == "penalty" and named:
            name, count, extra = named.pop(0)
            out.append(i18n.t("score.penalty", lang, name=i18n.penalty_text(
                name, lang, count, extra)))
        elif code == "penalty":
            out.append(label)
        else:
            out.append(i18n.score_item_text(code, dict(values), lang))
    return out


def sheet_table(sheet: ScoreSheet, name: str, lang: str = "en",
                penalties: Sequence[tuple[str, int, int | str | None]] = ()) -> Table:
    """One team's itemized sheet: every row, the hand total and the match total."""
    rows = zip(item_texts(sheet, lang, penalties), (pts for _, pts in sheet.items),
               strict=True)
    return itemized_table(sheet, name, rows, lang, width=48, before_key="cli.score.before",
                          after_key="cli.score.match_total")


def print_sheets(console: Console, result: HandResult, sheets: Sequence[ScoreSheet],
                 lang: str = "en") -> None:
    for sheet in sheets:
        named = result.penalty_names[sheet.team] if result.penalty_names else ()
        console.print(sheet_table(sheet, result.names[sheet.team], lang, named))
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
