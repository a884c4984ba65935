"""Suite-wide: in CI (``CI`` set), a skipped test fails the run.

The browser tests need Chromium and the storage tests PostgreSQL; elsewhere they skip and say
why (``-rs``), but CI installs and starts both, so a skip there means a test did not run.
"""

from __future__ import annotations

import os

import pytest

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
