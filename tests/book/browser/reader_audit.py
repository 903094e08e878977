"""Reader checks that the chapters and docstrings of other authors do not pass yet.

Run ``python -m tests.book.browser.reader_audit`` after ``make site``: it lists, per page,
cross-references that link nowhere, words of the book's making, and images whose alt text
is a file path. The pages that pass all three are in ``test_reader.py`` (its ``CHECKED``),
which runs the same checks (reader_checks.py) on them in the test suite; this audit covers
the rest.
"""

from __future__ import annotations

from tests.book.browser.reader_checks import (
    check_alt_text,
    check_cross_references,
    check_no_words_of_the_book_s_making,
)
from tests.book.browser.test_reader import CHECKED
from tests.book.toc import toc_files

PAGES = [f + ".html" for f in toc_files() if f + ".html" not in CHECKED]


def main() -> int:
    checks = [("references that link nowhere", check_cross_references,
               PAGES + ["genindex.html", "py-modindex.html"]),
              ("words of the book's making", check_no_words_of_the_book_s_making, PAGES),
              ("images whose alt text is a path", check_alt_text, PAGES)]
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
