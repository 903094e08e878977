"""Open causes say what would settle them (issue: causes that say what would settle them).

Every unknown or underspecified row of the ledgers whose causes carry a settler
(Park & Read's ``blended``, Wu & Zhou's ``limo``) ends its note with the sentence of
:func:`mlcrepro.ledger.settle_by`; ``mlcrepro causes`` counts them from the saved
ledgers.  Reads the saved ledgers only (well under a second).
"""

from __future__ import annotations

import pandas as pd
import pytest

from mlcrepro.cli import main
from mlcrepro.ledger import cause_families, load_ledgers, settle_by, settler
from mlcrepro.ledger.settle import OPEN_CAUSES, SETTLE, cause_family

#: the ledgers whose open causes all name their settler
SETTLED = ("blended", "limo")


@pytest.fixture(scope="module")
def saved() -> pd.DataFrame:
    return load_ledgers()


def test_every_open_row_of_the_settled_ledgers_ends_with_its_settler(saved):
    rows = saved[saved["chapter"].isin(SETTLED) & saved["cause"].isin(OPEN_CAUSES)]
    assert len(rows) > 100  # a floor (the saved ledgers hold 150), not the count
    bare = rows[~rows["note"].str.contains(SETTLE, regex=False)]
    assert bare.empty, list(bare["claim_ids"])
    # the settler is the note's last sentence: nothing follows it
    assert all(n.rstrip().endswith(".") and n.rfind(SETTLE) > 0 for n in rows["note"])
    # closed causes (tested, paper error, material unavailable) name none
    closed = saved[saved["chapter"].isin(SETTLED) & ~saved["cause"].isin(OPEN_CAUSES)]
    assert not closed["note"].fillna("").str.contains(SETTLE, regex=False).any()


def test_families_count_the_rows_of_the_ledgers(saved):
    fam = cause_families(saved)
    open_rows = saved[saved["cause"].isin(OPEN_CAUSES)]
    assert fam["rows"].sum() == len(open_rows)
    named = open_rows["note"].fillna("").map(settler) != ""
    assert fam["settled"].sum() == named.sum()
    for chapter in SETTLED:
        mine = fam[fam["chapter"] == chapter]
        assert (mine["settled"] == mine["rows"]).all()
        assert mine["rows"].sum() == len(open_rows[open_rows["chapter"] == chapter])


def test_the_causes_command_prints_the_families_and_the_total(saved, capsys):
    assert main(["causes"]) == 0
    out = capsys.readouterr().out
    open_rows = saved[saved["cause"].isin(OPEN_CAUSES)]
    named = int((open_rows["note"].fillna("").map(settler) != "").sum())
    assert out.rstrip().endswith(f"{named}/{len(open_rows):<3} rows name what would settle them")
    for text in open_rows["note"].fillna(""):
        assert cause_family(text) in out


def test_settle_by_refuses_an_empty_settler():
    with pytest.raises(ValueError, match="material or the run"):
        settle_by("  ", run="")
    with pytest.raises(TypeError, match="text"):
        settle_by(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="columns"):
        cause_families(pd.DataFrame({"cause": ["unknown"]}))
