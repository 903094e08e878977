"""Rewording the rows of the ``blended`` ledger changes neither the page's tables of
Tables 2-4 nor the cells a recompute reruns: both read what a row is about
(``Entry.about``) or its claim ids, never its claim's wording."""

from __future__ import annotations

import copy

import pandas as pd
import pytest

from mlcrepro.ledger import Ledger
from mlcrepro.park_read2018 import report
from mlcrepro.park_read2018.collect import evidence
from mlcrepro.park_read2018.experiments import row_cells
from mlcrepro.park_read2018.grid import GRID_DATASETS
from mlcrepro.park_read2018.ledger_rows import ledgers
from mlcrepro.park_read2018.tables import NAMES


@pytest.fixture(scope="module")
def ev():
    return evidence()


@pytest.fixture(scope="module")
def ledger(ev) -> Ledger:
    return ledgers(ev)["blended"]


@pytest.fixture(scope="module")
def reworded(ledger) -> Ledger:
    out = copy.deepcopy(ledger)
    for i, e in enumerate(out.entries):
        e.claim = f"row {i} in other words"
    return out


def test_rewording_every_claim_changes_no_worked_example(ledger, reworded):
    before = report.worked_examples(ledger).frame
    pd.testing.assert_frame_equal(before, report.worked_examples(reworded).frame)
    # each row is named by what it is about: the measure of Table 1, the count of Sec. 2.2
    assert list(before["claim"][:4]) == [
        "Table 1 mean Hamming similarity",
        "Table 1 mean Exact similarity",
        "Table 1 mean Jaccard similarity",
        "undetermined TP",
    ]


def test_rewording_every_claim_changes_no_table_of_tables_2_to_4(ev, ledger, reworded):
    for measure in ("jaccard", "hamming", "exact"):
        before = report.printed_numbers(ev, measure, ledger=ledger).frame
        after = report.printed_numbers(ev, measure, ledger=reworded).frame
        assert not before.empty
        pd.testing.assert_frame_equal(before, after)


def test_rewording_every_claim_changes_no_recompute_selection(ledger, reworded):
    def cells(led: Ledger) -> list[tuple]:
        return [row_cells({"source": e.source, "about": e.about}) for e in led.entries]

    before = cells(ledger)
    assert before == cells(reworded)
    # a row of Tables 2-4 rests on its own dataset's cells of both readings' tables
    tables = [
        (e, c)
        for e, c in zip(ledger.entries, before)
        if e.source in ("Table 2", "Table 3", "Table 4")
    ]
    assert tables
    for e, c in tables:
        assert len(c) == 2 and {s.where["dataset"] for s in c} == {e.about["dataset"]}
        assert e.about["dataset"] in GRID_DATASETS and NAMES[e.about["dataset"]] in e.claim
    # the unavailable dataset rests on nothing
    (stare,) = [c for e, c in zip(ledger.entries, before) if e.about.get("dataset") == "stare"]
    assert stare == ()
