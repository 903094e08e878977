"""The benchmark's baselines measured by the authors' conventions (``limo_benchmark_conventions``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import f1_score

from mlcrepro.ledger import Cause
from mlcrepro.tolerances import BR_ATOL
from mlcrepro.wu_zhou2017 import conventions as cv
from mlcrepro.wu_zhou2017.benchmark import BASELINE_METHODS, baseline_predictions, scaled_split
from mlcrepro.wu_zhou2017.experiments import load
from mlcrepro.wu_zhou2017.names import PAPER_COLUMN


@pytest.fixture(scope="module")
def committed():
    return load(cv.CONVENTIONS_TABLE)


def test_the_committed_table_covers_every_cell(committed):
    counts = committed.groupby(["dataset", "replication", "method"]).size()
    assert len(counts) == len(cv.CONVENTIONS_DATASETS) * 10 * (len(BASELINE_METHODS) + 1)
    assert set(counts) == {len(PAPER_COLUMN)}  # eleven measures, GFM-marg beside GFM


@pytest.mark.recompute
def test_committed_cells_recompute_and_differ_from_the_benchmark_only_by_the_convention(
    committed,
):
    """Medical's first split (about a second): each baseline's cell equals its committed
    rows (BR within the machine bound ``BR_ATOL``; ML-kNN and GFM are deterministic, 1e-12
    absorbs summation order); its macro-F1 is scikit-learn's with ``zero_division=0`` on
    the same predictions, and the committed benchmark's, measured the book's way, is
    scikit-learn's with ``zero_division=1``."""
    bench = load("limo_benchmark")
    Xtr, Xte, Ytr, Yte = scaled_split("medical", 0)
    for method in BASELINE_METHODS:
        new = cv.conventions_cell("medical", 0, method, k=10, C=1.0)
        old = committed[(committed.dataset == "medical") & (committed.replication == 0)]
        old = old[old.method.isin(new.method.unique())].reset_index(drop=True)
        pd.testing.assert_frame_equal(new.drop(columns="value"), old.drop(columns="value"))
        tol = np.array([BR_ATOL[m] if method == "BR" else 1e-12 for m in new.measure])
        assert (np.abs(new.value - old.value) <= tol).all(), method
        for row, (_, P) in baseline_predictions(method, Xtr, Ytr, Xte).items():
            ours = new[(new.method == row) & (new.measure == "macro_f1")].value.item()
            assert ours == pytest.approx(f1_score(Yte, P, average="macro", zero_division=0))
            b = bench[(bench.dataset == "medical") & (bench.replication == 0)]
            book = b[b.method == row].macro_f1.item()
            assert book == pytest.approx(f1_score(Yte, P, average="macro", zero_division=1))
            assert book > ours  # medical's test part lacks some labels


def _paper(mean, std):
    return pd.DataFrame(
        {"dataset": ["medical"], "method": ["ML-kNN"], "measure": ["macro_f1"],
         "mean": [mean], "std": [std]}
    )


def _table(values, method="ML-kNN", measure="macro_f1"):
    return pd.DataFrame(
        {"dataset": "medical", "replication": range(len(values)), "method": method,
         "measure": measure, "value": values}
    )


def test_a_cell_within_the_papers_std_gets_a_tested_cause_naming_its_mean():
    # mean 0.18 against 0.190 ± 0.0096: 0.01 <= 0.0096 + 0.0005 (half a printed unit)
    (cause,) = cv.convention_causes(_table([0.17, 0.19]), _paper("0.190", "0.0096")).values()
    assert isinstance(cause, Cause) and cause.kind == "tested" and "0.1800" in cause.text
    assert cv.convention_causes(_table([0.17, 0.19]), _paper("0.190", "0.009")) == {}
    # not an F1 measure, or not a row of Table B.3 (GFM-marg): no cause from this evidence
    assert cv.convention_causes(_table([0.19], measure="hamming_loss"), _paper("0.190", "0.1")) == {}
    assert cv.convention_causes(_table([0.19], method="GFM-marg"), _paper("0.190", "0.1")) == {}


def test_bad_method_is_refused():
    with pytest.raises(ValueError, match="method"):
        cv.conventions_cell("medical", 0, "LIMO", k=10, C=1.0)
    with pytest.raises(ValueError, match="method"):
        baseline_predictions("LIMO", None, None, None)
