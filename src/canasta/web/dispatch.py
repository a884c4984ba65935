"""The one way a request is run, whether it came over HTTP or the WebSocket.

A route or the WebSocket loop reads its request model (:mod:`canasta.web.protocol`) and
hands it to :meth:`Dispatcher.run` with a :class:`Context` (the table, the seat's token, the
client's address). The dispatcher spends the request's rate budget
(:mod:`canasta.web.protocol.limits`), finds its handler by type (:attr:`Dispatcher.handlers`) and
calls the table manager; a refusal becomes ``{"type": "error", "code", "message",
"version"}`` with its HTTP status, and the table is unchanged. :meth:`Dispatcher.frame` does
the same for one raw WebSocket frame: too large, binary, not JSON, nested too deep, an unknown
type or a bad field is answered with an error, and the connection stays open.
"""

from __future__ import annotations

import contextlib
import logging
import math
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse

from canasta.web.play.reviews import ReviewDesk
from canasta.web.play.tables import TableManager
from canasta.web.protocol.answers import ErrorMessage
from canasta.web.protocol.errors import WebError, bad
from canasta.web.protocol.limits import Buckets, ServerLimits, exempt_addresses
from canasta.web.protocol.messages import (
    CreateTable,
    GiveToBot,
    GoOut,
    Hint,
    Join,
    Move,
    NextHand,
    Ping,
    Record,
    Rematch,
    Request,
    Review,
    TakeBack,
    Undo,
    ViewTable,
)
from canasta.web.protocol.reading import read_json, read_message

log = logging.getLogger("canasta.web")

Handler = Callable[[Any, "Context"], Awaitable[dict[str, Any] | None]]


@dataclass
class Context:
    """Where a request goes and who sends it.

    Attributes:
        table_id: the table (None: not about a table).
        token: the seat's token, or a scorepad's keeper key (None: a spectator or nobody).
        client: the client's address, the key of per-client limits.
        base_url: ``http://host:port`` of the request, for the links of a new table.
        seat: over the WebSocket, the connection's seat (None: a spectator).
        pad_id: the scorepad (None: not about one).
    """

    table_id: str | None = None
    token: str | None = None
    client: str = ""
    base_url: str = ""
    seat: int | None = None
    pad_id: str | None = None


@dataclass
class Reply:
    """An answer: its HTTP status, body and headers (``Retry-After`` when rate-limited)."""

    status: int
    body: dict[str, Any] | None
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def refused(self) -> bool:
        return self.status >= 400


def respond(reply: Reply) -> JSONResponse:
    """The HTTP response of a reply."""
    return JSONResponse(reply.body, status_code=reply.status, headers=reply.headers)


def client_of(conn: HTTPConnection) -> str:
    """The client's address (the proxy's, unless uvicorn reads ``X-Forwarded-For``)."""
    return conn.client.host if conn.client else ""


_STATUS_TEXT = {400: "malformed: a bad field (named), too large, too deep, not JSON",
                403: "bad-token or spectator", 404: "unknown-table or not-found",
                409: "not-your-turn, stale or not-allowed", 422: "illegal (with the rule)",
                429: "rate-limited (see Retry-After)",
                503: "storage, or paused (an engine call ran past its budget)"}


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` for these error statuses."""
    return {s: {"model": ErrorMessage, "description": _STATUS_TEXT.get(s, "refused")}
            for s in statuses}


class Dispatcher:
    """Runs requests against ``manager`` within ``limits``; other modules add handlers with
    :meth:`register` (the scorepad's)."""

    def __init__(self, manager: TableManager, limits: ServerLimits) -> None:
        self.manager = manager
        self.limits = limits
        self.seat_budget = Buckets(limits.seat_burst, limits.seat_rate)
        self.create_budget = Buckets(limits.create_burst, limits.create_rate)
        self.work_budget = Buckets(limits.work_burst, limits.work_rate)
        self.view_budget = Buckets(limits.view_burst, limits.view_rate)
        self.exempt = exempt_addresses()
        self.handlers: dict[type[Request], Handler] = {
            CreateTable: self._create, ViewTable: self._view, Move: self._move,
            GoOut: self._go_out, NextHand: self._next_hand, Undo: self._undo,
            GiveToBot: self._give_to_bot, TakeBack: self._take_back, Hint: self._hint,
            Rematch: self._rematch, Ping: self._ping, Join: self._join, Record: self._record,
            Review: self._review,
        }
        self.reviews = ReviewDesk()

    def register(self, kind: type[Request], handler: Handler) -> None:
        self.handlers[kind] = handler

    # -- running -----------------------------------------------------------------------------
    async def run(self, request: Request, ctx: Context, *, spent: bool = False) -> Reply:
        """Run ``request``: its answer, or the refusal (never an exception). ``spent``: its
        rate budget was already spent (a WebSocket frame spends it before it is read)."""
        try:
            if not spent:
                self.spend(request.limit, ctx)
            handler = self._handler(type(request))
            body = await handler(request, ctx)
            if ctx.token and ctx.table_id in self.manager.tables:  # a person acted there
                self.manager.note_presence(self.manager.tables[ctx.table_id])
            return Reply(request.status, body)
        except WebError as exc:
            return self.refusal(exc, ctx)
        except Exception:  # a bug must not cost the client its connection or a clear answer
            log.exception("%s failed (table %s)", type(request).__name__, ctx.table_id)
            return self.refusal(WebError("server-error", "the server failed on this request"),
                                ctx)

    def _handler(self, kind: type[Request]) -> Handler:
        for cls in kind.__mro__:  # an HTTP body is a subclass of its request
            handler = self.handlers.get(cls)
            if handler is not None:
                return handler
        raise bad(f"no handler for {kind.__name__}")  # pragma: no cover - a wiring bug

    def spend(self, limit: str | None, ctx: Context) -> None:
        """Spend one from the budget ``limit`` names.

        Raises:
            WebError: ``rate-limited``, with the seconds to wait.
        """
        if ctx.client in self.exempt:
            return
        if limit == "seat":
            key: tuple[Any, ...] = (ctx.table_id, ctx.token) if ctx.token else (
                ctx.table_id, None, ctx.client)
            wait = self.seat_budget.take(key)
            what = "messages from this seat"
        elif limit == "create":
            wait = self.create_budget.take(ctx.client)
            what = "new tables and scorepads from this address"
        elif limit == "work":  # canasta.web.protocol.ratelimit
            wait = self.work_budget.take(ctx.client)
            what = "requests that make the server compute from this address"
        elif limit == "view":  # canasta.web.protocol.ratelimit
            wait = self.view_budget.take(ctx.client)
            what = "table views from this address"
        else:
            return
        if wait:
            raise WebError("rate-limited", f"too many {what}: wait {wait:.1f} s",
                           retry_after=wait)

    def version_of(self, table_id: str | None) -> int | None:
        """The version of a table in memory (None: no table, or not loaded)."""
        table = self.manager.tables.get(table_id) if table_id else None
        return None if table is None else table.version

    def refusal(self, exc: WebError, ctx: Context) -> Reply:
        """The answer to a refused request: its error message (with the table's version for a
        request about a table) and HTTP status."""
        headers = {}
        if exc.retry_after is not None:
            headers["Retry-After"] = str(max(1, math.ceil(exc.retry_after)))
        return Reply(exc.status, exc.to_json(self.version_of(ctx.table_id)), headers)

    async def frame(self, frame: Mapping[str, Any], ctx: Context) -> list[dict[str, Any]]:
        """Run one WebSocket frame (after the hello) from the seat of ``ctx``; returns the
        messages for its sender: a refusal (and the table as it stands after ``stale``), the
        answer of a ``hint`` or ``ping``, or nothing (every connection hears of a change)."""
        try:
            self.spend("seat", ctx)
            raw = frame.get("text")
            if raw is None:
                if frame.get("bytes") is not None:
                    raise bad("binary frames are not read: send each message as JSON text")
                raise bad("an empty frame")
            request = read_message(read_json(raw, self.limits.max_body, self.limits.max_depth,
                                             "message"))
        except WebError as exc:
            reply = self.refusal(exc, ctx)
        else:
            reply = await self.run(request, ctx, spent=True)
            if not reply.refused:
                return [reply.body] if request.reply and reply.body is not None else []
        out = [reply.body] if reply.body is not None else []
        if reply.body and reply.body.get("code") == "stale" and ctx.table_id:
            with contextlib.suppress(WebError):
                table = await self.manager.get(ctx.table_id)
                out.append(await self.manager.payload_of(table, ctx.seat))
        return out

    # -- handlers ----------------------------------------------------------------------------
    def _table_id(self, ctx: Context) -> str:
        if ctx.table_id is None:  # pragma: no cover - a wiring bug
            raise bad("no table")
        return ctx.table_id

    async def _create(self, req: CreateTable, ctx: Context) -> dict[str, Any]:
        table, tokens = await self.manager.create(req.spec())
        base = ctx.base_url.rstrip("/")
        seats = []
        for seat, token in zip(table.seats, tokens, strict=True):
            path = f"/t/{table.id}#seat={token}" if token else None
            seats.append({"seat": seat.seat, "name": seat.name, "kind": seat.kind,
                          "token": token, "path": path,
                          "url": base + path if path else None})
        return {"table": table.id, "version": table.version, "seats": seats,
                "spectator": {"path": f"/t/{table.id}", "url": f"{base}/t/{table.id}"}}

    async def _view(self, req: ViewTable, ctx: Context) -> dict[str, Any]:
        return await self.manager.view(self._table_id(ctx), ctx.token)

    async def _move(self, req: Move, ctx: Context) -> dict[str, Any]:
        return await self.manager.act(self._table_id(ctx), ctx.token, req.version,
                                      req.to_action())

    async def _go_out(self, req: GoOut, ctx: Context) -> dict[str, Any]:
        return await self.manager.go_out(self._table_id(ctx), ctx.token, req.version)

    async def _next_hand(self, req: NextHand, ctx: Context) -> dict[str, Any]:
        return await self.manager.next_hand(self._table_id(ctx), ctx.token, req.version)

    async def _undo(self, req: Undo, ctx: Context) -> dict[str, Any]:
        return await self.manager.undo(self._table_id(ctx), ctx.token, req.version)

    async def _give_to_bot(self, req: GiveToBot, ctx: Context) -> dict[str, Any]:
        return await self.manager.give_to_bot(self._table_id(ctx), ctx.token, req.seat,
                                              req.level)

    async def _take_back(self, req: TakeBack, ctx: Context) -> dict[str, Any]:
        table = await self.manager.get(self._table_id(ctx))
        seat = table.seat_of(ctx.token)
        await self.manager.take_back(table, seat)
        return await self.manager.payload_of(table, seat)

    async def _hint(self, req: Hint, ctx: Context) -> dict[str, Any]:
        return await self.manager.hint(self._table_id(ctx), ctx.token)

    async def _rematch(self, req: Rematch, ctx: Context) -> dict[str, Any]:
        new, token = await self.manager.rematch(self._table_id(ctx), ctx.token)
        return {"type": "rematched", "table": new, "token": token,
                "path": f"/t/{new}#seat={token}"}

    async def _ping(self, req: Ping, ctx: Context) -> dict[str, Any]:
        table = await self.manager.get(self._table_id(ctx))
        return {"type": "pong", "version": table.version}

    async def _join(self, req: Join, ctx: Context) -> dict[str, Any]:
        table, token = await self.manager.join(self._table_id(ctx), req.seat, req.name,
                                               req.lang)
        return {"table": table.id, "seat": req.seat, "token": token,
                "path": f"/t/{table.id}#seat={token}"}

    async def _record(self, req: Record, ctx: Context) -> dict[str, Any]:
        return await self.manager.record(self._table_id(ctx), req.hand)

    async def _review(self, req: Review, ctx: Context) -> dict[str, Any]:
        table_id = self._table_id(ctx)
        record = None
        if not self.reviews.known(table_id, req.hand, req.seat):
            record = await self.manager.record(table_id, req.hand)  # a finished hand only
            self.spend("create", ctx)
        return self.reviews.ask(table_id, req.hand, req.seat, record)
