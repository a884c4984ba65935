"""Suite-wide: in CI (``CI`` set), a skipped test fails the run.

The browser tests need Chromium and the storage tests PostgreSQL; elsewhere they skip and say
why (``-rs``), but CI installs and starts both, so a skip there means a test did not run.
"""

from __future__ import annotations

import os

import pytest
import typer.testing

_typer_command = typer.testing._get_command
_built: dict[tuple[int, int, int], tuple[object, object]] = {}


def _built_once(app: typer.Typer) -> object:
    """Typer builds the whole click command tree at every ``CliRunner.invoke`` (a tenth of a
    second for ``canasta``'s, most of a fuzzed CLI test's time): build it once per app and
    set of registered commands."""
    key = (id(app), len(app.registered_commands), len(app.registered_groups))
    hit = _built.get(key)
    if hit is None or hit[0] is not app:
        hit = _built[key] = (app, _typer_command(app))
    return hit[1]


typer.testing._get_command = _built_once  # type: ignore[assignment]

_skipped: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.skipped:
        _skipped.append(report.nodeid)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if os.environ.get("CI") and _skipped and exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if os.environ.get("CI") and _skipped:
        terminalreporter.write_line(
            f"CI: {len(_skipped)} test(s) skipped, which fails the run "
            f"(first: {_skipped[0]})", red=True)
