"""The "What this chapter found" boxes and the intro quote their ledgers' counts.

Most chapters do not type the counts: a hidden cell glues
:func:`mlcrepro.summary.findings_sentence` of the ledger the chapter has just built
(myst-nb ``glue``), and the box shows it with ``{glue:md}``.  These tests check that the
box shows the glued text, that the text saved in the notebook equals the function of
the saved ledger, and -- independently of the function -- that every count it quotes is
the count of the ledger's CSV.  The chapter that still types its sentence (LIMO) is
checked by reading the sentence.
"""

import csv
import json
import re
from collections import Counter

import pandas as pd
import pytest

from mlcrepro._paths import project_root
from mlcrepro.ledger import load_ledgers
from mlcrepro.park_read2018 import blended_evidence
from mlcrepro.summary import findings_sentence, papers_findings

BOOK = project_root() / "book"
#: chapters whose box glues its counts
GLUED = ["measures", "losses", "datasets", "dependence", "knn", "blended", "limo"]
#: the chapters of the intro's summary, in its order
INTRO_CHAPTERS = ["measures", "losses", "datasets", "dependence", "knn", "blended", "limo"]
#: how the sentence names each status and cause kind (the CSV's words)
WORDS = {
    "*reproduced*": "reproduced",
    "*within the paper's spread*": "within spread",
    "*within our spread*": "within our spread",
    "*qualitative*": "qualitative",
    "*fragile*": "fragile",
    "*differ*": "differs",
    "an error of the paper": "paper error",
    "what the paper leaves open": "underspecified",
    "material not available to us": "material unavailable",
    "a cause tested by a computation": "tested",
    "a cause not known": "unknown",
}


def _box(name: str) -> str:
    text = (BOOK / f"{name}.md").read_text(encoding="utf-8")
    m = re.search(r":::\{admonition\} What this chapter found\n(.*?)\n:::", text, re.S)
    assert m, f"{name}.md has no 'What this chapter found' box"
    return m.group(1)


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


def _quoted(text: str) -> tuple[int, Counter]:
    """The row total and the count per status / cause kind a sentence quotes."""
    total = re.search(r"Of the \*\*(\d+)\*\* ledger rows", text)
    assert total, text
    phrase = "|".join(re.escape(w) for w in WORDS)
    counts: Counter = Counter()
    for value, words in re.findall(rf"\*\*(\d+)\*\*[^*]*?({phrase})", text):
        counts[WORDS[words]] += int(value)
    return int(total.group(1)), counts


def _csv_counts(rows: list[dict]) -> tuple[int, Counter]:
    counts = Counter(r["status"] for r in rows)
    counts.update(r["cause"] for r in rows if r["status"] == "differs" and r["cause"])
    return len(rows), counts


def _ledger_rows(name: str) -> list[dict]:
    with open(BOOK / "_ledgers" / f"{name}.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize("name", GLUED)
def test_box_shows_the_glued_counts(name):
    box = _box(name)
    assert f"```{{glue:md}} {name}-findings\n:format: myst\n```" in box
    # no count typed beside it
    assert not re.search(r"Of the \*\*\d+\*\*", box)


@pytest.mark.parametrize("name", GLUED)
def test_glued_counts_equal_the_saved_ledger(name):
    text = _glued(name, f"{name}-findings")["text/markdown"]
    assert text == findings_sentence(pd.read_csv(BOOK / "_ledgers" / f"{name}.csv"))
    # independently of findings_sentence: every count quoted is the CSV's, none left out
    assert _quoted(text) == _csv_counts(_ledger_rows(name))


def test_quoted_reads_a_sentence_by_hand():
    text = (
        "Of the **7** ledger rows, **1** is *reproduced*, **2** *within the paper's spread* "
        "and **4** *differ*. Of the rows that differ, **3** name a cause tested by a "
        "computation and **1** a cause not known."
    )
    n, counts = _quoted(text)
    assert n == 7
    assert counts == Counter(
        {"reproduced": 1, "within spread": 2, "differs": 4, "tested": 3, "unknown": 1}
    )


def test_intro_glues_each_papers_counts():
    text = _glued("intro", "intro-findings")["text/markdown"]
    ledgers = load_ledgers()
    assert text == papers_findings(ledgers, chapters=INTRO_CHAPTERS)
    # the totals of the lines add up to all rows of the ledgers
    totals = [int(n) for n in re.findall(r"Of the \*\*(\d+)\*\* ledger rows", text)]
    assert sum(totals) == len(ledgers)
    assert "```{glue:md} intro-findings" in (BOOK / "intro.md").read_text(encoding="utf-8")


def test_intro_glues_park_read_fit():
    fit = blended_evidence.fit()
    for reading in ("lbfgs", "ascent"):
        for half in ("train", "test"):
            got = _glued("intro", f"intro-pr-{half}-{reading}")["text/plain"]
            assert float(got) == pytest.approx(fit.loc[reading, f"mean |Δ| {half}"], abs=1e-12)
