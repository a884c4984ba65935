"""``hard``'s shallow search (canasta.bots.lookahead, ``hard:samples=8``): it plays legal
moves, is reproducible for a seed, changes the heuristic's move only at draws and discards, and
is the heuristic alone where no learned value exists."""

from __future__ import annotations

import pytest

from canasta import load_preset
from canasta.bots import make_bot
from canasta.core.actions import Discard, Draw, TakePile
from canasta.core.state import Phase, State

pytest.importorskip("numpy")

#: ``hard`` with its search on.
SEARCH = "hard:samples=8"


def _hand(variant: str, players: int, spec: str, seed: int, base: str | None = None,
          limit: int = 400) -> tuple[list[str], int]:
    """Plays one hand with ``spec`` at every seat; returns the actions and, with ``base``, how
    many decisions ``spec`` took another move than ``base`` on the same view, with the
    kinds of those decisions checked."""
    s = State.deal(load_preset(variant), players, seed=seed)
    bots = [make_bot(spec, seed=seed + p) for p in range(players)]
    others = [make_bot(base, seed=seed + p) for p in range(players)] if base else []
    moves: list[str] = []
    changed = 0
    while not s.is_over and len(moves) < limit:
        view = s.view(s.actor)
        a = bots[s.actor].choose(view)
        assert a in view.legal_actions
        if others:
            b = others[s.actor].choose(view)
            if a != b:
                changed += 1
                assert view.phase is Phase.DRAW and isinstance(a, (Draw, TakePile)) or \
                    isinstance(a, Discard) and isinstance(b, Discard)
        s.apply(a)
        moves.append(str(a))
    return moves, changed


@pytest.mark.parametrize("variant", ["international", "classic_italian"])
def test_hard_is_reproducible_for_a_seed(variant: str) -> None:
    assert _hand(variant, 4, SEARCH, 3)[0] == _hand(variant, 4, SEARCH, 3)[0]


def test_search_changes_only_draws_and_discards() -> None:
    # The same seed gives both the same heuristic state (ties, tracking): a difference is the
    # search's, and only ever at a draw or a discard.
    changed = sum(_hand("international", 4, SEARCH, seed, base="hard")[1]
                  for seed in (1, 2))
    assert changed > 0


def test_without_a_learned_model_the_search_is_the_heuristic() -> None:
    # No model for three players: the search has nothing to value with.
    assert _hand("classic_italian", 3, SEARCH, 5)[0] == _hand("classic_italian", 3, "hard", 5)[0]
