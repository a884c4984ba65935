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
    a = p.parse_args(argv)
    run(a.host, a.port, a.db, a.bot_delay, a.log_level, a.away_after)


if __name__ == "__main__":
    main()
