"""The Review view in a real browser: at a hand's end the score sheet offers Review, which
shows a progress bar while the server analyses, then every decision of the seat with the best
moves, the loss and the mark, and the hand's result split into luck and play, in the page's
language. Screenshots go to $CANASTA_SHOTS (default test-artefacts/web/)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import CHROMIUM, DESKTOP, FLAGS, PHONE, new_page

from canasta.i18n import t
from conftest import ARTEFACTS, ServerProcess

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's Chromium is not installed at /usr/bin/chromium")]
SHOTS = Path(os.environ.get("CANASTA_SHOTS", str(ARTEFACTS)))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("review")
    old = os.environ.get("CANASTA_REVIEW_BUDGET")
    os.environ["CANASTA_REVIEW_BUDGET"] = "0.05"  # a short search: the page is under test
    try:
        srv = ServerProcess(f"sqlite:///{tmp / 'tables.sqlite3'}", bot_delay=0.0,
                            log=tmp / "server.log")
        srv.start()
    finally:
        if old is None:
            del os.environ["CANASTA_REVIEW_BUDGET"]
        else:
            os.environ["CANASTA_REVIEW_BUDGET"] = old
    yield srv
    srv.kill()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield b
        b.close()


@pytest.mark.parametrize(("locale", "lang", "size"), [("en-US", "en", "desktop"),
                                                    ("it-IT", "it", "phone")])
def test_the_review_of_a_finished_hand(server: ServerProcess, browser: Any, locale: str,
                                       lang: str, size: str) -> None:
    body = {"players": 2, "seats": [{"type": "human", "name": "Ana"},
                                    {"type": "bot", "level": "greedy", "name": "Bruno"}]}
    status, created = server.request("POST", "/api/tables", body)
    assert status == 201, created
    viewport = DESKTOP if size == "desktop" else PHONE
    page = new_page(browser, viewport, locale)
    page.goto(server.base + created["seats"][0]["path"])
    page.wait_for_selector(".hand .card")
    status, _ = server.request("POST", f"/api/tables/{created['table']}/seats/0/bot",
                               {"token": created["seats"][0]["token"], "level": "greedy"})
    assert status == 200
    page.wait_for_selector("#sheet:not(.hidden)", timeout=90_000)
    page.click("#sheet-review")
    page.wait_for_selector("#review:not(.hidden)")
    page.wait_for_selector("#review-body table.review", timeout=90_000)
    assert page.locator("#review-progress.hidden").count() == 1
    rows = page.locator("#review-body table.review tr.first")
    assert rows.count() >= 1
    assert page.locator("#review-body table.review tr.played").count() == rows.count()
    text = page.inner_text("#review-body")
    assert t("review.col.loss", lang) in text and t("review.caption", lang) in text
    assert t("review.account", lang).split("{")[0] in text
    page.screenshot(path=str(SHOTS / f"review-{size}-{lang}.png"), full_page=True)
    # the Close button stays whole at the foot of the panel, on top
    box = page.locator("#review-close").bounding_box()
    assert box is not None and box["y"] + box["height"] <= viewport["height"], box
    page.click("#review-close")
    page.wait_for_selector("#review.hidden", state="attached")
    assert page.errors == []
