"""Every cause's reference leads a reader somewhere that exists, and names no file.

A cause's reference (``cause_ref`` of the saved ledgers) is read by a reader of the
book: each of its parts (joined by ``"; "``) is either a section of a page of the book
(:func:`mlcrepro.ledger.section`: the page's title and a heading of that page) or the
dotted name of a function or module of the packages (documented in the API reference).
Each reference names at least one section, and no text of a row names a repository
path, a result table's file, a test or a machine path.
"""

from __future__ import annotations

import importlib
import re

import pytest

from mlcrepro._paths import project_root
from mlcrepro.ledger import load_ledgers, section, section_refs
from mlcrepro.ledger.rules import SECTION_REF

BOOK = project_root() / "book"
_HEADING = re.compile(r"^(#{1,4})\s+(.+?)\s*$")
#: what a reader-facing text must not contain: repository folders, result tables and
#: tests by file, test ids, machine paths
WORKSHOP = re.compile(
    r"(?<![\w.])(?:data/results/|book/\w+\.md|tests?/\w|notes/\w|lib/mlcbook|repro/mlcrepro)"
    r"|\w\.csv\b|\w\.py\b|::\w|(?<![\w.])/(?:work|home|tmp|Users)/"
)


def _pages() -> dict[str, set[str]]:
    """Each page's title -> the headings of its sections (outside code blocks)."""
    out: dict[str, set[str]] = {}
    for md in BOOK.glob("*.md"):
        title, heads, fence = None, set(), False
        for line in md.read_text("utf-8").splitlines():
            if line.startswith("```"):  # a code cell's comments are not headings
                fence = not fence
                continue
            m = None if fence else _HEADING.match(line)
            if m and len(m.group(1)) == 1 and title is None:
                title = m.group(2)
            elif m:
                heads.add(m.group(2))
        if title:
            out[title] = heads
    return out


PAGES = _pages()
ROWS = load_ledgers()
REFS = sorted({r for r in ROWS["cause_ref"].fillna("") if r})


def _resolves(name: str) -> bool:
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def test_the_pages_were_read():
    """The reader of headings finds the Reproduce pages and their sections."""
    assert "Reproducing Park & Read (2018)" in PAGES
    assert "Hypotheses for what differs" in PAGES["Reproducing Park & Read (2018)"]
    assert len(REFS) >= 10  # the ledgers do cite their evidence


@pytest.mark.parametrize("ref", REFS)
def test_each_reference_names_an_existing_section(ref):
    sections = section_refs(ref)
    assert sections, f"{ref!r} names no section of the book"
    for page, heading in sections:
        assert page in PAGES, f"{ref!r}: no page titled {page!r}"
        assert heading in PAGES[page], f"{ref!r}: {page!r} has no section {heading!r}"
    for part in ref.split("; "):
        if not SECTION_REF.fullmatch(part):
            assert re.fullmatch(r"[a-z_][\w.]*", part), f"{ref!r}: {part!r} is neither"
            assert _resolves(part), f"{ref!r}: {part!r} is not a name of the packages"


def test_no_row_names_a_file_or_a_machine_path():
    texts = ROWS[["claim", "source", "paper", "ours", "note", "cause_ref"]].fillna("")
    found = [
        (ids, col, m.group(0))
        for ids, (_, row) in zip(ROWS["claim_ids"], texts.iterrows())
        for col, text in row.items()
        if (m := WORKSHOP.search(str(text)))
    ]
    assert found == []


def test_the_pattern_finds_what_the_ledgers_held():
    """The workshop pattern catches the paths the ledgers held before (not vacuous)."""
    held = [
        "data/results/blended_penalty.csv",
        "book/blended.md, section 'Open hypotheses'",
        "tests/mlcbook/test_limo.py::test_limo_equals_line_by_line_algorithm",
        "our mirror (/work/shared/datasets, SOURCES.md)",
        "notes/boomer-genbase.md",
    ]
    assert all(WORKSHOP.search(t) for t in held)
    assert not WORKSHOP.search(section("Reproducing Park & Read (2018)", "Errata"))
    assert not WORKSHOP.search("mlcbook.learners.clus; 0.5 of 1.0 (Sec. 4.2)")
