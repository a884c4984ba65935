"""Expert against another bot over duplicate deals; prints the share of deal pairs won.

A deal is the first hand of ``Match(rules, 4, seed=seed * 1_000_003 + d)`` (as
``canasta.sim.duplicate`` deals it), played twice: the expert's side on seats 0 and 2, then on
seats 1 and 3, every bot seeded by the deal and its seat. A deal pair is won by the expert when
its hand-score difference summed over the two plays is positive. The interval is Wilson's 95%
interval of the share of decided pairs (ties count half in the share, not in the interval's n).

    nice -n 10 .venv/bin/python tools/expert_duplicate.py --deals 40 --iterations 8 \
        --opponent greedy --variant international

Standalone until ``canasta tournament`` (h/tourney) takes bot specs with parameters.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from canasta.bots import make_bot
from canasta.bots.expert import ExpertBot
from canasta.core.match import Match
from canasta.core.rules import load_preset


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a share ``wins / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (centre - half, centre + half)


def play(variant: str, seed: int, expert_side: int, args: argparse.Namespace,
         times: list[float]) -> int:
    rules = load_preset(variant)
    match = Match(rules, 4, seed=seed)
    state = match.state
    bots = []
    for seat in range(4):
        bot_seed = seed * 31 + seat
        if state.team_of[seat] == expert_side:
            bots.append(ExpertBot(bot_seed, policy=lambda s: make_bot(args.playout, s),
                                  time=args.time, iterations=args.iterations, depth=args.depth,
                                  width=args.width, confidence=args.confidence,
                                  playout=args.playout))
        else:
            bots.append(make_bot(args.opponent, bot_seed))
    while not state.is_over:
        seat = state.actor
        view = state.view(seat)
        start = time.perf_counter()
        action = bots[seat].choose(view)
        if isinstance(bots[seat], ExpertBot) and len(view.legal_actions) > 1:
            times.append(time.perf_counter() - start)
        state.apply(action)
    totals = [sheet.hand_total for sheet in state.score()]
    return totals[expert_side] - totals[1 - expert_side]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="international")
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--opponent", default="greedy")
    ap.add_argument("--playout", default="hard")
    ap.add_argument("--time", type=float, default=None)
    ap.add_argument("--iterations", type=int, default=None)
    ap.add_argument("--depth", type=int, default=2)
    ap.add_argument("--width", type=int, default=10)
    ap.add_argument("--confidence", type=float, default=1.0)
    args = ap.parse_args()
    wins = losses = ties = 0
    diffs: list[int] = []
    times: list[float] = []
    started = time.perf_counter()
    for d in range(args.deals):
        seed = args.seed * 1_000_003 + d
        diff = play(args.variant, seed, 0, args, times) + play(args.variant, seed, 1, args, times)
        diffs.append(diff)
        wins += diff > 0
        losses += diff < 0
        ties += diff == 0
        lo, hi = wilson(wins, wins + losses)
        print(f"deal {d + 1}/{args.deals}: diff {diff:+d}  expert {wins}-{losses}-{ties}  "
              f"share {wins / max(1, wins + losses):.3f} [{lo:.3f}, {hi:.3f}]  "
              f"{time.perf_counter() - started:.0f}s", flush=True)
    lo, hi = wilson(wins, wins + losses)
    print(f"RESULT {args.variant} expert(time={args.time}, iterations={args.iterations}, "
          f"depth={args.depth}, confidence={args.confidence}, playout={args.playout}) vs "
          f"{args.opponent}: deal pairs "
          f"{args.deals}, won {wins}, lost {losses}, tied {ties}, share of decided "
          f"{wins / max(1, wins + losses):.3f}, 95% CI [{lo:.3f}, {hi:.3f}], mean diff "
          f"{statistics.mean(diffs):+.1f}, median decision "
          f"{statistics.median(times) * 1000 if times else 0:.0f} ms")


if __name__ == "__main__":
    main()
