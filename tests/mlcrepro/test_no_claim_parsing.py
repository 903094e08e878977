"""No code reads a ledger row's claim wording back into keys.

A row says what it is about as data (``about=``, :attr:`mlcrepro.ledger.Entry.about`);
its claim is words for a reader, and rewording it must change no table and no
recompute.  These checks fail on any string method, regular expression, ``in`` test or
a word-matching helper (``named(claim, words)``) applied to a claim, in the reproduction's code
(read with :mod:`ast`) and in the book's code cells (read as text).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from mlcrepro._paths import project_root

ROOT = project_root()
#: the string methods that read words out of a text
_READERS = {
    "split",
    "rsplit",
    "partition",
    "rpartition",
    "startswith",
    "endswith",
    "find",
    "index",
    "count",
    "removeprefix",
    "removesuffix",
    # pandas' .str accessor
    "contains",
    "extract",
    "extractall",
    "match",
    "fullmatch",
}


def _is_claim(node: ast.AST) -> bool:
    """``claim``, ``x.claim``, ``x["claim"]``, ``str(...)`` of one, or ``.str`` of one."""
    if isinstance(node, ast.Name):
        return node.id == "claim"
    if isinstance(node, ast.Attribute):
        return node.attr == "claim" or (node.attr == "str" and _is_claim(node.value))
    if isinstance(node, ast.Subscript):
        key = node.slice
        return isinstance(key, ast.Constant) and key.value == "claim"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
        return node.func.id == "str" and _is_claim(node.args[0])
    return False


def _module_of(node: ast.AST) -> str | None:
    return node.id if isinstance(node, ast.Name) else None


def claim_readings(source: str) -> list[tuple[int, str]]:
    """Where ``source`` (Python) reads words out of a claim: (line, what)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            f = node.func
            if f.attr in _READERS and _is_claim(f.value):
                out.append((node.lineno, f"claim.{f.attr}"))
            elif _module_of(f.value) == "re" and any(_is_claim(a) for a in node.args):
                out.append((node.lineno, f"re.{f.attr}"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id == "named" and node.args and _is_claim(node.args[0]):
                out.append((node.lineno, "named(claim)"))
        elif isinstance(node, ast.Compare):
            ins = [isinstance(op, (ast.In, ast.NotIn)) for op in node.ops]
            if any(i and _is_claim(c) for i, c in zip(ins, node.comparators)):
                out.append((node.lineno, "in claim"))
    return sorted(out)


def _repro_files() -> list[Path]:
    return sorted((ROOT / "repro" / "mlcrepro").rglob("*.py"))


def test_the_scan_finds_what_it_looks_for():
    # each way of reading a claim's words, and none of the ways that read other fields
    bad = [
        "e.claim.startswith('Flags: ')",
        "row['claim'].str.contains('BR')",
        "str(row['claim']).endswith('x')",
        "named(claim, ('BR', 'LP'))",
        "'Base learners' not in claim",
        "re.findall(r'\\w+', e.claim)",
    ]
    for line in bad:
        assert claim_readings(line), line
    good = [
        "e.claim_ids[0].startswith('EX')",
        "led.where(dataset='flags')",
        "f'{e.claim} ({fam})'",
        "rows_by_claim[claim]",
        "claim_id.split()",
    ]
    for line in good:
        assert not claim_readings(line), line


def test_no_reproduction_module_reads_a_claims_words():
    files = _repro_files()
    assert len(files) > 50  # the scan sees the reproduction
    found = {
        f"{p.relative_to(ROOT)}:{line} {what}"
        for p in files
        for line, what in claim_readings(p.read_text(encoding="utf-8"))
    }
    assert not found, sorted(found)


_CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```", re.S | re.M)
_METHODS = "|".join(sorted(_READERS))
_READS = re.compile(
    r"""(\bclaim\b|\.claim\b|\[["']claim["']\])\)?\s*(\.str)?\s*\.\s*("""
    + _METHODS
    + r""")\s*\(|"""
    r"""\bre\.\w+\([^)]*\bclaim\b|\bnamed\(\s*[\w.]*claim\b|\bin\s+[\w.]*\bclaim\b"""
)


@pytest.mark.parametrize(
    "cell",
    ["x = e.claim.split(' of ')", "t = led['claim'].str.contains('BR')", "re.match('a', claim)"],
)
def test_the_chapter_scan_finds_a_claims_words_read(cell):
    assert _READS.search(cell)


def test_no_chapter_code_cell_reads_a_claims_words():
    chapters = sorted((ROOT / "book").glob("*.md"))
    assert len(chapters) > 15  # the scan sees the chapters
    found = [
        f"{p.name}: {m.group(0)}"
        for p in chapters
        for cell in _CELL.findall(p.read_text(encoding="utf-8"))
        for m in _READS.finditer(cell)
    ]
    assert not found, found
