"""The blended chapter's ledger, built in mlcrepro.park_read2018.ledger_blended."""

from __future__ import annotations

import ast
import subprocess

import numpy as np
import pytest

from mlcbook import metrics
from mlcrepro._paths import project_root
from mlcrepro.claims import load_inventory, printed
from mlcrepro.ledger import Ledger
from mlcrepro.park_read2018 import blended_evidence as E
from mlcrepro.park_read2018 import tables as bt
from mlcrepro.park_read2018.ledger_blended import GROUPS, blended_ledger, blended_verdicts

from .ledger_checks import (
    assert_is_the_saved_ledger,
    assert_rows_carry_the_ids_that_name_them,
    assert_verdicts_count_every_row_once,
)

OLD = "ef0d985557e773fd56473e2e629f034c33027cee"


@pytest.fixture(scope="module")
def ledger() -> Ledger:
    return blended_ledger()


def test_the_ledger_is_the_saved_one(ledger):
    assert_is_the_saved_ledger(ledger, "blended", 123)  # every claim of the inventory with a row


def test_every_row_carries_the_ids_of_the_claims_that_name_it(ledger):
    assert_rows_carry_the_ids_that_name_them(ledger, "blended")


def test_verdicts_count_every_row_once(ledger):
    assert_verdicts_count_every_row_once(blended_verdicts(ledger), ledger, GROUPS)


def test_table1_limits_agree_with_the_standard_measures():
    t = E.table1()
    Y, T = E.TABLE1_PREDICTIONS, E.TABLE1_TRUTH
    # the three limits of the blend against mlcbook.metrics, per instance (1e-12: rounding)
    for k in range(5):
        y, tr = Y[k : k + 1], T[k : k + 1]
        assert t.iloc[k, 0] == pytest.approx(1 - metrics.hamming_loss(tr, y), abs=1e-12)
        assert t.iloc[k, 1] == metrics.subset_accuracy(tr, y)
        assert t.iloc[k, 2] == pytest.approx(metrics.jaccard_score(tr, y), abs=1e-12)
    assert t.loc["mean"].tolist() == pytest.approx(t.iloc[:5].mean().tolist(), abs=1e-15)


def test_counts_by_hand():
    soft, hard = E.counts()  # t = [1 0 1], z = [0.6 0.4 0.2]: TP = 0.6 + 0.2, ...
    assert soft.tolist() == pytest.approx([0.8, 0.4, 1.2, 0.6], abs=1e-12)
    assert hard.tolist() == [1, 0, 1, 1]


def test_tables_2_4_reproduce_the_old_dict_exactly():
    src = subprocess.run(
        ["git", "-C", str(project_root()), "show", f"{OLD}:repro/mlcrepro/park_read2018/tables.py"],
        capture_output=True, text=True, check=True,
    ).stdout
    old = next(
        ast.literal_eval(n.value)
        for n in ast.parse(src).body
        if isinstance(n, ast.AnnAssign) and n.target.id == "PAPER"
    )
    assert bt.paper_values() == old
    assert bt.paper_id("exact", "Scene", "Train", "BaseH") == "PR129"
    with pytest.raises(ValueError, match="no printed cell"):
        bt.paper_id("exact", "Scene", "Train", "Base")


def test_worked_numbers_are_the_inventory_claims():
    inv = load_inventory().set_index("id")
    for r in printed("park-read-2018").itertuples():
        if r.value not in ("-",) and not r.value.startswith("("):
            assert r.value in inv.loc[r.id, "claim"], (r.id, r.value)


def test_evidence_is_handed_out_as_copies():
    a = E.table1()
    a.iloc[:, :] = np.nan
    assert not E.table1().isna().any().any()
