"""What every chapter's ledger test asserts of the ledger its module builds.

* the rows are the saved ones (``book/_ledgers/CHAPTER.csv``), column by column and
  by :meth:`Ledger.check_against_committed` (every column; a stale file fails naming
  its rows), and every status is derived again from the stored evidence
  (:meth:`Ledger.check`);
* every row carries exactly the ids of the inventory's claims that name it;
* the verdict table counts every row once, its groups in the module's order.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from mlcrepro.claims import load_inventory, parse_refs
from mlcrepro.ledger import Ledger, load_ledgers


def assert_is_the_saved_ledger(ledger: Ledger, chapter: str, n_rows: int) -> None:
    saved = load_ledgers()
    saved = saved[saved["chapter"] == chapter].reset_index(drop=True)
    ours = ledger.to_frame()
    assert len(ours) == len(saved) == n_rows
    for col in ("claim", "source", "paper", "ours", "status", "claim_ids"):
        assert ours[col].astype(str).tolist() == saved[col].fillna("").astype(str).tolist()
    ledger.check()
    ledger.check_against_committed()


def assert_rows_carry_the_ids_that_name_them(ledger: Ledger, chapter: str) -> None:
    inv = load_inventory()
    named: dict[str, set[str]] = {}
    for cid, refs in zip(inv["id"], inv["ledger"]):
        for ch, claim in parse_refs(refs):
            if ch == chapter:
                named.setdefault(claim, set()).add(cid)
    for e in ledger.entries:
        assert set(e.claim_ids) == named[e.claim], e.claim


def assert_verdicts_count_every_row_once(
    table: pd.DataFrame, ledger: Ledger, groups: Sequence[str]
) -> None:
    assert table["rows"].sum() == len(ledger.entries)
    assert list(table.index) == [g for g in groups if g in table.index]
