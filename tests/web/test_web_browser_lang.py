"""The scorepad and the languages in a real browser (Playwright driving Debian's Chromium):
a scorekeeper keeps a hand on a phone in Portuguese and reopens the match on a desktop by the
keeper's link; the lobby follows the browser's language (Romanian), the switch changes it (to
Portuguese) for house rules, values and variant names, and the choice is kept. Screenshots
go to /tmp/lang-shots (and test-artefacts/web/) to be looked at."""

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
SHOTS = Path("/tmp/lang-shots")

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="Debian's Chromium is not installed at /usr/bin/chromium "
           "(apt-get install chromium chromium-driver; .ci/run does it)",)]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("browser-lang")
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


def new_page(browser: Any, viewport: dict[str, int], locale: str) -> Any:
    phone = viewport["width"] < 600
    # the page's CSP forbids eval, which Playwright's wait_for_function("text") needs
    # (test_web_browser_fair.py loads the pages under the policy)
    ctx = browser.new_context(viewport=viewport, locale=locale, is_mobile=phone, bypass_csp=True,
                              has_touch=phone)
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    return page


def shot(page: Any, name: str) -> None:
    for folder in (SHOTS, ARTEFACTS):
        page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def fits_the_width(page: Any) -> bool:
    # against the screen's width, not innerWidth: on a phone a wider page widens the layout
    # viewport, and innerWidth with it
    return bool(page.evaluate("document.documentElement.scrollWidth") <=
                page.viewport_size["width"] + 1)


def team(page: Any, i: int) -> Any:
    return page.locator(f".team-box[data-team='{i}']")


def test_a_scorekeeper_keeps_a_hand_on_a_phone_and_reopens_it_on_a_desktop(
        server: ServerProcess, browser: Any) -> None:
    pt = catalogue("pt")
    page = new_page(browser, PHONE, "pt-BR")
    page.goto(server.base + "/scorepad")
    page.wait_for_selector("#variant option", state="attached")
    assert page.locator("#start").inner_text() == pt["scorepad.start"]
    page.select_option("#variant", "international")
    page.select_option("#players", "4")
    names = page.locator("#names input")
    names.nth(0).fill("Ana & Bia")
    names.nth(1).fill("Caio & Davi")
    shot(page, "scorepad-phone-setup-pt")
    page.click("#start")
    page.wait_for_selector(".team-box")
    assert "/scorepad/" in page.url
    # team 0: one natural canasta, 9 tens and a twenty melded, a red three, went out
    page.select_option("#went-out", "0:0")
    t0 = team(page, 0)
    t0.locator("[name='canasta:natural'] + button").click()   # the + of the stepper
    t0.locator("[name='melded:10']").fill("9")
    t0.locator("[name='melded:20']").fill("1")
    t0.locator("[name='red_threes'] + button").click()
    partner = t0.locator(".player[data-player='1']")
    partner.locator(".mode button[data-mode='cards']").click()
    partner.locator("[name='cards']").fill("7h")
    t1 = team(page, 1)
    t1.locator("[name='melded:5']").fill("3")
    t1.locator(".player[data-player='0'] [name='hand:50']").fill("1")
    t1.locator(".player[data-player='1'] [name='hand:10']").fill("2")
    assert t0.locator("[data-sum='melded']").inner_text() == pt["scorepad.total_points"].replace(
        "{n}", "110")
    assert fits_the_width(page)
    shot(page, "scorepad-phone-hand-pt")
    page.click("#check")
    page.wait_for_selector("#preview:not(.hidden) table")
    assert pt["score.natural_canasta"] in page.locator("#preview").inner_text()
    page.click("#add")
    page.wait_for_selector("table.pad-history tr[data-hand='0']")
    totals = page.locator(".pad-total .score-value").all_inner_texts()
    assert totals == ["805", "-55"]
    assert page.locator(".pad-total.team-0 .togo").inner_text() == \
        pt["scorepad.to_go"].replace("{n}", str(5000 - 805))
    sheet = page.locator("#sheet").inner_text()
    assert pt["score.going_out"] in sheet and "805" in sheet
    assert fits_the_width(page)
    shot(page, "scorepad-phone-sheet-pt")
    # the keeper's link (with the key) reopens it for keeping; the address shows none
    assert "key=" not in page.url
    link = page.locator("#share input").nth(1).input_value()
    assert link.startswith(page.url + "#key=")
    assert page.errors == []

    desk = new_page(browser, DESKTOP, "en-US")
    desk.goto(link)
    desk.wait_for_selector("table.pad-history tr[data-hand='0']")
    assert desk.locator(".pad-total .score-value").all_inner_texts() == ["805", "-55"]
    assert desk.locator(".pad-total .who").all_inner_texts() == ["Ana & Bia", "Caio & Davi"]
    desk.locator("tr[data-hand='0']").click()
    desk.wait_for_selector("#sheet:not(.hidden) table")
    assert "Natural canasta" in desk.locator("#sheet").inner_text()
    shot(desk, "scorepad-desktop-en")
    # a count that no table can match is refused in the page's language, nothing stored
    t0d = team(desk, 0)
    t0d.locator("[name='canasta:natural']").fill("2")
    t0d.locator("[name='melded:10']").fill("9")
    desk.click("#add")
    desk.wait_for_function("document.getElementById('hand-error').textContent.length > 0")
    assert "too few melded cards" in desk.locator("#hand-error").inner_text()
    assert desk.locator("table.pad-history tr[data-hand]").count() == 1
    assert desk.errors == []


def test_the_lobby_follows_the_browser_language_and_the_switch(
        server: ServerProcess, browser: Any) -> None:
    ro, pt = catalogue("ro"), catalogue("pt")
    page = new_page(browser, PHONE, "ro-RO")
    page.goto(server.base + "/")
    page.wait_for_selector(".seat-row")
    assert page.evaluate("document.documentElement.lang") == "ro"
    assert page.locator("[data-i18n='ui.create_table']").inner_text() == ro["ui.create_table"]
    assert page.locator(".lang-switch button").all_inner_texts() == ["EN", "IT", "PT", "RO"]
    # the first seat is not called "You" for the other players (it was)
    first = page.locator(".seat-row input").first
    assert first.input_value() == "" and first.get_attribute("placeholder") == ro["ui.name"]
    page.select_option("#variant", "romanian")
    page.click("#options-box summary")
    options = page.locator("#options").text_content()
    assert ro["option.surprises"] in options and ro["choice.none"] in options
    assert ro["option.romanian.surprises.description"] in options
    assert page.locator("#variant option:checked").inner_text() == ro["variant.romanian"]
    shot(page, "lobby-phone-ro")
    page.click(".lang-switch button[data-lang='pt']")
    page.wait_for_function("document.documentElement.lang === 'pt'")
    options = page.locator("#options").text_content()
    assert pt["option.surprises"] in options and pt["option.romanian.tiles.description"] in options
    assert page.locator("#variant option:checked").inner_text() == pt["variant.romanian"]
    assert page.locator("[data-i18n='ui.create_table']").inner_text() == pt["ui.create_table"]
    page.reload()
    page.wait_for_selector(".seat-row")
    assert page.evaluate("document.documentElement.lang") == "pt"   # the choice is kept
    assert fits_the_width(page)
    shot(page, "lobby-phone-pt")
    # a person left unnamed is named in the page's language, not the server's "Player 1"
    page.select_option("#variant", "international")
    page.select_option("#players", "4")
    page.click("#create-btn")
    page.wait_for_selector("#sit:visible")
    assert pt["ui.player_n"].replace("{n}", "1") in page.inner_text("#links")
    assert "Player 1" not in page.inner_text("#created")
    # the link's Open button too (it read "open", the catalogue key missing its "ui.")
    assert page.locator("#links a.btn").first.inner_text() == pt["ui.open"]
    assert page.errors == []


def test_the_table_page_speaks_the_chosen_language(server: ServerProcess,
                                                  browser: Any) -> None:
    """A refusal, the log and the seats in Italian: no English left on the table; a side's
    verb agrees with it (it read "Bot 2 & Bot 4 has opened")."""
    it = catalogue("it")
    status, created = server.request("POST", "/api/tables", {
        "variant": "classic_italian", "players": 4,
        "seats": [{"type": "human", "name": "Ada"}] + [{"type": "bot", "level": "greedy"}] * 3})
    assert status == 201
    page = new_page(browser, DESKTOP, "it-IT")
    page.goto(server.base + created["seats"][0]["path"])
    page.wait_for_function("document.body.dataset.version !== undefined")
    page.wait_for_function("document.body.dataset.myTurn === 'yes'", timeout=20_000)
    assert page.locator("[data-i18n='ui.stock']").text_content() == it["ui.stock"]
    assert page.locator("[data-action=draw]").text_content() == it["ui.draw"]
    # a discard before drawing is refused in Italian, with the seed's own sentence
    res = page.evaluate("""async () => {
        const r = await fetch(location.pathname.replace('/t/', '/api/tables/') + '/actions', {
          method: 'POST', headers: {'Content-Type': 'application/json'},
          body: JSON.stringify({token: new URLSearchParams(location.hash.slice(1)).get('seat'),
                                version: Number(document.body.dataset.version),
                                action: {type: 'discard', card: S.view.hand[0]}})});
        const data = await r.json();
        return refusalText(data.refusal);
    }""")
    assert res.startswith(it["refusal.not_allowed"].split("{")[0])
    assert "001" in res and "«" in res   # the seed sentence of classic_italian
    opened = page.evaluate("""() => [1, 0].map((team) =>
        entryText({key: "event.opened", values: {points: 50}, team}))""")
    assert opened == ["Bot 2 & Bot 4 hanno aperto con 50 punti.",
                      "La tua squadra ha aperto con 50 punti."]
    shot(page, "table-desktop-it")
    assert page.errors == []


def test_on_a_phone_in_italian_the_action_bar_never_covers_the_hand(
        server: ServerProcess, browser: Any) -> None:
    """Fixed: "on a phone in Italian the second row of cards sits under the fixed action
    bar". The Italian buttons wrap to two rows; the hand above keeps room for the bar."""
    status, created = server.request("POST", "/api/tables", {
        "variant": "classic_italian", "players": 2,
        "seats": [{"type": "human", "name": "Ada"}, {"type": "bot", "level": "greedy"}]})
    assert status == 201
    page = new_page(browser, PHONE, "it-IT")
    page.goto(server.base + created["seats"][0]["path"])
    page.wait_for_function("document.body.dataset.myTurn === 'yes'", timeout=20_000)
    v = page.evaluate("document.body.dataset.version")
    page.click("[data-action=draw]")
    page.wait_for_function(f"document.body.dataset.version !== '{v}'")
    page.locator(".hand .card").first.click(position={"x": 8, "y": 30})
    page.wait_for_selector("[data-action=discard]")
    # Whatever the bar's height (two rows of Italian buttons, here made taller still), the
    # last card scrolled into view stays above it, and so does the end of the page.
    for extra in (0, 90):
        page.evaluate(f"document.getElementById('actions').style.paddingTop = '{extra}px'")
        page.wait_for_timeout(150)
        page.evaluate("[...document.querySelectorAll('.hand .card')].pop()"
                      ".scrollIntoView({block: 'end'})")
        page.wait_for_timeout(150)
        bar = page.evaluate("document.getElementById('actions').getBoundingClientRect().top")
        card = page.evaluate("[...document.querySelectorAll('.hand .card')].pop()"
                             ".getBoundingClientRect().bottom")
        assert card <= bar, (extra, card, bar)
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        page.wait_for_timeout(100)
        last = page.evaluate("document.querySelector('.side').getBoundingClientRect().bottom")
        bar = page.evaluate("document.getElementById('actions').getBoundingClientRect().top")
        assert last <= bar + 1, (extra, last, bar)
    # the log scrolled under the bar does not show through it (it did, at 96 % opacity)
    colour = page.evaluate("getComputedStyle(document.getElementById('actions'))"
                           ".backgroundColor")
    assert colour.startswith("rgb(") or colour.endswith(", 1)"), colour
    shot(page, "table-phone-it")
    assert page.errors == []
