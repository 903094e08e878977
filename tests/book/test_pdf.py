"""The PDF of the book (``make pdf``): a title page, contents with page numbers, the reading
pages of the table of contents in order, and no API reference.

This test builds nothing: it checks ``_build/pdf/mlcbook.pdf`` and FAILS when the file is
missing (run ``make pdf`` first). It needs ``pdftotext`` and ``pdfinfo`` from Debian's
poppler-utils, which ``make pdf`` installs.
"""

from __future__ import annotations

import csv
import re
import shutil
import unicodedata
import subprocess

import pytest
import yaml

from mlcrepro._paths import project_root

from .toc import toc_files

ROOT = project_root()
PDF = ROOT / "_build" / "pdf" / "mlcbook.pdf"
CHAPTERS = ("measures", "losses", "datasets", "dependence", "knn", "blended", "limo")


def _pdf_docs() -> list[str]:
    """The pages the PDF holds: _toc.yml without its part "API reference" (print_pdf.py)."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    dropped = set()
    for part in toc.get("parts", []):
        if part.get("caption") == "API reference":
            stack = list(part.get("chapters", []))
            while stack:
                e = stack.pop()
                dropped.add(e["file"])
                stack.extend(e.get("sections", []))
    return [d for d in toc_files() if d not in dropped]


def _title(doc: str) -> str:
    """The first level-1 heading of a page's source, as plain text."""
    text = (ROOT / f"{doc}.md").read_text(encoding="utf-8")
    m = re.search(r"^# (.+)$", text, re.M)
    assert m, f"{doc}.md has no level-1 heading"
    return m.group(1).replace("`", "").strip()


def _norm(s: str) -> str:  # letters and digits: pdftotext joins a hyphenated line break
    return "".join(ch for ch in s.lower() if ch.isalnum())


@pytest.fixture(scope="module")
def pages() -> list[str]:
    assert PDF.exists(), f"{PDF.relative_to(ROOT)} is missing: run `make pdf` first"
    assert shutil.which("pdftotext"), "pdftotext is missing: apt-get install poppler-utils"
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(PDF), "-"], check=True,
                          capture_output=True, text=True).stdout
    return text.split("\f")[:-1]  # pdftotext ends every page with a form feed


def test_pdf_is_newer_than_every_page_source():
    assert PDF.exists(), f"{PDF.relative_to(ROOT)} is missing: run `make pdf` first"
    sources = [ROOT / f"{doc}{ext}" for doc in _pdf_docs() for ext in (".ipynb", ".md")]
    stale = [s.name for s in sources if s.exists() and s.stat().st_mtime > PDF.stat().st_mtime]
    assert not stale, f"the PDF is older than {stale[:5]}: run `make pdf` again"


def _starts(pages: list[str]) -> dict[str, int]:
    """For each page of the PDF's toc, in order, the first PDF page (1-based, after the
    contents) that begins with its title ("3. The benchmark datasets" for a chapter); the
    root page is printed as "Introduction"."""
    tops = [_norm(" ".join([ln.strip() for ln in p.splitlines() if ln.strip()][:4]))
            for p in pages]
    starts, after = {}, 2
    for doc in _pdf_docs():
        title = "Introduction" if doc == _pdf_docs()[0] else _title(doc)
        where = [k for k in range(after, len(tops))
                 if re.sub(r"^\d+", "", tops[k]).startswith(_norm(title))]
        assert where, f"{title!r} ({doc}) begins no page of the PDF after page {after + 1}"
        starts[doc] = where[0] + 1
        after = where[0] + 1
    return starts


SOLUTIONS = "Solutions to the exercises"


def _solutions_start(pages: list[str]) -> int:
    """The PDF page (1-based) on which the appendix of solutions begins, after the book."""
    last = list(_starts(pages).values())[-1]
    where = [k + 1 for k in range(last, len(pages))
             if _norm(" ".join(pages[k].split()[:6])).startswith(_norm(SOLUTIONS))]
    assert where, f"no page after page {last} begins with {SOLUTIONS!r}"
    return where[0]


def test_title_page_and_contents_with_the_true_page_numbers(pages):
    first = _norm(pages[0])
    assert _norm(_title(_pdf_docs()[0])) in first and "version" in first, "no title page"
    contents = pages[1]
    assert contents.lstrip().startswith("Contents"), "page 2 is not the contents"
    starts = _starts(pages)
    # each entry of the contents is followed by the page on which that page of the book starts
    lines = [ln.strip() for ln in contents.splitlines() if ln.strip()][1:]
    if lines and lines[-1] == "2":
        lines = lines[:-1]  # the page's own number, in its footer
    numbers = [int(ln) for ln in lines if ln.isdigit()]
    want = [*starts.values(), _solutions_start(pages)]
    assert numbers == want, f"contents give pages {numbers}, the PDF's pages start at {want}"


def test_solutions_only_in_their_appendix(pages):
    # a chapter prints its exercises; their solutions come after the book, in order
    start = _solutions_start(pages)

    def lines(pp):  # without the icon fonts' private-use characters of the admonitions
        return ["".join(c for c in ln if unicodedata.category(c) != "Co").strip()
                for p in pp for ln in p.splitlines()]

    text = lines(pages)
    before = [ln for ln in lines(pages[:start - 1]) if ln.startswith("Solution to Exercise")]
    assert not before, f"solutions printed inside the chapters: {before[:3]}"
    titles = [ln for ln in text if ln.startswith("Solution to Exercise")]
    exercises = [ln for ln in text if re.fullmatch(r"Exercise \d+\.\d+", ln)]
    assert len(titles) >= 30, f"only {len(titles)} solutions in the appendix"
    numbers = [tuple(map(int, t.split()[-1].split("."))) for t in titles]
    assert numbers == sorted(numbers), "the appendix is not in the order of the exercises"
    assert len(exercises) >= len(titles), "more solutions than exercises"


def test_chapters_in_reading_order_each_with_its_ledger(pages):
    starts = _starts(pages)
    bounds = list(starts.values()) + [len(pages) + 1]
    for k, doc in enumerate(starts):
        body = "\n".join(pages[bounds[k] - 1:bounds[k + 1] - 1])
        if doc in {f"book/{c}" for c in CHAPTERS}:
            assert "Reproduction ledger" in body, f"{doc}: no ledger in its PDF pages"


def test_no_api_reference_and_ledgers_printed_once(pages):
    text = "\n".join(pages)
    assert "API reference" not in [ln.strip() for ln in text.splitlines()], "API pages printed"
    # the all-ledgers page prints its summaries with the chapters' ledgers closed: a claim
    # row ("✔ reproduced") appears once, in its chapter
    starts = _starts(pages)
    docs = list(starts)
    k = docs.index("book/ledgers")
    end = starts[docs[k + 1]] if k + 1 < len(docs) else len(pages) + 1
    ledgers_page = "\n".join(pages[starts["book/ledgers"] - 1:end - 1])
    assert ledgers_page.count("✔ reproduced") < 20, "the all-ledgers page repeats the rows"


def test_chapters_print_their_verdicts_and_leave_the_full_ledger_to_the_site(pages):
    """Each chapter's full ledger (hundreds of rows with long notes, unreadable at a page's
    width) is replaced by one line saying where it is; its row count is the saved CSV's."""
    starts = _starts(pages)
    bounds = list(starts.values()) + [len(pages) + 1]
    for k, doc in enumerate(starts):
        if doc not in {f"book/{c}" for c in CHAPTERS}:
            continue
        body = " ".join(" ".join(pages[bounds[k] - 1:bounds[k + 1] - 1]).split())
        chapter = doc.removeprefix("book/")
        with open(project_root() / "book" / "_ledgers" / f"{chapter}.csv", encoding="utf-8") as f:
            rows = sum(1 for _ in csv.reader(f)) - 1
        assert f"The full ledger, row by row with each row's note ({rows} rows)" in body, doc
