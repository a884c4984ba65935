"""``canasta review RECORD``: every decision of one seat in a game record, valued by the
expert's search, with the three best moves, the loss and its mark, and each hand's result
split into the luck of the cards and the play (:mod:`canasta.sim.review`).

Texts come from the message catalogues (``--lang``); ``--json`` prints the review as data
(docs/bots.md, "Reviewing a hand"). The position before every marked decision is written to a
position file (``--positions DIR``), with the ``canasta play --from`` command that plays on
from there.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from canasta.formats.jsondoc import FormatError
from canasta.formats.position import position_to_dict
from canasta.formats.records import read_record
from canasta.i18n import languages, resolve_lang, t, variant_name
from canasta.sim.review import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    Decision,
    HandReview,
    MoveValue,
    Review,
    review_record,
    review_to_json,
)

#: Which decisions get a position file: ``marked`` (an inaccuracy or worse), ``all``, ``none``.
POSITIONS = ("marked", "all", "none")
_STYLE = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}


def _signed(x: float) -> str:
    return f"{x:+.0f}"


def mark_text(mark: str | None, lang: str) -> str:
    """A mark in ``lang`` (empty for none)."""
    return t(f"review.mark.{mark}", lang) if mark else ""


def points_text(mv: MoveValue, lang: str) -> str:
    """A move's points (``+233``), or why it has none."""
    return t("review.not_searched", lang) if mv.points is None else _signed(mv.points)


def win_text(mv: MoveValue) -> str:
    """A move's match-win chance (``54%``; ``-`` where not estimated)."""
    return "-" if mv.win is None else f"{mv.win:.0%}"


def position_name(d: Decision) -> str:
    """The file name of a decision's position: ``hand1-action12.json``."""
    return f"hand{d.hand + 1}-action{d.index + 1}.json"


def write_positions(review: Review, folder: Path, which: str) -> dict[tuple[int, int], Path]:
    """Write the position before each decision ``which`` names (:data:`POSITIONS`) to
    ``folder`` (created); returns the paths by (hand, action index).

    Raises:
        OSError: the folder or a file cannot be written.
    """
    out: dict[tuple[int, int], Path] = {}
    if which == "none":
        return out
    for hand in review.hands:
        for d in hand.decisions:
            if which == "marked" and d.mark is None:
                continue
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / position_name(d)
            doc = position_to_dict(d.state)
            doc["hand"] = d.hand + 1  # which hand of the match (canasta play --from heads with it)
            path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", "utf-8")
            out[(d.hand, d.index)] = path
    return out


def play_command(path: Path) -> str:
    """The command that plays on from a position file."""
    text = str(path)
    return f"canasta play --from {text if ' ' not in text else repr(text)}"


def hand_table(review: Review, hand: HandReview, lang: str, marked: bool = False) -> Table:
    """The decisions of a hand, one section each: the action's number in the hand, the best
    moves by their place with their points (and match-win chances where estimated), the
    played one starred (listed after them at its own place when it is not one of them), the
    loss and the mark; ``marked``: only the decisions with a mark."""
    win = review.win_estimated
    table = Table(title=t("review.hand", lang, n=hand.hand + 1), title_justify="left",
                  caption=t("review.caption", lang), caption_justify="left")
    table.add_column(t("review.col.action", lang), justify="right")
    table.add_column(t("review.col.moves", lang), no_wrap=True)
    table.add_column(t("review.col.points", lang), justify="right")
    if win:
        table.add_column(t("review.col.win", lang), justify="right")
    table.add_column(t("review.col.loss", lang), justify="right")
    table.add_column(t("review.col.mark", lang))
    shown = [d for d in hand.decisions if d.mark is not None or not marked]
    for k, d in enumerate(shown):
        if k:
            table.add_section()
        rows = [(i, mv) for i, mv in enumerate(d.best, 1)]
        if all(mv.action != d.played.action for _, mv in rows):
            rows.append((d.rank, d.played))
        style = _STYLE.get(d.mark or "", "")
        for j, (place, mv) in enumerate(rows):
            star = " *" if mv.action == d.played.action else ""
            cells: list[str | Text] = [str(d.index + 1) if j == 0 else "",
                                       Text(f"{place}. {mv.action.text()}{star}",
                                            style="bold" if star else ""),
                                       points_text(mv, lang)]
            if win:
                cells.append(win_text(mv))
            cells += [Text(f"{d.loss:.0f}", style=style) if j == 0 else "",
                      Text(mark_text(d.mark, lang), style=style) if j == 0 else ""]
            table.add_row(*cells)
    return table


def seat_name(review: Review, lang: str, with_seat: bool = False) -> str:
    """The reviewed seat's name in the record (``seat N`` in ``lang`` when it has none);
    ``with_seat`` adds the seat to a name (``Ann (seat 0)``)."""
    name = review.names[review.seat]
    seat = t("review.seat", lang, n=review.seat)
    if name == f"seat {review.seat}":
        return seat
    return f"{name} ({seat})" if with_seat else name


def why_lines(d: Decision, lang: str) -> list[str]:
    """A marked decision in words: the move played and the best one, with what each does
    (the hints' reasons)."""
    best = max((mv for mv in d.best if mv.action != d.played.action),
               key=lambda mv: mv.lead, default=d.played)
    out = [t("review.why", lang, action=d.index + 1, mark=mark_text(d.mark, lang),
             loss=f"{d.loss:.0f}")]
    for key, mv in (("review.why_played", d.played), ("review.why_best", best)):
        reasons = " ".join(r.text(lang) for r in mv.reasons)
        out.append("  " + t(key, lang, move=mv.action.text(), reasons=reasons,
                            lead=_signed(mv.lead)).rstrip())
    return out


def account_lines(review: Review, hand: HandReview, lang: str) -> list[str]:
    """The hand's result split into luck and play, and the decisions' summary."""
    a = hand.account
    name = seat_name(review, lang)
    out = [t("review.account", lang, result=_signed(a.result), luck=_signed(a.luck),
             deal=_signed(a.deal), draws=_signed(a.draws), play=_signed(a.play),
             side=_signed(a.side), others=_signed(a.others), name=name)]
    out.append(t(f"review.account_value.{a.value}", lang))
    if not a.finished:
        out.append(t("review.account_unfinished", lang))
    marks = hand.marks()
    out.append(t("review.summary", lang, count=len(hand.decisions), loss=f"{hand.loss:.0f}",
                 blunders=marks["blunder"], mistakes=marks["mistake"],
                 inaccuracies=marks["inaccuracy"]))
    return out


def header_lines(review: Review, lang: str) -> list[str]:
    """The review's title, its search settings, the thresholds and the win-chance note."""
    out = [t("review.title", lang, name=seat_name(review, lang, True),
             variant=variant_name(review.variant, lang), players=review.players)]
    if review.iterations is not None:
        out.append(t("review.settings_iterations", lang, deals=review.iterations,
                     seed=review.seed))
    else:
        out.append(t("review.settings_budget", lang, budget=f"{review.budget:g}",
                     seed=review.seed))
    out.append(t("review.thresholds", lang, inaccuracy=f"{INACCURACY:.0f}",
                 mistake=f"{MISTAKE:.0f}", blunder=f"{BLUNDER:.0f}"))
    if review.win_estimated:
        out.append(t("review.win_note", lang))
    else:
        out.append(t("review.win_none", lang, variant=variant_name(review.variant, lang),
                     players=review.players))
    return out


def print_review(review: Review, console: Console, lang: str,
                 positions: dict[tuple[int, int], Path], marked: bool = False) -> None:
    """The review as tables and lines (``console``); ``marked``: the tables list only the
    marked decisions."""
    for i, line in enumerate(header_lines(review, lang)):
        console.print(Text(line, style="bold" if i == 0 else "dim" if i > 1 else ""),
                      soft_wrap=True)
    for hand in review.hands:
        console.print()
        if hand.decisions and (not marked or any(d.mark for d in hand.decisions)):
            console.print(hand_table(review, hand, lang, marked))
        elif hand.decisions:
            console.print(Text(t("review.hand", lang, n=hand.hand + 1), style="bold"))
        else:
            console.print(Text(t("review.hand", lang, n=hand.hand + 1), style="bold"))
            console.print(t("review.no_decisions", lang, name=seat_name(review, lang)))
        for line in account_lines(review, hand, lang):
            console.print(Text(line), soft_wrap=True)
        for d in hand.decisions:
            path = positions.get((d.hand, d.index))
            if d.mark is None and path is None:
                continue
            console.print()
            if d.mark is not None:
                for line in why_lines(d, lang):
                    console.print(Text(line), soft_wrap=True)
            if path is not None:
                console.print(Text(t("review.play_on", lang, action=d.index + 1,
                                     command=play_command(path)), style="cyan"),
                              soft_wrap=True)
        if positions and review.seat != 0 and any(
                (d.hand, d.index) in positions for d in hand.decisions):
            console.print(Text(t("review.play_on_seat", lang, seat=review.seat), style="dim"),
                          soft_wrap=True)


def _json(review: Review, positions: dict[tuple[int, int], Path]) -> dict[str, Any]:
    doc = review_to_json(review)
    for hand, raw in zip(review.hands, doc["hands"], strict=True):
        for d, entry in zip(hand.decisions, raw["decisions"], strict=True):
            path = positions.get((d.hand, d.index))
            entry["position"] = str(path) if path is not None else None
    return doc


def default_folder(record: str) -> Path:
    """Where the positions go by default: ``game-review/`` beside ``game.json``."""
    if record == "-":
        return Path("review-positions")
    path = Path(record)
    return path.with_name(path.stem + "-review")


def register(app: typer.Typer) -> None:
    """Add ``review`` to ``app``."""

    @app.command()
    def review(
        record: Annotated[str, typer.Argument(help="A game record (JSON); - reads standard "
                                                   "input.")],
        seat: Annotated[int, typer.Option(help="The seat whose decisions are reviewed.")] = 0,
        hand: Annotated[int | None, typer.Option(
            min=1, help="Review only this hand (1 = the first; default every hand).")] = None,
        lang: Annotated[str, typer.Option(
            help="Language of the review: " + ", ".join(languages()) + ".")] = "en",
        budget: Annotated[float, typer.Option(
            min=0.01, max=600.0, help="Seconds of search per decision.")] = 1.0,
        iterations: Annotated[int | None, typer.Option(
            min=1, help="Sampled deals per decision instead of a time budget "
                        "(reproducible).")] = None,
        seed: Annotated[int, typer.Option(help="Seed of the sampled deals and play-outs.")] = 0,
        positions: Annotated[str, typer.Option(
            help="Which decisions get a position file to play on from: marked, all or "
                 "none.")] = "marked",
        folder: Annotated[Path | None, typer.Option(
            "--positions-dir", help="Folder of the position files (default: RECORD's name "
                                    "with -review, beside it).")] = None,
        marked: Annotated[bool, typer.Option(
            "--marked", help="List only the decisions marked inaccuracy or worse.")] = False,
        as_json: Annotated[bool, typer.Option("--json", help="Print the review as JSON.")
                           ] = False,
    ) -> None:
        """Review a seat's decisions: the best moves, the points lost and the luck of the
        cards."""
        code = resolve_lang(lang)
        console = Console(highlight=False)
        err = Console(stderr=True, highlight=False)

        def fail(message: str) -> typer.Exit:
            err.print(Text(t("review.error", code, message=message), style="bold red"),
                      soft_wrap=True)
            return typer.Exit(2)

        if positions not in POSITIONS:
            raise fail(f"--positions: expected one of {', '.join(POSITIONS)}, not {positions!r}")
        try:
            data, name = read_record(record)
            columns = (TextColumn(t("review.progress", code)), BarColumn(),
                       MofNCompleteColumn(), TextColumn(t("review.decisions", code)),
                       TimeElapsedColumn())
            with Progress(*columns, console=err, transient=True) as bar:
                task = bar.add_task("decisions", total=None)

                def advance(done: int, total: int) -> None:
                    bar.update(task, completed=done, total=total)

                result = review_record(data, name, seat,
                                       hands=None if hand is None else [hand - 1],
                                       budget=budget, iterations=iterations, seed=seed,
                                       progress=advance)
        except FormatError as exc:
            raise fail(str(exc)) from None
        except ValueError as exc:
            raise fail(str(exc)) from None
        try:
            written = write_positions(result, folder or default_folder(record), positions)
        except OSError as exc:
            raise fail(f"cannot write the positions: {exc.strerror or exc}") from None
        if as_json:
            typer.echo(json.dumps(_json(result, written), ensure_ascii=False, indent=1,
                                  allow_nan=False))
            return
        print_review(result, console, code, written, marked)
