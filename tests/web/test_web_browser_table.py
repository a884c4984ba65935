"""The table for real players in a real browser: bots by level in the lobby, the
turn clock and the away bot, hints, the table at a glance (last moves, the card drawn, the
selection's points), buttons off while reconnecting, the hand end for two players, the open
tables of the lobby, the match end and the rematch; at desktop and phone sizes.

Screenshots go to $CANASTA_SHOTS (default test-artefacts/web/)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import CHROMIUM, DESKTOP, FLAGS, PHONE, new_page, version

from conftest import ARTEFACTS, ServerProcess, wait_for

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.skipif(
    not CHROMIUM.exists(),
                                reason="Debian's Chromium is not installed at /usr/bin/chromium")]
SHOTS = Path(os.environ.get("CANASTA_SHOTS", str(ARTEFACTS)))
SIZES = {"desktop": DESKTOP, "phone": PHONE}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("table")
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


def shot(page: Any, name: str, full: bool = False) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def table(server: ServerProcess, seats: list[str], **extra: Any) -> dict[str, Any]:
    body = {"players": len(seats), "level": "greedy",
            "seats": [{"type": k, "level": "greedy", "name": n}
                      for k, n in zip(seats, ["Ana", "Bruno", "Carla", "Davi"], strict=False)],
            **extra}
    status, created = server.request("POST", "/api/tables", body)
    assert status == 201, created
    return created


def my_turn(page: Any, phase: str = "draw") -> None:
    page.wait_for_function(f"document.body.dataset.myTurn === 'yes' && "
                           f"document.body.dataset.phase === '{phase}'", timeout=60_000)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_lobby_offers_bots_by_level_and_the_table_settings(server: ServerProcess,
                                                               browser: Any, size: str) -> None:
    page = new_page(browser, SIZES[size], locale="it-IT")
    page.goto(server.base + "/")
    page.wait_for_selector(".seat-row")
    levels = page.locator(".seat-row").nth(1).locator("select.level option").all_inner_texts()
    assert levels == ["facile", "medio", "difficile", "esperto"]
    assert page.locator(".seat-row").nth(1).locator("select.level").input_value() == "hard"
    page.click("#settings-box summary")
    clocks = page.locator("#clock option").all_inner_texts()
    assert clocks[0] == "senza limite" and "60 s per turno" in clocks
    assert page.is_checked("#hints") and not page.is_checked("#undo")
    shot(page, f"{size}-lobby", full=True)
    page.select_option("#clock", "60")
    page.check("#undo")
    page.click("#create-btn")
    page.wait_for_selector("#sit:visible")
    page.click("#sit")
    page.wait_for_selector(".hand .card")
    settings = page.evaluate("S.settings")
    assert settings["clock"] == 60 and settings["undo"] and settings["level"] == "hard"
    assert page.errors == []


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_mid_hand_a_hint_the_drawn_card_the_last_moves_and_the_points(
        server: ServerProcess, browser: Any, size: str) -> None:
    created = table(server, ["human", "bot", "bot", "bot"], clock=120)
    page = new_page(browser, SIZES[size])
    page.goto(server.base + created["seats"][0]["path"])
    my_turn(page)
    # the bots' moves: each beside its name, and the newest marked on the table
    assert page.locator(".seat .seat-last").count() >= 1
    assert page.locator(".fresh").count() >= 1
    assert "s left" in page.inner_text(".seat.me .seat-clock")
    # the turn's line offers the pile only when it can be taken
    takes = page.locator("[data-action=take-pile]").count()
    assert ("take the pile" in page.inner_text("#status")) == bool(takes)
    if not takes:
        assert "the pile cannot be taken now" in page.inner_text("#status")
    v = version(page)
    page.click("[data-action=draw]")
    page.wait_for_function(f"document.body.dataset.version !== '{v}'")
    assert page.locator(".hand .card.drawn").count() >= 1
    page.locator(".hand .card").first.click(position={"x": 8, "y": 30})
    assert page.inner_text("#sel-points").startswith("Selected: ")
    assert "of 50" in page.inner_text("#sel-points") or "opening" not in page.inner_text(
        "#sel-points")
    page.click("[data-action=hint]")
    page.wait_for_selector(".hint-list li", timeout=60_000)
    moves = page.locator(".hint-move b").all_inner_texts()
    assert moves and all(not m.startswith(("meld ", "discard ", "lay-off ")) for m in moves)
    assert page.locator(".hint-why li").count() >= 1
    assert " 1: " not in page.inner_text(".hint-list")  # "Meld of 10", never "of 1"
    shot(page, f"{size}-table-hint", full=True)
    # the highlight's animation, and none for who asks for reduced motion
    probe = ("(() => { const d = document.createElement('div'); d.className = 'anim';"
             " document.body.appendChild(d); const n = getComputedStyle(d).animationName;"
             " d.remove(); return n; })()")
    assert page.evaluate(probe) == "canasta-pop"
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(probe) == "none"
    # a side of two opens in the plural ("Bruno & Davi have opened"), never "has"
    assert not re.search(r"&[^\n]* has opened", page.inner_text("#log"))
    # the log writes cards as the hand shows them ("discards 7♥"), never as typed ("7h")
    log = page.inner_text("#log")
    assert re.search(r"(?:10|[2-9AKQJ])[♠♥♦♣]", log), log
    assert not re.search(r"\b(?:10|[2-9AKQJ])[shdc]\b", log), log
    assert page.errors == []


def test_the_clock_runs_out_a_bot_plays_and_the_player_is_back(server: ServerProcess,
                                                               browser: Any) -> None:
    created = table(server, ["human", "bot", "bot", "bot"], clock=2)
    page = new_page(browser, PHONE, locale="pt-BR")
    page.goto(server.base + created["seats"][0]["path"])
    page.wait_for_selector("#actions [data-action=take-back]", timeout=30_000)
    assert "um robô joga por você" in page.inner_text("#status")
    assert page.inner_text(".seat.me .tag.away") == "ausente — um robô joga"
    shot(page, "phone-pt-away")
    # the bots move every 50 ms and the page redraws each time: click the button as it is
    page.wait_for_function("""() => {
        const b = document.querySelector('#actions [data-action=take-back]');
        if (b) b.click();
        return !S.seats[S.you].away && S.seats[S.you].controller === 'human';
    }""", polling=200, timeout=20_000)
    assert page.errors == []


def test_buttons_are_off_while_reconnecting_and_a_move_then_is_not_lost_silently(
        server: ServerProcess, browser: Any) -> None:
    created = table(server, ["human", "bot"])
    page = new_page(browser, DESKTOP)
    page.goto(server.base + created["seats"][0]["path"])
    my_turn(page)
    server.kill()
    try:
        page.wait_for_function("document.body.dataset.conn === 'reconnecting'")
        assert page.locator("#actions button:enabled").count() == 0
        assert page.locator("#stock.clickable").count() == 0
        page.evaluate("act({type: 'draw'})")  # as a click that slipped through would
        page.wait_for_selector("#toast:not(.hidden)")
        assert "not sent" in page.inner_text("#toast")
        shot(page, "desktop-reconnecting")
    finally:
        server.start()
    page.wait_for_function("document.body.dataset.conn === 'online'", timeout=30_000)
    assert page.locator("[data-action=draw]:enabled").count() == 1


def test_at_hand_end_everyone_sees_the_cards_left_and_keeps_the_sheet(
        server: ServerProcess, browser: Any) -> None:
    """And in the next hand, one countdown that everyone sees: Ana's turn clock, then, once
    she has left, the away time that decides when a bot steps in for her."""
    created = table(server, ["human", "bot", "human", "bot"], clock=120)
    ana, carla = (new_page(browser, size) for size in (DESKTOP, PHONE))
    ana.goto(server.base + created["seats"][0]["path"])
    carla.goto(server.base + created["seats"][2]["path"])
    for page in (ana, carla):
        page.wait_for_selector(".hand .card")
    for seat in (0, 2):  # both give their seats to bots, which play the hand out
        tok = created["seats"][seat]["token"]
        status, _ = server.request("POST", f"/api/tables/{created['table']}/seats/{seat}/bot",
                                   {"token": tok, "level": "greedy"})
        assert status == 200
    for page in (ana, carla):
        page.wait_for_selector("#sheet:not(.hidden)", timeout=90_000)
        assert page.locator(".cards-left .left-row").count() == 4
        # every row of cards left names its player (the scorer numbers them within a side)
        assert "player" not in page.inner_text("#sheet-body").lower()
    shot(ana, "desktop-hand-end")
    shot(carla, "phone-hand-end", full=True)
    # on the phone the sheet scrolls, but its buttons stay whole at its foot, on top
    box = carla.locator("#sheet-next").bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"], box
    centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert carla.evaluate("([x, y]) => document.elementFromPoint(x, y).id", centre) == \
        "sheet-next"
    # Ana plays her seat again, so that the next hand waits for her: four bots with no delay
    # could play it out before Carla closes her sheet, which would then show that hand's
    ana.evaluate("send({type: 'take-back'})")
    ana.wait_for_function("S.seats[0].controller === 'human'")
    v = version(ana)
    ana.click("#sheet-next")
    carla.wait_for_function(f"document.body.dataset.version !== '{v}'")
    # Carla is still reading: her sheet stays, with Next hand no longer offered
    assert carla.locator("#sheet:not(.hidden)").count() == 1
    assert carla.locator("#sheet-next.hidden").count() == 1
    ana.wait_for_selector("#sheet.hidden", state="attached")
    carla.click("#sheet-close")
    carla.wait_for_selector("#sheet.hidden", state="attached")
    # Ana's turn: her clock, shown to her and to Carla alike, and sent to a spectator
    my_turn(ana)
    chip = ".seat[data-seat='0'] .seat-clock"
    carla.wait_for_function(f"S.clock && S.clock.seat === 0 && !S.clock.away && "
                            f"document.querySelector(\"{chip}\").textContent !== ''")
    readings = [int(re.sub(r"\D", "", p.inner_text(chip))) for p in (ana, carla)]
    _, spectator = server.request("GET", f"/api/tables/{created['table']}")
    assert spectator["clock"]["seat"] == 0 and not spectator["clock"]["away"]
    assert all(abs(n - spectator["clock"]["remaining"]) <= 3 for n in readings), \
        (readings, spectator["clock"])
    assert 45 < min(readings) and max(readings) <= 120
    # she leaves: the away time runs out first (45 s, the server's --away-after), and that is
    # the countdown Carla sees on Ana's seat and, playing her seat again, in her status line
    assert ana.errors == []
    ana.close()
    carla.wait_for_function("S.clock && S.clock.seat === 0 && S.clock.away")
    carla.evaluate("send({type: 'take-back'})")
    carla.wait_for_selector("#status .away-soon:not(:empty)")
    left = carla.inner_text(chip)
    assert re.fullmatch(r"left — a bot in \d+ s", left), left
    assert "Ana has left the table: a bot plays for them in" in carla.inner_text("#status")
    _, spectator = server.request("GET", f"/api/tables/{created['table']}")
    assert spectator["clock"]["away"] and spectator["clock"]["seconds"] == 45
    assert abs(int(re.sub(r"\D", "", left)) - spectator["clock"]["remaining"]) <= 3, \
        (left, spectator["clock"])
    shot(carla, "phone-away-soon")
    assert carla.errors == []


def test_a_slow_table_script_raises_no_error_in_the_page(server: ServerProcess,
                                                         browser: Any) -> None:
    """The clock's ticker (assist.js) ran before table.js, which declares the state ``S``,
    had arrived from a busy server: "S is not defined" twice in the whole suite. The script
    is held back here for a second, so the ticker surely runs first."""
    import time

    created = table(server, ["human", "bot"], clock=30)
    page = new_page(browser, DESKTOP)

    def slow(route: Any) -> None:
        time.sleep(1.0)
        route.continue_()

    page.route("**/static/table.js", slow)
    page.goto(server.base + created["seats"][0]["path"])
    page.wait_for_selector(".hand .card")
    assert page.errors == []


def test_a_free_seat_is_taken_from_the_open_tables_of_the_lobby(server: ServerProcess,
                                                                browser: Any) -> None:
    created = table(server, ["human", "bot", "open", "bot"], public=True)
    page = new_page(browser, PHONE)
    page.goto(server.base + "/")
    entry = page.locator(f".open-table[data-table='{created['table']}']")
    entry.wait_for()
    assert "1 free" in entry.inner_text()
    page.fill("#join-name", "Rui")
    shot(page, "phone-open-tables", full=True)
    pt = new_page(browser, PHONE, locale="pt-BR")  # one free seat is "1 livre", not "1 livres"
    pt.goto(server.base + "/")
    pt.locator(f".open-table[data-table='{created['table']}']").wait_for()
    assert "1 livre" in pt.locator(f".open-table[data-table='{created['table']}']").inner_text()
    assert "livres" not in pt.locator(f".open-table[data-table='{created['table']}']").inner_text()
    entry.locator("[data-action=join]").click()
    page.wait_for_selector(".hand .card")
    assert page.inner_text(".seat.me .seat-name") == "Rui"
    assert page.evaluate("S.you") == 2
    assert page.errors == []


def test_the_match_ends_with_the_winner_every_hand_and_a_rematch(server: ServerProcess,
                                                                 browser: Any) -> None:
    from sqlalchemy import update
    from sqlalchemy.orm import Session

    from canasta.web.storage.store import HandRow, Store

    created = table(server, ["human", "bot", "bot", "bot"])
    table_id, tok = created["table"], created["seats"][0]["token"]
    server.kill()
    store = Store(server.db)
    with Session(store.engine) as s, s.begin():  # a match that ends with its first hand
        s.execute(update(HandRow).where(HandRow.table_id == table_id)
                  .values(scores_before=[20_000, 0]))
    store.dispose()
    server.start()
    status, _ = server.request("POST", f"/api/tables/{table_id}/seats/0/bot",
                               {"token": tok, "level": "greedy"})
    assert status == 200
    wait_for(lambda: server.request("GET", f"/api/tables/{table_id}")[1]["match"]["over"],
             timeout=90, what="the match to end", every=0.25)
    # the same seat at both sizes (one finished match: it takes a whole hand of bots), then
    # the rematch from the phone
    pages = {size: new_page(browser, SIZES[size]) for size in ("desktop", "phone")}
    for size, page in pages.items():
        page.goto(server.base + created["seats"][0]["path"])
        page.wait_for_selector("#sheet:not(.hidden)")
        assert "won the match" in page.inner_text("#sheet-title").lower() or \
            "win" in page.inner_text("#sheet-title").lower()
        assert page.locator(".sheet-hands table.history tr").count() == 2
        shot(page, f"{size}-match-end", full=size == "phone")
    page = pages["phone"]
    page.click("#sheet-rematch")
    page.wait_for_url(lambda url: table_id not in url, timeout=20_000)
    assert tok not in page.url  # a token of its own for the rematch
    page.wait_for_selector(".hand .card")
    assert page.evaluate("S.you") == 0 and page.evaluate("S.hand_number") == 0
    assert pages["desktop"].errors == [] and page.errors == []


def test_undo_as_a_house_rule_and_no_hint_where_hints_are_off(server: ServerProcess,
                                                             browser: Any) -> None:
    created = table(server, ["human", "human"], undo=True, hints=False)
    tid = created["table"]
    toks = [s["token"] for s in created["seats"]]
    mine: dict[str, Any] | None = None  # a move's answer: the mover's view
    for _ in range(200):  # draw and discard through the API until a drawn hand can meld
        if mine is None or mine["view"]["actor"] != mine["you"]:
            _, pub = server.request("GET", f"/api/tables/{tid}")
            _, mine = server.request("GET", f"/api/tables/{tid}",
                                     token=toks[pub["view"]["actor"]])
        seat = mine["you"]
        legal = mine["view"]["legal"]
        if mine["view"]["phase"] == "play" and any(a["type"] == "meld" for a in legal):
            break
        kind = "draw" if mine["view"]["phase"] == "draw" else "discard"
        move = {k: x for k, x in next(a for a in legal if a["type"] == kind).items()
                if k != "text"}
        status, mine = server.request("POST", f"/api/tables/{tid}/actions",
                                      {"token": toks[seat], "version": mine["version"],
                                       "action": move}, token=None)
        assert status == 200, mine
    else:
        raise AssertionError("no hand could meld")
    page = new_page(browser, PHONE)
    page.goto(server.base + created["seats"][seat]["path"])
    my_turn(page, "play")
    assert page.locator("[data-action=hint]").count() == 0
    cards = page.locator(".hand .card").count()
    meld = next(a for a in legal if a["type"] == "meld")
    v = version(page)
    page.evaluate(f"act({{type: 'meld', cards: {meld['cards']!r}}})".replace("'", '"'))
    page.wait_for_function(f"document.body.dataset.version !== '{v}'")
    assert page.locator(".hand .card").count() < cards
    v = version(page)
    page.click("[data-action=undo]")
    page.wait_for_function(f"document.body.dataset.version !== '{v}'")
    assert page.locator(".hand .card").count() == cards
    assert page.locator("[data-action=undo]").count() == 0
    assert page.errors == []
