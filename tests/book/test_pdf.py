"""The PDF of the book (``make pdf``): a title page, contents with page numbers, the reading
pages of the table of contents in order, and no API reference; a ledger's counts where its
rows are on the site; collapsed sections printed without their toggles; no page a hole;
figures at the text's width with readable type; no table cut or wrapped to letters.

This test builds nothing: it checks ``_build/pdf/mlcbook.pdf`` (and the reports
``figures.json`` and ``tables.json`` that ``book/_ext/print_pdf.py`` writes beside it, from
the print layout) and FAILS when they are missing (run ``make pdf`` first). It needs
``pdftotext`` and ``pdftoppm`` from Debian's poppler-utils, which ``make pdf`` installs.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
import tempfile
import unicodedata
from pathlib import Path

import pytest
import yaml

from mlcrepro._paths import project_root
from mlcrepro.papers import LEDGERS, ledger_page

from .toc import toc_files

ROOT = project_root()
PDF = ROOT / "_build" / "pdf" / "mlcbook.pdf"


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


def _pages_of(pages: list[str], doc: str) -> str:
    """The text of the PDF pages that print ``doc``, as one line of words."""
    starts = _starts(pages)
    docs = list(starts)
    k = docs.index(doc)
    end = starts[docs[k + 1]] - 1 if k + 1 < len(docs) else _solutions_start(pages) - 1
    return " ".join(" ".join(pages[starts[doc] - 1:end]).split())


def test_each_reproduce_page_prints_its_ledgers_counts_not_their_rows(pages):
    """A ledger prints as one line: its counts (from its caption) and its row count, the
    saved CSV's; its rows stay on the site, on the paper's Reproduce page."""
    text = " ".join(" ".join(pages).split())
    assert text.count("rows in all. The rows, each with its claim") == len(LEDGERS)
    for name in LEDGERS:
        doc = ledger_page(name).page_doc
        with open(ROOT / "book" / "_ledgers" / f"{name}.csv", encoding="utf-8") as f:
            rows = sum(1 for _ in csv.DictReader(f))
        assert re.search(rf"\): {rows} rows in all", _pages_of(pages, doc)), (name, doc)
    # no ledger row anywhere: a row's verdict badge beside its note column never prints
    assert "# claim source paper ours status note" not in text


def test_no_api_reference(pages):
    text = "\n".join(pages)
    assert "API reference" not in [ln.strip() for ln in text.splitlines()], "API pages printed"


def test_collapsed_sections_print_without_their_toggles(pages):
    text = " ".join(" ".join(pages).split())
    for toggle in ("Hide code cell output", "Show code cell output", "Hide code cell source",
                   "Show code cell source", "Click to show"):
        assert toggle not in text, f"the PDF prints the toggle line {toggle!r}"


# --------------------------------------------------------------------- page fill
#: a page printed less than this share of its text area is a hole, unless it ends a page
#: of the book (a chapter, a part) or is the title page or the contents
MIN_FILL = 0.25


def _fills() -> list[float]:
    """For each page, the share of its text area (A4 less 18-mm margins; the page number
    sits in the bottom margin) down to its lowest printed mark."""
    import numpy as np
    from PIL import Image

    assert shutil.which("pdftoppm"), "pdftoppm is missing: apt-get install poppler-utils"
    fills = []
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["pdftoppm", "-gray", "-r", "24", str(PDF), f"{tmp}/p"], check=True)
        for path in sorted(Path(tmp).glob("p-*.pgm"), key=lambda p: int(p.stem.split("-")[1])):
            a = np.asarray(Image.open(path))
            margin = round(a.shape[0] * 18 / 297)
            body = a[margin:a.shape[0] - margin]
            inked = np.flatnonzero((body < 200).any(axis=1))
            fills.append((inked.max() + 1) / body.shape[0] if inked.size else 0.0)
    return fills


def test_no_page_is_a_hole(pages):
    fills = _fills()
    assert len(fills) == len(pages)
    starts = sorted(set(_starts(pages).values()) | {_solutions_start(pages)})
    ends = {s - 1 for s in starts} | {len(pages)}  # the last page of each page of the book
    front = set(range(1, starts[0]))  # the title page and the contents
    holes = [(k, round(f, 2)) for k, f in enumerate(fills, 1)
             if f < MIN_FILL and k not in ends and k not in front]
    assert not holes, f"pages under a quarter full (page, share of the text area): {holes}"


# ------------------------------------------------------------- figures and tables
def _report(name: str):
    path = PDF.with_name(name)
    assert path.exists(), f"{path.relative_to(ROOT)} is missing: run `make pdf` again"
    return json.loads(path.read_text())


#: figures print at least this share of the text's width, and their 10-pt type at least
#: this size (points)
MIN_FIGURE_SHARE, MIN_TYPE_PT = 0.8, 8.0


def test_figures_print_wide_with_readable_type():
    figures = _report("figures.json")
    assert len(figures) >= 20, "the report lists too few figures"
    narrow = [(f["caption"] or f["alt"][:40], round(f["share"], 2)) for f in figures
              if f["share"] < MIN_FIGURE_SHARE]
    small = [(f["caption"] or f["alt"][:40], f["type_pt"]) for f in figures
             if f["type_pt"] < MIN_TYPE_PT]
    assert not narrow, f"figures under {MIN_FIGURE_SHARE} of the text width: {narrow}"
    assert not small, f"figures whose 10-pt type prints under {MIN_TYPE_PT} pt: {small}"


def test_no_table_is_cut_or_wrapped_to_letters():
    tables = _report("tables.json")
    assert not tables["cut"], f"tables beyond the text's edge: {tables['cut']}"
    assert not tables["broken"], f"cells narrower than a word they hold: {tables['broken']}"


def test_the_front_pages_figure_prints_whole_and_wide(pages):
    # the intro's figure, on one page (images never split) and at the text's width
    intro = [f for f in _report("figures.json") if f["alt"].startswith("Two bar charts")]
    assert len(intro) == 1 and intro[0]["share"] >= MIN_FIGURE_SHARE
