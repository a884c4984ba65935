"""Security headers on every answer (a CSP without inline script, frame-ancestors 'none',
nosniff, Referrer-Policy), gzip, and the cache policy of pages, static files and
catalogues (canasta.web.headers)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from conftest import create

STATIC = Path(__file__).resolve().parents[2] / "src" / "canasta" / "web" / "static"


def _paths(client: Any) -> list[str]:
    created = create(client, ["human", "bot"])
    pad = client.post("/api/scorepads", json={"variant": "international", "players": 2})
    assert pad.status_code == 201, pad.text
    return ["/", f"/t/{created['table']}", "/scorepad", "/static/table.js",
            "/static/style.css", "/i18n/en.json", "/i18n", "/api/variants",
            f"/api/tables/{created['table']}", "/api/tables/nope", "/no-such-page",
            "/openapi.json"]


def test_every_answer_carries_the_security_headers(client: Any) -> None:
    for path in _paths(client):
        r = client.get(path)
        h = r.headers
        csp = h.get("content-security-policy", "")
        assert "frame-ancestors 'none'" in csp, path
        assert re.search(r"script-src 'self'(;|$)", csp), (path, csp)
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
        assert "connect-src 'self' ws://testserver wss://testserver" in csp
        assert h.get("x-content-type-options") == "nosniff", path
        assert h.get("referrer-policy") == "no-referrer", path
        assert h.get("x-frame-options") == "DENY", path
    # a refusal of the body guard carries them too
    r = client.post("/api/tables", content=b"x" * 10, headers={"content-type": "text/plain"})
    assert r.status_code >= 400 and "frame-ancestors" in r.headers["content-security-policy"]


def test_a_forged_host_is_not_written_into_the_policy(client: Any) -> None:
    r = client.get("/", headers={"host": "evil; script-src *"})
    csp = r.headers["content-security-policy"]
    assert "evil" not in csp and "script-src 'self';" in csp


def test_gzip_and_cache_headers(client: Any) -> None:
    r = client.get("/i18n/en.json", headers={"accept-encoding": "gzip"})
    assert r.headers["content-encoding"] == "gzip"
    assert r.headers["cache-control"] == "public, max-age=300"
    etag = r.headers["etag"]
    again = client.get("/i18n/en.json", headers={"if-none-match": etag})
    assert again.status_code == 304 and again.content == b""
    assert client.get("/i18n/it.json").headers["etag"] != etag
    js = client.get("/static/table.js", headers={"accept-encoding": "gzip"})
    assert js.headers["content-encoding"] == "gzip" and js.headers["cache-control"] == "no-cache"
    assert client.get("/static/table.js", headers={
        "if-none-match": js.headers["etag"]}).status_code == 304
    assert client.get("/").headers["cache-control"] == "no-cache"
    api = client.get("/api/variants")
    assert api.headers["cache-control"] == "no-store"
    small = client.get("/i18n", headers={"accept-encoding": "gzip"})
    assert "content-encoding" not in small.headers  # too small to be worth it


class _Inline(HTMLParser):
    """What a CSP without 'unsafe-inline' would block in a page."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {k for k, _ in attrs}
        if tag == "script" and "src" not in names:
            self.found.append("inline <script>")
        if tag == "style":
            self.found.append("<style>")
        for k, v in attrs:
            if k.startswith("on"):
                self.found.append(f"<{tag} {k}>")
            if k == "style":
                self.found.append(f"<{tag} style>")
            if k in ("href", "src") and v and v.strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {k}=javascript:>")


@pytest.mark.parametrize("page", sorted(p.name for p in STATIC.glob("*.html")))
def test_the_pages_have_no_inline_script_handler_or_style(page: str) -> None:
    parser = _Inline()
    parser.feed((STATIC / page).read_text(encoding="utf-8"))
    assert parser.found == []


@pytest.mark.parametrize("script", sorted(p.name for p in STATIC.glob("*.js")))
def test_the_scripts_write_no_markup_or_code_the_policy_would_block(script: str) -> None:
    text = (STATIC / script).read_text(encoding="utf-8")
    for pattern in (r"\.innerHTML\s*=", r"\.outerHTML\s*=", r"insertAdjacentHTML",
                    r"\beval\(", r"new Function\(", r"setAttribute\(\s*[\"']on",
                    r"setAttribute\(\s*[\"']style", r"\.cssText\s*=", r"document\.write"):
        assert not re.search(pattern, text), (script, pattern)
