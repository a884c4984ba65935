"""The levels ``easy``, ``medium`` and ``hard``: one :class:`~canasta.bots.heuristic.HeuristicBot`
each, with the terms and weights of its level (docs/bots.md describes them and their measured
strength).

* ``easy``: the heuristic without discard safety or freezing, with human-like mistakes: a
  seeded chance of a careless discard (``careless``) and of missing a meld (``miss``);
* ``medium``: the full heuristic of the module :mod:`canasta.bots.heuristic` with its default
  weights: opening, pile value, canasta building, holding wild cards, freezing, black-three
  stops, discard safety from the melds on the table, going out when it may;
* ``hard``: adds card tracking (:mod:`canasta.bots.tracking`), partner play and going-out
  timing against the match score, with the weights tuned by ``canasta.sim.tune`` and shipped
  in ``hard_weights.json`` next to this module.
"""

from __future__ import annotations

import functools
import json
from dataclasses import fields
from importlib import resources

from canasta.bots.heuristic import Features, HeuristicBot, Weights

#: The tuned weights of ``hard`` (written by ``python -m canasta.sim.tune --write``).
HARD_WEIGHTS_FILE = "hard_weights.json"


@functools.lru_cache(maxsize=1)
def hard_weights() -> Weights:
    """``hard``'s weights: :class:`Weights` with the values of ``hard_weights.json`` (a JSON
    object ``{"weights": {name: number}}``; names not there keep their default).

    Raises:
        ValueError: the file names a weight :class:`Weights` does not have.
    """
    text = resources.files("canasta.bots").joinpath(HARD_WEIGHTS_FILE).read_text("utf-8")
    data = json.loads(text)["weights"]
    known = {f.name for f in fields(Weights)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"{HARD_WEIGHTS_FILE}: unknown weights {', '.join(unknown)}")
    return Weights(**{k: float(v) for k, v in data.items()})


def easy(seed: int | None = None, careless: float = 0.3, miss: float = 0.3) -> HeuristicBot:
    """The ``easy`` level (see the module docstring); ``careless`` and ``miss`` are the
    chances, per decision, of a careless discard and of a missed meld."""
    features = Features(safety=False, freeze=False, careless=careless, miss_meld=miss)
    return HeuristicBot(seed, Weights(), features, name="easy")


def medium(seed: int | None = None) -> HeuristicBot:
    """The ``medium`` level (see the module docstring)."""
    return HeuristicBot(seed, Weights(), Features(), name="medium")


def hard(seed: int | None = None, weights: Weights | None = None) -> HeuristicBot:
    """The ``hard`` level (see the module docstring); ``weights`` replaces the shipped ones
    (the tuning script tries its candidates so)."""
    features = Features(tracking=True, timing=True, partner=True)
    return HeuristicBot(seed, weights or hard_weights(), features, name="hard")
