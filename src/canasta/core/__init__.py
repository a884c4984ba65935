"""The engine core: cards, rules, actions, the state of a hand, legality, going out,
scoring and the match (standard library only, no I/O).

``COMPILED`` is True when the core modules run as extension modules built by mypyc (the
default install where a C compiler exists, see ``setup.py``), False when they run as the
pure-Python source. With the environment variable ``CANASTA_PURE=1`` set when ``canasta`` is
first imported, the ``.py`` sources are imported even where compiled modules were built (for
testing the pure-Python core). In a source checkout (an editable install), a compiled core
older than any of its sources (edited, or changed by a checkout since the build) is not used:
the sources run, with a warning to rebuild (``pip install -e .``).
"""

import importlib.util as _util
import os as _os
import sys as _sys
import warnings as _warnings
from importlib.machinery import ModuleSpec as _ModuleSpec
from types import ModuleType as _ModuleType


class _PureFinder:
    """Finds the ``.py`` source of a ``canasta.core`` module before any compiled one."""

    @staticmethod
    def find_spec(name: str, path: object = None,
                  target: _ModuleType | None = None) -> _ModuleSpec | None:
        if not name.startswith("canasta.core."):
            return None
        leaf = name[len("canasta.core."):]
        if "." in leaf:
            return None
        for folder in __path__:
            source = _os.path.join(folder, leaf + ".py")
            if _os.path.isfile(source):
                return _util.spec_from_file_location(name, source)
        return None


def _stale_sources() -> list[str]:
    """In a source checkout, the sources changed after the compiled core was built (by more
    than the two seconds a build takes to write its files)."""
    folder = __path__[0]
    if "site-packages" in folder or "dist-packages" in folder:
        return []
    try:
        names = _os.listdir(folder)
        libs = [n for n in names if n.startswith("_compiled__mypyc.")]
        if not libs:
            return []
        built = min(_os.path.getmtime(_os.path.join(folder, n)) for n in libs)
        compiled = {n.split(".")[0] for n in names if n.endswith((".so", ".pyd"))}
        return [n for n in names if n.endswith(".py") and n[:-3] in compiled
                and _os.path.getmtime(_os.path.join(folder, n)) > built + 2]
    except OSError:
        return []


def _use_sources() -> None:
    if not any(getattr(f, "__name__", "") == "_PureFinder" for f in _sys.meta_path):
        _sys.meta_path.insert(0, _PureFinder)


if _os.environ.get("CANASTA_PURE", "") not in ("", "0"):
    _use_sources()
elif _stale := _stale_sources():
    _warnings.warn(f"canasta: the compiled core is older than {', '.join(sorted(_stale))}; "
                   "running the pure-Python sources (rebuild: pip install -e .)",
                   RuntimeWarning, stacklevel=2)
    _use_sources()

_spec = _util.find_spec("canasta.core.legality")
#: Does the compiled (mypyc) core run? Decided by what ``import canasta.core.legality``
#: loads: an extension module (``.so``/``.pyd``) or the ``.py`` source.
COMPILED: bool = bool(_spec and _spec.origin and not _spec.origin.endswith(".py"))
del _spec
