"""Reader checks that the chapters and docstrings of other authors do not pass yet.

Run ``python -m tests.book.browser.reader_audit`` after ``make site``: it lists, per page,
cross-references that link nowhere, words of the book's making, and images whose alt text
is a file path. The pages that pass all three are in ``test_reader.py`` (its ``CHECKED``),
which runs the same checks on them in the test suite; this audit covers the rest.
"""


from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from tests.book.browser.conftest import SITE
from tests.book.browser.test_reader import CHECKED
from tests.book.toc import toc_files

PAGES = [f + ".html" for f in toc_files() if f + ".html" not in CHECKED]
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


@pytest.mark.parametrize("page", PAGES + ["genindex.html", "py-modindex.html"])
def test_every_cross_reference_links_somewhere(page):
    p = _parse(page)
    assert not p.unresolved, f"{page}: references that link nowhere: {sorted(set(p.unresolved))}"


@pytest.mark.parametrize("page", PAGES)
def test_no_words_of_the_book_s_making(page):
    text = " ".join(_parse(page).text)
    hits = sorted({m.group(0).lower() for m in DEVELOPMENT.finditer(text)})
    context = [text[max(0, m.start() - 50):m.end() + 30].replace("\n", " ")
               for m in DEVELOPMENT.finditer(text)][:3]
    assert not hits, f"{page}: {hits}, e.g. {context}"


_PATHLIKE = re.compile(r"(^|/)[\w.-]+\.(png|jpe?g|svg|gif)$|^[0-9a-f]{16,}|^_build/|^\s*$", re.I)


@pytest.mark.parametrize("page", PAGES)
def test_images_have_descriptive_alt_text(page):
    p = _parse(page)
    bad = [(img.get("src", "")[-40:], img.get("alt")) for img in p.images
           if "logo" not in (img.get("class") or "")
           and (img.get("alt") is None or _PATHLIKE.search(img.get("alt") or ""))]
    assert not bad, f"{page}: {len(bad)} images whose alt text is a path or missing: {bad[:4]}"


def main() -> int:
    checks = [("references that link nowhere", test_every_cross_reference_links_somewhere,
               PAGES + ["genindex.html", "py-modindex.html"]),
              ("words of the book's making", test_no_words_of_the_book_s_making, PAGES),
              ("images whose alt text is a path", test_images_have_descriptive_alt_text, PAGES)]
    failed = 0
    for what, check, pages in checks:
        print(f"== {what}")
        for page in pages:
            try:
                check(page)
            except AssertionError as e:
                failed += 1
                print("  ", str(e).splitlines()[0][:400])
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
