"""The full-screen table of `canasta play` (src/canasta/cli/tui.py), driven headless with
Textual's pilot at 80×24 (and larger), as a person would use it: keys and typed moves.

Set CANASTA_SHOTS=DIR to keep an SVG and a text screenshot of each screen checked here.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import RichLog

from canasta import Match, load_preset
from canasta.cli import moves, render
from canasta.cli.session import Session
from canasta.cli.table_view import hand_text
from canasta.cli.tui import ResultScreen, TableApp
from canasta.core.actions import Discard, Draw
from canasta.core.cards import card_text, suit_of
from tuikit import drive, new_session, play_out, screen_text, shot, typed, until_human


def test_the_table_fits_80x24_and_redraws_in_place() -> None:
    s = new_session()
    app = TableApp(s, speed=0)

    async def script(pilot: Pilot[None]) -> None:
        await until_human(pilot, s)
        await pilot.pause()
        first = shot(app, "table-draw")
        assert len(first) == 24 and all(len(line) <= 80 for line in first)
        text = "\n".join(first)
        assert first[0].startswith("Hand 1 · International Canasta to 5000")
        assert "Stock" in first[0] and "Pile" in first[1]
        assert "Your hand (11, by rank)" in text
        assert "Your turn: draw from the stock (s) or take the pile (t)." in text \
            or "Your turn: draw from the stock (s)." in text
        # Every player's last move is on screen (the bots have played before the person).
        for seat in (1, 2, 3):
            assert s.names[seat] in text
        await typed(pilot, "s")
        second = shot(app, "table-play")
        assert len(second) == 24, "the table is redrawn in place, not scrolled"
        drawn = s.gained
        assert drawn and "*" in "\n".join(second)  # the drawn card is marked
        assert "discard:" in "\n".join(second)  # the grouped menu
        # the menu grew and the players' pane shrank: still every player is in it
        pane = "\n".join(line[49:] for line in second[2:16])
        for name in s.names:
            assert f"{name} " in pane, pane

    drive(app, (80, 24), script)


def test_moves_in_words_show_cards_with_their_suits() -> None:
    """The hand had suit symbols but every player's last move and the log read "West
    discards 3c.": the words now write cards as the hand does ("3♣"), while the menu keeps
    the forms that are typed."""
    import re

    s = new_session()
    app = TableApp(s, speed=0)
    plain = re.compile(r"\b(?:10|[2-9AKQJ])[shdc]\b")

    async def script(pilot: Pilot[None]) -> None:
        await until_human(pilot, s)
        await pilot.pause()
        lines = shot(app, "table-symbols")
        seats = [line[49:] for line in lines[2:16]]
        moved = [line for line in seats if "discard" in line]
        assert moved and all(any(c in line for c in "♠♥♦♣") for line in moved), seats
        assert not any(plain.search(line) for line in seats), seats
        log = app.query_one("#messages", RichLog)
        text = "\n".join(str(line.text) for line in log.lines)
        assert "discards" in text and not plain.search(text), text

    drive(app, (80, 24), script)


def pile_takeable_session() -> Session:
    """A session where the person may take the pile now (drawing and discarding until then)."""
    from canasta.core.actions import TakePile

    for seed in range(40):
        s = new_session(seed=seed)
        for _ in range(60):
            if s.state.is_over:
                break
            if s.bot_to_act():
                s.play_bot()
                continue
            legal = s.view.legal_actions
            if any(isinstance(a, TakePile) for a in legal):
                return s
            s.play(Draw() if Draw() in legal else
                   next(a for a in legal if isinstance(a, Discard)))
    raise AssertionError("no pile to take")


def test_taking_the_pile_is_told_before_the_cards_it_brought() -> None:
    """The log read "You took 7s 6s 6h." before "You take the discard pile": what happened
    comes first, then the note of the cards that came into the hand."""
    s = pile_takeable_session()
    app = TableApp(s, speed=0)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.pause()
        from canasta.core.actions import TakePile

        take_pile = next(a for a in s.view.legal_actions if isinstance(a, TakePile))
        await typed(pilot, moves.short_text(take_pile))
        log = [str(line.text) for line in app.query_one("#messages", RichLog).lines]
        take = next(i for i, line in enumerate(log) if line.startswith("You take the"))
        took = next(i for i, line in enumerate(log) if line.startswith("You took"))
        assert take < took, log
        assert any(c in log[took] for c in "♠♥♦♣"), log[took]

    drive(app, (80, 24), script)


def test_a_resumed_match_opens_with_its_last_moves_in_the_log() -> None:
    """A resumed match (or a position played on) opened on an empty log, and a new one
    without the deal's lines ("The upcard is Ks."): the log starts with the hand's last
    lines."""
    s = new_session(seed=5)
    for _ in range(9):
        s.play_bot() if s.bot_to_act() else s.play(
            Draw() if Draw() in s.view.legal_actions
            else next(a for a in s.view.legal_actions if isinstance(a, Discard)))
    app = TableApp(s, speed=0)
    last = [line for e in s.state.events if (line := s.describe(e))][-1]

    async def script(pilot: Pilot[None]) -> None:
        await pilot.pause()
        log = [str(line.text) for line in app.query_one("#messages", RichLog).lines]
        assert last in log, (last, log)

    drive(app, (80, 24), script)


def test_a_bot_move_that_arrives_as_the_table_closes_draws_nothing() -> None:
    """A bot's worker that finished while the app was closing drew on widgets already gone
    ("No nodes match '#title'", a WorkerFailed seen once in the whole suite): its move
    arriving after the widgets are removed is dropped, not drawn."""
    s = new_session(seed=5)
    app = TableApp(s, speed=0, step=True)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.pause()
        assert s.bot_to_act()
        action, failure = s.decide_bot()
        before = len(s.match.record.actions)
        await app.query_one("#title").remove()  # as the shutdown does, first
        app._bot_decided(action, failure)
        assert len(s.match.record.actions) == before

    drive(app, (80, 24), script)


def test_the_table_grows_with_the_terminal() -> None:
    s = new_session(seed=6)
    app = TableApp(s, speed=0)

    async def script(pilot: Pilot[None]) -> None:
        await until_human(pilot, s)
        await pilot.pause()
        lines = shot(app, "table-120x40")
        assert len(lines) == 40
        assert max(len(line) for line in lines) > 80
        middle = app.query_one("#middle")
        assert middle.size.height >= 20
        # room for each player's whole last turn: what a pile taken or a meld did, not
        # only the discard that ended it
        pane = [line[73:].strip() for line in lines[2:30]]
        assert app.query_one("#seats").size.width > 32  # the pane grew too
        turns = [i for i, line in enumerate(pane) if line.startswith(
            tuple(f"{n} {w}" for n in s.names[1:] for w in ("melds", "takes", "adds")))]
        assert turns and all(any("discards" in x for x in pane[i + 1:i + 5]) for i in turns)

    drive(app, (120, 40), script)


def test_short_moves_typed_play_the_turn_and_the_bots_follow() -> None:
    s = new_session(seed=7)
    app = TableApp(s, speed=0)

    async def script(pilot: Pilot[None]) -> None:
        await until_human(pilot, s)
        assert Draw() in s.view.legal_actions
        await typed(pilot, "s")
        discard = next(a for a in s.view.legal_actions if isinstance(a, Discard))
        assert isinstance(discard, Discard)
        before = len(s.match.record.actions)
        # Completion: "d" and Tab give the first legal discard's short form.
        await pilot.press("d", "tab")
        assert app.query_one("#prompt").value == f"d {card_text(discard.card)}"  # type: ignore[attr-defined]
        await typed(pilot, f"d {card_text(discard.card)}")
        assert s.match.record.actions[before] == (0, discard.text())
        await until_human(pilot, s)
        assert len(s.match.record.actions) > before + 3  # three bots moved
        # A refusal is said in plain words and leaves the turn to the person.
        await typed(pilot, "d " + card_text(s.view.hand[0]))  # before drawing
        log = "\n".join(shot(app, "table-refusal"))
        assert "Not allowed: " in log and s.human_to_act()

    drive(app, (80, 24), script)


def test_step_mode_moves_a_bot_only_on_enter() -> None:
    s = new_session(seed=8)
    app = TableApp(s, speed=0, step=True)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.pause()
        if not s.bot_to_act():  # the person starts: play a turn to hand over
            await typed(pilot, "s")
            d = next(a for a in s.view.legal_actions if isinstance(a, Discard))
            await typed(pilot, d.text())
        assert s.bot_to_act()
        moved = len(s.match.record.actions)
        await pilot.pause(0.05)
        assert len(s.match.record.actions) == moved, "no bot moves by itself"
        assert "(Enter: next move)" in "\n".join(screen_text(app))
        await typed(pilot, "")
        assert len(s.match.record.actions) == moved + 1

    drive(app, (80, 24), script)


def test_keys_sort_the_hand_by_suit_and_switch_to_four_colours() -> None:
    s = new_session(seed=9)
    app = TableApp(s, speed=0)

    async def script(pilot: Pilot[None]) -> None:
        await until_human(pilot, s)
        assert app.card_style.sort == "rank" and not app.card_style.four_colour
        await pilot.press("f2")
        assert app.card_style.sort == "suit"
        order = render.hand_order(s.view.hand, "suit")
        suits = [suit_of(c) for c in order if c != 52 and card_text(c)[0] not in "23"]
        assert suits == sorted(suits)
        assert "by suit" in "\n".join(screen_text(app))
        await pilot.press("f3")
        assert app.card_style.four_colour
        text = hand_text(s.view, (), app.card_style, "en")
        styles = {str(span.style) for span in text.spans}
        diamonds = [c for c in s.view.hand if c != 52 and suit_of(c) == 2]
        if diamonds:
            assert any("blue" in st for st in styles)
        shot(app, "table-four-colour")

    drive(app, (80, 24), script)


def test_the_hand_ends_on_a_score_screen_and_enter_deals_the_next() -> None:
    s = new_session(seed=10)
    play_out(s)
    app = TableApp(s, speed=0)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.pause()
        assert isinstance(app.screen, ResultScreen)
        text = "\n".join(shot(app, "table-result"))
        assert "Hand 1 ends:" in text and "Match after 1 hand" in text
        assert "Enter: next hand" in text
        # the title line over the sheet has the match's new totals, not the deal's zeros
        title = screen_text(app)[0]
        assert all(f" {score}" in title for score in s.match.scores), title
        assert any(s.match.scores), s.match.scores
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, ResultScreen)
        assert s.hand_number == 2
        assert screen_text(app)[0].startswith("Hand 2")

    drive(app, (80, 24), script)


def test_the_score_screen_names_the_partner_of_the_player_who_went_out() -> None:
    """The sheet numbers a side's players in seat order and the player who went out keeps
    a number; the table named the partner's row from the players still holding
    cards, so East's cards read "Cards left in hand, player 2" after West went out."""
    s = new_session(seed=0)
    play_out(s)
    assert s.state.went_out == 1  # West, the first seat of West & East
    app = TableApp(s, speed=0)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.pause()
        assert isinstance(app.screen, ResultScreen)
        text = "\n".join(shot(app, "table-result-went-out"))
        assert "Cards left in hand, East" in text
        assert "player" not in text
        # every player's cards left, as they are shown at a real table to be counted
        left = "\n".join(line for line in text.splitlines()
                         if line.startswith("Cards left in hand:") or "·" in line)
        for seat in range(4):
            name = s.names[seat]
            assert (f"{name} " in left) == bool(s.state.hand_cards(seat)), (name, left)
        assert "West " not in left  # West went out: no cards

    drive(app, (80, 24), script)
    assert s.sheet_players(1) == ["West", "East"]


def test_help_opens_over_the_table_and_closes() -> None:
    s = new_session(seed=11)
    app = TableApp(s, speed=0)

    async def script(pilot: Pilot[None]) -> None:
        await until_human(pilot, s)
        await pilot.press("f1")
        await pilot.pause()
        text = "\n".join(shot(app, "table-help"))
        assert "m 9 9 JK" in text and "F2 sort" in text and "suggested moves" in text
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.screen_stack[0]
        # F6: the discard pile's face-up cards, bottom to top, under what taking it needs.
        await pilot.press("f6")
        await pilot.pause()
        text = "\n".join(shot(app, "table-pile"))
        # with suit symbols, as the rest of the table writes cards ("7♥", not "7h")
        cards = " ".join(render.symbol_text(card_text(c)) for c in s.view.pile)
        assert f"Discard pile, bottom to top ({len(s.view.pile)} face up): {cards[:20]}" in text

    drive(app, (80, 24), script)


def test_canasta_play_in_a_terminal_opens_the_table_and_saves_on_quit(tmp_path: Path) -> None:
    """The real command in a pseudo-terminal of 80×24: the full-screen table comes up (not
    the line mode), and Ctrl+Q leaves it, saving the match."""
    import fcntl
    import pty
    import select
    import struct
    import sys
    import termios
    import time

    save = tmp_path / "g.json"
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command itself
        os.environ.update(TERM="xterm-256color", COLUMNS="80", LINES="24")
        os.execv(sys.executable, [sys.executable, "-c", "from canasta.cli import main; main()",
                                  "play", "--seed", "3", "--speed", "0", "--save", str(save)])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    out = b""

    def read_until(marker: bytes, seconds: float) -> bool:
        nonlocal out
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    return marker in out
            if marker in out:
                return True
        return False

    try:
        assert read_until(b"Your hand", 20), out[-500:]
        assert b"\x1b[?1049h" in out  # the alternate screen: the table redraws in place
        os.write(fd, b"\x11")  # Ctrl+Q
        assert read_until(b"Saved to", 10), out[-500:]
    finally:
        os.waitpid(pid, 0)
    assert json.loads(save.read_text("utf-8"))["format"] == "canasta-record"


@pytest.mark.parametrize("lang", ["en", "ro"])
def test_f4_shows_hints_from_the_expert(lang: str) -> None:
    """The hints go in the menu's place: in the three lines of the log, the Romanian ones
    (longer) lost their first line, the moves themselves, at 80×24."""
    from canasta.i18n import t

    match = Match(load_preset("international"), 4, seed=12)
    s = Session(match, render.seat_names(4, lang=lang), ["", "greedy", "greedy", "greedy"],
                lang=lang)
    s.hint_budget = 0.05
    app = TableApp.in_language(lang)(s, speed=0)
    head_text = t("play.tui.hints", lang)

    async def script(pilot: Pilot[None]) -> None:
        await until_human(pilot, s)
        await typed(pilot, "s")
        await pilot.press("f4")
        for _ in range(200):  # the search runs in a worker thread
            await pilot.pause(0.02)
            if app.hints is not None:
                break
        await pilot.pause()
        lines = shot(app, f"table-hint-{lang}")
        head = next(i for i, line in enumerate(lines) if line.startswith(head_text))
        assert lines[head + 1].startswith("1. ")
        assert app.hints is not None
        numbered = [ln for ln in app.hints.plain.splitlines() if ln[:3] in ("1. ", "2. ", "3. ")]
        shown = [ln for ln in lines if ln[:3] in ("1. ", "2. ", "3. ")]
        assert numbered and len(shown) == len(numbered), lines
        best = app.query_one("#prompt").value  # type: ignore[attr-defined]
        assert best, "the best move is typed in, ready to play"
        await pilot.press("enter")
        await pilot.pause()
        assert s.match.record.actions[-1][0] != 0 or not s.human_to_act() or \
            moves.resolve(best, s.view) is not None
        assert app.hints is None  # the hints were for the position before the move

    drive(app, (80, 24), script)


def test_a_move_typed_while_a_bot_plays_stays_on_the_line() -> None:
    """A move typed ahead during the bots' turns (paced a second apart) was cleared and
    lost; it stays on the line, with a word why, and Enter plays it on the person's turn.
    In step mode Enter still moves the next bot."""
    for step in (False, True):
        s = new_session(seed=8)
        app = TableApp(s, speed=30.0, step=step)  # the bots wait: the turn stays theirs

        async def script(pilot: Pilot[None], s: Session = s, app: TableApp = app,
                         step: bool = step) -> None:
            await pilot.pause()
            if not s.bot_to_act():
                await typed(pilot, "s")
                d = next(a for a in s.view.legal_actions if isinstance(a, Discard))
                await typed(pilot, d.text())
            assert s.bot_to_act()
            moved = len(s.match.record.actions)
            await typed(pilot, "s")
            assert app.query_one("#prompt").value == "s"  # type: ignore[attr-defined]
            if step:
                assert len(s.match.record.actions) == moved + 1
            else:
                assert len(s.match.record.actions) == moved
                assert "Not your turn yet" in "\n".join(screen_text(app))

        drive(app, (80, 24), script)


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_ctrl_c_asks_before_leaving_and_says_the_match_is_saved(tmp_path: Path,
                                                                 lang: str) -> None:
    """Ctrl-C did nothing on the table (in the input line it copies): it asks "Quit? (your
    match is saved)", n goes on playing, y leaves and saves."""
    save = tmp_path / "g.json"
    s = new_session(save=save, lang=lang)
    app = TableApp.in_language(lang)(s, speed=0)
    from canasta.cli.tui import QuitScreen

    async def script(pilot: Pilot[None]) -> None:
        await until_human(pilot, s)
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
        text = "\n".join(shot(app, f"table-ctrl-c-{lang}"))
        words = {"en": "Quit? (your match is saved in", "pt": "Sair? (a partida está salva em"}
        assert words[lang] in text, text
        await pilot.press("n")
        await pilot.pause()
        assert not isinstance(app.screen, QuitScreen) and app.is_running
        await pilot.press("ctrl+c")
        await pilot.pause()
        await pilot.press("s" if lang == "pt" else "y")
        await pilot.pause()

    drive(app, (80, 24), script)
    assert app.quit_message.startswith("Saved to" if lang == "en" else "Salvo em")
    assert json.loads(save.read_text("utf-8"))["format"] == "canasta-record"


def test_ctrl_c_twice_leaves_and_an_unsaved_match_says_so() -> None:
    s = new_session()
    app = TableApp(s, speed=0)

    async def script(pilot: Pilot[None]) -> None:
        await until_human(pilot, s)
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert "this match is not saved" in "\n".join(shot(app, "table-ctrl-c-unsaved"))
        await pilot.press("ctrl+c")
        await pilot.pause()

    drive(app, (80, 24), script)
    assert app.quit_message.startswith("Bye.")


def test_auto_draw_draws_on_the_table_when_nothing_else_starts_the_turn() -> None:
    from canasta.core.state import Phase

    for seed in range(3, 12):
        s = new_session(seed=seed, auto_draw=True)
        app = TableApp(s, speed=0)
        seen: list[str] = []

        async def script(pilot: Pilot[None], s: Session = s, app: TableApp = app,
                         seen: list[str] = seen) -> None:
            await until_human(pilot, s)
            await pilot.pause()
            seen.append(s.view.phase.value)
            seen.extend(str(line.text) for line in app.query_one("#messages", RichLog).lines)

        drive(app, (80, 24), script)
        if seen[0] == Phase.PLAY.value:
            assert any("Drawn for you from the stock" in line for line in seen), seen
            return
    raise AssertionError("no deal where the pile could not be taken")


def test_the_mouse_draws_builds_a_meld_and_plays_a_move_of_the_menu() -> None:
    """Clicks: the stock in the title draws, a card of the hand goes into the input line (a
    second click takes it out), a move of the menu is played; the keys still work."""
    from canasta.cli.table_view import card_at
    from canasta.core.state import Phase

    s = new_session(seed=5)
    app = TableApp(s, speed=0)

    async def script(pilot: Pilot[None]) -> None:
        await until_human(pilot, s)
        await pilot.pause()
        assert s.view.phase is Phase.DRAW
        title = screen_text(app)[0]
        stock = title.rfind("Stock")
        await pilot.click("#title", offset=(stock + 2, 0))
        await pilot.pause()
        assert s.view.phase is Phase.PLAY, "the click on the stock drew"
        hand_line = screen_text(app)[[i for i, line in enumerate(screen_text(app))
                                      if line.startswith("Your hand")][0]]
        x = hand_line.index(": ") + 2
        card = card_at(hand_line, x)
        assert card
        await pilot.click("#hand", offset=(x, 0))
        await pilot.pause()
        prompt = app.query_one("#prompt")
        assert prompt.value == f"m {card}"  # type: ignore[attr-defined]
        await pilot.click("#hand", offset=(x, 0))
        await pilot.pause()
        assert prompt.value.strip() == "m"  # type: ignore[attr-defined]
        prompt.value = ""  # type: ignore[attr-defined]
        row, start, _, line = next(sp for sp in app.menu_spans if sp[3].startswith("d "))
        before = len(s.match.record.actions)
        await pilot.click("#menu", offset=(start, row))
        await pilot.pause()
        assert len(s.match.record.actions) > before
        assert any(str(x.text) == "> " + line
                   for x in app.query_one("#messages", RichLog).lines)

    drive(app, (100, 30), script)


def test_why_after_a_refusal_shows_the_whole_sentence_at_80x24() -> None:
    """`why` answers with the seed's sentence, its translation and the rule in short: at
    80×24 that runs past the three message lines, which showed only its tail ("sono concesse
    ..." without its start). It opens as a page instead, from "Why:" to the end."""
    s = new_session()
    app = TableApp(s, speed=0)

    async def script(pilot: Pilot[None]) -> None:
        await until_human(pilot, s)
        await typed(pilot, "s")
        hand = s.view.hand
        ranks = sorted({card_text(c)[:-1] for c in hand if card_text(c) != "JK"})
        await typed(pilot, f"m {ranks[0]} {ranks[1]} {ranks[1]}")
        assert "Not allowed" in "\n".join(screen_text(app))
        await typed(pilot, "why")
        text = " ".join(shot(app, "table-why"))
        assert "Why: the International Canasta text (seed 002" in text, text
        assert "In short:" in text
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.screen_stack[0]

    drive(app, (80, 24), script)
