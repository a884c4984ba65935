"""Tune ``hard``'s weights by its win rate on duplicate deals, and measure levels.

``python -m canasta.bots.tune --trials 40 --deals 60 --write`` runs an optuna study (the
``tune`` extra: ``pip install 'canasta[tune]'``) over :class:`~canasta.bots.heuristic.Weights`:
each trial plays ``--deals`` duplicate deal pairs of the candidate against ``--against``
(``greedy`` by default) on the ``--variants`` and scores the share of pairs won; ``--write``
stores the best weights in ``src/canasta/bots/hard_weights.json``. The seeds are fixed, so
the same command gives the same weights (docs/bots.md has the command of the shipped ones).

``python -m canasta.bots.tune --measure hard greedy --deals 200`` only measures one pairing
(:func:`duplicate`) and prints the share of deal pairs won with its 95% interval.

A *deal pair* is one deck order played twice, the bots' sides swapped; side A wins the pair
when its hand scores summed over the two plays beat side B's (a tie is half a win).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from canasta.bots.registry import Bot, make_bot
from canasta.core.rules import Rules, load_preset
from canasta.core.state import State

BotFactory = Callable[[int], Bot]


@dataclass(frozen=True)
class PairResult:
    """The outcome of duplicate deal pairs for side A: ``wins``, ``losses`` and ``ties`` of
    pairs, ``margin`` the mean points per pair A made over B."""

    pairs: int
    wins: int
    losses: int
    ties: int
    margin: float

    @property
    def rate(self) -> float:
        """A's share of pairs won, a tie counting half."""
        return (self.wins + 0.5 * self.ties) / self.pairs if self.pairs else 0.0

    def ci95(self) -> tuple[float, float]:
        """Wilson 95% interval of :attr:`rate`."""
        n = self.pairs
        if not n:
            return (0.0, 1.0)
        p, z = self.rate, 1.96
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (max(0.0, centre - half), min(1.0, centre + half))


def play_hand(rules: Rules, players: int, bots: list[Bot], seed: int,
              max_actions: int = 20_000) -> list[int]:
    """Play one hand dealt from ``seed`` with ``bots[seat]``; returns each team's hand score.

    Raises:
        RuntimeError: the hand runs past ``max_actions`` actions.
    """
    state = State.deal(rules, players, seed=seed, dealer=seed % players)
    steps = 0
    while not state.is_over:
        seat = state.actor
        state.apply(bots[seat].choose(state.view(seat)))
        steps += 1
        if steps > max_actions:
            raise RuntimeError(f"deal {seed}: no end in {max_actions} actions")
    return [sheet.hand_total for sheet in sorted(state.score(), key=lambda s: s.team)]


def duplicate(a: BotFactory, b: BotFactory, rules: Rules, deals: int, players: int = 4,
              seed: int = 0) -> PairResult:
    """Play ``deals`` duplicate deal pairs of A against B (see the module docstring); the
    bots of a deal are built by ``a(bot_seed)`` and ``b(bot_seed)``. Two teams only (2, 4 or
    6 players in two sides): seats of team 0 get A in the first play and B in the second."""
    team_of = [0] * players
    for t, seats in enumerate(rules.teams(players)):
        for s in seats:
            team_of[s] = t
    if max(team_of) != 1:
        raise ValueError(f"duplicate deals need two sides; {players} players make "
                         f"{max(team_of) + 1}")
    wins = losses = ties = 0
    margin = 0
    for k in range(deals):
        deal_seed = seed * 1_000_003 + k
        total = 0
        for a_team in (0, 1):
            bots = [a(deal_seed * 8 + s) if team_of[s] == a_team else b(deal_seed * 8 + s)
                    for s in range(players)]
            scores = play_hand(rules, players, bots, deal_seed)
            total += scores[a_team] - scores[1 - a_team]
        margin += total
        if total > 0:
            wins += 1
        elif total < 0:
            losses += 1
        else:
            ties += 1
    return PairResult(deals, wins, losses, ties, margin / deals if deals else 0.0)


def spec_factory(spec: str) -> BotFactory:
    """A factory building the bot of ``spec`` with a given seed."""
    make_bot(spec)  # fail early on a bad spec
    return lambda s: make_bot(spec, s)


def _measure(args: argparse.Namespace) -> None:
    a_spec, b_spec = args.measure
    for variant in args.variants.split(","):
        rules = load_preset(variant)
        res = duplicate(spec_factory(a_spec), spec_factory(b_spec), rules, args.deals,
                        args.players, args.seed)
        lo, hi = res.ci95()
        print(f"{variant}: {a_spec} vs {b_spec}: {res.rate:.1%} of {res.pairs} deal pairs "
              f"[{lo:.1%}, {hi:.1%}] (W {res.wins} L {res.losses} T {res.ties}, "
              f"{res.margin:+.0f} points per pair)", flush=True)


def _tune(args: argparse.Namespace) -> None:
    try:
        import optuna
    except ImportError:
        sys.exit("tuning needs optuna: pip install 'canasta[tune]'")
    from canasta.bots.heuristic import Weights
    from canasta.bots.levels import hard

    base = Weights()
    variants = [load_preset(v) for v in args.variants.split(",")]
    against = spec_factory(args.against)

    def objective(trial: optuna.Trial) -> float:
        values = {}
        for name, default in asdict(base).items():
            low, high = (default * 0.25, default * 2.5) if default > 0 else \
                (default * 2.5, default * 0.25) if default < 0 else (0.0, 1.0)
            values[name] = trial.suggest_float(name, low, high)
        w = Weights(**values)
        score = 0.0
        for rules in variants:
            res = duplicate(lambda s: hard(s, w), against, rules, args.deals, args.players,
                            args.seed)
            score += res.rate + res.margin / 100_000  # the margin breaks ties of the rate
        return score / len(variants)

    sampler = optuna.samplers.TPESampler(seed=args.seed)
    study = optuna.create_study(direction="maximize", sampler=sampler)
    study.enqueue_trial(asdict(base))
    study.optimize(objective, n_trials=args.trials)
    best = {k: round(v, 3) for k, v in study.best_params.items()}
    print(f"best {study.best_value:.3f}: {json.dumps(best)}")
    if args.write:
        path = Path(__file__).with_name("hard_weights.json")
        doc = {"command": " ".join(["python -m canasta.bots.tune", *sys.argv[1:]]),
               "score": round(study.best_value, 4), "weights": best}
        path.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {path}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m canasta.bots.tune", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--measure", nargs=2, metavar=("A", "B"),
                    help="only measure bot spec A against B")
    ap.add_argument("--trials", type=int, default=40)
    ap.add_argument("--deals", type=int, default=60, help="deal pairs per variant")
    ap.add_argument("--variants", default="international")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--against", default="greedy")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--write", action="store_true", help="write hard_weights.json")
    args = ap.parse_args(argv)
    if args.measure:
        _measure(args)
    else:
        _tune(args)


if __name__ == "__main__":
    main()
