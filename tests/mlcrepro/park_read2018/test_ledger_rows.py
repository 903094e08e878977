"""The contract of mlcrepro.park_read2018: evidence() and ledgers(evidence), and the
blended ledger they build (the saved one, row for row)."""

from __future__ import annotations

import ast
import dataclasses
import filecmp
import subprocess

import numpy as np
import pytest

from mlcbook import metrics
from mlcbook._io import read_csv_exact
from mlcrepro._paths import project_root, results_dir
from mlcrepro.claims import load_inventory
from mlcrepro.printed_numbers import printed
from mlcrepro.ledger import Ledger
from mlcrepro.park_read2018 import PAPER, Evidence, evidence, ledgers
from mlcrepro.park_read2018 import metric
from mlcrepro.park_read2018 import tables as bt
from mlcrepro.park_read2018.ledger_rows import GROUPS, blended_verdicts

from ..ledger_checks import (
    assert_is_the_saved_ledger,
    assert_rows_carry_the_ids_that_name_them,
    assert_verdicts_count_every_row_once,
)

OLD = "ef0d985557e773fd56473e2e629f034c33027cee"
FOLDER = project_root() / "repro" / "mlcrepro" / "park_read2018"


@pytest.fixture(scope="module")
def ev() -> Evidence:
    return evidence()


@pytest.fixture(scope="module")
def ledger(ev) -> Ledger:
    return ledgers(ev)["blended"]


def test_ledgers_are_keyed_by_the_papers_record(ev):
    built = ledgers(ev)
    assert tuple(built) == PAPER.ledgers == ("blended",)
    assert built["blended"].paper == PAPER.citation
    with pytest.raises(TypeError, match="Evidence"):
        ledgers({"grids": {}})


def test_the_ledger_is_the_saved_one(ledger):
    assert_is_the_saved_ledger(ledger, "blended", 123)  # every claim of the inventory with a row


def test_the_saved_file_is_byte_identical(ledger, tmp_path):
    saved = ledger.save(tmp_path)  # a folder of its own: the committed file is not touched
    assert filecmp.cmp(saved, project_root() / "book" / "_ledgers" / "blended.csv", shallow=False)


def test_every_row_carries_the_ids_of_the_claims_that_name_it(ledger):
    assert_rows_carry_the_ids_that_name_them(ledger, "blended")


def test_verdicts_count_every_row_once(ledger):
    assert_verdicts_count_every_row_once(blended_verdicts(ledger), ledger, GROUPS)


def test_rows_are_added_only_by_ledgers():
    """No module of the folder but ledger_rows calls a ledger's row-adding methods."""
    adders = {"number", "spread", "exact", "ordering", "qualitative"}
    found = []
    for path in sorted(FOLDER.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in adders
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "led"
            ):
                found.append(path.name)
    assert set(found) == {"ledger_rows.py"}


def test_evidence_is_frozen_and_handed_out_as_copies(ev):
    with pytest.raises(dataclasses.FrozenInstanceError):
        ev.chosen = "lbfgs"  # type: ignore[misc]
    mine = evidence()
    mine.table1.iloc[:, :] = np.nan
    mine.grids["ascent"].loc[:, "train_exact"] = -1.0
    again = evidence()
    assert not again.table1.isna().any().any()
    assert (again.grids["ascent"]["train_exact"] >= 0).all()


def test_evidence_reads_the_committed_grids(ev):
    for reading in ("lbfgs", "ascent"):
        committed = read_csv_exact(results_dir() / f"blended_study_{reading}.csv")
        # the same table: same rows, the scores to the last bit (read exactly)
        np.testing.assert_array_equal(
            ev.grids[reading]["test_exact"].to_numpy(), committed["test_exact"].to_numpy()
        )
    assert ev.chosen == ev.fit.loc[["lbfgs", "ascent"], "mean |Δ| all"].astype(float).idxmin()
    assert ev.grid is not None and ev.grid.equals(ev.grids[ev.chosen])
    with pytest.raises(ValueError, match="family"):
        ev.family_grid("no such family")


def test_table1_limits_agree_with_the_standard_measures(ev):
    t = ev.table1
    Y, T = metric.TABLE1_PREDICTIONS, metric.TABLE1_TRUTH
    # the three limits of the blend against mlcbook.metrics, per instance (1e-12: rounding)
    for k in range(5):
        y, tr = Y[k : k + 1], T[k : k + 1]
        assert t.iloc[k, 0] == pytest.approx(1 - metrics.hamming_loss(tr, y), abs=1e-12)
        assert t.iloc[k, 1] == metrics.subset_accuracy(tr, y)
        assert t.iloc[k, 2] == pytest.approx(metrics.instance_jaccard(tr, y), abs=1e-12)
    assert t.loc["mean"].tolist() == pytest.approx(t.iloc[:5].mean().tolist(), abs=1e-15)


def test_counts_by_hand(ev):
    # t = [1 0 1], z = [0.6 0.4 0.2]: TP = 0.6 + 0.2, FP = 0.4, FN = 0.4 + 0.8, TN = 0.6
    assert ev.soft_counts.tolist() == pytest.approx([0.8, 0.4, 1.2, 0.6], abs=1e-12)
    assert ev.hard_counts.tolist() == [1, 0, 1, 1]


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
    for r in printed("park_read2018").itertuples():
        if r.value not in ("-",) and not r.value.startswith("("):
            assert r.value in inv.loc[r.id, "claim"], (r.id, r.value)


def test_every_qualitative_or_fragile_row_says_what_judged_it(ledger):
    frame = ledger.to_frame()
    soft = frame[frame["status"].isin(["qualitative", "fragile"])]
    assert len(soft) >= 2
    assert (soft["note"].str.len() > 0).all(), soft["claim_ids"].tolist()
    # the two readings of Figs. 1-2 name their grid and their rule
    for cid in ("PR040", "PR043"):
        note = frame.loc[frame["claim_ids"] == cid, "note"].iloc[0]
        assert "rule of ours" in note and "10 dataset halves" in note
