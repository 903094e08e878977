"""No reading page of the site names a repository path, a result table or test by file,
or a machine path (:mod:`tests.book.prose_paths`): read from the built pages.

The reading pages are those of the PDF: the table of contents without the API reference
(whose docstrings document the code, paths included). Code a reader runs (a code cell's
input) is not read, and what its code names is allowed in its output
(:func:`tests.book.prose_paths.allowed_in_code`): those are the reader's own files.
"""

from __future__ import annotations

import pytest

from ..prose_paths import allowed_in_code, reading_text, workshop_paths
from ..toc import toc_files
from .conftest import SITE

READING = [d for d in toc_files() if not d.startswith("book/api")]


@pytest.mark.parametrize("doc", READING)
def test_no_workshop_path_in_the_reading_text(doc):
    page = SITE / f"{doc}.html"
    assert page.is_file(), f"{page} is not built: run `make site` first"
    found = workshop_paths(reading_text(page.read_text("utf-8")))
    assert [p for p in found if p not in allowed_in_code()] == []


def test_the_reading_text_holds_the_ledgers():
    """Not vacuous: the ledgers' notes are part of what is read (a cause of Park & Read)."""
    text = reading_text((SITE / "book" / "reproduce_park_read2018.html").read_text("utf-8"))
    assert "Hypotheses for what differs" in text and "PR067" in text
