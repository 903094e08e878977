"""The reader's checks of a built page, read from its HTML file (no browser needed).

test_reader.py runs them on the pages that pass them (its ``CHECKED``); reader_audit.py
lists what fails them on the other pages.  Each page is parsed once per process.
"""

from __future__ import annotations

import functools
import re
from html.parser import HTMLParser

from .conftest import SITE

PLACEHOLDERS = ("github.com/mlcbook/mlcbook", "example.com", "example.org", "TODO", "FIXME",
                "XXX")
DEVELOPMENT = re.compile(r"\b(issue|issues|pending|not yet merged|earlier version)\b", re.I)
_PATHLIKE = re.compile(r"(^|/)[\w.-]+\.(png|jpe?g|svg|gif)$|^[0-9a-f]{16,}|^_build/|^\s*$", re.I)
_VOID = ("br", "img", "meta", "link", "input", "hr", "source")


class Page(HTMLParser):
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
        if tag in _VOID:
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
        if tag in _VOID:
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


@functools.cache
def parse(page: str) -> Page:
    """The parsed HTML of ``page`` (a path below the built site); read, do not change."""
    path = SITE / page
    assert path.exists(), f"{page} was not built (run `make site`)"
    p = Page()
    p.feed(path.read_text(encoding="utf-8"))
    return p


def images_without_description(p: Page) -> list[tuple[str, str | None]]:
    """(end of src, alt) of every image but the logo whose alt text is missing or a path."""
    return [(img.get("src", "")[-40:], img.get("alt")) for img in p.images
            if "logo" not in (img.get("class") or "")
            and (img.get("alt") is None or _PATHLIKE.search(img.get("alt") or ""))]


def check_cross_references(page: str) -> None:
    """AssertionError naming the cross-references of ``page`` that link nowhere."""
    p = parse(page)
    assert not p.unresolved, f"{page}: references that link nowhere: {sorted(set(p.unresolved))}"


def check_no_words_of_the_book_s_making(page: str) -> None:
    """AssertionError naming the words of the book's making in the text of ``page``."""
    text = " ".join(parse(page).text)
    hits = sorted({m.group(0).lower() for m in DEVELOPMENT.finditer(text)})
    context = [text[max(0, m.start() - 50):m.end() + 30].replace("\n", " ")
               for m in DEVELOPMENT.finditer(text)][:3]
    assert not hits, f"{page}: {hits}, e.g. {context}"


def check_alt_text(page: str) -> None:
    """AssertionError naming the images of ``page`` whose alt text is a path or missing."""
    bad = images_without_description(parse(page))
    assert not bad, f"{page}: {len(bad)} images whose alt text is a path or missing: {bad[:4]}"
