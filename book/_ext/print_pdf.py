"""Print the book's chapters to one typeset PDF with Debian's Chromium (``make pdf``).

Usage::

    python book/_ext/print_pdf.py toc _toc.yml OUT_TOC.yml      # the PDF's table of contents
    python book/_ext/print_pdf.py print SINGLEHTML_DIR OUT.pdf   # print the single-page build

The PDF holds the book's reading pages: the introduction, the chapters, the summary,
references, glossary and course plan; the API reference stays on the site (``toc`` drops
the part captioned "API reference"); each chapter prints its verdict table, its full
ledger stays on the site (a line says where), and the all-ledgers page prints its summary
tables with the chapters' ledgers closed. ``SINGLEHTML_DIR``
is ``jupyter-book build . --builder singlehtml --toc OUT_TOC.yml``: every page on one HTML
page. It is served on 127.0.0.1, opened in headless Chromium through Playwright (the
Debian package's browser, no download), MathJax is awaited, the exercises' solutions
(hidden until clicked on the site) are moved out of the chapters into an appendix,
"Solutions to the exercises", a title page and a table of contents are put in front, and
the page is printed
with the print style sheet of ``_static/mlcbook.css``, in two passes: the first finds the
page on which each chapter starts (``pdftotext``), the second prints those numbers in the
contents. The PDF has bookmarks (Chromium's outline of the headings) and page numbers.
"""

from __future__ import annotations

import functools
import http.server
import json
import shutil
import subprocess
import sys
import threading
from importlib.metadata import version
from pathlib import Path

import yaml

PDF_DROPS_PARTS = ("API reference",)

FOOTER = (
    "<div style='font-size:8px; width:100%; text-align:center; color:#555;'>"
    "<span class='pageNumber'></span></div>"
)

# the title page and the contents, put in front of the first page; the contents list each
# page of the book (a <span id="document-NAME"> followed by its <section>) with its title
_FRONT = r"""(meta) => {
  const main = document.querySelector('article.bd-article') || document.querySelector('main');
  const clean = h => h ? h.textContent.replace(/[#¶]\s*$/, '').trim() : '';
  // the root page's title becomes the book's title, and the introduction gets a heading of
  // the same rank as the chapters' (singlehtml renders them as h2); the theme's print header
  // (a contents list without page numbers, #jb-print-docs-body) is hidden by the print CSS
  const rootH1 = main.querySelector('h1');
  const bookTitle = clean(rootH1) || meta.title;
  const intro = document.createElement('h2');
  intro.textContent = 'Introduction';
  intro.id = 'pdf-introduction';
  if (rootH1) { rootH1.replaceWith(intro); } else { main.insertBefore(intro, main.firstChild); }
  const entries = [{id: 'pdf-introduction', title: 'Introduction'}];
  for (const span of document.querySelectorAll('span[id^="document-"]')) {
    let sec = span.nextElementSibling;
    while (sec && sec.tagName !== 'SECTION') sec = sec.nextElementSibling;
    const h = sec && sec.querySelector('h1, h2');
    entries.push({id: span.id, title: clean(h) || span.id});
  }
  const front = document.createElement('div');
  front.className = 'pdf-front';
  front.innerHTML = `
    <section class="pdf-title">
      <p class="pdf-book-title">${bookTitle}</p>
      <p class="pdf-subtitle">${meta.title} · version ${meta.version} · ${meta.year}</p>
      <p class="pdf-how">${meta.how}</p>
    </section>
    <section class="pdf-toc">
      <p class="pdf-toc-title">Contents</p>
      <ol>${entries.map(e => `<li><a href="#${e.id}"><span class="t">${e.title}</span>` +
                             `<span class="p" data-doc="${e.id}"></span></a></li>`).join('')}</ol>
    </section>`;
  intro.parentNode.insertBefore(front, intro);
  return entries;
}"""


# the exercises' solutions leave the chapters (a reader of the PDF tries an exercise before
# turning to its solution) for an appendix at the end: a page of the book of its own, so
# that the contents list it with its page number
SOLUTIONS_TITLE = "Solutions to the exercises"
_SOLUTIONS = r"""(title) => {
  const main = document.querySelector('article.bd-article') || document.querySelector('main');
  const sols = [...main.querySelectorAll('div.solution')];
  if (!sols.length) return 0;
  const span = document.createElement('span');
  span.id = 'document-pdf-solutions';
  const sec = document.createElement('section');
  sec.id = 'pdf-solutions';
  const h = document.createElement('h2');
  h.textContent = title;
  const p = document.createElement('p');
  p.textContent = 'The solutions of every chapter’s exercises, in the order of the ' +
    'chapters. On the site and in the chapters’ notebooks each solution follows its ' +
    'exercise, hidden until clicked.';
  sec.append(h, p);
  for (const s of sols) {
    s.classList.remove('toggle-hidden', 'toggle', 'dropdown');
    s.querySelectorAll('button.toggle-button').forEach(b => b.remove());
    sec.appendChild(s);
  }
  main.append(span, sec);
  return sols.length;
}"""


# A chapter's full ledger (hundreds of rows with long notes) is for the screen: the PDF
# keeps the chapter's verdict table and says where the rows are.
FULL_LEDGER_NOTE = ("The full ledger, row by row with each row's note ({rows} rows), is on "
                    "the book's site at the end of this chapter, and in its notebook.")
_FULL_LEDGERS = r"""() => {
  let n = 0;
  document.querySelectorAll('details').forEach(d => {
    const table = d.querySelector('table.ledger');
    if (!table) return;
    // the all-ledgers page's toggles (one per chapter, titled by the chapter) stay closed
    const summary = d.querySelector('summary');
    if (d.classList.contains('ledger-chapter') &&
        !(summary && summary.textContent.startsWith('The full reproduction ledger'))) return;
    const p = document.createElement('p');
    p.className = 'pdf-full-ledger';
    p.textContent = %s.replace('{rows}', table.querySelectorAll('tbody tr').length);
    d.replaceWith(p);
    n += 1;
  });
  return n;
}""" % json.dumps(FULL_LEDGER_NOTE)


def pdf_toc(toc_in: Path, toc_out: Path) -> None:
    """``_toc.yml`` without the parts the PDF leaves to the site."""
    toc = yaml.safe_load(Path(toc_in).read_text(encoding="utf-8"))
    toc["parts"] = [p for p in toc.get("parts", []) if p.get("caption") not in PDF_DROPS_PARTS]
    Path(toc_out).parent.mkdir(parents=True, exist_ok=True)
    Path(toc_out).write_text(yaml.safe_dump(toc, allow_unicode=True, sort_keys=False),
                             encoding="utf-8")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def _chromium() -> str:
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    raise SystemExit("Debian's chromium is needed: make chromium")


def _page_texts(pdf: Path) -> list[str]:
    out = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], check=True,
                         capture_output=True, text=True).stdout
    return out.split("\f")[:-1]


def _first_pages(pages: list[str], entries: list[dict], after: int) -> dict[str, int]:
    """For each entry in order, the first page (1-based) after ``after`` that begins with its
    title (a page of the book starts a new sheet)."""
    def norm(s: str) -> str:  # letters and digits only: pdftotext joins hyphenated words
        return "".join(ch for ch in s.lower() if ch.isalnum())

    tops = [norm(" ".join([ln for ln in p.splitlines() if ln.strip()][:4])) for p in pages]
    found, k = {}, after
    for e in entries:
        title = norm(e["title"])
        for j in range(k, len(tops)):
            if title and tops[j].startswith(title):
                found[e["id"]] = j + 1
                k = j + 1
                break
    return found


def _print(page, path: Path) -> None:
    page.pdf(path=str(path), format="A4", print_background=True, outline=True, tagged=True,
             margin={"top": "18mm", "bottom": "18mm", "left": "18mm", "right": "18mm"},
             display_header_footer=True, header_template="<div></div>",
             footer_template=FOOTER)


def print_book(site: Path, out: Path, title: str) -> int:
    from playwright.sync_api import sync_playwright

    page_file = site / "book" / "intro.html"
    if not page_file.exists():
        raise SystemExit(f"{page_file} is missing: build the singlehtml book first")
    # singlehtml writes the root document to book/intro.html with links relative to the
    # build's root (_static/, _images/): serve a copy at the root so they resolve
    (site / "print.html").write_bytes(page_file.read_bytes())
    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/print.html"
    meta = {
        "title": title.split(" — ")[0].split(" · ")[0],
        "subtitle": (title.split(" — ", 1)[1] if " — " in title else "").split(" · ")[0],
        "version": version("mlcbook"),
        "year": "2026",
        "how": ("Every chapter is a notebook that runs: in a checkout of the book's repository, "
                "<code>pip install ./ ./repro</code> installs the library and the reproduction "
                "(or <code>make dist</code> builds their wheels into <code>dist/</code>). "
                "The API reference and the chapters' notebooks are on the book's site "
                "(<code>make book</code>)."),
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".pass1.pdf")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=_chromium(), headless=True,
                                        args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1100, "height": 1400})
            page.goto(url, wait_until="load", timeout=120_000)
            page.wait_for_function(
                "window.MathJax && MathJax.startup && MathJax.startup.promise", timeout=60_000)
            page.evaluate("MathJax.startup.promise")
            # the chapters' full ledgers stay on the site (a line says so), other
            # collapsed outputs open; the all-ledgers page keeps each chapter's ledger
            # closed; the solutions go to the appendix
            page.evaluate(_FULL_LEDGERS)
            page.evaluate("document.querySelectorAll('details:not(.ledger-chapter)')"
                          ".forEach(d => d.open = true)")
            page.evaluate(_SOLUTIONS, SOLUTIONS_TITLE)
            entries = page.evaluate(_FRONT, meta)
            page.emulate_media(media="print")
            _print(page, tmp)  # pass 1: where does each page of the book start?
            pages = _page_texts(tmp)
            toc_end = next((k for k, t in enumerate(pages) if t.lstrip().startswith("Contents")),
                           1) + 1
            starts = _first_pages(pages, entries, toc_end)
            missing = [e["title"] for e in entries if e["id"] not in starts]
            if missing:
                tmp.replace(out.with_suffix(".failed.pdf"))
                raise SystemExit(f"no PDF page starts with {missing} (first pass kept in "
                                 f"{out.with_suffix('.failed.pdf')}): check the print CSS")
            page.evaluate(
                "(s) => document.querySelectorAll('.pdf-toc .p').forEach("
                "el => el.textContent = s[el.dataset.doc])", starts)
            _print(page, out)  # pass 2: the same layout, with the page numbers filled in
            browser.close()
        if len(_page_texts(out)) != len(pages):
            raise SystemExit("the second pass has another page count than the first")
        return len(pages)
    finally:
        tmp.unlink(missing_ok=True)
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("toc", "print"):
        raise SystemExit(__doc__)
    if sys.argv[1] == "toc":
        pdf_toc(Path(sys.argv[2]), Path(sys.argv[3]))
    else:
        cfg = yaml.safe_load(Path("_config.yml").read_text(encoding="utf-8"))
        n = print_book(Path(sys.argv[2]), Path(sys.argv[3]), cfg.get("title", "mlcbook"))
        print(f"wrote {sys.argv[3]} ({n} pages)")
