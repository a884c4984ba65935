"""Helpers of the format tests (positions, hand results, records, replay, scorepad)."""

from __future__ import annotations

import json
import random
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from typer.testing import CliRunner

from canasta import PRESETS, State, load_preset
from canasta.core.rules import Rules, RulesError
from canasta.core.state import MisdealError


def loadable_presets() -> list[Rules]:
    """Every preset that loads now (presets being written may still be missing)."""
    out = []
    for name in PRESETS:
        try:
            out.append(load_preset(name))
        except RulesError as exc:
            if "unknown variant" not in str(exc):
                raise
    return out


def preset_params() -> list[Any]:
    """``pytest.param(rules, players)`` for every loadable preset and player count."""
    return [pytest.param(r, n, id=f"{r.name}-{n}")
            for r in loadable_presets() for n in r.deal.player_counts]


def preset(name: str) -> Rules:
    """A preset by name, skipping the test when it does not exist (yet)."""
    try:
        return load_preset(name)
    except RulesError as exc:
        if "unknown variant" in str(exc):
            pytest.skip(f"preset {name} is not available")
        raise


def deal(rules: Rules, players: int, seed: int, scores: list[int] | None = None) -> State:
    """A dealt hand, skipping misdeals by moving the seed on."""
    for k in range(50):
        try:
            return State.deal(rules, players, seed=seed * 101 + k, scores=scores)
        except MisdealError:
            continue
    raise AssertionError("no deal without a misdeal")


def random_states(rules: Rules, players: int, seed: int, every: int = 1) -> Iterator[State]:
    """Every ``every``-th state of a hand played by random legal actions, to its end."""
    rng = random.Random(seed)
    n_teams = len(rules.teams(players))
    scores = [rng.choice([0, -35, 1600, 3200, 5500, 12500]) for _ in range(n_teams)]
    state = deal(rules, players, seed, scores)
    k = 0
    while True:
        if k % every == 0 or state.is_over:
            yield state
        if state.is_over:
            return
        state.apply(rng.choice(state.legal_actions()))
        k += 1


def roundtrip(data: Any) -> Any:
    """Through JSON text and back (what a file does to a document)."""
    return json.loads(json.dumps(data))


runner = CliRunner()


def cli(args: list[str], stdin: str | None = None) -> Any:
    """Run the ``canasta`` command line; returns the click Result."""
    from canasta.cli import _register, app

    if not getattr(cli, "registered", False):
        _register()
        cli.registered = True  # type: ignore[attr-defined]
    return runner.invoke(app, args, input=stdin)


@contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    """Fail (instead of hanging the suite) when the block runs longer than ``seconds``."""

    def _fail(*_: object) -> None:
        raise TimeoutError(f"ran longer than {seconds} s")

    old = signal.signal(signal.SIGALRM, _fail)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
