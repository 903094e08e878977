"""The measures ledger, built by mlcrepro.zhang_zhou2014.ledgers with Hivemall's rows."""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest

from mlcrepro import hivemall
from mlcrepro import zhang_zhou2014 as zz
from mlcrepro.ledger import Ledger
from mlcrepro.zhang_zhou2014.ledger_rows import GROUPS

from ..ledger_checks import (
    assert_is_the_saved_ledger,
    assert_rows_carry_the_ids_that_name_them,
    assert_verdicts_count_every_row_once,
)


@pytest.fixture(scope="module")
def ledger() -> Ledger:
    guests = [hivemall.rows(hivemall.evidence())]
    return zz.ledgers(zz.evidence(), guests=guests)["measures"]


def test_the_ledger_is_the_saved_one(ledger):
    assert_is_the_saved_ledger(ledger, "measures", 35)


def test_ledgers_are_keyed_by_the_papers_record():
    found = zz.ledgers(zz.evidence(), guests=[hivemall.rows(hivemall.evidence())])
    assert tuple(found) == zz.PAPER.ledgers


def test_every_row_carries_the_ids_of_the_claims_that_name_it(ledger):
    assert_rows_carry_the_ids_that_name_them(ledger, "measures")


def test_verdicts_count_every_row_once(ledger):
    assert_verdicts_count_every_row_once(zz.verdicts(ledger), ledger, GROUPS)


def test_hivemall_rows_follow_park_and_read_and_come_from_its_folder(ledger):
    ids = [e.claim_ids[0] for e in ledger.entries]
    assert ids[18:22] == ["HM001", "HM002", "HM003", "HM004"]
    hm = hivemall.rows(hivemall.evidence())
    assert [e.claim for e in ledger.entries[18:22]] == [e.claim for e in hm.entries]


def test_without_guests_the_ledger_is_refused_not_shortened():
    with pytest.raises(TypeError):
        zz.ledgers(zz.evidence())  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="guests must be"):
        zz.ledgers(zz.evidence(), guests=hivemall.rows(hivemall.evidence()))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="evidence must be"):
        zz.ledgers(hivemall.evidence(), guests=[])  # type: ignore[arg-type]


def test_compared_gives_each_group_its_rows_once(ledger):
    parts = [zz.compared(ledger, g) for g in GROUPS]
    assert sum(len(p) for p in parts) == len(ledger.entries)
    table1 = zz.compared(ledger, "Park & Read, Table 1")
    # an exact row's text is read as a number: Hamming similarity of x2 is printed "1"
    assert table1.loc[1, ["ours", "paper"]].tolist() == [1.0, 1.0]
    assert table1.loc[0, ["ours", "paper"]].tolist() == [0.5, 0.5]  # a number row
    strict = zz.compared(ledger, "Zhang & Zhou, Sec. 2.2.2").iloc[-1]  # an ordering row
    assert pd.isna(strict["ours"]) and strict["status"] == "reproduced"
    with pytest.raises(ValueError, match="group must be one of"):
        zz.compared(ledger, "Table 9")


def test_the_evidence_is_frozen_and_each_caller_gets_a_copy():
    ev = zz.evidence()
    with pytest.raises(dataclasses.FrozenInstanceError):
        ev.all_measures_gap = 1.0  # type: ignore[misc]
    ev.park_read_table1.loc["x1", "Hamming"] = 0.0
    assert zz.evidence().park_read_table1.loc["x1", "Hamming"] == 0.5


def test_against_sklearn_judges_each_measure_by_the_ledgers_tolerance(monkeypatch):
    ev = zz.evidence()
    rows = zz.against_sklearn(ev)
    assert "one-error" not in set(rows["measure"])  # no scikit-learn counterpart
    assert len(rows) == ev.measures_compared and set(rows["status"]) == {"reproduced"}
    gap = (rows["ours"] - rows["scikit-learn"]).abs().max()
    assert round(gap, 12) == ev.all_measures_gap  # the ledger row's value, 12 decimals
    wrong = ev.sklearn_comparison.copy()
    wrong.loc["coverage", "mlcbook"] += 1  # scikit-learn's coverage_error, unshifted
    bad = zz.against_sklearn(dataclasses.replace(ev, sklearn_comparison=wrong))
    assert bad.set_index("measure").loc["coverage", "status"] == "differs"
    with pytest.raises(TypeError, match="evidence must be"):
        zz.against_sklearn(hivemall.evidence())  # type: ignore[arg-type]
