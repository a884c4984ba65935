"""canasta.core.features (the observation vector and action mask as C buffers, compiled with
the core) without numpy: its layout, the view fields it reads, and the same bytes from the
compiled and the pure-Python core. The values themselves are checked part by part against
docs/env.md's reference in tests/env/test_env_observation.py."""

from __future__ import annotations

import random

from canasta.core.actions import ViewActions
from canasta.core.blanking import blank
from canasta.core.codec import ActionCodec
from canasta.core.features import MaskWriter, ObservationWriter, observation_spec
from canasta.core.match import Match
from canasta.core.rules import PRESETS, load_preset
from canasta.core.state import State
from test_compiled import run


def test_offsets_follow_the_spec() -> None:
    w = ObservationWriter(7, 4, 2)
    start = 0
    for name, shape, _doc in observation_spec(4, 2):
        assert w.offsets[name] == start
        n = 1
        for d in shape:
            n *= d
        start += n
    assert w.size == start == len(w.encode(State.deal(load_preset("international"), 4,
                                                      seed=1).view(0)))


STATE_CONFIGS = [
    ("international", {}, 4),
    ("canastone", {}, 4),  # cards face down under the upcard
    ("classic_italian", {"keep_red_threes": "true"}, 4),  # red threes kept in hand
    ("romanian", {"surprises": "four"}, 3),  # surprise cards
    ("brazilian", {"canastra_real": "true"}, 2),  # sequence canastas
]


def test_the_state_reader_gives_the_views_vector_and_reads_nothing_hidden() -> None:
    """``encode_state`` (what the environments observe with) against ``encode`` of the view,
    by a writer of its own (no shared cache), for every seat at every decision, seats in a
    random order; and the same vector from the state blanked for that seat (every card it
    cannot see taken out: another hand's unknown cards, the stock, the surprise cards, the
    face-down pile cards, the history), so the reader takes nothing the view hides."""
    for name, opts, players in STATE_CONFIGS:
        rules = load_preset(name, opts)
        teams = len(rules.teams(players, None))
        writer = ObservationWriter(rules.melds.canasta_size, players, teams)
        state = Match(rules, players, seed=4).state
        rng = random.Random(4)
        while True:
            for seat in rng.sample(range(players), players):
                got = writer.encode_state(state, seat)
                reference = ObservationWriter(rules.melds.canasta_size, players, teams)
                assert got == reference.encode(state.view(seat)), (name, seat)
                assert writer.encode_state(blank(state, seat), seat) == got, (name, seat)
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))


def test_each_vector_is_a_new_array() -> None:
    """The writer keeps each seat's last vector and hands out copies: a caller writing into
    one changes neither the next nor the kept one."""
    rules = load_preset("international")
    writer = ObservationWriter(rules.melds.canasta_size, 4, 2)
    state = State.deal(rules, 4, seed=1)
    first = writer.encode_state(state, 0)
    kept = first.tobytes()
    first[0] = 99.0
    again = writer.encode_state(state, 0)
    assert again.tobytes() == kept and again is not first


def test_mask_marks_exactly_the_legal_ids_and_maps_them_back() -> None:
    rules = load_preset("international")
    codec = ActionCodec(rules, 4)
    writer = MaskWriter(codec)
    state = State.deal(rules, 4, seed=5)
    rng = random.Random(5)
    while not state.is_over:
        view = state.view(state.actor)
        out, legal = writer.fill_view(view)
        assert len(out) == codec.size
        ids = {codec.encode(a) for a in view.legal_actions}
        assert {i for i, b in enumerate(out) if b} == ids == set(legal)
        assert all(codec.encode(a) == i for i, a in legal.items())
        assert writer.fill(view.legal_actions) == (out, legal)
        assert writer.fill(state.legal_actions()) == (out, legal)
        assert writer.fill_ids(legal) == out
        state.apply(rng.choice(state.legal_actions()))


def test_view_wraps_its_legal_actions_when_first_read() -> None:
    """``legal_actions`` is built from the actions listed when the view was made, even when
    first read after the state has moved on; the seat not to act has none."""
    rules = load_preset("international")
    state = State.deal(rules, 4, seed=2)
    view = state.view(state.actor)
    other = state.view((state.actor + 1) % 4)
    listed = state.legal_actions()
    state.apply(listed[0])
    assert isinstance(view.legal_actions, ViewActions)
    assert list(view.legal_actions) == list(listed)
    assert view.legal_actions is view.legal_actions
    assert len(other.legal_actions) == 0


def test_view_opening_minimums_across_rule_sets() -> None:
    """The view remembers the minimum by score of the last rule set only; switching between
    rule sets gives each its own minimums."""
    for _ in range(2):
        for name in sorted(PRESETS):
            rules = load_preset(name)
            players = rules.deal.player_counts[0]
            state = State.deal(rules, players, seed=3)
            for scores in ((0, 0), (-200, 1600), (3000, 5000)):
                for t in range(len(state.teams)):
                    state.scores[t] = scores[t % 2]
                view = state.view(0)
                assert view.opening_minimum == tuple(
                    state.opening_minimum(t) for t in range(len(state.teams)))


SCRIPT = """
import hashlib, json, random
import canasta.core
from canasta import State, load_preset
from canasta.core.codec import ActionCodec
from canasta.core.features import MaskWriter, ObservationWriter
digest = hashlib.sha256()
for name, players in (("international", 4), ("canastone", 4), ("brazilian", 2)):
    rules = load_preset(name)
    teams = len(rules.teams(players, None))
    obs = ObservationWriter(rules.melds.canasta_size, players, teams)
    masks = MaskWriter(ActionCodec(rules, players))
    for seed in range(2):
        s = State.deal(rules, players, seed=seed)
        rng = random.Random(seed)
        while not s.is_over:
            for seat in range(players):
                view = s.view(seat)
                digest.update(obs.encode(view).tobytes())
                digest.update(obs.encode_state(s, seat).tobytes())
                out, legal = masks.fill_view(view)
                digest.update(bytes(out))
                digest.update(repr(sorted(legal)).encode())
            s.apply(rng.choice(s.legal_actions()))
print(json.dumps([canasta.core.COMPILED, digest.hexdigest()]))
"""


def test_compiled_and_pure_features_give_the_same_bytes() -> None:
    _, default_digest = run(pure=False, script=SCRIPT)
    pure_compiled, pure_digest = run(pure=True, script=SCRIPT)
    assert pure_compiled is False
    assert default_digest == pure_digest
