"""``python -m canasta.web``: the same server as ``canasta serve``, without Typer."""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any

from canasta.web.protocol.limits import ServerLimits
from canasta.web.server import DEFAULT_DB, run


def limits_of(seat_rate: float | None = None, seat_burst: int | None = None,
              create_rate: float | None = None, create_burst: int | None = None
              ) -> ServerLimits:
    """The limits of the environment (``CANASTA_*``), with the options given in place."""
    given: dict[str, Any] = {"seat_rate": seat_rate, "seat_burst": seat_burst,
                             "create_rate": create_rate, "create_burst": create_burst}
    return dataclasses.replace(ServerLimits.from_env(),
                               **{k: v for k, v in given.items() if v is not None})


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(
        prog="python -m canasta.web",
        description="The browser table's server: the same as `canasta serve`, without Typer.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    p.add_argument("--db", default=DEFAULT_DB,
                   help="database URL: a SQLite file (default, in the current directory) or "
                        "postgresql://user@host/db")
    p.add_argument("--bot-delay", type=float, default=0.6,
                   help="seconds a bot waits before each move (0.6)")
    p.add_argument("--log-level", default="info", help="uvicorn log level (info)")
    p.add_argument("--away-after", type=float, default=45.0,
                   help="seconds a disconnected person's turn waits before a bot plays it")
    p.add_argument("--redis", default=None,
                   help="Redis URL: several processes on one PostgreSQL database")
    p.add_argument("--workers", type=int, default=1,
                   help="processes behind the one port (needs PostgreSQL and --redis)")
    p.add_argument("--prefix", default="canasta", help="Redis channel prefix")
    p.add_argument("--keep-finished", type=float, default=None,
                   help="seconds a table is kept once its match is over (86400)")
    p.add_argument("--keep-abandoned", type=float, default=None,
                   help="seconds a table in play is kept while nobody moves (604800)")
    p.add_argument("--lease", type=float, default=None,
                   help="seconds before another process takes over the tables of one that "
                        "stopped renewing their leases (6)")
    p.add_argument("--no-ws-deflate", action="store_true",
                   help="do not compress WebSocket messages (saves server CPU)")
    p.add_argument("--seat-rate", type=float, default=None,
                   help="messages a second a seat may send after its burst (50)")
    p.add_argument("--seat-burst", type=int, default=None,
                   help="messages a seat may send at once (200)")
    p.add_argument("--create-rate", type=float, default=None,
                   help="tables and scorepads a second one address may create after its "
                        "burst (0.1)")
    p.add_argument("--create-burst", type=int, default=None,
                   help="tables and scorepads one address may create at once (30)")
    a = p.parse_args(argv)
    try:
        limits = limits_of(a.seat_rate, a.seat_burst, a.create_rate, a.create_burst)
    except ValueError as exc:
        p.error(str(exc))
    run(a.host, a.port, a.db, a.bot_delay, a.log_level, a.away_after, a.redis, a.workers,
        a.prefix, a.keep_finished, a.keep_abandoned, not a.no_ws_deflate, a.lease,
        limits=limits)


if __name__ == "__main__":
    main()
