"""Short modules, short functions: no module of ``lib/mlcbook`` or ``repro/mlcrepro``
over :data:`MODULE_LINES` lines, no function over :data:`FUNCTION_LINES` lines of code.

A function's lines of code are its non-blank lines that are not comments, without its
docstring (a long docstring with examples is welcome; a long body is not). Each check
names every offender with its size, so a failure says where to split.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(
    p
    for room in (ROOT / "lib" / "mlcbook", ROOT / "repro" / "mlcrepro")
    for p in room.rglob("*.py")
)
MODULE_LINES = 600
FUNCTION_LINES = 60


def code_lines(lines: list[str], node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Lines of ``node`` that hold code: not blank, not only a comment, not its docstring."""
    first = node.lineno
    skip: set[int] = set()
    doc = node.body[0] if node.body else None
    if (
        isinstance(doc, ast.Expr)
        and isinstance(doc.value, ast.Constant)
        and isinstance(doc.value.value, str)
    ):
        skip = set(range(doc.lineno, (doc.end_lineno or doc.lineno) + 1))
    count = 0
    for number in range(first, (node.end_lineno or first) + 1):
        text = lines[number - 1].strip()
        if number in skip or not text or text.startswith("#"):
            continue
        count += 1
    return count


def test_the_counter_counts_code_only() -> None:
    """The counter on a function whose code lines are known by construction (3)."""
    source = 'def f(x):\n    """Doc.\n\n    More.\n    """\n    # a comment\n\n    y = x\n    return y\n'
    node = ast.parse(source).body[0]
    assert isinstance(node, ast.FunctionDef)
    assert code_lines(source.splitlines(), node) == 3  # def, y = x, return y


def test_sources_found() -> None:
    assert len(SOURCES) > 100  # both packages, every subpackage


def test_no_module_over_the_limit() -> None:
    sizes = {p: len(p.read_text(encoding="utf-8").splitlines()) for p in SOURCES}
    long = [f"{p.relative_to(ROOT)}: {n} lines" for p, n in sizes.items() if n > MODULE_LINES]
    assert not long, "split by role:\n" + "\n".join(long)


def test_no_function_over_the_limit() -> None:
    long = []
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = code_lines(lines, node)
                if n > FUNCTION_LINES:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}: {n}")
    assert not long, "split by role:\n" + "\n".join(long)
