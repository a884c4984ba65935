"""Fit the learned value on self-play shards; print its held-out loss beside the expert's
hand-written ``evaluate``; write the weights.

    nice -n 10 python -m canasta.bots.learn.train data/international-4 [DIR ...] \\
        --out src/canasta/bots/learn/value_weights.npz

Each DIR is one :mod:`canasta.bots.learn.selfplay` run (its ``meta.json`` names the variant
and player count; several DIRs of the same pair are pooled). Per pair, the games are split
20% held out, 80% for training (by game seed, ``--split-seed``: every row of a game on the
same side of the split, since the states of one game are not independent). On the training
part it fits

* ``ridge``: least squares with an L2 penalty on the standardised features;
* ``mlp``: one hidden layer of ``--hidden`` ReLU units with a linear skip (started from the
  ridge solution), Adam on the squared error, early stopping on a tenth of the training
  games; numpy only, on the CPU;
* the match-win head: logistic regression (Newton steps with an L2 penalty) on the same
  features, target 1 won / 0 lost / 0.5 cut or tied.

and prints, on the held-out rows, the mean squared error (and its root, in points; R²) of:
the training mean; ``evaluate`` scaled by its best linear fit ``a * evaluate + b`` on the
training rows (to be fair to a function that was never meant to be in points of the final
score), and on the held-out rows themselves (the best any rescaling of it can do); ridge; the
MLP. The written model is ``--model``: by default (``auto``) the MLP where its error on the
validation games is below ridge's, else ridge; and the win head. The file keeps
the models of other pairs it already holds (``--out`` is updated, not replaced).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from canasta.bots.learn.features import feature_count
from canasta.bots.learn.model import WEIGHTS, Model, load_models, save_models

#: The models ``--model`` chooses from: ``auto`` ships the MLP where it beats ridge on the
#: validation games (never on the held-out ones, which only measure).
MODELS = ("auto", "mlp", "ridge")

__all__ = ["load_shards", "split_by_game", "fit_ridge", "fit_mlp", "fit_logistic",
           "train_pair", "main"]

Array = npt.NDArray[np.float64]


def load_shards(dirs: Sequence[Path]) -> dict[str, dict[str, npt.NDArray[np.generic]]]:
    """The rows of every shard under ``dirs``, pooled by ``<variant>-<players>``.

    Raises:
        ValueError: a directory without ``meta.json`` or shards, or shards of another
            feature count than the extractor's.
    """
    pools: dict[str, list[dict[str, npt.NDArray[np.generic]]]] = {}
    for d in dirs:
        meta_path = d / "meta.json"
        if not meta_path.is_file():
            raise ValueError(f"{d}: no meta.json (not a selfplay output directory)")
        meta = json.loads(meta_path.read_text())
        key = f"{meta['variant']}-{meta['players']}"
        if meta.get("kind") == "branches":
            key += BRANCHES
        shards = sorted(d.glob("shard-*.npz"))
        if not shards:
            raise ValueError(f"{d}: no shard-*.npz files")
        want = feature_count(int(meta["players"]))
        for path in shards:
            with np.load(path) as z:
                rows = {k: z[k] for k in z.files if k != "seeds"}
            if rows["x"].shape[1] != want:
                raise ValueError(f"{path}: {rows['x'].shape[1]} features, the extractor "
                                 f"{want} (shards of another version: generate them again)")
            pools.setdefault(key, []).append(rows)
    return {key: {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
            for key, parts in pools.items()}


#: Suffix of a pool of branch rows (:mod:`canasta.bots.learn.branches`).
BRANCHES = "/branches"


def _within(groups: npt.NDArray[np.int64], *cols: Array) -> list[Array]:
    """Each column less its mean over the rows of the same group (the root of a decision)."""
    _, inv = np.unique(groups, return_inverse=True)
    counts = np.bincount(inv).astype(np.float64)
    out = []
    for c in cols:
        if c.ndim == 1:
            means = np.bincount(inv, weights=c) / counts
            out.append(c - means[inv])
        else:
            sums = np.zeros((len(counts), c.shape[1]))
            np.add.at(sums, inv, c)
            out.append(c - (sums / counts[:, None])[inv])
    return out


def fit_joint(z: Array, y: Array, groups: npt.NDArray[np.int64], alpha: float,
              paired: float) -> tuple[Array, float]:
    """Ridge on the levels of ``y`` and, weighted ``paired``, on its differences within each
    group (``Σ (y - z w - b)² + paired Σ (Δy - Δz w)² + alpha n |w|²``)."""
    ym = float(y.mean())
    zc = z - z.mean(axis=0)
    dz, dy = _within(groups, z, y)
    a = zc.T @ zc + paired * (dz.T @ dz) + alpha * len(z) * np.eye(z.shape[1])
    w = np.asarray(np.linalg.solve(a, zc.T @ (y - ym) + paired * (dz.T @ dy)),
                   dtype=np.float64)
    return w, ym - float(z.mean(axis=0) @ w)


def train_branches(rows: dict[str, npt.NDArray[np.generic]], *, alpha: float = 1e-3,
                   paired: float = 4.0, seed: int = 0, compare: Model | None = None
                   ) -> tuple[Model, list[tuple[str, float, float]]]:
    """Fit a pool of branch rows with :func:`fit_joint`; the model and, on the held-out
    games, (name, mse of the levels, mse of the differences within a decision) for the
    hand-written ``evaluate`` (best linear fit on the training rows), ``compare`` (the
    model of played positions, when given), ridge on the levels alone, and the joint fit.

    Raises:
        ValueError: too few games to split.
    """
    x = rows["x"].astype(np.float64)
    y = rows["diff"].astype(np.float64)
    ev = rows["evaluate"].astype(np.float64)
    games = rows["game"].astype(np.int64)
    root = rows["root"].astype(np.int64)
    if len(np.unique(games)) < 3:
        raise ValueError(f"{len(np.unique(games))} games: at least 3 are needed to split")
    tr, te = split_by_game(games, 0.2, seed)
    mean, scale = _standardise(x[tr])
    z = (x - mean) / scale
    y_scale = float(y[tr].std()) or 1.0

    def both(pred: Array) -> tuple[float, float]:
        dp, dy = _within(root[te], pred, y[te])
        return _mse(pred, y[te]), _mse(dp, dy)

    a, b = np.polyfit(ev[tr], y[tr], 1)
    out = [("evaluate, fit on training", *both(a * ev[te] + b))]
    if compare is not None:
        out.append(("the model of played positions", *both(compare.predict(x[te]))))
    empty = (np.zeros((x.shape[1], 0)), np.zeros(0), np.zeros(0))
    w0, b0 = fit_ridge(z[tr], y[tr] / y_scale, alpha)
    out.append(("ridge on the levels", *both((z[te] @ w0 + b0) * y_scale)))
    w, b1 = fit_joint(z[tr], y[tr] / y_scale, root[tr], alpha, paired)
    model = Model(mean, scale, *empty, w, b1, y_scale, np.zeros(0), 0.0)
    out.append((f"joint ridge, differences weighted {paired:g}", *both(model.predict(x[te]))))
    return model, out


def split_by_game(games: npt.NDArray[np.int64], held: float, seed: int
                  ) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Masks (train, held out) of rows, ``held`` of the distinct games held out."""
    unique = np.unique(games)
    rng = np.random.default_rng(seed)
    out = rng.permutation(unique)[: max(1, round(held * len(unique)))]
    test = np.isin(games, out)
    return ~test, test


def _standardise(x: Array) -> tuple[Array, Array]:
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-6] = 1.0
    return mean, scale


def fit_ridge(z: Array, y: Array, alpha: float) -> tuple[Array, float]:
    """Weights and intercept of ridge regression of ``y`` on standardised ``z``."""
    ym = float(y.mean())
    a = z.T @ z + alpha * len(z) * np.eye(z.shape[1])
    w = np.asarray(np.linalg.solve(a, z.T @ (y - ym)), dtype=np.float64)
    return w, ym


def fit_mlp(z: Array, y: Array, zv: Array, yv: Array, *, hidden: int, epochs: int,
            lr: float, decay: float, batch: int, seed: int, init: tuple[Array, float],
            log: bool = False) -> tuple[Array, Array, Array, Array, float]:
    """(W1, b1, w2, wl, b) of the MLP of :mod:`canasta.bots.learn.model` fitted to ``y``
    (standardised units), best epoch by the error on (``zv``, ``yv``)."""
    rng = np.random.default_rng(seed)
    d = z.shape[1]
    params = [rng.normal(0, np.sqrt(2.0 / d), (d, hidden)), np.zeros(hidden),
              rng.normal(0, 0.01, hidden), init[0].copy(), np.array(init[1])]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    step = 0

    def forward(x: Array, p: list[Array]) -> tuple[Array, Array]:
        h = np.maximum(x @ p[0] + p[1], 0.0)
        return h, h @ p[2] + x @ p[3] + p[4]

    best = (float(np.mean((forward(zv, params)[1] - yv) ** 2)), [p.copy() for p in params])
    stale = 0
    for epoch in range(epochs):
        order = rng.permutation(len(z))
        for i in range(0, len(z), batch):
            idx = order[i:i + batch]
            x, t = z[idx], y[idx]
            h, out = forward(x, params)
            g = 2.0 * (out - t) / len(idx)
            gh = np.outer(g, params[2]) * (h > 0)
            grads = [x.T @ gh + decay * params[0], gh.sum(axis=0), h.T @ g + decay * params[2],
                     x.T @ g + decay * params[3], np.array(g.sum())]
            step += 1
            for k, (p, gr) in enumerate(zip(params, grads, strict=True)):
                m[k] = 0.9 * m[k] + 0.1 * gr
                v[k] = 0.999 * v[k] + 0.001 * gr * gr
                mh = m[k] / (1 - 0.9 ** step)
                vh = v[k] / (1 - 0.999 ** step)
                p -= lr * mh / (np.sqrt(vh) + 1e-8)
        err = float(np.mean((forward(zv, params)[1] - yv) ** 2))
        if log:
            print(f"  epoch {epoch + 1}: validation mse {err:.4f}", file=sys.stderr, flush=True)
        if err < best[0]:
            best = (err, [p.copy() for p in params])
            stale = 0
        else:
            stale += 1
            if stale >= 4:
                break
    q = best[1]
    return q[0], q[1], q[2], q[3], float(q[4])


def fit_logistic(z: Array, y: Array, alpha: float, steps: int = 12) -> tuple[Array, float]:
    """Weights and intercept of logistic regression of soft labels ``y`` (0..1) on ``z``,
    by Newton's method with an L2 penalty ``alpha`` per row."""
    n, d = z.shape
    x = np.hstack([z, np.ones((n, 1))])
    w = np.zeros(d + 1)
    pen = alpha * n * np.eye(d + 1)
    pen[d, d] = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) + pen @ w
        hess = (x * (p * (1 - p))[:, None]).T @ x + pen + 1e-9 * np.eye(d + 1)
        w -= np.linalg.solve(hess, grad)
    return w[:d], float(w[d])


def _mse(pred: Array, y: Array) -> float:
    return float(np.mean((pred - y) ** 2))


def _logloss(p: Array, y: Array) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def train_pair(rows: dict[str, npt.NDArray[np.generic]], *, hidden: int = 32, epochs: int = 30,
               lr: float = 2e-4, decay: float = 1e-3, alpha: float = 1e-3, seed: int = 0,
               model: str = "auto", log: bool = False) -> tuple[Model, list[tuple[str, float]],
                                                               list[tuple[str, float]]]:
    """Fit one pair's models (module docstring): the chosen model, the held-out losses
    (name, mse) of the hand-score difference, and (name, log loss) of the match-win head.

    Raises:
        ValueError: ``model`` not ``mlp`` or ``ridge``, or too few games to split.
    """
    if model not in MODELS:
        raise ValueError(f"model: one of {', '.join(MODELS)}, not {model!r}")
    x = rows["x"].astype(np.float64)
    y = rows["diff"].astype(np.float64)
    win = rows["win"].astype(np.float64)
    ev = rows["evaluate"].astype(np.float64)
    games = rows["game"].astype(np.int64)
    if len(np.unique(games)) < 3:
        raise ValueError(f"{len(np.unique(games))} games: at least 3 are needed to split")
    tr, te = split_by_game(games, 0.2, seed)
    mean, scale = _standardise(x[tr])
    z = (x - mean) / scale
    y_scale = float(y[tr].std()) or 1.0
    ys = y / y_scale
    losses: list[tuple[str, float]] = [("mean of the training rows",
                                        _mse(np.full(te.sum(), y[tr].mean()), y[te]))]
    a, b = np.polyfit(ev[tr], y[tr], 1)
    losses.append((f"evaluate, fit on training ({a:.3f} x + {b:.1f})",
                   _mse(a * ev[te] + b, y[te])))
    a2, b2 = np.polyfit(ev[te], y[te], 1)
    losses.append((f"evaluate, fit on held-out ({a2:.3f} x + {b2:.1f})",
                   _mse(a2 * ev[te] + b2, y[te])))
    wl, b0 = fit_ridge(z[tr], ys[tr], alpha)
    losses.append(("ridge", _mse((z[te] @ wl + b0) * y_scale, y[te])))
    empty_w1, empty_b1, empty_w2 = np.zeros((x.shape[1], 0)), np.zeros(0), np.zeros(0)
    chosen = Model(mean, scale, empty_w1, empty_b1, empty_w2, wl, b0, y_scale,
                   np.zeros(0), 0.0)
    if model != "ridge":
        # early stopping on a tenth of the training games, and the choice of ``auto``
        sub_tr, sub_va = split_by_game(games[tr], 0.1, seed + 1)
        ztr, ytr = z[tr], ys[tr]
        w1, b1, w2, wl2, bb = fit_mlp(ztr[sub_tr], ytr[sub_tr], ztr[sub_va], ytr[sub_va],
                                      hidden=hidden, epochs=epochs, lr=lr, decay=decay,
                                      batch=256, seed=seed, init=(wl, b0), log=log)
        mlp = Model(mean, scale, w1, b1, w2, wl2, bb, y_scale, np.zeros(0), 0.0)
        losses.append((f"mlp ({hidden} hidden)", _mse(mlp.predict(x[te]), y[te])))
        # ridge on the same rows as the MLP, so that neither has seen the validation games
        wv, bv = fit_ridge(ztr[sub_tr], ytr[sub_tr], alpha)
        ridge_err = _mse(ztr[sub_va] @ wv + bv, ytr[sub_va])
        mlp_err = _mse(mlp.predict(x[tr][sub_va]) / y_scale, ytr[sub_va])
        if model == "mlp" or mlp_err < ridge_err:
            chosen = mlp
    ww, bw = fit_logistic(z[tr], win[tr], alpha)
    chosen.ww, chosen.bw = ww, bw
    p = chosen.predict_win(x[te])
    wins = [("constant (training mean)", _logloss(np.full(te.sum(), win[tr].mean()), win[te])),
            ("logistic on the features", _logloss(p, win[te]))]
    return chosen, losses, wins


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m canasta.bots.learn.train",
                                description="Fit the learned value on self-play shards.")
    p.add_argument("dirs", nargs="+", type=Path, help="selfplay output directories")
    p.add_argument("--out", type=Path, default=WEIGHTS, help="weights file to update")
    p.add_argument("--model", default="auto", choices=MODELS)
    p.add_argument("--hidden", type=int, default=32)
    p.add_argument("--epochs", type=int, default=30)
    p.add_argument("--lr", type=float, default=2e-4)
    p.add_argument("--decay", type=float, default=1e-3, help="the MLP's L2 penalty")
    p.add_argument("--alpha", type=float, default=1e-3, help="ridge / logistic L2 penalty")
    p.add_argument("--split-seed", type=int, default=0)
    p.add_argument("--paired", type=float, default=4.0,
                   help="weight of the branch differences in the joint fit")
    p.add_argument("--dry-run", action="store_true", help="print the losses, write nothing")
    p.add_argument("--log", action="store_true", help="the MLP's validation error per epoch")
    a = p.parse_args(argv)
    try:
        pools = load_shards(a.dirs)
    except (ValueError, OSError) as exc:
        print(f"train: {exc}", file=sys.stderr)
        return 2
    models = load_models(a.out) if a.out.is_file() else {}
    for key, rows in sorted(pools.items()):
        if key.endswith(BRANCHES):
            base = key.removesuffix(BRANCHES)
            try:
                model, table = train_branches(rows, alpha=a.alpha, paired=a.paired,
                                              seed=a.split_seed, compare=models.get(base))
            except ValueError as exc:
                print(f"train: {key}: {exc}", file=sys.stderr)
                return 2
            print(f"{key}: {len(rows['diff'])} leaf rows of {len(np.unique(rows['root']))} "
                  f"decisions in {len(np.unique(rows['game']))} hands, 20% held out")
            print(f"  {'held out':46} {'rmse levels':>12} {'rmse differences':>17}")
            for name, lv, df in table:
                print(f"  {name:46} {np.sqrt(lv):12.1f} {np.sqrt(df):17.1f}")
            old = models.get(base)
            if old is not None and old.has_win:
                # the positions' match-win head, rewritten for this model's standardisation
                model.ww = old.ww * model.scale / old.scale
                model.bw = old.bw + float(old.ww @ ((model.mean - old.mean) / old.scale))
            models[base] = model
            continue
        start = time.perf_counter()
        try:
            model, losses, wins = train_pair(rows, hidden=a.hidden, epochs=a.epochs, lr=a.lr,
                                             decay=a.decay,
                                             alpha=a.alpha, seed=a.split_seed, model=a.model,
                                             log=a.log)
        except ValueError as exc:
            print(f"train: {key}: {exc}", file=sys.stderr)
            return 2
        games = len(np.unique(rows["game"]))
        print(f"{key}: {len(rows['diff'])} rows of {games} games, 20% of games held out "
              f"({time.perf_counter() - start:.0f} s)")
        var = losses[0][1]
        print(f"  {'hand-score difference, held out':52} {'mse':>11} {'rmse':>7} {'R2':>6}")
        for name, mse in losses:
            print(f"  {name:52} {mse:11.0f} {np.sqrt(mse):7.1f} {1 - mse / var:6.3f}")
        kind = f"mlp, {model.W1.shape[1]} hidden" if model.W1.shape[1] else "ridge"
        print(f"  shipped: {kind}")
        print(f"  {'match won, held out':52} {'log loss':>11}")
        for name, loss in wins:
            print(f"  {name:52} {loss:11.4f}")
        models[key] = model
    if not a.dry_run:
        save_models(models, a.out)
        print(f"wrote {a.out} ({a.out.stat().st_size // 1024} KiB): {', '.join(sorted(models))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
