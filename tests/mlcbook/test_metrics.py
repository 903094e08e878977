"""Tests of mlcbook.metrics.

Three kinds of evidence:

* equality with scikit-learn on random problems (many seeds and hypothesis),
  dense and sparse, with ties, all-zero and all-one rows;
* small cases computed by hand (from the papers' definitions), and brute-force
  pair counting written directly from Wu & Zhou's Table 1;
* bad input raising TypeError/ValueError that names the argument.
"""

from __future__ import annotations

import warnings
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
import scipy.sparse as sp
from scipy import stats
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

from mlcbook import metrics as M

SPARSE_FORMATS = (sp.csr_matrix, sp.csc_matrix, sp.coo_matrix)
AVG_SK = {"micro": "micro", "macro": "macro", "instance": "samples"}


# ----------------------------------------------------------------------------- helpers
def random_problem(seed: int, n: int | None = None, K: int | None = None, *, ties: bool = False,
                   degenerate: bool = True):
    """A random (Y, P, F) with varying density; optionally integer (tied) scores and
    forced all-zero / all-one rows and columns."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 40)) if n is None else n
    K = int(rng.integers(2, 9)) if K is None else K
    dens_y, dens_p = rng.uniform(0.05, 0.9, size=2)
    Y = (rng.random((n, K)) < dens_y).astype(np.int64)
    P = (rng.random((n, K)) < dens_p).astype(np.int64)
    F = rng.integers(0, 4, size=(n, K)).astype(float) if ties else rng.normal(size=(n, K))
    if degenerate and n >= 4:
        Y[0] = 0
        P[0] = 0          # both empty: the zero_division case
        Y[1] = 1
        P[2] = 0
    return Y, P, F


def sk_quiet(fn, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


def brute_ranking(Y, F):
    """Wu & Zhou's Table 1 ranking measures by explicit loops (reference only)."""
    n, K = Y.shape
    rl, oe, cov, ap, iauc_ge = [], [], [], [], []
    for i in range(n):
        pos = [j for j in range(K) if Y[i, j]]
        neg = [j for j in range(K) if not Y[i, j]]
        rank = [sum(F[i, k] >= F[i, j] for k in range(K)) for j in range(K)]  # ties: worst rank
        if pos and neg:
            rl.append(sum(F[i, u] <= F[i, v] for u in pos for v in neg) / (len(pos) * len(neg)))
            iauc_ge.append(sum(F[i, u] >= F[i, v] for u in pos for v in neg)
                           / (len(pos) * len(neg)))
        else:
            rl.append(0.0)
        top = int(np.argmax(F[i]))
        oe.append(0.0 if Y[i, top] else 1.0)
        cov.append(max(rank[j] for j in pos) - 1 if pos else 0)
        if pos and neg:
            ap.append(np.mean([sum(rank[k] <= rank[j] for k in pos) / rank[j] for j in pos]))
        else:
            ap.append(1.0)
    return dict(ranking_loss=np.mean(rl), one_error=np.mean(oe), coverage=np.mean(cov),
                average_precision=np.mean(ap), instance_auc_ge=np.mean(iauc_ge))


def brute_auc(y, s):
    """Mann-Whitney AUC of one vector by pair counting, ties one half."""
    pos = [a for a in range(len(y)) if y[a]]
    neg = [b for b in range(len(y)) if not y[b]]
    if not pos or not neg:
        return np.nan
    good = sum((s[a] > s[b]) + 0.5 * (s[a] == s[b]) for a in pos for b in neg)
    return good / (len(pos) * len(neg))


SEEDS = range(25)


# ----------------------------------------------------------------------------- sklearn equality
@pytest.mark.parametrize("seed", SEEDS)
def test_classification_measures_equal_sklearn(seed):
    Y, P, _ = random_problem(seed)
    assert M.hamming_loss(Y, P) == pytest.approx(skm.hamming_loss(Y, P), abs=1e-15)
    assert M.subset_accuracy(Y, P) == pytest.approx(skm.accuracy_score(Y, P), abs=1e-15)
    assert M.subset_zero_one_loss(Y, P) == pytest.approx(skm.zero_one_loss(Y, P), abs=1e-15)
    for zd in (0.0, 1.0):
        assert M.instance_jaccard(Y, P, zero_division=zd) == pytest.approx(
            skm.jaccard_score(Y, P, average="samples", zero_division=zd), abs=1e-13)
        for avg in ("micro", "macro", "instance"):
            kw = dict(average=AVG_SK[avg], zero_division=zd)
            assert M.precision(Y, P, average=avg, zero_division=zd) == pytest.approx(
                sk_quiet(skm.precision_score, Y, P, **kw), abs=1e-13)
            assert M.recall(Y, P, average=avg, zero_division=zd) == pytest.approx(
                sk_quiet(skm.recall_score, Y, P, **kw), abs=1e-13)
            for beta in (0.5, 1, 2.0, 3.7):
                assert M.f_measure(Y, P, beta, avg, zero_division=zd) == pytest.approx(
                    sk_quiet(skm.fbeta_score, Y, P, beta=beta, **kw), abs=1e-13)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ties", [False, True])
def test_ranking_measures_equal_sklearn(seed, ties):
    Y, _, F = random_problem(seed, ties=ties)
    assert M.ranking_loss(Y, F) == pytest.approx(skm.label_ranking_loss(Y, F), abs=1e-13)
    assert M.label_ranking_average_precision(Y, F) == pytest.approx(
        skm.label_ranking_average_precision_score(Y, F), abs=1e-13)
    has = Y.sum(axis=1) > 0
    # Wu & Zhou's coverage is scikit-learn's coverage_error minus one ...
    assert M.coverage(Y[has], F[has]) == pytest.approx(
        skm.coverage_error(Y[has], F[has]) - 1, abs=1e-13)
    # ... and an instance without relevant labels contributes 0 to both
    per_sk = np.array([skm.coverage_error(Y[i:i + 1], F[i:i + 1]) for i in range(len(Y))])
    ours = np.where(has, per_sk - 1, 0.0).mean()
    assert M.coverage(Y, F) == pytest.approx(ours, abs=1e-13)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ties", [False, True])
def test_auc_equals_sklearn(seed, ties):
    Y, _, F = random_problem(seed, ties=ties)
    for avg in ("macro", "micro", "instance"):
        ours = M.auc(Y, F, avg)
        if avg == "micro":
            ref = skm.roc_auc_score(Y.ravel(), F.ravel())
        else:
            # scikit-learn gives NaN for an undefined label/instance; we leave it out
            per = sk_quiet(skm.roc_auc_score, Y if avg == "macro" else Y.T,
                           F if avg == "macro" else F.T, average=None)
            ref = np.nanmean(per)
            full = sk_quiet(skm.roc_auc_score, Y, F, average=AVG_SK[avg])
            if not np.isnan(full):
                assert ours == pytest.approx(full, abs=1e-12)
        assert ours == pytest.approx(ref, abs=1e-12)


def test_auc_matches_sklearn_when_every_label_and_instance_is_defined():
    rng = np.random.default_rng(7)
    Y = (rng.random((200, 6)) < 0.3).astype(int)
    Y[:, 0] = 1 - Y[:, 1]  # every instance has a positive and a negative
    Y[0, :] = [1, 0, 1, 1, 1, 1]
    Y[1, :] = [0, 1, 0, 0, 0, 0]  # every label has both
    F = rng.random((200, 6))
    for avg in ("macro", "micro", "instance"):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # sklearn must not find anything undefined
            ref = skm.roc_auc_score(Y, F, average=AVG_SK[avg])
        assert M.auc(Y, F, avg) == pytest.approx(ref, abs=1e-12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(1, 25), K=st.integers(2, 7), seed=st.integers(0, 2**32 - 1),
       ties=st.booleans(), fmt=st.sampled_from(SPARSE_FORMATS))
def test_hypothesis_sparse_equals_dense_equals_sklearn(n, K, seed, ties, fmt):
    Y, P, F = random_problem(seed, n, K, ties=ties, degenerate=False)
    Ys, Ps = fmt(Y), fmt(P)
    assert M.hamming_loss(Ys, Ps) == pytest.approx(skm.hamming_loss(Y, P), abs=1e-15)
    assert M.subset_accuracy(Ys, P) == pytest.approx(skm.accuracy_score(Y, P), abs=1e-15)
    assert M.instance_jaccard(Y, Ps) == pytest.approx(
        skm.jaccard_score(Y, P, average="samples", zero_division=1.0), abs=1e-13)
    for avg in ("micro", "macro", "instance"):
        assert M.f_measure(Ys, Ps, 2.0, avg) == pytest.approx(M.f_measure(Y, P, 2.0, avg),
                                                             abs=1e-15)
        assert M.f_measure(Ys, Ps, 1.0, avg) == pytest.approx(
            sk_quiet(skm.f1_score, Y, P, average=AVG_SK[avg], zero_division=1.0), abs=1e-13)
    assert M.example_based_f_measure(Ys, Ps) == M.example_based_f_measure(Y, P)
    assert M.ranking_loss(Ys, F) == pytest.approx(skm.label_ranking_loss(Y, F), abs=1e-13)
    assert M.label_ranking_average_precision(Ys, F) == pytest.approx(
        skm.label_ranking_average_precision_score(Y, F), abs=1e-13)
    assert M.coverage(Ys, F) == M.coverage(Y, F)
    assert M.one_error(Ys, F) == M.one_error(Y, F)
    for avg in ("macro", "micro", "instance"):
        a, b = M.auc(Ys, F, avg), M.auc(Y, F, avg)
        assert (np.isnan(a) and np.isnan(b)) or a == b
    d_sparse, d_dense = M.all_measures(Ys, F, Ps), M.all_measures(Y, F, P)
    assert d_sparse.keys() == d_dense.keys()
    for k in d_dense:
        assert d_sparse[k] == pytest.approx(d_dense[k], abs=1e-15, nan_ok=True)


@pytest.mark.parametrize("seed", range(15))
@pytest.mark.parametrize("ties", [False, True])
def test_ranking_measures_equal_brute_force_definitions(seed, ties):
    Y, _, F = random_problem(seed, ties=ties)
    ref = brute_ranking(Y, F)
    assert M.ranking_loss(Y, F) == pytest.approx(ref["ranking_loss"], abs=1e-13)
    assert M.one_error(Y, F) == pytest.approx(ref["one_error"], abs=1e-13)
    assert M.coverage(Y, F) == pytest.approx(ref["coverage"], abs=1e-13)
    assert M.label_ranking_average_precision(Y, F) == pytest.approx(ref["average_precision"], abs=1e-13)
    per_row = [brute_auc(Y[i], F[i]) for i in range(len(Y))]
    per_col = [brute_auc(Y[:, j], F[:, j]) for j in range(Y.shape[1])]
    assert M.auc(Y, F, "instance") == pytest.approx(np.nanmean(per_row), abs=1e-13)
    assert M.auc(Y, F, "macro") == pytest.approx(np.nanmean(per_col), abs=1e-13)
    assert M.auc(Y, F, "micro") == pytest.approx(brute_auc(Y.ravel(), F.ravel()), abs=1e-13)
    if not ties:  # without ties, Wu & Zhou's ">=" AUC and the half-tie AUC coincide,
        # and instance-AUC is one minus ranking loss on the defined instances
        assert M.auc(Y, F, "instance") == pytest.approx(ref["instance_auc_ge"], abs=1e-13)


@pytest.mark.parametrize("seed", range(20))
def test_all_measures_equals_the_individual_functions(seed):
    Y, P, F = random_problem(seed, ties=seed % 2 == 1)
    d = M.all_measures(Y, F, P)
    assert tuple(d) == M.WU_ZHOU_MEASURES
    assert M.LOWER_IS_BETTER <= set(d)
    assert d["hamming_loss"] == pytest.approx(M.hamming_loss(Y, P), abs=1e-15)
    assert d["ranking_loss"] == pytest.approx(M.ranking_loss(Y, F), abs=1e-15)
    assert d["one_error"] == M.one_error(Y, F)
    assert d["coverage"] == M.coverage(Y, F)
    lrap = M.label_ranking_average_precision(Y, F)
    assert d["label_ranking_average_precision"] == pytest.approx(lrap, abs=1e-15)
    for avg in ("macro", "instance", "micro"):
        assert d[f"{avg}_f1"] == pytest.approx(M.f_measure(Y, P, 1, avg), abs=1e-13)
        a, b = d[f"{avg}_auc"], M.auc(Y, F, avg)
        assert (np.isnan(a) and np.isnan(b)) or a == pytest.approx(b, abs=1e-15)
    d0 = M.all_measures(Y, F, P, zero_division=0.0)
    assert d0["instance_f1"] == pytest.approx(M.f_measure(Y, P, 1, "instance", zero_division=0),
                                              abs=1e-13)


def test_no_warnings_on_degenerate_input():
    Z = np.zeros((3, 4), dtype=int)
    O = np.ones((3, 4), dtype=int)
    F = np.zeros((3, 4))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        values = [M.instance_jaccard(Z, Z), M.f_measure(Z, Z, average="macro"),
                  M.precision(Z, O, average="instance"), M.recall(O, Z, average="macro"),
                  M.f_measure(Z, O, 2, "instance"), M.example_based_f_measure(Z, Z),
                  M.ranking_loss(Z, F), M.label_ranking_average_precision(O, F), M.coverage(Z, F),
                  M.one_error(Z, F)]
        d = M.all_measures(Z, F, Z)
        aucs = [M.auc(Z, F, avg) for avg in ("macro", "micro", "instance")]
    assert values == [1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0]
    assert d["macro_f1"] == d["instance_f1"] == d["micro_f1"] == 1.0
    assert all(np.isnan(a) for a in aucs) and np.isnan(d["micro_auc"])


def test_single_label_column_is_not_read_as_a_binary_problem():
    # scikit-learn reads an (n, 1) matrix as a binary target and then 'micro'
    # pools both classes; we keep treating it as one label column.
    Y = np.array([[1], [0], [1], [0]])
    P = np.array([[1], [1], [0], [0]])
    # tp=1, fp=1, fn=1 -> P=R=F1=1/2; instance F: [1, 0, 0, zd=1] -> 1/2
    assert M.f_measure(Y, P) == pytest.approx(0.5)
    assert M.precision(Y, P) == pytest.approx(0.5)
    assert M.recall(Y, P, average="macro") == pytest.approx(0.5)
    assert M.f_measure(Y, P, average="instance") == pytest.approx(0.5)
    assert M.instance_jaccard(Y, P) == pytest.approx(0.5)
    assert M.instance_jaccard(Y, P, zero_division=0) == pytest.approx(0.25)
    assert M.hamming_loss(Y, P) == pytest.approx(0.5)


# ----------------------------------------------------------------------------- hand-computed
HIVEMALL_TRUTH = [["cat", "bird"], ["cat", "dog"], ["cat"], ["bird"], ["bird", "cat"],
                  ["cat", "dog"], ["dog", "bird"]]
HIVEMALL_PRED = [["cat", "dog"], ["cat", "bird"], [], ["bird"], ["bird", "cat"],
                 ["cat", "dog", "bird"], ["dog"]]


def test_hivemall_documentation_values_to_the_last_digit():
    # counted by hand: tp = 1+1+0+1+2+2+1 = 8, fn = 1+1+1+0+0+0+1 = 4, fp = 1+1+0+0+0+1+0 = 3
    assert M.f_measure_label_sets(HIVEMALL_TRUTH, HIVEMALL_PRED) == 0.6956521739130435
    assert M.f_measure_label_sets(HIVEMALL_TRUTH, HIVEMALL_PRED, beta=2.0) == 0.6779661016949152
    assert M.f_measure_label_sets(HIVEMALL_TRUTH, HIVEMALL_PRED) == float(Fraction(16, 23))
    assert M.f_measure_label_sets(HIVEMALL_TRUTH, HIVEMALL_PRED, 2) == float(Fraction(40, 59))
    # the same numbers from the matrix route and from scikit-learn
    A, labels = M.binarize(HIVEMALL_TRUTH)
    B, _ = M.binarize(HIVEMALL_PRED, labels)
    assert labels == ["cat", "bird", "dog"]  # in order of first appearance
    assert M.f_measure(A, B, 2.0, "micro") == 0.6779661016949152
    assert skm.fbeta_score(A, B, beta=2.0, average="micro") == 0.6779661016949152
    # the older precision-recall route rounds differently in the last bit
    p, r = 8 / 11, 8 / 12
    assert 5 * p * r / (4 * p + r) == 0.6779661016949153


def test_label_sets_edge_cases():
    assert M.f_measure_label_sets([[]], [[]]) == 0.0
    assert M.f_measure_label_sets([["a"]], [["b"]]) == 0.0
    assert M.f_measure_label_sets([["a", "a"]], [["a"]]) == 1.0  # sets: duplicates count once
    assert M.f_measure_label_sets((("a", "b"),), [{"b"}]) == pytest.approx(2 / 3)
    assert M.f_measure_label_sets([["a", "b"]], [["b"]], beta=1e-9) == pytest.approx(1.0)


def test_binarize():
    Y, labels = M.binarize([["cat", "bird"], [], ["dog", "cat", "cat"]])
    assert labels == ["cat", "bird", "dog"]  # first appearance, never sorted
    assert Y.dtype == np.int8
    assert Y.tolist() == [[1, 1, 0], [0, 0, 0], [1, 0, 1]]
    _, l10 = M.binarize([["L10"], ["L2", "L1"]])
    assert l10 == ["L10", "L2", "L1"]  # a string sort would give L1, L10, L2
    Y2, l2 = M.binarize([["x"], ["z"]], labels=["z", "y", "x"])
    assert l2 == ["z", "y", "x"] and Y2.tolist() == [[0, 0, 1], [1, 0, 0]]
    Y3, l3 = M.binarize([[2, "a"], [1]])  # unorderable mix: first appearance
    assert l3 == [2, "a", 1] and Y3.tolist() == [[1, 1, 0], [0, 0, 1]]


PARK_READ_ROWS = [  # (y_k, t_k) of Park & Read (2018), Table 1
    ([1, 0, 1, 0], [1, 0, 0, 1]),
    ([0, 1, 0, 1], [0, 1, 0, 1]),
    ([1, 0, 0, 1], [1, 0, 0, 1]),
    ([0, 1, 1, 0], [0, 1, 0, 0]),
    ([1, 0, 0, 0], [1, 0, 0, 1]),
]


def test_park_read_table_1():
    P = np.array([r[0] for r in PARK_READ_ROWS])
    T = np.array([r[1] for r in PARK_READ_ROWS])
    # by hand: Hamming 2/4, 1, 1, 3/4, 3/4; Exact 0, 1, 1, 0, 0; Jaccard 1/3, 1, 1, 1/2, 1/2
    assert 1 - M.hamming_loss(T, P) == pytest.approx(4 / 5)
    assert M.subset_accuracy(T, P) == pytest.approx(2 / 5)
    assert M.instance_jaccard(T, P) == pytest.approx((1 / 3 + 1 + 1 + 1 / 2 + 1 / 2) / 5)
    assert round(M.instance_jaccard(T, P), 2) == 0.67


def test_ranking_measures_by_hand():
    # ranks: label0 (0.9) 1st, label1 (0.8) 2nd, label3 (0.3) 3rd, label2 (0.1) 4th
    Y = [1, 0, 1, 0]
    F = [0.9, 0.8, 0.1, 0.3]
    assert M.ranking_loss(Y, F) == pytest.approx(2 / 4)     # (2,1) and (2,3) reversed
    assert M.one_error(Y, F) == 0.0                          # top label 0 is relevant
    assert M.coverage(Y, F) == 3.0                           # deepest relevant rank 4, minus 1
    assert M.label_ranking_average_precision(Y, F) == pytest.approx((1 / 1 + 2 / 4) / 2)
    assert M.auc(Y, F, "instance") == pytest.approx(2 / 4)


def test_tie_conventions_by_hand():
    Y = np.array([[1, 0, 0]])
    F = np.array([[0.5, 0.5, 0.0]])
    assert M.ranking_loss(Y, F) == pytest.approx(1 / 2)   # the tied pair counts as wrong
    assert M.auc(Y, F, "instance") == pytest.approx(3 / 4)  # ... but as half right in AUC
    assert M.coverage(Y, F) == 1.0                         # tied labels share the worst rank 2
    assert M.label_ranking_average_precision(Y, F) == pytest.approx(1 / 2)
    assert M.one_error(np.array([[0, 1, 0]]), F) == 1.0    # first maximum (label 0) wins
    assert M.one_error(Y, F) == 0.0


def test_empty_rows_by_hand():
    Y = np.array([[0, 0, 0], [1, 0, 1]])
    F = np.array([[0.3, 0.2, 0.1], [0.3, 0.2, 0.1]])
    # row 0 has no relevant label: rloss 0, avgprec 1, coverage 0, one-error 1, AUC undefined
    # row 1: relevant ranks 1 and 3; pairs (2,1) reversed -> rloss 1/2; coverage 3-1=2;
    #        avgprec (1/1 + 2/3)/2; one-error 0; AUC 1/2
    assert M.ranking_loss(Y, F) == pytest.approx(1 / 4)
    assert M.label_ranking_average_precision(Y, F) == pytest.approx((1 + (1 + 2 / 3) / 2) / 2)
    assert M.coverage(Y, F) == pytest.approx(1.0)
    assert M.one_error(Y, F) == pytest.approx(0.5)
    assert M.auc(Y, F, "instance") == pytest.approx(0.5)
    assert np.isnan(M.auc(np.zeros((2, 3)), F, "micro"))
    assert np.isnan(M.auc(np.zeros((2, 3)), F, "macro"))
    Z = np.zeros((2, 3), dtype=int)
    assert M.instance_jaccard(Z, Z) == 1.0
    assert M.instance_jaccard(Z, Z, zero_division=0.0) == 0.0
    assert M.f_measure(Z, Z, average="instance") == 1.0
    assert M.f_measure(Z, Z, average="micro", zero_division=0.0) == 0.0
    assert M.precision(Y, Z, average="instance") == 1.0  # nothing predicted
    assert M.recall(Y, Z, average="instance") == pytest.approx(0.5)  # row 0: 1, row 1: 0


def test_example_based_f_differs_from_mean_of_instance_f():
    Y = np.array([[1, 1, 0], [0, 0, 1]])
    P = np.array([[1, 0, 0], [0, 1, 1]])
    # instance 1: P=1, R=1/2, F1=2/3; instance 2: P=1/2, R=1, F1=2/3
    assert M.f_measure(Y, P, average="instance") == pytest.approx(2 / 3)
    assert M.precision(Y, P, average="instance") == pytest.approx(3 / 4)
    assert M.recall(Y, P, average="instance") == pytest.approx(3 / 4)
    # Zhang & Zhou: harmonic mean of the averages 3/4 and 3/4
    assert M.example_based_f_measure(Y, P) == pytest.approx(3 / 4)
    # beta=2 with P_exam = 3/4, R_exam = 3/4 is still 3/4
    assert M.example_based_f_measure(Y, P, beta=2) == pytest.approx(3 / 4)
    Z = np.zeros((1, 2), dtype=int)
    assert M.example_based_f_measure(Z, Z) == 1.0
    assert M.example_based_f_measure([[1, 0]], [[0, 1]], zero_division=0.0) == 0.0


@pytest.mark.parametrize("zd", [0.0, 0.5, 1.0])
def test_example_based_f_of_a_completely_wrong_prediction_is_zero(zd):
    # every instance has precision 0 and recall 0 (both sets non-empty, disjoint), so
    # both averages are 0 and Zhang & Zhou's harmonic mean is 0 -- as scipy's hmean of
    # (0, 0) and scikit-learn's F of P = R = 0 are; zero_division plays no part
    Y = np.array([[1, 0, 1], [0, 1, 0]])
    P = 1 - Y
    ref = float(stats.hmean([0.0, 0.0]))
    assert ref == 0.0
    assert M.example_based_f_measure(Y, P, zero_division=zd) == ref
    assert M.example_based_f_measure(Y, P, 2.0, zero_division=zd) == 0.0
    assert M.example_based_f_measure([[1, 0]], [[0, 1]]) == 0.0
    for skzd in (0.0, 1.0):
        assert sk_quiet(skm.f1_score, Y, P, average="samples", zero_division=skzd) == 0.0


def test_example_based_f_against_sklearn_averages():
    for seed in range(10):
        Y, P, _ = random_problem(seed)
        p = sk_quiet(skm.precision_score, Y, P, average="samples", zero_division=1.0)
        r = sk_quiet(skm.recall_score, Y, P, average="samples", zero_division=1.0)
        for beta in (0.5, 1.0, 2.0):
            ref = (1 + beta**2) * p * r / (beta**2 * p + r) if beta**2 * p + r > 0 else 0.0
            assert M.example_based_f_measure(Y, P, beta) == pytest.approx(ref, abs=1e-13)


def test_one_vector_is_one_instance():
    assert M.hamming_loss([1, 0, 1], [1, 1, 1]) == pytest.approx(1 / 3)
    assert M.subset_accuracy([1, 0, 1], [1, 0, 1]) == 1.0
    assert M.ranking_loss([1, 0], [0.2, 0.7]) == 1.0
    assert M.all_measures([1, 0], [0.7, 0.2], [1, 0])["micro_f1"] == 1.0


def test_perfect_and_worst_predictions():
    Y = np.array(list(product([0, 1], repeat=4))[1:-1])  # every mixed row
    F = Y + 0.1 * np.arange(4)  # relevant labels above irrelevant ones
    d = M.all_measures(Y, F, Y)
    assert d["hamming_loss"] == 0 and d["ranking_loss"] == 0 and d["one_error"] == 0
    assert d["coverage"] == pytest.approx(np.mean(Y.sum(axis=1) - 1))
    for k in ("label_ranking_average_precision", "macro_f1", "instance_f1", "micro_f1", "instance_auc"):
        assert d[k] == 1.0
    w = M.all_measures(Y, -F, 1 - Y)
    assert w["hamming_loss"] == 1 and w["ranking_loss"] == 1 and w["one_error"] == 1
    assert w["instance_auc"] == 0 and w["micro_f1"] == 0


# ----------------------------------------------------------------------------- bad input
Y0 = np.array([[1, 0, 1], [0, 1, 0]])
P0 = np.array([[1, 1, 0], [0, 1, 0]])
F0 = np.array([[0.2, 0.5, 0.9], [0.1, 0.8, 0.3]])

PAIR_FUNCS = [M.hamming_loss, M.subset_accuracy, M.subset_zero_one_loss, M.instance_jaccard,
              M.precision, M.recall, M.f_measure, M.example_based_f_measure]
SCORE_FUNCS = [M.ranking_loss, M.one_error, M.coverage, M.label_ranking_average_precision, M.auc]


@pytest.mark.parametrize("fn", PAIR_FUNCS, ids=lambda f: f.__name__)
def test_bad_label_matrices(fn):
    with pytest.raises(ValueError, match="Y and P must have the same shape"):
        fn(Y0, P0[:, :2])
    with pytest.raises(ValueError, match="Y and P must have the same shape"):
        fn(Y0, P0[:1])
    with pytest.raises(ValueError, match="P must be binary"):
        fn(Y0, P0 * 2)
    with pytest.raises(ValueError, match="Y must be binary"):
        fn(np.where(Y0 == 1, 0.5, 0), P0)
    with pytest.raises(ValueError, match="Y must be binary"):
        fn(np.where(Y0 == 1, np.nan, 0), P0)
    with pytest.raises(ValueError, match="P must be binary"):
        fn(Y0, sp.csr_matrix(P0 * 3))
    with pytest.raises(TypeError, match="Y"):
        fn("abc", P0)
    with pytest.raises(TypeError, match="P"):
        fn(Y0, [["a", "b", "c"], ["d", "e", "f"]])
    with pytest.raises(ValueError, match="Y must be 1-D or 2-D"):
        fn(np.zeros((2, 2, 2)), P0)


@pytest.mark.parametrize("fn", SCORE_FUNCS, ids=lambda f: f.__name__)
def test_bad_score_input(fn):
    with pytest.raises(ValueError, match="Y and F must have the same shape"):
        fn(Y0, F0[:, :2])
    with pytest.raises(ValueError, match="Y and F must have the same shape"):
        fn(Y0, F0.ravel())
    with pytest.raises(ValueError, match="F must not contain NaN"):
        fn(Y0, np.where(F0 > 0.5, np.nan, F0))
    with pytest.raises(ValueError, match="F must not contain NaN"):
        fn(Y0, np.where(F0 > 0.5, np.inf, F0))
    with pytest.raises(ValueError, match="Y must be binary"):
        fn(Y0 * 2, F0)
    with pytest.raises(TypeError, match="F must hold"):
        fn(Y0, np.array([["a", "b", "c"], ["d", "e", "f"]]))
    with pytest.raises(TypeError, match="F"):
        fn(Y0, None)


@pytest.mark.parametrize("fn", [M.precision, M.recall, M.f_measure], ids=lambda f: f.__name__)
def test_bad_average_for_classification(fn):
    with pytest.raises(ValueError, match="average must be one of"):
        fn(Y0, P0, average="samples")
    with pytest.raises(TypeError, match="average"):  # None: the per-label values
        fn(Y0, P0, average=3)


def test_bad_average_for_auc():
    with pytest.raises(ValueError, match="average must be one of"):
        M.auc(Y0, F0, average="weighted")
    with pytest.raises(TypeError, match="average"):
        M.auc(Y0, F0, average=1)


@pytest.mark.parametrize("fn", [M.f_measure, M.example_based_f_measure], ids=lambda f: f.__name__)
def test_bad_beta(fn):
    for beta in (-1.0, 0.0):
        with pytest.raises(ValueError, match="beta must be > 0"):
            fn(Y0, P0, beta)
    with pytest.raises(ValueError, match="beta must be finite"):
        fn(Y0, P0, float("nan"))
    with pytest.raises(TypeError, match="beta"):
        fn(Y0, P0, "2")


@pytest.mark.parametrize("fn", [M.instance_jaccard, M.precision, M.recall, M.f_measure,
                                M.example_based_f_measure], ids=lambda f: f.__name__)
def test_bad_zero_division(fn):
    with pytest.raises(ValueError, match="zero_division"):
        fn(Y0, P0, zero_division=2.0)
    with pytest.raises(TypeError, match="zero_division"):
        fn(Y0, P0, zero_division="ignore")
    with pytest.raises(ValueError, match="zero_division"):
        fn(Y0, P0, zero_division=float("inf"))


def test_bad_input_all_measures():
    with pytest.raises(ValueError, match="Y and P must have the same shape"):
        M.all_measures(Y0, F0, P0[:, :2])
    with pytest.raises(ValueError, match="Y and F must have the same shape"):
        M.all_measures(Y0, F0[:1], P0)
    with pytest.raises(ValueError, match="F must not contain NaN"):
        M.all_measures(Y0, F0 * np.nan, P0)
    with pytest.raises(ValueError, match="P must be binary"):
        M.all_measures(Y0, F0, P0 - 2)
    with pytest.raises(ValueError, match="zero_division"):
        M.all_measures(Y0, F0, P0, zero_division=-1)


def test_bad_input_label_sets():
    with pytest.raises(ValueError, match="actual and predicted must have the same length"):
        M.f_measure_label_sets([["a"]], [["a"], ["b"]])
    with pytest.raises(TypeError, match=r"actual\[0\]"):
        M.f_measure_label_sets(["cat"], [["cat"]])
    with pytest.raises(TypeError, match="predicted"):
        M.f_measure_label_sets([["cat"]], "cat")
    with pytest.raises(TypeError, match=r"predicted\[0\]"):
        M.f_measure_label_sets([["cat"]], [None])
    with pytest.raises(ValueError, match="beta must be > 0"):
        M.f_measure_label_sets([["a"]], [["a"]], beta=-2)
    with pytest.raises(ValueError, match="actual must hold at least one"):
        M.f_measure_label_sets([], [])


def test_bad_input_binarize():
    with pytest.raises(TypeError, match="label_sets"):
        M.binarize("cat")
    with pytest.raises(TypeError, match=r"label_sets\[1\]"):
        M.binarize([["a"], 3])
    with pytest.raises(TypeError, match=r"label_sets\[0\] holds an unhashable"):
        M.binarize([[["a"]]])
    with pytest.raises(ValueError, match="not in labels"):
        M.binarize([["a"], ["b"]], labels=["a"])
    with pytest.raises(ValueError, match="labels must not contain duplicates"):
        M.binarize([["a"]], labels=["a", "a"])
    with pytest.raises(ValueError, match="labels must not be empty"):
        M.binarize([[], []])
    with pytest.raises(TypeError, match="labels"):
        M.binarize([["a"]], labels="a")


# ------------------------------------------------------------------ zero_division
def _with_empty_rows_and_labels(seed=0):
    rng = np.random.default_rng(seed)
    Y = rng.integers(0, 2, (30, 4))
    P = rng.integers(0, 2, (30, 4))
    Y[:3], P[:2], P[5] = 0, 0, 0  # rows without true / predicted labels
    Y[:, 3], P[:, 3] = 0, 0  # a label nobody has nor predicts
    return Y, P


@pytest.mark.parametrize("avg,sk", [("micro", "micro"), ("macro", "macro"),
                                    ("instance", "samples")])
@pytest.mark.parametrize("which", ["precision", "recall", "f"])
def test_zero_division_nan_leaves_undefined_values_out_like_scikit_learn(avg, sk, which):
    Y, P = _with_empty_rows_and_labels()
    ours = {"precision": M.precision, "recall": M.recall,
            "f": lambda *a, **k: M.f_measure(*a, **k)}[which]
    ref = {"precision": skm.precision_score, "recall": skm.recall_score,
           "f": skm.f1_score}[which]
    got = ours(Y, P, average=avg, zero_division=np.nan)
    # 1e-15: mean of per-row F computed as 2tp/(|y|+|p|) by both, summed in other orders
    assert got == pytest.approx(ref(Y, P, average=sk, zero_division=np.nan), abs=1e-15)
    assert not np.isnan(got)


def test_zero_division_warn_is_zero_with_an_undefined_metric_warning():
    from sklearn.exceptions import UndefinedMetricWarning

    Y, P = _with_empty_rows_and_labels(1)
    with pytest.warns(UndefinedMetricWarning, match="zero denominator"):
        got = M.f_measure(Y, P, average="macro", zero_division="warn")
    assert got == M.f_measure(Y, P, average="macro", zero_division=0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a number or nan: no warning
        M.f_measure(Y, P, average="macro", zero_division=np.nan)
        M.f_measure(Y, P, average="macro", zero_division=1.0)
    # a pair without any zero division does not warn
    Yf = np.array([[1, 0], [0, 1]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert M.f_measure(Yf, Yf, average="macro", zero_division="warn") == 1.0


def test_zero_division_nan_everywhere_undefined_gives_nan():
    Z = np.zeros((2, 3), dtype=int)
    assert np.isnan(M.f_measure(Z, Z, average="macro", zero_division=np.nan))
    assert np.isnan(M.instance_jaccard(Z, Z, zero_division=np.nan))
    assert np.isnan(M.example_based_f_measure(Z, Z, zero_division=np.nan))
    # one defined row: the mean of the defined rows only (hand-computed: 2/3)
    Y = np.array([[0, 0, 0], [1, 1, 0]])
    P = np.array([[0, 0, 0], [1, 0, 0]])
    assert M.f_measure(Y, P, average="instance", zero_division=np.nan) == pytest.approx(2 / 3)
    assert M.instance_jaccard(Y, P, zero_division=np.nan) == 0.5
