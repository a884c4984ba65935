"""Accounts and ratings in a real browser (Playwright driving Debian's Chromium): a person
registers, sets the preferences the table uses, starts a rated match against bots, abandons
it (the shortest real way to a rated result: abandoning counts as a loss), sees the rating
move on the leaderboard and in the history, has the table page speak the account's language,
and deletes the account. Screenshots at desktop
and phone size go to /tmp/shots/accounts/ (and test-artefacts/web/) to be looked at."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from canasta.i18n import catalogue
from conftest import ARTEFACTS, ServerProcess

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}
SHOTS = Path("/tmp/shots/accounts")
PASSWORD = "a long enough secret"

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="Debian's Chromium is not installed at /usr/bin/chromium "
           "(apt-get install chromium chromium-driver; .ci/run does it)",)]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("browser-accounts")
    # plain http to 127.0.0.1: the one case where the cookies go without the Secure flag
    srv = ServerProcess(f"sqlite:///{tmp / 'tables.sqlite3'}", bot_delay=0.02,
                        log=tmp / "server.log")
    srv.start()
    yield srv
    srv.kill()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield b
        b.close()


def shot(page: Any, name: str) -> None:
    for folder in (SHOTS, ARTEFACTS):
        page.screenshot(path=str(folder / f"accounts-{name}.png"), full_page=True)


def fits_the_width(page: Any) -> bool:
    """Nothing sticks out past the screen's width (the elements that do are printed)."""
    width = page.viewport_size["width"]
    wide = page.evaluate(f"[...document.querySelectorAll('body *')].filter(e => "
                         f"e.getBoundingClientRect().right > {width + 1}).map(e => "
                         f"e.tagName + '#' + e.id + '.' + e.className)")
    print("wider than the screen:", wide)
    return bool(page.evaluate("document.documentElement.scrollWidth") <= width + 1)


def test_register_play_rated_see_the_rating_move_and_delete(server: ServerProcess,
                                                             browser: Any) -> None:
    en = catalogue("en")
    # one browser context: desktop first, then the same sign-in on a phone-sized page
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US", bypass_csp=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", lambda dialog: dialog.accept())

    page.goto(server.base + "/account")
    page.wait_for_selector("body[data-ready='1'] #signin:not(.hidden)")
    page.fill("#name", "Ada Lovelace")
    page.fill("#password", PASSWORD)
    shot(page, "desktop-signin")
    page.click("#do-register")
    page.wait_for_selector("#profile:not(.hidden)")
    assert page.locator("#who").inner_text() == "Signed in as Ada Lovelace"
    cookies = {c["name"]: c for c in ctx.cookies()}
    assert cookies["canasta_session"]["httpOnly"] and cookies["canasta_session"][
        "sameSite"] == "Lax"
    assert not cookies["canasta_csrf"]["httpOnly"]

    # preferences: four colours and the hand by suit, used by the table page
    page.check("#pref-four")
    page.select_option("#pref-sort", "suit")
    page.click("#prefs-save")
    page.wait_for_selector("#acct-msg:not(.hidden)")
    assert page.locator("#acct-msg").inner_text() == en["acct.saved"]

    # a rated match of two: Ada against an easy bot
    page.select_option("#play-players", "2")
    page.select_option("#play-level", "easy")
    shot(page, "desktop-profile")
    page.click("#play-start")
    page.wait_for_url("**/t/**")
    page.wait_for_selector("#rated-bar[data-status='playing'] #abandon")
    page.wait_for_selector("#hand .card")
    assert page.evaluate("document.body.classList.contains('four-colour')")
    assert page.evaluate("document.body.dataset.sort") == "suit"
    assert en["acct.rated_playing"] in page.locator("#rated-bar").inner_text()
    table_path = page.url.split("#")[0].split(server.base)[1]
    shot(page, "desktop-table")
    page.click("#abandon")
    page.wait_for_selector("#rated-bar[data-status='settled']")
    assert page.locator("#abandon").count() == 0

    # the leaderboard: Ada below 1500, provisional, among the bots' fixed ratings
    page.goto(server.base + "/leaderboard/international")
    page.wait_for_selector("body[data-ready='1'] #board tr.me")
    row = page.locator("#board tr.me")
    assert "Ada Lovelace" in row.inner_text() and en["acct.provisional"] in row.inner_text()
    rating = int(row.locator(".rating").inner_text().split()[0])
    assert rating < 1500
    assert page.locator("#board tr.bot").count() == 4
    shot(page, "desktop-leaderboard")

    # the phone: the same sign-in, its history with the loss and the record's link
    phone = ctx.new_page()
    phone.on("pageerror", lambda exc: errors.append(str(exc)))
    phone.on("dialog", lambda dialog: dialog.accept())
    phone.set_viewport_size(PHONE)
    phone.goto(server.base + "/account")
    phone.wait_for_selector("body[data-ready='1'] #profile:not(.hidden)")
    match = phone.locator("#history tr[data-table]")
    assert match.count() == 1
    assert en["acct.result_loss"] in match.locator(".result").inner_text()
    assert match.locator("a[download]").get_attribute("href") == \
        table_path.replace("/t/", "/api/tables/") + "/record"
    assert fits_the_width(phone)
    shot(phone, "phone-profile")
    phone.goto(server.base + "/leaderboard/international")
    phone.wait_for_selector("body[data-ready='1'] #board tr.me")
    assert fits_the_width(phone)
    shot(phone, "phone-leaderboard")
    # the language of the account, Portuguese, is the table page's
    pt = catalogue("pt")
    phone.goto(server.base + "/account")
    phone.wait_for_selector("body[data-ready='1'] #profile:not(.hidden)")
    phone.select_option("#pref-lang", "pt")
    phone.click("#prefs-save")
    phone.wait_for_function("document.documentElement.lang === 'pt'")
    phone.goto(server.base + table_path)
    phone.wait_for_selector("#rated-bar[data-status='settled']")
    assert phone.evaluate("document.documentElement.lang") == "pt"
    assert phone.locator("#rated-bar .rated-text").inner_text() == pt["acct.rated_settled"]
    shot(phone, "phone-table")

    # delete: the account and its rating are gone
    phone.goto(server.base + "/account")
    phone.wait_for_selector("body[data-ready='1'] #profile:not(.hidden)")
    phone.fill("#delete-password", PASSWORD)
    phone.click("#delete-go")
    phone.wait_for_selector("#signin:not(.hidden)")
    assert phone.locator("#acct-msg").inner_text() == pt["acct.deleted"]
    status, board = server.request("GET", "/api/leaderboard/international")
    assert status == 200 and board["players"] == []
    assert "canasta_session" not in {c["name"] for c in ctx.cookies()}
    assert errors == []
