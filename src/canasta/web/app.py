"""The ASGI app of ``canasta serve`` (Starlette).

HTTP API (JSON)::

    GET  /api/variants                      presets, player counts, house rules, bot levels
    POST /api/tables                        create: {"variant", "options", "players",
                                            "team_size", "seats": [{"type": "human"|"bot"|
                                            "open", "level", "name"}], "clock", "level",
                                            "hints", "undo", "public"} -> links with seat
                                            tokens (canasta.web.settings)
    GET  /api/lobby                         {"tables": public tables with a free seat}
    POST /api/tables/{id}/seats/{seat}/join {"name"}: take a free seat -> {"token", "path"}
    GET  /api/tables/{id}                   the table as a spectator sees it; with the header
                                            "Authorization: Bearer <seat token>", as that seat
    POST /api/tables/{id}/actions           {"token", "version", "action": {JSON form}} or
                                            {"token", "version", "text": "meld 9s 9d JK"}
    POST /api/tables/{id}/go-out            {"token", "version"}: play the going-out plan
    POST /api/tables/{id}/next-hand         {"token", "version"}
    POST /api/tables/{id}/seats/{seat}/bot  {"token", "level"}: a bot plays that seat
    POST /api/tables/{id}/hint              {"token"}: the best moves of the seat to act
    POST /api/tables/{id}/undo              {"token", "version"}: house rule undo
    POST /api/tables/{id}/rematch           {"token"}: the same seats again -> {"table"}
    GET  /api/tables/{id}/record            game record of the finished hands (download)
    GET  /api/tables/{id}/hands/{n}/record  the record as stored when hand n finished
    GET  /i18n                              {"languages": ["en", "it", ...]}
    GET  /i18n/{lang}.json                  the message catalogue of a language (canasta.i18n)

WebSocket ``/ws/{id}``: the client first sends ``{"type": "hello", "token": "<seat token>"}``
(no token: a spectator) and receives ``{"type": "state", ...}`` now and after every change.
It may then send ``{"type": "action", "version": n, "action": {...}}`` (or ``"text"``),
``{"type": "go-out", "version": n}``, ``{"type": "next-hand", "version": n}``,
``{"type": "bot", "seat": s, "level": "medium"}``, ``{"type": "take-back"}`` (I'm back),
``{"type": "hint"}`` (answered ``{"type": "hint", "version", "items"}`` to the sender),
``{"type": "undo", "version": n}``, ``{"type": "rematch"}`` and ``{"type": "ping"}``.
A refused message is answered ``{"type": "error", "code", "message", "version"}`` to its
sender only, and the table is unchanged; an illegal move's error also
carries ``"rule"`` and ``"refusal"`` (``{"rule", "key", "values", "variant", "seed",
"quote"}``, see :func:`canasta.i18n.refusals.refusal_parts`), from which the page writes
"Not allowed: …" in its own language with the variant's seed sentence.

Pages: ``/`` (create a table) and ``/t/{id}`` (the table; the seat token travels in the URL
fragment ``#seat=...``, which browsers never send to the server).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from canasta import i18n
from canasta.web.scorepad import routes as scorepad_routes
from canasta.web.storage import Store
from canasta.web.tables import Connection, TableManager, WebError, bot_levels, parse_move, variants

STATIC = Path(__file__).with_name("static")
MAX_MESSAGE = 16_384
log = logging.getLogger("canasta.web")


def _error(exc: WebError, version: int | None = None) -> JSONResponse:
    return JSONResponse(exc.to_json(version), status_code=exc.status)


async def _body(request: Request) -> dict[str, Any]:
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_MESSAGE:
        raise WebError("malformed", "the request is too large")
    raw = await request.body()
    if len(raw) > MAX_MESSAGE:
        raise WebError("malformed", "the request is too large")
    try:
        data = json.loads(raw or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise WebError("malformed", "the body is not JSON") from None
    if not isinstance(data, dict):
        raise WebError("malformed", "expected a JSON object")
    return data


def _bearer(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return None


def create_app(db: str = "sqlite:///canasta-tables.sqlite3", *, bot_delay: float = 0.6,
               away_after: float = 45.0, store: Store | None = None,
               redis: str | None = None, prefix: str = "canasta",
               origin: str | None = None, tuning: dict[str, float] | None = None) -> Starlette:
    """Build the app. ``db`` is a SQLAlchemy URL (or a SQLite file path); migrations run at
    start-up. ``away_after``: seconds a disconnected person's turn waits before a bot plays
    it. ``store`` replaces ``db`` (tests). ``redis``: a Redis URL, for several processes on
    one PostgreSQL database (``prefix`` names the channel; ``origin`` this process, see
    :func:`canasta.web.pubsub.new_origin`). ``tuning`` sets attributes of
    :class:`canasta.web.cluster.Cluster` (``lease``, ``keep_finished``, ...)."""
    from canasta.web.pubsub import make_bus

    store = store or Store(db)
    bus = make_bus(redis, prefix)
    if origin:
        bus.origin = origin
    manager = TableManager(store, bot_delay=bot_delay, away_after=away_after, bus=bus)
    for key, value in (tuning or {}).items():
        if not hasattr(manager.cluster, key):
            raise ValueError(f"no setting '{key}' of the cluster")
        setattr(manager.cluster, key, value)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await asyncio.to_thread(store.migrate)
        await manager.start()
        yield
        await manager.stop()

    async def page_index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def page_table(request: Request) -> Response:
        return FileResponse(STATIC / "table.html")

    async def api_languages(request: Request) -> Response:
        return JSONResponse({"languages": list(i18n.languages())})

    async def api_catalogue(request: Request) -> Response:
        lang = request.path_params["lang"]
        if lang not in i18n.languages():
            return JSONResponse({"type": "error", "code": "not-found",
                                 "message": f"no catalogue for '{lang}'"}, status_code=404)
        return JSONResponse(i18n.catalogue(lang),
                            headers={"Cache-Control": "public, max-age=300"})

    async def api_variants(request: Request) -> Response:
        return JSONResponse({"variants": variants(), "bots": bot_levels()})

    async def api_create(request: Request) -> Response:
        try:
            table, tokens = await manager.create(await _body(request))
        except WebError as exc:
            return _error(exc)
        base = str(request.base_url).rstrip("/")
        seats = []
        for seat, token in zip(table.seats, tokens, strict=True):
            path = f"/t/{table.id}#seat={token}" if token else None
            seats.append({"seat": seat.seat, "name": seat.name, "kind": seat.kind,
                          "token": token, "path": path,
                          "url": base + path if path else None})
        return JSONResponse({
            "table": table.id, "version": table.version, "seats": seats,
            "spectator": {"path": f"/t/{table.id}", "url": f"{base}/t/{table.id}"},
        }, status_code=201)

    async def api_table(request: Request) -> Response:
        try:
            return JSONResponse(await manager.view(request.path_params["table_id"],
                                                   _bearer(request)))
        except WebError as exc:
            return _error(exc)

    async def _table_version(table_id: str) -> int | None:
        with contextlib.suppress(WebError):
            return (await manager.get(table_id)).version
        return None

    async def api_action(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        try:
            data = await _body(request)
            action = parse_move(data)
            return JSONResponse(await manager.act(table_id, data.get("token"),
                                                  data.get("version"), action))
        except WebError as exc:
            return _error(exc, await _table_version(table_id))

    async def api_go_out(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        try:
            data = await _body(request)
            return JSONResponse(await manager.go_out(table_id, data.get("token"),
                                                     data.get("version")))
        except WebError as exc:
            return _error(exc, await _table_version(table_id))

    async def api_next_hand(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        try:
            data = await _body(request)
            return JSONResponse(await manager.next_hand(table_id, data.get("token"),
                                                        data.get("version")))
        except WebError as exc:
            return _error(exc, await _table_version(table_id))

    async def api_bot(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        try:
            data = await _body(request)
            try:
                seat = int(request.path_params["seat"])
            except ValueError:
                raise WebError("malformed", "the seat must be a number") from None
            return JSONResponse(await manager.give_to_bot(table_id, data.get("token"), seat,
                                                          data.get("level")))
        except WebError as exc:
            return _error(exc)

    async def api_lobby(request: Request) -> Response:
        return JSONResponse({"tables": await manager.open_tables()})

    async def api_join(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        try:
            data = await _body(request)
            try:
                seat = int(request.path_params["seat"])
            except ValueError:
                raise WebError("malformed", "the seat must be a number") from None
            table, token = await manager.join(table_id, seat, data.get("name"))
        except WebError as exc:
            return _error(exc)
        return JSONResponse({"table": table.id, "seat": seat, "token": token,
                             "path": f"/t/{table.id}#seat={token}"})

    async def api_hint(request: Request) -> Response:
        try:
            data = await _body(request)
            return JSONResponse(await manager.hint(request.path_params["table_id"],
                                                   data.get("token")))
        except WebError as exc:
            return _error(exc)

    async def api_undo(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        try:
            data = await _body(request)
            return JSONResponse(await manager.undo(table_id, data.get("token"),
                                                   data.get("version")))
        except WebError as exc:
            return _error(exc, await _table_version(table_id))

    async def api_rematch(request: Request) -> Response:
        try:
            data = await _body(request)
            new = await manager.rematch(request.path_params["table_id"], data.get("token"))
        except WebError as exc:
            return _error(exc)
        return JSONResponse({"table": new, "path": f"/t/{new}"})

    async def api_record(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        hand = request.path_params.get("hand")
        try:
            number = None
            if hand is not None:
                try:
                    number = int(hand)
                except ValueError:
                    raise WebError("malformed", "the hand must be a number") from None
            rec = await manager.record(table_id, number)
        except WebError as exc:
            return _error(exc)
        suffix = "" if number is None else f"-hand{number + 1}"
        return Response(
            json.dumps(rec, indent=1) + "\n", media_type="application/json",
            headers={"Content-Disposition":
                     f'attachment; filename="canasta-{table_id}{suffix}.json"'},
        )

    async def ws_table(ws: WebSocket) -> None:
        await ws.accept()
        table_id = ws.path_params["table_id"]

        async def send(message: dict[str, Any]) -> None:
            await ws.send_text(json.dumps(message))

        async def send_text(text: str) -> None:
            await ws.send_text(text)

        try:
            table = await manager.get(table_id)
        except WebError as exc:
            await send(exc.to_json())
            await ws.close(code=4404)
            return
        try:
            hello = json.loads(await asyncio.wait_for(ws.receive_text(), 30))
            if not isinstance(hello, dict) or hello.get("type") != "hello":
                raise WebError("malformed", "first send {\"type\": \"hello\", \"token\": ...}")
            token = hello.get("token")
            conn = Connection(send, None, send_text)
            await manager.attach(table, conn, token)
        except WebError as exc:
            await send(exc.to_json(table.version))
            await ws.close(code=4403 if exc.code == "bad-token" else 4400)
            return
        except (TimeoutError, json.JSONDecodeError, WebSocketDisconnect, RuntimeError):
            with contextlib.suppress(Exception):
                await send(WebError("malformed", "expected a hello message").to_json())
                await ws.close(code=4400)
            return
        try:
            while True:
                text = await ws.receive_text()
                reply = await _ws_message(table, conn, token, text)
                if reply is not None:
                    conn.push(reply)
                    if reply.get("code") == "stale":
                        conn.push(await manager.payload_of(table, conn.seat))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            await manager.detach(table, conn)

    async def _ws_message(table: Any, conn: Connection, token: Any,
                          text: str) -> dict[str, Any] | None:
        try:
            if len(text) > MAX_MESSAGE:
                raise WebError("malformed", "the message is too large")
            try:
                data = json.loads(text)
            except json.JSONDecodeError:
                raise WebError("malformed", "the message is not JSON") from None
            if not isinstance(data, dict) or not isinstance(data.get("type"), str):
                raise WebError("malformed", "expected {\"type\": ...}")
            kind = data["type"]
            if kind == "ping":
                return {"type": "pong", "version": table.version}
            if kind == "action":
                await manager.act(table.id, token, data.get("version"), parse_move(data))
            elif kind == "go-out":
                await manager.go_out(table.id, token, data.get("version"))
            elif kind == "next-hand":
                await manager.next_hand(table.id, token, data.get("version"))
            elif kind == "bot":
                await manager.give_to_bot(table.id, token, data.get("seat"),
                                          data.get("level"))
            elif kind == "take-back":
                seat = table.seat_of(token)
                await manager.take_back(table, seat)
            elif kind == "hint":
                return await manager.hint(table.id, token)
            elif kind == "undo":
                await manager.undo(table.id, token, data.get("version"))
            elif kind == "rematch":
                await manager.rematch(table.id, token)
            else:
                raise WebError("malformed", f"unknown message type '{kind}'")
        except WebError as exc:
            return exc.to_json(table.version)
        except Exception:  # a bug must not cost the player the connection
            log.exception("table %s: message failed", table.id)
            return WebError("server-error", "the server failed on this message").to_json(
                table.version)
        return None

    routes = [
        Route("/", page_index),
        Route("/t/{table_id}", page_table),
        Route("/api/variants", api_variants),
        Route("/i18n", api_languages),
        Route("/i18n/{lang}.json", api_catalogue),
        Route("/api/tables", api_create, methods=["POST"]),
        Route("/api/tables/{table_id}", api_table),
        Route("/api/tables/{table_id}/actions", api_action, methods=["POST"]),
        Route("/api/tables/{table_id}/go-out", api_go_out, methods=["POST"]),
        Route("/api/tables/{table_id}/next-hand", api_next_hand, methods=["POST"]),
        Route("/api/tables/{table_id}/seats/{seat}/bot", api_bot, methods=["POST"]),
        Route("/api/lobby", api_lobby),
        Route("/api/tables/{table_id}/seats/{seat}/join", api_join, methods=["POST"]),
        Route("/api/tables/{table_id}/hint", api_hint, methods=["POST"]),
        Route("/api/tables/{table_id}/undo", api_undo, methods=["POST"]),
        Route("/api/tables/{table_id}/rematch", api_rematch, methods=["POST"]),
        Route("/api/tables/{table_id}/record", api_record),
        Route("/api/tables/{table_id}/hands/{hand}/record", api_record),
        WebSocketRoute("/ws/{table_id}", ws_table),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    routes += scorepad_routes(store)
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.manager = manager
    app.state.store = store
    return app
