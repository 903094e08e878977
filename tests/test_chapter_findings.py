"""The "What this chapter found" box of a chapter agrees with its committed ledger.

The box states its counts in prose ("Of the **N** ledger rows, **a** are *reproduced*,
**b** *qualitative* and **c** *differ*"); a re-executed chapter whose ledger changed
must update its box, and this test says so.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

BOOK = Path(__file__).resolve().parents[1] / "book"
PATTERN = re.compile(
    r"Of the \*\*(\d+)\*\* ledger rows, \*\*(\d+)\*\* are \*reproduced\*,\s+"
    r"\*\*(\d+)\*\* \*qualitative\* and \*\*(\d+)\*\* \*differ\*"
)
# chapters whose box uses this wording (others may word theirs differently)
CHAPTERS = ["dependence", "blended", "limo"]


@pytest.mark.parametrize("name", CHAPTERS)
def test_findings_box_counts_match_the_ledger(name):
    text = (BOOK / f"{name}.md").read_text()
    found = PATTERN.findall(text)
    assert len(found) == 1, f"{name}.md: expected one findings sentence, got {found}"
    total, rep, qual, diff = map(int, found[0])
    status = pd.read_csv(BOOK / "_ledgers" / f"{name}.csv")["status"]
    counts = status.value_counts()
    assert (total, rep, qual, diff) == (
        len(status),
        int(counts.get("reproduced", 0)),
        int(counts.get("qualitative", 0)),
        int(counts.get("differs", 0)),
    )
