"""Time ``canasta.bots.suggest`` on positions of real hands: prints the median and the worst
seconds per call (at most 0.3 s median is the aim).

    nice -n 10 .venv/bin/python tools/hint_speed.py --hands 3 --variant international

The positions are every third decision with a choice in hands played by ``hard`` bots.
"""

from __future__ import annotations

import argparse
import statistics
import time

from canasta.bots import DEFAULT_BUDGET, make_bot, suggest
from canasta.core.match import Match
from canasta.core.rules import load_preset


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="international")
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--budget", type=float, default=DEFAULT_BUDGET)
    ap.add_argument("--n", type=int, default=3)
    args = ap.parse_args()
    rules = load_preset(args.variant)
    times: list[float] = []
    for hand in range(args.hands):
        state = Match(rules, 4, seed=hand).state  # the match re-deals a misdeal
        bots = [make_bot("hard", hand * 4 + i) for i in range(4)]
        choices = 0
        while not state.is_over:
            view = state.view(state.actor)
            if len(view.legal_actions) > 1:
                choices += 1
                if choices % 3 == 0:
                    start = time.perf_counter()
                    out = suggest(view, args.n, args.budget)
                    times.append(time.perf_counter() - start)
                    assert out and all(s.action in view.legal_actions for s in out)
            state.apply(bots[state.actor].choose(view))
    print(f"suggest(n={args.n}, budget={args.budget}) on {args.variant}: {len(times)} calls, "
          f"median {statistics.median(times):.3f} s, max {max(times):.3f} s")


if __name__ == "__main__":
    main()
