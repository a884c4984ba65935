"""The soak benchmark: a small slice of ``python -m canasta.sim.soak``, and
each of its checks shown to catch what it looks for."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from canasta import State, load_preset
from canasta.core.scoring import ScoreSheet
from canasta.sim import soak
from formatkit import random_states


@pytest.mark.slow
def test_a_slice_of_the_soak_has_no_break(capsys: pytest.CaptureFixture[str]) -> None:
    report = soak.soak(6, seed=11, workers=1, every=3)
    assert sum(report.hands.values()) == 6
    assert {preset for preset, _ in report.hands} == set(soak.PRESETS)
    assert report.breaks == [], report.text()
    assert report.actions > 0
    assert soak.main(["--hands", "2", "--workers", "1", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "hands 2," in out and "breaks 0" in out


def test_cases_are_reproducible_from_their_label() -> None:
    a, b = soak.make_case(3, 17), soak.make_case(3, 17)
    assert a == b and a.label == "3:17"
    assert soak.make_case(3, 18) != a
    assert soak.play_case(a).actions == soak.play_case(b).actions


def test_the_soak_counts_going_out_on_the_pile_without_a_final_discard() -> None:
    # Seed 001 (classic Italian): "possibilita di chiusura anche senza scarto finale"; case
    # 99:92 (6 players) goes out in the turn it took the pile, with no discard.
    case = soak.make_case(99, 92)
    assert case.preset == "classic_italian"
    out = soak.play_case(case, every=100)
    assert not out.broke and out.out_on_pile and out.out_no_discard
    plain = soak.play_case(soak.make_case(99, 0), every=100)
    assert not plain.out_no_discard
    report = soak.Report()
    report.add(out)
    report.add(plain)
    assert "taking the pile: 1 hands (1 of them without a final discard)" in report.text()


def _mid_hand(preset: str = "international") -> State:
    # random_states plays on one state: keep copies
    states = [s.clone() for s in random_states(load_preset(preset), 4, 5, every=1)
              if len(s.stock) > 5]
    return states[len(states) // 2]


def test_the_card_check_finds_a_card_in_two_places() -> None:
    s = _mid_hand()
    full = soak._deck_counts(s.rules, s.players)
    assert soak.check_cards(s, full) == ""
    s.pile.append(s.stock[-1])  # one card now in the stock and the pile
    assert "one place" in soak.check_cards(s, full)


def test_the_clone_check_finds_a_shared_list(monkeypatch: pytest.MonkeyPatch) -> None:
    s = _mid_hand()
    assert soak.check_clone(s, random.Random(1)) == ""
    real = State.clone

    def shallow(self: State) -> State:
        twin = real(self)
        twin.hands = self.hands  # the bug the check is for: a list shared with the original
        twin.stock = self.stock
        twin.pile = self.pile
        return twin

    monkeypatch.setattr(State, "clone", shallow)
    assert soak.check_clone(s, random.Random(1)) == "playing on a clone changed the original"


def test_the_round_trip_check_and_the_score_check_catch_a_difference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    *_, end = random_states(load_preset("international"), 4, 6)
    assert soak.check_round_trip(end) == "" and soak.check_score(end) == ""
    real = State.score

    def off_by_ten(self: State) -> list[ScoreSheet]:
        sheets = real(self)
        first = sheets[0]
        sheets[0] = ScoreSheet(first.team, (*first.items, ("error", 10)),
                               first.hand_total + 10, first.score_before)
        return sheets

    monkeypatch.setattr(State, "score", off_by_ten)
    assert "!= canasta score" in soak.check_score(end)


def test_a_break_names_the_case_and_the_command() -> None:
    report = soak.Report()
    case = soak.make_case(0, 2)
    report.add(soak.Outcome(case, actions=5, broke="no legal action", step=5))
    text = report.text()
    assert "breaks 1" in text and "BREAK case 0:2 at action 5: no legal action" in text
    assert "python -m canasta.sim.soak --case 0:2" in text


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid:
                    found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to find the workers")
def test_a_worker_killed_mid_run_is_reported_not_waited_for_forever() -> None:
    """A soak whose worker process dies ends, says how many hands were lost and exits 1 (a
    multiprocessing Pool waited forever: a 10,000-hand run hung this way)."""
    proc = subprocess.Popen([sys.executable, "-m", "canasta.sim.soak", "--hands", "4000",
                             "--workers", "2", "--seed", "5"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        workers: list[int] = []
        while len(workers) < 2 and time.monotonic() < deadline:
            workers = [c for c in _children(proc.pid)
                       if "spawn_main" in Path(f"/proc/{c}/cmdline").read_text()]
            time.sleep(0.2)
        assert workers, "the soak started no worker"
        os.kill(workers[0], signal.SIGKILL)
        out, _ = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 1
    assert "LOST" in out and "a worker process died" in out


def test_a_break_is_printed_on_stderr_as_soon_as_it_is_found(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """A long run shows each break while it runs, not only in the report at the end."""
    def fake(case: soak.Case, every: int = 10) -> soak.Outcome:
        broke = "a planted break" if case.index == 1 else ""
        return soak.Outcome(case, actions=3, broke=broke, step=2 if broke else -1)

    monkeypatch.setattr(soak, "play_case", fake)
    assert soak.main(["--hands", "3", "--workers", "1", "--seed", "7"]) == 1
    captured = capsys.readouterr()
    assert captured.err.count("soak: BREAK case 7:1 at action 2: a planted break") == 1
    assert "BREAK case 7:1" in captured.out and "breaks 1" in captured.out


def test_a_slice_of_the_stock_end_soak_runs_hands_to_the_stock(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The stock's-end mode: hands driven by draws and discards, big piles taken, end with
    the stock (not by going out, mostly), with no break and every action timed."""
    report = soak.soak(3, seed=5, workers=1, every=7, stock_end=True)
    assert sum(report.hands.values()) == 3
    assert report.breaks == [], report.text()
    assert report.slowest is not None and report.slowest.slowest_ms > 0
    assert report.longest_hand > 11  # a pile was taken
    case = soak.make_case(5, 0, stock_end=True)
    assert case.stock_end and "stock's end" in case.describe()
    assert soak.main(["--hands", "1", "--workers", "1", "--seed", "5", "--stock-end"]) == 0
    assert "slowest action" in capsys.readouterr().out
