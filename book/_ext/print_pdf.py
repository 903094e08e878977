"""Print the book's chapters to one typeset PDF with Debian's Chromium (``make pdf``).

Usage::

    python book/_ext/print_pdf.py toc _toc.yml OUT_TOC.yml      # the PDF's table of contents
    python book/_ext/print_pdf.py print SINGLEHTML_DIR OUT.pdf   # print the single-page build

The PDF holds the book's reading pages: the introduction, the Learn chapters, the
Reproduce pages, the ledgers' summary and errata, references, glossary and course plan;
the API reference stays on the site (``toc`` drops the part captioned "API reference").
It stands alone:

* a title page gives the authors, version and date, how to cite the book and where its
  site and code are, each fact from its one home (:func:`book_facts`);
* every link leads somewhere a reader can go (:func:`link_action`): a cross-reference is a
  link inside the PDF, a page of the site the PDF does not hold links to the site's
  published address (``html.baseurl`` of ``_config.yml``) or, with none configured,
  prints as plain words; DOIs and other addresses stay; nothing leads to the local server
  the book is printed from;
* a ledger prints its counts where it stands, with a link to its section of the last
  appendix, "The reproduction ledgers", which prints every row of every committed ledger
  (read with :func:`mlcrepro.ledger.load_ledgers`) in a compact layout of its own, each
  note whole and once (:func:`ledger_appendix_html`).

Collapsed sections print open (a hidden cell's toggle line left out, a dropdown's summary
line in bold before its content); every figure prints at the text's width
(``figures.json`` beside the PDF records each one's width and type size; ``tables.json``
any table cut or wrapped to letters, ``links.json`` what became of the links).
``SINGLEHTML_DIR`` is ``jupyter-book build . --builder singlehtml --toc OUT_TOC.yml``: every
page on one HTML page. It is served on 127.0.0.1, opened in headless Chromium through
Playwright (the Debian package's browser, no download), MathJax is awaited, the exercises'
solutions (hidden until clicked on the site) are moved out of the chapters into an
appendix, "Solutions to the exercises", the ledgers' appendix follows it, a title page and
a table of contents are put in front, and the page is printed with the print style sheets
of ``_static/mlcbook.css`` and ``_static/pdf.css``, in two passes: the first finds the page
on which each chapter starts (``pdftotext``), the second prints those numbers in the
contents. The PDF has bookmarks (Chromium's outline of the headings) and page numbers.
"""

from __future__ import annotations

import functools
import html
import http.server
import json
import re
import shutil
import subprocess
import sys
import threading
from collections import Counter
from importlib.metadata import version
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import yaml

from mlcrepro.display import BADGES
from mlcrepro.math_text import math_html
from mlcrepro.ledger import STATUSES, load_ledgers, row_anchor
from mlcrepro.papers import LEDGERS, ledger_page

ROOT = Path(__file__).resolve().parents[2]

PDF_DROPS_PARTS = ("API reference",)

FOOTER = (
    "<div style='font-size:8px; width:100%; text-align:center; color:#555;'>"
    "<span class='pageNumber'></span></div>"
)

# the title page (title_page_html) and the contents, put in front of the first page; the
# contents list each page of the book (a <span id="document-NAME"> followed by its
# <section>) with its title
_FRONT = r"""(meta) => {
  const main = document.querySelector('article.bd-article') || document.querySelector('main');
  const clean = h => h ? h.textContent.replace(/[#¶]\s*$/, '').trim() : '';
  // the root page's title becomes the book's title, and the introduction gets a heading of
  // the same rank as the chapters' (singlehtml renders them as h2); the theme's print header
  // (a contents list without page numbers, #jb-print-docs-body) is hidden by the print CSS
  const rootH1 = main.querySelector('h1');
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
  front.innerHTML = meta.title_page + `
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


# A ledger on its Reproduce page (hundreds of rows, long notes, a layout for the screen)
# prints as one line: its counts, from its caption, and a link to its section of the
# appendix "The reproduction ledgers", which prints every row in a compact layout of its
# own (ledger_appendix_html).  The ledgers page's summaries and errata print whole.
LEDGER_NOTE = ("{caption}: {rows} rows in all, printed whole in the appendix “{title}”, "
               "section “{section}”.")
_LEDGERS = r"""(args) => {
  const docs = [...document.querySelectorAll('span[id^="document-"]')];
  const seen = {}, unplaced = [];
  let n = 0;
  document.querySelectorAll('table.ledger:not(.ledger-summary)').forEach(t => {
    // the page of the book that holds it: the last page start before it
    let doc = '';
    for (const s of docs) {
      if (s.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING) doc = s.id.slice(9);
    }
    const k = seen[doc] || 0;
    seen[doc] = k + 1;
    const ledger = (args.pages[doc] || [])[k];
    if (!ledger) { unplaced.push(doc + ' #' + (k + 1)); return; }
    const cap = t.querySelector('caption');
    const caption = cap ? cap.textContent.trim() : 'Reproduction ledger';
    const p = document.createElement('p');
    p.className = 'pdf-ledger-counts';
    const a = document.createElement('a');
    a.href = '#' + args.sections[ledger].id;
    a.textContent = args.sections[ledger].title;
    const [before, after] = args.note.replace('{caption}', caption)
      .replace('{rows}', t.querySelectorAll('tbody tr').length)
      .replace('{title}', args.title).split('{section}');
    p.append(before, a, after);
    // the ids of its rows (and of what they hold), for the appendix's rows to carry
    window.pdfLedgerRowIds = window.pdfLedgerRowIds || {};
    window.pdfLedgerRowIds[ledger] = [...t.querySelectorAll('tbody tr')].map(
      tr => [tr, ...tr.querySelectorAll('[id]')].map(e => e.id).filter(Boolean));
    const box = t.closest('details.ledger-chapter');
    const notes = t.nextElementSibling;
    if (notes && notes.matches('ol.ledger-notes')) notes.remove();
    (box || t).replaceWith(p);
    n += 1;
  });
  return {replaced: n, unplaced: unplaced};
}"""

# The appendix of the ledgers (ledger_appendix_html) goes after the book and its solutions,
# a page of the book of its own so that the contents list it; its rows take the ids the
# Reproduce pages' rows had (whatever the site's ledgers name them); MathJax typesets it.
_APPENDIX = r"""(section) => {
  const main = document.querySelector('article.bd-article') || document.querySelector('main');
  const box = document.createElement('div');
  box.innerHTML = section;
  const added = [...box.childNodes];
  main.append(...added);
  // a row of the appendix answers to the ids its row had on the Reproduce page (a link
  // to a row there leads to it here)
  for (const [ledger, rows] of Object.entries(window.pdfLedgerRowIds || {})) {
    const trs = document.querySelectorAll(`#pdf-ledger-${ledger} tbody tr`);
    rows.forEach((ids, k) => {
      const cell = trs[k] && trs[k].querySelector('td');
      for (const id of ids) {
        if (cell && !document.getElementById(id)) {
          const mark = document.createElement('span');
          mark.id = id;
          cell.prepend(mark);
        }
      }
    });
  }
  return MathJax.typesetPromise(added.filter(e => e.nodeType === 1))
    .then(() => document.querySelectorAll('#pdf-ledgers tbody tr').length);
}"""

# Every link of the page is classified in Python (link_action): a place in the book becomes
# a link inside the PDF, a page of the site the PDF does not hold its published address or
# plain words, any other address stays.
_LINKS_FIND = r"""() => {
  const hrefs = [];
  document.querySelectorAll('a[href]').forEach((a, i) => {
    a.dataset.pdfLink = i;
    hrefs.push(a.getAttribute('href'));
  });
  return {hrefs: hrefs, base: location.href,
          ids: [...document.querySelectorAll('[id]')].map(e => e.id)};
}"""
_LINKS_APPLY = r"""(actions) => {
  const done = {};
  document.querySelectorAll('a[data-pdf-link]').forEach(a => {
    const [kind, target] = actions[+a.dataset.pdfLink];
    done[kind] = (done[kind] || 0) + 1;
    if (kind === 'internal' || kind === 'site') {
      a.setAttribute('href', target);
    } else if (kind === 'text') {
      const span = document.createElement('span');
      span.className = (a.className + ' pdf-unlinked').trim();
      while (a.firstChild) span.appendChild(a.firstChild);
      a.replaceWith(span);
    }
  });
  return done;
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


# ------------------------------------------------------------------- the title page
def site_address(config: dict) -> str:
    """The site's published address (``html.baseurl`` of ``_config.yml``), ending in ``/``,
    or ``""`` when none is configured.

    >>> site_address({"html": {"baseurl": "https://example.org/book"}})
    'https://example.org/book/'
    >>> site_address({"html": {"baseurl": ""}}), site_address({})
    ('', '')
    >>> site_address({"html": {"baseurl": "example.org"}})
    Traceback (most recent call last):
    ValueError: html.baseurl must be an http(s) address or empty, got 'example.org'
    """
    url = str(((config or {}).get("html") or {}).get("baseurl") or "").strip()
    if not url:
        return ""
    if urlsplit(url).scheme not in ("http", "https") or not urlsplit(url).netloc:
        raise ValueError(f"html.baseurl must be an http(s) address or empty, got {url!r}")
    return url.rstrip("/") + "/"


def book_facts(root: Path = ROOT) -> dict:
    """What the title page says, each fact read from its one home: the authors, the date
    and how to cite from ``CITATION.cff``, the version from the installed ``mlcbook``
    (``pyproject.toml``), the site's address from ``_config.yml`` (``html.baseurl``) and
    the code's from ``CITATION.cff`` (``repository-code``); an address that is not
    configured is ``""``.

    >>> facts = book_facts()
    >>> facts["version"] == version("mlcbook") and facts["authors"] != []
    True
    """
    cff = yaml.safe_load((Path(root) / "CITATION.cff").read_text(encoding="utf-8"))
    cfg = yaml.safe_load((Path(root) / "_config.yml").read_text(encoding="utf-8"))
    authors = [
        a.get("name") or " ".join(x for x in (a.get("given-names"), a.get("family-names")) if x)
        for a in cff.get("authors") or []
    ]
    if not authors:
        raise ValueError("CITATION.cff must name the authors (authors:), it names none")
    code = str(cff.get("repository-code") or "").strip()
    if code and urlsplit(code).scheme not in ("http", "https"):
        raise ValueError(
            f"CITATION.cff's repository-code must be an http(s) address, got {code!r}")
    facts = {
        "title": str(cff["title"]),
        "authors": authors,
        "version": version("mlcbook"),
        "date": str(cff["date-released"]),
        "license": str(cff.get("license") or ""),
        "message": " ".join(str(cff.get("message") or "").split()),
        "site": site_address(cfg),
        "code": code,
    }
    facts["citation"] = citation(facts)
    return facts


def citation(facts: dict) -> str:
    """The book's reference, as its readers cite it.

    >>> citation({"authors": ["A. Author", "B. Author"], "date": "2026-11-23", "title": "T",
    ...           "version": "1.0", "site": "", "code": ""})
    'A. Author and B. Author (2026). T. Version 1.0.'
    >>> citation({"authors": ["A. Author"], "date": "2026-11-23", "title": "T",
    ...           "version": "1.0", "site": "https://example.org/", "code": ""})
    'A. Author (2026). T. Version 1.0. https://example.org/'
    """
    names = facts["authors"]
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    where = facts["site"] or facts["code"]
    return (f"{who} ({facts['date'][:4]}). {facts['title']}. Version {facts['version']}."
            + (f" {where}" if where else ""))


def _unbroken(text: str) -> str:
    """Each hyphenated word of ``text`` in a span that does not break at its hyphen.

    >>> _unbroken("learning multi-label classifiers")
    'learning <span class="pdf-nobreak">multi-label</span> classifiers'
    """
    return re.sub(r"(\w+(?:-\w+)+)", r'<span class="pdf-nobreak">\1</span>', text)


def title_page_html(facts: dict, book_title: str) -> str:
    """The title page: the book's title, its authors, version and date, how to cite it and
    where its site and code are (or that no public address is configured for them)."""
    e = html.escape

    def address(url: str) -> str:
        return f'<a href="{e(url)}">{e(url)}</a>'

    if facts["site"] or facts["code"]:
        where = " ".join(
            part for part in (
                f"The book's site: {address(facts['site'])}." if facts["site"] else "",
                f"Its code: {address(facts['code'])}." if facts["code"] else "",
            ) if part
        )
    else:
        where = ("This version was printed with no public address for its site or its code. "
                 "The site is built from the same source as this PDF.")
    where += (" On the site, the page Get the code offers the source of this version, the "
              "wheels of the library and of the reproduction, and the two commands that "
              "install them and open the chapters; the API reference and the chapters' "
              "notebooks are there too. Every ledger row is printed in this PDF's last "
              "appendix.")
    return f"""
    <section class="pdf-title" id="pdf-title">
      <p class="pdf-book-title">{_unbroken(e(book_title))}</p>
      <p class="pdf-authors">{e(", ".join(facts["authors"]))}</p>
      <p class="pdf-subtitle">Version {e(facts["version"])} · {e(facts["date"])}</p>
      <div class="pdf-facts">
        <p><b>How to cite.</b> {e(facts["message"])}</p>
        <p class="pdf-citation">{e(facts["citation"])}</p>
        <p><b>Where the site and the code are.</b> {where}</p>
        <p>Licence: {e(facts["license"])}.</p>
      </div>
    </section>"""


# --------------------------------------------------------------------------- links
#: the hosts the book is served from while it prints: no link of the PDF may lead there
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")


def link_action(href: str, base: str, ids: set[str] | frozenset[str], site: str) -> list[str]:
    """What a link of the printed page becomes in the PDF.

    ``href`` is the link as written in the single-page build, ``base`` the address that
    page has in the build (``http://127.0.0.1:PORT/book/intro.html``), ``ids`` the element
    ids of the printed page and ``site`` the site's published address (or ``""``).
    Returns ``["internal", "#id"]`` for a place in the book (a link inside the PDF),
    ``["site", address]`` for a page of the site the PDF does not hold, when the site has
    an address, ``["text", ""]`` for such a page when it has none (the link's words stay,
    without a link), and ``["keep", href]`` for any other address (a DOI, a paper's page).

    >>> base, ids = "http://127.0.0.1:8000/book/intro.html", {"sec-1", "document-book/knn"}
    >>> link_action("#sec-1", base, ids, "")
    ['internal', '#sec-1']
    >>> link_action("knn.html#sec-1", base, ids, "")
    ['internal', '#sec-1']
    >>> link_action("api/mlcbook.html#f", base, ids, "")
    ['text', '']
    >>> link_action("api/mlcbook.html#f", base, ids, "https://example.org/b/")
    ['site', 'https://example.org/b/book/api/mlcbook.html#f']
    >>> link_action("https://doi.org/10.1/x", base, ids, "")
    ['keep', 'https://doi.org/10.1/x']
    """
    url = urljoin(base, href)
    parts, home = urlsplit(url), urlsplit(base)
    if parts.scheme not in ("http", "https") or parts.netloc != home.netloc:
        if parts.hostname in LOCAL_HOSTS:
            return ["text", ""]  # another local server: nothing a reader can reach
        return ["keep", href]
    if parts.fragment and parts.fragment in ids:
        return ["internal", "#" + parts.fragment]
    if parts.path in ("", "/", home.path) and not parts.fragment:
        return ["internal", "#pdf-title"]
    if not site:
        return ["text", ""]
    path = parts.path.lstrip("/")
    return ["site", site + path + (f"#{parts.fragment}" if parts.fragment else "")]


# ----------------------------------------------------------- the ledgers' appendix
LEDGERS_TITLE = "The reproduction ledgers"
#: the columns of a ledger's table in the appendix
LEDGER_COLUMNS = ("#", "claim ids", "claim", "source", "paper", "ours", "status", "note")


def ledger_appendix_id(name: str) -> str:
    """The id of ledger ``name``'s section in the appendix.

    >>> ledger_appendix_id("losses")
    'pdf-ledger-losses'
    """
    return f"pdf-ledger-{name}"


def ledger_section_title(name: str, root: Path = ROOT) -> str:
    """The title of ledger ``name``'s section in the appendix: its paper and its chapter.

    >>> ledger_section_title("losses")
    'Hüllermeier et al. (2022): the ledger of “Dependence-aware losses”'
    """
    return f"{ledger_page(name).citation}: the ledger of “{_chapter_title(name, root)}”"


def _chapter_title(name: str, root: Path) -> str:
    source = Path(root) / "book" / f"{name}.md"
    text = source.read_text(encoding="utf-8") if source.exists() else ""
    m = re.search(r"^# (.+)$", text, re.M)
    return m.group(1).replace("`", "").strip() if m else name


def _text(x) -> str:
    s = "" if x is None else str(x)
    return "" if s.lower() == "nan" else s.strip()


def ledger_appendix_html(root: Path = ROOT) -> tuple[str, int]:
    """The appendix that prints every row of every committed ledger, and its row count.

    One section per ledger (in the book's order, :data:`mlcrepro.papers.LEDGERS`), read
    with :func:`mlcrepro.ledger.load_ledgers`: its counts, then a table of its rows (the
    row's number on the site, its claim ids, the claim, where the paper states it, the
    paper's value, ours, the status with its cause, and the number of its note), then its
    notes, each printed whole and once (many rows share one).  A row carries the ids a
    link to it uses on the site (:func:`mlcrepro.ledger.row_anchor` and its claim ids), so
    the links of the summaries and tables lead to it inside the PDF.
    """
    e = html.escape
    frame = load_ledgers(Path(root) / "book" / "_ledgers")
    unknown = sorted(set(frame["chapter"]) - set(LEDGERS))
    if unknown:
        raise ValueError(f"the committed ledgers hold chapters no paper shows: {unknown}")
    seen_ids: set[str] = set()
    parts, total = [], 0
    for name in LEDGERS:
        rows = frame[frame["chapter"] == name]
        paper = ledger_page(name)
        counts = Counter(rows["status"])
        summary = ", ".join(f"{counts[s]} {s}" for s in STATUSES if counts[s])
        notes: dict[str, int] = {}
        body = []
        for i, row in enumerate(rows.itertuples(index=False), 1):
            ids = _text(row.claim_ids).split()
            anchors = [row_anchor(name, i)] + [c for c in ids if c not in seen_ids]
            seen_ids.update(ids)
            note = _text(row.note)
            ref = _text(row.cause_ref)
            text = math_html(note) + (
                f" <i>{'Tested in' if _text(row.cause) == 'tested' else 'See'}</i> {e(ref)}."
                if ref else "")
            cell = ""
            if text.strip():
                n = notes.setdefault(text, len(notes) + 1)
                cell = f'<a href="#{ledger_appendix_id(name)}-note-{n}">{n}</a>'
            status = f"<span class='pdf-badge'>{BADGES.get(row.status, e(row.status))}</span>"
            if _text(row.cause):
                status += f"<br><span class='pdf-cause'>{e(_text(row.cause))}</span>"
            marks = "".join(f'<span id="{e(a)}"></span>' for a in anchors[1:])
            cells = (f"{marks}{i}", " ".join(e(c) for c in ids), math_html(_text(row.claim)),
                     e(_text(row.source)), math_html(_text(row.paper)),
                     math_html(_text(row.ours)), status, cell)
            body.append(f'<tr id="{e(anchors[0])}">'
                        + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        total += len(rows)
        items = "".join(
            f'<li id="{ledger_appendix_id(name)}-note-{n}" value="{n}">{text}</li>'
            for text, n in notes.items())
        head = "".join(f"<th>{h}</th>" for h in LEDGER_COLUMNS)
        parts.append(
            f'<section class="pdf-ledger" id="{ledger_appendix_id(name)}">'
            f"<h3>{e(ledger_section_title(name, root))}</h3>"
            f"<p class='pdf-ledger-count'>{len(rows)} rows: {e(summary)}. Shown on the page "
            f"“{e(_chapter_title(paper.page_doc.split('/')[-1], root))}”.</p>"
            f"<table class='pdf-ledger-rows'><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>"
            + (f"<p class='pdf-ledger-notes-title'>Notes</p><ol class='pdf-ledger-notes'>"
               f"{items}</ol>" if items else "")
            + "</section>")
    intro = (
        f"<p>Every row of the book's {len(LEDGERS)} reproduction ledgers ({total} rows), as "
        "committed with this version. Each row checks one or more claims of a paper (its "
        "claim ids) against our number; its status is derived from the evidence by the "
        "rule of its kind (see the glossary). The notes of a ledger follow its table, each "
        "printed once and numbered; a row's last column gives the number of its note.</p>")
    section = (f'<span id="document-pdf-ledgers"></span><section id="pdf-ledgers">'
               f"<h2>{LEDGERS_TITLE}</h2>{intro}{''.join(parts)}</section>")
    return section, total


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


def _root_title() -> str:
    """The book's title: the first heading of the table of contents' root page."""
    root = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))["root"]
    return _chapter_title(Path(root).name, ROOT)


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
    facts = book_facts()
    meta = {"title_page": title_page_html(facts, title)}
    appendix, n_rows = ledger_appendix_html()
    # the Reproduce page of each ledger, and the title of its section in the appendix
    on_page: dict[str, list[str]] = {}
    for name in LEDGERS:
        on_page.setdefault(ledger_page(name).page_doc, []).append(name)
    sections = {name: {"id": ledger_appendix_id(name), "title": ledger_section_title(name)}
                for name in LEDGERS}
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
            # a ledger prints its counts where it stands (its rows go to the last
            # appendix), collapsed sections print open, the solutions go to an appendix
            placed = page.evaluate(_LEDGERS, {"note": LEDGER_NOTE, "pages": on_page,
                                              "sections": sections, "title": LEDGERS_TITLE})
            if placed["unplaced"] or placed["replaced"] != len(LEDGERS):
                raise SystemExit(f"the ledger tables of the pages are not the {len(LEDGERS)} "
                                 f"ledgers {list(LEDGERS)}: {placed}")
            page.evaluate(_COLLAPSED)
            page.evaluate(_SITE_ONLY)
            page.evaluate(_SOLUTIONS, SOLUTIONS_TITLE)
            printed = page.evaluate(_APPENDIX, appendix)
            if printed != n_rows:
                raise SystemExit(f"the ledgers' appendix prints {printed} rows of {n_rows}")
            entries = page.evaluate(_FRONT, meta)
            # every link: inside the PDF, to the site's address, or plain words
            found = page.evaluate(_LINKS_FIND)
            ids, site_url = frozenset(found["ids"]), facts["site"]
            actions = [link_action(h, found["base"], ids, site_url) for h in found["hrefs"]]
            links = page.evaluate(_LINKS_APPLY, actions)
            out.with_name("links.json").write_text(json.dumps(links, indent=1))
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
        n = print_book(Path(sys.argv[2]), Path(sys.argv[3]), _root_title())
        print(f"wrote {sys.argv[3]} ({n} pages)")
