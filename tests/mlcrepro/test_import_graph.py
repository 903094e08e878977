"""The rooms' import graph: the library never imports the reproduction, neither package's
module-level imports form a cycle, and no function imports a first-party module.

The static checks read every ``.py`` file of ``lib/mlcbook`` and ``repro/mlcrepro`` with
:mod:`ast`; the runtime check imports every module of the library in a fresh interpreter.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ROOMS = {"mlcbook": ROOT / "lib", "mlcrepro": ROOT / "repro"}
FIRST_PARTY = tuple(ROOMS)

# Function-local first-party imports allowed (file, imported module): none.
PENDING: set[tuple[str, str]] = set()
# PEP 562: ``import mlcbook`` stays light; ``mlcbook.scorers`` (scikit-learn's metrics)
# is imported by the package's ``__getattr__`` on first use.  (The measure registry
# imports its built-in entries at module level: the measure functions import no part of
# the registry, tests/mlcbook/test_import_cycles.py.)
LAZY = {
    ("lib/mlcbook/__init__.py", "mlcbook.scorers"),
    # the command line starts in a fraction of a second: `mlcbook --help` imports no
    # NumPy; each command imports its work when it runs (the measures and file readers,
    # the datasets with pandas, the figure with matplotlib), and the label-file reader
    # imports the ARFF parser (pandas, liac-arff) only for an ARFF file
    ("lib/mlcbook/cli.py", "mlcbook._evaluation"),
    ("lib/mlcbook/cli.py", "mlcbook.datasets"),
    ("lib/mlcbook/cli.py", "mlcbook.plots.losses"),
    ("lib/mlcbook/_labelfiles.py", "mlcbook.datasets.arff"),
}


def _modules() -> dict[str, tuple[Path, bool]]:
    """Every first-party module: dotted name → (file, is a package ``__init__``)."""
    out = {}
    for top, base in ROOMS.items():
        for path in sorted((base / top).rglob("*.py")):
            parts = list(path.relative_to(base).with_suffix("").parts)
            is_pkg = parts[-1] == "__init__"
            out[".".join(parts[:-1] if is_pkg else parts)] = (path, is_pkg)
    return out


MODULES = _modules()


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_pkg: bool) -> list[str]:
    """The modules an import statement loads (``from pkg import name`` is ``pkg.name``
    when that is a module, else ``pkg``)."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        if node.level:
            base = module.split(".") if is_pkg else module.split(".")[:-1]
            base = base[: len(base) - (node.level - 1)]
            prefix = ".".join(base + ([node.module] if node.module else []))
        else:
            prefix = node.module or ""
        names = [
            f"{prefix}.{a.name}" if f"{prefix}.{a.name}" in MODULES else prefix
            for a in node.names
        ]
    out = []
    for name in names:
        if name.split(".")[0] in FIRST_PARTY:
            while name not in MODULES and "." in name:
                name = name.rsplit(".", 1)[0]
            out.append(name)
    return out


def _module_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Import statements run when the module is imported (not those under
    ``if TYPE_CHECKING:``, nor those inside functions)."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(stmts: list[ast.stmt]) -> None:
        for s in stmts:
            if isinstance(s, ast.Import | ast.ImportFrom):
                found.append(s)
            elif isinstance(s, ast.If):
                test = ast.unparse(s.test)
                if test not in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
                    visit(s.body)
                    visit(s.orelse)
            elif isinstance(s, ast.Try):
                visit(s.body)
                for h in s.handlers:
                    visit(h.body)
                visit(s.orelse)
                visit(s.finalbody)
            elif isinstance(s, ast.ClassDef | ast.With):
                visit(s.body)

    visit(tree.body)
    return found


def _graph() -> dict[str, set[str]]:
    graph = {}
    for module, (path, is_pkg) in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        edges = set()
        for node in _module_level_imports(tree):
            edges.update(t for t in _targets(node, module, is_pkg) if t != module)
        graph[module] = edges
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), and self-loops."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
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
            if len(comp) > 1 or v in graph[v]:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _function_local_imports() -> set[tuple[str, str, int]]:
    """(file, imported first-party module, line) of every import inside a function,
    including ``importlib.import_module`` of a first-party name."""
    found = set()
    for module, (path, is_pkg) in MODULES.items():
        rel = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    for t in _targets(node, module, is_pkg):
                        found.add((rel, t, node.lineno))
                elif (
                    isinstance(node, ast.Call)
                    and ast.unparse(node.func) in ("importlib.import_module", "__import__")
                    and node.args
                ):
                    first = node.args[0]
                    if isinstance(first, ast.Constant) and isinstance(first.value, str):
                        name = first.value  # (stripping quotes would eat a final "f")
                    else:  # an f-string such as f"{__name__}.scorers"
                        arg = ast.unparse(first)
                        name = arg.replace("{__name__}", module).strip("f'\"")
                    if name.split(".")[0] in FIRST_PARTY:
                        found.add((rel, name, node.lineno))
    return found


# ------------------------------------------------------------------ the checks
def test_the_scan_sees_every_module_and_resolves_relative_imports():
    assert "mlcbook.metrics" in MODULES and "mlcrepro.runner" in MODULES
    assert "mlcrepro.huellermeier2022.authors_study" in MODULES
    graph = _graph()
    # lib/mlcbook/datasets/__init__.py: ``from .load import ...`` → mlcbook.datasets.load
    assert "mlcbook.datasets.load" in graph["mlcbook.datasets"]
    # a cycle is found when there is one
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_the_library_never_imports_the_reproduction_statically():
    offenders = []
    for module, (path, is_pkg) in MODULES.items():
        if not module.startswith("mlcbook"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                hits = [t for t in _targets(node, module, is_pkg) if t.startswith("mlcrepro")]
                offenders += [(module, node.lineno, t) for t in hits]
    assert offenders == []


def test_importing_every_library_module_loads_nothing_of_the_reproduction():
    """In a fresh interpreter whose path holds both rooms, import every module of
    ``mlcbook`` (walked by :mod:`pkgutil`); ``mlcrepro`` must stay unloaded."""
    code = (
        "import importlib, json, pkgutil, sys\n"
        "import mlcbook\n"
        "names = [m.name for m in pkgutil.walk_packages(mlcbook.__path__, 'mlcbook.')]\n"
        "failed = {}\n"
        "for n in names:\n"
        "    try:\n"
        "        importlib.import_module(n)\n"
        "    except ImportError as e:\n"
        "        failed[n] = repr(e)\n"
        "print(json.dumps({'names': names, 'failed': failed,\n"
        "  'repro': sorted(m for m in sys.modules if m.split('.')[0] == 'mlcrepro')}))\n"
    )
    env = {"PYTHONPATH": f"{ROOMS['mlcbook']}:{ROOMS['mlcrepro']}", "MLCBOOK_PROGRESS": "0"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    got = json.loads(out.stdout)
    library = {m for m in MODULES if m.startswith("mlcbook.")}
    assert library - {"mlcbook.__main__"} <= set(got["names"])
    assert got["failed"] == {}
    assert got["repro"] == []


@pytest.mark.parametrize("room", FIRST_PARTY)
def test_module_level_imports_have_no_cycle(room):
    graph = _graph()
    sub = {m: {t for t in e if t.startswith(room)} for m, e in graph.items() if m.startswith(room)}
    assert _cycles(sub) == []


def test_no_function_imports_a_first_party_module():
    found = _function_local_imports()
    pairs = {(f, m) for f, m, _ in found}
    new = sorted(x for x in found if (x[0], x[1]) not in PENDING | LAZY)
    assert new == [], "move these imports to module level"
    assert LAZY <= pairs


def test_the_library_tests_never_import_the_reproduction():
    """``tests/mlcbook`` (and the shared ``conftest.py``) test the library alone."""
    files = sorted((ROOT / "tests" / "mlcbook").rglob("*.py")) + [ROOT / "tests" / "conftest.py"]
    offenders = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            offenders += [(path.name, node.lineno) for n in names if n.startswith("mlcrepro")]
    assert len(files) > 20 and offenders == []
