"""A duplicate tournament in Chromium: the host makes a 4-table tournament on its page,
a person joins by its link, the host starts it, bots fill every other seat (and play the
person's while she is away), and the page shows the results: standings, each deal compared
across its two tables, and links to every table and its record; axe-core finds nothing
serious or critical on the form, the host's page, the join form and the results. Screenshots
at desktop and phone size go to $CANASTA_SHOTS_TOURNEY (default /tmp/shots/tourney/)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import CHROMIUM, DESKTOP, FLAGS, PHONE

from conftest import ServerProcess, axe_findings

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's Chromium is not installed at /usr/bin/chromium")]
SHOTS = Path(os.environ.get("CANASTA_SHOTS_TOURNEY", "/tmp/shots/tourney"))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("tourney")
    # the grace before a bot plays an absent person's seat is longer than the page's polls
    # (every 2 s): with 0.5 s, the bots played Ana's table, and the whole one-deal round, out
    # before her page saw it in play, so it never offered her the way to her table
    srv = ServerProcess(f"sqlite:///{tmp / 'tables.sqlite3'}", bot_delay=0.0,
                        log=tmp / "server.log", extra=["--away-after", "8"])
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


def _page(browser: Any, size: dict[str, int]) -> Any:
    ctx = browser.new_context(viewport=size, locale="en-US", is_mobile=size["width"] < 600,
                              has_touch=size["width"] < 600)
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    return page


def test_a_four_table_tournament_of_bots_runs_to_its_results(server: ServerProcess,
                                                             browser: Any) -> None:
    host = _page(browser, DESKTOP)
    host.goto(server.base + "/tournaments")
    host.wait_for_selector("#t-variant option", state="attached")
    host.fill("#t-name", "Friday duplicate")
    host.select_option("#t-players", "2")
    host.fill("#t-tables", "4")
    host.fill("#t-deals", "1")
    host.fill("#t-clock", "0")
    host.select_option("#t-level", "easy")
    # the start time is styled as the other fields (it was a bare, short browser input)
    start = host.locator("#t-start").bounding_box()
    tables = host.locator("#t-tables").bounding_box()
    assert start is not None and tables is not None
    assert abs(start["height"] - tables["height"]) <= 2, (start, tables)
    host.screenshot(path=str(SHOTS / "desktop-create.png"), full_page=True)
    axe = {"desktop, the form": axe_findings(host)}
    host.click("#t-create")
    host.wait_for_selector("#host-box:not(.hidden)")
    assert "#host=" not in host.url  # the secret left the address bar
    link = host.input_value("#join-link")
    axe["desktop, the host's page"] = axe_findings(host)
    assert re.fullmatch(re.escape(server.base) + r"/tournaments/[A-Za-z0-9_-]+", link)

    # a person joins by the link, on a phone
    ana = _page(browser, PHONE)
    # (the form on a phone: each field keeps to its column; the long variant names pushed
    # the players' select off the screen)
    ana.goto(server.base + "/tournaments")
    ana.wait_for_selector("#t-variant option", state="attached")
    panel = ana.locator("#t-variant").evaluate("e => e.closest('.panel')"
                                               ".getBoundingClientRect().right")
    for field in ("#t-variant", "#t-players", "#t-level", "#t-start"):
        box = ana.locator(field).bounding_box()
        assert box is not None and box["x"] + box["width"] <= min(panel, PHONE["width"]) + 1, field
    ana.goto(link)
    ana.wait_for_selector("#join-box:not(.hidden)")
    axe["phone, the join form"] = axe_findings(ana)
    ana.fill("#join-name", "Ana")
    ana.click("#join")
    ana.wait_for_selector("#you-box:not(.hidden)")
    assert "Ana" in ana.inner_text("#you-box")
    ana.screenshot(path=str(SHOTS / "phone-joined.png"), full_page=True)

    host.click("#start")
    host.wait_for_selector("text=Round 1 of 1 in play", timeout=30_000)
    ana.wait_for_selector("#go-table", timeout=30_000)  # the page polls every 2 s
    ana.click("#go-table")
    ana.wait_for_selector("body[data-version]", state="attached", timeout=30_000)
    ana.wait_for_selector("#tourney-link")  # the way back to the tournament
    ana.screenshot(path=str(SHOTS / "phone-table.png"))
    # she leaves her table: a bot plays her seat, and the round runs to its end
    ana.goto(link)
    for page in (host, ana):
        page.wait_for_selector("text=The tournament is over", timeout=120_000)
    host.screenshot(path=str(SHOTS / "desktop-results.png"), full_page=True)
    ana.screenshot(path=str(SHOTS / "phone-results.png"), full_page=True)
    axe["desktop, the results"] = axe_findings(host)
    axe["phone, the results"] = axe_findings(ana)

    rows = host.locator("#standings tr")
    assert rows.count() == 5  # the head and four teams
    assert host.locator("#results tr").count() == 3  # two matches of one deal
    tables = host.locator("#schedule a[href^='/t/']")
    assert tables.count() == 4
    assert host.locator("#schedule a[href$='/record']").count() == 4
    assert "Ana" in host.inner_text("#standings")
    assert ana.locator("#standings tr.mine").count() == 1
    # the deals' secrets are revealed once the round is over
    host.click("summary[data-i18n='tourney.deals_proof']")
    assert "secret until" not in host.inner_text("#deals")
    assert host.errors == [] and ana.errors == []
    assert axe == {k: [] for k in axe}  # axe-core: nothing serious or critical
