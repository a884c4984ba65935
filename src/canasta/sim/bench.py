"""Benchmark: ``python -m canasta.bench [--variant V] [--hands N] [--runs R] [--players P]``.

Prints, as the median of several runs (machines are noisy), for random play-outs of whole
hands: actions per second, hands per second, mean actions per hand, the cost of ``clone()``
and of ``legal_actions()`` in microseconds, and the memory of one state (tracemalloc). Not a
test: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import tracemalloc

from canasta.core.rules import load_preset
from canasta.core.state import State


def playout_run(variant: str, hands: int, players: int, seed: int) -> tuple[float, float, float]:
    """Play ``hands`` random hands; returns (actions/s, hands/s, actions per hand)."""
    rules = load_preset(variant)
    rng = random.Random(seed)
    actions = 0
    start = time.perf_counter()
    for h in range(hands):
        state = State.deal(rules, players, seed=seed * 100_003 + h)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
    elapsed = time.perf_counter() - start
    return actions / elapsed, hands / elapsed, actions / hands


def mid_hand_states(variant: str, players: int, count: int, seed: int) -> list[State]:
    """States sampled in the middle of random hands (for clone and legal_actions timing)."""
    rules = load_preset(variant)
    rng = random.Random(seed)
    out = []
    for h in range(count):
        state = State.deal(rules, players, seed=seed + h)
        for _ in range(rng.randrange(20, 80)):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_over:
            out.append(state)
    return out


def per_call_us(states: list[State], what: str, repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        for s in states:
            s.clone() if what == "clone" else s.legal_actions()
    return (time.perf_counter() - start) / (repeat * len(states)) * 1e6


def state_bytes(state: State) -> int:
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    copy = state.clone()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    del copy
    return sum(s.size_diff for s in after.compare_to(before, "filename"))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m canasta.bench", description=__doc__)
    parser.add_argument("--variant", default="international")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--hands", type=int, default=40, help="hands per run")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)

    results = [playout_run(args.variant, args.hands, args.players, seed=r)
               for r in range(args.runs)]
    aps = statistics.median(r[0] for r in results)
    hps = statistics.median(r[1] for r in results)
    length = statistics.mean(r[2] for r in results)
    states = mid_hand_states(args.variant, args.players, 30, seed=7)
    clone_us = statistics.median(per_call_us(states, "clone", 50) for _ in range(args.runs))
    legal_us = statistics.median(per_call_us(states, "legal", 5) for _ in range(args.runs))
    mem = int(statistics.median(state_bytes(s) for s in states[:10]))
    print(f"canasta benchmark: {args.variant}, {args.players} players, random play-outs, "
          f"median of {args.runs} runs of {args.hands} hands")
    print(f"  actions per second   {aps:12,.0f}")
    print(f"  hands per second     {hps:12,.1f}")
    print(f"  actions per hand     {length:12,.1f}")
    print(f"  clone()              {clone_us:12,.1f} us")
    print(f"  legal_actions()      {legal_us:12,.1f} us")
    print(f"  one state (clone)    {mem:12,d} bytes")


if __name__ == "__main__":
    main()
