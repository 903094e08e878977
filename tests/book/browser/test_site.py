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
def test_page_renders_offline(page_visit, site_url, page):
    v = page_visit(page)
    assert v.ok, f"{page}: HTTP {v.status}"

    # MathJax (served from the site) has finished typesetting
    if v.has_math:
        assert v.untypeset == 0, f"{page}: {v.untypeset} math elements were not typeset"
        assert v.math_errors == 0, f"{page}: MathJax reported {v.math_errors} TeX errors"
    for raw in ("$$", "\\(", "\\[", "\\begin{"):
        assert raw not in v.prose, f"{page}: raw math {raw!r} left in the text"

    # every image loaded with a non-zero size
    broken = [i["src"] for i in v.images if not i["ok"]]
    assert not broken, f"{page}: images not loaded: {broken}"

    # internal links resolve to a built file (and an existing anchor)
    base = f"{site_url}/{page}"
    bad = []
    for href in v.hrefs:
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

    report_height(page, 1280, v.height)
    assert not v.console_errors, f"{page}: console errors: {v.console_errors[:5]}"
    assert not v.outside, f"{page}: the page asked for outside resources: {v.outside[:5]}"
