"""Rewording the rows of the ``limo`` ledger changes neither the page's tables nor the
cells a recompute reruns: both read what a row is about (``Entry.about``), never its
claim's wording."""

from __future__ import annotations

import copy

import pandas as pd
import pytest

from mlcrepro.ledger import Ledger
from mlcrepro.wu_zhou2017 import views as V
from mlcrepro.wu_zhou2017.collect import evidence
from mlcrepro.wu_zhou2017.experiments import row_cells
from mlcrepro.wu_zhou2017.ledger_rows import ledgers
from mlcrepro.wu_zhou2017.printed import DS_PAPER


@pytest.fixture(scope="module")
def ledger() -> Ledger:
    return ledgers(evidence())["limo"]


@pytest.fixture(scope="module")
def reworded(ledger) -> Ledger:
    out = copy.deepcopy(ledger)
    for i, e in enumerate(out.entries):
        e.claim = f"row {i} in other words"
    return out


def _tables(led: Ledger) -> list[pd.DataFrame]:
    out = [V.status_counts(led, "Table B.3")]
    for source, labels in (
        ("Table B.1", ["measure", "variant"]),
        ("Table B.2", ["measure", "variant"]),
    ):
        out.append(V.ledger_comparison(led, source, labels).frame)
    for name in DS_PAPER.values():
        out.append(V.ledger_comparison(led, "Table B.3", ["measure", "learner"], where=name).frame)
    return out


def test_rewording_every_claim_changes_no_page_table(ledger, reworded):
    assert all(a.claim != b.claim for a, b in zip(ledger.entries, reworded.entries))
    for before, after in zip(_tables(ledger), _tables(reworded), strict=True):
        assert not before.empty
        pd.testing.assert_frame_equal(before, after)


def test_rewording_every_claim_changes_no_recompute_selection(ledger, reworded):
    def cells(led: Ledger) -> list[tuple]:
        return [row_cells({"source": e.source, "about": e.about}) for e in led.entries]

    before = cells(ledger)
    assert before == cells(reworded)
    # every Table B.3 row rests on the cells of its own dataset and learner
    b3 = [(e, c) for e, c in zip(ledger.entries, before) if e.source == "Table B.3"]
    assert len(b3) == 4 * 6 * 11
    for e, (c,) in b3:
        assert c.where == {"dataset": e.about["dataset"], "method": e.about["learner"]}
        assert DS_PAPER[e.about["dataset"]] in e.claim and e.about["learner"] in e.claim
