"""``python -m canasta.web``: the same server as ``canasta serve``, without Typer."""

from __future__ import annotations

import argparse

from canasta.web.server import DEFAULT_DB, run


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m canasta.web", description=__doc__)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--db", default=DEFAULT_DB)
    p.add_argument("--bot-delay", type=float, default=0.6)
    p.add_argument("--log-level", default="info")
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
    a = p.parse_args(argv)
    run(a.host, a.port, a.db, a.bot_delay, a.log_level, a.away_after, a.redis, a.workers,
        a.prefix, a.keep_finished, a.keep_abandoned, not a.no_ws_deflate, a.lease)


if __name__ == "__main__":
    main()
