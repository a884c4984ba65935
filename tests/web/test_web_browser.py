"""The page in a real browser (Playwright driving Debian's Chromium): create a table in the
lobby, play a hand by clicking cards and buttons to its score sheet, deal the next hand;
a second browser joins through its invitation link, a spectator watches; phone size and
Italian. Screenshots are kept under test-artefacts/web/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import ARTEFACTS, ServerProcess

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DESKTOP = {"width": 1366, "height": 860}
PHONE = {"width": 390, "height": 844}

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="Debian's Chromium is not installed at /usr/bin/chromium "
           "(apt-get install chromium chromium-driver; .ci/run does it)",)]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("browser")
    srv = ServerProcess(f"sqlite:///{tmp / 'tables.sqlite3'}", bot_delay=0.02,
                        log=tmp / "server.log")
    srv.start()
    yield srv
    srv.kill()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield b
        b.close()


def new_page(browser: Any, viewport: dict[str, int], locale: str = "en-US") -> Any:
    phone = viewport["width"] < 600
    # the page's CSP forbids eval, which Playwright's wait_for_function("text") needs
    # (test_web_browser_fair.py loads the pages under the policy)
    ctx = browser.new_context(viewport=viewport, locale=locale, is_mobile=phone, bypass_csp=True,
                              has_touch=phone)
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    return page


def shot(page: Any, name: str, full: bool = True) -> None:
    page.screenshot(path=str(ARTEFACTS / f"{name}.png"), full_page=full)


def version(page: Any) -> str:
    return str(page.evaluate("document.body.dataset.version"))


def after(page: Any, old: str) -> str:
    page.wait_for_function(f"document.body.dataset.version !== '{old}'", timeout=20_000)
    return version(page)


def tap(locator: Any) -> None:
    """Click a card where a person would: its visible left edge (cards of a rank overlap)."""
    locator.click(position={"x": 8, "y": 30})


def fits_the_screen(page: Any) -> None:
    """Nothing on the page is wider than the screen. On a phone one wider row (a side seat
    beside a pile with two badges was 31 px too wide) widens the layout viewport, so the fixed
    action bar sits below the screen's edge and a tap lands on the felt."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], (
        f"the page is {width} px wide on a {page.viewport_size['width']} px screen")


def play_turn(page: Any) -> None:
    """One turn by clicking: draw, go out if the page offers it, meld a group of three or
    more, then select cards one by one until Discard lights up."""
    fits_the_screen(page)
    v = version(page)
    if page.locator("[data-action=answer-yes]").count():
        page.click("[data-action=answer-yes]")
        after(page, v)
        return
    if page.locator("[data-action=draw]").count():
        page.click("[data-action=draw]")
        v = after(page, v)
    if page.locator("[data-action=go-out]").count():
        page.click("[data-action=go-out]")
        after(page, v)
        return
    groups = page.locator(".hand .group")
    for gi in range(groups.count()):
        cards = page.locator(".hand .group").nth(gi).locator(".card")
        if cards.count() < 3:
            continue
        for ci in range(cards.count()):
            tap(cards.nth(ci))
        if page.locator("[data-action=meld]:enabled").count():
            page.click("[data-action=meld]")
            v = after(page, v)
            break
        page.click("[data-action=clear]")
    if page.evaluate("document.body.dataset.phase") == "over":
        return
    if page.locator("[data-action=retract]").count():
        page.click("[data-action=retract]")
        v = after(page, v)
    cards = page.locator(".hand .card")
    for ci in range(cards.count()):
        tap(cards.nth(ci))
        if page.locator("[data-action=discard]:enabled").count():
            page.click("[data-action=discard]")
            after(page, v)
            return
        tap(cards.nth(ci))
    raise AssertionError("no card could be discarded")


def play_to_the_end(page: Any, name: str, limit: int = 150) -> None:
    for turn in range(limit):
        page.wait_for_function("document.body.dataset.myTurn === 'yes' || "
                               "document.body.dataset.phase === 'over'", timeout=60_000)
        if page.evaluate("document.body.dataset.phase") == "over":
            return
        play_turn(page)
        if turn == 3:
            shot(page, f"{name}-turn")
    raise AssertionError("the hand did not end")


def test_create_a_table_play_a_hand_by_clicking_and_deal_the_next(server: ServerProcess,
                                                                  browser: Any) -> None:
    page = new_page(browser, DESKTOP)
    page.goto(server.base + "/")
    page.wait_for_selector(".seat-row")
    assert page.locator(".seat-row").count() == 4
    shot(page, "desktop-lobby")
    page.click("#create-btn")
    page.wait_for_selector("#sit:visible")
    assert page.locator("#links .link-row").count() == 2  # one human seat + the spectator
    shot(page, "desktop-created")
    page.click("#sit")
    page.wait_for_selector(".hand .card")
    assert page.locator(".seat.me").count() == 1
    shot(page, "desktop-table")
    play_to_the_end(page, "desktop")
    page.wait_for_selector("#sheet:not(.hidden)")
    assert page.locator(".sheet-team").count() == 2
    assert page.locator(".sheet-team tr.total").count() == 2
    shot(page, "desktop-score-sheet", full=False)
    href = page.get_attribute("#sheet-record", "href")
    record = page.request.get(server.base + href).json()
    assert record["format"] == "canasta-record" and len(record["hands"]) == 1
    v = version(page)
    page.click("#sheet-next")
    after(page, v)
    page.wait_for_selector("#sheet.hidden", state="attached")
    assert "2" in page.inner_text("#hand-no")
    assert page.locator(".hand .card").count() >= 11
    page.click(".tab[data-tab=scores]")
    assert page.locator("table.history tr").count() == 2
    shot(page, "desktop-next-hand")
    assert page.errors == []


def test_a_friend_joins_by_invitation_and_a_spectator_watches(server: ServerProcess,
                                                              browser: Any) -> None:
    host = new_page(browser, DESKTOP)
    host.goto(server.base + "/")
    host.wait_for_selector(".seat-row")
    rows = host.locator(".seat-row")
    rows.nth(0).locator("input").fill("Ann")
    rows.nth(2).locator("input").fill("Bea")
    rows.nth(2).locator("select.type").select_option("human")
    host.click("#create-btn")
    host.wait_for_selector("#sit:visible")
    links = [host.locator("#links input.link").nth(i).input_value() for i in range(3)]
    ann, bea, spectator = links
    assert "#seat=" in ann and "#seat=" in bea and "#seat=" not in spectator

    friend = new_page(browser, PHONE, locale="it-IT")
    friend.goto(bea)
    friend.wait_for_selector(".hand .card")
    assert friend.inner_text(".seat.me .seat-name") == "Bea"
    assert friend.inner_text(".tab[data-tab=log]") == "Cronaca"
    assert friend.text_content("#stock .stack-label") == "Tallone"
    shot(friend, "phone-it-invited")

    host.goto(ann)
    host.wait_for_selector(".hand .card")
    watcher = new_page(browser, PHONE)
    watcher.goto(spectator)
    watcher.wait_for_selector(".seat")
    assert watcher.locator(".hand .card").count() == 0
    assert "watching" in watcher.inner_text("#status")
    # the friend's page shows Ann as present; everyone reaches the same version
    friend.wait_for_function(
        "[...document.querySelectorAll('.seat .seat-name')].some(e => e.textContent === 'Ann')"
        " && document.querySelectorAll('.seat .dot.on').length >= 2", timeout=10_000)
    played = {"Ann": 0, "Bea": 0}
    for _ in range(40):  # a few turns from each browser, in the table's order
        if min(played.values()) >= 2:
            break
        for name, page in (("Ann", host), ("Bea", friend)):
            if page.evaluate("document.body.dataset.myTurn") == "yes":
                play_turn(page)
                played[name] += 1
        host.wait_for_timeout(150)
    assert min(played.values()) >= 2, played
    v = max(int(version(p)) for p in (host, friend, watcher))
    for page in (host, friend, watcher):
        page.wait_for_function(f"Number(document.body.dataset.version) >= {v}",
                               timeout=20_000)
    shot(watcher, "phone-spectator")
    shot(friend, "phone-it-playing")
    # the language switch
    friend.click(".lang-switch button[data-lang=en]")
    assert friend.inner_text(".tab[data-tab=log]") == "Log"
    for page in (host, friend, watcher):
        assert page.errors == []


ENGLISH = re.compile(r"\b(Not allowed|the|draws|discards|melds|takes|seat|player|you)\b")


def test_an_italian_page_shows_refusals_and_the_log_in_italian(server: ServerProcess,
                                                               browser: Any) -> None:
    page = new_page(browser, DESKTOP, locale="it-IT")
    page.goto(server.base + "/")
    page.wait_for_selector(".seat-row")
    # house rules, their values and the variant in Italian, from the shared catalogues
    page.click("#options-box summary")
    assert page.inner_text("#variant option:checked") == "Canasta internazionale"
    options = page.inner_text("#options").lower()  # names are capitalized by CSS
    assert "matte rispetto alle naturali" in options and "qualsiasi" in options
    page.click("#create-btn")
    page.wait_for_selector("#sit:visible")
    page.click("#sit")
    page.wait_for_selector(".hand .card")
    page.wait_for_function("document.body.dataset.myTurn === 'yes' && "
                           "document.body.dataset.phase === 'draw'", timeout=60_000)
    # a move the rules refuse (discarding before drawing), sent as the page sends moves
    page.evaluate("act({type: 'discard', card: V().hand[0]})")
    page.wait_for_selector("#toast:not(.hidden)")
    toast = page.inner_text("#toast")
    assert toast.startswith("Non consentito: ") and "testo 002: «" in toast
    assert not ENGLISH.search(toast), toast
    log = page.inner_text("#log")
    assert log.strip() and not ENGLISH.search(log), log
    shot(page, "desktop-it-refusal", full=False)
    assert page.errors == []
