"""The docs hold: docs/README.md links every document in docs/, and the module map of
docs/ARCHITECTURE-NOTES.md names every module under src/canasta, package by package, and
none that is gone."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SRC = ROOT / "src"


def test_the_docs_index_links_every_document() -> None:
    index = (DOCS / "README.md").read_text("utf-8")
    linked = set(re.findall(r"\]\(([^)#]+)\)", index))
    for target in linked:
        assert (DOCS / target).exists(), f"docs/README.md links {target}, which is not there"
    documents = {p.name for p in DOCS.glob("*.md")} - {"README.md"}
    assert sorted(documents - linked) == [], "docs/README.md does not link these documents"


def module_map() -> dict[str, set[str]]:
    """Package path (``canasta/core/``) -> the modules its section of the module map names."""
    text = (DOCS / "ARCHITECTURE-NOTES.md").read_text("utf-8")
    assert "\n## Module map\n" in text
    section = text.split("\n## Module map\n", 1)[1].split("\n## ", 1)[0]
    out: dict[str, set[str]] = {}
    package = ""
    for line in section.splitlines():
        heading = re.fullmatch(r"### `([a-z_0-9/]+/)`", line)
        if heading:
            package = heading.group(1)
            assert package not in out, f"the module map has {package} twice"
            out[package] = set()
        item = re.match(r"- `([a-z_0-9]+)`: \S", line)
        if item:
            assert package, f"a module before any package heading: {line}"
            out[package].add(item.group(1))
    return out


def modules() -> dict[str, set[str]]:
    """Package path -> its modules (``__init__`` aside: the heading names the package)."""
    out: dict[str, set[str]] = {}
    for path in (SRC / "canasta").rglob("*.py"):
        package = path.parent.relative_to(SRC).as_posix() + "/"
        names = out.setdefault(package, set())
        if path.stem != "__init__":
            names.add(path.stem)
    return out


def test_the_module_map_names_every_module_and_no_other() -> None:
    named, present = module_map(), modules()
    missing = sorted(f"{p}{m}" for p, ms in present.items() for m in ms - named.get(p, set()))
    gone = sorted(f"{p}{m}" for p, ms in named.items() for m in ms - present.get(p, set()))
    assert missing == [], "modules missing from docs/ARCHITECTURE-NOTES.md's module map"
    assert gone == [], "the module map names modules that are not there"
    assert sorted(set(present) - set(named)) == [], "packages without a heading"


def test_the_module_map_reader_finds_the_core() -> None:
    assert {"state", "layout", "legality", "blanking"} <= module_map()["canasta/core/"]


#: A reference to a tracker's number: the word and a number ("issue" 9, "issues" 9 and 10,
#: "issue-"21), or, in code and prose (.py, .md: not the colours of .css or .html), a "#" and
#: a number. Written so as not to match itself.
TRACKER_REF = re.compile(r"\b[Ii]ssues?[ -]#?\d|\b[Ii]ssue #\d")
BARE_NUMBER = re.compile(r"(?<![&\w#/])#\d+\b(?![0-9a-fA-F])")


def text_files() -> list[Path]:
    out = [ROOT / "README.md"]
    for top in ("src", "docs", "tests"):
        for path in (ROOT / top).rglob("*"):
            if path.is_file() and path.suffix in (".py", ".md", ".json", ".txt", ".html",
                                                  ".js", ".toml", ".cfg", ".ini"):
                out.append(path)
    return out


def test_no_reference_to_a_tracker_number() -> None:
    """A reader has no tracker: code, docs and tests say what a thing is, not its number."""
    found = []
    for path in text_files():
        text = path.read_text("utf-8", errors="replace")
        bare = BARE_NUMBER if path.suffix in (".py", ".md") else None
        for n, line in enumerate(text.splitlines(), 1):
            if TRACKER_REF.search(line) or (bare is not None and bare.search(line)):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:100]}")
    assert found == []


def test_the_tracker_patterns_catch_what_they_should() -> None:
    word = "issue"  # the examples are built, so that this file holds none
    for text in (f"({word} 9 item 4)", f"{word.title()} 12: a frame", f"{word}s 8 and 9",
                 f"{word}-21", f"{word} " + "#" + "2"):
        assert TRACKER_REF.search(text), text
    assert BARE_NUMBER.search("see " + "#" + "22 for that")
    for text in ("&#9824;", f"the {word} with 3 cards", "seed 002", "a#1b", "x/#3"):
        assert not TRACKER_REF.search(text) and not BARE_NUMBER.search(text), text
