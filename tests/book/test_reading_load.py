"""The course plan (book/instructors.md): each session's reading load is derived from the
pages it names (book/_ext/reading_load.py) and counts what those pages print (tables,
ledgers, collapsed sections) besides their prose; the report's rubric adds up."""

from __future__ import annotations

import json
import re
import sys

import pytest

from mlcrepro._paths import project_root

ROOT = project_root()
sys.path.insert(0, str(ROOT / "book" / "_ext"))
from reading_load import count, describe, printed_words, reading  # noqa: E402

from .toc import toc_files  # noqa: E402


def _notebook(tmp_path, outputs, tags=()):
    cell = {"cell_type": "code", "metadata": {"tags": list(tags)}, "source": "x",
            "outputs": outputs, "execution_count": 1}
    path = tmp_path / "page.ipynb"
    path.write_text(json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4,
                                "nbformat_minor": 5}))
    return path


def test_printed_words_count_collapsed_html_and_not_numbers(tmp_path):
    html = ("<details><summary>All rows</summary><table><tr><td>alpha</td>"
            "<td>0.25</td><td>beta&nbsp;gamma</td></tr></table></details>"
            "<script>var hidden = 1;</script>")
    nb = _notebook(tmp_path, [{"output_type": "display_data",
                               "data": {"text/html": html, "text/plain": "<HTML object words>"},
                               "metadata": {}}])
    # the HTML (not its plain-text stand-in), tags, entities and scripts left out:
    # "All rows alpha beta gamma"
    assert printed_words(nb) == 5


def test_printed_words_skip_removed_outputs_and_count_streams(tmp_path):
    out = [{"output_type": "stream", "name": "stdout", "text": ["three words here\n"]}]
    assert printed_words(_notebook(tmp_path, out)) == 3
    assert printed_words(_notebook(tmp_path, out, tags=["remove-output"])) == 0


def test_reading_adds_up_the_pages_it_names():
    book = ROOT / "book"
    prose, printed = reading(book, ["intro", "measures"])
    assert prose == count(book / "intro.md")[0] + count(book / "measures.md")[0]
    assert printed == printed_words(book / "intro.ipynb") + printed_words(book / "measures.ipynb")
    with pytest.raises(ValueError, match="names must be pages of the book"):
        reading(book, ["no_such_page"])


def test_describe_rounds_and_names_the_printed_part():
    assert describe(1234, 0) == "about 1,200 words, 10 min"
    assert describe(1234, 5678).endswith("and 5,700 more printed in their tables and "
                                         "collapsed sections")


def test_every_session_names_its_reading_through_the_role():
    """Each "Read before" line of the course plan names its pages with ``{reading}``, so
    its load is the sum of those pages, and names only pages of the book."""
    text = (ROOT / "book" / "instructors.md").read_text(encoding="utf-8")
    sessions = re.findall(r"^### Session \d+", text, re.M)
    lines = re.findall(r"^\*Read before:\*(.*?)(?=\n\n)", text, re.M | re.S)
    assert len(lines) == len(sessions) >= 8
    pages = {d.split("/")[-1] for d in toc_files()}
    for line in lines:
        assert "{doc}" not in line and "{{" not in line, f"a load typed by hand: {line!r}"
        names = re.findall(r"\{reading\}`([^`]+)`", line)
        assert len(names) == 1, f"no reading role in {line!r}"
        unknown = set(names[0].split()) - pages
        assert not unknown, f"pages not in the book: {unknown}"


def test_the_rubric_of_the_report_adds_up_to_its_total():
    """The course plan's rubric grades the project's report out of the total it states."""
    text = (ROOT / "book" / "instructors.md").read_text(encoding="utf-8")
    section = text.split("## Grading the project's report", 1)[1].split("\n## ", 1)[0]
    total = int(re.search(r"out of (\d+)", section).group(1))
    points = [int(n) for n in re.findall(r"^- \*\*[^*]+\((\d+) points\)\.\*\*", section, re.M)]
    assert len(points) >= 4 and sum(points) == total, (points, total)
