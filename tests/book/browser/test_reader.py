"""What a reader finds on every built page, read from the HTML files (no browser needed).

- no placeholder address and no link to an unconfigured repository;
- numbered captions: each chapter's exercises (and its figures and tables, when numbered)
  carry the chapter's number ("Exercise 2.1"), equations read "(2.3)";
- on every page: no cross-reference that renders as code but links nowhere (a docstring's
  ``:func:`name``` whose object is not documented, a stale module path);
- on the pages of :data:`CHECKED`: no words of the book's making, no image whose alt text
  is a file path; in the chapters of
  :data:`FIGURED`, every image is a numbered figure ("Figure 4.2") and there are at least
  five exercises.

The checks are reader_checks.py's; ``reader_audit.py`` runs the same three checks on the pages not yet in :data:`CHECKED` and
lists what fails them.
"""

from __future__ import annotations

import re

import pytest

from ..toc import toc_files
from .conftest import SITE
from .reader_checks import (
    PLACEHOLDERS,
    Page,
    check_alt_text,
    check_cross_references,
    check_no_words_of_the_book_s_making,
    images_without_description,
    parse,
)

PAGES = [f + ".html" for f in toc_files()]
CHAPTERS = ["measures", "losses", "datasets", "dependence", "knn", "blended", "limo",
            "own_predictions"]
#: every page of the API reference (library and reproduction)
API = [p for p in PAGES if p.startswith("book/api/")]
#: chapters whose images are all numbered, described figures, with at least five exercises
FIGURED = ["measures", "losses", "datasets", "dependence", "knn", "limo", "own_predictions"]
#: pages that pass the three reader checks (reader_audit.py lists the others)
CHECKED = [f"book/{c}.html" for c in [*FIGURED, "intro", "get_the_code", "glossary", "ledgers", "instructors",
                                     "references"]] + API


@pytest.mark.parametrize("page", PAGES + ["genindex.html", "search.html"])
def test_no_placeholder_address(page):
    html = (SITE / page).read_text(encoding="utf-8")
    found = [ph for ph in PLACEHOLDERS if ph in html]
    assert not found, f"{page}: placeholder text {found}"
    p = parse(page)
    assert all("mlcbook/mlcbook" not in h for h in p.hrefs), f"{page}: placeholder repository"


@pytest.mark.parametrize("k,chapter", list(enumerate(CHAPTERS, start=1)))
def test_captions_carry_the_chapter_number(k, chapter):
    html = (SITE / "book" / f"{chapter}.html").read_text(encoding="utf-8")
    numbers = re.findall(r'class="caption-number">\s*(\w+)\s+([0-9.]+)', html)
    exercises = [n for kind, n in numbers if kind == "Exercise"]
    assert len(exercises) >= 3, f"{chapter}: {len(exercises)} numbered exercises"
    wrong = [f"{kind} {n}" for kind, n in numbers if not n.startswith(f"{k}.")]
    assert not wrong, f"{chapter} is chapter {k}, but its captions read {wrong}"
    eqnos = re.findall(r'<span class="eqno">\(([0-9.]+)\)', html)
    assert all(e.startswith(f"{k}.") for e in eqnos), f"{chapter}: equation numbers {eqnos[:5]}"


@pytest.mark.parametrize("page", PAGES + ["genindex.html", "py-modindex.html"])
def test_every_cross_reference_links_somewhere(page):
    check_cross_references(page)


def test_the_cross_reference_check_sees_unlinked_code():
    p = Page()
    p.feed('<main><p><a href="x.html#f"><code class="xref py py-func">f()</code></a> and '
           '<code class="xref py py-data">TIE_TOL</code> and <code class="literal">x</code>'
           '</p></main>')
    assert p.unresolved == ["TIE_TOL"]


@pytest.mark.parametrize("page", CHECKED)
def test_no_words_of_the_book_s_making(page):
    check_no_words_of_the_book_s_making(page)


@pytest.mark.parametrize("page", CHECKED)
def test_images_have_descriptive_alt_text(page):
    check_alt_text(page)


def test_the_alt_text_check_sees_paths():
    p = Page()
    p.feed('<main><img src="a/b.png" alt="../_images/0123456789abcdef0123.png">'
           '<img src="c.png"><img src="d.png" alt="Two line plots of loss against k"></main>')
    assert [alt for _, alt in images_without_description(p)] == [
        "../_images/0123456789abcdef0123.png", None]


@pytest.mark.parametrize("chapter", FIGURED)
def test_every_image_is_a_numbered_figure(chapter):
    k = CHAPTERS.index(chapter) + 1
    html = (SITE / "book" / f"{chapter}.html").read_text(encoding="utf-8")
    article = html[html.index("<main"):html.index("</main>")]
    figures = re.findall(r"<figure\b.*?</figure>", article, re.S)
    numbered = [f for f in figures
                if re.search(rf'class="caption-number">\s*Figure {k}\.\d+', f) and "<img" in f]
    images = len(re.findall(r"<img\b", article))
    assert images == sum(f.count("<img") for f in numbered), (
        f"{chapter}: {images} images, {len(numbered)} numbered figures (Figure {k}.n)")


@pytest.mark.parametrize("chapter", FIGURED)
def test_five_exercises_or_more(chapter):
    html = (SITE / "book" / f"{chapter}.html").read_text(encoding="utf-8")
    numbers = re.findall(r'class="caption-number">\s*Exercise\s+([0-9.]+)', html)
    assert len(numbers) >= 5, f"{chapter}: {len(numbers)} numbered exercises (five wanted)"
