"""The messages of the table server, validated by pydantic: every HTTP body and every
WebSocket message it accepts, and the reading of raw bytes into them (the answers are in
:mod:`canasta.web.answers`).

Every model is strict (``"0"`` is not a number, ``true`` is not 1) and refuses fields it does
not know, naming them; numbers have ranges (a version, a seat, a hand number), strings
lengths. Names lose control and bidi-override characters (:func:`clean_name`). Before a
model sees a body or a message, :func:`read_json` refuses one that is too large, not UTF-8,
not JSON (``NaN``, a lone surrogate) or nested deeper than a few levels. A refusal is a
:class:`canasta.web.errors.WebError` ``malformed`` whose message names the field
(:func:`describe`), and the table is unchanged.

The requests that act on a table are the same models over HTTP and the WebSocket: an HTTP
body adds the seat's ``token``; a WebSocket message adds its ``type`` (the token came with
its ``hello``). :mod:`canasta.web.dispatch` runs both.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, ClassVar, Literal

import pydantic_core
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    WithJsonSchema,
    model_validator,
)
from pydantic_core import PydanticCustomError

from canasta.core.actions import Action, ActionParseError, action_from_json, parse_action
from canasta.core.rules import PRESETS, RulesError, load_preset
from canasta.web.errors import WebError, bad

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
Level = Annotated[str, _string("a bot spec such as 'medium' (levels: easy, medium, hard, "
                               "expert)"),
                  Field(max_length=MAX_WORD, description=(
                      "a bot: a level (easy, medium, hard, expert) or a spec such as "
                      "`hard:seed=3`"))]
Name = Annotated[str, _string("a name (a string)"), Field(max_length=MAX_NAME_INPUT),
                 AfterValidator(clean_name)]
CardText = Annotated[str, _string("a card such as '9s', '10h' or 'JK'"),
                     Field(min_length=1, max_length=4, description="`9s`, `10h`, `JK`")]
Word = Annotated[str, Field(max_length=MAX_WORD)]
#: The languages of the message catalogues (canasta.i18n; a test holds the two lists equal):
#: the default names of seats ("Giocatore 2") are in the creator's or joiner's language.
Lang = Literal["en", "it", "pt", "ro"]
_LANG = "the language of the default seat names (a catalogue: en, it, pt, ro)"


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


_VARIANT = "a preset (`GET /api/variants`)"


class Strict(BaseModel):
    """Strict types, unknown fields refused, values frozen."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


# -- actions: the JSON form of canasta.core.actions ------------------------------------------
class _ActionBase(Strict):
    text: Annotated[str, Field(max_length=MAX_TEXT, description=(
        "ignored: the text form that the server sends with each legal action"))] | None = None


class DrawAction(_ActionBase):
    type: Literal["draw"]


class TakePileAction(_ActionBase):
    type: Literal["take-pile"]
    cards: list[CardText] = Field(default_factory=list, max_length=MAX_CARDS)


class MeldAction(_ActionBase):
    type: Literal["meld"]
    cards: list[CardText] = Field(min_length=1, max_length=MAX_CARDS)


class LayOffAction(_ActionBase):
    type: Literal["lay-off"]
    rank: Annotated[str, Field(min_length=1, max_length=3)]
    cards: list[CardText] = Field(min_length=1, max_length=MAX_CARDS)


class DiscardAction(_ActionBase):
    type: Literal["discard"]
    card: CardText


class AskPartnerAction(_ActionBase):
    type: Literal["ask-partner"]


class AnswerAction(_ActionBase):
    type: Literal["answer"]
    yes: bool


class RetractAction(_ActionBase):
    type: Literal["retract"]


class EndHandAction(_ActionBase):
    type: Literal["end-hand"]


ActionJson = Annotated[
    DrawAction | TakePileAction | MeldAction | LayOffAction | DiscardAction | AskPartnerAction
    | AnswerAction | RetractAction | EndHandAction,
    Field(discriminator="type", description="an action's JSON form (docs/formats.md)")]


# -- requests: what the dispatcher runs --------------------------------------------------------
class Request(Strict):
    """A request to the server. ``limit`` names the budget it spends (``seat``: the sender's
    seat's; ``create``: the client address's; None: free); ``status`` is the HTTP status of
    its answer; ``reply``: over the WebSocket, the answer goes to the sender (the others'
    answers are the state messages that every connection receives)."""

    limit: ClassVar[str | None] = None
    status: ClassVar[int] = 200
    reply: ClassVar[bool] = False


class TableRequest(Request):
    """A request about one table, sent by a seat (or a spectator)."""

    limit: ClassVar[str | None] = "seat"


class Move(TableRequest):
    """Play one action: ``action`` (the JSON form) or ``text`` (``"meld 9s 9d JK"``)."""

    version: Version
    action: ActionJson | None = None
    text: Annotated[str, Field(min_length=1, max_length=MAX_TEXT, pattern=r"\S",
                               description="the text form")] | None = None

    @model_validator(mode="after")
    def _one_form(self) -> Move:
        if (self.action is None) == (self.text is None):
            raise ValueError("a move needs 'action' (the JSON form) or 'text' (the text "
                             "form), one of them")
        return self

    def to_action(self) -> Action:
        """The engine's action.

        Raises:
            WebError: ``malformed``, with the reader's reason (a card that is no card).
        """
        try:
            if self.action is not None:
                return action_from_json(self.action.model_dump(exclude={"text"}))
            assert self.text is not None
            return parse_action(self.text)
        except ActionParseError as exc:
            raise bad(str(exc)) from None


class GoOut(TableRequest):
    """Play the engine's going-out plan (melds, lay-offs, the last discard) at once."""

    version: Version


class NextHand(TableRequest):
    """Deal the next hand, once this one is scored (any seated person)."""

    version: Version


class Undo(TableRequest):
    """House rule undo: take back the melds and lay-offs of this turn."""

    version: Version


class GiveToBot(TableRequest):
    """A bot plays ``seat``: one's own at any time, another person's while nobody is
    connected to it. ``level``: the bot (the table's level by default)."""

    seat: SeatNumber
    level: Level | None = None


class TakeBack(TableRequest):
    """The sender plays its seat again after a bot kept it."""


class Hint(TableRequest):
    """The best moves of the sender's seat (it must be its turn)."""

    limit: ClassVar[str | None] = "work"

    reply: ClassVar[bool] = True


class Rematch(TableRequest):
    """A new match with the same seats once this one is over."""


class Ping(TableRequest):
    """Answered ``{"type": "pong", "version"}``."""

    reply: ClassVar[bool] = True


class Join(TableRequest):
    """Take the free seat ``seat`` of a public table."""

    seat: SeatNumber
    name: Name | None = None
    lang: Lang = Field(default="en", description=_LANG)


class ViewTable(Request):
    """The state message of the sender's seat (a spectator's without a token)."""


class Record(Request):
    """The game record of finished hand ``hand`` (the last finished one when None)."""

    limit: ClassVar[str | None] = "work"

    hand: HandNumber | None = None


class SeatSpec(Strict):
    """One seat of a new table."""

    type: Literal["human", "bot", "open"] = Field(default="human", description=(
        "a person (gets a link), a bot, or a free seat for the lobby (a bot plays it until "
        "someone joins; needs a public table)"))
    level: Level | None = None
    name: Name | None = None


class CreateTable(Request):
    """A new table. Every field is optional: the international rules, four players, a
    person and three medium bots."""

    limit: ClassVar[str | None] = "create"
    status: ClassVar[int] = 201
    variant: Variant = Field(default="international", description=_VARIANT)
    options: Options | None = None
    players: Players | None = None
    team_size: TeamSize | None = None
    seats: Annotated[list[SeatSpec], Field(max_length=MOST_PLAYERS)] | None = None
    clock: Clock | None = None
    level: Level | None = Field(default=None, description=(
        "the bot that plays for an absent person"))
    hints: bool = True
    undo: bool = False
    public: bool = False
    lang: Lang = Field(default="en", description=_LANG)

    def spec(self) -> dict[str, Any]:
        """The fields that were sent, as :meth:`canasta.web.tables.TableManager.create`
        reads them."""
        return self.model_dump(exclude_unset=True)


class CreatePad(Request):
    """A new scorepad (:mod:`canasta.web.scorepad`)."""

    limit: ClassVar[str | None] = "create"
    status: ClassVar[int] = 201
    variant: Variant = Field(description=_VARIANT)
    options: Options | None = None
    players: Players
    team_size: TeamSize | None = None
    names: Annotated[list[Name], Field(max_length=MAX_TEAMS)] | None = None


class AddHand(Request):
    """The next hand of a scorepad as a tally (:mod:`canasta.formats.tally`); with
    ``preview``, its sheets without storing it."""

    limit: ClassVar[str | None] = "work"

    tally: dict[str, Any] = Field(description="the tally (docs/web.md, the scorepad)")
    preview: bool = False


class GetPad(Request):
    """A scorepad as it stands."""


class RemoveHand(Request):
    """Remove the last hand of a scorepad (``hand`` must be its number)."""

    hand: HandNumber


class HandResult(Request):
    """The hand result document of a scorepad's hand (a download)."""

    limit: ClassVar[str | None] = "work"

    hand: HandNumber


# -- HTTP bodies: a request and the seat's token -----------------------------------------------
class WithToken(Strict):
    token: Token | None = None


class MoveBody(Move, WithToken):
    pass


class GoOutBody(GoOut, WithToken):
    pass


class NextHandBody(NextHand, WithToken):
    pass


class UndoBody(Undo, WithToken):
    pass


class HintBody(Hint, WithToken):
    pass


class RematchBody(Rematch, WithToken):
    pass


class BotBody(WithToken):
    """``POST /api/tables/{id}/seats/{seat}/bot``."""

    level: Level | None = None


class JoinBody(Strict):
    """``POST /api/tables/{id}/seats/{seat}/join``."""

    name: Name | None = None
    lang: Lang = Field(default="en", description=_LANG)


# -- WebSocket messages ----------------------------------------------------------------------
class Hello(Strict):
    """The first message of a WebSocket: the seat's token (none: a spectator)."""

    type: Literal["hello"]
    token: Token | None = None


class MoveMessage(Move):
    type: Literal["action"]


class GoOutMessage(GoOut):
    type: Literal["go-out"]


class NextHandMessage(NextHand):
    type: Literal["next-hand"]


class UndoMessage(Undo):
    type: Literal["undo"]


class BotMessage(GiveToBot):
    type: Literal["bot"]


class TakeBackMessage(TakeBack):
    type: Literal["take-back"]


class HintMessage(Hint):
    type: Literal["hint"]


class RematchMessage(Rematch):
    type: Literal["rematch"]


class PingMessage(Ping):
    type: Literal["ping"]


ClientMessage = Annotated[
    MoveMessage | GoOutMessage | NextHandMessage | UndoMessage | BotMessage | TakeBackMessage
    | HintMessage | RematchMessage | PingMessage,
    Field(discriminator="type")]
MESSAGE_TYPES = ("action", "go-out", "next-hand", "undo", "bot", "take-back", "hint",
                 "rematch", "ping")
_MESSAGE = TypeAdapter(ClientMessage)
_HELLO = TypeAdapter(Hello)


# -- reading bytes ---------------------------------------------------------------------------
def _depth(value: Any, limit: int) -> bool:
    """Whether ``value`` nests objects and arrays no deeper than ``limit``."""
    level = [value]
    for _ in range(limit + 1):
        nxt: list[Any] = []
        for item in level:
            if isinstance(item, dict):
                nxt.extend(item.values())
            elif isinstance(item, list):
                nxt.extend(item)
        if not nxt:
            return True
        level = nxt
    return False


def read_json(raw: bytes | str, max_bytes: int, max_depth: int, what: str = "request") -> Any:
    """The JSON value of a body or message.

    Raises:
        WebError: ``malformed``: larger than ``max_bytes``, not UTF-8, not JSON (``NaN`` and
            lone surrogates are not JSON), or nested deeper than ``max_depth``.
    """
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise bad(f"the {what} is too large (at most {max_bytes} bytes)")
    try:
        # pydantic's parser: no recursion in Python, no NaN, no lone surrogates
        value = pydantic_core.from_json(raw, allow_inf_nan=False)
    except ValueError as exc:
        reason = str(exc)
        if "recursion" in reason:
            raise bad(f"the {what} is nested too deep (at most {max_depth} levels)") from None
        raise bad(f"the {what} is not JSON: {reason}") from None
    if not _depth(value, max_depth):
        raise bad(f"the {what} is nested too deep (at most {max_depth} levels)")
    return value


def _loc(loc: tuple[int | str, ...]) -> str:
    out = ""
    for i, part in enumerate(loc):
        if isinstance(part, int):
            out += f"[{part}]"
        elif i and loc[i - 1] == "action" and part in ACTION_TYPES:
            continue  # the tag of the action's union, not a field
        else:
            out += f".{part}" if out else str(part)
    return out


def describe(errors: list[Any], *, skip: int = 0) -> str:
    """One message for a validation failure: the first error's field and reason
    (``'seats[0].type': Input should be 'human', 'bot' or 'open'``). ``skip``: leading
    parts of each location to leave out (FastAPI's ``body``, a message's tag)."""
    if not errors:
        return "the request is not valid"
    unknown = [_loc(tuple(e.get("loc", ()))[skip:]) for e in errors
               if e.get("type") == "extra_forbidden"]
    if len(unknown) > 1:
        return "unknown fields " + ", ".join(f"'{u}'" for u in unknown)
    err = errors[0]
    loc = tuple(err.get("loc", ()))[skip:]
    kind = err.get("type", "")
    msg = str(err.get("msg", "not valid"))
    if kind == "extra_forbidden":
        msg = "unknown field"
    elif kind == "missing":
        msg = "required"
    elif kind in ("value_error", "assertion_error"):
        msg = msg.removeprefix("Value error, ").removeprefix("Assertion failed, ")
    if not loc:
        return msg
    return f"'{_loc(loc)}': {msg}"


def invalid(exc: ValidationError, skip: int = 0) -> WebError:
    return bad(describe(exc.errors(include_url=False), skip=skip))


def read_hello(value: Any) -> Hello:
    """The first WebSocket message.

    Raises:
        WebError: ``malformed``, naming the bad field.
    """
    if not isinstance(value, dict) or value.get("type") != "hello":
        raise bad('first send {"type": "hello", "token": ...}')
    try:
        return _HELLO.validate_python(value)
    except ValidationError as exc:
        raise invalid(exc) from None


def read_message(value: Any) -> Request:
    """A WebSocket message after the hello (one of :data:`MESSAGE_TYPES`).

    Raises:
        WebError: ``malformed``: not an object, an unknown type, or a bad field (named).
    """
    if not isinstance(value, dict) or not isinstance(value.get("type"), str):
        raise bad('expected {"type": ...}')
    kind = value["type"]
    if kind not in MESSAGE_TYPES:
        raise bad(f"unknown message type {kind[:40]!r}; the types are "
                  f"{', '.join(MESSAGE_TYPES)}")
    try:
        message: Request = _MESSAGE.validate_python(value)
    except ValidationError as exc:
        raise invalid(exc, skip=1) from None
    return message
