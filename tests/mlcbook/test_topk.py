"""Ranking measures of top-k and sparse scores (mlcbook.topk, mlcbook._listed).

The convention under test (mlcbook.topk): the labels a row does not list tie with
each other below every listed score.  So each measure of a TopK or a sparse score
matrix must equal the same measure of the dense matrix in which the unlisted entries
are set to one value below every listed score -- computed here by the dense code of
mlcbook.metrics, itself tested against scikit-learn and brute force
(test_metrics.py), and checked again below against brute-force pair counting on the
filled matrix.  Ties are forced (integer scores) in half the cases, as are rows
listing nothing relevant, rows whose every label is relevant and all-unlisted
columns.

Tolerance: the listed code sums per tie group in another order than the dense code
(decreasing score vs. ascending, sequential vs. pairwise); integer counts are exact
and the only rounding is in average precision's sum of fractions (at most K terms of
size <= 1), so 1e-12 absolute is a thousand times the largest rounding difference
possible here (K <= 12: 12 * 2**-52 ~ 3e-15).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlcbook import _listed
from mlcbook import metrics as M
from mlcbook import registry as R
from mlcbook.intervals import bootstrap_interval, paired_comparison
from mlcbook.topk import TopK

from .test_metrics import brute_ranking

TOL = 1e-12
ROW_MEASURES = ("ranking_loss", "one_error", "coverage", "average_precision")
AVGS = ("instance", "macro", "micro")


def random_topk(rng, n, K, k, ties):
    idx = np.array([rng.permutation(K)[:k] for _ in range(n)])
    S = rng.integers(0, 3, size=(n, k)).astype(float) if ties else rng.normal(size=(n, k))
    return idx, S


def filled(idx, S, K, below=None):
    """The dense matrix of a top-k: unlisted entries one value below every listed."""
    n = idx.shape[0]
    low = S.min() - 1.0 if below is None else below
    D = np.full((n, K), low)
    np.put_along_axis(D, idx, S, axis=1)
    return D


def same(a, b):
    return (np.isnan(a) and np.isnan(b)) or abs(a - b) <= TOL


def assert_all_equal(Yin, F, Y, D, w=None):
    for name in ROW_MEASURES:
        fn = getattr(M, name)
        a, b = fn(Yin, F, sample_weight=w), fn(Y, D, sample_weight=w)
        assert a == pytest.approx(b, abs=TOL), name
        np.testing.assert_allclose(fn(Yin, F, per_instance=True),
                                   fn(Y, D, per_instance=True), atol=TOL, rtol=0)
    for avg in AVGS:
        a, b = M.auc(Yin, F, avg, sample_weight=w), M.auc(Y, D, avg, sample_weight=w)
        assert same(a, b), (avg, a, b)
    np.testing.assert_allclose(M.auc(Yin, F, "instance", per_instance=True),
                               M.auc(Y, D, "instance", per_instance=True), atol=TOL, rtol=0)


# ------------------------------------------------------------------- the convention
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 9), K=st.integers(1, 8),
       ties=st.booleans(), sparse_y=st.booleans(), weighted=st.booleans())
def test_topk_equals_dense_with_unlisted_below(seed, n, K, ties, sparse_y, weighted):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(1, K + 1))
    Y = (rng.random((n, K)) < rng.uniform(0.1, 0.9)).astype(np.int64)
    idx, S = random_topk(rng, n, K, k, ties)
    w = rng.uniform(0.1, 2.0, n) if weighted else None
    Yin = sp.csr_matrix(Y) if sparse_y else Y
    assert_all_equal(Yin, TopK(idx, S, K), Y, filled(idx, S, K), w)


@pytest.mark.parametrize("seed", range(12))
def test_topk_equals_brute_force_pair_counts(seed):
    rng = np.random.default_rng(seed)
    n, K = 15, 7
    Y = (rng.random((n, K)) < 0.35).astype(np.int64)
    Y[0], Y[1] = 0, 1  # no relevant label; every label relevant
    idx, S = random_topk(rng, n, K, 3, ties=seed % 2 == 0)
    ref = brute_ranking(Y, filled(idx, S, K))
    top = TopK(idx, S, K)
    for name in ROW_MEASURES:
        assert getattr(M, name)(Y, top) == pytest.approx(ref[name], abs=TOL), name


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 9), K=st.integers(1, 9),
       density=st.floats(0.0, 1.0), ties=st.booleans())
def test_sparse_scores_equal_dense_with_unstored_below(seed, n, K, density, ties):
    """A sparse score matrix lists its stored entries; with positive stored scores the
    unstored zeros lie below them, so the result is the dense matrix's own."""
    rng = np.random.default_rng(seed)
    Y = (rng.random((n, K)) < 0.4).astype(np.int64)
    Fs = sp.random(n, K, density=density, format="csr", random_state=rng.integers(2**31))
    Fs.data = (np.round(Fs.data * 3) + 1) if ties else Fs.data + 0.5
    assert_all_equal(sp.csr_matrix(Y), Fs, Y, Fs.toarray())


# the listing convention with negative stored scores is what this test checks: the
# warning that it is not the dense matrix's ranking is expected
@pytest.mark.filterwarnings("ignore::mlcbook._listed.SparseScoresWarning")
@pytest.mark.parametrize("pad_factor", [4, 0, -1])  # padded sort / one global sort
def test_ragged_sparse_rows_sorted_either_way(monkeypatch, pad_factor):
    monkeypatch.setattr(_listed, "_PAD_FACTOR", pad_factor)
    rng = np.random.default_rng(5)
    n, K = 30, 12
    Y = (rng.random((n, K)) < 0.3).astype(np.int64)
    Fs = sp.random(n, K, density=0.35, format="csr", random_state=1)
    Fs.data = np.round(Fs.data * 4) - 2.0  # ties, negatives and stored zeros
    Fs.data[Fs.data == 0] = 0.0
    # the convention: stored entries (explicit zeros too) above every unstored one
    D = np.full((n, K), Fs.data.min() - 1.0)
    D[np.repeat(np.arange(n), np.diff(Fs.indptr)), Fs.indices] = Fs.data
    assert_all_equal(Y, Fs, Y, D)


def test_unsorted_and_sorted_topk_give_the_same_values():
    rng = np.random.default_rng(0)
    Y = (rng.random((40, 9)) < 0.3).astype(np.int64)
    idx, S = random_topk(rng, 40, 9, 4, ties=False)
    order = np.argsort(-S, axis=1)
    a = TopK(idx, S, 9)
    b = TopK(np.take_along_axis(idx, order, 1), np.take_along_axis(S, order, 1), 9)
    for name in ROW_MEASURES:
        assert getattr(M, name)(Y, a) == getattr(M, name)(Y, b)


# ------------------------------------------------------------------- by hand
def test_hand_computed_top2_of_five_labels():
    """Row 0: labels 0 and 3 relevant; listed 3 (0.9) and 1 (0.5); unlisted 0, 2, 4.
    Row 1: label 4 relevant; listed 4 (0.2) and 0 (0.7)."""
    Y = np.array([[1, 0, 0, 1, 0], [0, 0, 0, 0, 1]])
    top = TopK([[3, 1], [4, 0]], [[0.9, 0.5], [0.2, 0.7]], n_labels=5)
    # ranking loss, row 0: pairs (3, v) all right; (0, v) with v in {1, 2, 4} wrong
    # (1 listed above, 2 and 4 tied): 3 of 2 * 3 = 6.  Row 1: only (4, 0) wrong: 1/4.
    assert M.ranking_loss(Y, top) == pytest.approx((3 / 6 + 1 / 4) / 2, abs=1e-15)
    # one-error: row 0's top is 3 (relevant), row 1's is 0 (irrelevant)
    assert M.one_error(Y, top) == 0.5
    # coverage: row 0 must reach the unlisted label 0, worst rank 5 -> 4; row 1: 4 at 2 -> 1
    assert M.coverage(Y, top) == pytest.approx((4 + 1) / 2)
    # average precision: row 0: label 3 at rank 1 (1/1), label 0 at rank 5 (2/5);
    # row 1: label 4 at rank 2 (1/2)
    assert M.label_ranking_average_precision(Y, top) == pytest.approx(((1 + 2 / 5) / 2 + 1 / 2) / 2)
    # instance AUC, row 0: (3, v) 3 right; (0, 1) wrong; (0, 2), (0, 4) ties -> 3 + 1 = 4
    # of 6; row 1: (4, 0) wrong, (4, 1..3) right -> 3 of 4
    assert M.auc(Y, top, "instance") == pytest.approx((4 / 6 + 3 / 4) / 2)


def test_a_row_listing_nothing_ranks_all_labels_tied():
    """A sparse row with no stored score: all K labels tie; one-error takes label 0."""
    Y = np.array([[0, 1, 1], [1, 0, 0]])
    Fs = sp.csr_matrix(np.array([[0.0, 0.0, 0.0], [0.3, 0.0, 0.1]]))
    assert M.one_error(Y, Fs, per_instance=True).tolist() == [1.0, 0.0]
    # row 0: all ties: every (relevant, irrelevant) pair wrong; coverage K - 1
    assert M.ranking_loss(Y, Fs, per_instance=True)[0] == 1.0
    assert M.coverage(Y, Fs, per_instance=True)[0] == 2.0
    assert M.auc(Y, Fs, "instance", per_instance=True)[0] == 0.5


def test_one_error_tie_for_the_top_takes_the_lowest_label():
    Y = np.array([[0, 1, 0, 0], [1, 0, 0, 0]])
    top = TopK([[2, 1], [3, 0]], [[0.5, 0.5], [0.5, 0.5]], n_labels=4)
    # row 0: labels 1 and 2 tie, 1 is first and relevant; row 1: 0 first, relevant
    assert M.one_error(Y, top, per_instance=True).tolist() == [0.0, 0.0]


def test_micro_auc_exact_beyond_2_53_pairs():
    """Micro AUC counts its pairs in integers.  Here n K = 4e11 entries and 2e5
    relevant ones: 2 * P * N ~ 1.6e17 > 2**53, where float64 sums of the pair counts
    would round.  Even rows list their relevant label at score 2 (above every
    negative), odd rows list an irrelevant label at 1 and leave their relevant one
    unlisted (tied with the unlisted negatives, below the listed ones).  Closed form:
    good pairs = a N + b (N_unlisted) / 2 with a = b = n/2; the result must be the
    correctly rounded ratio (Fraction)."""
    n, K = 200_000, 2_000_000
    rows = np.arange(n)
    rel_label = rows % K
    Y = sp.csr_matrix((np.ones(n, np.int8), rel_label, np.arange(n + 1)), shape=(n, K))
    idx = np.where(rows % 2 == 0, rel_label, (rel_label + 1) % K)[:, None]
    S = np.where(rows % 2 == 0, 2.0, 1.0)[:, None]
    a = b = n // 2
    N = n * K - n
    N_unlisted = N - b  # the odd rows' listed labels are irrelevant
    expected = Fraction(2 * a * N + b * N_unlisted, 2 * (a + b) * N)
    assert M.auc(Y, TopK(idx, S, K), "micro") == float(expected)


# ------------------------------------------------------------------- the TopK type
def test_topk_validates_at_the_boundary():
    with pytest.raises(ValueError, match="indices and scores must have the same shape"):
        TopK([[0, 1]], [[0.1]], 3)
    with pytest.raises(ValueError, match=r"indices must lie in \[0, 3\)"):
        TopK([[0, 3]], [[0.2, 0.1]], 3)
    with pytest.raises(ValueError, match="indices must lie"):
        TopK([[-1, 0]], [[0.2, 0.1]], 3)
    with pytest.raises(ValueError, match="row 1 lists label 2 twice"):
        TopK([[0, 1], [2, 2]], [[0.2, 0.1], [0.3, 0.2]], 3)
    with pytest.raises(ValueError, match="row 0 lists label 5 twice"):
        TopK([list(range(9)) + [5]], [list(range(10))], 10)  # the sorting check (k > 8)
    with pytest.raises(ValueError, match="scores must not contain NaN"):
        TopK([[0, 1]], [[np.nan, 0.1]], 3)
    with pytest.raises(TypeError, match="indices must hold integer"):
        TopK([[0.0, 1.0]], [[0.2, 0.1]], 3)
    with pytest.raises(TypeError, match="scores must hold real"):
        TopK([[0, 1]], [["a", "b"]], 3)
    with pytest.raises(ValueError, match="exceeds n_labels"):
        TopK([[0, 1, 2]], [[0.3, 0.2, 0.1]], 2)
    with pytest.raises(TypeError, match="n_labels must be an integer"):
        TopK([[0]], [[0.1]], 2.0)
    with pytest.raises(TypeError, match="indices must be an array"):
        TopK(sp.csr_matrix([[0, 1]]), [[0.2, 0.1]], 3)


def test_topk_shape_checked_against_the_truth_and_conventions_refused():
    top = TopK([[0, 1]], [[0.2, 0.1]], 3)
    with pytest.raises(ValueError, match=r"Y and F must have the same shape"):
        M.ranking_loss(np.zeros((1, 4), int), top)
    with pytest.raises(ValueError, match="convention='wu_zhou' needs a dense score matrix"):
        M.coverage(np.zeros((1, 3), int), top, convention="wu_zhou")
    with pytest.raises(ValueError, match="per_instance=True needs average='instance'"):
        M.auc(np.zeros((1, 3), int), top, "macro", per_instance=True)
    with pytest.raises(ValueError, match="F must not contain NaN"):
        M.ranking_loss(np.zeros((1, 3), int), sp.csr_matrix([[np.nan, 0.0, 1.0]]))


def test_topk_label_matrix_and_repr():
    top = TopK([[2, 0], [1, 3]], [[0.9, 0.4], [0.8, 0.7]], n_labels=4)
    assert top.label_matrix().toarray().tolist() == [[1, 0, 1, 0], [0, 1, 0, 1]]
    assert repr(top) == "TopK(n_samples=2, k=2, n_labels=4)"
    one = TopK([3, 1], [0.5, 0.4], n_labels=4)  # a 1-D pair is one instance
    assert one.shape == (1, 4) and one.k == 2


# ------------------------------------------------------------------- other surfaces
@pytest.mark.parametrize("seed", range(6))
def test_all_measures_of_topk_equals_the_dense_computation(seed):
    rng = np.random.default_rng(seed)
    n, K = 60, 10
    Y = (rng.random((n, K)) < 0.3).astype(np.int64)
    Y[0] = 0
    idx, S = random_topk(rng, n, K, 4, ties=seed % 2 == 0)
    top = TopK(idx, S, K)
    P = top.label_matrix()  # the listed labels as the prediction, sparse
    got = M.all_measures(sp.csr_matrix(Y), top, P)
    ref = M.all_measures(Y, filled(idx, S, K), P.toarray())
    assert list(got) == list(ref)
    for key in ref:
        assert same(got[key], ref[key]), key


def test_intervals_and_paired_comparison_take_topk_scores():
    rng = np.random.default_rng(3)
    n, K = 200, 12
    Y = (rng.random((n, K)) < 0.25).astype(np.int64)
    ia, Sa = random_topk(rng, n, K, 5, ties=False)
    ib, Sb = random_topk(rng, n, K, 5, ties=False)
    a, b = TopK(ia, Sa, K), TopK(ib, Sb, K)
    Ys = sp.csr_matrix(Y)
    for name, kw in (("ranking_loss", {}), ("precision_at_k", {"k": 3})):
        ci = bootstrap_interval(name, Ys, a, n_resamples=499, random_state=0, **kw)
        dense = bootstrap_interval(name, Y, filled(ia, Sa, K), n_resamples=499,
                                   random_state=0, **kw)
        # the same per-instance values (to rounding), the same resamples
        assert ci.estimate == pytest.approx(dense.estimate, abs=TOL)
        assert (ci.low, ci.high) == pytest.approx((dense.low, dense.high), abs=1e-12)
        cmp = paired_comparison(name, Ys, a, b, n_resamples=199, n_permutations=199,
                                random_state=0, **kw)
        assert cmp.difference == pytest.approx(cmp.estimate_a - cmp.estimate_b, abs=1e-15)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 12), K=st.integers(1, 7),
       ties=st.booleans(), weighted=st.booleans())
def test_scikit_learn_named_ranking_measures_of_topk(seed, n, K, ties, weighted):
    """roc_auc, average_precision and coverage_error (scikit-learn's names, values and
    undefined cases) of a top-k equal theirs of the filled dense matrix, which equal
    scikit-learn's own (tested in the registry's tests)."""
    rng = np.random.default_rng(seed)
    k = int(rng.integers(1, K + 1))
    Y = (rng.random((n, K)) < 0.4).astype(np.int64)
    idx, S = random_topk(rng, n, K, k, ties)
    w = rng.uniform(0.1, 2.0, n) if weighted else None
    top, D = TopK(idx, S, K), filled(idx, S, K)
    for name in ("roc_auc", "average_precision", "coverage_error"):
        spec = R.get_measure(name)
        a = spec.compute(sp.csr_matrix(Y), top, sample_weight=w)
        b = spec.compute(Y, D, sample_weight=w)
        assert same(a, b), (name, a, b)
