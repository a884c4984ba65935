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
    for option in ("--db", "--bot-delay", "--port", "--host", "--away-after"):
        assert option in result.output
    calls = []
    monkeypatch.setattr(server, "run", lambda *args: calls.append(args))
    result = runner.invoke(app, ["serve", "--port", "8123", "--db",
                                 "postgresql://postgres@127.0.0.1/test", "--bot-delay", "0",
                                 "--away-after", "20"])
    assert result.exit_code == 0, result.output
    assert calls == [("127.0.0.1", 8123, "postgresql://postgres@127.0.0.1/test", 0.0, "info",
                      20.0)]
    assert "http://127.0.0.1:8123/" in result.output
