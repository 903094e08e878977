"""The kNN chapter's ledger module on the committed Fig. 4 tables and toy neighbours."""

import numpy as np
import pandas as pd
import pytest

from mlcrepro.huellermeier2022 import ledger_knn as LK
from mlcrepro.huellermeier2022.knn_fig4 import fig4_config, loss_matrix
from mlcrepro.results import load_or_compute
from mlcrepro.tables import surrogate_readings


def _committed(name, *tie_break):
    def refuse():
        raise AssertionError(f"the committed table {name} is stale")

    return load_or_compute(name, refuse, fig4_config(list(LK.DATASETS), *tie_break))


@pytest.fixture(scope="module")
def tables():
    tabs = {tb: _committed("knn_fig4" if tb == "hamming" else f"knn_fig4_{tb}", tb)
            for tb in LK.TIE_BREAKS}
    return tabs, _committed("knn_consensus")


# every query's three neighbours are distinct label vectors: the mode is always tied, and
# the minimiser for k < K is the per-label majority, here (1, 0) and (0, 0) against the
# tied k = K choice -- evidence that agrees with the paper's two readings
TOY = {"toy": np.array([[[1, 0], [1, 1], [0, 0]], [[0, 0], [0, 1], [1, 1]]])}


def test_readings_are_the_surrogate_readings_of_each_pooled_table(tables):
    tabs, _ = tables
    main = tabs["hamming"]
    M = LK.matrices(main)
    assert list(M) == list(LK.DATASETS)
    for d in ("birds", "flags-12"):
        pd.testing.assert_frame_equal(M[d], loss_matrix(main[main.dataset == d]))
    r = LK.readings(M)
    assert r.loc["birds", LK.HAMMING_RANK] == surrogate_readings(M["birds"])[LK.HAMMING_RANK]


def test_the_ledger_rows_follow_the_readings_and_carry_their_ids(tables):
    tabs, reach = tables
    led = LK.knn_ledger(tabs, reach, TOY)
    led.check()
    o = LK.readings(LK.matrices(tabs["hamming"]))
    first = led.entries[0]
    assert first.holds == bool(o.loc[list(LK.PAPER), "best k non-decreasing"].all())
    assert first.trials == 200 and 0 <= first.hits <= 200
    ham = o.loc[list(LK.PAPER), LK.HAMMING_RANK]
    assert led.entries[3].holds == bool((ham <= 2).all())
    assert (led.entries[3].cause is None) == led.entries[3].holds
    assert [e.claim_ids for e in led.entries] == [
        ("HU103",), ("HU104",), ("HU105",), ("HU106",), ("HU107",), ("EX011",), ("EX012",),
        ("HU108",), ("HU109",), ("HU110",), ("HU111",),
    ]
    assert "toy all 2" in led.entries[8].note  # the toy neighbours, not the real ones
    table = LK.verdict_table(led)
    assert len(table.frame) == 9 and list(table.frame.columns)[-1] == "verdict"


def test_bad_tables_are_refused_before_any_work(tables):
    tabs, reach = tables
    with pytest.raises(TypeError, match="each tie-break"):
        LK.knn_ledger({"hamming": tabs["hamming"]}, reach, TOY)
    with pytest.raises(TypeError, match="consensus summary"):
        LK.knn_ledger(tabs, reach.drop(columns="fixed_fraction"), TOY)
