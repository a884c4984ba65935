"""The messages of the table server, validated by pydantic: every HTTP body and every
WebSocket message it accepts (the field types are in :mod:`canasta.web.protocol.fields`, the
reading of raw bytes into these models in :mod:`canasta.web.protocol.reading`, the answers in
:mod:`canasta.web.protocol.answers`).

Every model is strict (``"0"`` is not a number, ``true`` is not 1) and refuses fields it does
not know, naming them; numbers have ranges (a version, a seat, a hand number), strings
lengths. Names lose control and bidi-override characters
(:func:`canasta.web.protocol.fields.clean_name`).

The requests that act on a table are the same models over HTTP and the WebSocket: an HTTP
body adds the seat's ``token``; a WebSocket message adds its ``type`` (the token came with
its ``hello``). :mod:`canasta.web.dispatch` runs both.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from canasta.core.actions import Action, ActionParseError, action_from_json, parse_action
from canasta.web.protocol.base import Request as Request  # re-exported: the dispatcher's type
from canasta.web.protocol.base import Strict as Strict  # re-exported: accounts and tournaments
from canasta.web.protocol.chatmessages import CHAT_TYPES, ChatMute, ChatReport, ChatSay
from canasta.web.protocol.errors import bad
from canasta.web.protocol.fields import (
    MAX_CARDS,
    MAX_TEAMS,
    MAX_TEXT,
    MIN_PLAYERS,
    MOST_PLAYERS,
    ActionText,
    CardText,
    Clock,
    HandNumber,
    Lang,
    Level,
    Name,
    Options,
    Players,
    RankText,
    SeatNumber,
    TeamSize,
    Token,
    Variant,
    Version,
)

_LANG = "the language of the default seat names (a catalogue: en, it, pt, ro)"

_VARIANT = "a preset (`GET /api/variants`)"


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
    rank: RankText
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
class TableRequest(Request):
    """A request about one table, sent by a seat (or a spectator)."""

    limit: ClassVar[str | None] = "seat"


class Move(TableRequest):
    """Play one action: ``action`` (the JSON form) or ``text`` (``"meld 9s 9d JK"``)."""

    version: Version
    action: ActionJson | None = None
    text: ActionText | None = None

    #: One form or the other, in the schema as in :meth:`_one_form`.
    model_config = ConfigDict(json_schema_extra={"anyOf": [
        {"required": ["action"], "properties": {"action": {"type": "object"},
                                                "text": {"type": "null"}}},
        {"required": ["text"], "properties": {"text": {"type": "string"},
                                              "action": {"type": "null"}}}]})

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
    """A new match with the same seats once this one is over; answered ``{"type":
    "rematched", "table", "token", "path"}`` with the seat's new token."""

    reply: ClassVar[bool] = True


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

    limit: ClassVar[str | None] = "view"


class Record(Request):
    """The game record of finished hand ``hand`` (the last finished one when None)."""

    limit: ClassVar[str | None] = "work"


    hand: HandNumber | None = None


class Review(Request):
    """The Review of seat ``seat``'s decisions in finished hand ``hand``
    (:mod:`canasta.web.play.reviews`): started by the first request, asked for again until its
    ``status`` is ``done``. Starting one spends the client's ``create`` budget."""

    hand: HandNumber
    seat: SeatNumber = 0


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
    seats: Annotated[list[SeatSpec], Field(min_length=MIN_PLAYERS, max_length=MOST_PLAYERS,
                                           description=(
        "one per player; at least one person; a free seat only at a public table"))] | None = None
    clock: Clock | None = None
    level: Level | None = Field(default=None, description=(
        "the bot that plays for an absent person"))
    hints: bool = True
    undo: bool = False
    public: bool = False
    chat: Literal["presets", "free"] = Field(default="presets", description=(
        "what the table's chat allows: preset phrases only, or free text too"))
    lang: Lang = Field(default="en", description=_LANG)

    @model_validator(mode="after")
    def _seats_fit(self) -> CreateTable:
        """The seats agree with the player count and with ``public``: what no JSON Schema
        can say, refused as ``table`` (not ``malformed``), naming the field."""
        if self.seats is None:
            return self
        if self.players is not None and len(self.seats) != self.players:
            raise PydanticCustomError("table", "'seats': {players} players need {players} "
                                      "seats, not {seats}",
                                      {"players": self.players, "seats": len(self.seats)})
        if not any(s.type == "human" for s in self.seats):
            raise PydanticCustomError("table", "'seats': a table needs at least one person: "
                                      "make one seat human")
        if not self.public:
            for i, seat in enumerate(self.seats):
                if seat.type == "open":
                    raise PydanticCustomError("table", "'seats[{i}]': a free seat ('open') "
                                              "needs a public table", {"i": i})
        return self

    def spec(self) -> dict[str, Any]:
        """The fields that were sent (null: as if left out), as
        :meth:`canasta.web.play.tables.TableManager.create` reads them."""
        return self.model_dump(exclude_unset=True, exclude_none=True)


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
    """The first message of a WebSocket: the seat's token (none: a spectator); ``chat``:
    this connection takes part in the table's chat (canasta.web.play.chat)."""

    type: Literal["hello"]
    token: Token | None = None
    chat: bool = False


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
    | HintMessage | RematchMessage | PingMessage | ChatSay | ChatMute | ChatReport,
    Field(discriminator="type")]
MESSAGE_TYPES = ("action", "go-out", "next-hand", "undo", "bot", "take-back", "hint",
                 "rematch", "ping", *CHAT_TYPES)
