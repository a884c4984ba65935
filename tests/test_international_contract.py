"""The engine's contract on the ``international`` preset (DESIGN.md "Actions are
values"): ``legal_actions()`` never changes the state; ``apply()`` of an action that is not
legal raises ``IllegalActionError`` naming a rule and leaves the state unchanged; ``check()``
agrees with ``legal_actions()``."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

from canasta import (
    Action,
    Answer,
    AskPartner,
    Discard,
    Draw,
    EndHand,
    IllegalActionError,
    LayOff,
    Meld,
    Retract,
    State,
    TakePile,
)
from canasta.core.cards import JOKER, NATURAL_RANKS
from helpers import RULES, same_as, snapshot


def _positions(seed: int, every: int = 3) -> Iterator[State]:
    """States met in a random game (every ``every``-th step, and the last)."""
    s = State.deal(RULES, 4, seed=seed)
    rng = random.Random(seed)
    step = 0
    while not s.is_over:
        if step % every == 0:
            yield s
        s.apply(rng.choice(s.legal_actions()))
        step += 1
    yield s


def _probes(s: State) -> list[Action]:
    """Actions to try: legal ones and many that are not."""
    out: list[Action] = [Draw(), EndHand(), Retract(), AskPartner(), Answer(True), Answer(False)]
    out += [Discard(c) for c in range(53)]
    seat = s.actor
    held = [c for c in range(53) if s.hands[seat][c]]
    for a, b in itertools.combinations_with_replacement(held, 2):
        out.append(TakePile((a, b)))
        out.append(Meld((a, b, JOKER)))
    for c in held:
        out.append(TakePile((c,)))
        out.append(Meld((c, c, c)))
        for rank in NATURAL_RANKS:
            out.append(LayOff(rank, (c,)))
    out.append(TakePile(()))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_legal_actions_never_changes_the_state(seed: int) -> None:
    """`legal_actions()` never changes the state. Compared slot by slot (deep
    copies, the retract snapshot included) before and after, and the view too."""
    for s in _positions(seed):
        before = snapshot(s)
        first = s.legal_actions()
        assert same_as(s, before)
        s.view(s.actor)
        for seat in range(4):
            s.view(seat)
        assert same_as(s, before)
        assert s.legal_actions() == first  # and asking twice gives the same answer


@pytest.mark.parametrize("seed", range(3))
def test_illegal_apply_raises_naming_a_rule_and_leaves_the_state_unchanged(seed: int) -> None:
    """DESIGN.md: "`apply()` of anything else raises an error that names the broken rule, and
    leaves the state unchanged"; ``can()`` says the same as ``legal_actions()``."""
    for s in _positions(seed, every=7):
        legal = set(s.legal_actions())
        before = snapshot(s)
        for action in _probes(s):
            if action in legal:
                assert s.can(action), action.text()
                continue
            if s.can(action):
                # A legal action with non-canonical cards (the list names one choice of suits).
                continue
            with pytest.raises(IllegalActionError) as info:
                s.apply(action)
            assert info.value.rule and info.value.reason
            assert same_as(s, before), action.text()


@pytest.mark.parametrize("seed", range(3))
def test_every_listed_action_applies(seed: int) -> None:
    """Every legal action applies: each action listed applies on a copy of the
    state without error."""
    for s in _positions(seed, every=5):
        for action in s.legal_actions():
            s.clone().apply(action)


def test_legal_actions_empty_once_the_hand_is_over() -> None:
    """A finished hand has no legal action and refuses every action."""
    *_, last = _positions(0)
    assert last.is_over
    assert last.legal_actions() == []
    with pytest.raises(IllegalActionError) as info:
        last.apply(Draw())
    assert info.value.rule == "hand over"
