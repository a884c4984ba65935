"""The chat and a table everyone can read, in Chromium: preset phrases in each reader's
language, free text shown as text, mute and report; cards named for screen readers and a
move played with the keyboard alone; and an axe-core audit of the lobby, the table and the
scorepad at desktop (1280x800) and phone (390x844) size with no serious or critical finding.

Screenshots go to $CANASTA_SHOTS (default test-artefacts/web/)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import CHROMIUM, FLAGS, new_page

from canasta.web.storage import chatrows
from canasta.web.storage.store import Store
from conftest import ARTEFACTS, ServerProcess, axe_findings, wait_for

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
axe = pytest.importorskip("axe_playwright_python", reason="axe-playwright-python (the test "
                          "extra) is not installed")
pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's Chromium is not installed at /usr/bin/chromium")]
SHOTS = Path(os.environ.get("CANASTA_SHOTS", str(ARTEFACTS)))
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
#: a card's name for screen readers, in English
CARD_NAME = re.compile(
    r"^(joker|(ace|king|queen|jack|10|[2-9]) of (spades|hearts|diamonds|clubs))$")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("chat")
    srv = ServerProcess(f"sqlite:///{tmp / 'tables.sqlite3'}", bot_delay=0.05,
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


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def table(server: ServerProcess, seats: list[str], **extra: Any) -> dict[str, Any]:
    body = {"players": len(seats), "level": "greedy",
            "seats": [{"type": k, "level": "greedy", "name": n}
                      for k, n in zip(seats, ["Ana", "Bruno", "Carla", "Davi"], strict=False)],
            **extra}
    status, created = server.request("POST", "/api/tables", body)
    assert status == 201, created
    return created


def open_seat(browser: Any, server: ServerProcess, created: dict[str, Any], seat: int,
              size: str = "desktop", locale: str = "en-US") -> Any:
    page = new_page(browser, SIZES[size], locale=locale)
    page.goto(server.base + created["seats"][seat]["path"])
    page.wait_for_selector("#hand .card")
    return page


def chat_lines(page: Any) -> list[str]:
    return [t.strip() for t in page.locator("#chat-log li .said").all_inner_texts()]


def audit(page: Any) -> list[str]:
    """axe-core's serious and critical findings on the page: rule, impact, first nodes."""
    return axe_findings(page)


# -- the chat ----------------------------------------------------------------------------
def test_chat_presets_in_each_language_free_text_as_text_mute_and_report(
        server: ServerProcess, browser: Any) -> None:
    created = table(server, ["human", "human", "bot", "bot"], chat="free")
    ana = open_seat(browser, server, created, 0)
    bruno = open_seat(browser, server, created, 1, locale="it-IT")
    for page in (ana, bruno):
        page.click('.tab[data-tab="chat"]')
        page.wait_for_selector('#chat-presets button[data-preset="good_luck"]')
    ana.click('#chat-presets button[data-preset="good_luck"]')
    bruno.wait_for_function("document.querySelectorAll('#chat-log li .said').length >= 1")
    assert chat_lines(bruno) == ["Buona fortuna!"]  # the key, in the reader's language
    ana.wait_for_function("document.querySelectorAll('#chat-log li .said').length >= 1")
    assert chat_lines(ana) == ["Good luck!"]
    # free text is text: markup in it makes no element
    ana.fill("#chat-text", '<img src=x onerror="document.title=1"> ciao')
    ana.press("#chat-text", "Enter")
    bruno.wait_for_function("document.querySelectorAll('#chat-log li .said').length >= 2")
    assert chat_lines(bruno)[-1] == '<img src=x onerror="document.title=1"> ciao'
    assert bruno.locator("#chat-log img").count() == 0
    # Bruno reports it: the server keeps it with the table's record
    bruno.locator("#chat-log li").nth(1).locator("button.report").click()
    bruno.wait_for_selector("#toast:not(.hidden)")
    assert "registro" in bruno.inner_text("#toast")
    store = Store(server.db)
    try:
        reports = wait_for(lambda: chatrows.reports(store.engine, created["table"]),
                           what="the report stored")
    finally:
        store.dispose()
    assert [(r["by"], r["message"]["name"]) for r in reports] == [(1, "Ana")]
    assert reports[0]["message"]["text"].endswith("ciao")
    # Bruno mutes Ana: her next phrase does not reach him, his still reach her
    bruno.select_option('#chat-people select[data-seat="0"]', "mute")
    bruno.wait_for_function("document.querySelector('#chat-people select[data-seat=\"0\"]')"
                            ".value === 'mute'")
    shot(bruno, "desktop-chat")
    ana.click('#chat-presets button[data-preset="oops"]')
    ana.wait_for_function("document.querySelectorAll('#chat-log li .said').length >= 3")
    bruno.click('#chat-presets button[data-preset="thanks"]')
    ana.wait_for_function("document.querySelectorAll('#chat-log li .said').length >= 4")
    bruno.wait_for_function("document.querySelectorAll('#chat-log li .said').length >= 3")
    assert chat_lines(bruno) == ["Buona fortuna!", '<img src=x onerror="document.title=1"> ciao',
                                 "Grazie!"]
    assert chat_lines(ana)[-1] == "Thanks!"
    ana.context.close()
    bruno.context.close()
    phone = open_seat(browser, server, created, 1, size="phone")
    phone.click('.tab[data-tab="chat"]')
    phone.wait_for_selector("#chat-log li .said")
    phone.locator("#tab-chat").scroll_into_view_if_needed()
    shot(phone, "phone-chat")
    phone.context.close()


# -- keyboard and screen readers ---------------------------------------------------------
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_turn_played_with_the_keyboard_alone_and_cards_named(
        server: ServerProcess, browser: Any, size: str) -> None:
    created = table(server, ["human", "bot"])
    page = open_seat(browser, server, created, 0, size=size)
    page.wait_for_function("document.body.dataset.myTurn === 'yes' && "
                           "document.body.dataset.phase === 'draw'", timeout=60_000)
    names = page.locator("#hand .card").evaluate_all("cs => cs.map(c => c.getAttribute("
                                                     "'aria-label'))")
    assert names and all(CARD_NAME.match(n) for n in names), names
    assert "Stock" in (page.get_attribute("#stock", "aria-label") or "")
    assert page.get_attribute("#stock", "role") == "button"
    assert "Keys:" in page.inner_text("#keys-help")
    # on the phone (a touch screen, no mouse) the help line starts hidden; "?" shows it
    assert page.locator("#keys-help").is_visible() == (size == "desktop")
    if size == "desktop":  # the felt scrolled to its foot: the line clear of the action bar
        page.evaluate("document.querySelector('.felt').scrollTop = 1e6")
        keys, bar = page.locator("#keys-help").bounding_box(), page.locator(
            "#actions").bounding_box()
        assert keys is not None and bar is not None
        assert keys["y"] + keys["height"] <= bar["y"] + 1, (keys, bar)
    if size == "phone":
        page.locator("#hand .card").first.focus()
        page.keyboard.press("?")
        assert page.locator("#keys-help").is_visible()
    version = int(page.evaluate("document.body.dataset.version"))
    page.locator("#hand .card").first.focus()
    page.keyboard.press("d")  # draw
    page.wait_for_function("document.body.dataset.phase === 'play'")
    # Enter selects the focused card (focus stays on it); arrows walk the hand until a
    # card that may be discarded is selected
    page.wait_for_selector("#hand .card")
    page.locator("#hand .card").first.focus()
    for _ in range(20):
        page.keyboard.press("Enter")
        page.wait_for_selector('#hand .card[aria-pressed="true"]')
        assert page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"
        if page.locator('#actions button[data-action="discard"]:not([disabled])').count():
            break
        page.keyboard.press("Enter")  # not this one: let it go and try the next card
        page.keyboard.press("ArrowRight")
    shot(page, f"{size}-keyboard")
    page.keyboard.press("x")  # discard
    page.wait_for_function(f"Number(document.body.dataset.version) >= {version + 2} && "
                           "document.body.dataset.myTurn === 'no'", timeout=30_000)
    page.evaluate("localStorage.clear()")
    page.context.close()


def test_large_cards_and_high_contrast_are_kept_and_cards_read_in_italian(
        server: ServerProcess, browser: Any) -> None:
    created = table(server, ["human", "bot"])
    page = open_seat(browser, server, created, 0, locale="it-IT")
    before = page.locator("#hand .card").first.bounding_box()
    page.click("#large-cards")
    page.click("#high-contrast")
    assert page.get_attribute("#large-cards", "aria-pressed") == "true"
    after = page.locator("#hand .card").first.bounding_box()
    assert after["width"] > before["width"] * 1.3
    page.reload()
    page.wait_for_selector("#hand .card")
    assert page.evaluate("document.body.classList.contains('high-contrast') && "
                         "document.body.classList.contains('large-cards')")
    names = page.locator("#hand .card").evaluate_all("cs => cs.map(c => c.getAttribute("
                                                     "'aria-label'))")
    assert all(re.match(r"^(jolly|\S+ di (picche|cuori|quadri|fiori))$", n) for n in names), \
        names
    shot(page, "desktop-large-contrast")
    assert audit(page) == []
    page.evaluate("localStorage.clear()")
    page.context.close()


# -- the audit ---------------------------------------------------------------------------
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_axe_finds_nothing_serious_on_the_lobby_the_table_and_the_scorepad(
        server: ServerProcess, browser: Any, size: str) -> None:
    page = new_page(browser, SIZES[size])
    found: dict[str, list[str]] = {}
    page.goto(server.base + "/")
    page.wait_for_selector(".seat-row")
    found["lobby"] = audit(page)
    shot(page, f"{size}-axe-lobby")
    page.goto(server.base + "/scorepad")
    page.wait_for_selector("#variant option", state="attached")
    found["scorepad"] = audit(page)
    shot(page, f"{size}-axe-scorepad")
    created = table(server, ["human", "human", "bot", "bot"])
    page.goto(server.base + created["seats"][0]["path"])
    page.wait_for_selector("#hand .card")
    found["table"] = audit(page)
    page.click('.tab[data-tab="chat"]')
    page.wait_for_selector("#chat-presets button")
    found["table with the chat"] = audit(page)
    shot(page, f"{size}-axe-table")
    page.context.close()
    assert found == {k: [] for k in found}
