"""Run the web server with uvicorn (used by ``canasta serve`` and ``python -m canasta.web``).

One process serves SQLite or PostgreSQL. Several processes (``workers`` > 1, or processes
started apart, on one or several machines) need PostgreSQL and Redis: they share the
database, and each publishes its changes through Redis so that every process serves every
table (:mod:`canasta.web.cluster.cluster`). ``workers`` starts them behind one port (uvicorn's
worker processes, which share the listening socket).
"""

from __future__ import annotations

import json
import logging
import os
import socket
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from canasta.web.protocol.limits import ServerLimits

DEFAULT_DB = "sqlite:///canasta-tables.sqlite3"
_ENV = "CANASTA_SERVE_CONFIG"


def _check(db: str, redis: str | None, workers: int) -> None:
    from canasta.web.storage.store import normalise_url

    if workers < 1:
        raise SystemExit("--workers must be at least 1")
    if workers > 1:
        if normalise_url(db).startswith("sqlite"):
            raise SystemExit("several workers need a PostgreSQL database (--db "
                             "postgresql://...): SQLite serves one process")
        if not redis:
            raise SystemExit("several workers need Redis to tell each other of changes "
                             "(--redis redis://127.0.0.1:6379/0)")


def app_from_env() -> Any:
    """The app of one worker, built from the settings the parent process put in the
    environment (uvicorn imports this factory in each worker)."""
    from canasta.web.app import create_app

    cfg = json.loads(os.environ[_ENV])
    return create_app(cfg["db"], bot_delay=cfg["bot_delay"], away_after=cfg["away_after"],
                      redis=cfg["redis"], prefix=cfg["prefix"], origin=cfg.get("origin"),
                      tuning=cfg.get("tuning"))


def run(host: str = "127.0.0.1", port: int = 8000, db: str = DEFAULT_DB,
        bot_delay: float = 0.6, log_level: str = "info", away_after: float = 45.0,
        redis: str | None = None, workers: int = 1, prefix: str = "canasta",
        keep_finished: float | None = None, keep_abandoned: float | None = None,
        ws_deflate: bool = True, lease: float | None = None, *,
        limits: ServerLimits | None = None) -> None:
    """Serve until interrupted. ``db``: a SQLAlchemy URL, a PostgreSQL URL
    (``postgresql://user@host/db``, driven by psycopg 3) or a SQLite file path. ``redis``:
    a Redis URL, for several processes on one PostgreSQL database; ``workers``: processes
    started here behind the one port. ``keep_finished`` / ``keep_abandoned``: seconds a
    table is kept once its match is over / while nobody moves (a day / a week).
    ``ws_deflate``: compress WebSocket messages (permessage-deflate; a state message of
    30 kB shrinks to a few kB, for about 0.3 ms of the server's time per message).
    ``lease``: seconds after which another process takes over the tables of a process
    that stopped (6). ``limits``: sizes and rates (canasta.web.protocol.limits), given to every
    worker as its ``CANASTA_*`` variables."""
    try:
        import uvicorn

        import canasta.web.app  # noqa: F401 - fails early without the web extra
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise SystemExit(f"canasta serve needs the web extra: pip install 'canasta[web]' "
                         f"({exc.name} is missing)") from None
    _check(db, redis, workers)
    logging.basicConfig(level=log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    if log_level.lower() != "debug":
        logging.getLogger("alembic").setLevel(logging.WARNING)
    tuning = {k: v for k, v in (("keep_finished", keep_finished),
                                ("keep_abandoned", keep_abandoned), ("lease", lease))
              if v is not None}
    cfg = {"db": db, "bot_delay": bot_delay, "away_after": away_after, "redis": redis,
           "prefix": prefix, "tuning": tuning,
           # one process on a port keeps its name across restarts, so that a restarted
           # server takes its tables' leases back at once; workers are named apart
           "origin": f"{socket.gethostname()[:24]}:{port}" if workers == 1 else None}
    os.environ[_ENV] = json.dumps(cfg)
    if limits is not None:  # each worker's create_app reads them (ServerLimits.from_env)
        os.environ.update(limits.to_env())
    uvicorn.run("canasta.web.server:app_from_env", factory=True, host=host, port=port,
                workers=workers if workers > 1 else None, log_level=log_level,
                # a message over the app's 16 KiB gets an error; over 64 KiB the WebSocket
                # library closes the connection (1009, message too big)
                ws_max_size=65_536, ws_ping_interval=20, ws_ping_timeout=20,
                ws_per_message_deflate=ws_deflate)
