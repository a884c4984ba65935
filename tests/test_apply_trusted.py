"""``State.apply`` does not check again an action that ``legal_actions()`` (or the view of the
seat to act) listed for the same, unchanged state, and checks every other value as before.

The trusted path is exact only because the listed actions are the legal ones
(tests/test_legal_actions.py, tests/test_generate_differential.py); here: playing the listed
objects and playing equal copies of them (checked) give the same hands, event for event; a
listing does not outlive the state it was made for (the next move, a copy); an action not
listed is still refused, the state unchanged.
"""

from __future__ import annotations

import copy
import os
import random
import subprocess
import sys

import pytest

import canasta.core
from canasta.core import legality
from canasta.core.actions import Discard, Draw
from canasta.core.legality import IllegalActionError
from canasta.core.rules import Rules, load_preset
from canasta.core.state import Phase, State
from formatkit import deal, loadable_presets

PRESETS = loadable_presets()
INTERNATIONAL = load_preset("international")


@pytest.mark.parametrize("rules", PRESETS, ids=[r.name for r in PRESETS])
def test_listed_actions_and_checked_copies_play_the_same_hands(rules: Rules) -> None:
    players = 4 if 4 in rules.deal.player_counts else rules.deal.player_counts[0]
    for seed in range(2):
        trusted = deal(rules, players, seed)
        checked = trusted.clone()
        rng = random.Random(seed)
        steps = 0
        while not trusted.is_over and steps < 400:
            # The view's listing on even steps, legal_actions() on odd ones.
            listed = (trusted.view(trusted.actor).legal_actions if steps % 2 == 0
                      else trusted.legal_actions())
            action = rng.choice(listed)
            twin = copy.deepcopy(action)
            assert twin == action and twin is not action
            assert trusted.apply(action) == checked.apply(twin)
            steps += 1
        assert trusted.events == checked.events
        assert trusted.hands == checked.hands and trusted.melds == checked.melds


def test_a_listing_does_not_outlive_the_move_that_follows_it() -> None:
    s = deal(INTERNATIONAL, 4, 3)
    assert s.phase is Phase.DRAW
    listed = s.legal_actions()
    draw = next(a for a in listed if isinstance(a, Draw))
    s.apply(draw)
    before = s.event_log
    with pytest.raises(IllegalActionError) as err:
        s.apply(draw)  # listed, but for the state before the draw
    assert err.value.rule == "turn order"
    assert s.event_log is before


def test_an_action_not_listed_is_refused_right_after_a_listing() -> None:
    s = deal(INTERNATIONAL, 4, 3)
    s.apply(Draw())
    s.legal_actions()
    missing = next(c for c in range(len(s.hands[s.actor])) if s.hands[s.actor][c] == 0)
    before = s.event_log
    with pytest.raises(IllegalActionError):
        s.apply(Discard(missing))
    assert s.event_log is before


def test_a_copy_does_not_inherit_the_listing() -> None:
    s = deal(INTERNATIONAL, 4, 3)
    draw = next(a for a in s.legal_actions() if isinstance(a, Draw))
    c = s.clone()
    c.apply(Draw())
    with pytest.raises(IllegalActionError):
        c.apply(draw)  # the copy moved on: its own check refuses the second draw
    s.apply(draw)  # the original still takes it
    assert s.phase is Phase.PLAY


def test_only_listed_objects_skip_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    if canasta.core.COMPILED:
        # compiled calls between core modules do not go through module attributes, so the
        # check cannot be counted here: the same test runs on the pure-Python core
        env = {**os.environ, "CANASTA_PURE": "1"}
        node = f"{__file__}::test_only_listed_objects_skip_the_check"
        out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                              "-o", "addopts=", node],
                             capture_output=True, text=True, env=env, timeout=300)
        assert out.returncode == 0 and " passed" in out.stdout, out.stdout[-2000:]
        return
    calls: list[object] = []
    real = legality.verify

    def counting(state: State, action: object, memo: object = None) -> None:
        calls.append(action)
        real(state, action, memo)  # type: ignore[arg-type]

    monkeypatch.setattr(legality, "verify", counting)
    s = deal(INTERNATIONAL, 4, 3)
    listed = s.legal_actions()
    calls.clear()  # the listing checks candidates of its own
    s.apply(listed[0])
    assert calls == []
    listed = s.legal_actions()
    calls.clear()
    twin = copy.deepcopy(listed[0])
    s.apply(twin)
    assert calls == [twin]
