"""The state's field table (canasta.core.layout) is the one owner of its layout: every field
of ``HandData`` is in it, and the copy, the view's table, blanking and the position format
all do what it says for every field, so a field added in one place can neither leak into a
view nor be forgotten by a copy or a position file."""

from __future__ import annotations

import ast
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from canasta import State, load_preset
from canasta.core import blanking, layout
from canasta.core.blanking import HIDDEN
from canasta.core.data import FIELDS, HandData
from canasta.core.layout import TABLE, Copy, LayoutError, Sight
from canasta.formats import position
from formatkit import random_states

ROOT = Path(__file__).resolve().parent.parent
DATA_PY = ROOT / "src" / "canasta" / "core" / "data.py"


def annotated_fields() -> list[str]:
    """The fields annotated on ``HandData`` in its source (a compiled class keeps no
    annotations, so the source is read)."""
    tree = ast.parse(DATA_PY.read_text("utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "HandData")
    return [n.target.id for n in cls.body
            if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)]


def test_every_state_field_is_in_the_table_once() -> None:
    annotated = annotated_fields()
    assert len(annotated) == 42  # the parse found the class body
    missing = sorted(set(annotated) - set(FIELDS))
    assert not missing, f"HandData fields missing from canasta.core.layout.TABLE: {missing}"
    assert sorted(set(FIELDS) - set(annotated)) == []
    assert len(set(FIELDS)) == len(FIELDS) == len(TABLE)


def test_a_dealt_state_has_every_table_field_and_nothing_else_is_settable() -> None:
    s = State.deal(load_preset("international"), 4, seed=1)
    for name in FIELDS:
        getattr(s, name)  # set by init_fields
    if not hasattr(HandData, "__mypyc_attrs__"):  # pure Python: the slots are the table
        with pytest.raises(AttributeError):
            s.not_a_field = 1  # type: ignore[attr-defined]


def test_the_generated_copying_code_is_the_tables() -> None:
    """``clone`` and ``table_start`` are written out from the table for speed; the writer
    finds nothing to change."""
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "layout_code.py")],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


def test_the_generator_writes_every_field_and_rejects_a_region_that_is_none() -> None:
    clone = layout.generated("clone")
    assert [line.split("=")[0].strip() for line in clone.splitlines()] == [
        f"s.{name}" for name in FIELDS]
    start = layout.generated("table_start")
    assert {line.split("=")[0].strip()[2:] for line in start.splitlines()} == set(
        layout.names(cards=False))
    with pytest.raises(ValueError, match="no generated region"):
        layout.generated("restore")


def states() -> list[State]:
    """States of several presets at every stage: melds, piles taken, provisional openings,
    face-down pile cards (Canastone), surprise cards (Romanian), over."""
    out: list[State] = []
    for name, opts, players in (("international", {}, 4), ("canastone", {}, 4),
                                ("romanian", {"surprises": "four"}, 3)):
        rules = load_preset(name, opts)
        for seed in range(4):
            # every 7th state, and each with a provisional opening (they are brief); copies:
            # random_states plays on the state it yields
            out.extend(s.clone() for i, s in enumerate(random_states(rules, players, seed))
                       if i % 7 == 0 or s.provisional)
    return out


STATES = states()


def test_the_sample_of_states_reaches_every_kind_of_field() -> None:
    assert any(s.provisional and s.snapshot is not None for s in STATES)
    assert any(s.pile_hidden for s in STATES)
    assert any(s.surprise for s in STATES)
    assert any(any(s.melds) for s in STATES)


def _independent(a: Any, b: Any, copy: Copy) -> bool:
    """``b`` is a copy of ``a`` of the kind ``copy``: equal, and no list shared."""
    if a != b:
        return False
    if copy is Copy.SHARE:
        return a is b
    if a is b:
        return False
    if copy is Copy.LISTS:
        return all(x is not y for x, y in zip(a, b, strict=True))
    if copy is Copy.MELDS:
        return all(m is not n and all(m[k] is not n[k] for k in m)
                   for m, n in zip(a, b, strict=True))
    return True


def test_clone_copies_each_field_as_the_table_says() -> None:
    for s in STATES:
        c = s.clone()
        for f in TABLE:
            assert _independent(getattr(s, f.name), getattr(c, f.name), f.copy), f.name


def test_a_views_table_starts_with_exactly_the_fields_without_cards() -> None:
    s = next(s for s in STATES if s.provisional and s.snapshot is not None)
    t = blanking.table_start(s, 1)
    unset = []
    for name in FIELDS:
        try:
            getattr(t, name)
        except AttributeError:
            unset.append(name)
    assert unset == list(layout.names(cards=True))
    table = s.view(1).table
    for name in FIELDS:
        getattr(table, name)  # the view fills the rest


def _blanked_as_the_table_says(state: HandData, t: HandData, seat: int) -> list[str]:
    """The fields of ``t`` (a blanked copy of ``state`` for ``seat``) that break their sight."""
    wrong = []
    under = "pending_pile" if state.pending_pile else "pile"
    for f in TABLE:
        real, got = getattr(state, f.name), getattr(t, f.name)
        if f.sight is Sight.PUBLIC:
            ok = got == real
        elif f.sight is Sight.OWN:
            ok = all(got[p] == (real[p] if p == seat else list(state.known[p]))
                     for p in range(state.players))
        elif f.sight is Sight.COUNT:
            ok = got == [HIDDEN] * len(real)
        elif f.sight is Sight.FACE_UP:
            hid = state.pile_hidden if f.name == under else 0
            ok = got == [HIDDEN] * hid + real[hid:]
        elif f.sight is Sight.NOBODY:
            ok = not got
        elif f.sight is Sight.OWN_EVENTS:
            ok = got is None
        else:
            ok = (got is None) == (real is None or not state.provisional)
        if not ok:
            wrong.append(f.name)
    return wrong


def test_blanking_and_the_views_table_hide_each_field_as_the_table_says() -> None:
    """Every field, for every seat: what a public field holds, what an unseen one hides."""
    for s in STATES:
        for seat in range(s.players):
            for t in (blanking.blank(s, seat), s.view(seat).table):
                assert _blanked_as_the_table_says(s, t, seat) == [], (s, seat)


def test_the_surprise_cards_are_hidden_while_set_aside() -> None:
    s = next(s for s in STATES if s.surprise)
    assert s.view(0).table.surprise == [HIDDEN] * len(s.surprise)


def test_the_position_format_writes_each_field_at_its_tables_path() -> None:
    s = next(s for s in STATES if s.provisional and s.snapshot is not None)
    doc = position.position_to_dict(s)
    written = {f.name for f in TABLE if f.position} - position._WRITTEN_APART
    assert set(position._WRITE) == written
    for f in TABLE:
        if not f.position:
            continue
        where: Any = doc
        for key in f.position.split("."):
            assert key in where, f"{f.name}: no {f.position} in the position"
            where = where[key]


def test_the_fields_a_position_does_not_write_are_derived_or_constant() -> None:
    assert set(layout.names()) - {f.name for f in TABLE if f.position} == {
        "team_of", "hand_size", "lookahead"}


def test_build_refuses_values_that_are_not_the_tables_fields() -> None:
    s = State.deal(load_preset("international"), 4, seed=2)
    values = {name: getattr(s, name) for name in FIELDS}
    built = layout.build(State, values)
    assert position.same_state(built, s)
    del values["pile_hidden"]
    values["pile_hiden"] = 0
    with pytest.raises(LayoutError, match="missing pile_hidden; not fields: pile_hiden"):
        layout.build(State, values)


def test_a_position_plays_on_like_its_state() -> None:
    rng = random.Random(3)
    for s in STATES[::5]:
        loaded = position.state_from_dict(position.position_to_dict(s))
        for _ in range(10):
            if s.is_over:
                break
            action = rng.choice(s.legal_actions())
            s = s.clone()
            s.apply(action)
            loaded.apply(action)
        assert position.same_state(s, loaded)
