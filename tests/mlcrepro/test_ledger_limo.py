"""The LIMO chapter's ledger, built in mlcrepro.wu_zhou2017.ledger_limo."""

from __future__ import annotations

import pandas as pd
import pytest

from mlcrepro.claims import load_inventory, parse_refs
from mlcrepro.ledger import Ledger, load_ledgers
from mlcrepro.summary import VERDICT_SYMBOLS, verdict_table
from mlcrepro.wu_zhou2017 import limo_evidence as E
from mlcrepro.wu_zhou2017.ledger_limo import GROUPS, limo_ledger, limo_verdicts


@pytest.fixture(scope="module")
def ledger() -> Ledger:
    return limo_ledger()


def test_the_ledger_is_the_saved_one(ledger):
    saved = load_ledgers()
    saved = saved[saved["chapter"] == "limo"].reset_index(drop=True)
    ours = ledger.to_frame()
    assert len(ours) == len(saved) == 343
    for col in ("claim", "source", "paper", "ours", "status", "claim_ids"):
        assert ours[col].astype(str).tolist() == saved[col].fillna("").astype(str).tolist()
    ledger.check()  # every status derived again from the stored evidence


def test_every_row_carries_the_ids_of_the_claims_that_name_it(ledger):
    inv = load_inventory()
    inv = inv[inv["paper"] == "Wu & Zhou (2017)"]
    named: dict[str, set[str]] = {}
    for cid, refs in zip(inv["id"], inv["ledger"]):
        for chapter, claim in parse_refs(refs):
            if chapter == "limo":
                named.setdefault(claim, set()).add(cid)
    for e in ledger.entries:
        assert set(e.claim_ids) == named[e.claim], e.claim


def test_verdicts_count_every_row_once(ledger):
    table = limo_verdicts(ledger)
    assert table["rows"].sum() == len(ledger.entries)
    counts = ledger.counts()
    for status, n in counts.items():
        symbol = VERDICT_SYMBOLS[status]
        # the rare statuses get a column only where rows have them
        assert (table[symbol].sum() if symbol in table else 0) == n
    assert list(table.index) == [g for g in GROUPS if g in table.index]


def test_verdict_table_rejects_a_row_no_group_takes():
    rows = pd.DataFrame({"source": ["Table 9"], "status": ["reproduced"]})
    with pytest.raises(ValueError, match="Table 9"):
        verdict_table(rows, GROUPS)
    with pytest.raises(TypeError, match="groups"):
        verdict_table(rows, {})


def test_evidence_is_computed_once_and_handed_out_as_copies():
    before = E.table2()
    a = E.table2()
    a.loc[:, "agrees"] = not a["agrees"].all()  # a caller changing what it got ...
    assert E.table2().equals(before)  # ... changes nothing for the next caller
    assert E.table2() is not E.table2()
