"""The offline table (canasta.web.offline, static/offline.*): its routes, the engine it
loads replaying the golden transcripts in Pyodide, and a hand played in Chromium with the
network gone. Pyodide comes from the npm registry (``npm ci`` at the repository's root, as
.ci/run does); where it is missing the Pyodide tests skip and say so (CI: a failure)."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest

from canasta.offline.bundle import bundle, bundle_hash
from canasta.web.offline import PYODIDE_FILES, pyodide_dir
from conftest import ARTEFACTS, ROOT, ServerProcess, axe_findings

CHROMIUM = Path("/usr/bin/chromium")
NO_PYODIDE = "Pyodide is not installed: run `npm ci` at the repository's root"
needs_pyodide = pytest.mark.skipif(pyodide_dir() is None, reason=NO_PYODIDE)


def test_the_page_allows_webassembly_and_nothing_else_more(client: Any) -> None:
    r = client.get("/offline/")
    assert r.status_code == 200 and "offline.js" in r.text
    csp = r.headers["content-security-policy"]
    assert "script-src 'self' 'wasm-unsafe-eval';" in csp
    assert "unsafe-inline" not in csp and "'unsafe-eval'" not in csp
    assert "frame-ancestors 'none'" in csp and "{ws}" not in csp
    assert client.get("/offline", follow_redirects=False).headers["location"] == "/offline/"
    # every other page keeps the strict policy
    assert "wasm-unsafe-eval" not in client.get("/").headers["content-security-policy"]


def test_the_engine_bundle_is_served_with_its_hash_as_etag(client: Any) -> None:
    r = client.get("/offline/canasta.zip")
    assert r.status_code == 200 and r.content == bundle()
    assert r.headers["etag"] == f'"{bundle_hash()}"'
    names = zipfile.ZipFile(BytesIO(r.content)).namelist()
    assert "canasta/offline/table.py" in names
    again = client.get("/offline/canasta.zip", headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304 and again.content == b""


def test_the_service_worker_keeps_every_file_the_page_needs(client: Any) -> None:
    r = client.get("/offline/sw.js")
    assert r.status_code == 200 and r.headers["service-worker-allowed"] == "/offline/"
    assert "__VERSION__" not in r.text and "__FILES__" not in r.text
    files = json.loads(r.text.split("const FILES = ", 1)[1].split(";\n", 1)[0])
    page = client.get("/offline/").text
    for ref in ("/static/offline.js", "/static/cards.js", "/static/i18n.js",
                "/static/style.css", "/static/offline.css", "/offline/manifest.webmanifest"):
        assert ref in page and ref in files, ref
    assert {f"/offline/pyodide/{n}" for n in PYODIDE_FILES} <= set(files)
    assert {"/i18n/en.json", "/i18n/it.json", "/i18n/ro.json", "/i18n/pt.json"} <= set(files)
    assert f"canasta-offline-{bundle_hash()}" in r.text
    manifest = client.get("/offline/manifest.webmanifest")
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    data = manifest.json()
    assert data["start_url"] == "/offline/" and data["display"] == "standalone"
    assert client.get(data["icons"][0]["src"]).status_code == 200


def test_only_pyodides_own_files_are_served(client: Any, monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    for name in ("../../pyproject.toml", "package.json", "%2e%2e%2fsetup.py", "pyodide.js.map"):
        r = client.get(f"/offline/pyodide/{name}")
        assert r.status_code == 404, name
    monkeypatch.setenv("CANASTA_PYODIDE", str(tmp_path))  # an empty folder: not installed
    r = client.get("/offline/pyodide/pyodide.mjs")
    assert r.status_code == 404 and "npm ci" in r.json()["message"]
    status = client.get("/offline/status").json()
    assert status["pyodide"] is False and "npm ci" in status["help"]


@needs_pyodide
def test_the_status_says_the_page_can_run(client: Any) -> None:
    status = client.get("/offline/status").json()
    assert status["pyodide"] is True and status["help"] is None
    assert status["bundle"] == bundle_hash()
    r = client.get("/offline/pyodide/pyodide.asm.wasm")
    assert r.status_code == 200 and r.content[:4] == b"\0asm"


@pytest.mark.slow
@needs_pyodide
@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_pyodide_plays_the_golden_transcripts(tmp_path: Path) -> None:
    # the page's engine is the pure-Python core under Pyodide's CPython: every golden
    # transcript (every legal action, move, event and score of 18 hands) must come out the same
    path = tmp_path / "canasta.zip"
    path.write_bytes(bundle())
    out = subprocess.run(["node", str(ROOT / "tools" / "offline_golden.mjs"), str(path),
                          str(ROOT / "tests" / "golden"), str(pyodide_dir())],
                         capture_output=True, text=True, timeout=600)
    lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
    assert lines, out.stdout[-2000:] + out.stderr[-2000:]
    result = json.loads(lines[-1])
    assert result["files"] == 18 and result["compiled"] is False
    assert result["ok"], result["problem"]
    assert out.returncode == 0


# -- in Chromium ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("offline")
    srv = ServerProcess(f"sqlite:///{tmp / 'tables.sqlite3'}", log=tmp / "server.log")
    srv.start()
    yield srv
    srv.kill()


def _next_move(page: Any) -> bool:
    """One click of the person's: draw, else discard a card, else the first move; False when
    there is nothing to click (a bot's turn)."""
    for selector in ("#moves button[data-move=draw]", "#hand .card.playable", "#moves button"):
        target = page.locator(selector)
        if target.count():
            target.first.click()
            return True
    return False


@pytest.mark.browser
@pytest.mark.slow
@needs_pyodide
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium is not installed")
def test_a_hand_is_played_in_chromium_with_the_network_gone(server: ServerProcess) -> None:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=flags)
        # the page's own Content Security Policy applies (no bypass): WebAssembly must run
        ctx = browser.new_context(viewport={"width": 1280, "height": 800})
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.base + "/offline/?pace=0")  # the bots move without a pause
        page.wait_for_selector("body[data-ready=true]", state="attached", timeout=240_000)
        # the service worker has kept every file: the network can go
        page.wait_for_function("navigator.serviceWorker.controller !== null || "
                               "navigator.serviceWorker.ready", timeout=60_000)
        worker = urllib.request.urlopen(server.base + "/offline/sw.js").read().decode()
        files = json.loads(worker.split("const FILES = ", 1)[1].split(";\n", 1)[0])
        deadline = time.monotonic() + 120
        kept = 0
        while time.monotonic() < deadline:
            kept = page.evaluate("""async () => {
                const keys = await caches.keys();
                if (!keys.length) return 0;
                return (await (await caches.open(keys[0])).keys()).length; }""")
            if kept >= len(files):
                break
            page.wait_for_timeout(200)
        assert kept == len(files), f"the service worker kept {kept} of {len(files)} files"
        ctx.set_offline(True)
        page.reload()
        page.wait_for_selector("body[data-ready=true]", state="attached", timeout=240_000)
        assert "Ready" in page.text_content("#engine")
        axe = {"desktop, the settings": axe_findings(page)}
        page.select_option("#variant", "international")
        page.select_option("#players", "4")
        page.select_option("#level", "easy")
        page.click("#start")
        page.wait_for_selector("#hand .card", timeout=30_000)
        shot_taken = False
        for _ in range(800):
            if page.is_visible("#sheet"):
                break
            if not _next_move(page):
                page.wait_for_timeout(50)
            elif not shot_taken and page.locator("#hand .card.playable").count():
                page.screenshot(path=str(ARTEFACTS / "offline-table-desktop.png"))
                axe["desktop, the table"] = axe_findings(page)
                page.set_viewport_size({"width": 390, "height": 844})
                page.screenshot(path=str(ARTEFACTS / "offline-table-phone.png"), full_page=True)
                axe["phone, the table"] = axe_findings(page)
                page.set_viewport_size({"width": 1280, "height": 800})
                shot_taken = True
        assert page.is_visible("#sheet"), "the hand did not end"
        sheet = page.text_content("#sheet-body")
        assert "Hand total" in sheet and "Your side" in sheet
        page.screenshot(path=str(ARTEFACTS / "offline-sheet.png"))
        axe["desktop, the hand's sheet"] = axe_findings(page)
        page.click("#sheet-next")
        page.wait_for_selector("#hand .card", timeout=30_000)
        assert "Hand 2" in page.text_content("#hand-no")
        assert errors == []
        browser.close()
        assert axe == {k: [] for k in axe}  # axe-core: nothing serious or critical
