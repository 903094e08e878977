"""Every repository file a page cites opens from the site (``book/_ext/repository_files.py``).

Read from the built pages: a path such as ``tests/mlcbook/test_limo.py::test_x`` in a
page's text is a link; the linked copy exists, is the repository file's text, and holds
the anchor of the cited test.
"""

from __future__ import annotations

import html
import re
from urllib.parse import urljoin, urlparse

import pytest

from mlcrepro._paths import project_root

from .conftest import SITE

_PATH = re.compile(r"(?<![\w/.-])(?:tests|notes|benchmarks|repro|lib|tools)/[A-Za-z0-9_/.-]+\.(?:py|md|csv|json|m|txt)")
_LINK = re.compile(r'<a [^>]*href="([^"]*_repository/[^"]*)"[^>]*>(.*?)</a>', re.S)
PAGES = sorted(p for p in (SITE / "book").rglob("*.html"))


def _text_outside_links(page: str) -> str:
    no_links = re.sub(r"<a [^>]*>.*?</a>", " ", page, flags=re.S)
    no_attrs = re.sub(r"<[^>]+>", " ", no_links)
    return html.unescape(no_attrs)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(SITE)))
def test_cited_files_are_links_to_their_published_copies(page):
    body = page.read_text("utf-8")
    assert not _PATH.findall(_text_outside_links(body))
    for href, shown in _LINK.findall(body):
        url = urlparse(urljoin(f"http://site/{page.relative_to(SITE).as_posix()}", href))
        copy = SITE / url.path.lstrip("/")
        assert copy.is_file(), href
        published = html.unescape(re.sub(r"<[^>]+>", "", copy.read_text("utf-8")))
        cited = re.sub(r"<[^>]+>", "", shown).split("::")[0]
        source = (project_root() / cited).read_text("utf-8")
        longest = max(source.splitlines(), key=len)
        assert longest in published  # the copy is the file's own text
        if url.fragment:
            assert f'id="{url.fragment}"' in copy.read_text("utf-8") or \
                f'name="{url.fragment}"' in copy.read_text("utf-8")


def test_some_page_cites_a_file():
    """The check above has something to check (the chapters do cite their tests)."""
    assert sum(len(_LINK.findall(p.read_text("utf-8"))) for p in PAGES) >= 5
