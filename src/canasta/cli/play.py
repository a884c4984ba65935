"""`canasta play`: a person at seat 0 plays a match with and against bots in the terminal.

On a terminal the match is played on the full-screen table of :mod:`canasta.cli.tui`; with
``--plain`` (or when input or output is not a terminal) line by line, as here: the person
types a move in its short form (``m 9 9 JK``, ``d Kc``, :mod:`canasta.cli.moves`), its text
form (``meld 9s 9d JK``) or the number of one of the legal moves (``help`` lists them),
``quit`` saves (with ``--save``) and leaves. Every move goes through the engine: an illegal
one is refused in plain words (``why`` quotes the seed), and the game goes on. The command
holds no rule of the game.

Input is read through a :data:`Reader` (``prompt -> line``, ``EOFError`` at the end), so that
tests drive a whole game with Typer's ``CliRunner(input=...)``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.columns import Columns
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

import canasta.cli.explain as explain
import canasta.cli.moves as moves
import canasta.cli.render as render
from canasta.bots import BOTS, make_bot
from canasta.bots import split_specs as split_bot_specs
from canasta.cli.options import check_lang, check_save_path
from canasta.cli.session import Session, decision_seed, split_record_name  # noqa: F401
from canasta.core.events import action_of
from canasta.core.match import Match
from canasta.core.rules import RulesError, load_preset, parse_rule_args
from canasta.core.state import Phase, State
from canasta.formats.jsondoc import FormatError
from canasta.formats.position import read_document
from canasta.formats.records import (
    RecordError,
    load_record,
    match_from_state,
    record_to_match,
    state_from_document,
)
from canasta.i18n import has, languages, resolve_lang, t, variant_name

#: Reads one line of input after showing a prompt; raises EOFError when input ends.
Reader = Callable[[str], str]

#: The moves as typed (short and text forms) and the catalogue key (``plain.help.*``) of what
#: each does.
HELP_MOVES = (
    ("s   draw", "draw"),
    ("t   take-pile 7h 7c", "take"),
    ("t   take-pile", "take_onto"),
    ("m 9 9 JK   meld 9s 9d JK", "meld"),
    ("l 9 9h 2c   lay-off 9 9h 2c", "lay_off"),
    ("d Kc   discard Kc", "discard"),
    ("a   ask-partner", "ask"),
    ("r   retract", "retract"),
    ("e   end-hand", "end"),
)


def help_text(lang: str = "en") -> Group:
    """The notation and the commands, as a two-column list that wraps in narrow terminals,
    in ``lang``."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    for move, key in HELP_MOVES:
        # the long forms are English words; other languages show the short ones only
        grid.add_row(move if lang == "en" else move.split("   ")[0], t(f"plain.help.{key}", lang))
    return Group(Text(t("plain.help.head", lang)), grid,
                 *(Text(t(f"plain.help.{key}", lang)) for key in ("cards", "commands")))


def default_bot() -> str:
    """The bot the other seats get by default: the hard level when it exists (the strongest
    that answers in milliseconds; medium and easy play with a club player's and a beginner's
    slips, docs/bots.md), else greedy, else random."""
    return next(b for b in ("hard", "greedy", "random") if b in BOTS)


class _Quit(Exception):
    """The person left the game."""


class Game:
    """The plain line front end: a :class:`~canasta.cli.session.Session` played through
    ``read`` (one line per prompt) and a Rich console, as scripts and tests drive it.

    Args:
        session: the match with its seats, language and save file.
        console: where the game is printed.
        read: where the person's input comes from.
    """

    def __init__(self, session: Session, console: Console, read: Reader) -> None:
        self.session = session
        self.console = console
        self.read = read
        #: How many events of the hand's log have been printed.
        self.shown = 0

    @property
    def state(self) -> State:
        return self.session.state

    @property
    def match(self) -> Match:
        return self.session.match

    @property
    def names(self) -> list[str]:
        return self.session.names

    def flush_log(self) -> None:
        """Print the public log lines not shown yet (bots' moves, red threes, the hand's end)."""
        s = self.session
        events = self.state.events
        for event in events[self.shown:]:
            line = s.describe(event)
            if line:
                self.console.print(Text("  " + line, style="" if action_of(event) is not None
                                        else "italic"))
        self.shown = len(events)

    def draw_table(self) -> None:
        s = self.session
        view = s.view
        title = " · ".join([t("ui.hand_n", s.lang, n=s.hand_number),
                            variant_name(self.match.rules.name, s.lang),
                            t("play.tui.to", s.lang,
                              target=self.match.rules.target(self.match.players))])
        self.console.print(render.table(view, s.names, title=title, log_lines=0,
                                        pending=len(self.state.pending_pile), lang=s.lang,
                                        marked=s.gained))
        line = Text(explain.points_line(view, s.lang), style="dim")
        if explain.can_go_out(view):
            line = Text(t("play.go_out", s.lang) + "  ", style="bold green").append_text(line)
        self.console.print(line)

    # -- the match -----------------------------------------------------------------------------
    def run(self) -> None:
        """Play until the match is won or the person quits."""
        s = self.session
        try:
            while True:
                if not self.state.is_over:
                    self.play_hand()
                s.finish_hand()
                self.show_result()
                if self.match.winner is not None:
                    self.console.print(Text("\n" + s.match_over_text(), style="bold green"))
                    note = s.record_profile()
                    if note:
                        self.console.print(Text(note, style="dim"))
                    return
                self.ask("\n" + t("plain.next_hand", s.lang) + " ")
                s.next_hand()
                self.shown = 0
        except (_Quit, KeyboardInterrupt):
            if s.save is not None:
                s.autosave()
                self.console.print(t("play.tui.saved", s.lang, path=s.save))
            else:
                self.console.print(t("play.tui.bye", s.lang))

    def ask(self, prompt: str) -> str:
        """Read one line; ``quit`` (or the end of input) leaves the game."""
        try:
            line = self.read(prompt)
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            raise _Quit() from None
        if self.session.command(line) in ("quit", "q", "exit"):
            raise _Quit()
        return line

    def play_hand(self) -> None:
        self.console.rule(t("ui.hand_n", self.session.lang, n=self.session.hand_number))
        while not self.state.is_over:
            if self.session.human_to_act():
                self.flush_log()
                if self.session.auto_draw_now() is not None:  # --auto-draw: no choice here
                    self.flush_log()
                    self.console.print(Text("  " + t("play.auto_drew", self.session.lang),
                                            style="dim"))
                    continue
                self.human_turn()
            else:
                _, failure = self.session.play_bot()
                if failure:
                    self.console.print(Text(failure, style="red"))
        self.flush_log()

    def show_menu(self) -> None:
        """The legal moves grouped: draws and takes, one line per meld rank, the discards."""
        for line in moves.grouped_menu(self.session.view, self.session.lang):
            label = Text(f"  {line.label} " if line.label else "  ", style="cyan")
            label.append("  ·  ".join(line.moves) if line.kind != "discard"
                         else " ".join(line.moves))
            self.console.print(label, overflow="fold")

    def human_turn(self) -> None:
        """One decision of the person: draw the table, read until a legal move is played."""
        s = self.session
        view = s.view
        legal = view.legal_actions
        self.draw_table()
        if view.phase is Phase.ANSWER:
            self.console.print(Text(t("play.turn.answer", s.lang, name=s.names[view.current]),
                                    style="bold"))
            prompt = t("plain.answer", s.lang) + " "
        else:
            self.show_menu()
            prompt = f"{s.names[s.human]} > "
        while True:
            line = self.ask(prompt).strip()
            if not line:
                continue
            low = s.command(line)
            if low in ("help", "?"):
                self.console.print(help_text(s.lang))
                self.console.print(render.legal_moves(legal, s.lang))
                continue
            if low in ("table", "tab"):
                self.draw_table()
                self.show_menu()
                continue
            if low == "log":
                for event in self.state.events:
                    text = s.describe(event)
                    if text:
                        self.console.print("  " + text)
                continue
            if low in ("pile",):
                for text in [*explain.pile_lines(s.view, s.lang),
                             *explain.pile_cards_lines(s.view, s.lang)]:
                    self.console.print("  " + text)
                continue
            reply = s.submit(line)
            style = {"refused": "bold red", "error": "bold red", "choices": "yellow"}.get(
                reply.kind, "")
            for text in reply.lines:
                self.console.print(Text(text, style=style))
            if reply.kind == "played":
                self.flush_log()
                return
            if reply.kind == "info" and s.view.hand != view.hand:  # an undo: show the table
                self.shown = min(self.shown, len(self.state.events))
                return

    def show_result(self) -> None:
        """The final table, each team's score sheet and the match totals."""
        s = self.session
        state = self.state
        rec = self.match.record
        self.console.print(render.table(state.view(s.human), s.names,
                                        title=t("plain.final_table", s.lang,
                                                hand=t("ui.hand_n", s.lang, n=s.hand_number)),
                                        log_lines=0, lang=s.lang))
        self.console.print(Text(s.hand_end_text(), style="bold"))
        for seat in range(self.match.players):
            if seat != s.human and state.hand_size[seat]:
                left = Text("  " + t("plain.held_by", s.lang, name=s.names[seat]) + " ",
                            style="dim")
                left.append_text(render.hand_label(state.hand_cards(seat)))
                self.console.print(left)
        tables = []
        for sheet in rec.sheets:
            tables.append(render.score_sheet_table(
                sheet, s.team_names[sheet.team], s.sheet_players(sheet.team), s.lang))
        self.console.print(Columns(tables, padding=(0, 2)))
        self.console.print(render.totals_table(self.match.scores, s.team_names,
                                               self.match.rules.target(self.match.players),
                                               s.hand_number, s.lang))


def _bot_list(spec: str | None, seats: int) -> list[str]:
    names = split_bot_specs(spec or default_bot())
    if len(names) == 1:
        names *= seats
    if len(names) != seats:
        raise ValueError(f"--bots: expected 1 or {seats} bot names (one per other seat), "
                         f"got {len(names)}")
    for name in names:
        make_bot(name)  # raises ValueError listing the known bots
    return names


def _resumed_seats(match: Match, data: dict[str, Any], bots: str | None
                   ) -> tuple[list[str], list[str]]:
    """The names and bot specs of a resumed record's seats (``West (greedy)`` gives West
    played by greedy): ``--bots`` replaces every bot; without it, a seat whose stored name
    carries no spec gets the default bot and the others keep theirs."""
    stored = data.get("names") or []
    names, kinds = [], []
    for i in range(match.players):
        raw = str(stored[i]) if i < len(stored) else ""
        shown, kind = split_record_name(raw)
        names.append(shown or f"Seat {i}")
        kinds.append(kind)
    kinds[0] = ""
    if bots is not None:
        kinds[1:] = _bot_list(bots, match.players - 1)
    else:
        default = _bot_list(None, 1)[0]
        kinds[1:] = [kind or default for kind in kinds[1:]]
    return names, kinds


@dataclass(frozen=True)
class Options:
    """How ``canasta play`` is set up (its command-line options)."""

    variant: str = "international"
    rules_args: tuple[str, ...] = ()
    players: int = 4
    seed: int | None = None
    bots: str | None = None
    save: Path | None = None
    resume: Path | None = None
    name: str | None = None
    start_from: str | None = None
    lang: str = "en"
    force: bool = False
    allow_undo: bool = False
    #: Names of the other seats in playing order, or of every seat (yours first).
    names: tuple[str, ...] = ()
    #: Draw from the stock for the person when that is the only way to start the turn.
    auto_draw: bool = False
    #: Add each finished match to the local profile (canasta stats).
    profile: bool = True


def _named(names: list[str], given: tuple[str, ...]) -> list[str]:
    """``names`` with ``--names`` applied: the other seats' names, or every seat's.

    Raises:
        SetupError: more names than seats, or an empty one.
    """
    if not given:
        return names
    if len(given) > len(names) or any(not n for n in given):
        raise SetupError(f"--names: expected up to {len(names) - 1} names for the other seats "
                         f"(or {len(names)} with yours first), comma-separated, none empty; "
                         f"got {len(given)}")
    out = list(names)
    start = 0 if len(given) == len(names) else 1
    out[start:start + len(given)] = given
    return out


class SetupError(Exception):
    """A bad option: the message says which and why (exit code 2)."""


def _from_position(opts: Options) -> tuple[Match, int]:
    """The match of ``--from``: a record's current position or a position file; and the
    hands played before it (for the hand number shown)."""
    assert opts.start_from is not None
    data, source = read_document(opts.start_from)
    if isinstance(data, dict) and data.get("format") == "canasta-record":
        full = record_to_match(data, source)
        offset = len(full.hands) - 1
        state = full.state
    else:
        state = state_from_document(data, source)
        number = data.get("hand") if isinstance(data, dict) else None
        offset = number - 1 if isinstance(number, int) and number >= 1 else 0
    match = match_from_state(state, seed=opts.seed)
    if match.state.is_over and not match.is_over:
        match.next_hand()
    return match, offset


def setup(opts: Options, console: Console) -> Session:
    """The session ``opts`` describe (a new match, a resumed record, or a position).

    Raises:
        SetupError: an unknown variant, rule, bot or player count; a file that cannot be
            read, is of the wrong kind, or would be overwritten without ``force``.
    """
    save = opts.save
    offset = 0
    try:
        if opts.start_from is not None:
            match, offset = _from_position(opts)
            kinds = ["", *_bot_list(opts.bots, match.players - 1)]
            names = render.seat_names(match.players, opts.name, resolve_lang(opts.lang))
            console.print(t("plain.started_from", resolve_lang(opts.lang),
                            path=opts.start_from, n=offset + len(match.hands),
                            actions=len(match.state.actions)))
        elif opts.resume is not None:
            data, source = read_document(opts.resume)
            if isinstance(data, dict) and data.get("format") == "canasta-position":
                raise SetupError(t("play.error.resume_position", resolve_lang(opts.lang),
                                   path=opts.resume))
            match, data = load_record(opts.resume)
            names, kinds = _resumed_seats(match, data, opts.bots)
            if match.is_over:  # nothing to play, and the file is never rewritten
                teams = render.team_names(match.teams, names)
                scores = ", ".join(f"{team} {score}"
                                   for team, score in zip(teams, match.scores, strict=True))
                raise SetupError(t("play.error.resume_over", resolve_lang(opts.lang),
                                   path=opts.resume, scores=scores))
            if save is None:
                save = opts.resume
            console.print(t("plain.resumed", resolve_lang(opts.lang), path=opts.resume,
                            n=len(match.hands), actions=len(match.state.actions)))
        else:
            rules = load_preset(opts.variant, parse_rule_args(list(opts.rules_args)))
            if opts.players not in rules.deal.player_counts:
                raise ValueError(f"{rules.name} is played by "
                                 f"{' or '.join(map(str, rules.deal.player_counts))} players, "
                                 f"not {opts.players}")
            kinds = ["", *_bot_list(opts.bots, opts.players - 1)]
            match = Match(rules, opts.players, seed=opts.seed)
            names = render.seat_names(opts.players, opts.name, resolve_lang(opts.lang))
    except (RulesError, RecordError, FormatError, ValueError) as exc:
        raise SetupError(str(exc)) from None
    if save is not None and save != opts.resume and save.exists() and not opts.force:
        raise SetupError(t("play.error.save_exists", resolve_lang(opts.lang), path=save))
    names = _named(names, opts.names)
    session = Session(match, names, kinds, lang=resolve_lang(opts.lang), save=save,
                      allow_undo=opts.allow_undo, hand_offset=offset, auto_draw=opts.auto_draw)
    session.profile = opts.profile
    return session


def greeting(session: Session) -> list[str]:
    """The first lines of a new match: rules, bots, partner."""
    match, names, kinds = session.match, session.names, session.kinds
    lang = session.lang

    def level(kind: str) -> str:  # a level in words of the table ("médio"), a bot as named
        return t(f"ui.level_{kind}", lang) if has(f"ui.level_{kind}") else kind

    seats = ", ".join(f"{names[s]} ({level(kinds[s])})" for s in range(1, match.players))
    out = [t("plain.greeting", lang, variant=variant_name(match.rules.name, lang),
             players=match.players, bots=seats)]
    partner = [names[s] for s in match.teams[0] if s != 0]
    if partner:
        out.append(t("plain.partners" if len(partner) > 1 else "plain.partner", lang,
                     names=" & ".join(partner)))
    return out


def start(*, variant: str, rules_args: list[str] | None, players: int, seed: int | None,
          bots: str | None, save: Path | None, resume: Path | None, name: str | None,
          console: Console, read: Reader, start_from: str | None = None,
          lang: str = "en", force: bool = False, allow_undo: bool = False,
          names: tuple[str, ...] = (), auto_draw: bool = False, profile: bool = True) -> int:
    """Set up and play a game in plain line mode; returns the exit code (2 for a bad
    option)."""
    opts = Options(variant, tuple(rules_args or ()), players, seed, bots, save, resume, name,
                   start_from, lang, force, allow_undo, names, auto_draw, profile)
    try:
        session = setup(opts, console)
        session.autosave()
    except SetupError as exc:
        console.print(Text(t("play.error", resolve_lang(lang), message=exc), style="bold red"),
                      soft_wrap=True)
        return 2
    except OSError as exc:
        console.print(Text(f"Error: cannot save to {session.save}: {exc.strerror}",
                           style="bold red"), soft_wrap=True)
        return 2
    game = Game(session, console, read)
    if resume is not None or start_from is not None:
        game.shown = max(0, len(session.state.events) - 8)  # the last moves, as a recap
    else:
        for line in greeting(session):
            console.print(Text(line, style="bold"))
        console.print(t("plain.type_help", session.lang))
    game.run()
    return 0


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""

    @app.command()
    def play(
        variant: Annotated[str, typer.Option(help="Rule set (see canasta variants).")] = (
            "international"),
        rule: Annotated[list[str] | None, typer.Option(
            "--rule", metavar="NAME=VALUE", help="House rule (repeatable).")] = None,
        players: Annotated[int, typer.Option(
            help="Players: 2, 3, 4 or 6, as the variant allows.")] = 4,
        seed: Annotated[int | None, typer.Option(
            help="Seed of the shuffles and the bots (a reproducible game).")] = None,
        bots: Annotated[str | None, typer.Option(
            help="Bots of the other seats in playing order, comma-separated (one: all of "
                 "them): a level (easy, medium, hard, expert) or a bot name, with options "
                 "as name:key=value. Default: hard.")] = None,
        save: Annotated[Path | None, typer.Option(
            callback=check_save_path,
            help="Save the match record here after every move (an existing file only with "
                 "--force).")] = None,
        force: Annotated[bool, typer.Option(
            help="Let --save overwrite an existing file.")] = False,
        resume: Annotated[Path | None, typer.Option(
            help="Continue a saved match (saving to the same file unless --save is given; "
                 "--variant, --rule, --players and --seed are then ignored).")] = None,
        name: Annotated[str | None, typer.Option(
            help="Your name at the table (default: You, in the --lang language).")] = None,
        start_from: Annotated[str | None, typer.Option(
            "--from", metavar="POSITION",
            help="Start from a saved position file or a record's current position "
                 "(- for standard input; --variant, --rule and --players are then "
                 "ignored).")] = None,
        lang: Annotated[str, typer.Option(
            callback=check_lang,
            help="Language of the whole table (board, menu, help, refusals, log, commands, "
                 "score sheet): " + ", ".join(languages()) + ".")] = "en",
        plain: Annotated[bool, typer.Option(
            help="Line by line, without the full-screen table (the default when input or "
                 "output is not a terminal).")] = False,
        speed: Annotated[float, typer.Option(
            min=0.0, help="Seconds between two bots' moves on the full-screen table (0: at once).")
        ] = 0.8,
        step: Annotated[bool, typer.Option(
            help="Full-screen table: wait for a key after each bot move.")] = False,
        four_colour: Annotated[bool, typer.Option(
            "--four-colour", "--four-color", help="Four suit colours: spades black, hearts "
            "red, diamonds blue, clubs green.")] = False,
        sort: Annotated[str, typer.Option(help="Hand order: rank or suit.")] = "rank",
        undo: Annotated[bool, typer.Option(
            "--undo", help="Casual house rule: `undo` takes back your melds and lay-offs of "
                           "the turn before you discard.")] = False,
        names: Annotated[str | None, typer.Option(
            "--names", metavar="NAME,NAME,...",
            help="The other seats' names in playing order (or every seat's, yours first), "
                 "comma-separated: --names Ann,Bob,Cleo.")] = None,
        auto_draw: Annotated[bool, typer.Option(
            "--auto-draw", help="Draw from the stock for you when the pile cannot be taken "
                                "(nothing else starts the turn).")] = False,
        no_profile: Annotated[bool, typer.Option(
            "--no-profile", help="Leave this match out of your local profile (canasta "
                                 "stats).")] = False,
    ) -> None:
        """Play a match at seat 0 with a bot partner against bots."""
        console = Console(highlight=False)
        seat_names = tuple(n.strip() for n in names.split(",")) if names else ()
        if sort not in ("rank", "suit"):
            console.print(Text("Error: --sort: expected rank or suit", style="bold red"),
                          soft_wrap=True)
            raise typer.Exit(2)
        if not plain and sys.stdin.isatty() and sys.stdout.isatty():
            try:
                from canasta.cli.tui import run_table
            except ImportError as exc:  # an environment without the cli extra's Textual
                console.print(Text(f"The full-screen table needs Textual ({exc}); playing "
                                   "line by line. pip install -e '.[cli]' installs it.",
                                   style="yellow"))
                plain = True
        if not plain and sys.stdin.isatty() and sys.stdout.isatty():
            opts = Options(variant, tuple(rule or ()), players, seed, bots, save, resume,
                           name, start_from, lang, force, undo, seat_names, auto_draw,
                           not no_profile)
            try:
                session = setup(opts, console)
                session.autosave()
            except SetupError as exc:
                console.print(Text(t("play.error", resolve_lang(lang), message=exc),
                                   style="bold red"), soft_wrap=True)
                raise typer.Exit(2) from None
            run_table(session, speed=speed, step=step,
                      style=render.CardStyle(symbols=True, four_colour=four_colour, sort=sort))
            return

        def read(prompt: str) -> str:
            return console.input(prompt)

        code = start(variant=variant, rules_args=rule, players=players, seed=seed, bots=bots,
                     save=save, resume=resume, name=name, console=console, read=read,
                     start_from=start_from, lang=lang, force=force, allow_undo=undo,
                     names=seat_names, auto_draw=auto_draw, profile=not no_profile)
        if code:
            raise typer.Exit(code)
