"""What a reader sees: every page of the built book renders offline, with math and figures."""

from __future__ import annotations

import re
from urllib.parse import unquote, urljoin, urlparse

import pytest

from mlcrepro._paths import project_root

from ..toc import toc_files
from .conftest import SITE, report_height

ROOT = project_root()


PAGES = [f + ".html" for f in toc_files()]


def test_every_toc_page_was_built():
    missing = [p for p in PAGES if not (SITE / p).exists()]
    assert not missing, f"pages in _toc.yml but not in {SITE}: {missing}"


@pytest.mark.parametrize("page", PAGES)
def test_page_renders_offline(browser, site_url, page):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
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
    assert resp is not None and resp.ok, f"{page}: HTTP {resp.status if resp else None}"

    # MathJax (served from the site) has finished typesetting
    has_math = pg.evaluate("document.querySelectorAll('.math').length") > 0
    if has_math:
        pg.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise", timeout=20000)
        pg.evaluate("MathJax.startup.promise")
        untypeset = pg.evaluate(
            "[...document.querySelectorAll('.math')].filter(e => !e.querySelector('mjx-container')).length"
        )
        assert untypeset == 0, f"{page}: {untypeset} math elements were not typeset"
        errors = pg.evaluate("document.querySelectorAll('mjx-merror, [data-mjx-error]').length")
        assert errors == 0, f"{page}: MathJax reported {errors} TeX errors"
    prose = pg.evaluate(
        """() => { const main = document.querySelector('main') || document.body;
                   const c = main.cloneNode(true);
                   c.querySelectorAll('pre, code, mjx-container, script, style, .highlight').forEach(e => e.remove());
                   return c.innerText; }"""
    )
    for raw in ("$$", "\\(", "\\[", "\\begin{"):
        assert raw not in prose, f"{page}: raw math {raw!r} left in the text"

    # every image loaded with a non-zero size
    imgs = pg.evaluate(
        "[...document.images].map(i => ({src: i.currentSrc || i.src, ok: i.complete && i.naturalWidth > 0 && i.naturalHeight > 0}))"
    )
    broken = [i["src"] for i in imgs if not i["ok"]]
    assert not broken, f"{page}: images not loaded: {broken}"

    # internal links resolve to a built file (and an existing anchor)
    base = f"{site_url}/{page}"
    hrefs = pg.evaluate("[...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'))")
    bad = []
    for href in hrefs:
        if href.startswith(("mailto:", "javascript:")):
            continue
        url = urlparse(urljoin(base, href))
        if url.hostname not in ("127.0.0.1",):
            continue
        target = SITE / unquote(url.path.lstrip("/"))
        if target.is_dir():
            target = target / "index.html"
        if not target.exists():
            bad.append(href)
            continue
        if url.fragment and target.suffix == ".html":
            html = target.read_text(errors="replace")
            if not re.search(r'id="%s"' % re.escape(unquote(url.fragment)), html):
                bad.append(href)
    assert not bad, f"{page}: broken internal links: {sorted(set(bad))[:10]}"

    report_height(page, 1280, pg.evaluate("document.documentElement.scrollHeight"))
    assert not console_errors, f"{page}: console errors: {console_errors[:5]}"
    assert not outside, f"{page}: the page asked for outside resources: {outside[:5]}"
    ctx.close()
