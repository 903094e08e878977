"""What a reader on a phone and a reader who wants the material see.

At 390 px (a phone) no element of a page reaches beyond the viewport unless it sits inside a
declared scroll container (``overflow-x: auto`` or ``scroll``), the page itself does not
scroll sideways, and a table that does not fit scrolls with a visible cue; a display
equation fits or scrolls under a cue, no table cell breaks a word letter by letter, a
verdict column stays in view, and figures keep readable type (>= 8 px). These are read
from each page's one visit, narrowed to a phone's width after its desktop facts were read
(visit.py). Every chapter offers its notebook (with outputs) for download.
"""

from __future__ import annotations

import os
import urllib.request

import pytest
import yaml

from mlcrepro._paths import project_root

from .conftest import SITE, report_height, report_phone
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
    figure_px = [figure_text_px(i) for i in phone.figures if i["natural"]]
    report_phone(page, {
        "wide_equations": len(phone.wide_equations),
        "equations_without_cue": len(phone.equation_problems),
        "broken_cells": len(phone.broken_words),
        "verdict_tables": phone.verdict_tables,
        "verdicts_hidden": len(phone.hidden_verdicts),
        "figure_px": round(min(figure_px), 1) if figure_px else None,
    })
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


@pytest.mark.parametrize("page", PAGES)
def test_display_equations_fit_a_phone_or_scroll_with_a_cue(page_visit, page):
    """At 390 px a display equation wider than the room it has scrolls in its own box
    under the "scroll sideways" line (book/_ext/scroll_hint.py): none is cut."""
    phone = page_visit(page).phone
    assert not phone.equation_problems, (
        f"{page} at 390 px: {len(phone.equation_problems)} of {len(phone.wide_equations)} wide "
        f"display equations are cut or scroll without a cue: {phone.equation_problems[:5]}")


@pytest.mark.parametrize("page", PAGES)
def test_no_table_breaks_a_word_letter_by_letter_on_a_phone(page_visit, page):
    """At 390 px no table cell is narrower than a word it holds that would fit the column
    (the cell breaks it across lines: "n a m e"); a table whose words do not fit scrolls."""
    broken = page_visit(page).phone.broken_words
    assert not broken, f"{page} at 390 px: {len(broken)} cells break a word: {broken[:5]}"


@pytest.mark.parametrize("page", PAGES)
def test_verdict_columns_stay_in_view_on_a_phone(page_visit, page):
    """At 390 px the verdict column of a paper-against-ours table is in view (it sticks
    to the right edge of its scrolling box; a ledger stacked into cards shows it in each)."""
    hidden = page_visit(page).phone.hidden_verdicts
    assert not hidden, f"{page} at 390 px: verdict column out of view in {hidden[:5]}"


#: pages whose figures keep readable type on a phone: every page of the book with figures
#: (the plotting functions are checked for >= 9 px text at this width in tests/mlcbook)
READABLE_FIGURES = [p for p in PAGES if p.startswith("book/") and "/api/" not in p]
#: the smallest type in the book's figures, in points: the library's and the reproduction's
#: plots write 10 pt (TEXT_PT, checked when the figure is drawn in tests/mlcbook), the
#: chapters' own figures matplotlib's default 10 pt and, at the least, the dependence
#: chapter's 9-pt legend.  A figure is saved at 100 dpi and shown at its declared width
#: (1 pt = 100/72 CSS px there); shrunk to ``shown / natural`` of it, its type is
#: ``9 pt * 100/72 * shown / natural`` CSS px
MIN_FIGURE_PT = 9.0
#: the smallest figure text a phone reader should have to read, in CSS px
MIN_FIGURE_TEXT_PX = 8.0


def figure_text_px(image: dict) -> float:
    """The smallest text of a figure as shown, in CSS px (``image`` from visit.py)."""
    return MIN_FIGURE_PT * 100 / 72 * image["shown"] / image["natural"]


@pytest.mark.parametrize("page", READABLE_FIGURES)
def test_figures_are_not_shrunk_below_readable_type_on_a_phone(page_visit, page):
    images = page_visit(page).phone.figures
    small = [(i["src"], round(figure_text_px(i), 1)) for i in images
             if i["natural"] and figure_text_px(i) < MIN_FIGURE_TEXT_PX]
    assert not small, (
        f"{page}: figures whose {MIN_FIGURE_PT:g}-pt text is shown below "
        f"{MIN_FIGURE_TEXT_PX:g} px on a 390-px phone (src, px): {small}"
    )
