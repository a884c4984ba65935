"""Build script: compiles the engine core with mypyc where it can, else installs it as pure
Python.

``pip install .`` / ``pip install -e .`` build the modules listed in ``COMPILED`` below as C
extension modules (mypyc, from the ``mypy`` package in ``build-system.requires``) next to their
``.py`` sources; Python then imports the extension. Nothing prebuilt is downloaded: the C code
is generated and compiled on the installing machine. The core stays pure Python (the ``.py``
files, unchanged) when:

* the environment variable ``CANASTA_PURE=1`` is set at install time;
* mypyc cannot be imported;
* the C compiler is missing or fails (the extensions are ``optional``: a failed one is
  skipped, not fatal).

``canasta.core.COMPILED`` says which one runs; ``python -m canasta.bench`` prints it.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

#: Core modules compiled by mypyc. ``canasta.core.__init__`` and the presets package stay
#: Python (they only locate files), and so do ``rules`` (it reads its dataclasses' type hints
#: at run time to check rule values, which compiled classes do not keep as written) and
#: ``actions`` (compiling the action values gains nothing measurable, and as plain dataclasses
#: they keep accepting any sequence of cards, copying and pickling like any value), and
#: ``layout`` (the table of the state's fields, read at import; the copying code generated from
#: it is compiled in ``data`` and ``blanking``).
COMPILED = ("cards", "melds", "scoring", "data", "transitions", "goingout", "goingout_model",
            "generate",
            "legality", "meldcheck", "candidates", "meldshape", "goingout_rules", "illegal",
            "state", "match",
            "view", "blanking", "features", "meldkey", "wildlimit", "eventlog",
            "goingout_binding")


def _remove_stray_extensions() -> None:
    """Delete compiled modules in the source tree that are no longer in ``COMPILED`` (left by
    an earlier build, they would shadow their ``.py`` source)."""
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "src", "canasta", "core")
    if not os.path.isdir(folder):
        return
    keep = set(COMPILED) | {"_compiled__mypyc"}
    for name in os.listdir(folder):
        if name.endswith((".so", ".pyd")) and name.split(".")[0] not in keep:
            os.remove(os.path.join(folder, name))


class OptionalBuildExt(build_ext):
    """build_ext that never fails the install: without a working C compiler the package
    installs as pure Python."""

    def run(self) -> None:
        _remove_stray_extensions()
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - any compiler failure means pure Python
            print(f"canasta: compiling the core failed ({exc}); installing pure Python",
                  file=sys.stderr)

    def build_extension(self, ext):  # type: ignore[no-untyped-def]
        try:
            super().build_extension(ext)
        except Exception as exc:  # noqa: BLE001
            print(f"canasta: could not compile {ext.name} ({exc}); it stays pure Python",
                  file=sys.stderr)


def ext_modules() -> list[object]:
    if os.environ.get("CANASTA_PURE", "") not in ("", "0"):
        print("canasta: CANASTA_PURE is set; installing the pure-Python core", file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("canasta: mypyc is not available; installing the pure-Python core",
              file=sys.stderr)
        return []
    paths = [os.path.join("src", "canasta", "core", f"{m}.py") for m in COMPILED]
    try:
        exts = mypycify(paths, group_name="canasta.core._compiled", opt_level="3",
                        debug_level="0")
    except BaseException as exc:  # noqa: BLE001 - mypyc rejects the code: stay pure
        print(f"canasta: mypyc failed ({exc}); installing the pure-Python core",
              file=sys.stderr)
        return []
    for ext in exts:
        ext.optional = True
    return list(exts)


setup(ext_modules=ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
