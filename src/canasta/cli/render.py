"""Rich renderables for the terminal front ends: cards, a seat's table, the legal moves and the
score sheets.

Everything here draws a :class:`~canasta.core.state.View` (what one seat may see) or a finished
hand's :class:`~canasta.scoring.ScoreSheet`; nothing decides a rule. Canasta status comes from
:func:`canasta.core.melds.classify_meld`, sizes from the rules record.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

import canasta.cli.explain as explain
from canasta.core.actions import Action
from canasta.core.cards import (
    CardParseError,
    card_text,
    is_wild,
    parse_card,
    rank_of,
    rank_text,
    sort_key,
    suit_of,
)
from canasta.core.melds import classify_meld
from canasta.core.scoring import ScoreSheet
from canasta.core.state import Phase, View
from canasta.i18n import describe_event, score_item_text
from canasta.i18n import t as text_of

__all__ = [
    "action_label", "card_label", "cards_label", "hand_label", "legal_moves",
    "melds_table", "phase_hint", "score_sheet_table", "seat_names", "table", "team_names",
    "totals_table",
]

#: The seats' names in playing order, by player count (catalogue keys ``play.seat.*``); other
#: counts are "You" and "Seat N".
_SEAT_KEYS = {
    1: ["you"],
    2: ["you", "north"],
    3: ["you", "west", "east"],
    4: ["you", "west", "north", "east"],
}


def seat_names(players: int, human: str | None = None, lang: str = "en") -> list[str]:
    """Display names of the seats in playing order, in ``lang``; seat 0 is the person, named
    ``human`` where given."""
    keys = _SEAT_KEYS.get(players)
    if keys:
        names = [text_of(f"play.seat.{k}", lang) for k in keys]
    else:
        names = [text_of("play.seat.you", lang)] + [text_of("ui.seat_n", lang, n=i)
                                                     for i in range(1, players)]
    if human:
        names[0] = human
    return names


def team_names(teams: Sequence[Sequence[int]], names: Sequence[str]) -> list[str]:
    """A team's name is its players' names joined: ``You & North``."""
    return [" & ".join(names[s] for s in seats) for seats in teams]


# -- cards -------------------------------------------------------------------------------------

#: Suit symbols in the order of ``cards.SUITS`` (s h d c).
SUIT_SYMBOLS = "♠♥♦♣"
#: Colours of the suits (s h d c): two colours, or four (spades black, hearts red, diamonds
#: blue, clubs green, as on four-colour decks).
TWO_COLOURS = ("default", "red", "red", "default")
FOUR_COLOURS = ("default", "red", "blue", "green")


@dataclass(frozen=True)
class CardStyle:
    """How cards are drawn: ``symbols`` (``Q♥`` rather than ``Qh``), ``four_colour`` suits,
    and the hand's order, ``sort`` = ``rank`` (aces to fours, threes, wild cards) or ``suit``
    (by suit, then rank; wild cards last)."""

    symbols: bool = False
    four_colour: bool = False
    sort: str = "rank"


PLAIN = CardStyle()


def symbol_text(text: str) -> str:
    """A card text with its suit's symbol, for lines of words: ``7h`` -> ``7♥`` (``JK``
    and anything that is not a card stay as they are)."""
    suit = "shdc".find(text[-1:]) if len(text) >= 2 else -1
    return text[:-1] + SUIT_SYMBOLS[suit] if suit >= 0 and text[:-1] else text


def card_label(card: int, style: CardStyle = PLAIN) -> Text:
    """A card in colour: hearts and diamonds red (or four colours), jokers magenta; wild
    cards bold."""
    if card == 52:
        return Text("JK", style="bold magenta")
    text = card_text(card)
    suit = suit_of(card)
    if style.symbols:
        text = text[:-1] + SUIT_SYMBOLS[suit]
    colour = (FOUR_COLOURS if style.four_colour else TWO_COLOURS)[suit]
    if is_wild(card):
        colour = f"bold {colour}"
    return Text(text, style=colour)


def cards_label(cards: Iterable[int], sep: str = " ", style: CardStyle = PLAIN) -> Text:
    return Text(sep).join(card_label(c, style) for c in cards)


def hand_order(hand: Iterable[int], sort: str = "rank") -> list[int]:
    """The hand in display order: by rank (aces high to fours, threes, deuces, jokers) or by
    suit then rank (wild cards and threes after the suits)."""
    if sort == "suit":
        def key(c: int) -> tuple[int, int, int]:
            if c == 52 or rank_of(c) in (2, 3):
                return (9, *sort_key(c))
            return (suit_of(c), *sort_key(c))
        return sorted(hand, key=key)
    return sorted(hand, key=sort_key)


def hand_label(hand: Iterable[int], style: CardStyle = PLAIN,
               marked: Iterable[int] = (), playable: Iterable[int] = ()) -> Text:
    """The hand sorted for display and grouped (by rank, or by suit): groups apart by two
    spaces; ``marked`` cards (just drawn) underlined and flagged ``*``, ranks in ``playable``
    (that can be melded or laid off now) on a highlighted background."""
    ordered = hand_order(hand, style.sort)
    marks = list(marked)
    play = set(playable)
    out = Text()
    prev: int | None = None
    for c in ordered:
        group = rank_of(c) if style.sort == "rank" or c == 52 or rank_of(c) in (2, 3) \
            else 10 + suit_of(c)
        if c == 52:
            group = 2 if style.sort == "rank" else group
        if prev is not None:
            out.append("  " if group != prev else " ")
        label = card_label(c, style)
        if c in marks:
            marks.remove(c)
            label.stylize("underline")
            label.append("*", style="bold yellow")
        if c != 52 and rank_of(c) in play:
            label.stylize("on grey23")
        out.append_text(label)
        prev = group
    return out


def action_label(action: Action, lang: str = "en") -> Text:
    """An action's text form with its cards in colour; in another language than English its
    verb in words of ``lang`` (``plain.verb.*``: "descartar Kc"), yes and no too."""
    words = action.text().split()
    verb = words[0] if lang == "en" else text_of(f"plain.verb.{words[0]}", lang)
    out = Text(verb, style="bold")
    for w in words[1:]:
        out.append(" ")
        try:
            out.append_text(card_label(parse_card(w)))
        except CardParseError:
            out.append(w if lang == "en" or w not in ("yes", "no")
                       else text_of(f"play.menu.{w}", lang))
    return out


# -- the table ---------------------------------------------------------------------------------

def melds_table(melds: dict[int, tuple[int, ...]], view: View,
                lang: str = "en") -> Table | Text:
    """One team's melds: rank, cards, count and canasta status, in ``lang``."""
    if not melds:
        return Text("  " + text_of("ui.no_melds", lang), style="dim")
    size = view.rules.melds.canasta_size
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", style="bold", no_wrap=True, min_width=3)
    grid.add_column(justify="right", style="dim", no_wrap=True)
    grid.add_column(ratio=1)
    grid.add_column(no_wrap=True)

    def order(item: tuple[int, tuple[int, ...]]) -> tuple[int, int]:
        rank = item[0]
        return (99, 0) if rank == 0 else sort_key((rank - 1) * 4)

    for rank, cards in sorted(melds.items(), key=order):
        if not cards:
            continue
        kind = classify_meld(cards, view.rules)
        wilds = sum(1 for c in cards if is_wild(c))
        if kind is not None:
            which = "wild" if kind.wild else "natural" if kind.natural else "mixed"
            status = Text(f"{text_of(f'ui.canasta_{which}', lang)} ✓",
                          style="bold green" if kind.natural else "green")
        else:
            flavour = (text_of("plain.meld.natural", lang) if wilds == 0
                       else text_of("plain.meld.mixed", lang, n=wilds))
            status = Text(text_of("plain.meld.to_canasta", lang, kind=flavour,
                                  n=size - len(cards)), style="dim")
        grid.add_row(rank_text(rank), f"({len(cards)})", cards_label(sorted(cards, key=sort_key)),
                     status)
    return grid


def phase_hint(view: View, names: Sequence[str]) -> str:
    """Whose turn it is and at which step, in words."""
    who = names[view.actor]
    if view.phase is Phase.OVER:
        return "The hand is over."
    if view.phase is Phase.ANSWER:
        return f"{who} must answer {names[view.current]}: may they go out?"
    if view.phase is Phase.DRAW:
        if view.stock_size:
            step = "draw from the stock or take the pile"
        else:
            step = "the stock is empty: take the pile or end the hand"
    else:
        step = "meld, lay off, then discard"
    if view.actor == view.seat:
        if view.phase is Phase.PLAY and not view.opened[view.team] and view.opening_points:
            need = view.opening_minimum[view.team]
            return (f"Your turn: your opening has {view.opening_points} of the {need} points "
                    "needed; meld more before you discard, or retract.")
        return f"Your turn: {step}."
    return f"{who}'s turn: {step}."


def table(view: View, names: Sequence[str], *, title: str = "", log_lines: int = 6,
          pending: int = 0, lang: str = "en", marked: Iterable[int] = ()) -> RenderableType:
    """The whole table as ``view.seat`` sees it.

    Args:
        view: the seat's view.
        names: display name per seat.
        title: the panel title (hand number, variant).
        log_lines: how many recent public log lines to show (0: none).
        pending: cards of a taken pile waiting for the side's opening to reach its minimum.
        lang: the language of the pile's and the turn's explanation.
        marked: cards of the hand to mark (just drawn).
    """
    tnames = team_names(view.teams, names)
    parts: list[RenderableType] = []

    # Pile and stock.
    pile = Text(text_of("ui.stock", lang) + " ")
    pile.append(str(view.stock_size), style="bold")
    pile.append("   " + text_of("play.tui.pile", lang) + " ")
    if view.pile_top is None:
        pile.append(text_of("ui.empty", lang), style="dim")
    else:
        pile.append_text(card_label(view.pile_top))
        count = "ui.cards_n.one" if view.pile_size == 1 else "ui.cards_n"
        pile.append(f" ({text_of(count, lang, n=view.pile_size)})")
    if view.pile_size and view.pile_top is not None:
        status = explain.pile_lines(view, lang)
        frozen = view.pile_frozen or view.table.pile_frozen or view.rules.pile.always_frozen
        pile.append("  " + status[0], style="cyan" if frozen else "")
        for line in status[1:]:
            pile.append("\n  " + line, style="dim")
    if pending:
        pile.append("   " + text_of("plain.pending", lang, n=pending), style="yellow")
    parts.append(pile)

    # Teams: score, opening, canastas, red threes; then the cards each player holds.
    teams = Table(box=None, padding=(0, 1), show_edge=False, header_style="dim")
    teams.add_column(text_of("plain.col.team", lang), no_wrap=True)
    teams.add_column(text_of("play.result.score", lang), justify="right", no_wrap=True)
    teams.add_column(text_of("plain.col.opening", lang), no_wrap=True)
    teams.add_column(text_of("plain.col.canastas", lang), justify="right", no_wrap=True)
    teams.add_column(text_of("plain.col.red_threes", lang))
    size = view.rules.melds.canasta_size
    for t, seats in enumerate(view.teams):
        if view.opened[t]:
            opening = Text(text_of("ui.opened", lang), style="green")
        else:
            need = view.opening_minimum[t]
            opening = Text(text_of("plain.needs", lang, n=need), style="yellow")
            if view.opening_points and view.current in seats:
                opening.append(" " + text_of("plain.laid", lang, n=view.opening_points),
                               style="bold yellow")
        reds = cards_label(view.red_threes[t]) if view.red_threes[t] else Text("-", style="dim")
        canastas = sum(1 for m in view.melds[t].values() if len(m) >= size)
        label = Text(tnames[t], style="bold" if t == view.team else "")
        teams.add_row(label, str(view.scores[t]), opening,
                      Text(str(canastas), style="green" if canastas else "dim"), reds)
    parts.append(teams)
    held = Text(text_of("plain.held", lang) + " ", style="dim")
    held.append(" · ".join(f"{names[s]} {view.hand_sizes[s]}" for s in range(view.players)))
    parts.append(held)

    # Melds: the seat's team first.
    order = [view.team] + [t for t in range(len(view.teams)) if t != view.team]
    for t in order:
        parts.append(Text(text_of("plain.melds_of", lang, team=tnames[t]),
                          style="bold underline"))
        parts.append(melds_table(view.melds[t], view, lang))

    hand = Text(text_of("plain.your_hand", lang, n=len(view.hand)) + " ", style="bold")
    hand.append_text(hand_label(view.hand, marked=marked))
    parts.append(hand)

    if log_lines:
        recent = [line for e in view.events[-log_lines:]
                  if (line := describe_event(e, view.seat, lang, names, tnames, view.teams))]
        parts.append(Text("\n".join(f"  {line}" for line in recent), style="dim"))
    parts.append(Text(explain.turn_line(view, names, lang), style="bold"))
    return Panel(Group(*parts), title=title or None, title_align="left", padding=(0, 1))


def legal_moves(actions: Sequence[Action], lang: str = "en") -> Columns:
    """The legal moves numbered from 1 (the numbers the prompt accepts), in ``lang``."""
    items = []
    for i, a in enumerate(actions, 1):
        t = Text(f"{i:>2} ", style="cyan")
        t.append_text(action_label(a, lang))
        items.append(t)
    return Columns(items, padding=(0, 3), column_first=True)


# -- scores ------------------------------------------------------------------------------------

_PLAYER_RE = re.compile(r"\bplayer (\d+)")


def name_players(label: str, players: Sequence[str]) -> str:
    """A score item's ``player 1``, ``player 2`` ... replaced by the names in ``players``."""
    return _PLAYER_RE.sub(lambda m: players[int(m.group(1)) - 1]
                          if 0 < int(m.group(1)) <= len(players) else m.group(0), label)


def sheet_rows(sheet: ScoreSheet, players: Sequence[str] | None = None,
               lang: str = "en") -> list[tuple[str, int]]:
    """A sheet's items as ``(text, points)`` in ``lang`` (from the items' codes), with
    ``players`` naming the team's players whose cards were counted ("player 1", ...)."""
    if len(sheet.codes) != len(sheet.items):  # a sheet without codes: its English labels
        return [(name_players(label, players) if players else label, pts)
                for label, pts in sheet.items]
    rows = []
    for (code, values), (_, pts) in zip(sheet.codes, sheet.items, strict=True):
        n = values.get("player")
        name = players[n - 1] if players and isinstance(n, int) and 0 < n <= len(players) \
            else None
        rows.append((score_item_text(code, dict(values), lang, name), pts))
    return rows


def score_sheet_table(sheet: ScoreSheet, title: str,
                      players: Sequence[str] | None = None, lang: str = "en") -> Table:
    """One team's itemized sheet for one hand, in ``lang``; ``players`` names the team's
    players whose cards were counted (the sheet's ``player 1``, ``player 2`` ...)."""
    return itemized_table(sheet, title, sheet_rows(sheet, players, lang), lang)


def itemized_table(sheet: ScoreSheet, title: str, rows: Iterable[tuple[str, int]],
                   lang: str = "en", *, width: int = 30, before_key: str =
                   "play.result.score_before", after_key: str = "play.result.score_after",
                   ) -> Table:
    """The table of one team's sheet: ``rows`` (label, points), then the hand total, the
    score before the hand and after it (labels from the catalogue keys given)."""
    tab = Table(title=title, title_justify="left", min_width=width)
    tab.add_column(text_of("cli.score.item", lang))
    tab.add_column(text_of("cli.score.points", lang), justify="right")
    for label, pts in rows:
        tab.add_row(label, Text(f"{pts:+d}", style="red" if pts < 0 else ""))
    tab.add_section()
    tab.add_row(Text(text_of("ui.total", lang), style="bold"),
                Text(f"{sheet.hand_total:+d}", style="bold"))
    tab.add_row(Text(text_of(before_key, lang), style="dim"),
                Text(str(sheet.score_before), style="dim"))
    tab.add_row(Text(text_of(after_key, lang), style="bold"),
                Text(str(sheet.score_after), style="bold"))
    return tab


def totals_table(scores: Sequence[int], teams: Sequence[str], target: int,
                 hands: int, lang: str = "en") -> Table:
    """The match totals after ``hands`` hands, in ``lang``."""
    key = "play.result.match.one" if hands == 1 else "play.result.match"
    tab = Table(title=text_of(key, lang, n=hands, target=target), title_justify="left",
                min_width=44)
    tab.add_column(text_of("cli.score.team", lang))
    tab.add_column(text_of("play.result.score", lang), justify="right")
    tab.add_column(text_of("play.result.to_go", lang), justify="right")
    for name, score in zip(teams, scores, strict=True):
        tab.add_row(name, str(score), str(max(target - score, 0)))
    return tab
