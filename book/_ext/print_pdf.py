"""Print the book's chapters to one typeset PDF with Debian's Chromium (``make pdf``).

Usage::

    python book/_ext/print_pdf.py toc _toc.yml OUT_TOC.yml      # the PDF's table of contents
    python book/_ext/print_pdf.py print SINGLEHTML_DIR OUT.pdf   # print the single-page build

The PDF holds the book's reading pages: the introduction, the Learn chapters, the
Reproduce pages, the ledgers' summary and errata, references, glossary and course plan;
the API reference stays on the site (``toc`` drops the part captioned "API reference").
A ledger prints its counts and says that its rows are on the site; collapsed sections
print open (a hidden cell's toggle line left out, a dropdown's summary line in bold before
its content); every figure prints at the text's width (``figures.json`` beside the PDF
records each one's width and type size). ``SINGLEHTML_DIR``
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


# A ledger (hundreds of rows with long notes) is for the screen: the PDF prints its counts,
# from its caption, and says where its rows are; the ledgers page's summaries (five
# columns of counts and reasons) and the errata print whole.
LEDGER_NOTE = ("{caption}: {rows} rows in all. The rows, each with its claim, the paper's "
               "value, ours and its note, are on this page of the book's site.")
_LEDGERS = r"""(note) => {
  let n = 0;
  document.querySelectorAll('table.ledger:not(.ledger-summary)').forEach(t => {
    const cap = t.querySelector('caption');
    const caption = cap ? cap.textContent.trim() : 'Reproduction ledger';
    const p = document.createElement('p');
    p.className = 'pdf-ledger-counts';
    p.textContent = note.replace('{caption}', caption)
                        .replace('{rows}', t.querySelectorAll('tbody tr').length);
    const box = t.closest('details.ledger-chapter');
    const notes = t.nextElementSibling;
    if (notes && notes.matches('ol.ledger-notes')) notes.remove();
    (box || t).replaceWith(p);
    n += 1;
  });
  return n;
}"""

# A figure marked ``:figclass: site-only`` stays on the site: the PDF prints the table
# beside it that holds the same numbers (the B.3 grids of Wu & Zhou's page are taller
# than a page at a readable width).
_SITE_ONLY = r"""() => {
  const gone = document.querySelectorAll('figure.site-only, .site-only');
  gone.forEach(e => e.remove());
  return gone.length;
}"""

# Collapsed sections print open and consistently: a cell whose input or output the site
# hides behind a toggle prints that content without the toggle's line ("Hide code cell
# output"); every other collapsed section (a dropdown of a Reproduce page, a <details>)
# prints its summary line, in bold, and then its content.
_COLLAPSED = r"""() => {
  let n = 0;
  document.querySelectorAll('details').forEach(d => {
    d.open = true;
    const summary = d.querySelector(':scope > summary');
    if (d.classList.contains('hide')) {
      if (summary) summary.remove();
      d.classList.add('pdf-toggle-open');
    } else {
      d.classList.add('pdf-collapsed-open');
      n += 1;
    }
  });
  return n;
}"""

# Figures at 0.8 of the text's width (the book's rule; every figure's 10-pt type then prints
# at 8 pt or more), unless a page cannot hold one so tall: it is then as wide as a page's
# height allows.  Not wider: a figure whose cell does not fit in what is left of a page moves
# whole to the next one, and a taller figure leaves a larger hole behind.  What each one
# became is written beside the PDF for tests/book/test_pdf.py.
_FIGURES = r"""(maxHeight) => {
  const main = document.querySelector('article.bd-article') || document.querySelector('main');
  const text = main.clientWidth;
  const out = [];
  main.querySelectorAll('img').forEach(img => {
    if (!img.naturalWidth || img.naturalWidth < 80) return;
    const aspect = img.naturalHeight / img.naturalWidth;
    // 0.8 of the text's width; never taller than a page holds
    const share = Math.min(0.8, maxHeight / aspect / text);
    img.style.setProperty('width', (100 * share).toFixed(2) + '%', 'important');
    img.style.setProperty('height', 'auto', 'important');
    img.style.setProperty('max-width', '100%', 'important');
    img.style.setProperty('max-height', 'none', 'important');
    const fig = img.closest('figure');
    const number = fig && fig.querySelector('.caption-number');
    out.push({src: img.getAttribute('src'), share: share, natural_px: img.naturalWidth,
              caption: number ? number.textContent.trim() : '',
              alt: img.getAttribute('alt') || ''});
  });
  return {text_px: text, figures: out};
}"""

# A table a little wider than the text prints smaller, to at least MIN_TABLE_ZOOM of its
# size, rather than be cut at the page's edge (what is still too wide is reported).
MIN_TABLE_ZOOM = 0.8
_FIT_TABLES = r"""(least) => {
  const main = document.querySelector('article.bd-article') || document.querySelector('main');
  let n = 0;
  main.querySelectorAll('table').forEach(t => {
    const room = (t.parentElement || main).clientWidth;
    const wide = t.getBoundingClientRect().width;
    if (wide > room + 1 && wide > 0) {
      t.style.zoom = Math.max(least, room / wide).toFixed(3);
      n += 1;
    }
  });
  return n;
}"""
# Tables at the text's width: any that reaches beyond the text (cut at the page's edge),
# and any cell narrower than a word it holds (a word or number wrapped to letters), are
# written beside the PDF (tables.json) for tests/book/test_pdf.py.
TABLES_JS = r"""() => {
  const main = document.querySelector('article.bd-article') || document.querySelector('main');
  const right = main.getBoundingClientRect().right;
  const ctx = document.createElement('canvas').getContext('2d');
  const name = t => {
    const cap = t.querySelector('caption');
    const page = t.closest('section[id]');
    return (page ? page.id + ': ' : '') + (cap ? cap.textContent.trim().slice(0, 60)
      : t.innerText.trim().split('\n')[0].slice(0, 60));
  };
  const cut = [], broken = [];
  main.querySelectorAll('table').forEach(t => {
    if (t.getBoundingClientRect().width === 0) return;
    if (t.getBoundingClientRect().right > right + 1) cut.push(name(t));
    for (const cell of t.querySelectorAll('td, th')) {
      const style = getComputedStyle(cell);
      ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = cell.clientWidth - parseFloat(style.paddingLeft)
                   - parseFloat(style.paddingRight);
      const words = cell.innerText.split(/\s+|(?<=[-\u2010])/);  // a line may break after a hyphen
      const widest = Math.max(0, ...words.map(w => ctx.measureText(w).width));
      if (widest > room + 1) {
        broken.push(name(t) + ' | ' + cell.innerText.trim().slice(0, 40));
        break;
      }
    }
  });
  return {cut, broken};
}"""

#: the height a figure may take on an A4 page, leaving room for its caption (CSS px)
FIGURE_MAX_HEIGHT = 210 / 25.4 * 96
#: the text's width on the page: A4 less two margins of 18 mm (CSS px)
TEXT_WIDTH = (210 - 2 * 18) / 25.4 * 96
#: the book's figures set their type at 10 pt (mlcbook.plots.TEXT_PT)
FIGURE_TYPE_PT = 10.0


def figure_report(site: Path, measured: dict) -> list[dict]:
    """For each figure of the PDF: its share of the text's width and the size its 10-pt
    type prints at (from the image's own resolution: inches = pixels / dots per inch)."""
    from PIL import Image

    out = []
    for f in measured["figures"]:
        path = site / f["src"].split("?")[0]
        dpi = None
        if path.is_file():
            with Image.open(path) as im:
                dpi = (im.info.get("dpi") or (None,))[0]
        inches = f["natural_px"] / (float(dpi) if dpi else 96.0)
        printed = f["share"] * TEXT_WIDTH / 96
        out.append({**f, "dpi": dpi, "figure_in": round(inches, 3),
                    "printed_in": round(printed, 3),
                    "type_pt": round(FIGURE_TYPE_PT * printed / inches, 2)})
    return out


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
        "how": ("Every chapter is a notebook that runs. The book's site offers, on its page "
                "Get the code, the source of this version, the wheels of the library and of "
                "the reproduction, and the two commands that install them and open the "
                "chapters; the API reference, the chapters' notebooks and every ledger row "
                "are on the site too."),
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
            # the ledgers print their counts (their rows stay on the site), collapsed
            # sections print open, the solutions go to the appendix
            page.evaluate(_LEDGERS, LEDGER_NOTE)
            page.evaluate(_COLLAPSED)
            page.evaluate(_SITE_ONLY)
            page.evaluate(_SOLUTIONS, SOLUTIONS_TITLE)
            entries = page.evaluate(_FRONT, meta)
            page.emulate_media(media="print")
            # lay the page out at the PDF's text width to size the figures
            page.set_viewport_size({"width": round(TEXT_WIDTH), "height": 1400})
            measured = page.evaluate(_FIGURES, FIGURE_MAX_HEIGHT)
            page.evaluate(_FIT_TABLES, MIN_TABLE_ZOOM)
            report = figure_report(site, measured)
            out.with_name("figures.json").write_text(json.dumps(report, indent=1))
            tables = page.evaluate(TABLES_JS)
            out.with_name("tables.json").write_text(json.dumps(tables, indent=1))
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
