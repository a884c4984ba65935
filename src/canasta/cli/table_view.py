"""What each part of the full-screen table shows (:mod:`canasta.cli.tui`), as Rich text built
from a :class:`~canasta.core.state.View` and the :class:`~canasta.cli.session.Session`: the
title line, the pile, the melds, the players, the hand, the grouped moves, the help page and
the end-of-hand sheet. Pure functions: no Textual, no state changed, no rule decided."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

import canasta.cli.explain as explain
import canasta.cli.moves as moves
import canasta.cli.render as render
from canasta.cli.render import CardStyle, card_label, cards_label
from canasta.cli.session import Session
from canasta.core.actions import LayOff, Meld
from canasta.core.cards import JOKER, POINTS, rank_of, rank_text, sort_key
from canasta.core.meldkey import MeldKey, is_run_key, is_wild_key
from canasta.core.melds import classify_meld
from canasta.core.state import View
from canasta.i18n import t, variant_name

__all__ = ["MenuSpan", "card_at", "hand_text", "help_table", "melds_text", "menu_text",
           "pile_text", "result_text", "seats_text", "title_text", "toggled"]


def title_text(session: Session, width: int = 80) -> Text:
    match = session.match
    view = session.view
    out = Text()
    lang = session.lang
    out.append(t("ui.hand_n", lang, n=session.hand_number), style="bold")
    out.append(f" · {variant_name(match.rules.name, lang)} "
               f"{t('play.tui.to', lang, target=match.rules.target(match.players))} │ ")
    names = session.team_names
    stock = " │ " + t("play.tui.stock", lang, n=view.stock_size)
    # once the hand is scored, the match's totals (the score screen's), not those of the deal
    scores = match.scores if session.state.is_over else view.scores
    full = " · ".join(f"{n} {scores[i]}" for i, n in enumerate(names))
    short = " · ".join(f"#{i + 1} {scores[i]}" for i in range(len(names)))
    if len(out.plain) + len(short) + len(stock) > width:
        # a long variant name ("Canasta classica (Italian classic Canasta)") gives up its
        # words in brackets before the stock is cut off the line
        name = variant_name(match.rules.name, lang).split(" (")[0]
        out = Text()
        out.append(t("ui.hand_n", lang, n=session.hand_number), style="bold")
        out.append(f" · {name} "
                   f"{t('play.tui.to', lang, target=match.rules.target(match.players))} │ ")
    long = len(out.plain) + len(full) + len(stock) > width
    for i, name in enumerate(names):
        if i:
            out.append(" · ")
        if long:  # short labels where the names do not fit
            name = (t("play.tui.us", lang) if i == view.team else t("play.tui.them", lang)
                    if len(names) == 2 else f"#{i + 1}")
        out.append(f"{name} {scores[i]}", style="bold" if i == view.team else "")
    out.append(stock)
    return out


def pile_text(view: View, style: CardStyle, lang: str) -> Text:
    out = Text()
    if view.pile_top is None or not view.pile_size:  # "The pile is empty.", not "Pile The…"
        out.append(explain.pile_lines(view, lang)[0], style="dim")
        return out
    out.append(t("play.tui.pile", lang) + " ", style="bold")
    out.append_text(card_label(view.pile_top, style))
    out.append(f" ({view.pile_size})  ")
    lines = explain.pile_lines(view, lang)
    frozen = view.pile_frozen or view.table.pile_frozen or view.rules.pile.always_frozen
    out.append(lines[0], style="bold cyan" if frozen else "")
    if len(lines) > 1:
        out.append(" " + " ".join(lines[1:]), style="dim")
    return out


def _meld_chip(key: int, cards: tuple[int, ...], view: View, style: CardStyle,
               lang: str = "en") -> Text:
    """A meld as its rank and cards ("K: K♠ K♣ JK"); a canasta, squared up as at a real
    table, as its rank, kind and size ("K: natural canasta (7)", in ``lang``)."""
    kind = classify_meld(cards, view.rules)
    label = rank_text(key)
    if kind is not None:
        which = "wild" if kind.wild else "natural" if kind.natural else "mixed"
        chip = Text(f"{label}: ", style="bold")
        chip.append(f"{t(f'ui.canasta_{which}', lang)} ({len(cards)})",
                    style="bold green" if kind.natural else "green")
        return chip
    chip = Text(f"{label}: ", style="bold")
    chip.append_text(cards_label(sorted(cards, key=sort_key), style=style))
    return chip


def melds_text(view: View, names: list[str], team_names: list[str], style: CardStyle,
               lang: str, width: int = 46) -> RenderableType:
    """Both sides' melds, the seat's side first: a header line (opening, canastas, red
    threes, points melded) and the melds as chips (a canasta as ``K: natural canasta
    (7)``), packed into lines of ``width`` cells."""
    size = view.rules.melds.canasta_size
    parts: list[RenderableType] = []
    order = [view.team] + [t for t in range(len(view.teams)) if t != view.team]
    for team in order:
        melds = {k: m for k, m in view.melds[team].items() if m}
        pieces = [Text(team_names[team], style="bold underline" if team == view.team
                       else "bold")]
        if view.opened[team]:
            pieces.append(Text(t("ui.opened", lang), style="green"))
        elif view.opening_points and view.current in view.teams[team]:
            pieces.append(Text(t("ui.opening_progress", lang, p=view.opening_points,
                                 n=view.opening_minimum[team]), style="bold yellow"))
        else:
            pieces.append(Text(t("ui.opening_needed", lang, n=view.opening_minimum[team]),
                               style="yellow"))
        canastas = sum(1 for m in melds.values() if len(m) >= size)
        if canastas:
            pieces.append(Text(t("play.tui.canastas", lang, n=canastas), style="green"))
        if view.red_threes[team]:  # the red cards speak for themselves: no label
            pieces.append(cards_label(view.red_threes[team], style=style))
        pts = sum(POINTS[c] for m in melds.values() for c in m)
        pieces.append(Text(t("play.tui.melded", lang, n=pts), style="dim"))
        parts.extend(_packed(pieces, width, sep="  ", indent="", hang="    "))
        if not melds:
            parts.append(Text("  " + t("ui.no_melds", lang), style="dim"))
            continue
        parts.extend(_packed([_meld_chip(key, melds[key], view, style, lang)
                              for key in sorted(melds, key=_meld_order)], width))
    return Group(*parts)


def _packed(pieces: list[Text], width: int, sep: str = "   ", indent: str = "  ",
            hang: str | None = None) -> list[Text]:
    """``pieces`` packed into lines of at most ``width`` cells (where each fits), so that
    a meld or a header item ("melded 80") is never cut across two lines; lines after the
    first start with ``hang`` (default ``indent``), so that a header's second line reads as
    its continuation, not as a meld."""
    lines: list[Text] = []
    start = indent
    line = Text(start)
    for piece in pieces:
        if len(line.plain) > len(start) and len(line.plain) + len(sep) + len(piece.plain) > width:
            lines.append(line)
            start = indent if hang is None else hang
            line = Text(start)
        if len(line.plain) > len(start):
            line.append(sep)
        line.append_text(piece)
    lines.append(line)
    return lines


def _meld_order(key: MeldKey) -> tuple[int, int]:
    return ((99, 0) if is_wild_key(key) else (60, key) if is_run_key(key)
            else sort_key((key - 1) * 4))


def _wrapped(text: str, width: int, first: int, indent: str) -> list[str]:
    """``text`` in lines of at most ``width`` cells, the first ``first`` cells shorter (what
    stands before it on its line), the others starting with ``indent``; words are never cut
    (a word longer than a line has a line of its own)."""
    if width <= 0:
        return [text]
    lines: list[str] = []
    line = ""
    room = width - first
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > room:
            lines.append(line)
            line, room = word, width - len(indent)
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return lines


def seats_text(view: View, names: list[str], team_names: list[str], lang: str,
               height: int = 0, width: int = 0) -> Text:
    """Each player: cards held, and the last move in words (on its own line; beside the name
    with more than four players where only one line each fits). Where ``height`` lines leave
    room, more of each player's last turn: the pile taken, the melds, the discard. With
    ``width``, a move longer than the pane goes on on the next line (indented), never cut;
    fewer of a turn's moves are shown where the wrapped ones would not fit in ``height``."""
    turns = explain.last_turns(view, names, team_names, lang, render.symbol_text)
    most = max(1, height // view.players - 1) if height else 3
    for lines in range(most, 0, -1):
        out, used = _seats(view, names, lang, turns, lines, width)
        if not height or used <= height:
            return out
    # Still too long: the cards held as a number alone, then each move's first sentence
    # ("West draws 7♠." of "West draws 7♠. West lays out the red three 3♥.").
    out, used = _seats(view, names, lang, turns, 1, width, compact=True)
    if used > height:
        firsts = [[m.split(". ")[0].rstrip(".") + "." for m in turn] for turn in turns]
        out, used = _seats(view, names, lang, firsts, 1, width, compact=True)
    return out


def _seats(view: View, names: list[str], lang: str, turns: list[list[str]], lines: int,
           width: int, compact: bool = False) -> tuple[Text, int]:
    """:func:`seats_text` with at most ``lines`` moves per player (``compact``: the cards
    held as a number alone); and the lines it takes."""
    out = Text()
    used = 0
    for seat in range(view.players):
        if seat:
            out.append("\n")
        mark = "▶ " if seat == view.actor and view.phase.value != "over" else "  "
        out.append(mark, style="bold yellow")
        out.append(f"{names[seat]} ", style="bold")
        held = view.hand_sizes[seat]
        out.append(str(held) if compact else
                   t("ui.cards_n.one" if held == 1 else "ui.cards_n", lang, n=held),
                   style="dim")
        used += 1
        turn = turns[seat] or ["-"]
        if len(turn) > lines:  # the turn's first move (a pile taken) and its last ones
            turn = turn[-1:] if lines == 1 else turn[:1] + turn[len(turn) - lines + 1:]
        if view.players > 4 and lines == 1:  # beside the name, not said twice
            out.append(": ")
            move = turn[-1].removeprefix(names[seat] + " ")
            parts = _wrapped(move, width, len(out.plain.rsplit("\n", 1)[-1]), "      ")
            out.append(parts[0], style="" if move != "-" else "dim")
            for part in parts[1:]:
                out.append("\n      " + part)
            used += len(parts) - 1
            continue
        for move in turn:
            parts = _wrapped(move, width, 4, "      ")
            out.append("\n    ")
            out.append(parts[0], style="" if move != "-" else "dim")
            for part in parts[1:]:
                out.append("\n      " + part)
            used += len(parts)
    return out, used


def playable_ranks(view: View) -> set[int]:
    """Ranks of the hand that a legal meld or lay-off uses now."""
    out: set[int] = set()
    for a in view.legal_actions:
        if isinstance(a, (Meld, LayOff)):
            out.update(rank_of(c) for c in a.cards if c != JOKER)
    return out


_SUIT_LETTERS = {sym: letter for sym, letter in zip(render.SUIT_SYMBOLS, "shdc", strict=True)}


def card_at(visual: object, x: int) -> str:
    """The card drawn at cell ``x`` of the hand's first line (:func:`hand_text`), as typed
    (``Kc``, ``10s``, ``JK``); ``""`` where no card is. ``visual``: what the hand's widget
    shows (a Rich ``Text``, or Textual's content with a ``plain`` text)."""
    plain = str(getattr(visual, "plain", visual)).split("\n", 1)[0]
    head = plain.find(": ")
    if head < 0 or x <= head + 1 or x >= len(plain) or plain[x] == " ":
        return ""
    start = plain.rfind(" ", 0, x) + 1
    end = plain.find(" ", x)
    word = plain[start:end if end >= 0 else len(plain)].rstrip("*")
    if word == "JK":
        return word
    suit = _SUIT_LETTERS.get(word[-1:], word[-1:] if word[-1:] in "shdc" else "")
    return word[:-1] + suit if suit and len(word) >= 2 else ""


def toggled(line: str, card: str, phase: object) -> str:
    """The input line with ``card`` added (or taken out when it is there): a line without a
    move yet starts one, a meld (``m``), or in the draw phase a take of the pile (``t``)."""
    words = line.split()
    if card in words[1:]:
        words.remove(card)
        return " ".join(words) + (" " if len(words) == 1 else "")
    if not words:
        words = ["t" if getattr(phase, "value", "") == "draw" else "m"]
    return " ".join([*words, card])


def hand_text(view: View, gained: Iterable[int], style: CardStyle, lang: str) -> Text:
    out = Text()
    out.append(t("play.tui.your_hand", lang, n=len(view.hand),
                 sort=t(f"play.tui.by_{style.sort}", lang)), style="bold")
    out.append_text(render.hand_label(view.hand, style, marked=gained,
                                      playable=playable_ranks(view)))
    out.append("\n")
    if explain.can_go_out(view):
        out.append("★ " + t("play.go_out", lang) + "  ", style="bold green")
    out.append(explain.points_line(view, lang), style="dim")
    return out


#: Where a move of the menu is drawn: (row, first cell, cell after the last, the line that
#: plays it), for clicks.
MenuSpan = tuple[int, int, int, str]


def menu_text(view: View, width: int = 78, max_lines: int = 5, lang: str = "en",
              spans: list[MenuSpan] | None = None) -> Text:
    """The grouped legal moves, one line each, cut to ``width``; at most ``max_lines``.
    ``spans``, when given, receives where each move shown is drawn (a click plays it)."""
    lines = moves.grouped_menu(view, lang)
    out = Text()
    shown = lines if len(lines) <= max_lines else lines[:max_lines - 1]
    for i, line in enumerate(shown):
        if i:
            out.append("\n")
        row = Text()
        row.append(f"{line.label} " if line.label else "", style="bold cyan")
        sep = " " if line.kind == "discard" else " · "
        body = sep.join(line.moves)
        room = width - len(row.plain)
        if len(body) > room:
            body = body[:max(room - 2, 0)].rsplit(" ", 1)[0] + " …"
        if spans is not None:
            at = len(row.plain)
            pos = 0  # in ``body``: each move where the one before it ends
            for move in line.moves:
                pos = body.find(move, pos) if body.find(move, pos) >= 0 else len(body)
                inner = pos
                if line.kind == "turn" and ": " in move:  # "take the pile: t 7h 7c · t"
                    inner = pos + move.index(": ") + 2
                    parts = move.split(": ", 1)[1].split(" · ")
                else:
                    parts = [move]
                for part in parts:
                    if inner + len(part) <= len(body):  # not in the part cut off
                        spans.append((i, at + inner, at + inner + len(part), line.command(part)))
                    inner += len(part) + 3
                pos += len(move)
        row.append(body)
        out.append_text(row)
    if len(shown) < len(lines):
        out.append(f"\n… {len(lines) - len(shown)} more lines: type help", style="dim")
    return out


#: The help's two columns: what is typed, and the catalogue key (``play.help.*``) of what it does.
HELP_MOVES = (
    ("s", "s"), ("t  t 7 7", "t"), ("m 9 9 JK", "m"), ("l 9 9h", "l"), ("d Kc", "d"),
    ("a  y  n", "a"), ("r", "r"), ("e", "e"),
)
HELP_COMMANDS = (
    ("hint", "hint"), ("undo", "undo"), ("why", "why"), ("pile", "pile"), ("log", "log"),
    ("sort", "sort"), ("F3", "colours"), ("quit", "quit"),
)


def help_table(lang: str = "en") -> RenderableType:
    """The moves and commands in two columns (fits 80×24), in ``lang``."""
    grid = Table.grid(padding=(0, 1), expand=True)
    grid.add_column(no_wrap=True, width=8)
    grid.add_column(ratio=1)
    grid.add_column(no_wrap=True, width=4)
    grid.add_column(ratio=1)
    for (m, mk), (c, ck) in zip(HELP_MOVES, HELP_COMMANDS, strict=True):
        grid.add_row(Text(m, style="bold cyan"), t(f"play.help.{mk}", lang),
                     Text(c, style="bold cyan"), t(f"play.help.{ck}", lang))
    head = Text(t("play.help.head", lang), style="bold")
    notes = Text(t("play.help.notes", lang), style="dim")
    return Group(head, grid, notes)


def result_text(session: Session) -> RenderableType:
    """The end of a hand: how it ended, each side's sheet in short, every player's cards
    left, the match to its target."""
    match = session.match
    rec = match.record
    lang = session.lang
    parts: list[RenderableType] = [Text(session.hand_end_text(), style="bold")]
    sheets = Table.grid(padding=(0, 3))
    row = []
    for sheet in rec.sheets:
        tab = Table.grid(padding=(0, 1))
        tab.add_column()
        tab.add_column(justify="right")
        tab.add_row(Text(session.team_names[sheet.team], style="bold"), "")
        for label, pts in render.sheet_rows(sheet, session.sheet_players(sheet.team), lang):
            tab.add_row(label, Text(f"{pts:+d}", style="red" if pts < 0 else ""))
        tab.add_row(Text(t("ui.total", lang), style="bold"),
                    Text(f"{sheet.hand_total:+d}", style="bold"))
        row.append(tab)
    for _ in row:
        sheets.add_column()
    sheets.add_row(*row)
    parts.append(sheets)
    held = [(session.names[p], session.state.hand_cards(p)) for p in range(match.players)]
    held = [(name, cards) for name, cards in held if cards]
    if held:  # shown at a real table to be counted: what each player's minus is made of
        left = Text(t("ui.cards_left", lang) + ": ", style="bold")
        for i, (name, cards) in enumerate(held):
            left.append(" · " if i else "")
            left.append(name + " ", style="bold")
            left.append_text(cards_label(render.hand_order(cards), style=CardStyle(True)))
        parts.append(left)
    parts.append(render.totals_table(match.scores, session.team_names,
                                     match.rules.target(match.players), session.hand_number,
                                     lang))
    if match.winner is not None:
        parts.append(Text(session.match_over_text() + " (q)",
                          style="bold green"))
    else:
        parts.append(Text(t("play.tui.enter_next", session.lang), style="dim"))
    return Group(*parts)
