"""LossMinimizingKNN (Hüllermeier et al. 2022, Sec. 6, eq. 19): exactness, pruning, API, bad input."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MinMaxScaler

from mlcbook.learners import LossMinimizingKNN, consensus_mask, minimize_summed_loss
from mlcbook.learners.knn import TIE_TOL, l1_preprocessor
from mlcbook.losses import binomial_loss, error_count_losses, polynomial_loss
from mlcbook.plots import plot_difference_heatmaps, row_differences


# ----------------------------------------------------------------- reference
def brute_force(N: np.ndarray, table: np.ndarray, tie_break: str = "hamming") -> np.ndarray:
    """argmin over all 2**K candidates, with the documented tie-break, one query at a time."""
    n, c, K = N.shape
    cands = np.array(list(itertools.product([0, 1], repeat=K)))  # lexicographic order
    out = np.empty((n, K), dtype=np.int8)
    for q in range(n):
        m = (cands[:, None, :] != N[q][None]).sum(axis=2)  # (2**K, c)
        total = table[m].sum(axis=1)
        # the library's tie rule: within TIE_TOL of the largest summed loss, c * max(L)
        tied = np.flatnonzero(total <= total.min() + TIE_TOL * c * np.abs(table).max())
        ham = m.sum(axis=1)
        if tie_break == "hamming":
            keys = [(ham[j], j) for j in tied]
        elif tie_break == "nearest":
            keys = [(m[j, 0], ham[j], j) for j in tied]
        else:  # lexicographic, consensus-keeping candidates first
            agree = (N[q] == N[q][0]).all(axis=0)
            keys = [((cands[j][agree] != N[q][0][agree]).sum(), j) for j in tied]
        out[q] = cands[min(keys)[-1]]
    return out


def random_problem(rng, n=6, K=None, c=None):
    K = int(rng.integers(1, 8)) if K is None else K
    c = int(rng.integers(1, 10)) if c is None else c
    p = rng.uniform(0.05, 0.95)
    return (rng.random((n, c, K)) < p).astype(np.int8)


def random_table(rng, K):
    fam = rng.choice(["binomial", "polynomial"])
    if fam == "binomial":
        return error_count_losses("binomial", int(rng.integers(1, K + 1)), K)
    return error_count_losses("polynomial", float(rng.choice([1.0, 1.5, 2.0, 5.0, 50.0])), K)


# ------------------------------------------------------- exactness and pruning
@pytest.mark.parametrize("tie_break", ["hamming", "nearest", "lexicographic"])
def test_equals_brute_force_on_random_problems(tie_break):
    rng = np.random.default_rng(12345)
    for _ in range(150):
        N = random_problem(rng)
        T = random_table(rng, N.shape[2])
        got = minimize_summed_loss(N, T, tie_break=tie_break)
        np.testing.assert_array_equal(got, brute_force(N, T, tie_break))


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    K=st.integers(1, 7),
    c=st.integers(1, 9),
    tie_break=st.sampled_from(["hamming", "nearest", "lexicographic"]),
)
def test_pruning_never_changes_the_result(seed, K, c, tie_break):
    rng = np.random.default_rng(seed)
    N = random_problem(rng, n=8, K=K, c=c)
    T = np.vstack([error_count_losses("binomial", k, K) for k in range(1, K + 1)]
                  + [error_count_losses("polynomial", a, K) for a in (1.5, 3.0)])
    pruned = minimize_summed_loss(N, T, tie_break=tie_break)
    full = minimize_summed_loss(N, T, tie_break=tie_break, prune=False)
    np.testing.assert_array_equal(pruned, full)


def test_consensus_labels_are_kept():
    rng = np.random.default_rng(7)
    for _ in range(50):
        N = random_problem(rng, n=10)
        K = N.shape[2]
        fixed = consensus_mask(N)
        for k in range(1, K + 1):
            P = minimize_summed_loss(N, error_count_losses("binomial", k, K))
            np.testing.assert_array_equal(P[fixed], N[:, 0, :][fixed])


def test_flat_loss_ties_resolved_toward_consensus():
    # subset 0/1 with all neighbours distinct: every neighbour's label set ties;
    # the Hamming tie-break picks the medoid and never breaks a consensus label.
    N = np.array([[[1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1]]])
    P = minimize_summed_loss(N, error_count_losses("binomial", 4, 4))
    np.testing.assert_array_equal(P, [[0, 0, 1, 1]])  # all tie at (loss, hamming); lexicographic
    Pn = minimize_summed_loss(N, error_count_losses("binomial", 4, 4), tie_break="nearest")
    np.testing.assert_array_equal(Pn, [[1, 0, 0, 1]])  # the nearest neighbour's set
    Pl = minimize_summed_loss(N, error_count_losses("binomial", 4, 4), tie_break="lexicographic")
    np.testing.assert_array_equal(Pl, [[0, 0, 1, 1]])


def test_hamming_surrogate_is_the_majority_vote():
    rng = np.random.default_rng(3)
    N = random_problem(rng, n=40, K=6, c=9)  # odd c: no ties
    P = minimize_summed_loss(N, error_count_losses("binomial", 1, 6))
    np.testing.assert_array_equal(P, (N.mean(axis=1) > 0.5).astype(np.int8))


def test_subset_surrogate_predicts_the_mode():
    N = np.array([[[1, 1, 0], [1, 1, 0], [0, 0, 1], [1, 0, 0], [0, 1, 1]]])
    P = minimize_summed_loss(N, error_count_losses("binomial", 3, 3))
    np.testing.assert_array_equal(P, [[1, 1, 0]])


def test_many_tables_equal_one_at_a_time():
    rng = np.random.default_rng(11)
    N = random_problem(rng, n=30, K=7, c=9)
    T = np.vstack([error_count_losses("binomial", k, 7) for k in range(1, 8)])
    many = minimize_summed_loss(N, T)
    for p in range(7):
        np.testing.assert_array_equal(many[p], minimize_summed_loss(N, T[p]))


def test_prediction_minimises_the_library_loss():
    # the summed loss of the prediction, computed by mlcbook.losses, is minimal over all 2**K
    rng = np.random.default_rng(5)
    K, c = 5, 9
    cands = np.array(list(itertools.product([0, 1], repeat=K)))
    for k in (1, 2, 4):
        N = random_problem(rng, n=4, K=K, c=c)
        P = minimize_summed_loss(N, error_count_losses("binomial", k, K))
        for q in range(N.shape[0]):
            def summed(y):
                return binomial_loss(N[q], np.tile(y, (c, 1)), k, per_instance=True).sum()
            best = min(summed(y) for y in cands)
            assert summed(P[q]) <= best + 1e-12
    N = random_problem(rng, n=3, K=K, c=c)
    P = minimize_summed_loss(N, error_count_losses("polynomial", 2.0, K))
    for q in range(3):
        def summed_p(y):
            return polynomial_loss(N[q], np.tile(y, (c, 1)), 2.0, per_instance=True).sum()
        assert summed_p(P[q]) <= min(summed_p(y) for y in cands) + 1e-12


def test_larger_problem_matches_unpruned_search():
    rng = np.random.default_rng(99)
    N = (rng.random((20, 9, 12)) < 0.15).astype(np.int8)
    T = np.vstack([error_count_losses("binomial", k, 12) for k in (1, 3, 6, 12)])
    np.testing.assert_array_equal(minimize_summed_loss(N, T), minimize_summed_loss(N, T, prune=False))


# ------------------------------------------------------------------ estimator
@pytest.fixture
def toy():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 4))
    Y = np.column_stack([X[:, 0] > 0, X[:, 1] > 0, (X[:, 0] + X[:, 1]) > 0, X[:, 2] > 1]).astype(int)
    return X, Y


def test_estimator_api(toy):
    X, Y = toy
    est = LossMinimizingKNN(n_neighbors=5, param=2)
    assert est.get_params() == {"n_neighbors": 5, "family": "binomial", "param": 2,
                                "tie_break": "hamming", "max_free_labels": 20}
    assert clone(est).get_params() == est.get_params()
    with pytest.raises(NotFittedError):
        est.predict(X)
    assert est.fit(X, Y) is est
    P = est.predict(X)
    assert P.shape == Y.shape and set(np.unique(P)) <= {0, 1}
    assert est.n_labels_ == 4 and est.n_features_in_ == 4
    est.set_params(param=1)
    np.testing.assert_array_equal(est.predict(X), est.predict_params(X, [1])[0])
    # deterministic
    np.testing.assert_array_equal(est.predict(X), clone(est).fit(X, Y).predict(X))
    pipe = make_pipeline(MinMaxScaler(), LossMinimizingKNN(n_neighbors=3)).fit(X, Y)
    assert pipe.predict(X[:5]).shape == (5, 4)


def test_predict_equals_minimiser_of_neighbour_labels(toy):
    X, Y = toy
    est = LossMinimizingKNN(n_neighbors=7, family="polynomial", param=3.0).fit(X, Y)
    N = est.neighbor_labels(X[:20])
    np.testing.assert_array_equal(
        est.predict(X[:20]), brute_force(N, error_count_losses("polynomial", 3.0, 4))
    )


def test_neighbours_are_l1_nearest_with_stable_ties():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [3.0, 3.0], [0.5, 0.5]])
    Y = np.eye(5, 3, dtype=int)
    est = LossMinimizingKNN(n_neighbors=3).fit(X, Y)
    # from the origin: 0 (d=0), then 1, 2 and 4 all at L1 distance 1 -> training order 1, 2
    np.testing.assert_array_equal(est.kneighbors([[0.0, 0.0]]), [[0, 1, 2]])
    # Euclidean would rank point 4 (distance 0.71) before 1 and 2
    assert est.kneighbors([[0.5, 0.5]])[0, 0] == 4


def test_neighbours_match_a_stable_full_sort_with_many_ties():
    rng = np.random.default_rng(4)
    X = rng.integers(0, 3, size=(120, 3)).astype(float)  # many equal distances
    Y = rng.integers(0, 2, size=(120, 2))
    Q = rng.integers(0, 3, size=(40, 3)).astype(float)
    for c in (1, 5, 9):
        est = LossMinimizingKNN(n_neighbors=c).fit(X, Y)
        D = np.abs(Q[:, None, :] - X[None, :, :]).sum(axis=2)
        np.testing.assert_array_equal(est.kneighbors(Q), np.argsort(D, axis=1, kind="stable")[:, :c])


def test_sparse_input_same_as_dense(toy):
    import scipy.sparse as sp

    X, Y = toy
    Xs = sp.csr_matrix(np.where(np.abs(X) > 1, X, 0.0))
    dense = LossMinimizingKNN(param=2).fit(Xs.toarray(), Y).predict(Xs.toarray())
    sparse = LossMinimizingKNN(param=2).fit(Xs, Y).predict(Xs)
    np.testing.assert_array_equal(dense, sparse)


def test_n_free_labels(toy):
    X, Y = toy
    est = LossMinimizingKNN(n_neighbors=1).fit(X, Y)
    assert (est.n_free_labels(X) == 0).all()  # one neighbour always agrees with itself


# ------------------------------------------------------------------- bad input
def test_bad_input(toy):
    X, Y = toy
    with pytest.raises(ValueError, match="n_neighbors"):
        LossMinimizingKNN(n_neighbors=100).fit(X, Y)
    with pytest.raises(TypeError, match="n_neighbors"):
        LossMinimizingKNN(n_neighbors=2.5).fit(X, Y)
    with pytest.raises(ValueError, match="family"):
        LossMinimizingKNN(family="owa").fit(X, Y)
    with pytest.raises(ValueError, match="param"):
        LossMinimizingKNN(param=5).fit(X, Y)  # binomial k > K = 4
    with pytest.raises(ValueError, match="param"):
        LossMinimizingKNN(family="polynomial", param=0.5).fit(X, Y)
    with pytest.raises(ValueError, match="tie_break"):
        LossMinimizingKNN(tie_break="random").fit(X, Y)
    with pytest.raises(ValueError, match="binary"):
        LossMinimizingKNN().fit(X, Y * 2)
    with pytest.raises(ValueError, match="same number of rows"):
        LossMinimizingKNN().fit(X[:-1], Y)
    est = LossMinimizingKNN().fit(X, Y)
    with pytest.raises(ValueError, match="features"):
        est.predict(X[:, :2])
    with pytest.raises(ValueError, match="params"):
        est.predict_params(X, [])


def test_bad_input_minimiser():
    N = np.zeros((2, 3, 4), dtype=int)
    with pytest.raises(ValueError, match="shape"):
        minimize_summed_loss(N, np.zeros(4))
    with pytest.raises(ValueError, match="non-decreasing"):
        minimize_summed_loss(N, [0.0, 1.0, 0.5, 1.0, 1.0])
    with pytest.raises(ValueError, match="binary"):
        minimize_summed_loss(N + 2, error_count_losses("binomial", 1, 4))
    with pytest.raises(ValueError, match="neighbor_labels"):
        minimize_summed_loss(np.zeros((3, 4)), error_count_losses("binomial", 1, 4))
    with pytest.raises(ValueError, match="tie_break"):
        minimize_summed_loss(N, error_count_losses("binomial", 1, 4), tie_break="x")


def test_too_many_free_labels_is_refused():
    N = np.array([[[0, 1, 0, 1, 0, 1], [1, 0, 1, 0, 1, 0]]])
    T = error_count_losses("binomial", 2, 6)
    with pytest.raises(ValueError, match="free labels"):
        minimize_summed_loss(N, T, max_free_labels=5)
    assert minimize_summed_loss(N, T, max_free_labels=6).shape == (1, 6)


# ------------------------------------------------------------------- experiment
def test_l1_preprocessor_nominal_distance_one():
    X = np.array([[0.0, 10.0], [1.0, 20.0], [2.0, 30.0]])  # column 0 nominal with 3 categories
    Z = l1_preprocessor(2, {0: 3}).fit_transform(X)
    d = np.abs(Z[:, None, :] - Z[None, :, :]).sum(axis=2)
    np.testing.assert_allclose(d, [[0, 1.5, 2], [1.5, 0, 1.5], [2, 1.5, 0]])


# ------------------------------------------------------------------ heatmaps
def test_row_differences_and_heatmaps():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    M = pd.DataFrame([[0.10, 0.12, 0.20], [0.30, 0.25, 0.26]], index=[1, 2], columns=[1, 2, 3])
    D = row_differences(M, clip=0.02)
    np.testing.assert_allclose(D.to_numpy(), [[0, 0.02, 0.02], [0.02, 0, 0.01]])
    np.testing.assert_allclose(row_differences(M).to_numpy()[1], [0.05, 0, 0.01])
    fig = plot_difference_heatmaps({"a": M, "b": M.T.reset_index(drop=True).T}, clip=0.02)
    assert sum(ax.get_visible() for ax in fig.axes) == 3  # two heatmaps and the colour bar
    plt.close(fig)
    with pytest.raises(TypeError, match="DataFrame"):
        row_differences(M.to_numpy())
    with pytest.raises(ValueError, match="clip"):
        row_differences(M, clip=0)
    with pytest.raises(ValueError, match="empty"):
        plot_difference_heatmaps({})
