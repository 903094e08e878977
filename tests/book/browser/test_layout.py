"""What a reader on a phone and a reader who wants the material see.

At 390 px (a phone) no element of a page reaches beyond the viewport unless it sits inside a
declared scroll container (``overflow-x: auto`` or ``scroll``), the page itself does not
scroll sideways, and a table that does not fit scrolls with a visible cue; figures keep
readable type. These are read from each page's one visit, narrowed to a phone's width
after its desktop facts were read (visit.py). Every chapter offers its notebook (with
outputs) for download.
"""

from __future__ import annotations

import os
import urllib.request

import pytest
import yaml

from mlcrepro._paths import project_root

from .conftest import SITE, report_height
from .test_site import PAGES
from .visit import PHONE

ROOT = project_root()
CHAPTERS = ["measures", "losses", "datasets", "dependence", "knn", "blended", "limo",
            "own_predictions"]


@pytest.mark.parametrize("page", PAGES + ["genindex.html", "py-modindex.html", "search.html"])
def test_nothing_overflows_a_phone_screen(page_visit, page):
    """... and every table fits the phone's column or scrolls with a visible cue (the
    desktop's tables: test_parts.py), read on the same visit."""
    v = page_visit(page)
    assert v.ok, f"{page}: HTTP {v.status}"
    phone = v.phone
    report_height(page, PHONE["width"], phone.height)
    assert not phone.table_problems, f"{page} at 390 px, tables: {phone.table_problems[:5]}"
    assert not phone.overflow, (
        f"{page}: {len(phone.overflow)} elements overflow the {phone.width}-px viewport "
        f"outside a scroll container, e.g. {phone.overflow[:6]}"
    )
    assert phone.scroll_width <= phone.width, (
        f"{page}: the page scrolls sideways ({phone.scroll_width} px)")


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_offers_its_notebook_for_download(page_visit, site_url, chapter):
    assert (SITE / "book" / f"{chapter}.html").exists(), f"{chapter}.html was not built"
    downloads = page_visit(f"book/{chapter}.html").notebooks
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
def test_figures_are_not_shrunk_below_readable_type_on_a_phone(page_visit, chapter):
    images = page_visit(f"book/{chapter}.html").phone.figures
    small = [(i["src"], round(i["shown"] / i["natural"], 2)) for i in images
             if i["natural"] and i["shown"] / i["natural"] < MIN_FIGURE_SCALE]
    assert not small, (
        f"{chapter}: figures shown at less than {MIN_FIGURE_SCALE:.2f} of their size on a "
        f"390-px phone (10-pt text below 9 px): {small}"
    )
