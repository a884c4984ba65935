"""The ASGI app of ``canasta serve`` (FastAPI): routes only.

Every body and message is a model of :mod:`canasta.web.protocol`, and every request is run by
the one :class:`canasta.web.dispatch.Dispatcher`, over HTTP and the WebSocket alike. The
OpenAPI schema of the HTTP API, with the WebSocket's messages among its components
(``Hello``, ``ClientMessage``, ``ServerMessage``), is served at ``/openapi.json``.

HTTP API (JSON; a body is sent with ``Content-Type: application/json``)::

    GET  /api/variants                      presets, player counts, house rules, bot levels
    POST /api/tables                        create: {"variant", "options", "players",
                                            "team_size", "seats": [{"type": "human"|"bot"|
                                            "open", "level", "name"}], "clock", "level",
                                            "hints", "undo", "public", "chat", "lang"} -> links
                                            with seat tokens (canasta.web.play.settings)
    GET  /api/lobby                         {"tables": public tables with a free seat}
    POST /api/tables/{id}/seats/{seat}/join {"name", "lang"}: a free seat -> {"token", "path"}
    GET  /api/tables/{id}                   the table as a spectator sees it; with the header
                                            "Authorization: Bearer <seat token>", as that seat
    POST /api/tables/{id}/actions           {"token", "version", "action": {JSON form}} or
                                            {"token", "version", "text": "meld 9s 9d JK"}
    POST /api/tables/{id}/go-out            {"token", "version"}: play the going-out plan
    POST /api/tables/{id}/next-hand         {"token", "version"}
    POST /api/tables/{id}/seats/{seat}/bot  {"token", "level"}: a bot plays that seat
    POST /api/tables/{id}/hint              {"token"}: the best moves of the seat to act
    POST /api/tables/{id}/undo              {"token", "version"}: house rule undo
    POST /api/tables/{id}/rematch           {"token"}: the same seats again -> {"table",
                                            "token" (the seat's new one, given once), "path"}
    GET  /api/tables/{id}/record            game record of the finished hands (download)
    GET  /api/tables/{id}/hands/{n}/record  the record as stored when hand n finished
    GET  /api/tables/{id}/hands/{n}/review?seat=S  the Review of seat S in finished hand n:
                                            {"status": "running", "done", "total"} until
                                            {"status": "done", "review"} (canasta.web.play.reviews)
    GET  /i18n                              {"languages": ["en", "it", ...]}
    GET  /i18n/{lang}.json                  the message catalogue of a language (canasta.i18n)
    GET  /openapi.json                      the OpenAPI schema of all this

WebSocket ``/ws/{id}``: the client first sends ``{"type": "hello", "token": "<seat token>"}``
(no token: a spectator; ``"chat": true`` to take part in the chat) and receives
``{"type": "state", ...}`` now and after every change.
It may then send ``{"type": "action", "version": n, "action": {...}}`` (or ``"text"``),
``{"type": "go-out", "version": n}``, ``{"type": "next-hand", "version": n}``,
``{"type": "bot", "seat": s, "level": "medium"}``, ``{"type": "take-back"}`` (I'm back),
``{"type": "hint"}`` (answered ``{"type": "hint", "version", "items"}`` to the sender),
``{"type": "undo", "version": n}``, ``{"type": "rematch"}``, ``{"type": "ping"}``
(answered ``{"type": "pong", "version"}``) and the chat's ``chat``, ``chat-mute`` and
``chat-report`` (:mod:`canasta.web.play.chat`), each as a text frame.
A refused message is answered ``{"type": "error", "code", "message", "version"}`` to its
sender only, the table is unchanged and the connection stays open; an illegal move's error
also carries ``"rule"`` and ``"refusal"`` (``{"rule", "key", "values", "variant", "seed",
"quote"}``, see :func:`canasta.i18n.refusals.refusal_parts`), from which the page writes
"Not allowed: …" in its own language with the variant's seed sentence. A bad hello is
answered with an error, then the connection is closed (4403 for a bad token, else 4400).

Refused over both: an unknown field (named), a value of the wrong type or out of its range, a
body or message over 16 KiB (32 KiB for the scorepad), nesting deeper than 16 levels, a binary
frame, and more than a seat's or a client's rate (``rate-limited``, 429 with ``Retry-After``;
:mod:`canasta.web.protocol.limits`).

Pages: ``/`` (create a table) and ``/t/{id}`` (the table; the seat token travels in the URL
fragment ``#seat=...``, which browsers never send to the server); the optional accounts'
``/account`` and ``/leaderboard`` with their API (:mod:`canasta.web.accounts.routes`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import canasta.web.accounts.routes as accounts
import canasta.web.offline as offline
import canasta.web.protocol.answers as a
import canasta.web.protocol.fields as fields
import canasta.web.protocol.messages as p
import canasta.web.scorepad.routes as scorepad
import canasta.web.tournaments.routes as tournaments
from canasta import i18n
from canasta.web.dispatch import Context, Dispatcher, client_of, error_responses, respond
from canasta.web.headers import catalogue_response
from canasta.web.headers import install as install_headers
from canasta.web.play.chat import ChatDesk
from canasta.web.play.tables import Connection, TableManager, bot_levels, variants
from canasta.web.protocol.errors import WebError, bad
from canasta.web.protocol.limits import ServerLimits, exempt_addresses
from canasta.web.protocol.ratelimit import SocketCount
from canasta.web.protocol.reading import read_hello, read_json, refusal
from canasta.web.storage.store import Store

STATIC = Path(__file__).with_name("static")
HELLO_TIMEOUT = 30.0
log = logging.getLogger("canasta.web")

TableId = Annotated[str, PathParam(max_length=64, description="the table's id")]
SeatPath = Annotated[int, PathParam(ge=0, le=fields.MAX_SEAT, description="a seat, from 0")]
HandPath = Annotated[int, PathParam(ge=0, le=fields.MAX_HAND, description="a hand, from 0")]
Authorization = Annotated[str | None, Header(
    max_length=fields.MAX_TOKEN + 7, description="`Bearer <seat token>`: the view of that seat")]
_TABLE_PATH = re.compile(r"^/api/tables/([^/]+)/")
#: The four whitespace characters JSON allows around a value (bytes.strip() takes more).
_JSON_SPACE = b" \t\n\r"
_JSON_TYPE = re.compile(rb"^\s*application/([\w.+-]+\+)?json\s*(;.*)?$", re.IGNORECASE)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyGuard:
    """Reads the body of every ``/api/`` request before the app does, and refuses one that
    is too large (read in chunks: a huge upload is never held), not JSON, sent without a
    JSON content type, or nested too deep (:func:`canasta.web.protocol.reading.read_json`)."""

    def __init__(self, app: ASGIApp, limits: ServerLimits,
                 refuse: Callable[[WebError, str], Response]) -> None:
        self.app = app
        self.limits = limits
        self.refuse = refuse

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or not path.startswith("/api/"):
            await self.app(scope, receive, send)
            return
        limit = (self.limits.max_pad_body if path.startswith("/api/scorepads")
                 else self.limits.max_body)
        headers = dict(scope.get("headers") or [])
        try:
            raw = await self._read(receive, headers, limit)
            if raw is None:
                return  # the client left
            if raw.strip(_JSON_SPACE):  # JSON's whitespace only: a body of \x0b is no JSON
                if not _JSON_TYPE.match(headers.get(b"content-type", b"")):
                    raise bad("send the body as JSON, with Content-Type: application/json")
                read_json(raw, limit, self.limits.max_depth)
            else:
                raw = b""
        except WebError as exc:
            await self.refuse(exc, path)(scope, receive, send)
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": raw, "more_body": False}

        await self.app(scope, replay, send)

    async def _read(self, receive: Receive, headers: dict[bytes, bytes],
                    limit: int) -> bytes | None:
        too_large = bad(f"the request is too large (at most {limit} bytes)")
        length = headers.get(b"content-length", b"")
        if length.isdigit() and int(length) > limit:
            raise too_large
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise too_large
            chunks.append(chunk)
            if not message.get("more_body"):
                return b"".join(chunks)


def _bearer(authorization: str | None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip() or None
    return None


def create_app(db: str = "sqlite:///canasta-tables.sqlite3", *, bot_delay: float = 0.6,
               away_after: float = 45.0, store: Store | None = None,
               redis: str | None = None, prefix: str = "canasta",
               origin: str | None = None, tuning: dict[str, float] | None = None,
               limits: ServerLimits | None = None) -> FastAPI:
    """Build the app. ``db`` is a SQLAlchemy URL (or a SQLite file path); migrations run at
    start-up. ``away_after``: seconds a disconnected person's turn waits before a bot plays
    it. ``store`` replaces ``db`` (tests). ``redis``: a Redis URL, for several processes on
    one PostgreSQL database (``prefix`` names the channel; ``origin`` this process, see
    :func:`canasta.web.cluster.pubsub.new_origin`). ``tuning`` sets attributes of
    :class:`canasta.web.cluster.cluster.Cluster` (``lease``, ``keep_finished``, ...). ``limits``:
    sizes and rates (:meth:`ServerLimits.from_env` by default)."""
    from canasta.web.cluster.pubsub import make_bus

    store = store or Store(db)
    limits = limits or ServerLimits.from_env()
    bus = make_bus(redis, prefix)
    if origin:
        bus.origin = origin
    manager = TableManager(store, bot_delay=bot_delay, away_after=away_after, bus=bus)
    for key, value in (tuning or {}).items():
        if not hasattr(manager.cluster, key):
            raise ValueError(f"no setting '{key}' of the cluster")
        setattr(manager.cluster, key, value)
    dispatcher = Dispatcher(manager, limits)
    chat = ChatDesk(manager)  # canasta.web.play.chat
    chat.install(dispatcher)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(store.migrate)
        await manager.start()
        yield
        await manager.stop()

    app = FastAPI(title="canasta serve", version="1", lifespan=lifespan, docs_url=None,
                  redoc_url=None, openapi_url="/openapi.json",
                  description=(__doc__ or "").split("\n\n")[1])

    def refuse(exc: WebError, path: str) -> Response:
        match = _TABLE_PATH.match(path)
        return respond(dispatcher.refusal(exc, Context(table_id=match and match.group(1))))

    app.add_middleware(BodyGuard, limits=limits, refuse=refuse)
    install_headers(app)  # security headers, gzip and caching around everything

    @app.exception_handler(RequestValidationError)
    async def on_invalid(request: Request, exc: RequestValidationError) -> Response:
        error = refusal(list(exc.errors()), skip=1)
        return refuse(error, request.url.path)

    @app.exception_handler(StarletteHTTPException)
    async def on_http(request: Request, exc: StarletteHTTPException) -> Response:
        code = {404: "not-found", 405: "method-not-allowed"}.get(exc.status_code, "malformed")
        return JSONResponse({"type": "error", "code": code, "message": str(exc.detail)},
                            status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(Exception)
    async def on_bug(request: Request, exc: Exception) -> Response:
        return JSONResponse({"type": "error", "code": "server-error",
                             "message": "the server failed on this request"}, status_code=500)

    def ctx(request: Request, table_id: str | None = None, token: str | None = None
            ) -> Context:
        return Context(table_id=table_id, token=token, client=client_of(request),
                       base_url=str(request.base_url))

    async def run(request: Request, body: p.Request, table_id: str | None = None,
                  token: str | None = None) -> Response:
        return respond(await dispatcher.run(body, ctx(request, table_id, token)))

    # -- pages and catalogues ----------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def page_index() -> Response:
        return FileResponse(STATIC / "index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def page_table() -> Response:
        return FileResponse(STATIC / "table.html")

    @app.get("/i18n", response_model=a.Languages)
    async def api_languages() -> Response:
        """The languages of the message catalogues."""
        return JSONResponse({"languages": list(i18n.languages())})

    @app.get("/i18n/{lang}.json", response_model=None,
             responses={200: {"description": "the catalogue: key -> text",
                              "content": {"application/json": {}}},
                        **error_responses(404)})
    async def api_catalogue(request: Request,
                            lang: Annotated[str, PathParam(max_length=16)]) -> Response:
        """The message catalogue of a language (canasta.i18n), with its ETag."""
        if lang not in i18n.languages():
            return JSONResponse({"type": "error", "code": "not-found",
                                 "message": f"no catalogue for '{lang}'"}, status_code=404)
        return catalogue_response(request, lang, i18n.catalogue(lang))

    # -- tables ------------------------------------------------------------------------------
    @app.get("/api/variants", response_model=a.Variants)
    async def api_variants() -> Response:
        """The presets a table can use, their player counts and house rules, and the bot
        levels the lobby offers."""
        return JSONResponse({"variants": variants(), "bots": bot_levels()})

    @app.get("/api/lobby", response_model=a.Lobby)
    async def api_lobby() -> Response:
        """Public tables in play with a free seat."""
        return JSONResponse({"tables": await manager.open_tables()})

    @app.post("/api/tables", status_code=201, response_model=None,
              responses={201: {"model": a.Created}, **error_responses(400, 429, 503)})
    async def api_create(request: Request, body: p.CreateTable | None = None) -> Response:
        """Create a table: one secret link per human seat, and the spectator's."""
        return await run(request, body or p.CreateTable())

    @app.get("/api/tables/{table_id}", response_model=None,
             responses={200: {"model": a.StateMessage},
                        **error_responses(400, 403, 404, 429, 503)})
    async def api_table(request: Request, table_id: TableId,
                        authorization: Authorization = None) -> Response:
        """The table as a spectator sees it, or as the seat of the Bearer token."""
        return await run(request, p.ViewTable(), table_id, _bearer(authorization))

    moves = {200: {"model": a.StateMessage},
             **error_responses(400, 403, 404, 409, 422, 429, 503)}

    @app.post("/api/tables/{table_id}/actions", response_model=None, responses=moves)
    async def api_action(request: Request, table_id: TableId, body: p.MoveBody) -> Response:
        """Play one action for the seat of ``token``, against ``version``."""
        return await run(request, body, table_id, body.token)

    @app.post("/api/tables/{table_id}/go-out", response_model=None, responses=moves)
    async def api_go_out(request: Request, table_id: TableId, body: p.GoOutBody) -> Response:
        """Play the engine's going-out plan for the seat of ``token``."""
        return await run(request, body, table_id, body.token)

    @app.post("/api/tables/{table_id}/next-hand", response_model=None, responses=moves)
    async def api_next_hand(request: Request, table_id: TableId,
                            body: p.NextHandBody) -> Response:
        """Deal the next hand (any seated person, once the hand is scored)."""
        return await run(request, body, table_id, body.token)

    @app.post("/api/tables/{table_id}/undo", response_model=None, responses=moves)
    async def api_undo(request: Request, table_id: TableId, body: p.UndoBody) -> Response:
        """House rule undo: take back the melds and lay-offs of this turn."""
        return await run(request, body, table_id, body.token)

    @app.post("/api/tables/{table_id}/seats/{seat}/bot", response_model=None,
              responses={200: {"model": a.StateMessage},
                         **error_responses(400, 403, 404, 409, 429, 503)})
    async def api_bot(request: Request, table_id: TableId, seat: SeatPath,
                      body: p.BotBody | None = None) -> Response:
        """A bot plays ``seat`` (yours, or a person's nobody is connected to)."""
        body = body or p.BotBody()
        return await run(request, p.GiveToBot(seat=seat, level=body.level), table_id,
                         body.token)

    @app.post("/api/tables/{table_id}/seats/{seat}/join", response_model=None,
              responses={200: {"model": a.Joined},
                         **error_responses(400, 404, 409, 429, 503)})
    async def api_join(request: Request, table_id: TableId, seat: SeatPath,
                       body: p.JoinBody | None = None) -> Response:
        """Take a free seat of a public table: its secret token and link."""
        body = body or p.JoinBody()
        return await run(request, p.Join(seat=seat, name=body.name, lang=body.lang), table_id)

    @app.post("/api/tables/{table_id}/hint", response_model=None,
              responses={200: {"model": a.HintAnswer},
                         **error_responses(400, 403, 404, 409, 429, 503)})
    async def api_hint(request: Request, table_id: TableId,
                       body: p.HintBody | None = None) -> Response:
        """The best moves of the seat of ``token`` (its turn, at a table with hints)."""
        body = body or p.HintBody()
        return await run(request, body, table_id, body.token)

    @app.post("/api/tables/{table_id}/rematch", response_model=None,
              responses={200: {"model": a.Rematched},
                         **error_responses(400, 403, 404, 409, 429, 503)})
    async def api_rematch(request: Request, table_id: TableId,
                          body: p.RematchBody | None = None) -> Response:
        """The same seats again once the match is over: the new table's id."""
        body = body or p.RematchBody()
        return await run(request, body, table_id, body.token)

    async def record(request: Request, table_id: str, hand: int | None) -> Response:
        reply = await dispatcher.run(p.Record(hand=hand), ctx(request, table_id))
        if reply.refused:
            return respond(reply)
        suffix = "" if hand is None else f"-hand{hand + 1}"
        reports = await chat.reports(table_id)  # reported chat messages go with the record
        body = {**(reply.body or {}), **({"reports": reports} if reports else {})}
        return Response(
            json.dumps(body, indent=1) + "\n", media_type="application/json",
            headers={"Content-Disposition":
                     f'attachment; filename="canasta-{table_id}{suffix}.json"'})

    downloads = {200: {"description": "a game record (docs/formats.md), as a download",
                       "content": {"application/json": {}}},
                 **error_responses(400, 404, 503)}

    @app.get("/api/tables/{table_id}/record", response_model=None, responses=downloads)
    async def api_record(request: Request, table_id: TableId) -> Response:
        """The game record of the finished hands (never the deck of a hand in play)."""
        return await record(request, table_id, None)

    @app.get("/api/tables/{table_id}/hands/{hand}/record", response_model=None,
             responses=downloads)
    async def api_hand_record(request: Request, table_id: TableId,
                              hand: HandPath) -> Response:
        """The game record as stored when hand ``hand`` finished."""
        return await record(request, table_id, hand)

    reviewed = {200: {"description": "the review's progress, or the review once done"},
                **error_responses(400, 404, 429, 503)}

    @app.get("/api/tables/{table_id}/hands/{hand}/review", response_model=None,
             responses=reviewed)
    async def api_hand_review(request: Request, table_id: TableId, hand: HandPath,
                              seat: Annotated[int, Query(ge=0, le=fields.MAX_SEAT,
                                                         description="the seat reviewed")] = 0
                              ) -> Response:
        """The Review of ``seat``'s decisions in finished hand ``hand``: ask again until
        its status is ``done``."""
        return await run(request, p.Review(hand=hand, seat=seat), table_id)

    # -- the WebSocket -----------------------------------------------------------------------
    sockets = SocketCount(limits.sockets_per_address, exempt_addresses())
    manager.max_spectators = limits.spectators_per_table

    @app.websocket("/ws/{table_id}")
    async def ws_table(ws: WebSocket, table_id: str) -> None:
        client = client_of(ws)
        if not sockets.acquire(client):  # canasta.web.protocol.ratelimit
            await ws.accept()
            with contextlib.suppress(Exception):
                await ws.send_text(json.dumps(sockets.refusal().to_json()))
                await ws.close(code=4429)
            return
        try:
            await ws_session(ws, table_id)
        finally:
            sockets.release(client)

    async def ws_session(ws: WebSocket, table_id: str) -> None:
        await ws.accept()

        async def send(message: dict[str, Any]) -> None:
            await ws.send_text(json.dumps(message))

        async def send_text(text: str) -> None:
            await ws.send_text(text)

        try:
            table = await manager.get(table_id)
        except WebError as exc:
            await send(exc.to_json())
            # a paused table (canasta.web.play.engine) is worth trying again later
            await ws.close(code=4503 if exc.code == "paused" else 4404)
            return
        try:
            frame = await asyncio.wait_for(ws.receive(), HELLO_TIMEOUT)
            if frame["type"] == "websocket.disconnect":
                return
            if frame.get("text") is None:
                raise bad("binary frames are not read: send the hello as JSON text")
            hello = read_hello(read_json(frame["text"], limits.max_body,
                                             limits.max_depth, "message"))
            conn = Connection(send, None, send_text)
            seat = await manager.attach(table, conn, hello.token)
            if hello.chat:
                await chat.welcome(table, conn)
        except WebError as exc:
            with contextlib.suppress(Exception):
                await send(exc.to_json(table.version))
                await ws.close(code={"bad-token": 4403, "rate-limited": 4429}.get(exc.code,
                                                                                 4400))
            return
        except (TimeoutError, WebSocketDisconnect, RuntimeError):
            with contextlib.suppress(Exception):
                await send(bad("expected a hello message").to_json(table.version))
                await ws.close(code=4400)
            return
        where = Context(table_id=table.id, token=hello.token, client=client_of(ws), seat=seat)
        try:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                for reply in await dispatcher.frame(frame, where):
                    conn.push(reply)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            await manager.detach(table, conn)

    app.include_router(scorepad.router(dispatcher, store))
    app.include_router(tournaments.router(dispatcher, store))
    app.include_router(offline.router(i18n.languages()))
    app.include_router(accounts.router(dispatcher))  # canasta.web.accounts
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = _openapi(app)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    app.state.manager = manager
    app.state.store = store
    app.state.dispatcher = dispatcher
    return app


def _openapi(app: FastAPI) -> dict[str, Any]:
    """FastAPI's schema, with the WebSocket's messages in the components; a request that
    fails validation is answered 400 ``malformed`` here, so FastAPI's 422 entries go."""
    schema = get_openapi(title=app.title, version=app.version, description=app.description,
                         routes=app.routes)
    for item in schema.get("paths", {}).values():
        for op in item.values():
            responses = op.get("responses", {})
            entry = responses.get("422", {})
            if "HTTPValidationError" in json.dumps(entry):
                del responses["422"]
                responses.setdefault("400", {
                    "description": "malformed",
                    "content": {"application/json": {
                        "schema": {"$ref": "#/components/schemas/ErrorMessage"}}}})
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    for unused in ("HTTPValidationError", "ValidationError"):
        components.pop(unused, None)
    components.update(a.openapi_extra())
    return schema
