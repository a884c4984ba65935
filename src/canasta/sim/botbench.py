"""Bots per decision: ``python -m canasta.sim.botbench [--variant V] [--positions N]``.

Times each bot level's ``choose()`` on the same positions: views of the seat to act after
random play from seeded deals (a decision with a single legal action is left out, as the
bots answer it without thinking). Prints the median and 95th percentile milliseconds per
decision by one clock (CPU time by default, ``--wall`` for the wall clock), and for the
expert the sampled deals (search rounds) per decision. A benchmark that prints figures, never
a test.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from canasta.bots.registry import make_bot
from canasta.core.rules import load_preset
from canasta.core.state import State, View

LEVELS = ("random", "greedy", "easy", "medium", "hard", "expert")


def positions(variant: str, players: int, count: int, seed: int) -> list[View]:
    """``count`` views of the seat to act, each after a random number (5-120) of random
    decisions from deal ``seed + i``, with at least two legal actions."""
    rules = load_preset(variant)
    rng = random.Random(seed)
    out: list[View] = []
    i = 0
    while len(out) < count and i < count * 20:
        state = State.deal(rules, players, seed=seed + i)
        i += 1
        for _ in range(rng.randrange(5, 120)):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_over and len(state.legal_actions()) > 1:
            out.append(state.view(state.actor))
    return out


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0-1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def time_level(spec: str, views: list[View],
               clock: Callable[[], float]) -> tuple[list[float], list[int]]:
    """Milliseconds of ``clock`` per decision of the bot ``spec`` on each view, and (for a
    searching bot whose ``last`` result has ``rounds``) the rounds of each search."""
    ms: list[float] = []
    rounds: list[int] = []
    for i, view in enumerate(views):
        bot = make_bot(spec, seed=i)
        start = clock()
        bot.choose(view)
        ms.append((clock() - start) * 1e3)
        last = getattr(bot, "last", None)
        if last is not None and hasattr(last, "rounds"):
            rounds.append(int(last.rounds))
    return ms, rounds


def report(variant: str = "international", players: int = 4, count: int = 40, seed: int = 1,
           levels: tuple[str, ...] = LEVELS,
           clock: Callable[[], float] = time.process_time) -> None:
    """Print one line per level: median and p95 ms per decision (and deals per decision)."""
    views = positions(variant, players, count, seed)
    print(f"bots per decision, {variant}, {players} players, {len(views)} positions "
          f"(by {'CPU time' if clock is time.process_time else 'the wall clock'}):")
    for spec in levels:
        ms, rounds = time_level(spec, views, clock)
        line = (f"  {spec:<14} median {statistics.median(ms):8.2f} ms   "
                f"p95 {percentile(ms, 0.95):8.2f} ms")
        if rounds:
            line += (f"   deals per decision: median {statistics.median(rounds):.0f}, "
                     f"min {min(rounds)}, max {max(rounds)}")
        print(line, flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m canasta.sim.botbench",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="international")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default=",".join(LEVELS),
                        help="comma-separated bot specs (default: every level)")
    parser.add_argument("--wall", action="store_true", help="time by the wall clock")
    args = parser.parse_args(argv)
    levels = tuple(x.strip() for x in args.levels.split(",") if x.strip())
    for spec in levels:
        make_bot(spec)  # a bad spec is refused before any timing
    report(args.variant, args.players, args.positions, args.seed, levels,
           time.perf_counter if args.wall else time.process_time)


if __name__ == "__main__":
    main()
