"""The package's layering (DESIGN.md "Layout"): no import cycle anywhere, and the core imports
only the standard library and itself. Imports are read statically from the source, including
those under ``if TYPE_CHECKING:`` (a cycle there is still a cycle for the reader and for mypyc).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "canasta"


def _modules() -> dict[str, Path]:
    mods: dict[str, Path] = {}
    for path in sorted((SRC / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        mods[".".join(parts)] = path
    return mods


def _imports(name: str, path: Path) -> set[str]:
    """Every module name imported by the module ``name`` (absolute, and each ``from X import
    y`` as both ``X`` and ``X.y``)."""
    out: set[str] = set()
    is_pkg = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name if is_pkg else name.rpartition(".")[0]
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            out.add(target)
            out.update(f"{target}.{alias.name}" for alias in node.names)
    return out


def _graph() -> dict[str, set[str]]:
    mods = _modules()
    return {
        m: {t for t in _imports(m, p) if t in mods and t != m and t != PACKAGE}
        for m, p in mods.items()
    }


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_the_walk_sees_the_core_modules() -> None:
    edges = _graph()
    assert "canasta.core.state" in edges and "canasta.core.legality" in edges
    assert "canasta.core.legality" in edges["canasta.core.state"]


def test_no_import_cycle_in_the_package() -> None:
    cycles = _cycles(_graph())
    assert cycles == [], "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_core_imports_only_the_standard_library_and_itself() -> None:
    """DESIGN.md: "core/ standard library only, no I/O"."""
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    bad: list[str] = []
    for name, path in _modules().items():
        if not name.startswith(f"{PACKAGE}.core"):
            continue
        for target in _imports(name, path):
            top = target.split(".")[0]
            if target.startswith(f"{PACKAGE}.core"):
                continue
            if top == PACKAGE and not target.startswith(f"{PACKAGE}.core"):
                bad.append(f"{name} imports {target}")
            elif top != PACKAGE and top not in stdlib:
                bad.append(f"{name} imports {target}")
    assert bad == [], "\n".join(bad)


def test_legality_and_goingout_do_not_read_private_fields() -> None:
    """Legality uses only the state's public API: no ``s._name`` anywhere in it."""
    for mod in ("legality", "goingout", "goingout_model", "goingout_rules", "candidates",
                "meldshape"):
        tree = ast.parse((SRC / PACKAGE / "core" / f"{mod}.py").read_text(encoding="utf-8"))
        private = sorted({
            n.attr for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and n.attr.startswith("_")
            and not n.attr.startswith("__")
        })
        assert private == [], f"{mod} reads private fields: {private}"
