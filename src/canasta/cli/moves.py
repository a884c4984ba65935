"""Moves typed quickly: short commands, their completions and the grouped menu of a turn.

A person types ``m 9 9 JK`` (meld two nines and a joker), ``l 9 9h`` (lay a nine off on the
side's nines), ``t`` (take the pile), ``t 7 7`` (take it with two sevens), ``d Kc``
(discard), ``s`` (draw from the stock), ``a`` (ask the partner), ``y``/``n`` (answer), ``r``
(retract), ``e`` (end the hand), or any action's full text form (``meld 9s 9d JK``). A card
may be named by its rank alone (``9``): any copy the seat holds is taken, since suits do not
change what a move does (:class:`~canasta.core.view.ViewActions` accepts any choice of the
seat's own suits).

Everything here reads a :class:`~canasta.core.state.View` and its ``legal_actions``; nothing
decides a rule. Whether a move is allowed is always the engine's answer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from canasta.core.actions import (
    Action,
    ActionParseError,
    Answer,
    AskPartner,
    Discard,
    Draw,
    EndHand,
    LayOff,
    Meld,
    Retract,
    TakePile,
    parse_action,
)
from canasta.core.cards import (
    JOKER,
    CardParseError,
    card_text,
    parse_card,
    parse_rank,
    rank_of,
    rank_text,
    sort_key,
)
from canasta.core.meldkey import MeldKey, is_run_key, is_wild_key
from canasta.core.melds import meld_key
from canasta.core.state import View
from canasta.i18n import t

__all__ = ["MoveError", "Resolved", "grouped_menu", "resolve", "short_text", "suggestions"]

#: Short verbs -> the action verb of the text form.
SHORT_VERBS = {
    "s": "draw", "draw": "draw", "stock": "draw",
    "t": "take-pile", "take": "take-pile", "take-pile": "take-pile", "pile": "take-pile",
    "m": "meld", "meld": "meld",
    "l": "lay-off", "lay": "lay-off", "lay-off": "lay-off", "add": "lay-off",
    "layoff": "lay-off",
    "d": "discard", "discard": "discard",
    "a": "ask-partner", "ask": "ask-partner", "ask-partner": "ask-partner",
    "r": "retract", "retract": "retract",
    "e": "end-hand", "end": "end-hand", "end-hand": "end-hand",
}


class MoveError(ValueError):
    """A typed move names no action: the message says why, in plain words (English); ``key``
    and ``values`` give it in the catalogues (``moves.*``, :mod:`canasta.i18n`). ``choices``
    holds the legal actions it could have meant, when it was ambiguous."""

    def __init__(self, message: str, choices: Sequence[Action] = (), key: str = "",
                 **values: str) -> None:
        super().__init__(message)
        self.choices = tuple(choices)
        self.key = key
        self.values = values


@dataclass(frozen=True)
class Resolved:
    """What a typed line names: ``action`` (to give the engine) — legal or not."""

    action: Action


def short_text(action: Action) -> str:
    """The shortest form of an action that :func:`resolve` reads back: ``m 9s 9d JK``,
    ``l 9 9h``, ``t 7h 7c``, ``d Kc``, ``s``."""
    if isinstance(action, Draw):
        return "s"
    if isinstance(action, TakePile):
        return " ".join(["t", *(card_text(c) for c in action.cards)])
    if isinstance(action, Meld):
        return " ".join(["m", *(card_text(c) for c in action.cards)])
    if isinstance(action, LayOff):
        return " ".join(["l", rank_text(action.rank), *(card_text(c) for c in action.cards)])
    if isinstance(action, Discard):
        return f"d {card_text(action.card)}"
    if isinstance(action, AskPartner):
        return "a"
    if isinstance(action, Answer):
        return "y" if action.yes else "n"
    if isinstance(action, Retract):
        return "r"
    if isinstance(action, EndHand):
        return "e"
    return action.text()


def _pick(tokens: Sequence[str], hand: Sequence[int], first: int) -> list[int]:
    """The seat's cards named by ``tokens`` (a full card, or a rank alone: any copy held).

    Raises:
        MoveError: a token is neither, or a rank the seat holds no (more) card of.
    """
    left = Counter(hand)
    exact: list[int] = []
    by_rank: list[tuple[int, str]] = []
    for i, tok in enumerate(tokens):
        try:
            exact.append(parse_card(tok, first + i))
            continue
        except CardParseError:
            pass
        try:
            rank = parse_rank(tok)
        except CardParseError:
            raise MoveError(f"'{tok}' is not a card or a rank (cards: Kh 10s JK; ranks: K 10 "
                            "2)", key="moves.not_a_card", token=tok) from None
        by_rank.append((rank, tok))
    out: list[int] = []
    for card in exact:
        # A card not held goes to the engine, whose refusal is in the player's language.
        left[card] -= 1
        out.append(card)
    for rank, tok in by_rank:
        if rank == 0:  # "W": any wild card, deuces before jokers (a deuce is cheaper)
            pool = sorted((c for c in left if left[c] > 0 and (c == JOKER or rank_of(c) == 2)),
                          key=lambda c: (c == JOKER, c))
        else:
            pool = sorted(c for c in left if left[c] > 0 and c != JOKER and rank_of(c) == rank)
        if not pool:
            raise MoveError(f"you hold no {'more ' if out else ''}{tok.upper()}",
                            key="moves.none_more" if out else "moves.none", rank=tok.upper())
        left[pool[0]] -= 1
        out.append(pool[0])
    return out


def resolve(line: str, view: View) -> Action:
    """The action a typed line names, for the seat of ``view`` (not yet checked by the engine
    beyond what the view's legal actions say for ambiguous short forms).

    Raises:
        MoveError: the line names no action, or several (``choices`` lists them).
    """
    words = line.strip().split()
    if not words:
        raise MoveError("type a move, or help", key="moves.empty")
    verb = SHORT_VERBS.get(words[0].lower())
    legal = view.legal_actions
    if verb is None:
        if words[0].lower() in ("y", "yes", "n", "no"):
            return Answer(words[0].lower().startswith("y"))
        try:
            return parse_action(line)
        except ActionParseError as exc:
            raise MoveError(str(exc), key="moves.unknown", word=words[0]) from None
    args = words[1:]
    if verb in ("draw", "ask-partner", "retract", "end-hand"):
        if args:
            raise MoveError(f"{verb} takes no cards", key="moves.no_cards", verb=verb)
        return parse_action(verb)
    hand = view.hand
    if verb == "discard":
        if len(args) != 1:
            raise MoveError("discard one card, e.g. d Kc", key="moves.discard_one")
        return Discard(_pick(args, hand, 2)[0])
    if verb == "meld":
        if not args:
            raise MoveError("name the cards of the meld, e.g. m 9 9 JK", key="moves.meld_cards")
        return Meld(tuple(_pick(args, hand, 2)))
    if verb == "take-pile":
        if args:
            return TakePile(tuple(_pick(args, hand, 2)))
        takes = [a for a in legal if isinstance(a, TakePile)]
        if len(takes) > 1 and TakePile() not in takes:
            raise MoveError("say which cards take the pile", takes, key="moves.which_take")
        if TakePile() in takes or not takes:
            return TakePile()
        return takes[0]
    # lay-off: "l 9 9h 2c" names the meld's rank first; "l 9h" or "l 9 9" work out the rank.
    if not args:
        raise MoveError("name the meld's rank and the cards, e.g. l 9 9h",
                        key="moves.layoff_rank")
    try:
        rank = parse_rank(args[0])
        cards = _pick(args[1:], hand, 3) if len(args) > 1 else []
    except (CardParseError, MoveError):
        rank, cards = -1, []
    if not cards:
        cards = _pick(args, hand, 2)
        naturals = {rank_of(c) for c in cards if c != JOKER and rank_of(c) != 2}
        if len(naturals) == 1:
            rank = naturals.pop()
        else:
            options = [a for a in legal if isinstance(a, LayOff)
                       and Counter(a.cards) == Counter(cards)]
            if len(options) == 1:
                return options[0]
            raise MoveError("name the meld first, e.g. l 9 JK", options,
                            key="moves.layoff_first")
    return LayOff(rank, tuple(cards))


def suggestions(view: View) -> list[str]:
    """Completions for the input line: the short form of every legal action, then the
    commands; in menu order (draws and takes, melds, lay-offs, discards)."""
    return [short_text(a) for a in _ordered(view.legal_actions)]


def _ordered(actions: Sequence[Action]) -> list[Action]:
    kinds = (Draw, TakePile, Meld, LayOff, Discard, AskPartner, Retract, EndHand, Answer)
    return sorted(actions, key=lambda a: next(i for i, k in enumerate(kinds)
                                               if isinstance(a, k)))


#: What the one-letter moves of the menu's first line do.
#: What each one-letter move does (catalogue keys ``play.menu.*``), for the menu's first line.
TURN_WORDS = {"s": "draw", "t": "take", "a": "ask", "r": "retract", "e": "end", "y": "yes",
              "n": "no"}


@dataclass(frozen=True)
class MenuLine:
    """One line of the grouped menu: a label (``meld 9:``, ``on K:`` for the lay-offs on a
    meld, ``discard:``) and its moves: the cards to type after ``m``, ``l RANK`` or ``d``;
    on the first line (kind ``turn``) the short forms with their meaning, ``s (draw)``."""

    label: str
    moves: tuple[str, ...]
    kind: str
    #: What is typed before each move to play it (``m``, ``l K``, ``d``; ``""`` on the first
    #: line, whose moves begin with their short form).
    prefix: str = ""

    def command(self, move: str) -> str:
        """The line that plays ``move`` of this line (``l K 2c``; ``s`` for ``s (draw)``)."""
        if self.kind == "turn":
            return move.split(" (")[0].split(": ")[-1]
        return f"{self.prefix} {move}"


def grouped_menu(view: View, lang: str = "en") -> list[MenuLine]:
    """The legal moves in few lines: draws and takes together, one line per rank of a new
    meld, one per meld to lay off on, one for the discards (each card once); the labels in
    ``lang``, the moves as they are typed."""

    def word(letter: str) -> str:
        return t(f"play.menu.{TURN_WORDS[letter]}", lang)

    legal = view.legal_actions
    own = view.melds[view.team]
    lines: list[MenuLine] = []
    first = [f"{short_text(a)} ({word(short_text(a)[0])})" for a in legal
             if isinstance(a, (Draw, EndHand, AskPartner, Retract, Answer))]
    takes = [short_text(a) for a in legal if isinstance(a, TakePile)]
    if takes:  # the meaning once, then each way of taking it
        first.insert(1 if Draw() in legal else 0,
                     f"{word('t')}: " + " · ".join(takes))
    if first:
        lines.append(MenuLine("", tuple(first), "turn"))
    melds: dict[int, list[Meld]] = {}
    offs: dict[int, list[LayOff]] = {}
    for a in legal:
        if isinstance(a, Meld):
            melds.setdefault(meld_key(own, a.cards), []).append(a)
        elif isinstance(a, LayOff):
            offs.setdefault(a.rank, []).append(a)

    def by_rank(key: MeldKey) -> tuple[int, int]:
        return ((99, 0) if is_wild_key(key) else (50 + key, 0) if is_run_key(key)
                else sort_key((key - 1) * 4))

    for key in sorted(melds, key=by_rank):
        moves = tuple(" ".join(short_text(a).split()[1:])
                      for a in sorted(melds[key], key=lambda a: (len(a.cards), a.cards)))
        lines.append(MenuLine(t("play.menu.meld", lang, rank=rank_text(key)), moves, "meld",
                              "m"))
    for key in sorted(offs, key=by_rank):
        moves = tuple(" ".join(short_text(a).split()[2:])
                      for a in sorted(offs[key], key=lambda a: (len(a.cards), a.cards)))
        lines.append(MenuLine(t("play.menu.on", lang, rank=rank_text(key)), moves, "lay-off",
                              f"l {rank_text(key)}"))
    discards = sorted({a.card for a in legal if isinstance(a, Discard)}, key=sort_key)
    if discards:
        lines.append(MenuLine(t("play.menu.discard", lang), tuple(card_text(c) for c in discards),
                              "discard", "d"))
    return lines
