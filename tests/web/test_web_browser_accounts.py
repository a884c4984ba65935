"""Accounts and ratings in a real browser (Playwright driving Debian's Chromium): a person
registers, sets the preferences the table uses, starts a rated match against bots, abandons
it (the shortest real way to a rated result: abandoning counts as a loss), sees the rating
move on the leaderboard and in the history, has the table page speak the account's language,
changes the password and deletes the account; and two people, each in a browser of their
own, play a whole rated match against each other and see their ratings move apart. axe-core
finds nothing serious or critical on any of those pages. Screenshots at desktop and phone
size go to /tmp/shots/accounts/ (and test-artefacts/web/) to be looked at."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from canasta.bots import make_bot
from canasta.i18n import catalogue
from canasta.web.play.game import Game
from canasta.web.storage.store import Store
from conftest import ARTEFACTS, ServerProcess, axe_findings

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}
SHOTS = Path("/tmp/shots/accounts")
PASSWORD = "a long enough secret"
NEW_PASSWORD = "another long secret"

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
    axe: dict[str, list[str]] = {"desktop sign-in": axe_findings(page)}
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
    axe["desktop profile"] = axe_findings(page)
    page.click("#play-start")
    page.wait_for_url("**/t/**")
    page.wait_for_selector("#rated-bar[data-status='playing'] #abandon")
    page.wait_for_selector("#hand .card")
    assert page.evaluate("document.body.classList.contains('four-colour')")
    assert page.evaluate("document.body.dataset.sort") == "suit"
    assert en["acct.rated_playing"] in page.locator("#rated-bar").inner_text()
    table_path = page.url.split("#")[0].split(server.base)[1]
    shot(page, "desktop-table")
    axe["desktop rated table"] = axe_findings(page)
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
    axe["desktop leaderboard"] = axe_findings(page)

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
    axe["phone profile"] = axe_findings(phone)
    phone.goto(server.base + "/leaderboard/international")
    phone.wait_for_selector("body[data-ready='1'] #board tr.me")
    assert fits_the_width(phone)
    shot(phone, "phone-leaderboard")
    axe["phone leaderboard"] = axe_findings(phone)
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

    # a new password: the wrong current one is refused, the right one changes it
    phone.goto(server.base + "/account")
    phone.wait_for_selector("body[data-ready='1'] #profile:not(.hidden)")
    assert phone.input_value("#pw-name") == "Ada Lovelace"
    old_session = {c["name"]: c["value"] for c in ctx.cookies()}["canasta_session"]
    phone.fill("#pw-current", "not my password")
    phone.fill("#pw-new", NEW_PASSWORD)
    phone.click("#pw-save")
    phone.wait_for_selector("#acct-msg.error:not(.hidden)")
    assert phone.locator("#acct-msg").inner_text() == pt["acct.err_wrong_password"]
    phone.fill("#pw-current", PASSWORD)
    phone.click("#pw-save")
    phone.wait_for_selector("#acct-msg:not(.error):not(.hidden)")
    assert phone.locator("#acct-msg").inner_text() == pt["acct.password_changed"]
    assert phone.input_value("#pw-current") == phone.input_value("#pw-new") == ""
    new_session = {c["name"]: c["value"] for c in ctx.cookies()}["canasta_session"]
    assert new_session != old_session  # this browser signed in anew, the old sign-in ended
    status, me = server.request("GET", "/api/accounts/me",
                                headers={"Cookie": f"canasta_session={old_session}"})
    assert status == 200 and me["account"] is None

    # delete (with the new password): the account and its rating are gone
    phone.fill("#delete-password", NEW_PASSWORD)
    phone.click("#delete-go")
    phone.wait_for_selector("#signin:not(.hidden)")
    assert phone.locator("#acct-msg").inner_text() == pt["acct.deleted"]
    status, board = server.request("GET", "/api/leaderboard/international")
    assert status == 200 and "Ada Lovelace" not in {p["name"] for p in board["players"]}
    assert "canasta_session" not in {c["name"] for c in ctx.cookies()}
    assert errors == []
    assert axe == {k: [] for k in axe}  # axe-core: nothing serious or critical


def register_in(ctx: Any, base: str, name: str, axe: dict[str, list[str]]) -> Any:
    """A page of ``ctx`` on which ``name`` has just created an account (the account page's
    form), the profile shown; axe-core's findings on the sign-in form go to ``axe``."""
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.goto(base + "/account")
    page.wait_for_selector("body[data-ready='1'] #signin:not(.hidden)")
    axe[f"sign-in at {page.viewport_size['width']} px"] = axe_findings(page)
    page.fill("#name", name)
    page.fill("#password", PASSWORD)
    page.click("#do-register")
    page.wait_for_selector("#profile:not(.hidden)")
    return page


def play_the_match(server: ServerProcess, table: str, tokens: list[str]) -> Game:
    """Both people play the whole match through the API, each with their own seat's token:
    a greedy bot in the test chooses each move from that seat's own view, on a copy of the
    match taken from the server's database at each deal (only the seat's view is looked
    at; the server checks every move). Returns the copy at the match's end."""
    store = Store(server.db)
    choosers = [make_bot("greedy", seed=seat) for seat in range(len(tokens))]
    try:
        while True:
            data = store.load_live(table)
            assert data is not None
            game, version = Game.from_data(data, ["", ""]), data.version
            while not game.state.is_over:
                seat = game.state.actor
                action = choosers[seat].choose(game.view(seat))
                status, body = server.request("POST", f"/api/tables/{table}/actions", {
                    "token": tokens[seat], "version": version, "text": action.text()})
                assert status == 200, body
                version = body["version"]
                game.apply(action)
            if game.match.is_over:
                return game
            status, body = server.request("POST", f"/api/tables/{table}/next-hand",
                                          {"token": tokens[0], "version": version})
            assert status == 200, body
    finally:
        store.dispose()


def test_two_people_play_a_rated_match_and_their_ratings_move_apart(
        server: ServerProcess, browser: Any) -> None:
    """Ann and Bea, each in a browser of their own, register on the account page; Ann starts
    a rated match of two against a person and sends Bea the link the page shows; both sit
    with their accounts, play the whole match (the international game to 5,000, the
    shortest a rated table allows: no house rules, so no lower target), and the winner's
    rating rises as much as the loser's falls, on the leaderboard and in both profiles."""
    en = catalogue("en")
    ann_ctx = browser.new_context(viewport=DESKTOP, locale="en-US", bypass_csp=True)
    bea_ctx = browser.new_context(viewport=PHONE, locale="en-US", bypass_csp=True,
                                  is_mobile=True, has_touch=True)
    axe: dict[str, list[str]] = {}
    ann = register_in(ann_ctx, server.base, "Ann Smith", axe)
    bea = register_in(bea_ctx, server.base, "Bea Jones", axe)

    # Ann: a rated match of two against a person; the page shows Bea's link, once
    ann.select_option("#play-players", "2")
    ann.select_option("#play-with", "person")
    ann.click("#play-start")
    ann.wait_for_selector("#invite:not(.hidden)")
    link = ann.input_value("#invite-link")
    assert link.startswith(server.base + "/t/") and "#seat=" in link
    shot(ann, "desktop-invite")
    axe["desktop profile with the link"] = axe_findings(ann)
    ann.click("#invite-go")
    ann.wait_for_url("**/t/**")
    table = ann.url.split("/t/")[1].split("#")[0]
    tokens = [ann.url.split("#seat=")[1], link.split("#seat=")[1]]
    assert link.split("/t/")[1].split("#")[0] == table and tokens[0] != tokens[1]
    # Bea opens her link signed in: the page sits her there with her account
    bea.goto(link)
    for page in (ann, bea):
        page.wait_for_selector("#rated-bar[data-status='playing'] #abandon")
        page.wait_for_selector("#hand .card")
    status, info = server.request("GET", f"/api/accounts/tables/{table}")
    assert [s["account"] for s in info["seats"]] == ["Ann Smith", "Bea Jones"]
    assert all(s["human"] for s in info["seats"])
    # Bea's seat took her account's name: Ann's page says it without a reload
    ann.wait_for_selector(".seat:has-text('Bea Jones')")

    started = time.monotonic()
    game = play_the_match(server, table, tokens)
    print(f"the match: {len(game.match.hands)} hands in {time.monotonic() - started:.1f} s")
    winner = game.match.winner
    names = ["Ann Smith", "Bea Jones"]
    # the pages see the match end and ask for its standing at once: settled
    for page in (ann, bea):
        page.wait_for_selector("#rated-bar[data-status='settled']")
        assert page.locator("#abandon").count() == 0
        # the match's last sheet, with the winner, even where an earlier hand's stayed open
        page.wait_for_selector("#sheet:not(.hidden)")
        page.wait_for_function("document.getElementById('sheet-title').textContent"
                               ".includes('wins the match')")
    shot(bea, "phone-rated-over")
    axe["phone rated table, settled"] = axe_findings(bea)

    # the leaderboard: both, the winner above 1500 and the loser below by as much
    ann.goto(server.base + "/leaderboard/international")
    ann.wait_for_selector("body[data-ready='1'] #board tr.me")
    rows = {r.locator(".who").inner_text().split(" provisional")[0]:
            r for r in ann.locator("#board tr:not(.bot):has(td.who)").all()}
    assert set(rows) >= set(names)
    shown = {n: int(rows[n].locator(".rating").inner_text().split()[0]) for n in names}
    up, down = names[winner], names[1 - winner]
    assert shown[up] > 1500 > shown[down]
    assert abs((shown[up] - 1500) - (1500 - shown[down])) <= 1
    assert "Ann Smith" in ann.locator("#board tr.me").inner_text()
    shot(ann, "desktop-leaderboard-two")
    status, board = server.request("GET", "/api/leaderboard/international")
    record = {p["name"]: (p["wins"], p["losses"]) for p in board["players"]}
    assert record[up] == (1, 0) and record[down] == (0, 1)

    # each profile: the rated match, its result and the rating's move
    for page, me in ((ann, 0), (bea, 1)):
        page.goto(server.base + "/account")
        page.wait_for_selector("body[data-ready='1'] #profile:not(.hidden)")
        row = page.locator(f"#history tr[data-table='{table}']")
        assert row.count() == 1
        won = me == winner
        assert row.locator(".result").inner_text() == en[
            "acct.result_win" if won else "acct.result_loss"]
        change = row.locator("td.num")
        assert change.get_attribute("class") == ("num up" if won else "num down")
        assert ("(+" in change.inner_text()) == won
    assert fits_the_width(bea)
    shot(bea, "phone-profile-two")
    axe["phone profile with the match"] = axe_findings(bea)
    assert ann.errors == [] and bea.errors == []
    assert axe == {k: [] for k in axe}  # axe-core: nothing serious or critical
    ann_ctx.close()
    bea_ctx.close()
