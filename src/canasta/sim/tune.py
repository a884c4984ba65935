"""Tune ``hard``'s weights by its win rate on duplicate deals, and measure one pairing.

``python -m canasta.sim.tune --trials 30 --deals 60 --against greedy,medium --write`` runs an
optuna study (the ``tune`` extra: ``pip install 'canasta[tune]'``) over
:class:`~canasta.bots.heuristic.Weights`: each trial plays ``--deals`` duplicate deal pairs
(:func:`canasta.sim.duplicate.run_deal_pairs`, the deals of ``canasta tournament`` for the
same seed) of ``hard`` with the candidate weights against each bot of ``--against``
(``greedy`` by default; ``greedy,medium`` so that ``hard`` does not only learn to exploit
one opponent) on each of ``--variants``, and scores the mean share of deal pairs won (a tie
is half);
``--write`` stores the best weights, the command and the score in
``src/canasta/bots/hard_weights.json``. The sampler and the deals are seeded, so the same
command gives the same weights (docs/bots.md has the command of the shipped ones). Tune on
another seed than the one the ladder measures with, so that the figures reported are not
those the weights were fitted to.

``python -m canasta.sim.tune --measure hard greedy --deals 200`` only measures one pairing
and prints the share of deal pairs won with its 95% Wilson interval
(:class:`canasta.sim.tournament.PairingResult`).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path

from canasta.bots import Bot, register_bot, split_specs
from canasta.bots.heuristic import Weights
from canasta.bots.levels import hard
from canasta.core.rules import load_preset
from canasta.sim.duplicate import DuplicateSetup, run_deal_pairs
from canasta.sim.tournament import PairingResult

#: The registry name under which a trial's candidate plays (this process only).
CANDIDATE = "tune-candidate"


def measure(a: str, b: str, variant: str, deals: int, players: int = 4,
            seed: int = 1) -> PairingResult:
    """``deals`` duplicate deal pairs of bot spec ``a`` against ``b`` on ``variant``.

    Raises:
        ValueError: an unknown bot or variant, a bad player count, ``deals`` < 1.
    """
    setup = DuplicateSetup(load_preset(variant), players, seed=seed)
    return PairingResult.of(a, b, run_deal_pairs(setup, a, b, deals))


def candidate_rate(weights: Weights, against: str, variant: str, deals: int,
                   players: int = 4, seed: int = 1) -> PairingResult:
    """``hard`` with ``weights`` against ``against`` (see :func:`measure`)."""
    def build(bot_seed: int | None) -> Bot:
        return hard(bot_seed, weights)

    register_bot(CANDIDATE, build, "hard with weights under trial")
    return measure(CANDIDATE, against, variant, deals, players, seed)


def _measure(args: argparse.Namespace) -> None:
    a_spec, b_spec = args.measure
    for variant in args.variants.split(","):
        res = measure(a_spec, b_spec, variant, args.deals, args.players, args.seed)
        lo, hi = res.ci95
        print(f"{variant}: {a_spec} vs {b_spec}: {res.a_win_rate:.1%} of {res.deal_pairs} "
              f"deal pairs [{lo:.1%}, {hi:.1%}] (W {res.a_wins} L {res.b_wins} T {res.ties}, "
              f"{res.mean_diff:+.0f} points per pair)", flush=True)


def _tune(args: argparse.Namespace) -> None:
    try:
        import optuna
    except ImportError:
        sys.exit("tuning needs optuna: pip install 'canasta[tune]'")
    base = Weights()
    variants = args.variants.split(",")
    opponents = split_specs(args.against)

    def objective(trial: optuna.Trial) -> float:
        values = {}
        for name, default in asdict(base).items():
            low, high = (default * 0.25, default * 2.5) if default > 0 else \
                (default * 2.5, default * 0.25) if default < 0 else (0.0, 1.0)
            values[name] = trial.suggest_float(name, low, high)
        w = Weights(**values)
        score = 0.0
        for variant in variants:
            for against in opponents:
                res = candidate_rate(w, against, variant, args.deals, args.players, args.seed)
                score += res.a_win_rate + res.mean_diff / 100_000  # the margin breaks ties
        return score / (len(variants) * len(opponents))

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = optuna.samplers.TPESampler(seed=args.seed)
    study = optuna.create_study(direction="maximize", sampler=sampler)
    study.enqueue_trial(asdict(base))
    study.optimize(objective, n_trials=args.trials,
                   callbacks=[lambda st, tr: print(f"trial {tr.number}: {tr.value:.4f} "
                                                   f"(best {st.best_value:.4f})", flush=True)])
    best = {k: round(v, 3) for k, v in study.best_params.items()}
    print(f"best {study.best_value:.3f}: {json.dumps(best)}")
    if args.write:
        path = Path(__file__).resolve().parents[1] / "bots" / "hard_weights.json"
        doc = {"command": " ".join(["python -m canasta.sim.tune", *sys.argv[1:]]),
               "score": round(study.best_value, 4), "weights": best}
        path.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {path}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m canasta.sim.tune", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--measure", nargs=2, metavar=("A", "B"),
                    help="only measure bot spec A against B")
    ap.add_argument("--trials", type=int, default=30)
    ap.add_argument("--deals", type=int, default=40, help="deal pairs per variant")
    ap.add_argument("--variants", default="international")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--against", default="greedy",
                    help="opponent bot specs, comma-separated (the score is the mean rate)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--write", action="store_true", help="write hard_weights.json")
    args = ap.parse_args(argv)
    if args.measure:
        _measure(args)
    else:
        _tune(args)


if __name__ == "__main__":
    main()
