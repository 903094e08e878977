"""One visit of a page at 1280 px, offline, and what the browser checks read from it.

Each page of the site is loaded once per session (:func:`visit`, cached by the
``desktop`` fixture of conftest.py); test_site.py, test_layout.py and test_teaching.py
assert on the facts gathered here, so a chapter is not loaded, laid out and typeset
four times over.  The visit refuses every request that leaves 127.0.0.1 and waits for
MathJax to finish typesetting before reading anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlparse

VIEWPORT = {"width": 1280, "height": 900}

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


def visit(browser, site_url: str, page: str) -> Visit:
    """Load ``page`` at 1280 x 900 px, offline, and read every fact the checks need."""
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
        # console errors and outside requests raised while the facts were read count too
        v.console_errors, v.outside = list(console_errors), list(outside)
        return v
    finally:
        ctx.close()
