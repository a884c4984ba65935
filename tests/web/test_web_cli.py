"""`canasta serve` is registered and passes its options to the server."""

from __future__ import annotations

from typing import Any

from typer.testing import CliRunner

from canasta.cli import _register, app


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
    monkeypatch.setattr(server, "run", lambda *args: calls.append(args))
    result = runner.invoke(app, ["serve", "--port", "8123", "--db",
                                 "postgresql://postgres@127.0.0.1/test", "--bot-delay", "0",
                                 "--away-after", "20", "--redis", "redis://127.0.0.1:6379/0",
                                 "--workers", "2", "--keep-finished", "3600"])
    assert result.exit_code == 0, result.output
    assert calls == [("127.0.0.1", 8123, "postgresql://postgres@127.0.0.1/test", 0.0, "info",
                      20.0, "redis://127.0.0.1:6379/0", 2, "canasta", 3600.0, None)]
    assert "http://127.0.0.1:8123/" in result.output


def test_several_workers_need_postgresql_and_redis() -> None:
    import pytest

    from canasta.web.server import _check

    with pytest.raises(SystemExit, match="PostgreSQL"):
        _check("sqlite:///x.sqlite3", "redis://127.0.0.1:6379/0", 2)
    with pytest.raises(SystemExit, match="Redis"):
        _check("postgresql://postgres@127.0.0.1/test", None, 2)
    _check("sqlite:///x.sqlite3", None, 1)
