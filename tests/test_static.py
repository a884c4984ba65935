"""The test command also runs the linters: ruff on everything, mypy --strict on the engine
layers (cards, rules, actions, engine, scoring, match, records, bots)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENGINE_LAYERS = [
    "src/canasta/__init__.py", "src/canasta/core", "src/canasta/formats", "src/canasta/bots",
    "src/canasta/i18n",
]


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_clean() -> None:
    result = _run([sys.executable, "-m", "ruff", "check", "src", "tests"])
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_engine_layers() -> None:
    paths = [p for p in ENGINE_LAYERS if (ROOT / p).exists()]
    result = _run([sys.executable, "-m", "mypy", "--strict", *paths])
    assert result.returncode == 0, result.stdout + result.stderr
