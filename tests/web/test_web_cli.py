"""`canasta serve` is registered and passes its options to the server."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from canasta.cli import _register, app
from canasta.web.protocol.limits import ServerLimits


def test_serve_is_a_command_with_its_options(monkeypatch: Any) -> None:
    import canasta.web.server as server

    _register()
    runner = CliRunner()
    result = runner.invoke(app, ["serve", "--help"])
    assert result.exit_code == 0, result.output
    for option in ("--db", "--bot-delay", "--port", "--host", "--away-after", "--redis",
                   "--workers", "--keep-finished", "--keep-abandoned"):
        assert option in result.output
    calls = []
    monkeypatch.setattr(server, "run", lambda *args, **kw: calls.append((*args, kw)))
    result = runner.invoke(app, ["serve", "--port", "8123", "--db",
                                 "postgresql://postgres@127.0.0.1/test", "--bot-delay", "0",
                                 "--away-after", "20", "--redis", "redis://127.0.0.1:6379/0",
                                 "--workers", "2", "--keep-finished", "3600",
                                 "--seat-rate", "5", "--create-burst", "3"])
    assert result.exit_code == 0, result.output
    assert calls == [("127.0.0.1", 8123, "postgresql://postgres@127.0.0.1/test", 0.0, "info",
                      20.0, "redis://127.0.0.1:6379/0", 2, "canasta", 3600.0, None,
                      {"limits": ServerLimits(seat_rate=5.0, create_burst=3)})]
    assert "http://127.0.0.1:8123/" in result.output


def test_several_workers_need_postgresql_and_redis() -> None:
    import pytest

    from canasta.web.server import _check

    with pytest.raises(SystemExit, match="PostgreSQL"):
        _check("sqlite:///x.sqlite3", "redis://127.0.0.1:6379/0", 2)
    with pytest.raises(SystemExit, match="Redis"):
        _check("postgresql://postgres@127.0.0.1/test", None, 2)
    _check("sqlite:///x.sqlite3", None, 1)


def test_limits_come_from_the_environment_and_the_options(monkeypatch: Any) -> None:
    from canasta.web.__main__ import limits_of

    monkeypatch.setenv("CANASTA_SEAT_BURST", "7")
    monkeypatch.setenv("CANASTA_CREATE_RATE", "0.5")
    assert limits_of(seat_rate=2) == ServerLimits(seat_burst=7, create_rate=0.5, seat_rate=2)
    monkeypatch.setenv("CANASTA_SEAT_BURST", "many")
    with pytest.raises(ValueError, match="CANASTA_SEAT_BURST"):
        limits_of()


def test_python_m_canasta_web_explains_every_option(capsys: Any) -> None:
    """`python -m canasta.web --help` showed --host, --port, --db, --bot-delay and --log-level
    bare, under a description with reStructuredText backticks."""
    from canasta.web.__main__ import main

    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    assert exited.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "``" not in out
    for words in ("--port PORT port to listen on", "--db DB database URL",
                  "--bot-delay BOT_DELAY seconds a bot waits", "--host HOST address"):
        assert words in out, out
