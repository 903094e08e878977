"""The "What this chapter found" box of a chapter quotes its ledger's verdict counts.

The counts are written into the prose of the box, so a re-run that changes a verdict must
also change the box; this test reads both and compares.
"""

import csv
import re
from collections import Counter

import pandas as pd
import pytest

from mlcrepro._paths import project_root

BOOK = project_root() / "book"
CHAPTERS = ["measures", "losses", "datasets", "knn"]
STATUS = {"reproduced": "reproduced", "qualitative": "qualitative", "fragile": "fragile",
          "differ": "differs", "differs": "differs", "within": "within spread"}


def _box(name: str) -> str:
    text = (BOOK / f"{name}.md").read_text(encoding="utf-8")
    m = re.search(r":::\{admonition\} What this chapter found\n(.*?)\n:::", text, re.S)
    assert m, f"{name}.md has no 'What this chapter found' box"
    return m.group(1)


def _quoted_counts(box: str) -> tuple[int, Counter]:
    total = re.search(r"\*\*(\d+)\*\*\s+claims", box)
    assert total, "the box does not say how many claims the ledger has"
    n = int(total.group(1))
    counts = Counter()
    if re.search(r"All\s+\*\*\d+\*\*\s+claims[^.]*reproduced", box):
        counts["reproduced"] = n
    pattern = (
        r"\*\*(\d+)\*\*\s+(?:are\s+)?\*?(reproduced|qualitative|fragile|differs?|within)\b"
    )
    for value, word in re.findall(pattern, box):
        counts[STATUS[word]] = int(value)
    return n, counts


@pytest.mark.parametrize("name", CHAPTERS)
def test_findings_box_matches_the_ledger(name):
    with open(BOOK / "_ledgers" / f"{name}.csv", newline="", encoding="utf-8") as f:
        ledger = Counter(row["status"] for row in csv.DictReader(f))
    n, quoted = _quoted_counts(_box(name))
    assert n == sum(ledger.values())
    # every verdict the ledger holds is quoted with its count, and no other
    assert quoted == ledger, (dict(quoted), dict(ledger))


# The chapters of Hüllermeier's study, Park & Read and Wu & Zhou word their box as one
# sentence: "Of the **N** ledger rows, **a** are *reproduced*, [**s** are *within the
# paper's spread*,] [**o** *within our spread*,] [**f** *fragile*,] **b** *qualitative* and
# **c** *differ*".
COUNTS_SENTENCE = re.compile(
    r"Of the \*\*(\d+)\*\* ledger rows, \*\*(\d+)\*\* are \*reproduced\*,\s+"
    r"(?:\*\*(\d+)\*\* (?:are )?\*within (?:the paper's )?spread\*,\s+)?"
    r"(?:\*\*(\d+)\*\*\s+\*within our spread\*,\s+)?"
    r"(?:\*\*(\d+)\*\*\s+\*fragile\*,\s+)?"
    r"\*\*(\d+)\*\*\s+\*qualitative\*\s+and\s+\*\*(\d+)\*\*\s+\*differ\*"
)
# chapters whose box uses this wording (others may word theirs differently)
CHAPTERS_SENTENCE = ["dependence", "blended", "limo"]


@pytest.mark.parametrize("name", CHAPTERS_SENTENCE)
def test_findings_sentence_counts_match_the_ledger(name):
    text = (BOOK / f"{name}.md").read_text(encoding="utf-8")
    found = COUNTS_SENTENCE.findall(text)
    assert len(found) == 1, f"{name}.md: expected one findings sentence, got {found}"
    total, rep, spread, ours, fragile, qual, diff = (int(v or 0) for v in found[0])
    status = pd.read_csv(BOOK / "_ledgers" / f"{name}.csv")["status"]
    counts = status.value_counts()
    assert (total, rep, spread, ours, fragile, qual, diff) == (
        len(status),
        int(counts.get("reproduced", 0)),
        int(counts.get("within spread", 0)),
        int(counts.get("within our spread", 0)),
        int(counts.get("fragile", 0)),
        int(counts.get("qualitative", 0)),
        int(counts.get("differs", 0)),
    )
