"""``canasta replay`` and ``canasta position``: step through a saved game, check its scores, and
print the position of a saved game as JSON.

``canasta replay RECORD`` shows every hand of a game record action by action, the table from one
seat's view (``--seat``) or with every hand open; interactively it waits for a key after each
step, otherwise it prints it all. ``--check`` replays every hand and confirms the recorded score
sheets, exiting 1 on a mismatch; ``--verify-deal`` checks that each hand's revealed deal
secrets hash to the commitment published before it and shuffle to its deck, exiting 1 when
one does not. ``canasta position FILE`` prints the current position of a
saved game (a record or a position file), or the one after a given hand and action.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from canasta.cli.options import check_lang
from canasta.core.cards import card_text, cards_of, rank_text
from canasta.core.melds import classify_meld
from canasta.core.scoring import ScoreSheet
from canasta.core.state import Phase, State
from canasta.formats.jsondoc import FormatError
from canasta.formats.position import position_to_dict, read_document
from canasta.formats.records import (
    Step,
    check_record,
    read_record,
    record_state_at,
    record_to_match,
    replay_steps,
    state_from_document,
)
from canasta.i18n import languages

Reader = Callable[[str], str]


def _cards(cards: list[int] | tuple[int, ...]) -> str:
    return " ".join(card_text(c) for c in cards) if cards else "-"


def table_text(state: State, seat: int | None, names: list[str]) -> Text:
    """The table in a few lines: every hand open (``seat`` None) or as ``seat`` sees it."""
    out = Text()
    top = card_text(state.pile[-1]) if state.pile else "empty"
    flags = []
    if state.pile_frozen:
        flags.append("frozen")
    if state.provisional:
        flags.append(f"opening in progress: {state.opening_points} points")
    out.append(f"    stock {len(state.stock)}  pile {len(state.pile)} (top {top})"
               + (f" [{', '.join(flags)}]" if flags else "") + "\n", style="dim")
    size = state.rules.melds.canasta_size
    for t, seats in enumerate(state.teams):
        members = " & ".join(names[s] for s in seats)
        line = Text(f"    {members}: ")
        line.append("open" if state.opened[t] else f"needs {state.opening_minimum(t)}",
                    style="green" if state.opened[t] else "yellow")
        if state.red_threes[t]:
            line.append(f"; red threes {_cards(state.red_threes[t])}")
        out.append_text(line)
        out.append("\n")
        for key, meld in state.melds[t].items():
            kind = classify_meld(meld, state.rules)
            label = rank_text(key) if key < 100 else "run"
            mark = f" <{kind.label}>" if kind is not None and len(meld) >= size else ""
            out.append(f"      {label:>2}: {_cards(meld)}{mark}\n")
    for s in range(state.players):
        if seat is None or s == seat:
            out.append(f"    {names[s]}: {_cards(cards_of(state.hands[s]))}\n")
        else:
            out.append(f"    {names[s]}: {state.hand_size[s]} cards\n", style="dim")
    return out


def sheets_text(sheets: list[ScoreSheet], names: list[str]) -> Text:
    out = Text()
    for sheet in sheets:
        items = ", ".join(f"{label} {pts:+d}" for label, pts in sheet.items)
        out.append(f"    {names[sheet.team]}: {sheet.hand_total:+d} -> {sheet.score_after}",
                   style="bold")
        out.append(f"  ({items})\n", style="dim")
    return out


class Replayer:
    """Shows the steps of a replay; interactive when ``read`` is given.

    Keys at the prompt: Enter the next step, ``n`` the next hand, ``c`` to the end without
    stopping, a seat number to look from that seat, ``a`` all hands open, ``q`` to quit.
    """

    def __init__(self, console: Console, seat: int | None, read: Reader | None,
                 hand: int | None) -> None:
        self.console = console
        self.seat = seat
        self.read = read
        self.only_hand = hand
        self.skip_hand: int | None = None
        self.current_hand: int | None = None
        self.players = 4  # the record's, once its first deal is read

    def run(self, data: Any, source: str) -> int:
        names: list[str] = []
        last_hand = -1
        match = None
        for step in replay_steps(data, source):
            match = step.match
            self.players = match.players
            if not names:
                raw = data.get("names") if isinstance(data, dict) else None
                names = (list(raw) if isinstance(raw, list) and len(raw) == match.players
                         else [f"seat {i}" for i in range(match.players)])
                names = [n if n == f"seat {i}" else f"{n} (seat {i})"
                         for i, n in enumerate(names)]
            if step.hand != last_hand and last_hand >= 0:
                self.end_of_hand(match.hands[last_hand].sheets, names, last_hand)
            last_hand = step.hand
            if self.only_hand is not None and step.hand != self.only_hand:
                continue
            if self.skip_hand == step.hand:
                continue
            self.current_hand = step.hand
            self.show(step, names)
            if not self.pause():
                return 0
        if match is not None and last_hand >= 0:
            self.end_of_hand(match.hands[last_hand].sheets, names, last_hand)
        return 0

    def end_of_hand(self, sheets: list[ScoreSheet], names: list[str], hand: int) -> None:
        if self.only_hand is not None and hand != self.only_hand:
            return
        if sheets:
            self.console.print(Text(f"  Hand {hand + 1} scores:", style="bold"))
            self.console.print(sheets_text(sheets, names), end="")

    def show(self, step: Step, names: list[str]) -> None:
        state = step.match.state
        if step.action < 0:
            rec = step.match.hands[step.hand]
            how = "from a saved position" if rec.start is not None else "dealt"
            self.console.rule(f"Hand {step.hand + 1}: dealer {names[rec.dealer]}, {how}, "
                              f"scores {' / '.join(map(str, rec.scores_before))}")
        else:
            assert step.seat is not None
            line = Text(f"  {step.action + 1:>3}. {names[step.seat]}: ", style="bold")
            line.append(step.text, style="cyan")
            self.console.print(line)
        self.console.print(table_text(state, self.seat, names), end="")
        if state.phase is Phase.OVER and step.action >= 0:
            self.console.print(Text(f"  The hand ends: {state.end_reason.replace('_', ' ')}",
                                    style="bold"))

    def pause(self) -> bool:
        """Wait for a key when interactive; False to stop."""
        if self.read is None:
            return True
        while True:
            try:
                key = self.read(escape(f"  [Enter] next, n next hand, c continue, "
                                       f"0-{self.players - 1} seat, a all hands, q quit: "
                                       )).strip().lower()
            except EOFError:
                return False
            if key == "":
                return True
            if key == "q":
                return False
            if key == "c":
                self.read = None
                return True
            if key == "n":
                self.skip_hand = self.current_hand
                return True
            if key == "a":
                self.seat = None
                return True
            if key.isdigit() and int(key) < self.players:
                self.seat = int(key)
                return True


def check(data: Any, source: str, console: Console) -> int:
    """``replay --check``: 0 when every recorded score replays, 1 on a mismatch."""
    problems = check_record(data, source)
    hands = data["hands"]
    for i, hand in enumerate(hands):
        sheets = hand.get("sheets") or []
        totals = ", ".join(f"{s.get('hand_total'):+d} -> {s.get('score_after')}" for s in sheets
                           if isinstance(s.get("hand_total"), int))
        bad = [p for p in problems if p.startswith(f"hand {i + 1}:")
               or p.startswith(f"hand {i + 1},")]
        mark = Text("mismatch", style="bold red") if bad else Text("ok", style="green")
        line = Text(f"hand {i + 1}: ")
        line.append_text(mark)
        line.append(f"  {totals or 'no score recorded'}")
        console.print(line)
    for p in problems:
        console.print(Text(f"  {p}", style="red"))
    if problems:
        console.print(Text(f"{source}: {len(problems)} mismatch"
                           f"{'es' if len(problems) != 1 else ''}", style="bold red"),
                      soft_wrap=True)
        return 1
    console.print(Text(f"{source}: all {len(hands)} hand{'s' if len(hands) != 1 else ''} "
                       "replay to the recorded scores", style="bold green"))
    return 0


def verify_deals(data: Any, source: str, console: Console) -> int:
    """``--verify-deal``: each hand's deal against its commitment; 1 when one fails or no
    hand carries a committed deal, else 0."""
    from canasta.formats.dealcheck import check_deals

    checks = check_deals(data, source)
    for c in checks:
        line = Text(f"hand {c.hand + 1}: ")
        if c.commitment is None:
            line.append("no committed deal (nothing to verify)", style="yellow")
        elif c.problems:
            line.append("FAILS", style="bold red")
            line.append(f" commitment {c.commitment}")
        else:
            line.append("verified", style="green")
            line.append(f": commitment {c.commitment} published before the hand; the "
                        "revealed seed hashes to it and deals this deck")
        console.print(line, soft_wrap=True)
        for p in c.problems:
            console.print(Text(f"  {p}", style="red"), soft_wrap=True)
    bad = sum(1 for c in checks if c.problems)
    good = sum(1 for c in checks if c.verified)
    if bad or not good:
        console.print(Text(f"{source}: {bad} deal{'s' if bad != 1 else ''} fail, "
                           f"{good} verified", style="bold red"), soft_wrap=True)
        return 1
    console.print(Text(f"{source}: {good} of {len(checks)} deal{'s' if len(checks) != 1 else ''}"
                       " verified", style="bold green"), soft_wrap=True)
    return 0


def print_board(state: State, number: int | None, seat: int | None, lang: str) -> None:
    """The position drawn as the table of ``canasta play --plain`` for ``seat`` (default:
    the seat to act), in ``lang``, with the cards each other player holds below it."""
    import canasta.cli.render as render
    from canasta.i18n import t, variant_name

    console = Console(highlight=False)
    who = state.actor if seat is None else seat
    names = render.seat_names(state.players, None, lang)
    view = state.view(who)
    title = " · ".join(([t("ui.hand_n", lang, n=number)] if number else [])
                       + [variant_name(state.rules.name, lang),
                          t("position.actions", lang, n=len(state.actions))])
    console.print(render.table(view, names, title=title, log_lines=0, lang=lang))
    for other in range(state.players):
        if other != who and state.hand_size[other]:
            line = Text("  " + t("position.holds", lang, name=names[other]) + " ", style="dim")
            line.append_text(render.hand_label(state.hand_cards(other)))
            console.print(line)


def register(app: typer.Typer) -> None:
    """Add ``replay`` and ``position`` to ``app``."""

    @app.command()
    def replay(
        record: Annotated[str, typer.Argument(help="A game record (JSON); - reads standard "
                                                   "input.")],
        seat: Annotated[int | None, typer.Option(
            help="Show the table as this seat sees it (default: every hand open).")] = None,
        hand: Annotated[int | None, typer.Option(
            help="Show only this hand (1 = the first).")] = None,
        check_scores: Annotated[bool, typer.Option(
            "--check", help="Replay every hand and confirm the recorded scores; exit 1 on a "
                            "mismatch.")] = False,
        verify_deal: Annotated[bool, typer.Option(
            "--verify-deal", help="Check that each hand's revealed deal seed hashes to the "
                                  "commitment published before the hand and deals its "
                                  "deck; exit 1 when one does not.")] = False,
        interactive: Annotated[bool | None, typer.Option(
            "--interactive/--no-interactive",
            help="Wait for a key after each step (default: when run in a terminal).")] = None,
    ) -> None:
        """Step through a game record hand by hand and action by action."""
        console = Console(highlight=False)
        err = Console(stderr=True, highlight=False)
        try:
            data, name = read_record(record)
            if verify_deal:
                raise typer.Exit(verify_deals(data, name, console))
            if check_scores:
                raise typer.Exit(check(data, name, console))
            if interactive is None:
                interactive = sys.stdin.isatty() and sys.stdout.isatty()
            players = data.get("players") if isinstance(data, dict) else None
            if seat is not None and (not isinstance(players, int) or not 0 <= seat < players):
                err.print(f"[bold red]error:[/] --seat {seat}: expected a seat of the record "
                          f"(0 to {players - 1 if isinstance(players, int) else '?'})",
                          highlight=False, soft_wrap=True)
                raise typer.Exit(2)
            shower = Replayer(console, seat, console.input if interactive else None,
                              None if hand is None else hand - 1)
            code = shower.run(data, name)
        except FormatError as exc:
            err.print(f"[bold red]error:[/] {exc}", highlight=False, soft_wrap=True)
            raise typer.Exit(2) from None
        raise typer.Exit(code)

    @app.command()
    def position(
        file: Annotated[str, typer.Argument(
            help="A saved game: a record or a position file (JSON); - reads standard input.")],
        hand: Annotated[int | None, typer.Option(
            help="Of a record: the position in this hand (1 = the first; default the last).")
        ] = None,
        action: Annotated[int | None, typer.Option(
            help="Of a record: the position after this many actions of the hand (0 = just "
                 "after the deal; default all).")] = None,
        compact: Annotated[bool, typer.Option(help="One line of JSON.")] = False,
        as_json: Annotated[bool | None, typer.Option(
            "--json/--board",
            help="JSON (docs/formats.md) or the table drawn as a board (default: the board "
                 "in a terminal, JSON when the output goes to a file or a pipe).")] = None,
        seat: Annotated[int | None, typer.Option(
            help="The board as this seat sees it (default: the seat to act).")] = None,
        lang: Annotated[str, typer.Option(
            callback=check_lang,
            help="Language of the board: " + ", ".join(languages()) + ".")] = "en",
    ) -> None:
        """Print the current position of a saved game: a board, or JSON (docs/formats.md)."""
        err = Console(stderr=True, highlight=False)
        try:
            data, name = read_document(file)
            is_record = isinstance(data, dict) and data.get("format") == "canasta-record"
            number: int | None = None
            if is_record and (hand is not None or action is not None):
                state = record_state_at(data, name, None if hand is None else hand - 1,
                                        None if action is None else action - 1)
                hands = data.get("hands")
                number = hand if hand is not None else (
                    len(hands) if isinstance(hands, list) else None)
            elif hand is not None or action is not None:
                err.print("[bold red]error:[/] --hand and --action apply to a game record",
                          highlight=False)
                raise typer.Exit(2)
            elif is_record:
                match = record_to_match(data, name)
                state, number = match.state, len(match.hands)
            else:
                state = state_from_document(data, name)
                number = data.get("hand") if isinstance(data, dict) else None
        except FormatError as exc:
            err.print(f"[bold red]error:[/] {exc}", highlight=False, soft_wrap=True)
            raise typer.Exit(2) from None
        if as_json is None:
            as_json = not (sys.stdout.isatty() and not compact)
        if not as_json:
            if seat is not None and not 0 <= seat < state.players:
                err.print(f"[bold red]error:[/] --seat {seat}: expected 0 to "
                          f"{state.players - 1}", highlight=False)
                raise typer.Exit(2)
            print_board(state, number, seat, lang)
            return
        doc = position_to_dict(state)
        if isinstance(number, int) and number >= 1:
            doc["hand"] = number  # which hand of the match (canasta play --from heads with it)
        text = json.dumps(doc, indent=None if compact else 1, ensure_ascii=False)
        sys.stdout.write(text + "\n")
