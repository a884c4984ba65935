"""The routes of the scorepad (:mod:`canasta.web.scorepad.pad`): its page and its HTTP API,
to include in the app."""

from __future__ import annotations

import json
import pathlib
from typing import Annotated

from fastapi import APIRouter, Header, Path
from starlette.requests import Request
from starlette.responses import FileResponse, Response

from canasta.web.dispatch import Context, Dispatcher, client_of, error_responses, respond
from canasta.web.protocol.answers import Pad
from canasta.web.protocol.fields import MAX_HAND
from canasta.web.protocol.messages import AddHand, CreatePad, GetPad, HandResult, RemoveHand
from canasta.web.scorepad.pad import PadService
from canasta.web.storage.store import Store

STATIC = pathlib.Path(__file__).parents[1] / "static"
PadId = Annotated[str, Path(max_length=64, description="the scorepad's id")]
PadHand = Annotated[int, Path(ge=0, le=MAX_HAND, description="a hand, from 0")]
PadKey = Annotated[str | None, Header(alias="X-Scorepad-Key", max_length=200,
                                      description="the keeper's key (given at creation): "
                                                  "without it the scorepad is read-only")]


def router(dispatcher: Dispatcher, store: Store) -> APIRouter:
    """The scorepad's page and API, to include in the app; its requests are run by
    ``dispatcher``."""
    PadService(store).register(dispatcher)
    api = APIRouter()
    errors = error_responses(400, 403, 404, 409, 429)

    def ctx(request: Request, pad_id: str | None = None, key: str | None = None) -> Context:
        # the keeper's key travels as the request's token
        return Context(client=client_of(request), pad_id=pad_id, token=key)

    @api.get("/scorepad", include_in_schema=False)
    @api.get("/scorepad/{pad_id}", include_in_schema=False)
    async def page() -> Response:
        return FileResponse(STATIC / "scorepad.html")

    @api.post("/api/scorepads", status_code=201, response_model=None,
              responses={201: {"model": Pad}, **errors})
    async def create(request: Request, body: CreatePad) -> Response:
        """A new scorepad: the variant, house rules, player count and team names."""
        return respond(await dispatcher.run(body, ctx(request)))

    @api.get("/api/scorepads/{pad_id}", response_model=None,
             responses={200: {"model": Pad}, **errors})
    async def get(request: Request, pad_id: PadId, key: PadKey = None) -> Response:
        """The scorepad: setup, hands with their sheets, totals, winner; ``editable`` says
        whether the key is the keeper's."""
        return respond(await dispatcher.run(GetPad(), ctx(request, pad_id, key)))

    @api.post("/api/scorepads/{pad_id}/hands", response_model=None,
              responses={200: {"model": Pad}, **errors})
    async def add_hand(request: Request, pad_id: PadId, body: AddHand,
                       key: PadKey = None) -> Response:
        """The next hand as a tally (with ``preview``: ``{"sheets"}``, nothing stored); the
        keeper's key only."""
        return respond(await dispatcher.run(body, ctx(request, pad_id, key)))

    @api.delete("/api/scorepads/{pad_id}/hands/{n}", response_model=None,
                responses={200: {"model": Pad}, **errors})
    async def remove_hand(request: Request, pad_id: PadId, n: PadHand,
                          key: PadKey = None) -> Response:
        """Remove the last hand (``n`` must be its number); the keeper's key only."""
        return respond(await dispatcher.run(RemoveHand(hand=n), ctx(request, pad_id, key)))

    @api.get("/api/scorepads/{pad_id}/hands/{n}/result", response_model=None,
             responses={200: {"description": "the hand result document (a download)",
                              "content": {"application/json": {}}}, **errors})
    async def hand_result(request: Request, pad_id: PadId, n: PadHand) -> Response:
        """The hand result document of hand ``n``, as ``canasta score`` reads it."""
        reply = await dispatcher.run(HandResult(hand=n), ctx(request, pad_id))
        if reply.refused:
            return respond(reply)
        return Response(json.dumps(reply.body, indent=1, ensure_ascii=False) + "\n",
                        media_type="application/json",
                        headers={"Content-Disposition":
                                 f'attachment; filename="scorepad-{pad_id}-hand{n + 1}.json"'})

    return api
