"""Features of a FULL state (every hand visible) for the learned value, as a numpy vector.

The search values sampled deals (``view.sample_state``): full states in which the other
seats' hands are dealt, so the value may read every hand. A state is seen from one side
(the *team* of a seat): the vector has a block for that side, a block for the others (their
mean over the other sides: with two sides, exactly the opponents), and the shared table
(pile, stock, turn). The stock's order is never read, so a value of these features is an
average over the cards still to come. ``docs/bots.md`` ("The learned value") lists the parts.

Where :mod:`canasta.core.features` is the observation of a View for learning agents (standard
library, compiled), this module is its sibling for the bots' value: numpy, full state.

Units: card counts, points / 100 for the score terms, match scores / 1000; the trainer
standardises every column, so the scale only keeps the raw vector readable.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from canasta.core.cards import NUM_CODES, POINTS, is_black_three, is_red_three, is_wild, rank_of
from canasta.core.data import Phase
from canasta.core.scoring import TeamHand, score_team
from canasta.core.state import State

__all__ = ["CLASSES", "feature_names", "feature_count", "extract", "extract_many",
           "FeatureError"]

#: Card classes of the hand and pile blocks: joker, deuce, red three, black three, 4..K, ace.
CLASSES = ("JK", "2", "r3", "b3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_N_CLASSES = len(CLASSES)
#: Meld keys with a slot (as canasta.core.features): 0 the wild meld, ranks 1..13.
_MELD_KEYS = 14
#: Phases in the order of the phase one-hot.
_PHASES = (Phase.DRAW, Phase.PLAY, Phase.ANSWER, Phase.OVER)
# Share of the mixed-canasta bonus credited to a meld in progress (as the expert's evaluate).
_PROGRESS_WEIGHT = 0.6


def _class_of(card: int) -> int:
    if card == 52:
        return 0
    if is_wild(card):
        return 1
    if is_red_three(card):
        return 2
    if is_black_three(card):
        return 3
    r = rank_of(card)
    return 14 if r == 1 else r  # 4..13 -> 4..13


#: Card code -> class index.
CLASS_OF = tuple(_class_of(c) for c in range(NUM_CODES))
#: Card code -> rank index 0..13 of a natural meldable card (4..K, ace), -1 otherwise.
_RANK_IDX = tuple(rank_of(c) if not is_wild(c) and rank_of(c) != 3 else -1
                  for c in range(NUM_CODES))
_IS_WILD = tuple(is_wild(c) for c in range(NUM_CODES))

_SIDE_PARTS: tuple[tuple[str, int], ...] = (
    ("hand_class", _N_CLASSES),     # cards in the side's hands per class
    ("hand_cards", 1),              # cards in the side's hands
    ("hand_points", 1),             # their points / 100
    ("hand_min", 1),                # the shortest hand of the side (nearest to going out)
    ("pairs", 1),                   # natural ranks held twice or more, summed over seats
    ("triples", 1),                 # held three times or more
    ("layoffs", 1),                 # cards in hand of a rank the side has melded
    ("meld_naturals", _MELD_KEYS),  # natural cards per meld key
    ("meld_wilds", _MELD_KEYS),     # wild cards per meld key
    ("melds", 1),                   # melds on the table (sequence melds included)
    ("canastas", 1),                # canastas of any kind
    ("natural_canastas", 1),        # canastas without a wild card
    ("near_canastas", 1),           # melds one or two cards short of a canasta
    ("red_threes", 1),
    ("opened", 1),
    ("score", 1),                   # match score before the hand / 1000
    ("opening_minimum", 1),         # / 100
    ("sheet", 1),                   # the score sheet if the hand stopped now / 100
    ("progress", 1),                # canasta credit of melds in progress / 100
    ("in_hand_weighted", 1),        # hand points times the unopened multiplier / 100
    ("frozen", 1),                  # the pile is frozen for the side
    ("stopped", 1),                 # the pile's top card stops the side
)


def _shared_parts(players: int) -> tuple[tuple[str, int], ...]:
    return (
        ("pile_class", _N_CLASSES),     # face-up pile cards per class
        ("pile_top", _N_CLASSES + 1),   # class of the top card, one-hot; last: empty pile
        ("pile_size", 1),
        ("pile_points", 1),             # / 100
        ("pending", 1),                 # cards of a taken pile waiting for the opening
        ("stock", 1),
        ("turn", 1),                    # rounds of turns played (turn / players)
        ("phase", len(_PHASES)),
        ("current", players),           # one-hot seat to play, relative to the seat
        ("actor_mine", 1),              # the seat to act is of the side
        ("bias", 1),
    )


def feature_names(players: int) -> list[str]:
    """Column names of the vector for ``players`` seats (``mine.hand_class.JK``, ...)."""
    names: list[str] = []
    for side in ("mine", "others"):
        for part, n in _SIDE_PARTS:
            names += [f"{side}.{part}" if n == 1 else f"{side}.{part}.{i}" for i in range(n)]
    for part, n in _shared_parts(players):
        names += [part if n == 1 else f"{part}.{i}" for i in range(n)]
    return names


def feature_count(players: int) -> int:
    """Length of the vector for ``players`` seats."""
    return 2 * sum(n for _, n in _SIDE_PARTS) + sum(n for _, n in _shared_parts(players))


class FeatureError(ValueError):
    """A seat the state does not have."""


_SIDE_SIZE = sum(n for _, n in _SIDE_PARTS)
_O_NAT = _N_CLASSES + 6
_O_WILD = _O_NAT + _MELD_KEYS
_O_REST = _O_WILD + _MELD_KEYS


def _side(state: State, team: int) -> list[float]:
    """The side block of ``team`` (the parts of :data:`_SIDE_PARTS` in order). Plain Python
    over the 53 card codes: for vectors this small it is faster than numpy's calls."""
    rules = state.rules
    out = [0.0] * _SIDE_SIZE
    melds = state.melds[team]
    size = rules.melds.canasta_size
    melded = [False] * 14
    kept: list[tuple[int, ...]] = []
    canastas = natural = near = 0
    progress = 0.0
    bonus = rules.scoring.mixed_canasta
    for key, cards in melds.items():
        if not cards:
            continue
        kept.append(tuple(cards))
        n = len(cards)
        w = 0
        for c in cards:
            if _IS_WILD[c]:
                w += 1
        if n >= size:
            canastas += 1
            if w == 0:
                natural += 1
        elif n >= size - 2:
            near += 1
        if n < size and size > 3:
            done = max(0, n - 2) / (size - 2)
            progress += _PROGRESS_WEIGHT * bonus * done * done
        if key < _MELD_KEYS:
            out[_O_NAT + key] = n - w
            out[_O_WILD + key] = w
            melded[key] = True
    cards_total = points = pairs = triples = layoffs = 0
    shortest = 10**9
    for s in state.teams[team]:
        by_rank = [0] * 14
        held = 0
        c = 0
        for n in state.hands[s]:
            if n:
                held += n
                points += POINTS[c] * n
                out[CLASS_OF[c]] += n
                r = _RANK_IDX[c]
                if r >= 0:
                    by_rank[r] += n
            c += 1
        cards_total += held
        shortest = min(shortest, held)
        for r in range(14):
            k = by_rank[r]
            if k:
                if k >= 2:
                    pairs += 1
                    if k >= 3:
                        triples += 1
                if melded[r]:
                    layoffs += k
    sheet = score_team(team, TeamHand(melds=tuple(kept), red_threes=len(state.red_threes[team]),
                                      score_before=state.scores[team]), rules)
    factor = rules.scoring.unopened_hand_multiplier if not kept else 1
    o = _N_CLASSES
    out[o:o + 6] = [cards_total, points / 100, shortest, pairs, triples, layoffs]
    out[_O_REST:] = [
        len(kept), canastas, natural, near, len(state.red_threes[team]),
        1.0 if state.opened[team] else 0.0, state.scores[team] / 1000,
        state.opening_minimum(team) / 100, sheet.hand_total / 100, progress / 100,
        factor * points / 100, 1.0 if state.frozen_for(team) else 0.0,
        1.0 if state.top_stops(team) else 0.0]
    return out


def extract(state: State, seat: int) -> npt.NDArray[np.float64]:
    """The feature vector of ``state`` seen by the side of ``seat``: shape
    (``feature_count(state.players)``,), float64.

    Raises:
        FeatureError: ``seat`` is not a seat of the state.
    """
    players = state.players
    if not 0 <= seat < players:
        raise FeatureError(f"seat {seat} is not a seat of this {players}-player state")
    team = state.team_of[seat]
    vec = _side(state, team)
    n_other = len(state.teams) - 1
    if n_other == 1:
        vec += _side(state, 1 - team)
    else:
        others = [0.0] * _SIDE_SIZE
        for t in range(len(state.teams)):
            if t != team:
                for i, x in enumerate(_side(state, t)):
                    others[i] += x / n_other
        vec += others
    pile = state.pile
    shared = [0.0] * (2 * _N_CLASSES + 1)
    pile_points = 0
    for card in pile:
        shared[CLASS_OF[card]] += 1.0
        pile_points += POINTS[card]
    shared[_N_CLASSES + (CLASS_OF[pile[-1]] if pile else _N_CLASSES)] = 1.0
    vec += shared
    vec += [len(pile), pile_points / 100, len(state.pending_pile), len(state.stock),
            state.turn / players]
    phase = state.phase
    vec += [1.0 if phase is ph else 0.0 for ph in _PHASES]
    current = [0.0] * players
    current[(state.current - seat) % players] = 1.0
    vec += current
    vec += [1.0 if state.team_of[state.actor] == team else 0.0, 1.0]
    return np.array(vec, dtype=np.float64)


def extract_many(states: list[State], seats: list[int]) -> npt.NDArray[np.float64]:
    """:func:`extract` of each (state, seat): shape (len(states), features).

    Raises:
        FeatureError: a bad seat; ValueError: states of different player counts or lists of
            different lengths.
    """
    if len(states) != len(seats):
        raise ValueError(f"{len(states)} states but {len(seats)} seats")
    if not states:
        return np.zeros((0, 0))
    counts = {s.players for s in states}
    if len(counts) > 1:
        raise ValueError(f"states of different player counts {sorted(counts)} in one batch")
    return np.stack([extract(s, seat) for s, seat in zip(states, seats, strict=True)])
