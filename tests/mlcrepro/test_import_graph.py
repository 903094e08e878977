"""The rooms' import graph: no cycle in the library or the reproduction, the library never
imports the reproduction, no function imports a first-party module (but the listed lazy
ones), and the registry of measures sits at the bottom.

One scan reads every ``.py`` file of ``lib/mlcbook`` and ``repro/mlcrepro`` with
:mod:`ast`: one node per module, an edge for every ``import``/``from ... import``
statement at any depth (module level, under ``if``/``try``/``with``/a class, inside a
function) and every ``importlib.import_module``/``__import__`` call with a literal name
(or ``f"{__name__}..."``), to the module it names.  ``from package import name`` is an
edge to ``package.name`` when that is a module, else to ``package``; a name that is no
module of ours stands for its nearest enclosing module that is.  A package is not made to
depend on its submodules nor a submodule on its package unless a statement says so
(Python imports the parent first, but that orders loading; it is no dependency).  Each
edge records whether it is made inside a function (run on first use, not at import).
A runtime check imports every module of the library in a fresh interpreter.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ROOMS = {"mlcbook": ROOT / "lib", "mlcrepro": ROOT / "repro"}

# PEP 562: ``import mlcbook`` stays light; ``mlcbook.scorers`` (scikit-learn's metrics)
# is imported by the package's ``__getattr__`` on first use.  (The measure registry
# imports its built-in entries at module level: the measure functions import no part of
# the registry, test_measure_functions_do_not_import_the_registry.)
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


def _modules() -> dict[str, Path]:
    """Every first-party module: dotted name -> file."""
    out = {}
    for top, base in ROOMS.items():
        for path in sorted((base / top).rglob("*.py")):
            parts = list(path.relative_to(base).with_suffix("").parts)
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


MODULES = _modules()


def imports(tree: ast.AST, current: str, is_package: bool, known) -> set[tuple[str, int, bool]]:
    """``(module of known, line, inside a function)`` of every import of module ``current``."""
    found: set[tuple[str, int, bool]] = set()

    def add(name: str, node: ast.AST, local: bool) -> None:
        while name and name not in known:  # the module itself, else its nearest of ours
            name = name.rpartition(".")[0]
        if name and name != current:
            found.add((name, node.lineno, local))

    def visit(node: ast.AST, local: bool) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node, local)
        elif isinstance(node, ast.ImportFrom):
            base = current.split(".")[: len(current.split(".")) + is_package - node.level]
            base = ".".join(base + [node.module or ""]).strip(".") if node.level else node.module
            for alias in node.names:
                full = f"{base}.{alias.name}"
                add(full if full in known else base or "", node, local)
        elif (
            isinstance(node, ast.Call)
            and ast.unparse(node.func) in ("importlib.import_module", "__import__")
            and node.args
        ):  # a literal name, or an f-string such as f"{__name__}.scorers"
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                add(arg.value, node, local)
            elif isinstance(arg, ast.JoinedStr):
                add(ast.unparse(arg).replace("{__name__}", current)[2:-1], node, local)
        for child in ast.iter_child_nodes(node):
            visit(child, local or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef))

    visit(tree, False)
    return found


@cache
def scan() -> dict[str, set[tuple[str, int, bool]]]:
    """Module -> its imports of first-party modules (:func:`imports`), read once."""
    return {
        name: imports(
            ast.parse(path.read_text(encoding="utf-8")), name, path.name == "__init__.py", MODULES
        )
        for name, path in MODULES.items()
    }


def graph() -> dict[str, set[str]]:
    """Module -> the first-party modules it imports, at any depth."""
    return {m: {t for t, _, _ in edges} for m, edges in scan().items()}


def strongly_connected(g: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components with more than one module (or a module
    importing itself): each is one knot of cycles.  Iterative: the graph has hundreds of
    modules."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()  # the members of stack
    out: list[list[str]] = []
    for root in sorted(g):
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        work = [(root, iter(sorted(g[root])))]
        while work:
            node, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(g[w]))))
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = stack[stack.index(node) :]
                    del stack[stack.index(node) :]
                    on.difference_update(comp)
                    if len(comp) > 1 or node in g[node]:
                        out.append(sorted(comp))
    return out


# ------------------------------------------------------------------ the checks
def test_the_scan_sees_every_kind_of_import():
    """The reader on a module written for it: module- and function-level statements,
    relative and absolute, ``from package import module``, ``importlib.import_module``
    with a literal and with ``f"{__name__}..."``; and the cycle finder on small graphs."""
    src = (
        "import mlcbook.metrics\n"
        "from .. import registry\n"
        "from ..losses import loss_profile\n"
        "from . import heatmaps\n"
        "from mlcbook import cli\n"
        "import numpy\n"
        "def f():\n"
        "    from ..datasets import load_dataset\n"
        "    importlib.import_module('mlcbook.scorers')\n"
        "    importlib.import_module(f'{__name__}s')\n"
    )
    known = {
        "mlcbook", "mlcbook.metrics", "mlcbook.registry", "mlcbook.losses", "mlcbook.cli",
        "mlcbook.scorers", "mlcbook.datasets", "mlcbook.plots", "mlcbook.plots.x",
        "mlcbook.plots.heatmaps", "mlcbook.plots.xs",
    }  # fmt: skip
    got = {(t, local) for t, _, local in imports(ast.parse(src), "mlcbook.plots.x", False, known)}
    assert got == {
        ("mlcbook.metrics", False), ("mlcbook.registry", False), ("mlcbook.losses", False),
        ("mlcbook.cli", False), ("mlcbook.plots.heatmaps", False),
        ("mlcbook.datasets", True), ("mlcbook.scorers", True), ("mlcbook.plots.xs", True),
    }  # fmt: skip
    # lib/mlcbook/datasets/__init__.py: ``from .load import ...`` -> mlcbook.datasets.load
    assert "mlcbook.datasets.load" in graph()["mlcbook.datasets"]
    assert strongly_connected({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [
        ["a", "b", "c"]
    ]
    assert strongly_connected({"a": {"b"}, "b": set(), "c": {"c"}}) == [["c"]]


def test_no_import_cycle_in_the_library_or_the_reproduction():
    """Every import counts, at any depth: the module-level graph of each room has no cycle
    either (it is a part of this one)."""
    g = graph()
    assert "mlcbook.metrics" in g and "mlcrepro.runner" in g and len(g) > 150
    assert "mlcrepro.huellermeier2022.ledger_rows" in g
    assert "mlcbook._measure_table" in g["mlcbook.registry"]
    assert strongly_connected(g) == []


def test_the_library_never_imports_the_reproduction_statically():
    offenders = [
        (m, line, t)
        for m, edges in scan().items()
        if m.startswith("mlcbook")
        for t, line, _ in edges
        if t.startswith("mlcrepro")
    ]
    assert offenders == []


def test_no_function_imports_a_first_party_module():
    local = {
        (MODULES[m].relative_to(ROOT).as_posix(), t, line)
        for m, edges in scan().items()
        for t, line, inside in edges
        if inside
    }
    new = sorted(x for x in local if (x[0], x[1]) not in LAZY)
    assert new == [], "move these imports to module level"
    assert LAZY <= {(f, t) for f, t, _ in local}


def test_measure_functions_do_not_import_the_registry():
    """The registry at the bottom: no module that defines measures reaches it."""
    g = graph()
    registry = {"mlcbook.registry", "mlcbook._measure_table"}

    def reaches(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            todo += [w for w in g[todo.pop()] if w not in seen]
            seen.update(todo)
        return seen

    for module in (
        "mlcbook._classification", "mlcbook._ranking", "mlcbook._auc", "mlcbook._labelsets",
        "mlcbook.losses", "mlcbook._choquet", "mlcbook._loss_core", "mlcbook.extreme",
        "mlcbook._at_k", "mlcbook._sklearn_measures", "mlcbook._measure_spec",
    ):  # fmt: skip
        assert not reaches(module) & registry, module


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


def test_the_library_tests_never_import_the_reproduction():
    """``tests/mlcbook`` (and the shared ``conftest.py``) test the library alone."""
    files = sorted((ROOT / "tests" / "mlcbook").rglob("*.py")) + [ROOT / "tests" / "conftest.py"]
    found = [
        (path.name, line)
        for path in files
        for _, line, _ in imports(ast.parse(path.read_text()), "tests", False, {"mlcrepro"})
    ]
    assert len(files) > 20 and found == []
