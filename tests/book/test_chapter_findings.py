"""What the reproduction found, as the Learn chapters and the front page say it, quotes the
saved ledgers.

A Learn chapter gives its one sentence with the ``reproduction-finding`` directive
(``book/_ext/reproduction_finding.py``), which reads the saved ledger when the site is
built; the front page glues one line per paper (:mod:`mlcrepro.outcomes`) when it is
executed.  These tests check, independently of the functions that write them, that every
count quoted is the count of the ledgers' CSV files, and that each chapter with a ledger
of its own uses the directive (and no typed or glued count of its own).
"""

import csv
import json
import re
from collections import Counter

import pytest

from mlcrepro._paths import project_root
from mlcrepro.ledger import load_ledgers
from mlcrepro.outcomes import outcomes_markdown, paper_outcomes
from mlcrepro.papers import LEDGERS, finding_markdown

from .test_learn_chapters import learn_chapters

BOOK = project_root() / "book"

#: how the sentences name each status and cause kind (the glossary's words), and the
#: CSV's key for each
WORDS = {
    "reproduced": "reproduced",
    "within the paper's spread": "within spread",
    "within our spread": "within our spread",
    "qualitative": "qualitative",
    "fragile": "fragile",
    "differs": "differs",
    "paper error": "paper error",
    "underspecified": "underspecified",
    "material unavailable": "material unavailable",
    "tested": "tested",
    "unknown": "unknown",
}


def _plain(text: str) -> str:
    """A MyST sentence as words: roles by the text they show, emphasis dropped."""
    text = re.sub(r"\{[a-z:]+\}`([^`<]*?)\s*(?:<[^>]*>)?`", r"\1", text)
    return text.replace("*", "").replace("**", "")


def _quoted(text: str) -> tuple[int, Counter]:
    """The row total and the count per status / cause kind a sentence quotes."""
    plain = _plain(text)
    total = re.search(r"Of the (\d+) ledger rows", plain)
    assert total, text
    phrase = "|".join(re.escape(w) for w in sorted(WORDS, key=len, reverse=True))
    counts: Counter = Counter()
    for words, value in re.findall(rf"(?<!cause )\b({phrase}) for (\d+)", plain):
        counts[WORDS[words]] += int(value)
    for value, words in re.findall(rf"\b(\d+) (?:names? )?the cause ({phrase})", plain):
        counts[WORDS[words]] += int(value)
    return int(total.group(1)), counts


def _csv_counts(name: str) -> tuple[int, Counter]:
    with open(BOOK / "_ledgers" / f"{name}.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    counts = Counter(r["status"] for r in rows)
    counts.update(r["cause"] for r in rows if r["status"] == "differs" and r["cause"])
    return len(rows), counts


def test_quoted_reads_a_sentence_by_hand():
    text = (
        "Of the **7** ledger rows, the status is {term}`reproduced` for **1**, "
        "{term}`within the paper's spread` for **2** and {term}`differs` for **4**. Of "
        "the rows that differ, **3** name the cause {term}`tested` and **1** the cause "
        "{term}`unknown`."
    )
    n, counts = _quoted(text)
    assert n == 7
    assert counts == Counter(
        {"reproduced": 1, "within spread": 2, "differs": 4, "tested": 3, "unknown": 1}
    )


@pytest.mark.parametrize("name", LEDGERS)
def test_the_finding_quotes_the_saved_ledger(name):
    text = finding_markdown(name)
    assert _quoted(text) == _csv_counts(name)
    assert "{doc}`/book/reproduce_" in text  # and it links the paper's Reproduce page


def _learn_with_ledger() -> list[str]:
    return [d for d in learn_chapters() if d.split("/")[-1] in LEDGERS]


@pytest.mark.parametrize("doc", _learn_with_ledger(), ids=lambda d: d.split("/")[-1])
def test_a_learn_chapter_says_what_the_reproduction_found_with_the_directive(doc):
    name = doc.split("/")[-1]
    text = (project_root() / f"{doc}.md").read_text(encoding="utf-8")
    found = re.findall(r"^```\{reproduction-finding\}\s*(\S+)\s*$", text, re.M)
    assert found == [name], (
        f"{doc}.md: one ```{{reproduction-finding}} {name}``` wanted, found {found}"
    )
    # no count typed or glued beside it: the directive is the chapter's one sentence
    assert not re.search(r"Of the \*\*\d+\*\* ledger rows", text)
    assert "findings_sentence" not in text and "-findings" not in text


def _glued(name: str, key: str) -> dict:
    """The mime bundle glued under ``key`` in ``book/NAME.ipynb`` (exactly one)."""
    nb = json.loads((BOOK / f"{name}.ipynb").read_text(encoding="utf-8"))
    found = [
        out
        for cell in nb["cells"]
        if cell["cell_type"] == "code"
        for out in cell.get("outputs", [])
        if out.get("metadata", {}).get("scrapbook", {}).get("name") == key
    ]
    assert len(found) == 1, f"{name}.ipynb: expected one glued output {key!r}, got {len(found)}"
    prefix = found[0]["metadata"]["scrapbook"].get("mime_prefix", "")
    return {k.removeprefix(prefix): v for k, v in found[0]["data"].items()}


def test_the_front_page_glues_each_papers_counts():
    text = _glued("intro", "intro-outcomes")["text/markdown"]
    assert text == outcomes_markdown(paper_outcomes(load_ledgers()))
    assert "```{glue:md} intro-outcomes" in (BOOK / "intro.md").read_text(encoding="utf-8")
    # independently: each line's first count is its paper's rows, and they add up to
    # every row of the saved CSVs
    totals = [int(n) for n in re.findall(r"^\* .*?\*\*(\d+)\*\*", text, re.M)]
    assert sum(totals) == sum(_csv_counts(name)[0] for name in LEDGERS)
