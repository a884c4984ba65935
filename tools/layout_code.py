"""``python tools/layout_code.py [--write]``: the copying code generated from the state's
field table (:mod:`canasta.core.layout`): ``HandData.clone`` and the start of a view's table
(``blanking.table_start``). Without ``--write``, exits 1 and names the regions that differ
from the table; with it, writes them again. ``tests/test_layout.py`` runs the check."""

from __future__ import annotations

import sys
from pathlib import Path

CORE = Path(__file__).resolve().parent.parent / "src" / "canasta" / "core"
sys.path.insert(0, str(CORE.parent.parent))

from canasta.core.layout import REGIONS, generated, marker  # noqa: E402


def rewrite(text: str, region: str) -> str:
    """``text`` with the region's lines between its markers generated again.

    Raises:
        ValueError: the markers are missing or out of order.
    """
    lines = text.splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if line.strip() == marker(region)]
    ends = [i for i, line in enumerate(lines) if line.strip() == marker(region, end=True)]
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        raise ValueError(f"the markers of region {region!r} are not found once each, in order")
    start, end = starts[0], ends[0]
    indent = lines[start][: len(lines[start]) - len(lines[start].lstrip())]
    return "".join(lines[: start + 1]) + generated(region, indent) + "".join(lines[end:])


def main(argv: list[str]) -> int:
    write = "--write" in argv
    stale = []
    for filename, region in REGIONS:
        path = CORE / filename
        text = path.read_text("utf-8")
        new = rewrite(text, region)
        if new != text:
            stale.append(f"{filename} ({region})")
            if write:
                path.write_text(new, "utf-8")
    if stale and not write:
        print("generated code differs from canasta.core.layout: " + ", ".join(stale)
              + "; run python tools/layout_code.py --write", file=sys.stderr)
        return 1
    if stale:
        print("wrote " + ", ".join(stale))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
