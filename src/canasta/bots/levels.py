"""The levels ``easy``, ``medium`` and ``hard``: one :class:`~canasta.bots.heuristic.HeuristicBot`
each, with the terms and weights of its level (docs/bots.md describes them and their measured
strength).

* ``easy``: the heuristic without discard safety or freezing, with a beginner's mistakes: a
  seeded chance of a careless discard (``careless``) and of missing a meld or a going out
  (``miss``) at most decisions, and a pile taken whenever it looks worth anything (no stock
  card weighed against it);
* ``medium``: the full heuristic of the module :mod:`canasta.bots.heuristic`: opening, pile
  value against the stock cards a take gives up, canasta building, holding wild cards,
  freezing, black-three stops, discard safety from the melds on the table, going out when it
  may (:data:`MEDIUM_WEIGHTS`), with a club player's slips: the same two mistakes as
  ``easy``, at about half its decisions;
* ``hard``: ``medium`` without its slips, with card tracking (:mod:`canasta.bots.tracking`),
  partner play and going-out timing against the match score, with weights per preset from
  ``hard_weights.json`` next to this module (:func:`hard_weights`); ``hard:samples=8`` adds
  a shallow search over sampled deals at draws and discards (:mod:`canasta.bots.lookahead`),
  off by default as it has not yet beaten the heuristic alone on every preset.
"""

from __future__ import annotations

import functools
import json
from dataclasses import fields
from importlib import resources

from canasta.bots.heuristic import Features, HeuristicBot, Weights
from canasta.bots.lookahead import DEFAULT_MARGIN, DEFAULT_SAMPLES, DEFAULT_WIDTH, LookaheadBot
from canasta.core.actions import Action
from canasta.core.state import View

#: The weights of ``hard``, per preset (see :func:`hard_weights`).
HARD_WEIGHTS_FILE = "hard_weights.json"

#: ``medium``'s weights: the defaults, with a stock card valued at 12 (a take then scores as
#: the defaults' where it gives up one stock card, and less in two-player international,
#: where it gives up two).
MEDIUM_WEIGHTS = Weights(stock_card=12.0, take_base=22.0)

#: The mistakes of each level: the chance per discard of a careless one (any card but a wild
#: card) and per meld or going out of missing it. ``hard`` makes none; the rates are set so
#: that each level wins about two deal pairs in three or more against the one below on
#: every preset (measured on deals other than the ladder's, docs/bots.md "The ladder that
#: holds"): smaller slips hardly cost, as the duplicate results showed.
MEDIUM_CARELESS, MEDIUM_MISS = 0.5, 0.5
EASY_CARELESS, EASY_MISS = 0.8, 0.7


def _weights(data: dict[str, object]) -> Weights:
    known = {f.name for f in fields(Weights)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"{HARD_WEIGHTS_FILE}: unknown weights {', '.join(unknown)}")
    return Weights(**{k: float(v) for k, v in data.items()})  # type: ignore[arg-type]


@functools.lru_cache(maxsize=1)
def hard_weights() -> tuple[Weights, dict[str, Weights]]:
    """``hard``'s weights: the default set and the sets of the presets that have their own,
    by preset name (``Rules.name``), from ``hard_weights.json``: a JSON object
    ``{"weights": {name: number}, "presets": {preset: {"weights": {name: number}}}}``;
    names not there keep the default of :class:`Weights`.

    Raises:
        ValueError: the file names a weight :class:`Weights` does not have.
    """
    text = resources.files("canasta.bots").joinpath(HARD_WEIGHTS_FILE).read_text("utf-8")
    doc = json.loads(text)
    presets = {name: _weights(entry["weights"])
               for name, entry in doc.get("presets", {}).items()}
    return _weights(doc["weights"]), presets


class LevelBot(HeuristicBot):
    """A :class:`HeuristicBot` whose weights depend on the preset of the hand it plays
    (``view.rules.name``), read at every decision."""

    def __init__(self, seed: int | None, default: Weights, by_preset: dict[str, Weights],
                 features: Features, name: str) -> None:
        super().__init__(seed, default, features, name=name)
        self._default = default
        self._by_preset = by_preset

    def choose(self, view: View) -> Action:
        self.w = self._by_preset.get(view.rules.name, self._default)
        return super().choose(view)


def easy(seed: int | None = None, careless: float = EASY_CARELESS,
         miss: float = EASY_MISS) -> HeuristicBot:
    """The ``easy`` level (see the module docstring); ``careless`` and ``miss`` are the
    chances, per decision, of a careless discard and of a missed meld."""
    features = Features(safety=False, freeze=False, careless=careless, miss_meld=miss)
    return HeuristicBot(seed, Weights(), features, name="easy")


def medium(seed: int | None = None, careless: float = MEDIUM_CARELESS,
           miss: float = MEDIUM_MISS) -> HeuristicBot:
    """The ``medium`` level (see the module docstring); ``careless`` and ``miss`` are the
    chances, per decision, of a careless discard and of a missed meld or going out
    (``medium:careless=0,miss=0`` is the heuristic without its slips)."""
    features = Features(careless=careless, miss_meld=miss)
    return HeuristicBot(seed, MEDIUM_WEIGHTS, features, name="medium")


def hard(seed: int | None = None, weights: Weights | None = None,
         samples: int = DEFAULT_SAMPLES, width: int = DEFAULT_WIDTH,
         margin: float = DEFAULT_MARGIN, at: str = "both", value: str = "learned") -> HeuristicBot:
    """The ``hard`` level (see the module docstring); ``weights`` replaces the shipped ones
    on every preset (the tuning script tries its candidates so); ``samples``, ``width`` and
    ``margin`` are the shallow search's (:class:`~canasta.bots.lookahead.LookaheadBot`;
    ``samples=0``: the heuristic alone, the expert's playout policy)."""
    features = Features(tracking=True, timing=True, partner=True)
    if weights is not None:
        if samples <= 0:
            return HeuristicBot(seed, weights, features, name="hard")
        return LookaheadBot(seed, weights, {}, features, "hard", samples, width, margin,
                            at, value=value)
    default, by_preset = hard_weights()
    if samples <= 0:
        return LevelBot(seed, default, by_preset, features, name="hard")
    return LookaheadBot(seed, default, by_preset, features, "hard", samples, width, margin,
                            at, value=value)
