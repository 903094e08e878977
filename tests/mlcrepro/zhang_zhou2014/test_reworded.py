"""Rewording the rows of the measures ledger (Zhang & Zhou's and its guest Hivemall's)
changes which rows the page's tables hold and what they say of them in nothing but the
claim text they show: the tables select rows by their source, never by their wording.
The folder has no committed table, so no recompute selects cells."""

from __future__ import annotations

import copy

import pandas as pd
import pytest

from mlcrepro import hivemall
from mlcrepro import zhang_zhou2014 as zz
from mlcrepro.ledger import Ledger
from mlcrepro.zhang_zhou2014.ledger_rows import GROUPS


@pytest.fixture(scope="module")
def ledger() -> Ledger:
    return zz.ledgers(zz.evidence(), guests=[hivemall.rows(hivemall.evidence())])["measures"]


@pytest.fixture(scope="module")
def reworded(ledger) -> Ledger:
    out = copy.deepcopy(ledger)
    for i, e in enumerate(out.entries):
        e.claim = f"row {i} in other words"
    return out


def test_rewording_every_claim_changes_only_the_claims_shown(ledger, reworded):
    assert zz.EXPERIMENTS == ()  # nothing to recompute: no selection of cells to compare
    for group in GROUPS:
        before, after = zz.compared(ledger, group), zz.compared(reworded, group)
        assert not before.empty
        assert (after["claim"] != before["claim"]).all()
        pd.testing.assert_frame_equal(before.drop(columns="claim"), after.drop(columns="claim"))
    pd.testing.assert_frame_equal(zz.verdicts(ledger), zz.verdicts(reworded))
