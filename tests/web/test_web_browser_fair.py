"""A fair table in a real browser: every page works under the server's Content Security
Policy (no inline script, nothing refused), cannot be framed, and the hand's sheet shows the
deal's commitment it saw before the hand. Screenshots go to $CANASTA_SHOTS (default
test-artefacts/web/)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import CHROMIUM, DESKTOP, FLAGS, PHONE

from conftest import ARTEFACTS, ServerProcess

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's Chromium is not installed at /usr/bin/chromium")]
SHOTS = Path(os.environ.get("CANASTA_SHOTS", str(ARTEFACTS)))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("fair")
    srv = ServerProcess(f"sqlite:///{tmp / 'tables.sqlite3'}", bot_delay=0.0,
                        log=tmp / "server.log")
    srv.start()
    yield srv
    srv.kill()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield b
        b.close()


def watched(browser: Any, size: dict[str, int], locale: str = "en-US") -> Any:
    """A page that records what the policy refused (console messages and violation
    events) besides its errors."""
    ctx = browser.new_context(viewport=size, locale=locale, is_mobile=size["width"] < 600,
                              has_touch=size["width"] < 600)
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.refused = []
    page.on("console", lambda m: page.refused.append(m.text)
            if "Content Security Policy" in m.text or "Refused to" in m.text else None)
    page.add_init_script("document.addEventListener('securitypolicyviolation', e => "
                         "(window.cspViolations = window.cspViolations || []).push("
                         "e.violatedDirective + ' ' + e.blockedURI));")
    return page


def _table(server: ServerProcess, seats: list[str]) -> dict[str, Any]:
    status, created = server.request("POST", "/api/tables", {
        "players": len(seats), "level": "greedy",
        "seats": [{"type": k, "level": "greedy", "name": n}
                  for k, n in zip(seats, ["Ana", "Bruno", "Carla", "Davi"], strict=False)]})
    assert status == 201, created
    return created


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_every_page_runs_under_the_policy(server: ServerProcess, browser: Any,
                                          size: dict[str, int]) -> None:
    created = _table(server, ["human", "bot"])
    page = watched(browser, size)
    page.goto(server.base + "/")
    page.wait_for_load_state("networkidle")
    page.goto(server.base + created["seats"][0]["path"])
    page.wait_for_selector("body[data-version]", state="attached", timeout=30_000)
    page.goto(server.base + "/scorepad")
    page.wait_for_load_state("networkidle")
    violations = page.evaluate("window.cspViolations || []")
    assert violations == [] and page.refused == [] and page.errors == [], \
        (violations, page.refused, page.errors)


def test_the_table_cannot_be_framed(server: ServerProcess, browser: Any) -> None:
    page = watched(browser, DESKTOP)
    page.goto(server.base + "/static/style.css")  # any page of the server's origin
    page.set_content(f'<iframe id="f" src="{server.base}/"></iframe>')
    page.wait_for_timeout(1500)
    inner = page.frames[1]
    # the browser shows its own error page in the frame, never the lobby
    assert inner.url != server.base + "/", inner.url
    assert page.frame_locator("#f").locator("script[src='/static/lobby.js']").count() == 0


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_sheet_shows_the_commitment_the_page_saw_before_the_hand(
        server: ServerProcess, browser: Any, size: dict[str, int]) -> None:
    created = _table(server, ["human", "bot"])
    token = created["seats"][0]["token"]
    status, first = server.request("GET", f"/api/tables/{created['table']}", token=token)
    assert status == 200
    commitment = first["deal"]["commitment"]
    page = watched(browser, size)
    page.goto(server.base + created["seats"][0]["path"])
    page.wait_for_selector("body[data-version]", state="attached", timeout=30_000)
    # a bot plays Ana's seat: the hand runs to its end by itself
    status, _ = server.request("POST", f"/api/tables/{created['table']}/seats/0/bot",
                               {"token": token, "level": "greedy"})
    assert status == 200
    page.wait_for_selector("#sheet-deal .deal-same", timeout=60_000)
    text = page.inner_text("#sheet-deal")
    assert commitment[:16] in text and "--verify-deal" in text
    assert page.get_attribute("#sheet-deal", "title") == commitment
    name = "desktop" if size is DESKTOP else "phone"
    page.screenshot(path=str(SHOTS / f"{name}-en-deal-commitment.png"))
    assert page.errors == [] and page.evaluate("window.cspViolations || []") == []
