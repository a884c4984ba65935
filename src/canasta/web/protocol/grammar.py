"""The text fields of the table server's messages as regular expressions, so that the published
schema says what the server reads: a card (``9s``, ``10h``, ``JK``), a meld's rank, an action's
text form (``meld 9s 9d JK``, as :func:`canasta.core.actions.parse_action` reads it) and a bot
spec (``hard:seed=3``, as :func:`canasta.bots.registry.parse_spec` reads it).

Each pattern is anchored (``^...$``) and written in the part of the syntax that JSON Schema's
regular expressions (ECMA 262) and Python's :mod:`re` read alike: ASCII classes, no ``\\s``,
``\\d`` or ``.``. The models check a value with the same pattern (:func:`grammar`), then with
the reader itself; a value the pattern refuses is refused with the reader's own reason when it
has one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pydantic import AfterValidator
from pydantic_core import PydanticCustomError


def _lit(text: str) -> str:
    """``text`` as a pattern: only the metacharacters escaped (``\\-`` is an error in ECMA's
    unicode patterns)."""
    return "".join("\\" + c if c in ".^$*+?()[]{}|\\/" else c for c in text)


def _ci(word: str) -> str:
    """``word`` in any case: ``[Dd][Rr][Aa][Ww]`` (the readers lower or upper the text)."""
    return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else _lit(c) for c in word)


def _words(*words: str) -> str:
    return "(?:" + "|".join(_ci(w) for w in words) + ")"


_SUIT = "[SsHhDdCc]"
_NATURAL_RANK = "(?:[3-9]|10|[TtJjQqKkAa])"
#: A card of the JSON form (at most 4 characters): a rank and a suit, or a joker.
CARD = f"(?:(?:[2-9]|10|[TtJjQqKkAa]){_SUIT}|{_ci('jk')}|\\*)"
#: A card of the text form also reads ``joker``.
_TEXT_CARD = f"(?:(?:[2-9]|10|[TtJjQqKkAa]){_SUIT}|{_words('jk', 'joker')}|\\*)"
#: A card that names its meld's rank (not a wild card: a lay-off may leave the rank out then).
_NATURAL_CARD = f"(?:{_NATURAL_RANK}{_SUIT})"
#: A meld's rank (``W``: a meld of wild cards).
RANK = f"(?:[2-9]|10|[TtJjQqKkAaWw]|{_ci('wild')})"
_SP = "[ \\t]+"


def _cards(least: int, card: str = _TEXT_CARD) -> str:
    return f"(?:{_SP}{card})" + ("+" if least else "*")


#: The text form of an action: a verb (or its alias) and its cards.
ACTION_TEXT = "^[ \\t]*(?:" + "|".join([
    _words("draw", "ask-partner", "ask", "retract", "end-hand", "end"),
    _words("take-pile", "take", "pile") + _cards(0),
    _ci("meld") + _cards(1),
    _words("lay-off", "layoff", "add") + f"(?:{_SP}{RANK}{_cards(1)}"
    f"|{_cards(0)}{_SP}{_NATURAL_CARD}{_cards(0)})",
    _ci("discard") + _SP + _TEXT_CARD,
    _ci("answer") + _SP + _words("yes", "no", "y", "n"),
]) + ")[ \\t]*$"
CARD_TEXT = f"^{CARD}$"
RANK_TEXT = f"^{RANK}$"


def _number(kind: type, negative: bool) -> str:
    sign = "-?" if negative else ""
    if kind is int:
        return f"{sign}[0-9]+"
    return f"{sign}[0-9]+(?:\\.[0-9]+)?"


def _param(param: Any) -> str:
    """``key=value`` of one bot parameter, the value in the syntax of its kind (its range is
    the registry's to check)."""
    if param.kind is bool:
        value = "(?:true|false|1|0|yes|no)"
    elif param.kind in (int, float):
        value = _number(param.kind, param.low is None or param.low < 0)
    elif param.choices:
        value = "(?:" + "|".join(_lit(c) for c in param.choices) + ")"
    else:
        value = "[!-+\\--~]*"  # printable, no comma: the parts are split at commas
    return f"{_lit(param.name)}={value}"


def bot_spec() -> str:
    """A bot spec of the bots registered now: empty (the default), or a name in lower case
    with its parameters, ``name:key=value,...``."""
    from canasta.bots.registry import bot_info, bot_names

    specs = []
    for name in bot_names():
        params = [_param(p) for p in bot_info(name).all_params()]
        spec = _lit(name)
        if params:
            part = "(?:" + "|".join(params) + ")"
            spec += f"(?::{part}(?:,{part})*)?"
        specs.append(spec)
    return "^(?:" + "|".join(specs) + ")?$"


_COMPILED: dict[str, re.Pattern[str]] = {}


def _compiled(pattern: str) -> re.Pattern[str]:
    found = _COMPILED.get(pattern)
    if found is None:
        found = _COMPILED[pattern] = re.compile(pattern)
    return found


def grammar(pattern: str | Callable[[], str], reader: Callable[[str], Any],
            expected: str) -> AfterValidator:
    """A check of a string against ``pattern`` (a callable: one made when it is checked, for
    the bots registered then). A value it refuses is refused with ``reader``'s reason, else
    with ``expected``."""

    def check(value: str) -> str:
        text = pattern() if callable(pattern) else pattern
        if _compiled(text).search(value) is None:
            try:
                reader(value)
            except ValueError as exc:
                raise PydanticCustomError("string_pattern_mismatch", "{reason}",
                                          {"reason": str(exc)}) from None
            raise PydanticCustomError("string_pattern_mismatch", "{reason}",
                                      {"reason": expected})
        return value

    return AfterValidator(check)
