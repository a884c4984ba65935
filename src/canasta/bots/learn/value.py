"""The learned value of a full state: ``value(state, seat)`` and its batch form.

The value is the side's expected hand-score difference (its hand total minus the best other
side's, points), as the expert's ``evaluate`` is, estimated by the shipped model of the
state's rule set and player count (:mod:`canasta.bots.learn.model`) from the features of the
FULL state (:mod:`canasta.bots.learn.features`): meant for the search's sampled deals, not
for a seat's real view. A finished hand is valued exactly by its score sheets.

A rule set is matched to its model by preset name and player count (``international-4``);
house-rule options do not change the model. :func:`model_for` says whether a model exists;
:func:`value` raises :class:`NoModelError` where none does, so a caller can fall back.

Speed (one state): the features take about 50 µs with the compiled core, the MLP a few
µs; :func:`value_batch` shares the model's matrix products over many states.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from canasta.bots.learn.features import extract, extract_many, feature_count
from canasta.bots.learn.model import WEIGHTS, Model, load_models
from canasta.core.rules import Rules
from canasta.core.state import State

__all__ = ["value", "value_batch", "win_chance", "model_for", "models", "NoModelError"]


class NoModelError(LookupError):
    """No learned model for this rule set and player count."""


@lru_cache(maxsize=4)
def models(path: Path = WEIGHTS) -> dict[str, Model]:
    """The models of the weights file (read once), checked against the extractor's widths.

    Raises:
        WeightsError: a file that does not fit the extractor. OSError: unreadable.
    """
    return load_models(path, {p: feature_count(p) for p in range(2, 7)})


@lru_cache(maxsize=64)
def _model_by_key(key: str) -> Model | None:
    if not WEIGHTS.is_file():
        return None
    return models().get(key)


def model_for(rules: Rules, players: int) -> Model | None:
    """The model of ``rules`` (by preset name) for ``players``, or None (none shipped)."""
    return _model_by_key(f"{rules.name}-{players}")


def _model(state: State) -> Model:
    m = model_for(state.rules, state.players)
    if m is None:
        raise NoModelError(f"no learned value for {state.rules.name} with {state.players} "
                           "players")
    return m


def _exact(state: State, team: int) -> float:
    totals = [float(sheet.hand_total) for sheet in state.score()]
    others = [v for t, v in enumerate(totals) if t != team]
    return totals[team] - max(others) if others else totals[team]


def value(state: State, seat: int) -> float:
    """The expected hand-score difference of ``seat``'s side in ``state`` (points).

    Raises:
        NoModelError: no model for the state's rules and player count.
        FeatureError: ``seat`` is not a seat of the state.
    """
    if state.is_over:
        return _exact(state, state.team_of[seat])
    return float(_model(state).predict(extract(state, seat)))


def value_batch(states: Sequence[State], seats: Sequence[int]) -> npt.NDArray[np.float64]:
    """:func:`value` of each (state, seat), shape (n,): one matrix product for the
    unfinished states (all of one rule set and player count).

    Raises:
        NoModelError, FeatureError: as :func:`value`; ValueError: lists of different
            lengths or states of different rules or player counts.
    """
    if len(states) != len(seats):
        raise ValueError(f"{len(states)} states but {len(seats)} seats")
    out = np.zeros(len(states))
    live = [i for i, s in enumerate(states) if not s.is_over]
    for i, s in enumerate(states):
        if s.is_over:
            out[i] = _exact(s, s.team_of[seats[i]])
    if live:
        first = states[live[0]]
        rules = first.rules
        if any(states[i].rules is not rules and states[i].rules != rules for i in live):
            raise ValueError("states of different rule sets in one batch")
        x = extract_many([states[i] for i in live], [seats[i] for i in live])
        out[live] = _model(first).predict(x)
    return out


def win_chance(state: State, seat: int) -> float:
    """The chance (0..1) that ``seat``'s side wins the match, from the match-win head.

    Raises:
        NoModelError: no model; WeightsError: the model has no match-win head.
    """
    return float(_model(state).predict_win(extract(state, seat)))
