"""The full-screen table of ``canasta play`` (a Textual app): a fixed layout redrawn in place
that fits 80×24 and grows with the terminal.

From the top: the hand and the match score; the discard pile with what taking it needs now
(:func:`canasta.cli.explain.pile_lines`); both sides' melds beside the players (cards held
and each one's last turn, as many of its moves as the pane holds); the person's hand
(sorted by rank or suit, the cards just drawn marked ``*``, ranks that can be melded now
highlighted) with "you can go out" and the points melded; whose turn it is; the legal
moves grouped (one line per meld rank, one for the discards); the last messages; the input
line, which completes the short forms of the legal moves (→ accepts). Bots move one at a
time, ``speed`` seconds apart, or on Enter (``step``). The mouse: a click on a card of the
hand puts it into the input line (a meld being built), on a move of the menu plays it, on the
pile takes it, on the stock in the title draws; Ctrl-C asks before leaving.

All the game is in :class:`~canasta.cli.session.Session`; this module only draws it and
passes the typed lines on. Tests drive it headless with Textual's ``App.run_test`` (pilot).
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Footer, Input, RichLog, Static

import canasta.cli.explain as explain
import canasta.cli.moves as moves
from canasta.cli.render import CardStyle, symbol_text
from canasta.cli.session import Reply, Session
from canasta.cli.table_view import (
    MenuSpan,
    card_at,
    hand_text,
    help_table,
    melds_text,
    menu_text,
    pile_text,
    result_text,
    seats_text,
    title_text,
    toggled,
)
from canasta.core.actions import Action, Draw, TakePile
from canasta.core.events import action_of
from canasta.i18n import t

__all__ = ["TableApp", "run_table"]


# -- screens --------------------------------------------------------------------------------------

class TextScreen(ModalScreen[None]):
    """A page of text (help, the hand's log); any key closes it."""

    BINDINGS = [Binding("escape,enter,q,space", "close", "Close")]
    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > VerticalScroll { width: 100%; height: auto; max-height: 90%;
                                  border: round $accent; background: $panel; padding: 0 1; }
    """

    def __init__(self, body: RenderableType) -> None:
        super().__init__()
        self.body = body

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self.body)

    def action_close(self) -> None:
        self.dismiss(None)


class ResultScreen(ModalScreen[bool]):
    """The hand's score sheets and the match totals; Enter deals the next hand (True),
    q leaves (False)."""

    BINDINGS = [Binding("enter,space", "next", "Next hand"), Binding("q", "leave", "Quit")]
    DEFAULT_CSS = """
    ResultScreen { align: center middle; }
    ResultScreen > VerticalScroll { width: 100%; height: auto; max-height: 100%;
                                    background: $panel; }
    """

    def __init__(self, body: RenderableType) -> None:
        super().__init__()
        self.body = body

    def compose(self) -> ComposeResult:
        with VerticalScroll():  # a long sheet (five canastas, six players) scrolls
            yield Static(self.body)

    def action_next(self) -> None:
        self.dismiss(True)

    def action_leave(self) -> None:
        self.dismiss(False)


class QuitScreen(ModalScreen[bool]):
    """Ctrl-C over the table: "Quit? (your match is saved)", or, without ``--save``, that it
    is not; y (s in Italian and Portuguese, d in Romanian), Enter or Ctrl-C again leaves
    (True), n or Escape goes on (False)."""

    BINDINGS = [Binding("y,s,d,enter", "answer(True)", "Quit"),  # yes, sì/sim, da
                Binding("n,escape", "answer(False)", "Go on")]
    DEFAULT_CSS = """
    QuitScreen { align: center middle; }
    QuitScreen > Static { width: auto; max-width: 90%; height: auto; border: round $accent;
                          background: $panel; padding: 0 1; }
    """

    def __init__(self, body: str) -> None:
        super().__init__()
        self.body = body

    def compose(self) -> ComposeResult:
        yield Static(Text(self.body, style="bold"))

    def action_answer(self, leave: bool) -> None:
        self.dismiss(leave)


# -- the app --------------------------------------------------------------------------------------

class TableApp(App[None]):
    """The table. Args: the session, ``speed`` (seconds between bots' moves), ``step`` (a
    bot moves on Enter), the card style (symbols, four colours, hand order)."""

    TITLE = "canasta"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #title { height: 1; background: $boost; }
    #pile { height: auto; max-height: 3; }
    #middle { height: 1fr; min-height: 6; }
    #melds { width: 1fr; height: 100%; overflow-y: auto; }
    #seats { width: 40%; min-width: 32; max-width: 60; height: 100%;
             border-left: vkey $primary-darken-2; padding-left: 1;
             text-wrap: nowrap; text-overflow: ellipsis; }
    #hand { height: auto; max-height: 4; background: $boost; }
    #turn { height: 1; }
    #menu { height: auto; max-height: 5; color: $text; }
    #messages { height: 3; scrollbar-size: 0 0; }
    #prompt { height: 1; border: none; padding: 0 1; background: $boost; }
    """
    #: The footer's keys: (key, action, catalogue key ``play.key.*`` of its label).
    KEYS = [("f1", "help", "help"), ("f2", "sort", "sort"), ("f3", "colours", "colours"),
            ("f4", "hint", "hint"), ("f5", "log", "log"), ("f6", "pile", "pile"),
            ("ctrl+q", "leave", "quit")]
    BINDINGS = [
        *(Binding(key, action, t(f"play.key.{label}")) for key, action, label in KEYS),
        Binding("tab", "complete", "Complete", show=False, priority=True),
        # Ctrl-C asks before leaving (in the input line it would copy the selection).
        Binding("ctrl+c", "ask_quit", "Quit", show=False, priority=True),
    ]

    def __init__(self, session: Session, *, speed: float = 0.8, step: bool = False,
                 style: CardStyle | None = None) -> None:
        super().__init__()
        self.session = session
        session.symbols = True  # cards in words as in the hand: "discards 7♥"
        self.speed = speed
        self.step = step
        self.card_style = style or CardStyle(symbols=True)
        # the last lines of the hand so far are the log's first: the deal and the upcard,
        # or where a resumed match or a position stands
        self.shown = max(0, len(session.state.events) - 3)
        self.waiting_result = False
        self.bot_scheduled = False
        self.thinking = False
        self.quit_message = ""
        #: What the profile of a finished match says (printed after the table closes).
        self.profile_note = ""
        #: The hints shown in the menu's place until the next move (F4 / ``hint``).
        self.hints: Text | None = None
        #: Where the menu's moves are drawn, for clicks (:data:`table_view.MenuSpan`).
        self.menu_spans: list[MenuSpan] = []

    @classmethod
    def in_language(cls, lang: str) -> type[TableApp]:
        """The app whose footer labels its keys in ``lang``: a subclass with its own
        ``BINDINGS`` (Textual's bindings are per class; a subclass's replace its base's)."""
        if lang == "en":
            return cls
        bindings = [Binding(key, action, t(f"play.key.{label}", lang))
                    for key, action, label in cls.KEYS]
        bindings += [b for b in cls.BINDINGS
                     if isinstance(b, Binding) and b.key in ("tab", "ctrl+c")]
        return type(f"{cls.__name__}_{lang}", (cls,), {"BINDINGS": bindings})

    # layout ----------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield Static(id="pile")
        with Horizontal(id="middle"):
            yield Static(id="melds")
            yield Static(id="seats")
        with Vertical(id="bottom", classes="-auto"):
            yield Static(id="hand")
            yield Static(id="turn")
            yield Static(id="menu")
            yield RichLog(id="messages", max_lines=200, wrap=True, markup=False)
            yield Input(id="prompt", placeholder=t("play.tui.placeholder", self.session.lang))
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#bottom").styles.height = "auto"
        self.flush_log()
        self.redraw()
        self.query_one("#prompt", Input).focus()
        self.advance()

    # drawing ---------------------------------------------------------------------------------
    def redraw(self) -> None:
        if self.closing:
            return
        s = self.session
        view = s.view
        lang = s.lang
        self.query_one("#title", Static).update(title_text(s, self.size.width))
        self.query_one("#pile", Static).update(pile_text(view, self.card_style, lang))
        melds = self.query_one("#melds", Static)
        # one cell short of the pane: a line never runs into the players' border
        melds.update(melds_text(view, s.names, s.team_names, self.card_style, lang,
                                (melds.size.width or self.size.width - 34) - 1))
        self.fit_seats()
        self.call_after_refresh(self.fit_seats)  # again once the menu's new height is laid out
        self.query_one("#hand", Static).update(
            hand_text(view, s.gained, self.card_style, lang))
        turn = explain.turn_line(view, s.names, lang)
        if self.step and s.bot_to_act():
            turn += "  " + t("play.tui.next_move", lang)
        self.query_one("#turn", Static).update(Text(turn, style="bold"))
        width = max(self.size.width - 2, 40)
        if not s.human_to_act():
            self.hints = None
        self.menu_spans = []
        menu = (self.hints or menu_text(view, width, lang=s.lang, spans=self.menu_spans)) \
            if s.human_to_act() \
            else Text("")
        self.query_one("#menu", Static).update(menu)
        prompt = self.query_one("#prompt", Input)
        prompt.suggester = SuggestFromList(moves.suggestions(view) if s.human_to_act()
                                           else [], case_sensitive=False)

    def fit_seats(self) -> None:
        """The players and their last turns, as many lines each as the pane's height holds
        (the pane shrinks when the menu grows: a turn's lines must not push a player off)."""
        if self.closing:
            return
        s = self.session
        seats = self.query_one("#seats", Static)
        seats.update(seats_text(s.view, s.names, s.team_names, s.lang, seats.size.height,
                                seats.content_size.width))

    def on_resize(self) -> None:
        """The melds and the players' moves are packed to the panes' sizes: pack again
        once the new sizes are laid out."""
        self.call_after_refresh(self.redraw)

    def too_long(self, lines: list[str]) -> bool:
        """Whether ``lines`` wrap to more rows than the message box shows."""
        box = self.query_one("#messages", RichLog)
        width = max((box.content_size.width or self.size.width) - 1, 20)
        rows = sum(len(Text(line).wrap(self.console, width)) for line in lines)
        return rows > (box.content_size.height or 3)

    def say(self, line: str | Text, style: str = "") -> None:
        text = line if isinstance(line, Text) else Text(line, style=style)
        self.query_one("#messages", RichLog).write(text)

    def flush_log(self) -> None:
        s = self.session
        events = s.state.events
        for event in events[self.shown:]:
            line = s.describe(event)
            if line:
                self.say(line, "" if action_of(event) is not None else "italic")
        self.shown = len(events)

    # the flow --------------------------------------------------------------------------------
    def advance(self) -> None:
        """After any change: let the bots move (paced or stepped), or end the hand."""
        s = self.session
        if s.auto_draw_now() is not None:  # --auto-draw: the turn could only start so
            self.flush_log()
            self.say(t("play.auto_drew", s.lang), "dim")
            self.redraw()
        if s.state.is_over:
            self.end_of_hand()
        elif s.bot_to_act() and not self.step and not self.bot_scheduled:
            self.bot_scheduled = True
            if self.speed > 0:
                self.set_timer(self.speed, self.bot_move)
            else:
                self.call_later(self.bot_move)

    def bot_move(self) -> None:
        """Let the bot to act think in a worker thread (a search bot takes its time; the
        screen stays live), then play its move here."""
        self.bot_scheduled = False
        if not self.session.bot_to_act() or self.thinking:
            return
        self.thinking = True
        self.run_worker(self._think, thread=True, group="bot")

    def _think(self) -> None:
        action, failure = self.session.decide_bot()
        self.call_from_thread(self._bot_decided, action, failure)

    @property
    def closing(self) -> bool:
        """The table's widgets are gone (the app is shutting down): a bot's or a hint's
        worker that finishes now has nothing to draw on."""
        return not self.query("#title")

    def _bot_decided(self, action: Action, failure: str | None) -> None:
        self.thinking = False
        if self.closing:
            return
        s = self.session
        if not s.bot_to_act():
            return
        s.apply_bot(action)
        if failure:
            self.say(failure, "red")
        self.flush_log()
        self.redraw()
        self.advance()

    def end_of_hand(self) -> None:
        if self.waiting_result:
            return
        self.waiting_result = True
        self.flush_log()
        self.session.finish_hand()
        self.redraw()
        self.push_screen(ResultScreen(result_text(self.session)), self.after_result)

    def after_result(self, go_on: bool | None) -> None:
        self.waiting_result = False
        s = self.session
        if not go_on or s.match.winner is not None:
            self.profile_note = s.record_profile()
            self.action_leave()
            return
        s.next_hand()
        self.shown = 0
        self.query_one("#messages", RichLog).clear()
        self.say(t("play.tui.dealt", s.lang, n=s.hand_number), "bold")
        self.flush_log()
        self.redraw()
        self.advance()

    @on(Input.Submitted, "#prompt")
    def typed(self, event: Input.Submitted) -> None:
        line = event.value.strip()
        event.input.value = ""
        s = self.session
        low = s.command(line)
        if not line:
            if self.step and s.bot_to_act():
                self.bot_move()
            return
        if low in ("quit", "q", "exit"):
            self.action_leave()
            return
        if low in ("help", "?"):
            self.action_help()
            return
        if low == "sort":
            self.action_sort()
            return
        if low == "log":
            self.action_log()
            return
        if low in ("hint", "hints"):
            self.action_hint()
            return
        if low == "pile":
            self.action_pile()
            return
        if not s.human_to_act() and low not in ("why",):
            event.input.value = line  # typed ahead while a bot plays: kept, not lost
            if self.step and s.bot_to_act():
                self.bot_move()  # Enter still steps the bots
            else:
                self.say(t("play.tui.not_your_turn", s.lang), "yellow")
            return
        self.say(Text("> " + line, style="dim"))
        reply = s.submit(line)
        if low == "why" and self.too_long(reply.lines):
            # the seed's sentence with its translation runs past the three message lines,
            # which would show only its tail: the whole answer opens as a page
            self.push_screen(TextScreen(Text("\n".join(reply.lines))))
            return
        style = {"refused": "bold red", "error": "bold red", "choices": "yellow"}.get(
            reply.kind, "")
        if reply.kind == "played":
            self.hints = None  # they were for the position before this move
            self.flush_log()  # what happened first ("You take the pile"), then its notes
        for text in reply.lines:
            self.say(text, style)
        self.redraw()
        self.advance()

    # the mouse -------------------------------------------------------------------------------
    async def on_click(self, event: events.Click) -> None:
        """Clicks: a card of the hand goes into the input line (a meld, or the cards that
        take the pile, being built; clicked again, it comes out), a move of the menu is
        played, the pile is taken (or its cards asked for), the stock in the title is drawn
        from. The keys work as before."""
        widget = event.widget
        s = self.session
        if widget is None or not widget.id or not s.human_to_act() or self.closing:
            return
        at = event.get_content_offset(widget)
        if at is None:
            return
        prompt = self.query_one("#prompt", Input)
        if widget.id == "menu" and self.hints is None:
            for row, start, end, line in self.menu_spans:
                if row == at.y and start <= at.x < end:
                    await self.play_clicked(line)
                    return
        elif widget.id == "hand" and at.y == 0:
            card = card_at(self.query_one("#hand", Static).visual, at.x)
            if card:
                prompt.value = toggled(prompt.value, card, s.view.phase)
                prompt.cursor_position = len(prompt.value)
                prompt.focus()
        elif widget.id == "pile":
            takes = [a for a in s.view.legal_actions if isinstance(a, TakePile)]
            if len(takes) == 1:
                await self.play_clicked(moves.short_text(takes[0]))
            elif takes:
                prompt.value = "t "
                prompt.cursor_position = 2
                self.say(t("play.tui.click_take", s.lang), "yellow")
            else:
                self.say(" ".join(explain.pile_lines(s.view, s.lang)), "yellow")
        elif widget.id == "title" and Draw() in s.view.legal_actions:
            stock = t("play.tui.stock", s.lang, n=s.view.stock_size)
            title = self.query_one("#title", Static).visual
            text = getattr(title, "plain", "")
            start = text.rfind(stock)
            if start >= 0 and start <= at.x < start + len(stock):
                await self.play_clicked("s")

    async def play_clicked(self, line: str) -> None:
        """Play ``line`` as if typed and entered."""
        prompt = self.query_one("#prompt", Input)
        prompt.value = line
        await prompt.action_submit()

    # keys ------------------------------------------------------------------------------------
    def action_help(self) -> None:
        self.push_screen(TextScreen(help_table(self.session.lang)))

    def action_complete(self) -> None:
        """Tab (like →) takes the move the input line suggests."""
        prompt = self.query_one("#prompt", Input)
        prompt.cursor_position = len(prompt.value)
        prompt.action_cursor_right()

    def action_sort(self) -> None:
        st = self.card_style
        self.card_style = CardStyle(st.symbols, st.four_colour,
                                    "suit" if st.sort == "rank" else "rank")
        self.redraw()

    def action_colours(self) -> None:
        st = self.card_style
        self.card_style = CardStyle(st.symbols, not st.four_colour, st.sort)
        self.redraw()

    def action_hint(self) -> None:
        """The suggested moves on one line, the best one's reason on the next, and the best
        move typed into the input line (Enter plays it). The search runs in a worker
        thread."""
        if self.session.human_to_act():
            self.say("…", "dim")
        self.run_worker(self._hint, thread=True, group="hint", exclusive=True)

    def _hint(self) -> None:
        reply = self.session.hint()
        self.call_from_thread(self._show_hint, reply)

    def _show_hint(self, reply: Reply) -> None:
        """The hints in the menu's place (five lines, where the three-line log cut them at
        80×24 in longer languages): a head, the best move with its reasons on up to two
        lines, the others on one line each; the best move is typed into the input line."""
        if self.closing:
            return
        if not reply.choices:
            for text in reply.lines:
                self.say(text, "yellow")
            return
        width = max(self.size.width - 2, 40)
        out = Text(t("play.tui.hints", self.session.lang), style="bold green")
        for i, line in enumerate(reply.lines):
            out.append("\n")
            out.append(fit_hint(line, width * 2 if i == 0 else width),
                       style="green" if i == 0 else "")
        self.hints = out
        self.redraw()
        prompt = self.query_one("#prompt", Input)
        prompt.value = moves.short_text(reply.choices[0])
        prompt.cursor_position = len(prompt.value)

    def action_pile(self) -> None:
        """What taking the pile needs, and its face-up cards bottom to top."""
        s = self.session
        lines = explain.pile_lines(s.view, s.lang) + [""] + explain.pile_cards_lines(
            s.view, s.lang, symbol_text if self.card_style.symbols else None)
        self.push_screen(TextScreen(Text("\n".join(lines))))

    def action_log(self) -> None:
        s = self.session
        lines = [line for e in s.state.events
                 if (line := s.describe(e))]
        self.push_screen(TextScreen(Text("\n".join(lines[-60:]) or "-")))

    def action_ask_quit(self) -> None:
        """Ctrl-C: ask "Quit? (your match is saved)" (or that it is not, without ``--save``);
        leave on yes."""
        if isinstance(self.screen, QuitScreen):  # Ctrl-C twice: yes
            self.screen.action_answer(True)
            return
        s = self.session
        body = (t("play.tui.quit_saved", s.lang, path=s.save) if s.save is not None
                else t("play.tui.quit_unsaved", s.lang))

        def answered(leave: bool | None) -> None:
            if leave:
                self.action_leave()

        self.push_screen(QuitScreen(body), answered)

    def action_leave(self) -> None:
        s = self.session
        if s.save is not None:
            s.autosave()
            self.quit_message = t("play.tui.saved", s.lang, path=s.save)
        else:
            self.quit_message = t("play.tui.bye", s.lang)
        self.exit()


def fit_hint(line: str, room: int) -> str:
    """A hint line ("1. d Kc  (+30 points) — Reason. Reason.") in at most ``room`` cells:
    its reasons give way a whole sentence at a time, then all of them, so that no word is cut
    (the move and its value always stay)."""
    if len(line) <= room:
        return line
    move, sep, reasons = line.partition(" — ")
    sentences = [x for x in reasons.replace(". ", ".\n").split("\n") if x] if sep else []
    while sentences:
        sentences.pop()
        shorter = move + (sep + " ".join(sentences) if sentences else "")
        if len(shorter) <= room:
            return shorter
    return move


def run_table(session: Session, *, speed: float = 0.8, step: bool = False,
              style: CardStyle | None = None) -> None:
    """Play ``session`` on the full-screen table until the match ends or the person quits."""
    app = TableApp.in_language(session.lang)(session, speed=speed, step=step, style=style)
    app.run()
    if app.quit_message:
        print(app.quit_message)
    if app.profile_note:
        print(app.profile_note)
