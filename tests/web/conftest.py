"""Fixtures of the web server tests: stores on SQLite and PostgreSQL, an app with a test
client, a real server process, and helpers that play through the API."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")


def pytest_configure(config: pytest.Config) -> None:
    # Starlette's test client still runs on httpx and says so; not our concern here.
    config.addinivalue_line("filterwarnings", "ignore:Using `httpx` with")
pytest.importorskip("sqlalchemy", reason="the web extra is not installed")

from canasta.web.storage.store import Store  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
ARTEFACTS = ROOT / "test-artefacts" / "web"
PG_URL = os.environ.get("CANASTA_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def pg_reachable() -> str | None:
    """None when PostgreSQL answers at PG_URL, else the reason it does not."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed"
    dsn = PG_URL.replace("postgresql+psycopg://", "postgresql://")
    try:
        with psycopg.connect(dsn, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:  # noqa: BLE001 - any failure means unreachable
        return f"PostgreSQL at {PG_URL} is unreachable: {exc}".splitlines()[0]
    return None


#: Storage back ends of the parametrized tests; PostgreSQL ones are marked ``db``.
BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.db)]
REDIS_URL = os.environ.get("CANASTA_TEST_REDIS", "redis://127.0.0.1:6379/0")


def redis_reachable() -> str | None:
    """None when Redis answers at REDIS_URL, else the reason it does not."""
    try:
        import redis
    except ImportError:
        return "the redis library is not installed"
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3).ping()
    except Exception as exc:  # noqa: BLE001 - any failure means unreachable
        return f"Redis at {REDIS_URL} is unreachable: {exc}".splitlines()[0]
    return None


@contextlib.contextmanager
def pg_database(prefix: str = "canasta_test") -> Iterator[str]:
    """A new PostgreSQL database for the test (dropped after it); its URL."""
    reason = pg_reachable()
    if reason:
        pytest.skip(reason)
    import psycopg

    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    admin = PG_URL.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield PG_URL.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def make_store(backend: str, tmp_path: Path) -> Store:
    if backend == "sqlite":
        return Store(f"sqlite:///{tmp_path / 'tables.sqlite3'}")
    reason = pg_reachable()
    if reason:
        pytest.skip(reason)
    return Store(PG_URL, schema=f"canasta_test_{uuid.uuid4().hex[:12]}")


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    s = make_store(request.param, tmp_path)
    s.migrate()
    yield s
    s.drop_schema()


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[Store]:
    s = Store(f"sqlite:///{tmp_path / 'tables.sqlite3'}")
    yield s
    s.dispose()


@pytest.fixture
def client(sqlite_store: Store) -> Iterator[Any]:
    yield from _client(sqlite_store)


@pytest.fixture(params=BACKENDS)
def any_client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    s = make_store(request.param, tmp_path)
    yield from _client(s)
    s.drop_schema()


def _client(store: Store) -> Iterator[Any]:
    from starlette.testclient import TestClient

    from canasta.web.app import create_app

    app = create_app(store=store, bot_delay=0)
    with TestClient(app) as c:
        c.store = store
        c.manager = app.state.manager
        yield c


# -- helpers -------------------------------------------------------------------------------
def create(client: Any, seats: list[str], variant: str = "international",
           **extra: Any) -> dict[str, Any]:
    """Create a table; ``seats`` like ["human", "bot", ...]. Returns the API's answer."""
    body = {"variant": variant, "players": len(seats),
            "seats": [{"type": k, "level": "greedy", "name": f"{k} {i}"}
                      for i, k in enumerate(seats)], **extra}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def view(client: Any, table: str, token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = client.get(f"/api/tables/{table}", headers=headers)
    assert r.status_code == 200, r.text
    return r.json()


def steady(msg: dict[str, Any]) -> dict[str, Any]:
    """A state message without what changes with time alone: the seconds left of its
    countdown (canasta.web.play.clock; a person not connected has one, her away time)."""
    clock = msg.get("clock")
    return {**msg, "clock": clock and {k: v for k, v in clock.items() if k != "remaining"}}


def from_address(client: Any, address: str) -> Any:
    """A test client of ``client``'s app that reaches it from ``address`` (its own per-address
    budgets), on ``client``'s event loop: a second client with a loop of its own would call
    into the app's tasks, locks and futures from another loop, and could wait forever."""
    from starlette.testclient import TestClient

    other = TestClient(client.app, client=(address, 4000))
    other.portal = client.portal
    return other


def wait_for(predicate: Any, timeout: float = 20.0, what: str = "condition",
             every: float = 0.01) -> Any:
    """The first true value of ``predicate``, asked each ``every`` seconds (a long wait on a
    server's table view asks less often: views spend the address's budget)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out waiting for {what}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``python -m canasta.web`` in a child process (killed with SIGKILL by the tests)."""

    def __init__(self, db: str, bot_delay: float = 0.0, log: Path | None = None,
                 redis: str | None = None, prefix: str | None = None,
                 extra: list[str] | None = None) -> None:
        self.db = db
        self.bot_delay = bot_delay
        self.redis = redis
        self.prefix = prefix
        self.extra = extra or []
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = log

    def start(self) -> None:
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        cluster = ["--redis", self.redis, "--prefix", self.prefix or "canasta"] \
            if self.redis else []
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "canasta.web", "--port", str(self.port), "--db", self.db,
             "--bot-delay", str(self.bot_delay), "--log-level", "warning", *cluster,
             *self.extra],
            stdout=out, stderr=out, cwd=ROOT,
        )
        end = time.monotonic() + 30
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}")
            with contextlib.suppress(OSError):
                urllib.request.urlopen(self.base + "/api/variants", timeout=1).read()
                return
            time.sleep(0.05)
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def request(self, method: str, path: str, body: Any = None,
                token: str | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        for name, value in (headers or {}).items():
            req.add_header(name, value)
        try:
            with urllib.request.urlopen(req, timeout=20) as resp:
                return resp.status, json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())


# -- accessibility -------------------------------------------------------------------------
_AXE_SOURCE: list[str] = []


def axe_findings(page: Any) -> list[str]:
    """axe-core's serious and critical findings on ``page`` as it is now: rule, impact,
    first nodes (axe-core as the axe-playwright-python package ships it, the test extra).
    The script is evaluated through the DevTools protocol, so a page's own Content Security
    Policy (the offline table's, the tournament page's) does not stop it."""
    if not _AXE_SOURCE:
        axe = pytest.importorskip("axe_playwright_python", reason="axe-playwright-python "
                                  "(the test extra) is not installed")
        _AXE_SOURCE.append(Path(axe.__file__).with_name("axe.min.js").read_text("utf-8"))
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(_AXE_SOURCE[0])
    result = page.evaluate("async () => { const r = await axe.run(document, "
                           "{resultTypes: ['violations']}); return r.violations.map(v => "
                           "({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map("
                           "n => n.target.join(' '))})); }")
    return [f"{v['id']} ({v['impact']}): {v['nodes']}" for v in result
            if v["impact"] in ("serious", "critical")]
