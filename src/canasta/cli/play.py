"""`canasta play`: a person at seat 0 plays a match with and against bots in the terminal.

The person types an action in its text form (``meld 9s 9d JK``) or the number of one of the
listed legal moves; ``help`` lists them again, ``quit`` saves (with ``--save``) and leaves.
Every move goes through the engine: an illegal one is refused with the engine's reason and
rule, and the game goes on. The command holds no rule of the game.

Input is read through a :data:`Reader` (``prompt -> line``, ``EOFError`` at the end), so that
tests drive a whole game with Typer's ``CliRunner(input=...)``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

import typer
from rich.columns import Columns
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

import canasta.cli.render as render
from canasta.bots import BOTS, Bot, make_bot
from canasta.core.actions import Action, ActionParseError, Answer, parse_action
from canasta.core.events import Drew, Event, RedThreesLaidOut, TookPile, action_of
from canasta.core.match import Match
from canasta.core.rules import RulesError, load_preset, parse_rule_args
from canasta.core.state import IllegalActionError, Phase, State
from canasta.formats.jsondoc import FormatError
from canasta.formats.records import (
    RecordError,
    load_position,
    load_record,
    match_from_state,
    save_record,
)
from canasta.i18n import describe_event, languages, resolve_lang
from canasta.i18n.refusals import refusal_text

#: Reads one line of input after showing a prompt; raises EOFError when input ends.
Reader = Callable[[str], str]

HELP_MOVES = (
    ("draw", "draw from the stock"),
    ("take-pile 7h 7c", "take the pile: meld its top card with 7h 7c from your hand"),
    ("take-pile", "take the pile: add its top card to your side's meld"),
    ("meld 9s 9d JK", "lay down a new meld"),
    ("lay-off 9 9h 2c", "add cards to your side's meld of nines (W: the wild meld)"),
    ("discard Kc", "discard and end your turn (your last card: you go out)"),
    ("ask-partner", "ask your partner whether you may go out (the answer binds)"),
    ("retract", "take back an opening short of the minimum (the minimum then rises)"),
    ("end-hand", "the stock is gone: decline the discard and end the hand"),
)
HELP_NOTES = (
    "Cards: rank A K Q J 10 9 8 7 6 5 4 3 2 (T = 10) and suit s h d c; JK is a joker.",
    "Other commands: help or ? (this list), table (draw the table again), log (the whole "
    "hand so far), quit (save and leave).",
)


def help_text() -> Group:
    """The notation and the commands, as a two-column list that wraps in narrow terminals."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    for move, what in HELP_MOVES:
        grid.add_row(move, what)
    return Group(Text("Type the number of a move from the list, or the move itself:"), grid,
                 *(Text(note) for note in HELP_NOTES))


def default_bot() -> str:
    """The bot the other seats get by default: greedy when it exists, else random."""
    return "greedy" if "greedy" in BOTS else "random"


class _Quit(Exception):
    """The person left the game."""


@dataclass
class Game:
    """A match in progress between one person and bots.

    Attributes:
        match: the match (its current hand is ``match.state``).
        names: display name per seat (``names[human]`` is the person).
        bots: the bot of every other seat, used when the match has no seed.
        console: where the game is drawn.
        read: where the person's input comes from.
        save: the record file rewritten after every action, or None.
        human: the person's seat.
        bot_kinds: the bot name of each seat ("" for the person), kept in the record.
        shown: how many lines of the hand's log have been printed.
        lang: the language of refusals (a catalogue of canasta.i18n: en, it).
    """

    match: Match
    names: list[str]
    bots: dict[int, Bot]
    console: Console
    read: Reader
    save: Path | None = None
    human: int = 0
    bot_kinds: list[str] = field(default_factory=list)
    shown: int = 0
    lang: str = "en"

    # -- helpers -------------------------------------------------------------------------------
    @property
    def state(self) -> State:
        return self.match.state

    @property
    def team_names(self) -> list[str]:
        return render.team_names(self.match.teams, self.names)

    def record_names(self) -> list[str]:
        """Names as stored in the record: a bot seat carries its kind, ``West (greedy)``."""
        out = []
        for seat, name in enumerate(self.names):
            kind = self.bot_kinds[seat] if seat < len(self.bot_kinds) else ""
            out.append(f"{name} ({kind})" if kind else name)
        return out

    def autosave(self) -> None:
        if self.save is not None:
            save_record(self.match, self.save, self.record_names())

    def flush_log(self) -> None:
        """Print the public log lines not shown yet (bots' moves, red threes, the hand's end)."""
        events = self.state.events
        for event in events[self.shown:]:
            line = describe_event(event, self.human, self.lang, self.names, self.team_names)
            if line:
                self.console.print(Text("  " + line, style="" if action_of(event) is not None
                                        else "italic"))
        self.shown = len(events)

    def draw_table(self) -> None:
        view = self.state.view(self.human)
        hand_no = len(self.match.hands)
        title = (f"Hand {hand_no} · {self.match.rules.name} · match to "
                 f"{self.match.rules.end.target}")
        self.console.print(render.table(view, self.names, title=title, log_lines=0,
                                        pending=len(self.state.pending_pile)))

    # -- the match -----------------------------------------------------------------------------
    def run(self) -> None:
        """Play until the match is won or the person quits."""
        try:
            while True:
                if not self.state.is_over:
                    self.play_hand()
                if not self.match.record.sheets:
                    self.match.finish_hand()
                    self.autosave()
                self.show_result()
                if self.match.winner is not None:
                    winner = self.team_names[self.match.winner]
                    self.console.print(Text(f"\n{winner} win the match!", style="bold green"))
                    return
                self.ask("\nPress Enter to deal the next hand (or type quit): ")
                self.match.next_hand()
                self.shown = 0
                self.autosave()
        except (_Quit, KeyboardInterrupt):
            if self.save is not None:
                self.autosave()
                self.console.print(f"Saved to {self.save}. Resume with: "
                                   f"canasta play --resume {self.save}")
            else:
                self.console.print("Bye. (Use --save PATH to keep a game for later.)")

    def ask(self, prompt: str) -> str:
        """Read one line; ``quit`` (or the end of input) leaves the game."""
        try:
            line = self.read(prompt)
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            raise _Quit() from None
        if line.strip().lower() in ("quit", "q", "exit"):
            raise _Quit()
        return line

    def play_hand(self) -> None:
        hand_no = len(self.match.hands)
        self.console.rule(f"Hand {hand_no}")
        while not self.state.is_over:
            seat = self.state.actor
            if seat == self.human:
                self.flush_log()
                self.human_turn()
            else:
                self.bot_turn(seat)
            self.autosave()
        self.flush_log()

    def bot_for(self, seat: int) -> Bot:
        """The bot to decide now. In a seeded match each decision gets a bot seeded from the
        place in the match, so a resumed game goes on exactly as the uninterrupted one."""
        seed = self.match.seed
        if seed is None:
            return self.bots[seat]
        place = decision_seed(seed, seat, len(self.match.hands), len(self.match.record.actions))
        return make_bot(self.bot_kinds[seat], place)

    def bot_turn(self, seat: int) -> None:
        view = self.state.view(seat)
        try:
            action = self.bot_for(seat).choose(view)
            self.match.apply(action)
        except Exception as exc:  # a bot's bug must not end the person's game
            self.console.print(f"[red]{self.names[seat]}'s bot failed ({exc}); "
                               f"it plays {view.legal_actions[0].text()}[/red]")
            self.match.apply(view.legal_actions[0])

    def show_legal(self, actions: tuple[Action, ...]) -> None:
        self.console.print(render.legal_moves(actions))

    def human_turn(self) -> None:
        """One decision of the person: draw the table, read until a legal move is played."""
        state = self.state
        view = state.view(self.human)
        legal = view.legal_actions
        self.draw_table()
        if view.phase is Phase.ANSWER:
            asker = self.names[view.current]
            self.console.print(Text(f"{asker} asks: may I go out? (Your answer binds.)",
                                    style="bold"))
            prompt = "Answer yes or no: "
        else:
            self.show_legal(legal)
            prompt = f"{self.names[self.human]} > "
        while True:
            line = self.ask(prompt).strip()
            if not line:
                continue
            low = line.lower()
            if low in ("help", "?", "h"):
                self.console.print(help_text())
                self.show_legal(legal)
                continue
            if low in ("table", "t"):
                self.draw_table()
                self.show_legal(legal)
                continue
            if low == "log":
                for event in state.events:
                    line = describe_event(event, self.human, self.lang, self.names,
                                          self.team_names)
                    if line:
                        self.console.print("  " + line)
                continue
            action = self.to_action(line, legal, view.phase)
            if action is None:
                continue
            try:
                event = self.match.apply(action)
            except IllegalActionError as exc:
                self.console.print(Text(refusal_text(exc, self.match.rules, self.lang,
                                                     state), style="bold red"))
                self.console.print(Text(f"  (rule: {exc.rule}) Type help for the legal moves.",
                                        style="red"))
                continue
            self.flush_log()
            self.report_gain(event)
            return

    def to_action(self, line: str, legal: tuple[Action, ...], phase: Phase) -> Action | None:
        """The action a line names, or None after printing why it names none."""
        low = line.lower()
        if re.fullmatch(r"\d+", low):
            n = int(low)
            if 1 <= n <= len(legal):
                return legal[n - 1]
            self.console.print(Text(f"No move number {n}: choose 1 to {len(legal)}.",
                                    style="red"))
            return None
        if phase is Phase.ANSWER and low in ("y", "yes", "n", "no"):
            return Answer(low.startswith("y"))
        try:
            return parse_action(line)
        except ActionParseError as exc:
            self.console.print(Text(f"Cannot read that move: {exc}", style="bold red"))
            self.console.print(Text("  Type help for the legal moves and the notation.",
                                    style="red"))
            return None

    def report_gain(self, event: Event) -> None:
        """After the person's draw or pile take, say which cards came into the hand (from the
        action's event)."""
        if isinstance(event, Drew):
            gained = list(event.drawn or ())
        elif isinstance(event, TookPile):
            gained = list(event.drawn or ())
            if not event.top_only and not self.state.pending_pile:
                gained += [*(event.pile or ()), *(event.surprise or ())]
                for later in self.state.events:
                    if isinstance(later, RedThreesLaidOut) and later.seat == self.human \
                            and not later.replaced_count:
                        for c in later.cards:
                            if c in gained:
                                gained.remove(c)
        else:
            return
        gained.sort()
        if not gained:
            return
        text = Text("You drew " if isinstance(event, Drew) else "You took ", style="bold")
        text.append_text(render.hand_label(gained))
        self.console.print(text)

    def show_result(self) -> None:
        """The final table, each team's score sheet and the match totals."""
        state = self.state
        rec = self.match.record
        self.draw_final_table()
        reason = rec.end_reason.replace("_", " ")
        if state.went_out is not None:
            reason += f" ({self.names[state.went_out]}"
            reason += ", concealed)" if state.concealed else ")"
        self.console.print(Text(f"The hand ends: {reason}.", style="bold"))
        for seat in range(self.match.players):
            if seat != self.human and state.hand_size[seat]:
                left = Text(f"  {self.names[seat]} held: ", style="dim")
                left.append_text(render.hand_label(state.hand_cards(seat)))
                self.console.print(left)
        tables = []
        for sheet in rec.sheets:
            seats = [s for s in self.match.teams[sheet.team] if s != state.went_out]
            tables.append(render.score_sheet_table(
                sheet, self.team_names[sheet.team], [self.names[s] for s in seats]))
        self.console.print(Columns(tables, padding=(0, 2)))
        self.console.print(render.totals_table(self.match.scores, self.team_names,
                                               self.match.rules.end.target,
                                               len(self.match.hands)))

    def draw_final_table(self) -> None:
        view = self.state.view(self.human)
        title = f"Hand {len(self.match.hands)} · final table"
        self.console.print(render.table(view, self.names, title=title, log_lines=0))


def decision_seed(seed: int, seat: int, hand: int, action: int) -> int:
    """The seed of a bot's decision at action number ``action`` of hand ``hand`` (from 1)."""
    return ((seed * 31 + seat) * 1009 + hand) * 100_003 + action


def _cards(counts: list[int]) -> list[int]:
    return [c for c, n in enumerate(counts) for _ in range(n)]


def _bot_list(spec: str | None, seats: int) -> list[str]:
    names = [b.strip() for b in (spec or default_bot()).split(",") if b.strip()]
    if len(names) == 1:
        names *= seats
    if len(names) != seats:
        raise ValueError(f"--bots: expected 1 or {seats} bot names (one per other seat), "
                         f"got {len(names)}")
    for name in names:
        make_bot(name)  # raises ValueError listing the known bots
    return names


_KIND_RE = re.compile(r"^(.*) \((\w+)\)$")


def start(*, variant: str, rules_args: list[str] | None, players: int, seed: int | None,
          bots: str | None, save: Path | None, resume: Path | None, name: str,
          console: Console, read: Reader, start_from: str | None = None,
          lang: str = "en") -> int:
    """Set up and play a game; returns the exit code (2 for a bad option)."""
    try:
        if start_from is not None:
            # A saved position (or a record's current position): play on from it.
            state = load_position(start_from)
            match = match_from_state(state, seed=seed)
            if match.state.is_over and not match.is_over:
                match.next_hand()
            kinds = ["", *_bot_list(bots, match.players - 1)]
            names = render.seat_names(match.players, name)
            console.print(f"Starting from {start_from}: hand in progress, "
                          f"{len(match.state.actions)} actions played.")
        elif resume is not None:
            match, data = load_record(resume)
            stored = data.get("names") or []
            names, kinds = [], []
            for i in range(match.players):
                raw = str(stored[i]) if i < len(stored) else ""
                m = _KIND_RE.match(raw)
                names.append(m.group(1) if m else (raw or f"Seat {i}"))
                kinds.append(m.group(2) if m else "")
            kinds[0] = ""
            if bots is not None or not all(kinds[1:]):
                kinds[1:] = _bot_list(bots, match.players - 1)
            if save is None:
                save = resume
            console.print(f"Resumed {resume}: hand {len(match.hands)}, "
                          f"{len(match.state.actions)} actions played.")
        else:
            rules = load_preset(variant, parse_rule_args(rules_args))
            if players not in rules.deal.player_counts:
                raise ValueError(f"{rules.name} is played by "
                                 f"{' or '.join(map(str, rules.deal.player_counts))} players, "
                                 f"not {players}")
            kinds = ["", *_bot_list(bots, players - 1)]
            match = Match(rules, players, seed=seed)
            names = render.seat_names(players, name)
    except (RulesError, RecordError, FormatError, ValueError) as exc:
        console.print(Text(f"Error: {exc}", style="bold red"))
        return 2
    bot_objs = {seat: make_bot(kinds[seat]) for seat in range(1, match.players)}
    game = Game(match, names, bot_objs, console, read, save=save, bot_kinds=kinds,
                lang=resolve_lang(lang))
    if resume is not None or start_from is not None:
        game.shown = max(0, len(match.state.events) - 8)  # the last moves, as a recap
    if resume is None and start_from is None:
        seats = ", ".join(f"{names[s]} ({kinds[s]})" for s in range(1, match.players))
        partner = [names[s] for s in match.teams[0] if s != 0]
        console.print(Text(f"Canasta ({match.rules.name.replace('_', ' ')} rules), "
                           f"{match.players} players. Bots: {seats}.", style="bold"))
        if partner:
            console.print(f"Your partner{'s' if len(partner) > 1 else ''}: "
                          f"{' & '.join(partner)}.")
        console.print("Type help at any prompt for the moves and commands.")
    try:
        game.autosave()
    except OSError as exc:
        console.print(Text(f"Error: cannot save to {save}: {exc.strerror}", style="bold red"))
        return 2
    game.run()
    return 0


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""

    @app.command()
    def play(
        variant: Annotated[str, typer.Option(help="Rule set (see canasta rules).")] = (
            "international"),
        rule: Annotated[list[str] | None, typer.Option(
            "--rule", metavar="NAME=VALUE", help="House rule (repeatable).")] = None,
        players: Annotated[int, typer.Option(
            help="Players: 2, 3, 4 or 6, as the variant allows.")] = 4,
        seed: Annotated[int | None, typer.Option(
            help="Seed of the shuffles and the bots (a reproducible game).")] = None,
        bots: Annotated[str | None, typer.Option(
            help="Bots of the other seats in playing order, comma-separated (one name: all "
                 "of them). Default: greedy, else random.")] = None,
        save: Annotated[Path | None, typer.Option(
            help="Save the match record here after every move.")] = None,
        resume: Annotated[Path | None, typer.Option(
            help="Continue a saved match (saving to the same file unless --save is given; "
                 "--variant, --rule, --players and --seed are then ignored).")] = None,
        name: Annotated[str, typer.Option(help="Your name at the table.")] = "You",
        start_from: Annotated[str | None, typer.Option(
            "--from", metavar="POSITION",
            help="Start from a saved position file or a record's current position "
                 "(- for standard input; --variant, --rule and --players are then "
                 "ignored).")] = None,
        lang: Annotated[str, typer.Option(
            help="Language of refusals: " + ", ".join(languages()) + ".")] = "en",
    ) -> None:
        """Play a match at seat 0 with a bot partner against bots."""
        console = Console(highlight=False)

        def read(prompt: str) -> str:
            return console.input(prompt)

        code = start(variant=variant, rules_args=rule, players=players, seed=seed, bots=bots,
                     save=save, resume=resume, name=name, console=console, read=read,
                     start_from=start_from, lang=lang)
        if code:
            raise typer.Exit(code)
