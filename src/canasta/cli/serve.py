"""`canasta serve`: the browser front end (tables for people and bots)."""

from __future__ import annotations

import typer

from canasta.web.server import DEFAULT_DB


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""

    @app.command()
    def serve(
        host: str = typer.Option("127.0.0.1", help="Address to listen on."),
        port: int = typer.Option(8000, help="Port to listen on."),
        db: str = typer.Option(
            DEFAULT_DB, "--db",
            help="Database URL: a SQLite file (default, in the current directory) or "
                 "postgresql://user@host/db.",
        ),
        bot_delay: float = typer.Option(0.6, "--bot-delay", min=0.0,
                                        help="Seconds a bot waits before each move."),
        log_level: str = typer.Option("info", help="uvicorn log level."),
        away_after: float = typer.Option(
            45.0, "--away-after", min=0.0,
            help="Seconds a disconnected person's turn waits before a bot plays it."),
        redis: str = typer.Option(
            None, "--redis",
            help="Redis URL (redis://127.0.0.1:6379/0): several processes on one "
                 "PostgreSQL database publish their changes through it."),
        workers: int = typer.Option(
            1, "--workers", min=1,
            help="Processes started behind the one port (needs PostgreSQL and --redis)."),
        prefix: str = typer.Option("canasta", "--prefix", help="Redis channel prefix."),
        keep_finished: float = typer.Option(
            None, "--keep-finished", min=0.0,
            help="Seconds a table is kept once its match is over (default a day)."),
        keep_abandoned: float = typer.Option(
            None, "--keep-abandoned", min=0.0,
            help="Seconds a table in play is kept while nobody moves (default a week)."),
        seat_rate: float | None = typer.Option(
            None, "--seat-rate", help="Messages a second a seat may send after its burst "
                                      "(50; CANASTA_SEAT_RATE)."),
        seat_burst: int | None = typer.Option(
            None, "--seat-burst", help="Messages a seat may send at once (200)."),
        create_rate: float | None = typer.Option(
            None, "--create-rate", help="Tables and scorepads a second one address may "
                                        "create after its burst (0.1)."),
        create_burst: int | None = typer.Option(
            None, "--create-burst", help="Tables and scorepads one address may create at "
                                         "once (30)."),
    ) -> None:
        """Serve tables in the browser: create one, send the invitation links, play."""
        from canasta.web.__main__ import limits_of
        from canasta.web.server import run

        try:
            limits = limits_of(seat_rate, seat_burst, create_rate, create_burst)
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None
        typer.echo(f"canasta: open http://{host}:{port}/ to create a table (database {db})")
        run(host, port, db, bot_delay, log_level, away_after, redis, workers, prefix,
            keep_finished, keep_abandoned, limits=limits)
