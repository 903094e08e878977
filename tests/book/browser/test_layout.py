"""What a reader on a phone and a reader who wants the material see.

At 390 px (a phone) no element of a page reaches beyond the viewport unless it sits inside a
declared scroll container (``overflow-x: auto`` or ``scroll``), the page itself does not
scroll sideways, and a table that does not fit scrolls with a visible cue. Every chapter offers its notebook (with outputs) for download.
"""

from __future__ import annotations

import os
import urllib.request

import pytest
import yaml

from mlcrepro._paths import project_root

from .conftest import SITE, report_height
from .desktop import TABLES
from .test_site import PAGES

ROOT = project_root()
CHAPTERS = ["measures", "losses", "datasets", "dependence", "knn", "blended", "limo",
            "own_predictions"]
PHONE = {"width": 390, "height": 844}

# elements of the article wider than the viewport and not inside a scroll container
_OVERFLOW = """() => {
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


@pytest.fixture(scope="module")
def phone(browser):
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=1)
    yield ctx
    ctx.close()


def _open(ctx, site_url, page):
    pg = ctx.new_page()
    pg.goto(f"{site_url}/{page}", wait_until="load")
    if pg.evaluate("document.querySelectorAll('.math').length") > 0:
        pg.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise",
                             timeout=20000)
        pg.evaluate("MathJax.startup.promise")
    return pg


@pytest.mark.parametrize("page", PAGES + ["genindex.html", "py-modindex.html", "search.html"])
def test_nothing_overflows_a_phone_screen(phone, site_url, page):
    """... and every table fits the phone's column or scrolls with a visible cue (the
    desktop's tables: test_parts.py), read on the same visit."""
    pg = _open(phone, site_url, page)
    res = pg.evaluate(_OVERFLOW)
    report_height(page, PHONE["width"], pg.evaluate("document.documentElement.scrollHeight"))
    # scroll_hint marks the boxes again once MathJax has typeset: two frames later
    pg.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    tables = pg.evaluate(TABLES)["problems"]
    pg.close()
    assert not tables, f"{page} at 390 px, tables: {tables[:5]}"
    assert not res["out"], (
        f"{page}: {len(res['out'])} elements overflow the {res['vw']}-px viewport outside a "
        f"scroll container, e.g. {res['out'][:6]}"
    )
    assert res["page"] <= res["vw"], f"{page}: the page scrolls sideways ({res['page']} px)"


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_offers_its_notebook_for_download(desktop_visit, site_url, chapter):
    assert (SITE / "book" / f"{chapter}.html").exists(), f"{chapter}.html was not built"
    downloads = desktop_visit(f"book/{chapter}.html").notebooks
    assert downloads, f"{chapter}: no download link for the notebook"
    for href in downloads:  # the link resolves to this chapter's notebook, with outputs
        with urllib.request.urlopen(f"{site_url}/book/{href}") as r:
            body = r.read()
        assert b'"cells"' in body and b'"outputs"' in body, f"{chapter}: {href} is no notebook"
        assert f"{chapter}.ipynb" in href, f"{chapter}: {href} is another page's notebook"


@pytest.mark.parametrize("page", PAGES)
def test_header_shows_the_package_version_and_no_build_date(page):
    from importlib.metadata import version

    html = (SITE / page).read_text(encoding="utf-8")
    assert f"v{version('mlcbook')}" in html, f"{page}: the title does not show the version"
    # html_last_updated_fmt unset: the theme prints no "Last updated on <build date>"
    assert "last updated" not in html.lower(), f"{page}: shows a 'last updated' date"
    # a repository button exactly when an address is configured (book/_ext/repository.py)
    opts = yaml.safe_load((ROOT / "_config.yml").read_text())["sphinx"]["config"]
    repo = os.environ.get("MLCBOOK_REPOSITORY_URL") or opts["html_theme_options"]["repository_url"]
    if repo:
        assert "btn-source-repository-button" in html and f'href="{repo}"' in html, (
            f"{page}: no link to the repository {repo}"
        )
    else:
        assert "btn-source-repository-button" not in html, (
            f"{page}: a repository button without an address")


#: chapters whose figures keep readable type on a phone (their plotting functions are
#: checked for >= 9 px text at this width in tests/mlcbook and tests/mlcrepro)
READABLE_FIGURES = ["intro", "measures", "losses", "datasets", "dependence", "knn", "blended",
                    "limo", "own_predictions"]
#: matplotlib's smallest text in the book's figures is 10 pt, 13.9 px at 100 dpi: shown at
#: less than 9 / 13.9 of its size it falls below 9 px
MIN_FIGURE_SCALE = 9 / (10 * 100 / 72)


@pytest.mark.parametrize("chapter", READABLE_FIGURES)
def test_figures_are_not_shrunk_below_readable_type_on_a_phone(phone, site_url, chapter):
    pg = _open(phone, site_url, f"book/{chapter}.html")
    images = pg.evaluate("""() => [...document.querySelectorAll('main img')].map(i => ({
        src: i.getAttribute('src').slice(-20),
        shown: i.getBoundingClientRect().width,
        natural: parseFloat(i.style.width) || i.naturalWidth}))""")
    pg.close()
    small = [(i["src"], round(i["shown"] / i["natural"], 2)) for i in images
             if i["natural"] and i["shown"] / i["natural"] < MIN_FIGURE_SCALE]
    assert not small, (
        f"{chapter}: figures shown at less than {MIN_FIGURE_SCALE:.2f} of their size on a "
        f"390-px phone (10-pt text below 9 px): {small}"
    )
