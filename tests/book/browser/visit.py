"""One visit of a page, offline, at 1280 px and then at 390 px, and what the browser checks
read from it.

Each page of the site is loaded once per test run (:func:`visit`, cached by the
``page_visit`` fixture of conftest.py) at 1280 x 900 px; when its desktop facts are read,
the same page is narrowed to a phone's 390 x 844 px (:data:`PHONE`) and its phone facts are
read: what overflows the screen, its tables' scroll cues, its display equations wider
than their room (and whether each scrolls under a cue), table cells that break a word
letter by letter, verdict columns out of view, its height, how far its figures are shrunk.  test_site.py, test_layout.py, test_parts.py and test_teaching.py assert on
these facts, so a chapter is not loaded, laid out and typeset once per check and width.
The visit refuses every request that leaves 127.0.0.1 and waits for MathJax to finish
typesetting before reading anything.

Narrowing a loaded page shows a phone reader what a page loaded at 390 px shows (the
equivalence was measured page by page: no difference in any of these facts): the
stylesheets' media queries apply at once, and the site's width-dependent script
(book/_ext/scroll_hint.py, which marks the boxes that scroll) runs again on ``resize``,
as it must for a reader who turns a phone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlparse

VIEWPORT = {"width": 1280, "height": 900}
#: a phone held upright (CSS px; device scale 1, as the desktop)
PHONE = {"width": 390, "height": 844}

# exercises, their solutions, and how many solutions are shown on arrival (sphinx-exercise:
# a solution is hidden in a closed ``details`` element or a ``dropdown`` with hidden content)
EXERCISES = """() => {
  const exercises = document.querySelectorAll('.exercise');
  const solutions = [...document.querySelectorAll('.solution')];
  const hidden = s => {
    if (s.tagName === 'DETAILS') return !s.open;
    const d = s.closest('details');
    if (d) return !d.open;
    if (s.classList.contains('dropdown')) {
      const body = s.querySelector('.admonition-body, section, div:not(.admonition-title)');
      return !!body && body.offsetHeight === 0;
    }
    return false;
  };
  return {exercises: exercises.length, solutions: solutions.length,
          shown: solutions.filter(s => !hidden(s)).length};
}"""

# the text of the page without code, math and scripts (where raw TeX would show)
PROSE = """() => { const main = document.querySelector('main') || document.body;
                   const c = main.cloneNode(true);
                   c.querySelectorAll('pre, code, mjx-container, script, style, .highlight').forEach(e => e.remove());
                   return c.innerText; }"""


# every table of the article: whether it fits the column, or else whether the box it
# scrolls in shows the "scroll sideways" line (scroll_hint.py); and the text of every cell
TABLES = """() => {
  const article = document.querySelector('article') || document.body;
  const scroller = el => {
    for (let a = el.parentElement; a && a !== article; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX;
      if (o === 'auto' || o === 'scroll') return a;
    }
    return null;
  };
  const visible = el => !!el && el.offsetHeight > 0 && getComputedStyle(el).display !== 'none'
    && getComputedStyle(el).visibility !== 'hidden';
  const name = t => {
    const cap = t.querySelector('caption');
    const sec = t.closest('section[id]');
    const words = (cap || t).textContent.replace(/\\s+/g, ' ').trim();
    return (sec ? '#' + sec.id + ' ' : '') + words.slice(0, 50);
  };
  const problems = [], cells = [];
  for (const t of article.querySelectorAll('table')) {
    const r = t.getBoundingClientRect();
    if (r.width === 0 || t.closest('details:not([open]), .toggle-hidden') ||
        getComputedStyle(t).visibility === 'hidden') continue;  // a closed section
    for (const c of t.querySelectorAll('td, th')) cells.push(c.textContent.trim());
    const box = scroller(t);
    const room = box ? box.clientWidth : article.clientWidth;
    if (t.scrollWidth <= room + 1 && r.width <= room + 1) continue;
    if (!box) { problems.push(name(t) + ': wider than the column and does not scroll'); continue; }
    const hint = box.previousElementSibling;
    if (!(box.classList.contains('mlcbook-scrolls') && hint &&
          hint.classList.contains('mlcbook-scroll-hint') && visible(hint)))
      problems.push(name(t) + ': scrolls without a visible cue');
  }
  return {problems, cells};
}"""


# elements of the article wider than the viewport and not inside a scroll container
OVERFLOW = """() => {
  const vw = document.documentElement.clientWidth;
  const scrolls = el => {
    for (let a = el.parentElement; a; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX;
      if (o === 'auto' || o === 'scroll') return true;
    }
    return false;
  };
  const out = [];
  const article = document.querySelector('article') || document.body;
  for (const el of article.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (getComputedStyle(el).visibility === 'hidden') continue;
    if (el.closest('mjx-assistive-mml')) continue;  // MathJax's clipped copy for screen readers
    if ((r.right > vw + 1 || r.left < -1) && !scrolls(el)) {
      const name = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
        (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : '');
      out.push(`${name} [${Math.round(r.left)}, ${Math.round(r.right)}]`);
    }
  }
  return {vw, page: document.documentElement.scrollWidth, out};
}"""

# on a phone: every display equation wider than the room it has, and whether it is cut
# (no box of its own scrolls it) or scrolls without the "scroll sideways" line
# (scroll_hint.py); the scroll box is the equation's own ``mjx-container`` or an ancestor
EQUATIONS = """() => {
  const article = document.querySelector('article') || document.body;
  const scroller = el => {
    for (let a = el; a && a !== article; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX;
      if (o === 'auto' || o === 'scroll') return a;
    }
    return null;
  };
  const visible = el => !!el && el.offsetHeight > 0 && getComputedStyle(el).display !== 'none'
    && getComputedStyle(el).visibility !== 'hidden';
  const out = {wide: [], problems: []};
  for (const m of article.querySelectorAll('mjx-container[display="true"]')) {
    const r = m.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || getComputedStyle(m).visibility === 'hidden') continue;
    const math = m.querySelector('mjx-math') || m;
    const need = math.getBoundingClientRect().width;
    const box = scroller(m);
    const room = box ? box.clientWidth : Math.min(article.clientWidth, r.width);
    const right = math.getBoundingClientRect().right;
    if (need <= room + 1 && right <= document.documentElement.clientWidth + 1) continue;
    const holder = m.closest('.math[id], [id]');
    const eqno = holder && holder.querySelector('.eqno');
    const name = (eqno ? eqno.textContent.replace(/[^\\d.()]/g, '') + ' ' : '') +
      (holder ? '#' + holder.id : '') + ` (${Math.round(need)} px in ${Math.round(room)})`;
    out.wide.push(name);
    if (!box) { out.problems.push(name + ': cut, not in a box that scrolls'); continue; }
    // the line stands above the equation's numbered block when the box is the equation's
    const at = box === m && m.parentElement.matches('div.math') ? m.parentElement : box;
    const hint = at.previousElementSibling;
    if (!(box.classList.contains('mlcbook-scrolls') && hint &&
          hint.classList.contains('mlcbook-scroll-hint') && visible(hint)))
      out.problems.push(name + ': scrolls without a visible cue');
  }
  return out;
}"""

# on a phone: table cells narrower than a word they hold, which they then break across
# lines ("n a m e"), although the word is narrower than the text column (a word wider than
# the column, or than the card of a table stacked into cards, must break somewhere); a word is the text between spaces, hyphens, dashes and
# slashes, where a browser may break a line; maths, hidden and closed parts are skipped
BROKEN_WORDS = """() => {
  const article = document.querySelector('article') || document.body;
  const pad = el => { const s = getComputedStyle(el);
                      return parseFloat(s.paddingLeft) + parseFloat(s.paddingRight); };
  const column = article.clientWidth - pad(article);
  const out = [];
  const WORD = /[^\\s\\-\\u2010-\\u2015\\/\\u200b]+/g;
  for (const cell of article.querySelectorAll('td, th')) {
    const c = cell.getBoundingClientRect();
    if (c.width === 0 || c.height === 0) continue;
    if (getComputedStyle(cell).visibility === 'hidden') continue;
    // the widest the cell could be: the column, or in a table stacked into cards (the
    // ledgers on a phone) its card's width
    const card = getComputedStyle(cell).display === 'block' ? cell.parentElement : null;
    const room = card ? card.clientWidth - pad(card) - pad(cell) : column;
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    let bad = null;
    for (let n = walker.nextNode(); n && !bad; n = walker.nextNode()) {
      if (n.parentElement.closest('mjx-container, script, style')) continue;
      WORD.lastIndex = 0;
      for (let m = WORD.exec(n.data); m; m = WORD.exec(n.data)) {
        if (m[0].length < 2) continue;
        const range = document.createRange();
        range.setStart(n, m.index);
        range.setEnd(n, m.index + m[0].length);
        const rects = [...range.getClientRects()].filter(q => q.width > 0);
        const lines = new Set(rects.map(q => Math.round(q.bottom)));
        const width = rects.reduce((s, q) => s + q.width, 0);
        if (lines.size > 1 && width > c.width - pad(cell) - 1 && width < room) {
          bad = m[0];
          break;
        }
      }
    }
    if (bad) {
      const t = cell.closest('table');
      const sec = t.closest('section[id]');
      out.push(`${sec ? '#' + sec.id : ''} "${bad.slice(0, 30)}" broken in a ` +
               `${Math.round(c.width)}-px cell`);
    }
  }
  return out;
}"""

# on a phone: every table with a column headed "verdict" whose header cell is not in view
# (outside the table's scroll box or the viewport)
VERDICTS = """() => {
  const article = document.querySelector('article') || document.body;
  const vw = document.documentElement.clientWidth;
  const scroller = el => {
    for (let a = el.parentElement; a && a !== article; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX;
      if (o === 'auto' || o === 'scroll') return a;
    }
    return null;
  };
  const out = {tables: 0, hidden: []};
  for (const t of article.querySelectorAll('table')) {
    const r = t.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || getComputedStyle(t).visibility === 'hidden') continue;
    const head = [...t.querySelectorAll('thead th, thead td')]
      .filter(c => c.textContent.trim().toLowerCase() === 'verdict');
    if (!head.length) continue;
    out.tables++;
    const box = scroller(t);
    const b = box ? box.getBoundingClientRect() : {left: 0, right: vw};
    let h = head[0].getBoundingClientRect();
    if (h.width === 0 && getComputedStyle(t).display === 'block') {
      // a table stacked into cards on a phone (the ledgers): no header; each card shows
      // the verdict cell under its label, which must then be in view
      const at = [...head[0].parentElement.children].indexOf(head[0]);
      const row = t.tBodies[0] && t.tBodies[0].rows[0];
      const cell = row && row.cells[at];
      h = cell ? cell.getBoundingClientRect() : h;
    }
    if (h.width === 0 || h.left < Math.max(0, b.left) - 1 || h.right > Math.min(vw, b.right) + 1) {
      const cap = t.querySelector('caption');
      const sec = t.closest('section[id]');
      out.hidden.push((sec ? '#' + sec.id + ' ' : '') +
        (cap ? cap.textContent.trim().slice(0, 50) : '') +
        ` (verdict at ${Math.round(h.left)} px)`);
    }
  }
  return out;
}"""

# every image of the page's main part: its end of src, its shown width and the width it
# was made for (a figure's declared width, else its natural width)
FIGURES = """() => [...document.querySelectorAll('main img')].map(i => ({
    src: i.getAttribute('src').slice(-20),
    shown: i.getBoundingClientRect().width,
    natural: parseFloat(i.style.width) || i.naturalWidth}))"""

# resolves after two animation frames: the layout of a new width is done, and the scripts
# that run on ``resize`` (scroll_hint.py marks the boxes that scroll) have run
TWO_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"

# resolves when a page narrowed to a phone has settled: laid out (two frames), every CSS
# transition the new width started has ended (the theme slides its sidebar off the screen
# in 0.2 s below 960 px; a page loaded at 390 px starts with it hidden), and laid out again
SETTLED = """async () => {
  const frames = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  await frames();
  await Promise.all(document.getAnimations().filter(a => a instanceof CSSTransition)
                    .map(a => a.finished.catch(() => null)));
  await frames();
}"""


@dataclass
class Phone:
    """What the same page showed narrowed to :data:`PHONE`."""

    width: int = 0
    scroll_width: int = 0
    overflow: list[str] = field(default_factory=list)
    table_problems: list[str] = field(default_factory=list)
    height: int = 0
    figures: list[dict] = field(default_factory=list)
    #: display equations wider than their room, and those cut or scrolling without a cue
    wide_equations: list[str] = field(default_factory=list)
    equation_problems: list[str] = field(default_factory=list)
    #: table cells that break a word narrower than the column across lines
    broken_words: list[str] = field(default_factory=list)
    #: tables with a verdict column, and those whose verdict header is out of view
    verdict_tables: int = 0
    hidden_verdicts: list[str] = field(default_factory=list)


def read_phone(pg) -> Phone:
    """The phone facts of the page ``pg`` (already at the phone's width and laid out); the
    page is left with its collapsed sections open."""
    res = pg.evaluate(OVERFLOW)
    phone = Phone(width=res["vw"], scroll_width=res["page"], overflow=res["out"],
                  table_problems=pg.evaluate(TABLES)["problems"],
                  height=pg.evaluate("document.documentElement.scrollHeight"),
                  figures=pg.evaluate(FIGURES))
    # equations, table cells and verdicts are read with every collapsed section open (a
    # reader opens them; most of a Reproduce page's tables are inside one)
    pg.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    pg.evaluate(SETTLED)
    maths = pg.evaluate(EQUATIONS)
    verdicts = pg.evaluate(VERDICTS)
    phone.wide_equations, phone.equation_problems = maths["wide"], maths["problems"]
    phone.broken_words = pg.evaluate(BROKEN_WORDS)
    phone.verdict_tables, phone.hidden_verdicts = verdicts["tables"], verdicts["hidden"]
    return phone


@dataclass
class Visit:
    """What one load of a page showed."""

    status: int | None
    ok: bool
    console_errors: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)
    has_math: bool = False
    untypeset: int = 0
    math_errors: int = 0
    prose: str = ""
    images: list[dict] = field(default_factory=list)
    hrefs: list[str] = field(default_factory=list)
    article_hrefs: list[str] = field(default_factory=list)
    notebooks: list[str] = field(default_factory=list)
    exercises: dict = field(default_factory=dict)
    height: int = 0
    table_problems: list[str] = field(default_factory=list)
    table_cells: list[str] = field(default_factory=list)
    phone: Phone = field(default_factory=Phone)


def visit(browser, site_url: str, page: str) -> Visit:
    """Load ``page`` at 1280 x 900 px, offline, read every desktop fact the checks need,
    then narrow it to :data:`PHONE` and read the phone facts."""
    ctx = browser.new_context(viewport=VIEWPORT)
    try:
        pg = ctx.new_page()
        console_errors: list[str] = []
        outside: list[str] = []
        pg.on("console", lambda m: console_errors.append(m.text) if m.type == "error" else None)
        pg.on("pageerror", lambda e: console_errors.append(str(e)))

        def route(r):
            host = urlparse(r.request.url).hostname
            if host in ("127.0.0.1", "localhost") or r.request.url.startswith("data:"):
                r.continue_()
            else:  # the site must not need the network: note and refuse every outside request
                outside.append(r.request.url)
                r.abort()

        pg.route("**/*", route)
        resp = pg.goto(f"{site_url}/{page}", wait_until="load")
        if resp is None or not resp.ok:
            return Visit(status=resp.status if resp else None, ok=False)
        v = Visit(status=resp.status, ok=True, console_errors=console_errors, outside=outside)
        # MathJax (served from the site) has finished typesetting
        v.has_math = pg.evaluate("document.querySelectorAll('.math').length") > 0
        if v.has_math:
            pg.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise",
                                 timeout=20000)
            pg.evaluate("MathJax.startup.promise")
            v.untypeset = pg.evaluate(
                "[...document.querySelectorAll('.math')]"
                ".filter(e => !e.querySelector('mjx-container')).length")
            v.math_errors = pg.evaluate(
                "document.querySelectorAll('mjx-merror, [data-mjx-error]').length")
        v.prose = pg.evaluate(PROSE)
        v.images = pg.evaluate(
            "[...document.images].map(i => ({src: i.currentSrc || i.src, ok: i.complete && "
            "i.naturalWidth > 0 && i.naturalHeight > 0}))")
        v.hrefs = pg.evaluate(
            "[...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'))")
        v.article_hrefs = pg.evaluate(
            "[...document.querySelectorAll('article a[href]')]"
            ".map(a => a.getAttribute('href').split('#')[0])")
        v.notebooks = pg.evaluate(
            "[...document.querySelectorAll('a[href$=\".ipynb\"]')].map(a => a.getAttribute('href'))")
        v.exercises = pg.evaluate(EXERCISES)
        v.height = pg.evaluate("document.documentElement.scrollHeight")
        tables = pg.evaluate(TABLES)
        v.table_problems, v.table_cells = tables["problems"], tables["cells"]
        pg.set_viewport_size(PHONE)
        pg.evaluate(SETTLED)
        v.phone = read_phone(pg)
        # console errors and outside requests raised while the facts were read count too
        v.console_errors, v.outside = list(console_errors), list(outside)
        return v
    finally:
        ctx.close()
