"""The reproduction uses only the library's public names.

Every ``from mlcbook... import name`` and ``import mlcbook...`` in ``repro/mlcrepro``, in
the book's pages and in its Sphinx extensions (``book/_ext``) names a module without a
private (underscore) part, and a name that module lists in its ``__all__`` (or a public
submodule of it): what the reproduction needs of the library is public, so the library
can change its private helpers without breaking the reproduction.  The book's pages and
extensions hold the reproduction to the same rule, and no source reaches a private name
through a module it imported (``module._name``).
"""

from __future__ import annotations

import ast
import importlib

import jupytext
import pytest

from mlcrepro._paths import project_root

ROOT = project_root()


def _sources() -> list[tuple[str, str]]:
    out = []
    for path in sorted((ROOT / "repro" / "mlcrepro").rglob("*.py")):
        out.append((str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")))
    for path in sorted((ROOT / "book").glob("*.md")):
        nb = jupytext.reads(path.read_text(encoding="utf-8"), fmt="md:myst")
        code = "\n".join(
            "\n".join(
                line for line in c.source.splitlines() if not line.lstrip().startswith(("%", "!"))
            )
            for c in nb.cells
            if c.cell_type == "code"
        )
        out.append((str(path.relative_to(ROOT)), code))
    for path in sorted((ROOT / "book" / "_ext").glob("*.py")):
        out.append((str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")))
    return out


def _outside_the_reproduction(where: str) -> bool:
    return where.startswith("book")


def library_imports(
    source: str, packages: tuple[str, ...] = ("mlcbook",)
) -> list[tuple[str, str | None]]:
    """``(module, name)`` of every import of ``packages`` (the library by default) in
    ``source`` (name None for ``import mlcbook.x``)."""
    found: list[tuple[str, str | None]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(a.name, None) for a in node.names if a.name.split(".")[0] in packages]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            if (node.module or "").split(".")[0] in packages:
                found += [(node.module, a.name) for a in node.names]
    return found


def private_attributes(source: str) -> list[str]:
    """Every ``module._name`` in ``source`` where ``module`` is a name an import bound
    to a module (``import x``, ``import x as m``, ``from x import module``)."""
    tree = ast.parse(source)
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {a.asname or a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for a in node.names:
                try:
                    importlib.import_module(f"{node.module}.{a.name}")
                except ImportError:
                    continue
                modules.add(a.asname or a.name)
    return sorted(
        {
            f"{node.value.id}.{node.attr}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
            and node.attr.startswith("_")
            and not (node.attr.startswith("__") and node.attr.endswith("__"))
        }
    )


def private_use(module: str, name: str | None) -> str | None:
    """Why ``from module import name`` is not a use of the public API (None if it is)."""
    if any(part.startswith("_") for part in module.split(".")):
        return f"{module} is a private module"
    if name is None:
        return None
    try:
        sub = importlib.import_module(f"{module}.{name}")
    except ImportError:
        sub = None
    if sub is not None and not name.startswith("_"):
        return None  # a public submodule
    public = getattr(importlib.import_module(module), "__all__", None)
    if public is None:
        return f"{module} lists no __all__"
    if name in public:
        return None
    return f"{name} is not in {module}.__all__"


def test_the_check_sees_private_names():
    src = "from mlcbook._io import atomic_write\nfrom mlcbook.metrics import _labels\n"
    found = [private_use(m, n) for m, n in library_imports(src)]
    assert found == [
        "mlcbook._io is a private module",
        "_labels is not in mlcbook.metrics.__all__",
    ]
    assert private_use("mlcbook.files", "atomic_write") is None
    assert private_use("mlcbook", "metrics") is None  # a public submodule
    src = "import os\nfrom mlcbook import metrics as M\nM._labels(1)\nos._exit\nos.__name__\n"
    assert private_attributes(src) == ["M._labels", "os._exit"]
    assert library_imports("from mlcrepro._paths import x", ("mlcrepro",)) == [
        ("mlcrepro._paths", "x")
    ]


@pytest.mark.parametrize("where,source", [pytest.param(*s, id=s[0]) for s in _sources()])
def test_the_reproduction_and_the_pages_use_public_names(where, source):
    # the book holds the reproduction to the same rule as the library
    packages = ("mlcbook", "mlcrepro") if _outside_the_reproduction(where) else ("mlcbook",)
    bad = sorted({why for m, n in library_imports(source, packages) if (why := private_use(m, n))})
    bad += private_attributes(source)
    assert not bad, f"{where} uses private names: {bad}"
