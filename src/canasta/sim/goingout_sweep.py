"""Going-out sweep: ``python -m canasta.sim.goingout_sweep [--seeds N] [--sizes 40,67,111]``.

The cost of the engine's calls on the largest hands the rules allow. For every preset at
every player count (six players included: Canastone's and classic Italian's three packs) it
deals ``--seeds`` hands, plays a few random moves, then gives the player to act a huge hand
(``--sizes`` cards: 111 is an 11-card hand after taking a 100-card pile; capped by the cards
there are), drawn three ways (as the cards come; wild cards and pairs first; one or two
cards of every rank), in each turn situation where going out is searched (the side not
open, open, or opened this turn under ``opening.naturals_only_at``; the player melded or
concealed; the partner's binding "yes" or no question; before and after the draw). Cards come
from the stock, the pile under its top card and the other hands (each keeps one), so every
card stays in the game.

Each position is timed three times and the fastest counts (``time.process_time``, CPU time
of the process, so that other work on the machine does not count); it prints,
per preset and player count, the positions, the worst ``legal_actions()`` and the worst
``going_out_plan()`` in milliseconds with the situation of the worst, the same for the
reachable six-player classic Italian position of a 67-card hand
(``tests/data/classic_italian_6p_67_cards.position.json``, where it exists), and which core
ran (compiled or pure Python). Not a test: nothing here asserts a speed.

``--compare OLD_SRC`` times the same positions under an older tree's sources too (say
``git worktree add ../old <commit>`` and ``--compare ../old/src``), one worker process per
tree asked in turn for each preset and player count, and prints the median and max ms of each.

Worst case measured (2026-12-03, ``--seeds 2``, compiled core, a 2-core machine shared with
other jobs): ``going_out_plan()`` at most 0.3 ms on every preset, player count and hand size
(the search no longer grows with the hand); the 67-card position answers ``legal_actions()``
in 0.5 ms (6 ms pure Python). Under a binding "yes" every candidate meld is decided from one
shared search of the position (:mod:`canasta.core.goingout_binding`) or, for a side not yet
open, from searches on copies within one work budget. Side by side (2026-12-04, ``--seeds 2
--compare`` against the tree before that, pure Python, CPU ms, 1,620 positions): median 0.34
before, 0.33 after; worst 614 ms before (Brazilian, 6 players, a binding "yes"), 18 ms after
(Brazilian 6 players; international 4 players 189 -> 4 ms, classic Italian 4 players
67 -> 8 ms).
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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from canasta import core
from canasta.core.cards import NUM_CODES
from canasta.core.data import Phase
from canasta.core.melds import IS_WILD, RANK
from canasta.core.rules import PRESETS, load_preset
from canasta.core.state import MisdealError, State

REPRO = Path(__file__).resolve().parents[3] / "tests" / "data" / (
    "classic_italian_6p_67_cards.position.json")

#: (name, side open, opened this turn, player melded, partner said yes)
SITUATIONS = (
    ("unopened", False, False, True, False),
    ("unopened concealed", False, False, False, False),
    ("open", True, False, True, False),
    ("opened this turn", True, True, True, False),
    ("open, yes", True, False, True, True),
    ("opened this turn, yes", True, True, False, True),
    ("unopened concealed, yes", False, False, False, True),
)
DRAWS = ("as dealt", "wild cards and pairs", "every rank")


@dataclass
class Worst:
    """The slowest position of one kind: its time and what it was."""

    ms: float = 0.0
    what: str = ""

    def add(self, ms: float, what: str) -> None:
        if ms > self.ms:
            self.ms, self.what = ms, what


def timed(fn: Callable[[], object], repeat: int = 3) -> float:
    """The fastest of ``repeat`` calls of ``fn`` in milliseconds of this process's CPU time
    (a machine shared with other work does not inflate it as it does wall time)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best * 1000


def inflate(s: State, size: int, draw: str, rng: random.Random) -> int:
    """Give the player to act ``size`` cards (fewer when the game has not that many to
    spare), taken from the stock, the pile under its top card and the other hands; returns
    the hand's size."""
    seat = s.actor
    pool: list[int] = list(s.stock)
    s.stock.clear()
    if len(s.pile) > 1:
        pool += s.pile[:-1]
        del s.pile[:-1]
    for p in range(s.players):
        if p == seat:
            continue
        cards = [c for c in range(NUM_CODES) for _ in range(s.hands[p][c])]
        rng.shuffle(cards)
        for c in cards[1:]:
            s.hands[p][c] -= 1
            pool.append(c)
        s.hand_size[p] = 1 if cards else 0
    rng.shuffle(pool)
    if draw == "wild cards and pairs":
        pool.sort(key=lambda c: (not IS_WILD[c], RANK[c] % 5))
    elif draw == "every rank":
        # Round robin over the ranks: one or two of each before more of any.
        seen: dict[int, int] = {}
        keyed: list[tuple[int, int]] = []
        for c in pool:
            seen[RANK[c]] = seen.get(RANK[c], 0) + 1
            keyed.append((seen[RANK[c]], c))
        pool = [c for _, c in sorted(keyed, key=lambda kc: kc[0])]
    take = max(0, min(size - s.hand_size[seat], len(pool) - 2))
    for c in pool[:take]:
        s.hands[seat][c] += 1
    s.hand_size[seat] += take
    s.stock.extend(pool[take:])  # two cards at least: the turn goes on
    return s.hand_size[seat]


def positions(name: str, players: int, seed: int, sizes: list[int]
              ) -> list[tuple[State, str]]:
    """The sweep's positions of one deal."""
    rules = load_preset(name)
    rng = random.Random(f"{name}:{players}:{seed}")
    try:
        base = State.deal(rules, players, seed=rng.getrandbits(32))
    except MisdealError:
        return []
    for _ in range(rng.randrange(0, 3 * players)):
        if base.is_over:
            return []
        base.apply(rng.choice(base.legal_actions()))
    while not base.is_over and base.phase is Phase.ANSWER:
        base.apply(rng.choice(base.legal_actions()))
    if base.is_over:
        return []
    out: list[tuple[State, str]] = []
    team = base.team_of[base.actor]
    for size in sizes:
        for draw in DRAWS:
            for label, opened, this_turn, melded, yes in SITUATIONS:
                if yes and not (rules.going_out.ask_partner and len(base.teams[team]) > 1):
                    continue
                s = base.clone()
                n = inflate(s, size, draw, rng)
                if opened and not s.opened[team]:
                    s.opened[team] = True
                if this_turn:
                    s.opened_at_turn_start = False
                if not melded:
                    s.player_melded[s.actor] = False
                if yes and s.phase is Phase.PLAY:
                    s.answer = True
                phase = "play" if s.phase is Phase.PLAY else "draw"
                out.append((s, f"{n} cards, {draw}, {label}, {phase}"))
    return out


def sweep(seeds: int, sizes: list[int], out: TextIO = sys.stdout) -> float:
    """Run the sweep and print its table; returns the worst ``legal_actions()`` in ms."""
    worst_all = Worst()
    print(f"core: {'compiled (mypyc)' if core.COMPILED else 'pure Python'}", file=out)
    print(f"{'preset':<17}{'players':>8}{'positions':>10}{'legal ms':>10}{'plan ms':>9}"
          "  worst position", file=out)
    for name in PRESETS:
        for players in sorted(load_preset(name).deal.player_counts):
            legal, plan = Worst(), Worst()
            count = 0
            for seed in range(seeds):
                for s, what in positions(name, players, seed, sizes):
                    count += 1
                    legal.add(timed(s.legal_actions), what)
                    plan.add(timed(s.going_out_plan), what)
            worst_all.add(legal.ms, f"{name} {players}p: {legal.what}")
            print(f"{name:<17}{players:>8}{count:>10}{legal.ms:>10.2f}{plan.ms:>9.2f}  "
                  f"{legal.what}", file=out)
    if REPRO.exists():
        from canasta.formats.position import state_from_dict

        s = state_from_dict(json.loads(REPRO.read_text(encoding="utf-8")))
        print(f"67-card classic Italian position: legal_actions {timed(s.legal_actions):.2f} "
              f"ms, going_out_plan {timed(s.going_out_plan):.2f} ms", file=out)
    print(f"worst legal_actions: {worst_all.ms:.2f} ms ({worst_all.what})", file=out)
    return worst_all.ms


def group_times(name: str, players: int, seeds: int, sizes: list[int]) -> list[float]:
    """The ``legal_actions()`` times (ms, fastest of three) of every sweep position of one
    preset and player count, in the sweep's order."""
    out: list[float] = []
    for seed in range(seeds):
        for s, _ in positions(name, players, seed, sizes):
            out.append(timed(s.legal_actions))
    return out


def worker() -> int:
    """``--worker``: read ``NAME PLAYERS SEEDS SIZES`` lines, answer each with a JSON list
    of :func:`group_times` (one line), until end of input."""
    for line in sys.stdin:
        name, players, seeds, sizes = line.split()
        times = group_times(name, int(players), int(seeds), [int(x) for x in sizes.split(",")])
        print(json.dumps(times), flush=True)
    return 0


def compare(old_src: str, seeds: int, sizes: list[int], out: TextIO = sys.stdout) -> None:
    """Time the sweep's positions under the sources in ``old_src`` (a ``src`` folder, say a
    ``git worktree`` of an older commit) and under these, side by side in one run: one
    worker process per tree, asked in turn for each preset and player count, so both meet
    the same load. Prints the median and the max ``legal_actions()`` ms of each."""
    here = str(Path(__file__).resolve().parents[2])
    # This file's worker runs over each tree's engine (an older tree may lack the worker).
    run = (f"import runpy, sys; sys.argv = ['goingout_sweep', '--worker']; "
           f"runpy.run_path({str(Path(__file__).resolve())!r}, run_name='__main__')")
    procs = []
    for src in (old_src, here):
        env = dict(os.environ, PYTHONPATH=src)
        procs.append(subprocess.Popen([sys.executable, "-c", run], env=env,
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      text=True))
    print(f"old: {old_src}\nnew: {here}\ncore: "
          f"{'pure Python' if os.environ.get('CANASTA_PURE') else 'as installed'}", file=out)
    print(f"{'preset':<17}{'players':>8}{'positions':>10}{'old median':>12}{'old max':>10}"
          f"{'new median':>12}{'new max':>10}", file=out)
    every: list[list[float]] = [[], []]
    try:
        for name in PRESETS:
            for players in sorted(load_preset(name).deal.player_counts):
                got: list[list[float]] = []
                for i, p in enumerate(procs):
                    assert p.stdin is not None and p.stdout is not None
                    p.stdin.write(f"{name} {players} {seeds} {','.join(map(str, sizes))}\n")
                    p.stdin.flush()
                    got.append(json.loads(p.stdout.readline()))
                    every[i] += got[-1]
                old, new = got
                print(f"{name:<17}{players:>8}{len(new):>10}"
                      f"{statistics.median(old):>12.2f}{max(old):>10.2f}"
                      f"{statistics.median(new):>12.2f}{max(new):>10.2f}", file=out, flush=True)
    finally:
        for p in procs:
            if p.stdin is not None:
                p.stdin.close()
            p.wait()
    print(f"{'all':<17}{'':>8}{len(every[1]):>10}{statistics.median(every[0]):>12.2f}"
          f"{max(every[0]):>10.2f}{statistics.median(every[1]):>12.2f}{max(every[1]):>10.2f}",
          file=out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m canasta.sim.goingout_sweep",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=2, help="deals per preset and player "
                        "count (default 2)")
    parser.add_argument("--sizes", default="40,67,111",
                        help="hand sizes, comma-separated (default 40,67,111)")
    parser.add_argument("--compare", metavar="OLD_SRC",
                        help="time the same positions under the sources in OLD_SRC too (the "
                        "src folder of an older checkout), side by side: median and max ms")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker()
    sizes = [int(x) for x in args.sizes.split(",") if x]
    if args.seeds < 1 or not sizes:
        parser.error("--seeds must be at least 1 and --sizes name a size")
    if args.compare:
        if not Path(args.compare, "canasta").is_dir():
            parser.error(f"--compare {args.compare}: no canasta package there (give a src "
                         "folder)")
        compare(args.compare, args.seeds, sizes)
        return 0
    sweep(args.seeds, sizes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
