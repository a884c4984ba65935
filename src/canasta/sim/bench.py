"""Benchmark: ``python -m canasta.bench [--against openspiel] [--baseline SRC] [--rounds R]``.

Everything is timed by one clock, chosen once: CPU time (``time.process_time``) by default,
the wall clock with ``--wall``; ours, OpenSpiel's and the baseline subprocesses' alike (a
ratio of CPU time to wall time means nothing). Prints, as medians of interleaved rounds
(machines are noisy; interleaving spreads the noise evenly over everything measured):

* decisions per second of random play-outs of whole hands, for international Canasta and
  Canastone (4 players). A decision is one ``apply()`` of an action chosen by a player; the
  deal, red-three replacements and draws from the stock are automatic (chance) and are not
  counted. The time includes dealing, ``legal_actions()``, the random choice and ``apply()``;
* the tail: the slowest 1% of those hands, their mean time and their share of all the time;
* ``legal_actions()`` in microseconds with 11 and with 30 cards in hand (states built
  deterministically by :func:`state_with_hand`), ``apply()`` and ``clone()`` in
  microseconds (``clone()`` early and late in a hand: its cost grows with what is on the
  table), and the bytes of one state (tracemalloc of a ``clone()``). Each micro figure is the
  median of :data:`SAMPLES` samples, each at least :data:`SAMPLE_SECONDS` of the clock;
* with ``--bots``, each bot level's time per decision (median and 95th percentile) and the
  expert's sampled deals per decision (:mod:`canasta.sim.botbench`);
* which core ran: compiled (mypyc) or pure Python (``canasta.core.COMPILED``).

``--against openspiel`` (needs ``pip install 'canasta[bench]'``) also runs OpenSpiel's C++
``gin_rummy`` from the same kind of Python loop (``legal_actions()``, ``random.choice``,
``apply_action``; chance nodes sampled and not counted) in every round, and prints each
round's ratio canasta / gin_rummy and their median. ``--baseline SRC`` runs, in every round,
the same play-outs with the ``canasta`` package found under the folder ``SRC`` (e.g. the
``src`` of an older commit checked out with ``git worktree add``) in a subprocess, and prints
the median ratio new / old; ``--pure`` does the same with this package's pure-Python core
(``CANASTA_PURE=1``). Ratios are medians of the per-round ratios. Not a test: nothing here
asserts a speed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable

from canasta.core.actions import Draw
from canasta.core.rules import load_preset
from canasta.core.state import State

VARIANTS = ("international", "canastone")


def core_kind() -> str:
    """``"compiled"`` when the mypyc-built core modules are the ones imported, else
    ``"pure Python"``."""
    import canasta.core

    return "compiled" if canasta.core.COMPILED else "pure Python"


# -- random play-outs ----------------------------------------------------------------------


def playout_run(variant: str, hands: int, players: int, seed: int,
                clock: Callable[[], float] = time.process_time,
                per_hand: list[float] | None = None) -> tuple[int, float]:
    """Play ``hands`` random hands; returns (decisions, seconds of ``clock``). With
    ``per_hand``, each hand's seconds are appended to it (for the tail)."""
    rules = load_preset(variant)
    rng = random.Random(seed)
    decisions = 0
    start = clock()
    for h in range(hands):
        began = clock()
        state = State.deal(rules, players, seed=seed * 100_003 + h)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            decisions += 1
        if per_hand is not None:
            per_hand.append(clock() - began)
    return decisions, clock() - start


def tail(per_hand: list[float], share: float = 0.01) -> tuple[float, float]:
    """The slowest ``share`` of hands (at least one): (their mean seconds, their share of all
    the hands' seconds, 0-1)."""
    ordered = sorted(per_hand, reverse=True)
    k = max(1, round(len(ordered) * share))
    total = sum(ordered) or 1.0
    return sum(ordered[:k]) / k, sum(ordered[:k]) / total


#: Run in a subprocess with another ``canasta`` on the path (``--baseline``): the same
#: play-out loop, written only with names that every version of the engine has.
BASELINE_SCRIPT = """
import json, random, sys, time
import canasta
from canasta.core.rules import load_preset
from canasta.core.state import State
variant, hands, players, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
clock = time.process_time if sys.argv[5:] == ["cpu"] else time.perf_counter
rules = load_preset(variant)
rng = random.Random(seed)
n = 0
t = clock()
for h in range(hands):
    s = State.deal(rules, players, seed=seed * 100_003 + h)
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
        n += 1
print(json.dumps([n, clock() - t, canasta.__file__]))
"""


def baseline_run(src: str, variant: str, hands: int, players: int,
                 seed: int, pure: bool = False, cpu: bool = False) -> tuple[int, float]:
    """The play-outs of :func:`playout_run` with the package under ``src`` (with ``pure``:
    its pure-Python core, ``CANASTA_PURE=1``); (decisions, seconds: of CPU time with
    ``cpu``). Raises RuntimeError when the subprocess fails or imports another package."""
    env = dict(os.environ, PYTHONPATH=src)
    env.pop("CANASTA_PURE", None)
    if pure:
        env["CANASTA_PURE"] = "1"
    proc = subprocess.run(
        [sys.executable, "-c", BASELINE_SCRIPT, variant, str(hands), str(players), str(seed),
         *(["cpu"] if cpu else [])],
        capture_output=True, text=True, env=env, cwd=src,
    )
    if proc.returncode:
        raise RuntimeError(f"baseline run failed: {proc.stderr.strip()[-2000:]}")
    n, secs, where = json.loads(proc.stdout.strip().splitlines()[-1])
    if not os.path.abspath(where).startswith(os.path.abspath(src)):
        raise RuntimeError(f"baseline imported {where}, not the package under {src}")
    return int(n), float(secs)


def gin_rummy_run(games: int, seed: int,
                  clock: Callable[[], float] = time.process_time) -> tuple[int, float]:
    """OpenSpiel ``gin_rummy`` random play-outs from Python: (decisions, seconds of
    ``clock``, the same clock as ours). Chance nodes (the deal, stock draws) are sampled
    uniformly and not counted."""
    import pyspiel  # type: ignore[import-not-found]

    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    decisions = 0
    start = clock()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choice(outcomes)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
    return decisions, clock() - start


# -- single operations ---------------------------------------------------------------------


def state_with_hand(variant: str, size: int, players: int = 4, seed: int = 1) -> State:
    """A deterministic state in the PLAY phase whose player to act holds ``size`` cards: deal
    with ``seed``, draw, then move cards between the stock (its top, no red three) and the
    hand until the hand has ``size`` cards. Every card stays in the game (conservation)."""
    rules = load_preset(variant)
    s = State.deal(rules, players, seed=seed)
    s.apply(Draw())
    seat = s.actor
    hand = s.hands[seat]
    while s.hand_size[seat] < size:
        i = len(s.stock) - 1
        while s.stock[i] in (9, 10):
            i -= 1
        card = s.stock.pop(i)
        hand[card] += 1
        s.hand_size[seat] += 1
    while s.hand_size[seat] > size:
        card = next(c for c in range(len(hand)) if hand[c])
        hand[card] -= 1
        s.hand_size[seat] -= 1
        s.stock.insert(0, card)
    return s


def mid_hand_states(variant: str, players: int, count: int, seed: int,
                    depth: tuple[int, int] = (20, 80)) -> list[State]:
    """States of random hands after ``depth`` (a range) decisions; hands over by then are
    left out (for ``apply`` and ``clone`` timing)."""
    rules = load_preset(variant)
    rng = random.Random(seed)
    out = []
    for h in range(count):
        state = State.deal(rules, players, seed=seed + h)
        for _ in range(rng.randrange(*depth)):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_over:
            out.append(state)
    return out


#: A micro sample runs at least this long (seconds of its clock), so that CPU time, whose
#: resolution is coarser than the wall clock's, measures it to well under 1%.
SAMPLE_SECONDS = 0.2
#: Samples per micro figure; the figure is their median.
SAMPLES = 7


def time_us(fn: Callable[[], object], clock: Callable[[], float] = time.process_time,
            samples: int = SAMPLES, min_seconds: float = SAMPLE_SECONDS) -> float:
    """Microseconds of ``clock`` per call of ``fn``: the median of ``samples`` samples, each
    of as many calls as fill ``min_seconds`` (the count found once, by doubling)."""
    repeat = 1
    while True:
        start = clock()
        for _ in range(repeat):
            fn()
        if clock() - start >= min_seconds / 4 or repeat >= 1 << 20:
            break
        repeat *= 2
    repeat = max(1, repeat * 4)
    out = []
    for _ in range(samples):
        start = clock()
        for _ in range(repeat):
            fn()
        out.append((clock() - start) / repeat * 1e6)
    return statistics.median(out)


def apply_us(states: list[State], clock: Callable[[], float] = time.process_time,
             samples: int = SAMPLES, min_seconds: float = SAMPLE_SECONDS) -> float:
    """``apply()`` of the first legal action in microseconds, on clones: clone-and-apply and
    clone alone are timed in alternating samples and the figure is the median of the
    samples' differences (two separate medians drifted apart under load, and once gave a
    negative time). Never below 0: an ``apply`` lost in the clock's noise reads 0."""
    pairs = [(s, s.legal_actions()[0]) for s in states]

    def both() -> None:
        for s, a in pairs:
            s.clone().apply(a)

    def clone() -> None:
        for s, _a in pairs:
            s.clone()

    repeat = 1
    while True:
        start = clock()
        for _ in range(repeat):
            both()
        if clock() - start >= min_seconds / 4 or repeat >= 1 << 20:
            break
        repeat *= 2
    repeat = max(1, repeat * 4)
    diffs = []
    for _ in range(samples):
        times = []
        for fn in (both, clone):
            start = clock()
            for _ in range(repeat):
                fn()
            times.append((clock() - start) / repeat * 1e6)
        diffs.append(times[0] - times[1])
    return max(0.0, statistics.median(diffs) / len(pairs))


def state_bytes(state: State) -> int:
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    copy = state.clone()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    del copy
    return sum(s.size_diff for s in after.compare_to(before, "filename"))


# -- the report ----------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m canasta.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--hands", type=int, default=20, help="hands per variant per round")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds")
    parser.add_argument("--against", choices=["openspiel"], default=None,
                        help="also time OpenSpiel's gin_rummy in every round")
    parser.add_argument("--games", type=int, default=40, help="gin_rummy games per round")
    parser.add_argument("--baseline", metavar="SRC", default=None,
                        help="folder holding another canasta package (e.g. an old commit's "
                             "src/): time it too, in every round, in a subprocess")
    parser.add_argument("--pure", action="store_true",
                        help="also time this package's pure-Python core (CANASTA_PURE=1) in "
                             "every round, in a subprocess")
    parser.add_argument("--cpu", action="store_true",
                        help="time everything by CPU time (time.process_time): the default")
    parser.add_argument("--wall", action="store_true",
                        help="time everything by the wall clock instead (follows the load)")
    parser.add_argument("--sample-seconds", type=float, default=SAMPLE_SECONDS,
                        help=f"least clock time of one micro sample ({SAMPLE_SECONDS}); "
                             "shorter for a quick look, less stable")
    parser.add_argument("--bots", action="store_true",
                        help="also time each bot level per decision (canasta.sim.botbench)")
    args = parser.parse_args(argv)
    if args.cpu and args.wall:
        parser.error("--cpu and --wall: choose one clock")
    # One clock for everything measured, ours and every peer's (a ratio of CPU time to wall
    # time means nothing).
    cpu = not args.wall
    clock = time.process_time if cpu else time.perf_counter
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

    ours: dict[str, list[float]] = {v: [] for v in VARIANTS}
    old: dict[str, list[float]] = {v: [] for v in VARIANTS}
    pure: dict[str, list[float]] = {v: [] for v in VARIANTS}
    gin: list[float] = []
    ratios: dict[str, list[float]] = {v: [] for v in VARIANTS}
    hand_secs: dict[str, list[float]] = {v: [] for v in VARIANTS}
    for r in range(args.rounds):
        for v in VARIANTS:
            n, secs = playout_run(v, args.hands, args.players, seed=r, clock=clock,
                                  per_hand=hand_secs[v])
            ours[v].append(n / secs)
            if args.baseline:
                n, secs = baseline_run(args.baseline, v, args.hands, args.players, seed=r,
                                       cpu=cpu)
                old[v].append(n / secs)
            if args.pure:
                n, secs = baseline_run(here, v, args.hands, args.players, seed=r, pure=True,
                                       cpu=cpu)
                pure[v].append(n / secs)
        if args.against == "openspiel":
            n, secs = gin_rummy_run(args.games, seed=r, clock=clock)
            gin.append(n / secs)
            for v in VARIANTS:
                ratios[v].append(ours[v][-1] / gin[-1])
        print(f"  round {r + 1}/{args.rounds}: international {ours['international'][-1]:,.0f}"
              f" canastone {ours['canastone'][-1]:,.0f}"
              + (f" gin_rummy {gin[-1]:,.0f}" if gin else "")
              + (f" baseline {old['international'][-1]:,.0f}" if args.baseline else "")
              + (f" pure {pure['international'][-1]:,.0f}" if args.pure else "")
              + " decisions/s", file=sys.stderr, flush=True)

    small = state_with_hand("international", 11, args.players)
    big = state_with_hand("international", 30, args.players)
    least = args.sample_seconds
    legal11 = time_us(small.legal_actions, clock, min_seconds=least)
    legal30 = time_us(big.legal_actions, clock, min_seconds=least)
    early = mid_hand_states("international", args.players, 20, seed=3, depth=(10, 11))
    late = mid_hand_states("international", args.players, 40, seed=3, depth=(150, 151))
    clone_early = time_us(lambda: [s.clone() for s in early], clock,
                          min_seconds=least) / len(early)
    clone_late = time_us(lambda: [s.clone() for s in late], clock,
                         min_seconds=least) / len(late)
    states = mid_hand_states("international", args.players, 30, seed=7)
    applied = apply_us(states, clock, min_seconds=least)
    clone_mid = time_us(lambda: [s.clone() for s in states], clock,
                        min_seconds=least) / len(states)
    mem = int(statistics.median(state_bytes(s) for s in states[:10]))
    mem30 = state_bytes(big)

    print(f"canasta benchmark ({core_kind()} core, Python "
          f"{sys.version_info.major}.{sys.version_info.minor}): random play-outs, "
          f"{args.players} players, median of {args.rounds} interleaved rounds of "
          f"{args.hands} hands per variant"
          + (", everything timed by CPU time" if cpu else ", everything timed by the wall clock")
          + f"; micro figures: medians of {SAMPLES} samples of {least} s or more")
    for v in VARIANTS:
        line = f"  decisions/s {v:<14} {statistics.median(ours[v]):10,.0f}"
        if args.baseline:
            rel = statistics.median(a / b for a, b in zip(ours[v], old[v], strict=True))
            line += (f"   baseline {statistics.median(old[v]):10,.0f}   "
                     f"new/baseline {rel:5.2f}x")
        print(line)
    if args.pure:
        for v in VARIANTS:
            line = (f"  decisions/s {v:<14} {statistics.median(pure[v]):10,.0f}   (pure-Python "
                    "core)")
            if args.baseline:
                rel = statistics.median(a / b for a, b in zip(pure[v], old[v], strict=True))
                line += f"   pure/baseline {rel:5.2f}x"
            rel = statistics.median(a / b for a, b in zip(ours[v], pure[v], strict=True))
            print(line + f"   this core/pure {rel:5.2f}x")
    if gin:
        print(f"  decisions/s gin_rummy      {statistics.median(gin):10,.0f}   (OpenSpiel C++, "
              "Python loop)")
        for v in VARIANTS:
            print(f"  ratio {v} / gin_rummy: median {statistics.median(ratios[v]):.2f} "
                  "(rounds " + " ".join(f"{x:.2f}" for x in ratios[v]) + ")")
    for v in VARIANTS:
        mean, part = tail(hand_secs[v])
        print(f"  slowest 1% of {v} hands: {mean * 1e3:,.1f} ms each, {part:.1%} of the "
              f"time of all {len(hand_secs[v])} hands (median hand "
              f"{statistics.median(hand_secs[v]) * 1e3:,.1f} ms)")
    print(f"  legal_actions() 11 cards   {legal11:10,.1f} us")
    print(f"  legal_actions() 30 cards   {legal30:10,.1f} us")
    print(f"  apply() mid-hand           {applied:10,.1f} us")
    print(f"  clone() mid-hand           {clone_mid:10,.1f} us")
    print(f"  clone() after 10 / 150 decisions {clone_early:4,.1f} / {clone_late:,.1f} us "
          f"({len(early)} / {len(late)} states)")
    print(f"  one state (clone) mid-hand {mem:10,d} bytes  (30 cards: {mem30:,d})")
    if args.bots:
        from canasta.sim.botbench import report

        report(players=args.players, clock=clock)


if __name__ == "__main__":
    main()
