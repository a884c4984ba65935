"""CPU time a bot table's move costs the server's own Python, in one process, by part: the
bot's view (``Game.view``), the ``greedy`` bot's choice, ``play_actions`` (apply, then the
views, going-out plan and log entries the messages need) and the spectator's state message
with its JSON text (``to_json``, as a broadcast makes it).

    nice -n 10 .venv/bin/python tools/server_move_cpu.py --moves 1500 --rounds 3

Not the whole server move: storing (SQLite / PostgreSQL), the event loop, Redis and the
WebSocket writes are outside it (``python -m canasta.web.loadtest`` measures those, with the
server's CPU per move). Medians of ``--rounds`` rounds, CPU time (``time.process_time``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from canasta.bots.registry import make_bot
from canasta.core.rules import load_preset
from canasta.web.play.connections import to_json
from canasta.web.play.game import Game, play_actions

PARTS = ("view", "choose", "play", "message")


def run(variant: str, moves: int, seed: int) -> dict[str, float]:
    """Microseconds per move of each part over ``moves`` bot moves (new matches as needed)."""
    rules = load_preset(variant)
    random.seed(seed)
    clock = time.process_time
    spent = dict.fromkeys(PARTS, 0.0)
    bots = [make_bot("greedy", seed=seed * 10 + i) for i in range(4)]
    n = 0
    while n < moves:
        game = Game.new(rules, 4, None, ["a", "b", "c", "d"])
        while not game.state.is_over and n < moves:
            seat = game.state.actor
            t0 = clock()
            view = game.view(seat)
            t1 = clock()
            action = bots[seat].choose(view)
            t2 = clock()
            play_actions(game, seat, [action], {seat, None})
            t3 = clock()
            to_json({"type": "state", "view": game.view_json(None)})
            t4 = clock()
            spent["view"] += t1 - t0
            spent["choose"] += t2 - t1
            spent["play"] += t3 - t2
            spent["message"] += t4 - t3
            n += 1
    return {k: v / n * 1e6 for k, v in spent.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="international")
    ap.add_argument("--moves", type=int, default=1500)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    rounds = [run(args.variant, args.moves, r) for r in range(args.rounds)]
    for part in PARTS:
        print(f"  {part:8} {statistics.median(r[part] for r in rounds):8.1f} µs/move")
    total = statistics.median(sum(r.values()) for r in rounds)
    print(f"  {'total':8} {total:8.1f} µs/move (CPU, median of {args.rounds} rounds)")


if __name__ == "__main__":
    main()
