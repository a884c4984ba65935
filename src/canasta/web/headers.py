"""What every HTTP answer of the server carries: security headers, compression and caching.

* **Security headers** on every answer (:class:`SecurityHeaders`): a Content Security Policy
  that runs only the server's own script files (the pages have no inline script, no inline
  event handler and no inline style: tests/web/test_web_headers.py reads them), talks only
  to the server itself (its WebSocket included) and may not be framed by any page
  (``frame-ancestors 'none'``, and ``X-Frame-Options: DENY`` for older browsers);
  ``X-Content-Type-Options: nosniff``; ``Referrer-Policy: no-referrer`` (a seat's link is
  its key: no other site learns the address of a table); ``Cross-Origin-Opener-Policy``.
* **Compression**: Starlette's ``GZipMiddleware`` for answers of 500 bytes or more, to
  clients that accept gzip (the catalogues shrink to a quarter).
* **Caching** (:func:`cache_policy`): static files and pages are kept by the browser but
  checked again on every use (``no-cache`` with their ``ETag``: an unchanged file costs a
  ``304`` without a body, and a new version of the server is never mixed with old
  scripts); the catalogues for five minutes, then checked the same way
  (:func:`catalogue_response`); answers of the API are never stored (``no-store``: they
  hold a seat's view of its hand).
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CSP", "SecurityHeaders", "cache_policy", "catalogue_response", "install"]

#: The Content Security Policy of every answer; ``{ws}`` is the WebSocket origin of the
#: request's host (older browsers do not count ``ws:`` as ``'self'``).
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'{ws}; font-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")

_FIXED = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]

#: A Host header that may be written into the policy (a name or address and a port).
_HOST = re.compile(r"^[A-Za-z0-9.\-]{1,253}(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?$")

#: Seconds the browser keeps a catalogue before it checks it again.
CATALOGUE_MAX_AGE = 300


def cache_policy(path: str) -> str:
    """The ``Cache-Control`` of an answer to ``path`` that sets none itself."""
    if path.startswith(("/static/", "/t/", "/scorepad")) or path == "/":
        return "no-cache"
    if path.startswith("/i18n/"):
        return f"public, max-age={CATALOGUE_MAX_AGE}"
    return "no-store"


def _csp(scope: Scope) -> bytes:
    host = ""
    for name, value in scope.get("headers", []):
        if name == b"host":
            host = value.decode("latin-1")
            break
    ws = f" ws://{host} wss://{host}" if host and _HOST.match(host) else ""
    return CSP.format(ws=ws).encode("latin-1")


class SecurityHeaders:
    """ASGI middleware: the security headers and the cache policy on every HTTP answer
    (WebSocket connections pass untouched)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        csp = _csp(scope)
        cache = cache_policy(scope.get("path", "")).encode("latin-1")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                have = {name.lower() for name, _ in headers}
                extra = [(b"content-security-policy", csp), *_FIXED,
                         (b"cache-control", cache)]
                headers += [(k, v) for k, v in extra if k not in have]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def install(app: Any) -> None:
    """Add compression and the security headers to ``app`` (call after its other
    middleware: these wrap them, so that even a refusal of theirs carries the headers)."""
    app.add_middleware(GZipMiddleware, minimum_size=500)
    app.add_middleware(SecurityHeaders)


_etags: dict[str, tuple[str, bytes]] = {}


def catalogue_response(request: Request, lang: str, catalogue: dict[str, str]) -> Response:
    """The catalogue of ``lang`` with its ``ETag`` (a hash of its text, made once per
    process), or ``304 Not Modified`` when the browser already holds that version."""
    kept = _etags.get(lang)
    if kept is None:
        body = json.dumps(catalogue, ensure_ascii=False).encode("utf-8")
        kept = _etags[lang] = (f'W/"{hashlib.sha256(body).hexdigest()[:32]}"', body)
    etag, body = kept
    headers = {"ETag": etag, "Cache-Control": f"public, max-age={CATALOGUE_MAX_AGE}"}
    if etag in [t.strip() for t in request.headers.get("if-none-match", "").split(",")]:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)
