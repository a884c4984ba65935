"""The answers of the table server, as pydantic models for its OpenAPI schema (the server
builds them as dicts; these describe them): the error of a refusal, the state message, a
hint, the links of a new table, the lobby, a scorepad; and the WebSocket's messages
(:func:`openapi_extra`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from canasta.web.protocol.messages import ClientMessage, Hello


class Answer(BaseModel):
    model_config = ConfigDict(extra="allow")


class ErrorMessage(Answer):
    """A refusal; the table is unchanged. ``code`` gives the HTTP status
    (canasta.web.protocol.errors.ERROR_STATUS)."""

    type: Literal["error"]
    code: str
    message: str
    version: int | None = Field(default=None, description=(
        "the table's version, for a table request"))
    rule: str | None = Field(default=None, description="an illegal move: the rule it breaks")
    refusal: dict[str, Any] | None = Field(default=None, description=(
        "an illegal move: {rule, key, values, variant, seed, quote} "
        "(canasta.i18n.refusals.refusal_parts)"))


class StateMessage(Answer):
    """What one seat (or a spectator) sees of a table: sent after every change."""

    type: Literal["state"]
    table: str
    version: int
    you: int | None
    variant: str
    players: int
    settings: dict[str, Any]
    seats: list[dict[str, Any]]
    hand_number: int
    dealer: int
    view: dict[str, Any]
    match: dict[str, Any]


class HintAnswer(Answer):
    type: Literal["hint"]
    version: int
    items: list[dict[str, Any]]


class Pong(Answer):
    type: Literal["pong"]
    version: int


class SeatLink(Answer):
    seat: int
    name: str
    kind: str
    token: str | None
    path: str | None
    url: str | None


class Created(Answer):
    table: str
    version: int
    seats: list[SeatLink]
    spectator: dict[str, str]


class Joined(Answer):
    table: str
    seat: int
    token: str
    path: str


class Rematched(Answer):
    """The rematch: its table, and the asking seat's new token (given once) and link."""

    type: Literal["rematched"]
    table: str
    token: str
    path: str


class Lobby(Answer):
    tables: list[dict[str, Any]]


class Variants(Answer):
    variants: list[dict[str, Any]]
    bots: list[str]


class Languages(Answer):
    languages: list[str]


class Pad(Answer):
    """A scorepad: setup, hands with their sheets, totals, winner."""

    id: str
    variant: str
    players: int
    names: list[str]
    hands: list[dict[str, Any]]
    scores: list[int]
    version: str | None = None
    editable: bool | None = None
    key: str | None = Field(None, description="the keeper's key (only when created)")


ServerMessage = Annotated[StateMessage | HintAnswer | Pong | Rematched | ErrorMessage,
                          Field(discriminator="type")]


def openapi_extra() -> dict[str, Any]:
    """Schemas of the WebSocket ``/ws/{id}`` for the OpenAPI document's components:
    ``Hello`` (first), ``ClientMessage`` (then), ``ServerMessage`` (from the server)."""
    template = "#/components/schemas/{model}"
    out: dict[str, Any] = {}
    adapters: tuple[tuple[str, TypeAdapter[Any]], ...] = (
        ("Hello", TypeAdapter(Hello)), ("ClientMessage", TypeAdapter(ClientMessage)),
        ("ServerMessage", TypeAdapter(ServerMessage)))
    for name, adapter in adapters:
        schema = adapter.json_schema(ref_template=template)
        out.update(schema.pop("$defs", {}))
        out[name] = schema
    return out
