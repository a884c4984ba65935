"""The offline table's routes: a page that plays against bots with no server once loaded.

``/offline/`` is a progressive web app: its service worker (``/offline/sw.js``) keeps the
page, its scripts, the catalogues, the engine (``/offline/canasta.zip``, built by
:mod:`canasta.offline.bundle` from this server's own sources) and Pyodide (CPython compiled
to WebAssembly, ``/offline/pyodide/...``) in the browser, so that the page opens and plays a
match with the network gone, and can be installed on a phone's home screen
(``/offline/manifest.webmanifest``). The engine and the bots run in the page
(:mod:`canasta.offline.table`); nothing of a match is sent anywhere.

Pyodide is not a Python package: it comes from the npm registry (``npm ci`` at the
repository's root installs ``node_modules/pyodide``, as ``.ci/run`` does), or from a folder
named by ``CANASTA_PYODIDE``. Without it the page says so and how to get it; every other
page of the server works as before.

The page's Content Security Policy is the server's (:mod:`canasta.web.headers`) with
``'wasm-unsafe-eval'`` added to ``script-src``: WebAssembly must be compiled in the page,
and nothing else is relaxed.
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
from functools import cache

from fastapi import APIRouter
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response

from canasta.offline.bundle import bundle, bundle_hash
from canasta.web.headers import CSP

__all__ = ["PYODIDE_FILES", "pyodide_dir", "router"]

STATIC = pathlib.Path(__file__).with_name("static")
_REPO = pathlib.Path(__file__).resolve().parents[3]

#: The files of the Pyodide distribution the page loads (nothing else is served from it).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")

#: The page's own files, kept by the service worker beside the engine and Pyodide.
PAGE_FILES = ("/offline/", "/offline/manifest.webmanifest", "/offline/icon.svg",
              "/static/style.css", "/static/offline.css", "/static/cards.js",
              "/static/i18n.js", "/static/offline.js", "/i18n")

_TYPES = {".mjs": "text/javascript", ".wasm": "application/wasm", ".zip": "application/zip",
          ".json": "application/json"}

_CSP = CSP.format(ws="").replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'")


def pyodide_dir() -> pathlib.Path | None:
    """The folder holding Pyodide's files: ``CANASTA_PYODIDE``, else ``node_modules/pyodide``
    of the repository or of the working folder; None where none holds them all."""
    named = os.environ.get("CANASTA_PYODIDE")
    places = [pathlib.Path(named)] if named else [
        _REPO / "node_modules" / "pyodide", pathlib.Path.cwd() / "node_modules" / "pyodide"]
    for place in places:
        if all((place / name).is_file() for name in PYODIDE_FILES):
            return place
    return None


@cache
def _pyodide_version(folder: pathlib.Path) -> str:
    try:
        return str(json.loads((folder / "package.json").read_text("utf-8"))["version"])
    except (OSError, ValueError, KeyError):
        return hashlib.sha256((folder / "pyodide.asm.wasm").read_bytes()).hexdigest()[:12]


def _version() -> str:
    folder = pyodide_dir()
    return f"{bundle_hash()}-{_pyodide_version(folder) if folder else 'none'}"


def router(languages: tuple[str, ...]) -> APIRouter:
    """The offline table's page, service worker, manifest, engine bundle and Pyodide files;
    ``languages``: the catalogues the service worker keeps (``/i18n/<lang>.json``)."""
    api = APIRouter(include_in_schema=False)
    page_headers = {"Content-Security-Policy": _CSP, "Cache-Control": "no-cache"}

    @api.get("/offline")
    async def offline_redirect() -> Response:
        return RedirectResponse("/offline/", status_code=308)

    @api.get("/offline/")
    async def offline_page() -> Response:
        return FileResponse(STATIC / "offline.html", headers=page_headers)

    @api.get("/offline/status")
    async def offline_status() -> Response:
        """Whether the page can run here: Pyodide's folder found, and the versions."""
        folder = pyodide_dir()
        return JSONResponse({
            "pyodide": folder is not None,
            "pyodide_version": _pyodide_version(folder) if folder else None,
            "bundle": bundle_hash(), "version": _version(),
            "help": None if folder else (
                "offline play needs Pyodide: run `npm ci` at the repository's root, or set "
                "CANASTA_PYODIDE to a folder holding " + ", ".join(PYODIDE_FILES))},
            headers={"Cache-Control": "no-store"})

    @api.get("/offline/sw.js")
    async def service_worker() -> Response:
        # The worker names its cache after the engine's and Pyodide's versions, so a new
        # server replaces what an old one left in the browser.
        files = [*PAGE_FILES, *(f"/i18n/{lang}.json" for lang in languages),
                 "/offline/canasta.zip", *(f"/offline/pyodide/{n}" for n in PYODIDE_FILES)]
        text = (STATIC / "offline-sw.js").read_text("utf-8")
        text = text.replace("__VERSION__", _version()).replace(
            "__FILES__", json.dumps(files))
        return Response(text, media_type="text/javascript", headers={
            "Cache-Control": "no-cache", "Service-Worker-Allowed": "/offline/"})

    @api.get("/offline/manifest.webmanifest")
    async def manifest() -> Response:
        return FileResponse(STATIC / "offline.webmanifest",
                            media_type="application/manifest+json",
                            headers={"Cache-Control": "no-cache"})

    @api.get("/offline/icon.svg")
    async def icon() -> Response:
        return FileResponse(STATIC / "offline-icon.svg", media_type="image/svg+xml",
                            headers={"Cache-Control": "no-cache"})

    @api.get("/offline/canasta.zip")
    async def engine_bundle(request: Request) -> Response:
        etag = f'"{bundle_hash()}"'
        headers = {"ETag": etag, "Cache-Control": "no-cache"}
        if etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        return Response(bundle(), media_type="application/zip", headers=headers)

    @api.get("/offline/pyodide/{name}")
    async def pyodide_file(name: str) -> Response:
        folder = pyodide_dir()
        if name not in PYODIDE_FILES:
            return JSONResponse({"type": "error", "code": "not-found",
                                 "message": f"no file {name!r} of Pyodide is served here"},
                                status_code=404)
        if folder is None:
            return JSONResponse({"type": "error", "code": "not-found",
                                 "message": "Pyodide is not installed on this server: run "
                                 "`npm ci` at the repository's root"}, status_code=404)
        suffix = pathlib.Path(name).suffix
        return FileResponse(folder / name, media_type=_TYPES.get(suffix),
                            headers={"Cache-Control": "public, max-age=86400"})

    return api
