"""The measures chapter's ledger, built in mlcrepro.zhang_zhou2014.ledger_measures."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from mlcrepro.ledger import Ledger
from mlcrepro.zhang_zhou2014 import measures_evidence as E
from mlcrepro.zhang_zhou2014.ledger_measures import GROUPS, measures_ledger, measures_verdicts

from .ledger_checks import (
    assert_is_the_saved_ledger,
    assert_rows_carry_the_ids_that_name_them,
    assert_verdicts_count_every_row_once,
)


@pytest.fixture(scope="module")
def ledger() -> Ledger:
    return measures_ledger()


def test_the_ledger_is_the_saved_one(ledger):
    assert_is_the_saved_ledger(ledger, "measures", 35)


def test_every_row_carries_the_ids_of_the_claims_that_name_it(ledger):
    assert_rows_carry_the_ids_that_name_them(ledger, "measures")


def test_verdicts_count_every_row_once(ledger):
    assert_verdicts_count_every_row_once(measures_verdicts(ledger), ledger, GROUPS)


def test_park_read_table1_by_hand():
    t = E.park_read_table1()
    # x1: y = [1 0 1 0], t = [1 0 0 1]: 2 of 4 right, not exact, Jaccard 1/3
    assert t.loc["x1"].tolist() == pytest.approx([0.5, 0.0, 1 / 3], abs=1e-12)
    # the means over the whole matrices: 16/20, 2/5 and (1/3 + 1 + 1 + 1/2 + 1/2)/5
    mean = Fraction(1, 3) + 1 + 1 + Fraction(1, 2) + Fraction(1, 2)
    assert t.loc["mean"].tolist() == pytest.approx([0.8, 0.4, float(mean / 5)], abs=1e-12)


def test_hivemall_counts_by_hand():
    hm = E.hivemall()
    assert (hm["tp"], hm["fn"], hm["fp"]) == (8, 4, 3)  # 16/23 = 2*8 / (2*8 + 4 + 3)
    assert hm["f1"] == 16 / 23 and hm["f2"] == 40 / 59


def test_single_label_and_effective_coverage_by_their_definitions():
    one = E.single_label()
    assert one["hamming_loss"] == pytest.approx(one["claimed"], abs=1e-15)
    eff = E.effective_coverage()
    assert eff["coverage"] == pytest.approx(eff["theorem"], abs=1e-12)
    assert eff["ranking_loss"] == 0.0 and eff["average_precision"] == 1.0


def test_auc_ge_counts_ties_as_correct():
    assert E.auc_ge(np.array([1, 0]), np.array([0.3, 0.3])) == 1.0
    assert E.auc_ge(np.array([1, 0, 0]), np.array([0.1, 0.2, 0.0])) == 0.5
