"""The engine core: cards, rules, actions, the state of a hand, legality, going out,
scoring and the match (standard library only, no I/O).

``COMPILED`` is True when the core modules run as extension modules built by mypyc (the
default install where a C compiler exists, see ``setup.py``), False when they run as the
pure-Python source.
"""

import importlib.util as _util

_spec = _util.find_spec("canasta.core.legality")
#: Does the compiled (mypyc) core run? Decided by what ``import canasta.core.legality``
#: loads: an extension module (``.so``/``.pyd``) or the ``.py`` source.
COMPILED: bool = bool(_spec and _spec.origin and not _spec.origin.endswith(".py"))
del _spec, _util
