"""The authors' LIMO data files (YuriWu/LIMO 4135cf5) against the registry's data sets."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.preprocessing import maxabs_scale

from mlcbook.datasets import load_dataset
from mlcbook.datasets.fetch import ChecksumError
from mlcrepro.wu_zhou2017 import authors

# the authors' file stem -> the registry's name, with the sizes the registry documents
_REGISTRY = {
    "emotions": ("emotions", 593, 72, 6),
    "CAL500": ("cal500", 502, 68, 174),
    "enron": ("enron", 1702, 1001, 53),
}


@pytest.fixture(scope="module", params=authors.DATASETS)
def both(request):
    name = request.param
    reg_name, n, d, K = _REGISTRY[name]
    X, Y = load_dataset(reg_name)[:2]
    X = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=float)
    Y = Y.toarray() if sp.issparse(Y) else np.asarray(Y)
    return name, (n, d, K), authors.load_authors_dataset(name), X, Y


def test_shapes_and_label_counts_equal_the_registry(both):
    _, (n, d, K), a, X, Y = both
    assert a.X.shape == X.shape == (n, d)
    assert a.Y.shape == Y.shape == (n, K)
    assert a.randperms.shape == (10, n)
    assert set(np.unique(a.Y).tolist()) == {0, 1}
    # per-label counts as multisets (enron's label columns come in another order)
    assert sorted(a.Y.sum(axis=0).tolist()) == sorted(Y.sum(axis=0).tolist())
    assert int(a.Y.sum()) == int(Y.sum())


def test_rows_are_the_registry_rows_in_the_same_order(both):
    _, _, a, X, Y = both
    np.testing.assert_array_equal(a.X, X)  # the same numbers, read from .mat and ARFF
    # every authors' label column is one of the registry's, each used once
    reg_cols = {Y[:, j].tobytes(): j for j in range(Y.shape[1])}
    matched = [reg_cols.get(a.Y[:, j].astype(Y.dtype).tobytes()) for j in range(a.Y.shape[1])]
    assert None not in matched
    assert sorted(matched) == list(range(Y.shape[1]))


def test_splits_partition_the_rows_as_demo_m(both):
    _, (n, _, _), a, _, _ = both
    splits = authors.authors_splits(a.randperms)
    assert len(splits) == 10
    n_test = int(np.floor(0.3 * n + 0.5))  # MATLAB's round(0.3*n), n*0.3 is never a half here
    for k, (train, test) in enumerate(splits):
        assert len(test) == n_test and len(train) == n - n_test
        assert np.intersect1d(train, test).size == 0
        np.testing.assert_array_equal(np.sort(np.concatenate([train, test])), np.arange(n))
        np.testing.assert_array_equal(test, a.randperms[k, :n_test] - 1)  # 1-based -> 0-based
        assert np.all(np.diff(train) > 0)  # train_idx(test_idx) = [] keeps the row order


def test_normalisation_is_max_abs_scaling(both):
    _, _, a, _, _ = both
    Z = authors.normalize_max_abs(a.X)
    # scikit-learn's MaxAbsScaler divides by the same maximum (no column is all zero here)
    np.testing.assert_allclose(Z, maxabs_scale(a.X), rtol=0, atol=0)
    assert np.abs(Z).max(axis=0) == pytest.approx(np.ones(a.X.shape[1]))


def test_a_tampered_file_is_refused(tmp_path, monkeypatch):
    mirror = tmp_path / "wu_zhou2017"
    shutil.copytree(authors.reference_dir() / "limo" / "data", mirror / "limo" / "data")
    path = mirror / "limo" / "data" / "emotions.mat"
    path.write_bytes(path.read_bytes()[:-1] + b"\x00")
    monkeypatch.setenv("MLCBOOK_WU_ZHOU_REFERENCE", str(mirror))
    with pytest.raises(ChecksumError, match=r"emotions\.mat"):
        authors.load_authors_dataset("emotions")


def test_bad_names_are_refused():
    with pytest.raises(ValueError, match="name must be one of"):
        authors.load_authors_dataset("cal500")
    with pytest.raises(ValueError, match="relative must be one of"):
        authors.reference_file("limo/README.md")
    with pytest.raises(ValueError, match="randperms must be a 2-D integer array"):
        authors.authors_splits(np.zeros((2, 3)))
