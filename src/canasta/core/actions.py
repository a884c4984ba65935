"""Actions as values: frozen, hashable, with a text form and a JSON form.

Text forms (docs/formats.md)::

    draw                     draw from the stock
    take-pile 7h 7c          take the discard pile, melding its top card with 7h 7c
    take-pile                take the pile by adding its top card to the side's meld
    meld 9s 9d JK            lay down a new meld (``meld JK JK 2c`` for a wild meld)
    lay-off 9 9h 2c          add cards to the side's meld of nines (``W`` = the wild meld)
    discard Kc               discard and end the turn (the last card: go out)
    ask-partner              ask the partner "may I go out?"
    answer yes | answer no   the partner's binding answer
    retract                  take back an opening that does not reach the minimum
    end-hand                 with the stock gone, decline the discard and end the hand

Cards inside an action are card codes (:mod:`canasta.cards`); the text form uses card text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from canasta.core.cards import (
    CardParseError,
    card_text,
    parse_card,
    parse_rank,
    rank_of,
    rank_text,
)


class ActionParseError(ValueError):
    """An action text or JSON object could not be read; the message says what and where."""


@dataclass(frozen=True, slots=True)
class Draw:
    def text(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class TakePile:
    """Take the whole discard pile, melding its top card at once with ``cards`` from hand
    (seed 002: "deve utilizzarne l'ultima carta ... attaccandola a una combinazione
    preesistente della coppia o giocandola con altre carte di mano"). Empty ``cards``: the top
    card is added to the side's meld of its rank."""

    cards: tuple[int, ...] = ()

    def text(self) -> str:
        return " ".join(["take-pile", *(card_text(c) for c in self.cards)])


@dataclass(frozen=True, slots=True)
class Meld:
    """Lay down a new meld of one rank (or of wild cards only, where allowed)."""

    cards: tuple[int, ...]

    def text(self) -> str:
        return " ".join(["meld", *(card_text(c) for c in self.cards)])


@dataclass(frozen=True, slots=True)
class LayOff:
    """Add ``cards`` to the side's meld of ``rank`` (0 = the wild-card meld)."""

    rank: int
    cards: tuple[int, ...]

    def text(self) -> str:
        return " ".join(["lay-off", rank_text(self.rank), *(card_text(c) for c in self.cards)])


@dataclass(frozen=True, slots=True)
class Discard:
    card: int

    def text(self) -> str:
        return f"discard {card_text(self.card)}"


@dataclass(frozen=True, slots=True)
class AskPartner:
    def text(self) -> str:
        return "ask-partner"


@dataclass(frozen=True, slots=True)
class Answer:
    yes: bool

    def text(self) -> str:
        return "answer yes" if self.yes else "answer no"


@dataclass(frozen=True, slots=True)
class Retract:
    def text(self) -> str:
        return "retract"


@dataclass(frozen=True, slots=True)
class EndHand:
    def text(self) -> str:
        return "end-hand"


Action = Draw | TakePile | Meld | LayOff | Discard | AskPartner | Answer | Retract | EndHand

_KINDS: dict[str, type] = {
    "draw": Draw, "take-pile": TakePile, "meld": Meld, "lay-off": LayOff, "discard": Discard,
    "ask-partner": AskPartner, "answer": Answer, "retract": Retract, "end-hand": EndHand,
}
_ALIASES = {"take": "take-pile", "pile": "take-pile", "layoff": "lay-off", "add": "lay-off",
            "ask": "ask-partner", "end": "end-hand"}


def action_text(action: Action) -> str:
    """The stable text form of an action."""
    return action.text()


def parse_action(text: str) -> Action:
    """Parse an action's text form (see the module docstring).

    For ``lay-off`` the rank may be left out when the cards include a natural card.

    Raises:
        ActionParseError: unknown verb, bad card (with its position) or missing argument.
    """
    words = text.strip().split()
    if not words:
        raise ActionParseError("empty action; type `help` for the legal moves")
    verb = words[0].lower()
    verb = _ALIASES.get(verb, verb)
    args = words[1:]
    try:
        if verb == "draw":
            _no_args(verb, args)
            return Draw()
        if verb == "take-pile":
            return TakePile(tuple(parse_card(t, i + 2) for i, t in enumerate(args)))
        if verb == "meld":
            if not args:
                raise ActionParseError("meld: name the cards, e.g. `meld 9s 9d JK`")
            return Meld(tuple(parse_card(t, i + 2) for i, t in enumerate(args)))
        if verb == "lay-off":
            if not args:
                raise ActionParseError("lay-off: name the meld's rank and the cards, e.g. "
                                       "`lay-off 9 9h`")
            try:
                rank = parse_rank(args[0])
                cards = tuple(parse_card(t, i + 3) for i, t in enumerate(args[1:]))
            except CardParseError:
                cards = tuple(parse_card(t, i + 2) for i, t in enumerate(args))
                naturals = [rank_of(c) for c in cards if rank_of(c) not in (0, 2)]
                if not naturals:
                    raise ActionParseError(
                        "lay-off: with wild cards only, name the meld's rank first, e.g. "
                        "`lay-off 9 JK`") from None
                rank = naturals[0]
            if not cards:
                raise ActionParseError("lay-off: name at least one card")
            return LayOff(rank, cards)
        if verb == "discard":
            if len(args) != 1:
                raise ActionParseError("discard: name exactly one card, e.g. `discard Kc`")
            return Discard(parse_card(args[0], 2))
        if verb == "ask-partner":
            _no_args(verb, args)
            return AskPartner()
        if verb == "answer":
            if len(args) != 1 or args[0].lower() not in ("yes", "no", "y", "n"):
                raise ActionParseError("answer: expected `answer yes` or `answer no`")
            return Answer(args[0].lower().startswith("y"))
        if verb == "retract":
            _no_args(verb, args)
            return Retract()
        if verb == "end-hand":
            _no_args(verb, args)
            return EndHand()
    except CardParseError as exc:
        raise ActionParseError(f"{verb}: {exc}") from None
    raise ActionParseError(
        f"unknown action '{words[0]}'; actions are: {', '.join(_KINDS)}"
    )


def _no_args(verb: str, args: list[str]) -> None:
    if args:
        raise ActionParseError(f"{verb} takes no cards (got '{' '.join(args)}')")


def action_to_json(action: Action) -> dict[str, Any]:
    """JSON form: ``{"type": "meld", "cards": ["9s", "9d", "JK"]}``."""
    out: dict[str, Any] = {"type": action.text().split()[0]}
    if isinstance(action, (TakePile, Meld, LayOff)):
        out["cards"] = [card_text(c) for c in action.cards]
    if isinstance(action, LayOff):
        out["rank"] = rank_text(action.rank)
    if isinstance(action, Discard):
        out["card"] = card_text(action.card)
    if isinstance(action, Answer):
        out["yes"] = action.yes
    return out


def action_from_json(data: Any) -> Action:
    """Inverse of :func:`action_to_json`.

    Raises:
        ActionParseError: naming the missing or malformed key.
    """
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ActionParseError("action JSON: expected an object with a string 'type'")
    kind = data["type"]
    if kind not in _KINDS:
        raise ActionParseError(f"action JSON: unknown type '{kind}'")
    try:
        if kind in ("take-pile", "meld", "lay-off"):
            cards = data.get("cards", [])
            if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
                raise ActionParseError(f"action JSON ({kind}): 'cards' must be a list of cards")
            codes = tuple(parse_card(c, i + 1) for i, c in enumerate(cards))
            if kind != "take-pile" and not codes:
                # As the text form: `meld` and `lay-off` name at least one card.
                raise ActionParseError(f"action JSON ({kind}): 'cards' must name at least one "
                                       "card")
            if kind == "take-pile":
                return TakePile(codes)
            if kind == "meld":
                return Meld(codes)
            if not isinstance(data.get("rank"), str):
                raise ActionParseError("action JSON (lay-off): 'rank' must be a rank text")
            return LayOff(parse_rank(data["rank"]), codes)
        if kind == "discard":
            if not isinstance(data.get("card"), str):
                raise ActionParseError("action JSON (discard): 'card' must be a card text")
            return Discard(parse_card(data["card"]))
        if kind == "answer":
            if not isinstance(data.get("yes"), bool):
                raise ActionParseError("action JSON (answer): 'yes' must be true or false")
            return Answer(data["yes"])
    except CardParseError as exc:
        raise ActionParseError(f"action JSON ({kind}): {exc}") from None
    cls = _KINDS[kind]
    result: Action = cls()
    return result
