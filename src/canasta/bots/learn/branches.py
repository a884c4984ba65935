"""Branch data for the learned value: the search's own comparison, as training rows.

    nice -n 10 python -m canasta.bots.learn.branches --variant international --games 400 \\
        --seed 1 --out data/international-4-branches

A value fitted to positions of played games learns what goes with winning, not what a move
changes: on such data, points held in hand go with a good future (a side that took the pile
holds many), so a fitted value likes keeping cards and dislikes melding them, and an expert
valuing its playouts with it melds too little (docs/bots.md, "The learned value"). The search
needs the other thing: of several moves from one position, which leaves the side better off.

So here, in hands played by ``hard``, at sampled decisions with a choice (``--sample``), the
expert's candidates (:func:`canasta.bots.expert.candidates`, ``--width``) are each played from
the same full state, followed by ``hard`` for every seat for ``--depth`` rounds: that state is
the search's leaf, and its row holds its features; the same play-out then goes on to the end
of the hand, whose score difference is the row's target ``diff``. Rows of one decision share a
``root`` (the stock order is the same in every branch: common random numbers, as in the
search), so :mod:`canasta.bots.learn.train` can fit the differences between branches as well
as their levels. Shards and ``meta.json`` as :mod:`canasta.bots.learn.selfplay` (``kind``:
``branches``), ``evaluate`` beside each row for comparison.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from canasta.bots import make_bot
from canasta.bots.expert import MAX_PLAYOUT_ACTIONS, candidates, evaluate
from canasta.bots.learn.features import extract, feature_count, feature_names
from canasta.bots.learn.selfplay import game_seed
from canasta.core.legality import IllegalActionError
from canasta.core.match import Match
from canasta.core.rules import load_preset
from canasta.core.state import State

__all__ = ["branch_game", "main"]

Rows = dict[str, npt.NDArray[np.generic]]


def _play(state: State, seed: int, stop: int | None) -> None:
    """``hard`` for every seat on ``state`` until turn ``stop`` (None: the hand's end)."""
    bots = [make_bot("hard", seed + 7919 * p) for p in range(state.players)]
    for _ in range(MAX_PLAYOUT_ACTIONS * 10):
        if state.is_over or (stop is not None and state.turn >= stop):
            return
        move = bots[state.actor].choose(state.view(state.actor))
        try:
            state.apply(move)
        except IllegalActionError:
            state.apply(state.legal_actions()[0])


def branch_game(variant: str, players: int, seed: int, game: int, *, sample: float = 0.1,
                width: int = 4, depth: int = 1) -> Rows:
    """The branch rows of game ``game`` (one hand of ``hard`` play; module docstring)."""
    gseed = game_seed(seed, game)
    state = Match(load_preset(variant), players, seed=gseed).state
    rng = random.Random(gseed ^ 0xB7A7)
    bots = [make_bot("hard", gseed * 64 + s) for s in range(players)]
    feats: list[npt.NDArray[np.float64]] = []
    diff: list[float] = []
    ev: list[float] = []
    root: list[int] = []
    roots = 0
    while not state.is_over:
        view = state.view(state.actor)
        move = bots[state.actor].choose(view)
        if len(view.legal_actions) > 1 and rng.random() < sample:
            seat = state.actor
            team = state.team_of[seat]
            key = gseed * 1000 + roots
            roots += 1
            stop = state.turn + depth * state.players
            pseed = rng.getrandbits(31)
            for action in candidates(view, move, width):
                s = state.clone()
                try:
                    s.apply(action)
                except IllegalActionError:
                    continue
                _play(s, pseed, stop)
                feats.append(extract(s, seat))
                ev.append(evaluate(s, team))
                _play(s, pseed + 1, None)
                totals = [float(sh.hand_total) for sh in s.score()] if s.is_over else \
                    [0.0] * len(s.teams)
                diff.append(totals[team] - max(v for t, v in enumerate(totals) if t != team))
                root.append(key)
        state.apply(move)
    width_f = feature_count(players)
    return {
        "x": np.stack(feats).astype(np.float32) if feats else np.zeros((0, width_f), np.float32),
        "diff": np.array(diff, dtype=np.float32),
        "evaluate": np.array(ev, dtype=np.float32),
        "root": np.array(root, dtype=np.int64),
        "game": np.full(len(diff), gseed, dtype=np.int64),
        "win": np.full(len(diff), 0.5, dtype=np.float32),
    }


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m canasta.bots.learn.branches",
                                description="Branch data (the search's comparisons).")
    p.add_argument("--variant", default="international")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=100, help="hands to play")
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--sample", type=float, default=0.1,
                   help="chance that a decision with a choice is branched")
    p.add_argument("--width", type=int, default=4)
    p.add_argument("--depth", type=int, default=1)
    p.add_argument("--shard", type=int, default=50)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--progress", action="store_true")
    a = p.parse_args(argv)
    if a.games < 1 or a.players not in load_preset(a.variant).deal.player_counts:
        print("branches: games must be 1 or more and the player count one the rules allow",
              file=sys.stderr)
        return 2
    a.out.mkdir(parents=True, exist_ok=True)
    (a.out / "meta.json").write_text(json.dumps({
        "kind": "branches", "variant": a.variant, "players": a.players, "seed": a.seed,
        "first": a.first, "games": a.games, "sample": a.sample, "width": a.width,
        "depth": a.depth, "features": feature_names(a.players), "command": sys.argv,
    }, indent=1) + "\n")
    for start in range(a.first, a.first + a.games, a.shard):
        games = range(start, min(a.first + a.games, start + a.shard))
        parts = [branch_game(a.variant, a.players, a.seed, g, sample=a.sample, width=a.width,
                             depth=a.depth) for g in games]
        rows = {k: np.concatenate([q[k] for q in parts]) for k in parts[0]}
        seeds = np.array([game_seed(a.seed, g) for g in games])
        np.savez_compressed(a.out / f"shard-{start:05d}.npz", seeds=seeds,
                            **rows)  # type: ignore[arg-type]
        if a.progress:
            print(f"shard {start}: {len(rows['diff'])} rows", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
