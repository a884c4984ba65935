"""The test command also runs the linters: ruff on everything, mypy --strict on the whole
package (engine, formats, bots, front ends, server, environments; the untyped RL libraries
are let through by pyproject.toml's overrides)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "src/canasta"


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_clean() -> None:
    result = _run([sys.executable, "-m", "ruff", "check", "src", "tests"])
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_mypy_strict_whole_package() -> None:
    result = _run([sys.executable, "-m", "mypy", "--strict", PACKAGE])
    assert result.returncode == 0, result.stdout + result.stderr
