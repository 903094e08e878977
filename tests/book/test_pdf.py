"""The PDF of the book (``make pdf``): a title page with the book's facts, contents with
page numbers, the reading pages of the table of contents in order, and no API reference;
a ledger's counts where it stands and every row of every ledger in the last appendix;
no link to the local server it was printed from, every link inside the PDF leading to a
place in it; collapsed sections printed without their toggles; no page a hole; figures at
the text's width with readable type; no table cut or wrapped to letters.

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
from collections import Counter
from importlib.metadata import version
from pathlib import Path
from urllib.parse import urlsplit

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
    # the ledgers' appendix and the title page
    sources += [*(ROOT / "book" / "_ledgers").glob("*.csv"), ROOT / "CITATION.cff"]
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
LEDGERS_APPENDIX = "The reproduction ledgers"


def _appendix_start(pages: list[str], title: str, after: int) -> int:
    """The PDF page (1-based) after page ``after`` on which the appendix ``title`` begins."""
    where = [k + 1 for k in range(after, len(pages))
             if _norm(" ".join(pages[k].split()[:6])).startswith(_norm(title))]
    assert where, f"no page after page {after} begins with {title!r}"
    return where[0]


def _solutions_start(pages: list[str]) -> int:
    """The PDF page (1-based) on which the appendix of solutions begins, after the book."""
    return _appendix_start(pages, SOLUTIONS, list(_starts(pages).values())[-1])


def _ledgers_start(pages: list[str]) -> int:
    """The PDF page (1-based) on which the ledgers' appendix begins, after the solutions."""
    return _appendix_start(pages, LEDGERS_APPENDIX, _solutions_start(pages))


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
    want = [*starts.values(), _solutions_start(pages), _ledgers_start(pages)]
    assert numbers == want, f"contents give pages {numbers}, the PDF's pages start at {want}"


def test_solutions_only_in_their_appendix(pages):
    # a chapter prints its exercises; their solutions come after the book, in order
    start, end = _solutions_start(pages), _ledgers_start(pages)

    def lines(pp):  # without the icon fonts' private-use characters of the admonitions
        return ["".join(c for c in ln if unicodedata.category(c) != "Co").strip()
                for p in pp for ln in p.splitlines()]

    text = lines(pages[:end - 1])
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


def _committed_ledgers() -> dict[str, list[dict]]:
    """The rows of each committed ledger, read from its CSV."""
    out = {}
    for name in LEDGERS:
        with open(ROOT / "book" / "_ledgers" / f"{name}.csv", encoding="utf-8") as f:
            out[name] = list(csv.DictReader(f))
    return out


def test_each_reproduce_page_prints_its_ledgers_counts_and_leads_to_its_rows(pages):
    """A ledger prints as one line where it stands: its counts (from its caption) and its
    row count, the saved CSV's, and the section of the appendix that prints its rows."""
    text = " ".join(" ".join(pages).split())
    assert text.count("rows in all, printed whole in the appendix") == len(LEDGERS)
    for name, rows in _committed_ledgers().items():
        doc = ledger_page(name).page_doc
        assert re.search(rf"\): {len(rows)} rows in all, printed whole", _pages_of(pages, doc)), (
            name, doc)
    # no row of the site's ledger tables: their header row never prints
    assert "# claim source paper ours status note" not in text


def _norm_words(s: str) -> str:
    """Letters and digits of ``s`` only: pdftotext breaks the lines of a cell, joins a
    hyphenated word and puts the cells of a row in its own order within a line."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", s).lower() if ch.isalnum())


def test_every_ledger_row_is_in_the_appendix_with_its_whole_note(pages):
    """The last appendix prints every row of every committed ledger: each claim id of each
    row, each ledger's row count, and each note whole (a note without mathematics, whose
    typeset form pdftotext does not give back as written)."""
    start = _ledgers_start(pages)
    # without each page's number, its last line, which would split a note across two pages
    appendix = "\n".join(re.sub(r"\n\s*\d+\s*$", "\n", p) for p in pages[start - 1:])
    words = set(re.findall(r"[A-Z]{2}\d{3}", appendix))
    flat = _norm_words(appendix)
    for name, rows in _committed_ledgers().items():
        ids = {i for r in rows for i in r["claim_ids"].split()}
        missing = sorted(ids - words)
        assert not missing, f"claim ids of the ledger {name} not in the appendix: {missing[:10]}"
        assert f"{len(rows)} rows:" in appendix, f"the ledger {name}'s row count is not printed"
        notes = {r["note"] for r in rows if r["note"].strip() and "$" not in r["note"]}
        cut = [n[:60] for n in notes if _norm_words(n) not in flat]
        assert not cut, f"notes of the ledger {name} not printed whole: {cut[:3]}"


# ----------------------------------------------------------------- title page
def test_title_page_names_authors_version_date_citation_and_addresses(pages):
    """Page 1 holds the facts of CITATION.cff, the installed version and the addresses of
    the site (``html.baseurl``) and the code (``repository-code``), or says there are none."""
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    cfg = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    first = " ".join(pages[0].split())
    for author in cff["authors"]:
        name = author.get("name") or f"{author['given-names']} {author['family-names']}"
        assert name in first, f"the title page does not name the author {name!r}"
    assert f"Version {version('mlcbook')}" in first
    assert str(cff["date-released"]) in first
    assert "How to cite" in first and str(cff["title"]) in first
    site = str((cfg.get("html") or {}).get("baseurl") or "").strip()
    code = str(cff.get("repository-code") or "").strip()
    for address in (site, code):
        if address:
            assert address.rstrip("/") in first, f"the title page lacks {address}"
    if not site and not code:
        assert "no public address" in first, "the title page does not say where the site is"


# ---------------------------------------------------------------------- links
#: the addresses the PDF is printed from: no link may lead there
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}


def _pdf_unescape_name(name: bytes) -> str:
    return re.sub(rb"#([0-9A-Fa-f]{2})", lambda m: bytes([int(m.group(1), 16)]),
                  name).decode("utf-8", "replace")


def _pdf_unescape_string(s: bytes) -> str:
    s = re.sub(rb"\\([()\\])", rb"\1", s)
    return s.decode("latin-1")


def _links() -> tuple[list[tuple[str, str]], set[str]]:
    """The PDF's link annotations, each ``("uri", address)`` or ``("dest", name)``, and the
    names of its destinations. Chromium writes every annotation and the destinations'
    dictionary as plain (uncompressed) objects; a PDF written otherwise fails the tests
    below, which need links, rather than pass them unread."""
    data = PDF.read_bytes()
    links = []
    for m in re.finditer(rb"/Subtype /Link\b(.*?)endobj", data, re.S):
        body = m.group(1)
        uri = re.search(rb"/URI \((.*?)(?<!\\)\)", body, re.S)
        dest = re.search(rb"/Dest /([^\s/\[\]<>()]*)", body)
        if uri:
            links.append(("uri", _pdf_unescape_string(uri.group(1))))
        elif dest:
            links.append(("dest", _pdf_unescape_name(dest.group(1))))
        else:
            links.append(("other", body[:80].decode("latin-1")))
    names: set[str] = set()
    ref = re.search(rb"/Dests (\d+) 0 R", data)
    if ref:
        obj = re.search(rb"\n" + ref.group(1) + rb" 0 obj\s*<<(.*?)>>\s*endobj", data, re.S)
        assert obj, "the PDF's /Dests dictionary is not a plain object"
        names = {_pdf_unescape_name(n) for n in
                 re.findall(rb"/([^\s/\[\]<>()]*)\s*\[", obj.group(1))}
    return links, names


def test_no_link_leads_to_the_local_server_and_every_inner_link_lands(pages):
    links, names = _links()
    hosts = Counter(urlsplit(t).hostname or urlsplit(t).scheme for k, t in links if k == "uri")
    inner = [t for k, t in links if k == "dest"]
    # the contents alone link each page of the book
    assert len(inner) >= len(_starts(pages)), f"only {len(inner)} links inside the PDF"
    local = {h: n for h, n in hosts.items() if h in LOCAL_HOSTS}
    assert not local, f"links to the server the PDF was printed from: {local}"
    assert not [t for k, t in links if k == "other"], "link annotations of another kind"
    lost = sorted({t for t in inner if t not in names})
    assert not lost, f"links inside the PDF to no destination: {lost[:10]}"
    # the ledgers' counts lead to their rows in the appendix
    for name in LEDGERS:
        assert f"pdf-ledger-{name}" in inner, f"no link to the appendix's ledger {name}"
    # the DOIs of the references stay links
    assert hosts.get("doi.org", 0) >= 5, f"the references' DOIs are not links: {hosts}"


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
    starts = sorted(set(_starts(pages).values())
                    | {_solutions_start(pages), _ledgers_start(pages)})
    ends = {s - 1 for s in starts} | {len(pages)}  # the last page of each page of the book
    front = set(range(1, starts[0]))  # the title page and the contents
    holes = [(k, round(f, 2)) for k, f in enumerate(fills, 1)
             if f < MIN_FILL and k not in ends and k not in front]
    assert not holes, f"pages under a quarter full (page, share of the text area): {holes}"
    blank = [k for k, f in enumerate(fills, 1) if f == 0.0]
    assert not blank, f"blank pages: {blank}"


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
