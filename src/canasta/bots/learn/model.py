"""The learned value's models: a small MLP (and ridge regression) over the full-state features,
numpy only, and the weights file they ship in.

A model maps the features of :mod:`canasta.bots.learn.features` (one row per state and side)
to the side's expected hand-score difference, in points (the same unit as the expert's
``evaluate``), and, where the file has one, a match-win head (chance the side wins the match).
Forward pass, for standardised input ``z = (x - mean) / scale``::

    diff = (relu(z @ W1 + b1) @ w2 + z @ wl + b) * y_scale      # MLP with a linear skip
    diff = (z @ wl + b) * y_scale                                 # ridge (W1 empty)
    win  = sigmoid(z @ ww + bw)                                   # the match-win head

The weights file (``value_weights.npz``, next to this module) holds one model per rule set and
player count, keyed ``<variant>-<players>.<array>`` (``international-4.W1``); ``.features``
is the feature count, checked against the extractor when the model is loaded.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

__all__ = ["Model", "WEIGHTS", "load_models", "save_models", "WeightsError"]

#: The shipped weights.
WEIGHTS = Path(__file__).with_name("value_weights.npz")

Array = npt.NDArray[np.float64]
_ARRAYS = ("mean", "scale", "W1", "b1", "w2", "wl", "b", "y_scale", "ww", "bw")


class WeightsError(ValueError):
    """A weights file that does not fit the feature extractor (or is not one)."""


@dataclass
class Model:
    """One rule set's and player count's value model (arrays as the module docstring).

    ``W1`` of shape (features, 0) makes it a linear (ridge) model; ``ww`` of shape (0,) means
    no match-win head.
    """

    mean: Array
    scale: Array
    W1: Array
    b1: Array
    w2: Array
    wl: Array
    b: float
    y_scale: float
    ww: Array
    bw: float

    @property
    def features(self) -> int:
        return int(self.mean.shape[0])

    @property
    def has_win(self) -> bool:
        return bool(self.ww.shape[0])

    def _z(self, x: Array) -> Array:
        return (x - self.mean) / self.scale

    def predict(self, x: Array) -> Array:
        """Hand-score differences (points) of the rows of ``x``: shape (n,) for (n, features),
        a 0-d array for one row of shape (features,)."""
        z = self._z(x)
        out = z @ self.wl + self.b
        if self.W1.shape[1]:
            out = out + np.maximum(z @ self.W1 + self.b1, 0.0) @ self.w2
        return out * self.y_scale

    def predict_win(self, x: Array) -> Array:
        """Chances the side wins the match (0..1), shaped as :meth:`predict`.

        Raises:
            WeightsError: the model has no match-win head.
        """
        if not self.has_win:
            raise WeightsError("this model has no match-win head")
        return 1.0 / (1.0 + np.exp(-(self._z(x) @ self.ww + self.bw)))

    def arrays(self) -> dict[str, Array]:
        return {name: np.asarray(getattr(self, name), dtype=np.float64) for name in _ARRAYS}


def save_models(models: dict[str, Model], path: Path) -> None:
    """Write ``models`` (key ``<variant>-<players>``) to ``path`` as float32 (npz)."""
    flat: dict[str, npt.NDArray[np.generic]] = {}
    for key, m in models.items():
        for name, arr in m.arrays().items():
            flat[f"{key}.{name}"] = arr.astype(np.float32)
        flat[f"{key}.features"] = np.array(m.features)
    np.savez_compressed(path, **flat)  # type: ignore[arg-type]


def load_models(path: Path = WEIGHTS, feature_counts: dict[int, int] | None = None
                ) -> dict[str, Model]:
    """The models of the weights file at ``path``, by key ``<variant>-<players>``.

    ``feature_counts`` (players -> features) checks each model's width against the
    extractor's.

    Raises:
        WeightsError: a missing array, or a model whose width does not match.
        OSError: the file cannot be read.
    """
    try:
        data = np.load(path)
    except ValueError as exc:
        raise WeightsError(f"{path}: not a weights file ({exc})") from None
    keys = sorted({k.rsplit(".", 1)[0] for k in data.files})
    out: dict[str, Model] = {}
    for key in keys:
        try:
            arrs = {name: data[f"{key}.{name}"].astype(np.float64) for name in _ARRAYS}
            width = int(data[f"{key}.features"])
        except KeyError as exc:
            raise WeightsError(f"{path}: model {key!r} lacks {exc}") from None
        model = Model(arrs["mean"], arrs["scale"], arrs["W1"], arrs["b1"], arrs["w2"],
                      arrs["wl"], float(arrs["b"]), float(arrs["y_scale"]), arrs["ww"],
                      float(arrs["bw"]))
        players = int(key.rsplit("-", 1)[1])
        if model.features != width or arrs["wl"].shape[0] != width or (
                feature_counts is not None and players in feature_counts
                and feature_counts[players] != width):
            want = feature_counts.get(players) if feature_counts else width
            raise WeightsError(f"{path}: model {key!r} has {model.features} features, "
                               f"the extractor {want}")
        out[key] = model
    return out
