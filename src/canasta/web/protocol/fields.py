"""The field types of the table server's messages: ranges of numbers, lengths of strings,
the names of presets, languages and house rules, and :func:`clean_name`, which takes control
and bidi-override characters out of names (the models are in
:mod:`canasta.web.protocol.messages`)."""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, Field, WithJsonSchema
from pydantic_core import PydanticCustomError

from canasta.bots.registry import parse_spec
from canasta.core.actions import parse_action
from canasta.core.cards import parse_card, parse_rank
from canasta.core.rules import PRESETS, RulesError, load_preset
from canasta.web.protocol import grammar

#: Ranges of numbers (a version counts a table's events; a hand number its hands).
MAX_VERSION = 2**31 - 1
MAX_HAND = 100_000
MAX_SEAT = 15
MAX_PLAYERS = 16
#: Lengths of strings and lists.
MAX_TOKEN = 200
MAX_NAME_INPUT = 200
MAX_TEXT = 400
MAX_WORD = 100
MAX_CARDS = 120
MAX_OPTIONS = 64
MAX_TEAMS = 8

ACTION_TYPES = ("draw", "take-pile", "meld", "lay-off", "discard", "ask-partner", "answer",
                "retract", "end-hand")

# -- names ---------------------------------------------------------------------------------
#: Kept although they are format characters: the joiners that Persian, Indic scripts and
#: emoji sequences need.
_KEEP_FORMAT = {"\u200c", "\u200d"}


def clean_name(value: str) -> str:
    """``value`` without control characters (category Cc; whitespace ones become spaces)
    and format characters (Cf: bidi embeddings, overrides and isolates, marks, zero-width
    spaces, the BOM; the joiners U+200C and U+200D stay), with runs of whitespace made one
    space and the ends trimmed. A name shown to other players can no longer reverse the text
    after it or hide in invisible characters."""
    out = []
    for ch in value:
        cat = unicodedata.category(ch)
        if cat == "Cc" or ch in "\u2028\u2029":
            if ch.isspace() or ch in "\x1c\x1d\x1e\x1f\x85":
                out.append(" ")
        elif cat in ("Cf", "Cs") and ch not in _KEEP_FORMAT:
            continue
        else:
            out.append(ch)
    return " ".join("".join(out).split())


# -- field types ---------------------------------------------------------------------------
def _string(what: str) -> BeforeValidator:
    """Refuse a value that is not a string with a message that says what is expected."""

    def check(value: Any) -> Any:
        if not isinstance(value, str):
            raise PydanticCustomError("string_type", what)
        return value

    return BeforeValidator(check)


def _whole(value: Any) -> Any:
    """A number written with a fraction of zero (``7.0``) is the whole number it equals:
    JSON Schema's ``integer`` admits it, so the server does too (``true`` stays refused)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


Whole = BeforeValidator(_whole)


def _player_counts() -> tuple[int, int]:
    """The fewest and the most players any preset is played by."""
    counts: set[int] = set()
    for name in PRESETS:
        try:
            counts.update(load_preset(name).deal.player_counts)
        except RulesError:  # a preset that does not load offers no table
            continue
    return (min(counts), max(counts)) if counts else (2, 6)


#: Player counts of the presets (a variant's own counts are checked with its rules).
MIN_PLAYERS, MOST_PLAYERS = _player_counts()

Version = Annotated[int, Field(ge=0, le=MAX_VERSION, description=(
    "the table version the client saw (the `version` of its last state message)")), Whole]
SeatNumber = Annotated[int, Field(ge=0, le=MAX_SEAT, description="a seat, from 0"), Whole]
HandNumber = Annotated[int, Field(ge=0, le=MAX_HAND, description="a hand, from 0"), Whole]
Players = Annotated[int, Field(ge=MIN_PLAYERS, le=MOST_PLAYERS, description=(
    "players: as the variant allows (`GET /api/variants`)")), Whole]
TeamSize = Annotated[int, Field(ge=1, le=MOST_PLAYERS), Whole]


def _preset(value: str) -> str:
    if value not in PRESETS:
        raise ValueError(f"unknown variant; expected a preset: {', '.join(PRESETS)}")
    return value


Variant = Annotated[str, _string("a preset's name"), AfterValidator(_preset),
                    WithJsonSchema({"type": "string", "enum": list(PRESETS)})]


def _clock(value: float) -> float:
    if value != 0 and not 1 <= value <= 3600:
        raise ValueError("expected 0 (no clock) or seconds from 1 to 3600")
    return value


Clock = Annotated[float, Field(ge=0, le=3600, allow_inf_nan=False), AfterValidator(_clock),
                  WithJsonSchema({"anyOf": [{"const": 0}, {"type": "number", "minimum": 1,
                                                           "maximum": 3600}],
                                  "description": "seconds per turn: 0 (no clock) or 1 to "
                                                 "3600"})]
Token = Annotated[str, _string("a seat's token (a string)"),
                  Field(max_length=MAX_TOKEN, description="a seat's secret token")]


def _bot(value: str) -> str:
    """A spec the pattern admits that the registry refuses (a number out of its range, a
    parameter given twice) is ``bad-bot``, not ``malformed``: the schema cannot say it."""
    if value:
        try:
            parse_spec(value)
        except ValueError as exc:
            raise PydanticCustomError("bad_bot", "{reason}", {"reason": str(exc)}) from None
    return value


def _bot_pattern(schema: dict[str, Any]) -> None:
    schema["pattern"] = grammar.bot_spec()


Level = Annotated[str, _string("a bot spec such as 'medium' (levels: easy, medium, hard, "
                               "expert)"),
                  Field(max_length=MAX_WORD, json_schema_extra=_bot_pattern, description=(
                      "a bot: a level (easy, medium, hard, expert), any registered bot, or a "
                      "spec such as `hard:seed=3` (the parameters and their ranges: "
                      "`canasta bots`); empty: the default")),
                  grammar.grammar(grammar.bot_spec, parse_spec,
                                  "expected a bot spec in lower case: a name, then "
                                  "`:key=value,...`"),
                  AfterValidator(_bot)]
Name = Annotated[str, _string("a name (a string)"), Field(max_length=MAX_NAME_INPUT),
                 AfterValidator(clean_name)]
CardText = Annotated[str, _string("a card such as '9s', '10h' or 'JK'"),
                     Field(min_length=1, max_length=4, description="`9s`, `10h`, `JK`",
                           json_schema_extra={"pattern": grammar.CARD_TEXT}),
                     grammar.grammar(grammar.CARD_TEXT, parse_card,
                                     "expected a card such as '9s', '10h' or 'JK'")]
RankText = Annotated[str, Field(min_length=1, max_length=4, description=(
    "a meld's rank: `A`, `K` ... `4`, `3`, `2` (`10` or `T`), `W` for wild cards"),
    json_schema_extra={"pattern": grammar.RANK_TEXT}),
    grammar.grammar(grammar.RANK_TEXT, parse_rank, "expected a rank such as 'K', '9' or 'W'")]
ActionText = Annotated[str, Field(min_length=1, max_length=MAX_TEXT, description=(
    "the text form: `draw`, `take-pile`, `meld 9s 9d JK`, `lay-off 9 JK`, `discard 5h`, "
    "`ask-partner`, `answer yes`, `retract`, `end-hand`"),
    json_schema_extra={"pattern": grammar.ACTION_TEXT}),
    grammar.grammar(grammar.ACTION_TEXT, parse_action,
                    "expected an action's text form, such as 'meld 9s 9d JK'")]
Word = Annotated[str, Field(max_length=MAX_WORD)]
#: The languages of the message catalogues (canasta.i18n; a test holds the two lists equal):
#: the default names of seats ("Giocatore 2") are in the creator's or joiner's language.
Lang = Literal["en", "it", "pt", "ro"]



def _scalar(value: Any) -> Any:
    if isinstance(value, (bool, int)) or (isinstance(value, str) and len(value) <= MAX_WORD):
        return value
    if isinstance(value, float) and value == value and abs(value) != float("inf"):
        return value
    raise ValueError(f"expected a string (at most {MAX_WORD} characters), a number or "
                     "true/false")


#: A house rule's value: its text, a number or true/false.
OptionValue = Annotated[Any, AfterValidator(_scalar), WithJsonSchema(
    {"anyOf": [{"type": "string", "maxLength": MAX_WORD}, {"type": "number"},
               {"type": "boolean"}]})]
Options = Annotated[dict[Word, OptionValue], Field(max_length=MAX_OPTIONS, description=(
    "named house rules of the preset (`canasta rules VARIANT`) or any rule field as "
    "`section.field`"))]

