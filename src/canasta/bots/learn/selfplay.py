"""Self-play data for the learned value: bot matches, sampled states, their outcomes, in shards.

    nice -n 10 python -m canasta.bots.learn.selfplay --variant international --players 4 \\
        --games 600 --seed 1 --workers 2 --out data/intl4

Each *game* is one match of ``--bots`` (default ``hard`` for every seat) from the match seed
:func:`game_seed` (``seed``, game number), cut after ``--max-hands`` hands. To vary the states,
each game draws a rate ``eps`` from ``--eps`` (default 0, 0.05, 0.1) and every decision is a
uniformly random legal move with that chance. States are sampled at the start of a turn (the
draw), the point where the expert's playouts are cut and valued, each with chance
``--sample``, and with ``--after-draw`` just after a draw from the stock (the states the luck
of the draws is measured on, :mod:`canasta.sim.luck`); each sampled state gives two rows,
one seen from the seat to play and one from the next seat (an opponent), so the value learns
both sides of the table.

Per row: the features of the FULL state (:func:`canasta.bots.learn.features.extract`: every
hand visible, as in the search's sampled deals), and the targets

* ``diff``: the side's final hand-score difference of this hand (its hand total minus the best
  other side's, points), the quantity the expert's search maximises;
* ``win``: 1 when the side won the match, 0 when it lost, 0.5 when the game was cut before the
  match ended (``--max-hands``) or tied;

and for comparison ``evaluate`` (the expert's hand-written :func:`canasta.bots.expert.evaluate`
of the same state and side), with ``game`` (the game's seed), ``hand``, ``turn``, ``seat``.

Shards are ``shard-NNNNN.npz`` (numpy, compressed) of ``--shard`` games each, named by their
first game number, with ``meta.json`` beside them (variant, players, seed, feature names,
the command line). Games run on ``--workers`` local processes or, with ``--ray``, on Ray
(``local``, ``auto`` or an address; the ``ray`` extra); the shards are the same either way:
a game depends only on (rules, players, bots, seed, game number).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from canasta.bots import make_bot
from canasta.bots.expert import evaluate
from canasta.bots.learn.features import extract, feature_count, feature_names
from canasta.core.actions import Draw
from canasta.core.data import Phase
from canasta.core.match import Match
from canasta.core.rules import Rules, load_preset
from canasta.core.state import State

__all__ = ["GameSpec", "game_seed", "play_game", "generate", "main"]

#: Keeps self-play deals apart from the tournament's and the ladder's (``seed * 1_000_003 +
#: deal`` with small seeds): a value is never trained on the deals it is measured on.
SEED_SALT = 0x5E1F_0000_0000


def game_seed(seed: int, game: int) -> int:
    """The match seed of game number ``game`` of a run with seed ``seed``."""
    return SEED_SALT + seed * 1_000_003 + game


@dataclass(frozen=True)
class GameSpec:
    """What every game of a run shares (picklable: it travels to worker processes)."""

    variant: str
    players: int
    seed: int
    bots: tuple[str, ...] = ("hard",)
    eps: tuple[float, ...] = (0.0, 0.05, 0.1)
    sample: float = 0.35
    max_hands: int = 12
    after_draw: float = 0.0
    max_actions: int = 20_000

    @property
    def rules(self) -> Rules:
        return load_preset(self.variant)


Rows = dict[str, npt.NDArray[np.generic]]


def play_game(spec: GameSpec, game: int) -> Rows:
    """Play game ``game`` of ``spec``; its rows (see the module docstring), as arrays.

    Raises:
        RuntimeError: a hand longer than ``spec.max_actions`` actions.
    """
    seed = game_seed(spec.seed, game)
    rules = spec.rules
    match = Match(rules, spec.players, seed=seed)
    rng = random.Random(seed ^ 0xA5A5)
    eps = rng.choice(spec.eps)
    bots = [make_bot(spec.bots[s % len(spec.bots)], seed * 64 + s) for s in range(spec.players)]
    feats: list[npt.NDArray[np.float64]] = []
    meta: list[tuple[int, int, int, int, float]] = []  # hand, turn, seat, team, evaluate
    hand_diffs: list[list[float]] = []  # per hand, per team
    hands = 0

    def take(state: State) -> None:
        for seat in (state.actor, (state.actor + 1) % spec.players):
            team = state.team_of[seat]
            feats.append(extract(state, seat))
            meta.append((hands, state.turn, seat, team, evaluate(state, team)))

    while True:
        state = match.state
        for s, bot in enumerate(bots):
            reset = getattr(bot, "reset", None)
            if reset is not None:
                reset(s)
        last_turn = -1
        n = 0
        while not state.is_over:
            if n >= spec.max_actions:
                raise RuntimeError(f"game {game}: hand {hands + 1} did not end in "
                                   f"{spec.max_actions} actions")
            if state.phase is Phase.DRAW and state.turn != last_turn:
                last_turn = state.turn
                if rng.random() < spec.sample:
                    take(state)
            actor = state.actor
            view = state.view(actor)
            legal = view.legal_actions
            if eps and len(legal) > 1 and rng.random() < eps:
                action = legal[rng.randrange(len(legal))]
            else:
                action = bots[actor].choose(view)
            state.apply(action)
            n += 1
            if spec.after_draw and isinstance(action, Draw) and not state.is_over and \
                    rng.random() < spec.after_draw:
                take(state)
        sheets = match.finish_hand()
        totals = [0.0] * len(match.teams)
        for sheet in sheets:
            totals[sheet.team] = float(sheet.hand_total)
        hand_diffs.append([totals[t] - max(v for u, v in enumerate(totals) if u != t)
                           for t in range(len(totals))])
        hands += 1
        if match.winner is not None or hands >= spec.max_hands:
            break
        match.next_hand()
    winner = match.winner
    k = len(meta)
    width = feature_count(spec.players)
    x = np.stack(feats).astype(np.float32) if feats else np.zeros((0, width), np.float32)
    teams = np.array([m[3] for m in meta], dtype=np.int64)
    return {
        "x": x,
        "diff": np.array([hand_diffs[m[0]][m[3]] for m in meta], dtype=np.float32),
        "win": np.array([0.5 if winner is None else float(winner == t) for t in teams],
                        dtype=np.float32),
        "evaluate": np.array([m[4] for m in meta], dtype=np.float32),
        "game": np.full(k, seed, dtype=np.int64),
        "hand": np.array([m[0] for m in meta], dtype=np.int16),
        "turn": np.array([m[1] for m in meta], dtype=np.int16),
        "seat": np.array([m[2] for m in meta], dtype=np.int8),
    }


def play_games(spec: GameSpec, games: Sequence[int]) -> Rows:
    """:func:`play_game` of each game, rows concatenated in game order."""
    parts = [play_game(spec, g) for g in games]
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


def _chunks(first: int, games: int, size: int) -> Iterator[list[int]]:
    for start in range(first, first + games, size):
        yield list(range(start, min(first + games, start + size)))


def generate(spec: GameSpec, games: int, out: Path, *, first: int = 0, shard: int = 50,
             workers: int = 1, ray: str | None = None, progress: bool = False) -> list[Path]:
    """Play games ``first .. first + games - 1`` of ``spec`` and write their shards to
    ``out`` (created), with ``meta.json``. Returns the shard paths in game order.

    Raises:
        ValueError: ``games`` or ``shard`` < 1, a player count the rules do not allow.
        ImportError: ``ray`` given and Ray not installed.
    """
    if games < 1 or shard < 1:
        raise ValueError(f"games and shard must be 1 or more, not {games} and {shard}")
    if spec.players not in spec.rules.deal.player_counts:
        raise ValueError(f"{spec.variant} is not played by {spec.players} players")
    for b in spec.bots:
        make_bot(b, 0)  # an unknown bot fails here, before any process starts
    out.mkdir(parents=True, exist_ok=True)
    chunks = list(_chunks(first, games, shard))
    paths = [out / f"shard-{c[0]:05d}.npz" for c in chunks]
    # written first, so that the shards of a run stopped early can still be trained on
    (out / "meta.json").write_text(json.dumps({
        "variant": spec.variant, "players": spec.players, "seed": spec.seed,
        "bots": list(spec.bots), "eps": list(spec.eps), "sample": spec.sample,
        "max_hands": spec.max_hands, "after_draw": spec.after_draw, "first": first, "games": games,
        "features": feature_names(spec.players), "command": sys.argv,
    }, indent=1) + "\n")
    start = time.perf_counter()

    def write(i: int, rows: Rows) -> None:
        arrays = dict(rows, seeds=np.array([game_seed(spec.seed, g) for g in chunks[i]]))
        np.savez_compressed(paths[i], **arrays)  # type: ignore[arg-type]
        if progress:
            print(f"shard {i + 1}/{len(chunks)}: {len(rows['diff'])} rows, "
                  f"{time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)

    if ray is not None:
        try:
            import ray as ray_mod
        except ImportError as exc:
            raise ImportError("--ray needs Ray: pip install 'canasta[ray]'") from exc
        if not ray_mod.is_initialized():
            if ray == "local":
                ray_mod.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
            else:
                ray_mod.init(address=ray, log_to_driver=False)
        remote = ray_mod.remote(play_games)
        refs = [remote.remote(spec, c) for c in chunks]
        for i, ref in enumerate(refs):
            write(i, ray_mod.get(ref))
    elif workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            for i, rows in enumerate(pool.map(play_games, [spec] * len(chunks), chunks)):
                write(i, rows)
    else:
        for i, c in enumerate(chunks):
            write(i, play_games(spec, c))
    return paths


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m canasta.bots.learn.selfplay",
                                description="Self-play shards for the learned value.")
    p.add_argument("--variant", default="international")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=100, help="matches to play")
    p.add_argument("--first", type=int, default=0, help="first game number")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--bots", default="hard", help="bot spec per seat, comma-separated "
                   "(cycled over the seats)")
    p.add_argument("--eps", default="0,0.05,0.1",
                   help="chances of a random move, one drawn per game")
    p.add_argument("--sample", type=float, default=0.35,
                   help="chance that a turn's start is sampled")
    p.add_argument("--after-draw", type=float, default=0.0,
                   help="chance that the state just after a draw from the stock is sampled")
    p.add_argument("--max-hands", type=int, default=12)
    p.add_argument("--shard", type=int, default=50, help="games per shard")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--ray", default=None, help="local, auto or a Ray address")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--progress", action="store_true")
    a = p.parse_args(argv)
    from canasta.bots import split_specs
    spec = GameSpec(a.variant, a.players, a.seed, tuple(split_specs(a.bots)),
                    tuple(float(e) for e in a.eps.split(",")), a.sample, a.max_hands,
                    a.after_draw)
    try:
        paths = generate(spec, a.games, a.out, first=a.first, shard=a.shard,
                         workers=a.workers, ray=a.ray, progress=a.progress)
    except (ValueError, ImportError, RuntimeError) as exc:
        print(f"selfplay: {exc}", file=sys.stderr)
        return 2
    print(f"{len(paths)} shards in {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
