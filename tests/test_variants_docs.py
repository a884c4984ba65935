"""docs/rules.md and docs/rules-matrix.md stay true to the code: every house rule of the seed
presets is documented, and every test the matrix names exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from canasta import preset_options

ROOT = Path(__file__).resolve().parents[1]
FILES = {
    "T0": "tests/variants/test_canastone.py",
    "T1": "tests/variants/test_classic_italian.py",
    "T3": "tests/variants/test_brazilian.py",
    "T4": "tests/variants/test_romanian.py",
    "TI": "tests/variants/test_international_options.py",
    "R": "tests/test_variants_random.py",
}


def _file(tag: str) -> Path:
    if tag.startswith("I-"):
        return ROOT / "tests" / f"test_international_{tag[2:]}.py"
    return ROOT / FILES[tag]


REFS = sorted(set(re.findall(r"\b(T[0-4I]|R|I-[a-z_]+)::(test_\w+)",
                             (ROOT / "docs/rules-matrix.md").read_text("utf-8"))))


def test_the_matrix_names_tests() -> None:
    assert len(REFS) > 150


def _files(tag: str) -> list[Path]:
    """The file of ``tag`` and the files split from it (``test_canastone_scoring.py`` is
    ``T0``'s too)."""
    path = _file(tag)
    return [path, *sorted(path.parent.glob(f"{path.stem}_*.py"))]


@pytest.mark.parametrize(("tag", "name"), REFS)
def test_every_test_named_in_the_matrix_exists(tag: str, name: str) -> None:
    path = _file(tag)
    if tag.startswith("I-") and not path.exists():
        pytest.skip(f"{path.name} is not in this checkout")
    assert any(re.search(rf"^def {name}\(", f.read_text("utf-8"), re.M)
               for f in _files(tag)), f"{tag}::{name}"


@pytest.mark.parametrize("variant", ["canastone", "classic_italian", "brazilian", "romanian"])
def test_every_house_rule_is_documented(variant: str) -> None:
    docs = (ROOT / "docs/rules.md").read_text("utf-8")
    for name in preset_options(variant):
        assert f"`{name}`" in docs, name
