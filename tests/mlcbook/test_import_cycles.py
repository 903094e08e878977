"""No import cycle in the library or the reproduction.

The graph: one node per module of ``lib/mlcbook`` and ``repro/mlcrepro``; an edge for
every ``import``/``from ... import`` statement at any depth (module level, inside a
function or a class) and every ``importlib.import_module("...")`` call with a literal
name, to the module it names.  ``from package import name`` is an edge to
``package.name`` when that is a module, else to ``package``.  A package is not made to
depend on its submodules nor a submodule on its package unless a statement says so
(Python imports the parent first, but that orders loading; it is no dependency).

The registry of measures sits at the bottom: the measure functions import none of it,
the table of built-in measures imports the registry's core and the functions, and the
public registry and ``all_measures`` sit above the table.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TREES = {"mlcbook": ROOT / "lib" / "mlcbook", "mlcrepro": ROOT / "repro" / "mlcrepro"}


def _modules() -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` file of the two trees."""
    out = {}
    for top, folder in TREES.items():
        for path in sorted(folder.rglob("*.py")):
            parts = [top, *path.relative_to(folder).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def _resolve(current: str, is_package: bool, level: int, module: str | None) -> str:
    """The absolute name of ``from <dots><module> import ...`` in module ``current``."""
    if level == 0:
        return module or ""
    base = current.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def _imported(tree: ast.AST, current: str, is_package: bool, known: set[str]) -> set[str]:
    """The modules of ``known`` that the module named ``current`` imports."""
    found: set[str] = set()

    def add(name: str) -> None:
        # the module itself, else its nearest enclosing module that is ours
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name and name != current:
            found.add(name)

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(current, is_package, node.level, node.module)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                add(full if full in known else base)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            add(node.args[0].value)
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules it imports (ours only)."""
    modules = _modules()
    known = set(modules)
    graph = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        graph[name] = _imported(tree, name, path.name == "__init__.py", known)
    return graph


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components with more than one module (or a module
    importing itself): each is one knot of cycles."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        # iterative depth-first search: the graph has hundreds of modules
        work = [(v, iter(sorted(graph[v])))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == node:
                            break
                    if len(comp) > 1 or node in graph[node]:
                        out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_graph_sees_every_kind_of_import():
    """The graph's reader on a module written for it: module- and function-level
    statements, relative and absolute, ``from package import module`` and
    ``importlib.import_module``."""
    src = (
        "import mlcbook.metrics\n"
        "from .. import registry\n"
        "from ..losses import loss_profile\n"
        "from . import heatmaps\n"
        "from mlcbook import cli\n"
        "def f():\n"
        "    from ..datasets import load_dataset\n"
        "    importlib.import_module('mlcbook.scorers')\n"
    )
    known = {
        "mlcbook",
        "mlcbook.metrics",
        "mlcbook.registry",
        "mlcbook.losses",
        "mlcbook.cli",
        "mlcbook.scorers",
        "mlcbook.datasets",
        "mlcbook.plots",
        "mlcbook.plots.x",
        "mlcbook.plots.heatmaps",
    }
    got = _imported(ast.parse(src), "mlcbook.plots.x", False, known)
    assert got == {
        "mlcbook.metrics",
        "mlcbook.registry",
        "mlcbook.losses",
        "mlcbook.cli",
        "mlcbook.scorers",
        "mlcbook.datasets",
        "mlcbook.plots.heatmaps",
    }
    # a cycle a -> b -> c -> a and a self-contained module d
    assert strongly_connected({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [
        ["a", "b", "c"]
    ]


def test_no_import_cycle_in_the_library_or_the_reproduction():
    graph = import_graph()
    assert len(graph) > 150  # both trees were read
    assert "mlcbook._measure_table" in graph["mlcbook.registry"]
    knots = strongly_connected(graph)
    assert knots == []


def test_measure_functions_do_not_import_the_registry():
    """The registry at the bottom: no module that defines measures reaches it."""
    graph = import_graph()
    registry = {"mlcbook.registry", "mlcbook._measure_table"}

    def reaches(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for w in graph[todo.pop()]:
                if w not in seen:
                    seen.add(w)
                    todo.append(w)
        return seen

    for module in (
        "mlcbook._classification",
        "mlcbook._ranking",
        "mlcbook._auc",
        "mlcbook._labelsets",
        "mlcbook.losses",
        "mlcbook._choquet",
        "mlcbook._loss_core",
        "mlcbook.extreme",
        "mlcbook._at_k",
        "mlcbook._sklearn_measures",
        "mlcbook._measure_spec",
    ):
        assert not reaches(module) & registry, module
