"""Run the web server with uvicorn (used by ``canasta serve`` and ``python -m canasta.web``)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from canasta.web.limits import ServerLimits

DEFAULT_DB = "sqlite:///canasta-tables.sqlite3"


def run(host: str = "127.0.0.1", port: int = 8000, db: str = DEFAULT_DB,
        bot_delay: float = 0.6, log_level: str = "info", away_after: float = 45.0,
        limits: ServerLimits | None = None) -> None:
    """Serve until interrupted. ``db``: a SQLAlchemy URL, a PostgreSQL URL
    (``postgresql://user@host/db``, driven by psycopg 3) or a SQLite file path. ``limits``:
    sizes and rates (canasta.web.limits; the ``CANASTA_*`` variables by default)."""
    try:
        import uvicorn

        from canasta.web.app import create_app
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise SystemExit(f"canasta serve needs the web extra: pip install 'canasta[web]' "
                         f"({exc.name} is missing)") from None
    logging.basicConfig(level=log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    if log_level.lower() != "debug":
        logging.getLogger("alembic").setLevel(logging.WARNING)
    app = create_app(db, bot_delay=bot_delay, away_after=away_after, limits=limits)
    # a message over the app's 16 KiB gets an error; over 64 KiB the WebSocket library
    # closes the connection (1009, message too big) before the app sees it
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=65_536,
                ws_ping_interval=20, ws_ping_timeout=20)
