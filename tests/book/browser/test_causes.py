"""Every cause one click from its number, read from the built Reproduce pages; and one
collapsed-section style whose summary line says how much a section holds.

* In a table of a Reproduce page, a verdict that does not agree (✘, ±, ~) links to a
  ledger row on the same page, by its claim id, and names the row's cause when it has one.
* Every ledger row shows its claim ids; the first row of an id holds the anchor.
* Every collapsed section (``<details>``) of a reading page is one of the book's two
  kinds (a dropdown, a collapsed table or ledger) and its summary counts what it holds.
"""

from __future__ import annotations

import csv
import html
import re

import pytest

from mlcrepro._paths import project_root

from ..toc import toc_files
from .conftest import SITE

REPRODUCE = sorted(d for d in toc_files() if d.startswith("book/reproduce_"))
READING = [d for d in toc_files() if not d.startswith("book/api")]
_CELL = re.compile(r"<td[^>]*>(.*?)</td>", re.S)
_LINK = re.compile(r"<a class=.ledger-link. href=.#([A-Z]{2}\d{3}).>\(([^<]*)\)</a>")


def _rows() -> dict[str, dict[str, str]]:
    """The saved ledgers' rows by claim id (the first row of an id)."""
    out: dict[str, dict[str, str]] = {}
    for path in sorted((project_root() / "book" / "_ledgers").glob("*.csv")):
        with path.open(encoding="utf-8") as f:
            for row in csv.DictReader(f):
                for cid in row["claim_ids"].split():
                    out.setdefault(cid, row)
    return out


ROWS = _rows()


def _page(doc: str) -> str:
    path = SITE / f"{doc}.html"
    assert path.is_file(), f"{path} is not built: run `make site` first"
    return path.read_text("utf-8")


@pytest.mark.parametrize("doc", REPRODUCE)
def test_a_verdict_that_does_not_agree_links_its_ledger_row(doc):
    page = _page(doc)
    anchors = set(re.findall(r'id="([A-Z]{2}\d{3})"', page))
    verdicts = [
        html.unescape(re.sub(r"<[^>]+>", "", c)).replace("\xa0", " ")
        for table in re.findall(r"<table[^>]*dataframe compact.*?</table>", page, re.S)
        for c in _CELL.findall(table)
    ]
    unlinked = [v for v in verdicts if v.startswith(("✘ differs", "± within")) and "(" not in v]
    assert unlinked == [], "a verdict without its cause and link"
    links = _LINK.findall(page)
    for cid, shown in links:
        assert cid in anchors, f"{cid} links to no ledger row on the page"
        assert shown.endswith(cid)
        kind = ROWS[cid]["cause"]
        # the row's own cause; a table under another reading than the ledger's links the
        # row of its printed number without naming the ledger reading's cause
        assert shown in (f"{kind}, {cid}" if kind else cid, cid)
    if any(v.startswith("✘ differs") for v in verdicts):
        assert links  # not vacuous where something differs


@pytest.mark.parametrize("doc", [*REPRODUCE, "book/ledgers"])
def test_every_ledger_row_shows_its_claim_ids(doc):
    page = _page(doc)
    for row in re.findall(r"<tr id=\"ledger-[^\"]+\">(.*?)</tr>", page, re.S):
        first = _CELL.search(row)
        assert first and re.search(r'class="claim-id" href="#[A-Z]{2}\d{3}"', first.group(1))
    ids = re.findall(r' id="([A-Z]{2}\d{3})"', page)
    assert len(ids) == len(set(ids))  # an anchor is unique on its page


_DETAILS = re.compile(r"<details([^>]*)>\s*<summary[^>]*>(.*?)</summary>", re.S)
_COUNTED = re.compile(r"\d[\d,]* (?:rows?|tables?|figures?|words?)\b")


@pytest.mark.parametrize("doc", READING)
def test_every_collapsed_section_is_of_one_style_and_counts_what_it_holds(doc):
    article = _page(doc).split("<main", 1)[-1]  # not the theme's sidebar toggles
    for attrs, summary in _DETAILS.findall(article):
        classes = re.search(r'class=["\']([^"\']*)', attrs)
        kinds = set(classes.group(1).split()) if classes else set()
        assert kinds & {"sd-dropdown", "collapsed-section"}, f"a <details> of another style: {attrs}"
        text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", summary)).split())
        assert _COUNTED.search(text), f"the summary {text!r} does not say how much it holds"
