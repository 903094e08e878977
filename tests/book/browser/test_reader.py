"""What a reader finds on every built page, read from the HTML files (no browser needed).

- no placeholder address and no link to an unconfigured repository;
- numbered captions: each chapter's exercises (and its figures and tables, when numbered)
  carry the chapter's number ("Exercise 2.1"), equations read "(2.3)".

Three more checks (cross-references that link nowhere, words of the book's making, alt
text that is a file path) are in ``reader_audit.py``, which lists what fails them.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from ..toc import toc_files
from .conftest import SITE

PAGES = [f + ".html" for f in toc_files()]
CHAPTERS = ["measures", "losses", "datasets", "dependence", "knn", "blended", "limo",
            "own_predictions"]
PLACEHOLDERS = ("github.com/mlcbook/mlcbook", "example.com", "example.org", "TODO", "FIXME",
                "XXX")
DEVELOPMENT = re.compile(r"\b(issue|issues|pending|not yet merged|earlier version)\b", re.I)


class _Page(HTMLParser):
    """Collects unresolved xrefs, links, images and the visible text of the article."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.in_a = 0
        self.in_article = 0
        self.skip = 0
        self.unresolved: list[str] = []
        self._xref: list[str] | None = None
        self.hrefs: list[str] = []
        self.images: list[dict] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = a.get("class") or ""
        if tag in ("br", "img", "meta", "link", "input", "hr", "source"):
            if tag == "img":
                self.images.append(a)
            return
        self.stack.append(tag)
        if tag == "a":
            self.in_a += 1
            if a.get("href"):
                self.hrefs.append(a["href"])
        if tag == "article" or (tag == "main"):
            self.in_article += 1
        if tag in ("script", "style"):
            self.skip += 1
        if tag == "code" and "xref" in cls.split() and not self.in_a:
            self._xref = []

    def handle_endtag(self, tag):
        if tag in ("br", "img", "meta", "link", "input", "hr", "source"):
            return
        while self.stack:
            t = self.stack.pop()
            if t == "a":
                self.in_a -= 1
            if t in ("article", "main"):
                self.in_article -= 1
            if t in ("script", "style"):
                self.skip -= 1
            if t == "code" and self._xref is not None:
                self.unresolved.append("".join(self._xref))
                self._xref = None
            if t == tag:
                break

    def handle_data(self, data):
        if self._xref is not None:
            self._xref.append(data)
        if self.in_article and not self.skip:
            self.text.append(data)


def _parse(page: str) -> _Page:
    path = SITE / page
    assert path.exists(), f"{page} was not built (run `make site`)"
    p = _Page()
    p.feed(path.read_text(encoding="utf-8"))
    return p


@pytest.mark.parametrize("page", PAGES + ["genindex.html", "search.html"])
def test_no_placeholder_address(page):
    html = (SITE / page).read_text(encoding="utf-8")
    found = [ph for ph in PLACEHOLDERS if ph in html]
    assert not found, f"{page}: placeholder text {found}"
    p = _parse(page)
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
