"""Wu & Zhou's committed LIMO tables (``limo_synthetic``, ``limo_benchmark``) against a
recomputation through the runner, the chapter's ledger rows built on them, and the
benchmark's cell cache."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import mlcrepro.wu_zhou2017.benchmark as L
from mlcbook._io import read_csv_exact
from mlcrepro._paths import project_root, results_dir
from mlcrepro.ledger import recheck_statuses
from mlcrepro.wu_zhou2017.benchmark import LIMO_VARIANTS, benchmark_table, synthetic_table

from mlcrepro.tolerances import BR_ATOL, CLOSED_FORM_RTOL, LIMO_SEED_RANGE, LIMO_SYNTHETIC_ATOL


# ------------------------------------------------------- committed result tables
@pytest.mark.recompute
def test_committed_synthetic_table_recomputes():
    """Replication 0 of the synthetic study, through the runner: LIMO is SGD, so the
    measures are compared within ``LIMO_SYNTHETIC_ATOL`` (measured spread,
    ``mlcrepro/tolerances.py``)."""

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
