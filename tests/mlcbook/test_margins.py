"""Margins, effectiveness (Wu & Zhou 2017, Defs 1-5), Table 2, and the committed tables."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mlcbook._io import read_csv_exact
from hypothesis import given, settings
from hypothesis import strategies as st

from mlcbook.margins import (
    effective_scores,
    instance_wise_margins,
    is_double_effective,
    is_instance_wise_effective,
    is_label_wise_effective,
    label_wise_margins,
    random_label_matrix,
    table2_check,
    threshold_with_errors,
)
from mlcbook.metrics import all_measures


# ---------------------------------------------------------------- hand-made cases
def test_margins_by_hand():
    Y = [[1, 0, 1],
         [0, 1, 0],
         [1, 1, 1]]
    F = [[0.9, 0.2, 0.5],
         [0.3, 0.4, 0.1],
         [0.0, 0.0, 0.0]]
    # row 0: min(0.9, 0.5) - 0.2; row 1: 0.4 - max(0.3, 0.1); row 2 has no irrelevant label
    np.testing.assert_allclose(label_wise_margins(Y, F), [0.3, 0.1, np.inf])
    # label 0: min(0.9, 0.0) - 0.3; label 1: min(0.4, 0.0) - 0.2; label 2: min(0.5, 0.0) - 0.1
    np.testing.assert_allclose(instance_wise_margins(Y, F), [-0.3, -0.2, -0.1])
    assert is_label_wise_effective(Y, F)
    assert not is_instance_wise_effective(Y, F)
    assert not is_double_effective(Y, F)


def test_double_effective_and_ties():
    Y = [[1, 0], [0, 1]]
    assert is_double_effective(Y, [[2.0, 0.0], [-1.0, 1.0]])
    # a tie between a relevant and an irrelevant score is a zero margin: not effective
    assert label_wise_margins(Y, [[1.0, 1.0], [0.0, 1.0]])[0] == 0.0
    assert not is_label_wise_effective(Y, [[1.0, 1.0], [0.0, 1.0]])


def test_margins_validate_input():
    with pytest.raises(ValueError, match="same shape"):
        label_wise_margins([[1, 0]], [[0.1, 0.2, 0.3]])
    with pytest.raises(ValueError, match="binary"):
        instance_wise_margins([[2, 0]], [[0.1, 0.2]])


def test_margins_agree_with_pairwise_definition():
    rng = np.random.default_rng(0)
    Y = random_label_matrix(15, 5, 0.4, 1)
    F = rng.normal(size=Y.shape)
    lw = [min(F[i, u] - F[i, v] for u in range(5) for v in range(5) if Y[i, u] and not Y[i, v])
          for i in range(15)]
    iw = [min(F[a, j] - F[b, j] for a in range(15) for b in range(15) if Y[a, j] and not Y[b, j])
          for j in range(5)]
    np.testing.assert_allclose(label_wise_margins(Y, F), lw)
    np.testing.assert_allclose(instance_wise_margins(Y, F), iw)


# ---------------------------------------------------------------- Theorems 1-2
label_matrices = st.builds(
    lambda m, l, d, s: random_label_matrix(m, l, d, s),
    st.integers(12, 30), st.integers(2, 6), st.floats(0.2, 0.7), st.integers(0, 2**31),
)


@settings(max_examples=60, deadline=None)
@given(Y=label_matrices, seed=st.integers(0, 2**31))
def test_label_wise_effective_optimises_theorem1_measures(Y, seed):
    F = effective_scores(Y, "label-wise", seed)
    assert is_label_wise_effective(Y, F)
    v = all_measures(Y, F, Y)
    assert v["ranking_loss"] == 0.0
    assert v["one_error"] == 0.0
    assert v["coverage"] == pytest.approx(np.mean(Y.sum(axis=1) - 1))
    assert v["average_precision"] == pytest.approx(1.0)
    assert v["instance_auc"] == pytest.approx(1.0)


@settings(max_examples=60, deadline=None)
@given(Y=label_matrices, seed=st.integers(0, 2**31))
def test_instance_wise_effective_optimises_macro_auc(Y, seed):
    F = effective_scores(Y, "inst-wise", seed)
    assert is_instance_wise_effective(Y, F)
    assert all_measures(Y, F, Y)["macro_auc"] == pytest.approx(1.0)


@settings(max_examples=30, deadline=None)
@given(Y=label_matrices, seed=st.integers(0, 2**31))
def test_double_construction_is_double_effective(Y, seed):
    assert is_double_effective(Y, effective_scores(Y, "double", seed))


def test_threshold_errors_are_one_sided_and_counted():
    Y = random_label_matrix(40, 6, 0.4, 3)
    F = effective_scores(Y, "label-wise", 4)
    H = threshold_with_errors(F, Y, "t(x)", 5)
    E = H != Y
    assert (E.sum(axis=1) == 1).all()
    # each row errs only by a false negative or only by a false positive
    assert not ((E & (Y == 1)).any(axis=1) & (E & (Y == 0)).any(axis=1)).any()
    Hz = threshold_with_errors(F, Y, "t(x)", 5, errors=0)
    np.testing.assert_array_equal(Hz, Y)


def test_table2_pattern():
    from mlcbook.datasets import make_limo_synthetic

    _, Y = make_limo_synthetic(120, 1)
    got = table2_check([Y, random_label_matrix(80, 6, 0.3, 1)], n_draws=4)
    lw = {"hamming_loss", "ranking_loss", "one_error", "coverage", "average_precision",
          "instance_f1", "micro_f1", "instance_auc"}
    iw = {"hamming_loss", "macro_f1", "micro_f1", "macro_auc"}
    for meas in got.index:
        assert got.loc[meas, "label-wise"] == (meas in lw), meas
        assert got.loc[meas, "inst-wise"] == (meas in iw), meas
        assert got.loc[meas, "double"] == (meas != "micro_auc"), meas


# ------------------------------------------------------- committed result tables
@pytest.mark.recompute
def test_committed_synthetic_table_recomputes():
    """Replication 0 of the synthetic study, through the runner: LIMO is SGD, so the
    measures are compared within ``LIMO_SYNTHETIC_ATOL`` (measured spread,
    ``tests/tolerances.py``)."""
    from mlcrepro._paths import results_dir
    from mlcrepro.wu_zhou2017.benchmark import synthetic_table

    from ..tolerances import LIMO_SYNTHETIC_ATOL

    path = results_dir() / "limo_synthetic.csv"
    assert path.exists(), "data/results/limo_synthetic.csv is committed with the chapter"
    saved = read_csv_exact(path)
    saved = saved[saved["replication"] == 0].reset_index(drop=True)
    new = synthetic_table(1, cache_dir=False)[saved.columns]
    keys = ["replication", "method", "threshold"]
    pd.testing.assert_frame_equal(new[keys], saved[keys], check_dtype=False)
    meas = [c for c in saved.columns if c not in keys]
    np.testing.assert_allclose(new[meas], saved[meas], rtol=0, atol=LIMO_SYNTHETIC_ATOL)


@pytest.mark.recompute
def test_committed_benchmark_unit_recomputes():
    """Medical, replication 0, every method (through the runner), against the committed table.

    ML-kNN and GFM are exact (integer neighbour counts, closed-form measures:
    relative 1e-9); BR (liblinear) within its measured machine-to-machine spread
    ``BR_ATOL``; the LIMO variants are SGD, compared within the per-measure seed range
    ``LIMO_SEED_RANGE``.  The ledger's numbers are means over replications:
    with this replication replaced by the recomputation, every ledger row built on
    such a mean keeps its status.
    """
    from mlcrepro._paths import project_root, results_dir
    from mlcrepro.wu_zhou2017.benchmark import LIMO_VARIANTS, benchmark_table
    from mlcrepro.ledger import recheck_statuses

    from ..tolerances import BR_ATOL, CLOSED_FORM_RTOL, LIMO_SEED_RANGE

    path = results_dir() / "limo_benchmark.csv"
    assert path.exists(), "data/results/limo_benchmark.csv is committed with the chapter"
    table = read_csv_exact(path)
    mask = ((table["dataset"] == "medical") & (table["replication"] == 0)).to_numpy()
    saved = table[mask].reset_index(drop=True)
    new = benchmark_table(["medical"], 1, cache_dir=False)
    assert list(new["method"]) == list(saved["method"])
    meas = list(LIMO_SEED_RANGE)
    sgd = new["method"].isin(list(LIMO_VARIANTS)).to_numpy()
    br = (new["method"] == "BR").to_numpy()
    exact = ~sgd & ~br  # ML-kNN, GFM: integer neighbour counts, closed-form measures
    np.testing.assert_allclose(new.loc[exact, meas], saved.loc[exact, meas],
                               rtol=CLOSED_FORM_RTOL, atol=1e-15)
    for m in meas:
        np.testing.assert_allclose(new.loc[sgd, m], saved.loc[sgd, m], rtol=0,
                                   atol=LIMO_SEED_RANGE[m], err_msg=m)
        np.testing.assert_allclose(new.loc[br, m], saved.loc[br, m], rtol=0,
                                   atol=BR_ATOL[m], err_msg=m)
    swapped = table.copy()
    swapped.loc[mask, meas] = new[meas].to_numpy()
    means = [t.groupby(["dataset", "method"])[meas].mean() for t in (table, swapped)]
    ledger = pd.read_csv(project_root() / "book" / "_ledgers" / "limo.csv",
                         keep_default_na=False)
    rows = recheck_statuses(ledger, means[0].to_numpy(), means[1].to_numpy())
    assert len(rows) > 0  # the chapter's Table B.3 rows are such means
    assert (rows["status"] == rows["status_recomputed"]).all(), rows


def test_benchmark_cells_are_memoised_and_a_corrupt_entry_is_recomputed(tmp_path, monkeypatch):
    import mlcrepro.wu_zhou2017.benchmark as L

    monkeypatch.setenv("MLCBOOK_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("MLCBOOK_RECOMPUTE", raising=False)
    monkeypatch.setattr(L, "BENCHMARK_METHODS", ("ML-kNN", "GFM"))
    calls = []
    real = L.benchmark_cell
    monkeypatch.setattr(L, "benchmark_cell", lambda *a, **k: calls.append(a) or real(*a, **k))
    first = L.benchmark_table(["cal500"], 2)
    assert len(calls) == 4 and list(first["method"]) == ["ML-kNN", "GFM", "GFM-marg"] * 2
    entries = sorted(tmp_path.rglob("*.npz"))
    assert len(entries) == 4
    entries[0].write_bytes(b"PK\x03\x04 truncated")
    with pytest.warns(RuntimeWarning, match="corrupt cache entry"):
        again = L.benchmark_table(["cal500"], 2)
    assert len(calls) == 5  # only the damaged cell
    cols = [c for c in first.columns if c != "seconds"]
    pd.testing.assert_frame_equal(first[cols], again[cols])
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert sorted(files) == entries  # rebuilt in place, no temporary files left
