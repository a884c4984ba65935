"""The accounts' pages and HTTP API, to include in the app (:func:`router`).

    GET  /account                              the account page: sign in or register, the
                                               profile, preferences, delete
    GET  /leaderboard, /leaderboard/{variant}  the leaderboard page
    GET  /api/accounts/me                      {"account": profile or null, "csrf"}
    POST /api/accounts/register                {"name", "password", "prefs"?} -> 201 profile
    POST /api/accounts/login                   {"name", "password"} -> profile
    POST /api/accounts/logout                  {} -> {"account": null}
    POST /api/accounts/prefs                   {"lang", "four_colour", "sort"} -> profile
    POST /api/accounts/password                {"password", "new_password"} -> profile
                                               (every other sign-in of the account ended)
    POST /api/accounts/delete                  {"password"} -> {"account": null}
    POST /api/accounts/tables                  a rated table (signed in) -> 201 its links
    GET  /api/accounts/tables/{id}             {"rated", "status", "reason", "seats"}
    POST /api/accounts/tables/{id}/claim       {"token"}: the signed-in account sits there
    POST /api/accounts/tables/{id}/abandon     {"token"}: leave a rated match (a loss)
    GET  /api/leaderboard/{variant}            {"players", "bots", "variants"}

**Cookies.** ``canasta_session`` holds the sign-in's secret: ``HttpOnly`` (no script reads
it), ``SameSite=Lax``, ``Secure``, 30 days. ``canasta_csrf`` holds a random token the pages
read (not HttpOnly; ``SameSite=Strict``, ``Secure``), set by ``GET /api/accounts/me``: every
``POST`` here must send it back in the header ``X-CSRF-Token`` (the double-submit pattern:
another site can make a browser send the cookie, never read it to write the header), else
``403 csrf``. The ``Secure`` flag is left off only for plain ``http`` to a loopback host
(``localhost``, ``127.0.0.1``, ``::1``: a local try-out and the browser tests), where no
secret crosses a network.
"""

from __future__ import annotations

import hmac
import pathlib
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Header
from fastapi import Path as PathParam
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response

from canasta.core.rules import PRESETS
from canasta.web.accounts.messages import (
    AbandonBody,
    ClaimBody,
    Credentials,
    DeleteBody,
    PasswordChange,
    Prefs,
    RatedSeat,
    RatedTable,
    Register,
)
from canasta.web.accounts.service import AccountService
from canasta.web.accounts.store import SESSION_DAYS, Account
from canasta.web.dispatch import Context, Dispatcher, client_of, error_responses, respond
from canasta.web.protocol.errors import WebError
from canasta.web.protocol.messages import CreateTable, SeatSpec

__all__ = ["CSRF_COOKIE", "CSRF_HEADER", "SESSION_COOKIE", "router"]

STATIC = pathlib.Path(__file__).parents[1] / "static"
SESSION_COOKIE = "canasta_session"
CSRF_COOKIE = "canasta_csrf"
CSRF_HEADER = "x-csrf-token"
LOOPBACK = {"localhost", "127.0.0.1", "::1", "[::1]"}
TableId = Annotated[str, PathParam(max_length=64, description="the table's id")]
VariantPath = Annotated[str, PathParam(max_length=64, description="a preset's name")]
CsrfHeader = Annotated[str | None, Header(alias="X-CSRF-Token", max_length=200,
                                          description="the value of the canasta_csrf cookie")]


def _secure(request: Request) -> bool:
    """Whether cookies get the ``Secure`` flag: always, but over plain http to a loopback
    host."""
    return not (request.url.scheme == "http" and (request.url.hostname or "") in LOOPBACK)


def _answer(body: dict[str, Any], status: int = 200) -> JSONResponse:
    return JSONResponse(body, status_code=status)


def _error(exc: WebError) -> JSONResponse:
    headers = {}
    if exc.retry_after is not None:
        headers["Retry-After"] = str(max(1, int(exc.retry_after + 0.999)))
    return JSONResponse(exc.to_json(), status_code=exc.status, headers=headers)


def router(dispatcher: Dispatcher) -> APIRouter:
    """The accounts' pages and API; rated tables are created through ``dispatcher``."""
    service = AccountService(dispatcher.manager)
    api = APIRouter()
    errors = error_responses(400, 401, 403, 404, 409, 429)

    def set_session(response: Response, request: Request, secret: str | None) -> None:
        if secret is None:
            response.delete_cookie(SESSION_COOKIE, path="/", secure=_secure(request),
                                   httponly=True, samesite="lax")
        else:
            response.set_cookie(SESSION_COOKIE, secret, max_age=SESSION_DAYS * 86400,
                                path="/", secure=_secure(request), httponly=True,
                                samesite="lax")

    def check_csrf(request: Request, header: str | None) -> None:
        cookie = request.cookies.get(CSRF_COOKIE) or ""
        if not cookie or not header or not hmac.compare_digest(cookie.encode(),
                                                                header.encode()):
            raise WebError("csrf", "send the canasta_csrf cookie's value in the X-CSRF-Token "
                                   "header (reload the page)")

    async def signed_in(request: Request) -> Account:
        account = await service.account_of(request.cookies.get(SESSION_COOKIE))
        if account is None:
            raise WebError("not-signed-in", "sign in first (the account page)")
        return account

    # -- pages -------------------------------------------------------------------------------
    @api.get("/account", include_in_schema=False)
    async def page_account() -> Response:
        return FileResponse(STATIC / "account.html")

    @api.get("/leaderboard", include_in_schema=False)
    @api.get("/leaderboard/{variant}", include_in_schema=False)
    async def page_leaderboard() -> Response:
        return FileResponse(STATIC / "leaderboard.html")

    # -- accounts ----------------------------------------------------------------------------
    @api.get("/api/accounts/me", response_model=None,
             responses={200: {"description": "{\"account\": the profile or null, \"csrf\"}"}})
    async def me(request: Request) -> Response:
        """The signed-in account's profile (null when signed out) and the CSRF token (also
        set as the ``canasta_csrf`` cookie)."""
        account = await service.account_of(request.cookies.get(SESSION_COOKIE))
        csrf = request.cookies.get(CSRF_COOKIE) or ""
        if not (16 <= len(csrf) <= 100 and csrf.replace("-", "").replace("_", "").isalnum()):
            csrf = secrets.token_urlsafe(24)
        body = {"account": await service.profile(account) if account else None, "csrf": csrf}
        response = _answer(body)
        response.set_cookie(CSRF_COOKIE, csrf, path="/", secure=_secure(request),
                            httponly=False, samesite="strict")
        return response

    @api.post("/api/accounts/register", status_code=201, response_model=None,
              responses={201: {"description": "the new account's profile"}, **errors})
    async def register(request: Request, body: Register,
                       x_csrf_token: CsrfHeader = None) -> Response:
        """A new account, signed in at once."""
        try:
            check_csrf(request, x_csrf_token)
            prefs = (body.prefs or Prefs()).model_dump()
            account, secret = await service.register(body.name, body.password, prefs,
                                                     client_of(request))
        except WebError as exc:
            return _error(exc)
        response = _answer({"account": await service.profile(account)}, 201)
        set_session(response, request, secret)
        return response

    @api.post("/api/accounts/login", response_model=None,
              responses={200: {"description": "the account's profile"}, **errors})
    async def login(request: Request, body: Credentials,
                    x_csrf_token: CsrfHeader = None) -> Response:
        """Sign in with the name and the password (rate-limited by address and by name)."""
        try:
            check_csrf(request, x_csrf_token)
            account, secret = await service.sign_in(body.name, body.password,
                                                    client_of(request))
        except WebError as exc:
            return _error(exc)
        response = _answer({"account": await service.profile(account)})
        set_session(response, request, secret)
        return response

    @api.post("/api/accounts/logout", response_model=None,
              responses={200: {"description": "signed out"}, **errors})
    async def logout(request: Request, x_csrf_token: CsrfHeader = None) -> Response:
        """Sign this browser out (its sign-in is deleted on the server)."""
        try:
            check_csrf(request, x_csrf_token)
        except WebError as exc:
            return _error(exc)
        await service.sign_out(request.cookies.get(SESSION_COOKIE))
        response = _answer({"account": None})
        set_session(response, request, None)
        return response

    @api.post("/api/accounts/prefs", response_model=None,
              responses={200: {"description": "the profile with the preferences"}, **errors})
    async def prefs(request: Request, body: Prefs,
                    x_csrf_token: CsrfHeader = None) -> Response:
        """Keep the preferences the table page uses (language, four colours, sort)."""
        try:
            check_csrf(request, x_csrf_token)
            account = await signed_in(request)
        except WebError as exc:
            return _error(exc)
        await service.db(service.store.set_prefs, account.id, body.model_dump())
        account = await service.account_of(request.cookies.get(SESSION_COOKIE)) or account
        return _answer({"account": await service.profile(account)})

    @api.post("/api/accounts/password", response_model=None,
              responses={200: {"description": "the profile; signed in anew"}, **errors})
    async def password(request: Request, body: PasswordChange,
                       x_csrf_token: CsrfHeader = None) -> Response:
        """Change the password (the current one too): every sign-in of the account ends,
        this browser gets a new one (a new ``canasta_session`` cookie)."""
        try:
            check_csrf(request, x_csrf_token)
            account = await signed_in(request)
            secret = await service.change_password(account, body.password,
                                                   body.new_password, client_of(request))
        except WebError as exc:
            return _error(exc)
        account = await service.account_of(secret) or account
        response = _answer({"account": await service.profile(account)})
        set_session(response, request, secret)
        return response

    @api.post("/api/accounts/delete", response_model=None,
              responses={200: {"description": "deleted, signed out"}, **errors})
    async def delete(request: Request, body: DeleteBody,
                     x_csrf_token: CsrfHeader = None) -> Response:
        """Delete the account and its data: sign-ins, ratings, preferences, history."""
        try:
            check_csrf(request, x_csrf_token)
            account = await signed_in(request)
            await service.delete(account, body.password)
        except WebError as exc:
            return _error(exc)
        response = _answer({"account": None})
        set_session(response, request, None)
        return response

    # -- rated tables ------------------------------------------------------------------------
    @api.post("/api/accounts/tables", status_code=201, response_model=None,
              responses={201: {"description": "the table's links, with \"rated\": true"},
                         **errors, **error_responses(503)})
    async def rated_table(request: Request, body: RatedTable,
                          x_csrf_token: CsrfHeader = None) -> Response:
        """A rated table; the signed-in creator sits at its first human seat, every other
        person signs in and opens their link to sit at theirs."""
        try:
            check_csrf(request, x_csrf_token)
            account = await signed_in(request)
        except WebError as exc:
            return _error(exc)
        specs = body.seats or [RatedSeat()] + [RatedSeat(type="bot")] * (
            (body.players or 4) - 1)
        seats = [SeatSpec(type=s.type, level=s.level) for s in specs]
        first = next((i for i, s in enumerate(seats) if s.type == "human"), None)
        if first is None:
            return _error(WebError("table", "'seats': a rated table needs a person: make one "
                                            "seat human"))
        seats[first] = SeatSpec(type="human", name=account.name)
        try:
            create = CreateTable(variant=body.variant, players=body.players or len(seats),
                                 team_size=body.team_size, seats=seats, clock=body.clock,
                                 hints=False, undo=False, public=False, lang=body.lang)
        except ValueError as exc:
            return _error(WebError("table", str(exc).splitlines()[-1][:300]))
        ctx = Context(client=client_of(request), base_url=str(request.base_url))
        reply = await dispatcher.run(create, ctx)
        if reply.refused:
            return respond(reply)
        created = dict(reply.body or {})
        table = dispatcher.manager.tables[created["table"]]
        await service.rated_table(table.id, table.variant, account, first)
        created["rated"] = True
        return _answer(created, 201)

    @api.get("/api/accounts/tables/{table_id}", response_model=None,
             responses={200: {"description": "the rated match's standing"}, **errors})
    async def table_info(table_id: TableId) -> Response:
        """Whether the table is rated, its rated match's status, and which seats have an
        account (a finished match is settled first)."""
        try:
            return _answer(await service.table_info(table_id))
        except WebError as exc:
            return _error(exc)

    @api.post("/api/accounts/tables/{table_id}/claim", response_model=None,
              responses={200: {"description": "the table's standing"}, **errors})
    async def claim(request: Request, table_id: TableId, body: ClaimBody,
                    x_csrf_token: CsrfHeader = None) -> Response:
        """The signed-in account sits at the seat of ``token`` (the table page does this for
        a signed-in person): the match joins its history, and counts at a rated table."""
        try:
            check_csrf(request, x_csrf_token)
            account = await signed_in(request)
            return _answer(await service.claim(account, table_id, body.token))
        except WebError as exc:
            return _error(exc)

    @api.post("/api/accounts/tables/{table_id}/abandon", response_model=None,
              responses={200: {"description": "the table's standing"}, **errors})
    async def abandon(request: Request, table_id: TableId, body: AbandonBody,
                      x_csrf_token: CsrfHeader = None) -> Response:
        """Leave a rated match: it counts as a loss now, and a bot plays the seat on."""
        try:
            check_csrf(request, x_csrf_token)
            account = await signed_in(request)
            return _answer(await service.abandon(account, table_id, body.token))
        except WebError as exc:
            return _error(exc)

    @api.get("/api/leaderboard/{variant}", response_model=None,
             responses={200: {"description": "the leaderboard of the variant"}, **errors})
    async def leaderboard(variant: VariantPath) -> Response:
        """The variant's rated accounts, best first (``provisional`` while the RD is high),
        and the bots' fixed ratings."""
        if variant not in PRESETS:
            return _error(WebError("not-found", f"no variant '{variant}'"))
        return _answer(await service.leaderboard(variant))

    return api
