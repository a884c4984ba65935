"""Golden transcripts (``tests/golden``, :mod:`canasta.sim.golden`): one seeded hand per preset
and player count, every legal action, move, event and score pinned as text. A change that
alters play shows as a diff; one meant to alter it writes them anew with
``python -m canasta.sim.golden --write``."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from canasta.core.actions import Discard, Draw, Meld, Retract
from canasta.sim import golden

FOLDER = Path(__file__).parent / "golden"


@pytest.mark.parametrize(("variant", "players"), golden.cases())
def test_the_engine_plays_the_golden_transcript(variant: str, players: int) -> None:
    path = FOLDER / golden.file_name(variant, players)
    assert path.is_file(), f"missing: python -m canasta.sim.golden --write {FOLDER}"
    got = golden.transcript(variant, players)
    if got != path.read_text(encoding="utf-8"):
        problem = golden.check(FOLDER)
        pytest.fail(f"{path.name} differs from what the engine plays now "
                    f"(python -m canasta.sim.golden --write if meant):\n{problem}")
    assert "\nscore team 0:" in got, "the hand did not reach its end"


def test_every_preset_and_player_count_has_a_transcript() -> None:
    names = {p.name for p in FOLDER.glob("*.txt")}
    assert names == {golden.file_name(v, n) for v, n in golden.cases()}
    assert len(names) == 18


def test_check_reports_a_changed_transcript_as_a_diff(tmp_path: Path) -> None:
    variant, players = golden.cases()[0]
    text = golden.transcript(variant, players)
    for v, n in golden.cases():
        (tmp_path / golden.file_name(v, n)).write_text(
            text if (v, n) == (variant, players) else golden.transcript(v, n),
            encoding="utf-8")
    assert golden.check(tmp_path) is None
    (tmp_path / golden.file_name(variant, players)).write_text(
        text.replace("play draw", "play take-pile", 1), encoding="utf-8")
    diff = golden.check(tmp_path)
    assert diff is not None and "-  play take-pile" in diff and "+  play draw" in diff


def test_the_policy_leaves_melds_alone_after_a_retract() -> None:
    meld = Meld((1, 1, 1))
    rng = random.Random(1)
    picks = {type(golden.choose([meld, Discard(5), Draw()], rng, retracted=True))
             for _ in range(50)}
    assert Meld not in picks and picks <= {Discard, Draw}
    assert golden.choose([meld], rng, retracted=True) is meld  # nothing else: the meld
    assert Retract not in picks
