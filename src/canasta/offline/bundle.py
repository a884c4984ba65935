"""The zip of pure-Python sources the offline page loads into Pyodide.

The bundle holds the ``.py`` sources (never the compiled core's extension modules, which
are built for this machine, not for WebAssembly) of the packages the offline table needs,
with their data files: the presets, the bots' weights and the message catalogues. It is
built from the installed package itself, so the page always runs the server's own engine;
the zip is deterministic (sorted names, fixed times), so its hash names its version.

``python -m canasta.offline.bundle OUT.zip`` writes it (what ``tools/offline_golden.mjs``
loads to replay the golden transcripts in Pyodide).
"""

from __future__ import annotations

import hashlib
import io
import sys
import zipfile
from functools import cache
from pathlib import Path

__all__ = ["PACKAGES", "bundle", "bundle_hash", "main"]

ROOT = Path(__file__).resolve().parents[1]

#: The subpackages (relative to ``canasta/``) the page needs, and the single modules of
#: others (the golden transcripts, for the check that the page plays what the engine plays).
PACKAGES = ("core", "bots", "formats", "i18n", "offline")
MODULES = ("__init__.py", "py.typed", "sim/__init__.py", "sim/golden.py")

#: Data files kept beside the sources (everything else that is not ``.py`` is left out).
DATA = (".json",)

_EPOCH = (2020, 1, 1, 0, 0, 0)


def _files() -> list[Path]:
    out = [ROOT / name for name in MODULES]
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*"):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            if path.suffix == ".py" or path.suffix in DATA:
                out.append(path)
    return sorted(set(out))


@cache
def bundle() -> bytes:
    """The zip (bytes): ``canasta/...`` paths, pure-Python sources and data only.

    Raises:
        FileNotFoundError: a needed source is missing (an install without its ``.py``
            files, which the offline page cannot run).
    """
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in _files():
            info = zipfile.ZipInfo("canasta/" + path.relative_to(ROOT).as_posix(), _EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, path.read_bytes())
    return buf.getvalue()


def bundle_hash() -> str:
    """The bundle's SHA-256 (hex, first 16 digits): its version for caches."""
    return hashlib.sha256(bundle()).hexdigest()[:16]


def main(argv: list[str] | None = None) -> int:
    """Write the bundle to the file named by the one argument; prints its size and hash."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m canasta.offline.bundle OUT.zip", file=sys.stderr)
        return 2
    Path(args[0]).write_bytes(bundle())
    print(f"{args[0]}: {len(bundle())} bytes, {bundle_hash()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
