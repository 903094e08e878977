"""The PDF of the whole book (``make pdf``) exists and holds every page of the table of contents.

This test builds nothing: it checks ``_build/pdf/mlcbook.pdf`` and FAILS when the file is
missing (run ``make pdf`` first). It needs ``pdftotext`` from Debian's poppler-utils, which
``make pdf`` installs.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from mlcrepro._paths import project_root

from .toc import toc_files

ROOT = project_root()
PDF = ROOT / "_build" / "pdf" / "mlcbook.pdf"


def _title(doc: str) -> str:
    """The first level-1 heading of a page's source, as plain text."""
    text = (ROOT / f"{doc}.md").read_text(encoding="utf-8")
    m = re.search(r"^# (.+)$", text, re.M)
    assert m, f"{doc}.md has no level-1 heading"
    return m.group(1).replace("`", "").strip()


@pytest.fixture(scope="module")
def pages() -> list[str]:
    assert PDF.exists(), f"{PDF.relative_to(ROOT)} is missing: run `make pdf` first"
    assert shutil.which("pdftotext"), "pdftotext is missing: apt-get install poppler-utils"
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(PDF), "-"], check=True,
                          capture_output=True, text=True).stdout
    return text.split("\f")[:-1]  # pdftotext ends every page with a form feed


def test_pdf_is_newer_than_every_page_source():
    assert PDF.exists(), f"{PDF.relative_to(ROOT)} is missing: run `make pdf` first"
    sources = [ROOT / f"{doc}{ext}" for doc in toc_files() for ext in (".ipynb", ".md")]
    stale = [s.name for s in sources if s.exists() and s.stat().st_mtime > PDF.stat().st_mtime]
    assert not stale, f"the PDF is older than {stale[:5]}: run `make pdf` again"


def _starts(pages: list[str]) -> dict[str, int]:
    """For each page of the toc, in order, the first PDF page (after the previous page's)
    that begins with its title."""
    tops = [" ".join([ln.strip() for ln in p.splitlines() if ln.strip()][:4]) for p in pages]
    starts, after = {}, 0
    for doc in toc_files():
        title = _title(doc)
        where = [k for k in range(after, len(tops)) if tops[k].startswith(title)]
        assert where, f"{title!r} ({doc}) begins no page of the PDF after page {after + 1}"
        starts[doc] = after = where[0]
    return starts


def test_every_page_of_the_toc_starts_a_pdf_page_in_reading_order(pages):
    # each page of the book begins on a new PDF page (print CSS), in the order of _toc.yml
    starts = _starts(pages)
    assert len(starts) == len(toc_files()) and len(pages) > len(starts)


CHAPTERS = ("measures", "losses", "datasets", "dependence", "knn", "blended", "limo")


def test_every_chapter_has_its_ledger_and_the_ledgers_page_its_rows(pages):
    starts = _starts(pages)
    bounds = list(starts.values()) + [len(pages)]
    for k, doc in enumerate(starts):
        body = "\n".join(pages[bounds[k]:bounds[k + 1]])
        if doc in {f"book/{c}" for c in CHAPTERS}:
            assert "Reproduction ledger" in body, f"{doc}: no ledger in its PDF pages"
        if doc == "book/ledgers":
            # printed with its toggles open: the rows of every chapter's ledger are there
            assert body.count("reproduced") >= 100, "the ledgers' rows are missing from the PDF"
