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

Cards inside an action are card codes (:mod:`canasta.core.cards`); the text form uses card
text.

Actions are canonical values: the cards of ``take-pile``, ``meld`` and ``lay-off`` are sorted
on construction (naturals ace high down to 4, then threes, jokers, deuces; suits in the order
s h d c), so ``Meld.of("9s 9d JK") == Meld.of("9d JK 9s")``. ``repr()`` pastes back as code:
``Meld.of('9s 9d JK')``.

The suit-choice rule: cards of one rank are interchangeable for the rules (a natural nine is a
natural nine; a deuce is a deuce), so ``State.legal_actions()`` lists one choice of suits for
each legal way to play: of each rank, the cards held taken in suit order s h d c (jokers
before deuces). Any other choice of held cards of the same ranks is as legal: ``State.can``,
``State.apply`` and ``action in state.legal_actions()`` accept it. Sequence canastas
(``melds.real_canasta``) are the exception where suits matter: each suit is listed; so are
declared red threes (``red_threes.may_keep_as_stop``: hearts and diamonds counted apart, as
the action ids do) and discards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from canasta.core.cards import (
    JOKER,
    NUM_CODES,
    CardParseError,
    card_text,
    parse_card,
    parse_cards,
    parse_rank,
    rank_of,
    rank_text,
    sort_key,
)


def _order(card: int) -> tuple[int, int]:
    if card == JOKER:
        return (29, 0)  # jokers before deuces
    if rank_of(card) == 2:
        return (30, card % 4)
    return sort_key(card)


#: ``ORDER[code]``: the position of a card in an action's canonical order.
ORDER: tuple[int, ...] = tuple(
    sorted(range(NUM_CODES), key=_order).index(c) for c in range(NUM_CODES))


def canonical_cards(cards: Iterable[int]) -> tuple[int, ...]:
    """``cards`` in the canonical order of an action (see the module docstring); a tuple with
    a value that is no card code is left as given."""
    t = tuple(cards)
    if len(t) < 2:
        return t
    for c in t:
        if not 0 <= c < NUM_CODES:
            return t  # not cards: left as given, refused by legality ("cards")
    for i in range(1, len(t)):
        if ORDER[t[i - 1]] > ORDER[t[i]]:
            return tuple(sorted(t, key=ORDER.__getitem__))
    return t


def _valid(cards: tuple[int, ...]) -> bool:
    return all(0 <= c < NUM_CODES for c in cards)


def _text_of(cards: tuple[int, ...]) -> str:
    return repr(" ".join(card_text(c) for c in cards))


class ActionParseError(ValueError):
    """An action text or JSON object could not be read; the message says what and where."""


@dataclass(frozen=True, slots=True)
class Draw:
    def text(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True, repr=False)
class TakePile:
    """Take the whole discard pile, melding its top card at once with ``cards`` from hand
    (seed 002: "deve utilizzarne l'ultima carta ... attaccandola a una combinazione
    preesistente della coppia o giocandola con altre carte di mano"). Empty ``cards``: the top
    card is added to the side's meld of its rank. ``cards`` are kept in canonical order."""

    cards: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", canonical_cards(self.cards))

    @classmethod
    def of(cls, cards: str = "") -> TakePile:
        """From card text: ``TakePile.of("7h 7c")``.

        Raises:
            CardParseError: a token is not a card.
        """
        return cls(tuple(parse_cards(cards)))

    def __repr__(self) -> str:
        if not self.cards:
            return "TakePile()"
        if not _valid(self.cards):
            return f"TakePile({self.cards!r})"
        return f"TakePile.of({_text_of(self.cards)})"

    def text(self) -> str:
        return " ".join(["take-pile", *(card_text(c) for c in self.cards)])


@dataclass(frozen=True, slots=True, repr=False)
class Meld:
    """Lay down a new meld of one rank (or of wild cards only, where allowed). ``cards`` are
    kept in canonical order."""

    cards: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", canonical_cards(self.cards))

    @classmethod
    def of(cls, cards: str) -> Meld:
        """From card text: ``Meld.of("9s 9d JK")``.

        Raises:
            CardParseError: a token is not a card.
        """
        return cls(tuple(parse_cards(cards)))

    def __repr__(self) -> str:
        if not _valid(self.cards):
            return f"Meld({self.cards!r})"
        return f"Meld.of({_text_of(self.cards)})"

    def text(self) -> str:
        return " ".join(["meld", *(card_text(c) for c in self.cards)])


@dataclass(frozen=True, slots=True, repr=False)
class LayOff:
    """Add ``cards`` to the side's meld of ``rank`` (0 = the wild-card meld; a meld key of
    :mod:`canasta.core.melds`). ``cards`` are kept in canonical order."""

    rank: int
    cards: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", canonical_cards(self.cards))

    @classmethod
    def of(cls, rank: int | str, cards: str) -> LayOff:
        """From text: ``LayOff.of("9", "9h 2c")`` (or the rank as a number, ``LayOff.of(9,
        ...)``; ``"W"`` or 0: the wild-card meld).

        Raises:
            CardParseError: a token is not a card or a rank.
        """
        key = parse_rank(rank) if isinstance(rank, str) else rank
        return cls(key, tuple(parse_cards(cards)))

    def __repr__(self) -> str:
        if not _valid(self.cards):
            return f"LayOff({self.rank!r}, {self.cards!r})"
        return f"LayOff.of({self.rank!r}, {_text_of(self.cards)})"

    def text(self) -> str:
        return " ".join(["lay-off", rank_text(self.rank), *(card_text(c) for c in self.cards)])


@dataclass(frozen=True, slots=True, repr=False)
class Discard:
    card: int

    @classmethod
    def of(cls, card: str) -> Discard:
        """From card text: ``Discard.of("Kc")``.

        Raises:
            CardParseError: not a card.
        """
        return cls(parse_card(card))

    def __repr__(self) -> str:
        if 0 <= self.card < NUM_CODES:
            return f"Discard.of({card_text(self.card)!r})"
        return f"Discard({self.card!r})"

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
#: The action classes (for ``isinstance``).
ACTION_TYPES = (Draw, TakePile, Meld, LayOff, Discard, AskPartner, Answer, Retract, EndHand)


def _kind(card: int) -> int:
    """Cards the rules treat alike share a kind: naturals by rank, black and red threes apart,
    deuces, jokers."""
    if card == JOKER:
        return -1
    rank = rank_of(card)
    if rank == 3:
        return 30 if card in (8, 11) else 31  # black threes (3s 3c), red threes (3h 3d)
    return rank


#: ``KIND_CODES[kind]``: the card codes of a kind in the order the suit-choice rule takes them.
KIND_CODES: dict[int, tuple[int, ...]] = {}
for _code in sorted(range(NUM_CODES), key=ORDER.__getitem__):
    KIND_CODES.setdefault(_kind(_code), ())
    KIND_CODES[_kind(_code)] += (_code,)


def canonical_suits(action: Action, hand: Sequence[int]) -> Action | None:
    """The choice of suits ``State.legal_actions()`` lists for ``action`` (the suit-choice
    rule of the module docstring), given the hand's counts per card code; None when the hand
    does not hold the action's cards. A sequence canasta, a declaration of red threes and a
    discard keep their cards."""
    if isinstance(action, Discard):
        return action if 0 <= action.card < NUM_CODES and hand[action.card] else None
    if not isinstance(action, (TakePile, Meld, LayOff)):
        return action
    cards = action.cards
    need: dict[int, int] = {}
    for c in cards:
        if not 0 <= c < NUM_CODES:
            return None
        need[c] = need.get(c, 0) + 1
    if any(hand[c] < n for c, n in need.items()):
        return None
    kinds = {_kind(c) for c in cards}
    if len({k for k in kinds if k > 0 and k != 2}) > 1:
        return action  # a sequence canasta: its suit is part of it
    if kinds == {31} and isinstance(action, Meld):
        return action  # declared red threes: the one kept is a stop card, by its suit
    chosen: list[int] = []
    for kind in kinds:
        n = sum(1 for c in cards if _kind(c) == kind)
        for code in KIND_CODES[kind]:
            take = min(hand[code], n)
            chosen.extend([code] * take)
            n -= take
            if not n:
                break
    if isinstance(action, LayOff):
        return LayOff(action.rank, tuple(chosen))
    if isinstance(action, Meld):
        return Meld(tuple(chosen))
    return TakePile(tuple(chosen))

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


class ViewActions(tuple[Action, ...]):
    """The legal actions in a :class:`~canasta.core.view.View` (``view.legal_actions``): a
    tuple of the canonical choices of suits whose ``in`` also accepts any other choice of the
    seat's own cards (mapped by :func:`canonical_suits`), so that it agrees with
    ``State.can`` without holding the state.

    Defined here rather than in :mod:`canasta.core.view` because mypyc compiles that module
    and cannot compile a subclass of ``tuple``.
    """

    _hand: tuple[int, ...]

    def __new__(cls, actions: Iterable[Action], hand: Sequence[int]) -> ViewActions:
        out = tuple.__new__(cls, actions)  # not super(): a view is made on every decision
        out._hand = tuple(hand)
        return out

    def __contains__(self, action: object) -> bool:
        if not self or not isinstance(action, ACTION_TYPES):
            return False
        canon = canonical_suits(action, self._hand)
        return canon is not None and tuple.__contains__(self, canon)

    def __reduce__(self) -> tuple[object, ...]:
        return (ViewActions, (tuple(self), self._hand))
