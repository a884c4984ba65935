"""The routes of duplicate tournaments (:mod:`canasta.web.tournaments.service`): the page and
the HTTP API, to include in the app::

    POST /api/tournaments                    {"name", "variant", "options", "players",
                                             "team_size", "tables", "rounds", "deals",
                                             "clock", "level", "deal_pause", "starts_at",
                                             "lang"} -> {"tournament", "host_token", "path",
                                             "join_path"}
    GET  /api/tournaments/{id}               schedule, teams, tables, results, standings,
                                             deals; with "Authorization: Bearer <token>"
                                             also "you" (an entrant) or "host"
    POST /api/tournaments/{id}/join          {"name", "team", "account", "lang"} ->
                                             {"team", "slot", "token", "path"}
    POST /api/tournaments/{id}/start         {"token": the host's}: start now
    GET  /api/tournaments/{id}/record        the tournament's record (a download)

Pages: ``/tournaments`` (make one) and ``/tournaments/{id}`` (the tournament; an entrant's
token travels in the fragment ``#entrant=...``, the host's in ``#host=...``).
"""

from __future__ import annotations

import contextlib
import json
import pathlib
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Header
from fastapi import Path as PathParam
from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import FileResponse, Response

from canasta.web.dispatch import Context, Dispatcher, client_of, error_responses, respond
from canasta.web.protocol.fields import MAX_TOKEN
from canasta.web.protocol.messages import Request as Request_
from canasta.web.protocol.reading import invalid
from canasta.web.storage.store import Store
from canasta.web.tournaments.messages import (
    CreateTournament,
    JoinBody,
    JoinTournament,
    StartBody,
    StartTournament,
    TournamentRecord,
    ViewTournament,
)
from canasta.web.tournaments.service import TournamentService

STATIC = pathlib.Path(__file__).parents[1] / "static"
TournamentPath = Annotated[str, PathParam(max_length=64, description="the tournament's id")]
Authorization = Annotated[str | None, Header(
    max_length=MAX_TOKEN + 7, description="`Bearer <token>`: an entrant's or the host's")]


def router(dispatcher: Dispatcher, store: Store) -> APIRouter:
    """The tournaments' page and API; their requests are run by ``dispatcher``, and the
    service (``router.service``) looks at the tournaments in play while the app runs."""
    service = TournamentService(dispatcher.manager, store)
    service.register(dispatcher)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.tournaments = service
        service.begin()
        yield
        await service.end()

    api = APIRouter(lifespan=lifespan)
    api.service = service  # type: ignore[attr-defined]
    errors = error_responses(400, 403, 404, 409, 429, 503)

    def ctx(request: Request) -> Context:
        return Context(client=client_of(request), base_url=str(request.base_url))

    async def run(request: Request, kind: type[Request_], **values: Any) -> Response:
        """The request ``kind`` of the path's and the body's values, run."""
        try:
            req = kind(**values)
        except ValidationError as exc:  # a value the path admits and the model does not
            return respond(dispatcher.refusal(invalid(exc), ctx(request)))
        return respond(await dispatcher.run(req, ctx(request)))

    @api.get("/tournaments", include_in_schema=False)
    @api.get("/tournaments/{tournament_id}", include_in_schema=False)
    async def page() -> Response:
        return FileResponse(STATIC / "tournament.html")

    @api.post("/api/tournaments", status_code=201, response_model=None,
              responses={201: {"description": "the tournament's id and the host's link"},
                         **errors})
    async def create(request: Request, body: CreateTournament | None = None) -> Response:
        """A new duplicate tournament: every table of a round plays the same deals, the
        teams of a match swapping sides across its two tables."""
        return respond(await dispatcher.run(body or CreateTournament(), ctx(request)))

    @api.get("/api/tournaments/{tournament_id}", response_model=None,
             responses={200: {"description": "the tournament as it stands"}, **errors})
    async def view(request: Request, tournament_id: TournamentPath,
                   authorization: Authorization = None) -> Response:
        """Schedule, teams, tables with their links, each deal's comparison, standings."""
        token = None
        if authorization and authorization.lower().startswith("bearer "):
            token = authorization[7:].strip() or None
        return await run(request, ViewTournament, tournament=tournament_id, token=token)

    @api.post("/api/tournaments/{tournament_id}/join", response_model=None,
              responses={200: {"description": "the entrant's token and link"}, **errors})
    async def join(request: Request, tournament_id: TournamentPath,
                   body: JoinBody | None = None) -> Response:
        """A seat in a team for a person, while the tournament takes entrants."""
        body = body or JoinBody()
        return await run(request, JoinTournament, tournament=tournament_id,
                         **body.model_dump())

    @api.post("/api/tournaments/{tournament_id}/start", response_model=None,
              responses={200: {"description": "the tournament, started"}, **errors})
    async def start(request: Request, tournament_id: TournamentPath,
                    body: StartBody) -> Response:
        """The host starts the tournament now; bots take the seats nobody took."""
        return await run(request, StartTournament, tournament=tournament_id,
                         token=body.token)

    @api.get("/api/tournaments/{tournament_id}/record", response_model=None,
             responses={200: {"description": "the tournament's record, as a download",
                              "content": {"application/json": {}}}, **errors})
    async def record(request: Request, tournament_id: TournamentPath) -> Response:
        """Everything the results page shows, with the deals' secrets of finished rounds."""
        reply = await dispatcher.run(TournamentRecord.model_construct(
            tournament=tournament_id), ctx(request))  # the path's check is the model's
        if reply.refused:
            return respond(reply)
        return Response(json.dumps(reply.body, indent=1, ensure_ascii=False) + "\n",
                        media_type="application/json",
                        headers={"Content-Disposition":
                                 f'attachment; filename="tournament-{tournament_id}.json"'})

    return api
