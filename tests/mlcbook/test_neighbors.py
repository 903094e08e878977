"""The library's one neighbour policy: nearest first, equal distances by training index."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import mlcbook.learners._neighbors as nb
from mlcbook.learners._neighbors import is_integer_valued, nearest_neighbors


def _reference(Xf, Xq, k, metric, loo=False):
    """Brute force: exact distances in long double, stable argsort (ties by index)."""
    A, B = np.asarray(Xq, dtype=np.longdouble), np.asarray(Xf, dtype=np.longdouble)
    diff = A[:, None, :] - B[None, :, :]
    D = (diff**2).sum(-1) if metric == "euclidean" else np.abs(diff).sum(-1)
    if loo:
        np.fill_diagonal(D, np.inf)
    return np.argsort(D, axis=1, kind="stable")[:, :k]


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    n_fit=st.integers(2, 30),
    n_q=st.integers(1, 12),
    d=st.integers(1, 5),
    levels=st.integers(1, 3),
    metric=st.sampled_from(["euclidean", "manhattan"]),
    sparse=st.booleans(),
)
def test_integer_data_equals_brute_force_with_index_ties(seed, n_fit, n_q, d, levels, metric,
                                                         sparse):
    rng = np.random.default_rng(seed)
    Xf = rng.integers(0, levels + 1, (n_fit, d)).astype(float)  # few values: many ties
    Xq = rng.integers(0, levels + 1, (n_q, d)).astype(float)
    k = int(rng.integers(1, n_fit + 1))
    A, B = (sp.csr_matrix(Xf), sp.csr_matrix(Xq)) if sparse else (Xf, Xq)
    got = nearest_neighbors(A, B, k, metric=metric)
    np.testing.assert_array_equal(got, _reference(Xf, Xq, k, metric))  # exact: integers


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), n_fit=st.integers(3, 25), d=st.integers(1, 4))
def test_leave_one_out_excludes_the_point_itself_even_among_duplicates(seed, n_fit, d):
    rng = np.random.default_rng(seed)
    Xf = rng.integers(0, 2, (n_fit, d)).astype(float)  # many duplicate rows
    k = int(rng.integers(1, n_fit))
    got = nearest_neighbors(Xf, None, k)
    assert not np.any(got == np.arange(n_fit)[:, None])
    np.testing.assert_array_equal(got, _reference(Xf, Xf, k, "euclidean", loo=True))


def test_continuous_data_uses_fixed_order_distances():
    rng = np.random.default_rng(3)
    Xf, Xq = rng.normal(size=(50, 7)), rng.normal(size=(9, 7))
    assert not is_integer_valued(Xf)
    got = nearest_neighbors(Xf, Xq, 6)
    np.testing.assert_array_equal(got, _reference(Xf, Xq, 6, "euclidean"))
    # a duplicated training row ties exactly; the lower index comes first
    Xd = np.vstack([Xf, Xf[4]])
    nn = nearest_neighbors(Xd, Xf[4:5], 2)
    np.testing.assert_array_equal(nn, [[4, 50]])


def test_chunks_give_the_same_answer(monkeypatch):
    rng = np.random.default_rng(5)
    Xf = (rng.random((40, 8)) < 0.3).astype(float)
    Xq = (rng.random((33, 8)) < 0.3).astype(float)
    whole = nb.nearest_neighbors(Xf, Xq, 7)
    monkeypatch.setattr(nb, "_CHUNK_CELLS", 40 * 4)  # 4 query rows per chunk
    np.testing.assert_array_equal(nb.nearest_neighbors(Xf, Xq, 7), whole)
    np.testing.assert_array_equal(nb.nearest_neighbors(Xf, None, 7),
                                  _reference(Xf, Xf, 7, "euclidean", loo=True))


def test_integer_check():
    assert is_integer_valued(np.array([[0.0, 3.0], [1.0, 2.0]]))
    assert not is_integer_valued(np.array([[0.5]]))
    assert not is_integer_valued(np.array([[np.nan]]))
    assert not is_integer_valued(np.array([[2.0**30]]))  # squares would pass 2**53
    assert is_integer_valued(sp.csr_matrix((3, 4)))


def test_bad_arguments():
    X = np.zeros((4, 2))
    with pytest.raises(ValueError, match="metric"):
        nearest_neighbors(X, X, 2, metric="cosine")
    with pytest.raises(ValueError, match="n_neighbors"):
        nearest_neighbors(X, X, 5)
    with pytest.raises(ValueError, match="n_neighbors"):
        nearest_neighbors(X, None, 4)  # leave-one-out leaves 3
