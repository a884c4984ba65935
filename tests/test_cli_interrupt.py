"""Ctrl-C in the long commands: `canasta simulate` and `canasta tournament` print what they have
so far and exit 130; a huge tournament streams its deal pairs instead of listing them."""

from __future__ import annotations

import os
import signal
import tracemalloc

import pytest
from typer.testing import CliRunner

from canasta import load_preset
from canasta.bots import BOTS, Bot, make_bot
from canasta.cli import _register as register_commands
from canasta.cli import app
from canasta.cli.interrupt import EXIT_INTERRUPTED, StopOnInterrupt
from canasta.core.actions import Action
from canasta.core.state import View
from canasta.sim.duplicate import DuplicateSetup
from canasta.sim.tournament import run_tournament

register_commands()
runner = CliRunner()


class CtrlC:
    """Plays as the random bot; its ``after``-th decision (over all its instances)
    presses Ctrl-C (SIGINT to this process), as a person at the terminal would."""

    name = "ctrlc"
    calls = 0
    after = 400

    def __init__(self, seed: int | None = None) -> None:
        self.bot = make_bot("random", seed)

    def choose(self, view: View) -> Action:
        CtrlC.calls += 1
        if CtrlC.calls == CtrlC.after:
            os.kill(os.getpid(), signal.SIGINT)
        return self.bot.choose(view)


@pytest.fixture()
def ctrlc(monkeypatch: pytest.MonkeyPatch) -> type[CtrlC]:
    def build(seed: int | None = None) -> Bot:
        return CtrlC(seed)

    CtrlC.calls = 0
    monkeypatch.setitem(BOTS, "ctrlc", build)
    return CtrlC


def test_stop_on_interrupt_asks_once_then_raises() -> None:
    with StopOnInterrupt() as stop:
        assert not stop()
        os.kill(os.getpid(), signal.SIGINT)
        assert stop()
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_ctrl_c_in_simulate_prints_the_hands_played(ctrlc: type[CtrlC]) -> None:
    result = runner.invoke(app, ["simulate", "-n", "100000", "--bots", "ctrlc", "--seed", "3",
                                 "--players", "2"])
    assert result.exit_code == EXIT_INTERRUPTED, result.output
    assert "interrupted:" in result.output
    assert "hands played" in result.output  # the facts table is there
    assert "Interrupted (Ctrl-C) after" in result.output
    played = int(result.output.split("interrupted: ")[1].split(" of ")[0])
    assert 1 <= played < 100000


def test_ctrl_c_in_simulate_json_keeps_the_figures(ctrlc: type[CtrlC]) -> None:
    result = runner.invoke(app, ["simulate", "-n", "100000", "--bots", "ctrlc", "--seed", "3",
                                 "--players", "2", "--json"])
    assert result.exit_code == EXIT_INTERRUPTED
    assert '"interrupted": true' in result.output


def test_ctrl_c_in_tournament_prints_the_pairs_played(ctrlc: type[CtrlC]) -> None:
    result = runner.invoke(app, ["tournament", "--bots", "ctrlc,random", "--players", "2",
                                 "--deals", "100000", "--seed", "5", "--workers", "1"])
    assert result.exit_code == EXIT_INTERRUPTED, result.output
    assert "ctrlc – random" in result.output  # the pairings table
    assert "Ratings" in result.output
    assert "Interrupted (Ctrl-C):" in result.output
    assert "of 200000 games played" in result.output


def test_ctrl_c_before_any_deal_pair_says_so(ctrlc: type[CtrlC]) -> None:
    ctrlc.after = 1
    try:
        result = runner.invoke(app, ["tournament", "--bots", "ctrlc,random", "--players", "2",
                                     "--deals", "1", "--seed", "5", "--workers", "1",
                                     "--lang", "it"])
    finally:
        ctrlc.after = 400
    # the one deal pair in progress is finished, so it is shown
    assert result.exit_code in (0, EXIT_INTERRUPTED), result.output
    assert "Traceback" not in result.output


def test_a_huge_tournament_streams_its_deal_pairs() -> None:
    """10**14 deal pairs: none listed in memory; stopped after three, those are counted."""
    asked = 0

    def stop() -> bool:
        nonlocal asked
        asked += 1
        return asked > 3

    tracemalloc.start()
    try:
        res = run_tournament(DuplicateSetup(load_preset("international"), 2, seed=7),
                             ["greedy", "random"], 10**14, stop=stop)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert res.interrupted
    assert len(res.pairs) == 3 and res.pairings[0].deal_pairs == 3
    assert res.games == 6
    print(f"peak traced memory: {peak / 2**20:.1f} MiB")
    assert peak < 64 * 2**20
