"""The dense rank kernels (mlcbook._ranks) and the measures built on them.

Rows without ties go through rank sums, columns through sorted positives and
negatives; rows and columns with ties fall back to the tie-aware code.  Each is
checked against brute force and against scikit-learn on problems with and without
ties (integer scores tie), so both paths run.

Tolerances: integer counts are exact; average precisions are sums of at most n
fractions computed in another order than scikit-learn's (it differences recalls
computed as tps / tps[-1]), so 1e-12 absolute is ample (n = 60: 60 * 2**-52 ~ 1e-14).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

from mlcbook import _ranks
from mlcbook import registry as R


def problem(seed, n, K, ties):
    rng = np.random.default_rng(seed)
    Y = (rng.random((n, K)) < rng.uniform(0.1, 0.6)).astype(np.int8)
    F = rng.integers(0, 4, size=(n, K)).astype(float) if ties else rng.normal(size=(n, K))
    return Y, F


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("seed", range(5))
def test_rank_sums_equal_brute_force_on_rows_without_ties(seed, ties):
    Y, F = problem(seed, 50, 7, ties)
    rs = _ranks.rank_sums(Y, F)
    for i in range(len(Y)):
        f, y = F[i], Y[i].astype(bool)
        assert rs.tied[i] == (len(set(f)) < len(f))
        if rs.tied[i]:
            continue
        pos, neg = f[y], f[~y]
        correct = sum(int(a > b) for a in pos for b in neg)
        assert rs.n_pos[i] == y.sum() and rs.correct_pairs()[i] == correct
        rank = [int((f >= a).sum()) for a in pos]  # from the top
        ap = sum(sum(int(f[k] >= a) for k in np.flatnonzero(y)) / r for a, r in zip(pos, rank))
        assert rs.ap_sum[i] == pytest.approx(ap, abs=1e-12)


def test_rank_sums_in_blocks_equal_one_block(monkeypatch):
    Y, F = problem(0, 300, 9, False)
    whole = _ranks.rank_sums(Y, F)
    monkeypatch.setattr(_ranks, "_BLOCK_CELLS", 20)  # blocks of 2 rows
    parts = _ranks.rank_sums(Y, F)
    for a, b in zip((whole.n_pos, whole.position_sum, whole.ap_sum, whole.tied),
                    (parts.n_pos, parts.position_sum, parts.ap_sum, parts.tied)):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("ties", [False, True])
def test_lowest_relevant_rank_by_brute_force(ties, monkeypatch):
    monkeypatch.setattr(_ranks, "_BLOCK_CELLS", 64)  # several blocks
    Y, F = problem(1, 80, 6, ties)
    Y[0] = 0
    got = _ranks.lowest_relevant_rank(Y, F)
    for i in range(len(Y)):
        y = Y[i].astype(bool)
        want = int((F[i] >= F[i][y].min()).sum()) if y.any() else 0
        assert got[i] == want


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 60), K=st.integers(2, 6),
       ties=st.booleans())
def test_scikit_learn_named_ranking_measures_equal_scikit_learn(seed, n, K, ties):
    Y, F = problem(seed, n, K, ties)
    Y[0, 0], Y[1, 0] = 1, 0  # label 0 has both classes
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pairs = [
            (R.get_measure("average_precision").compute(Y, F),
             skm.average_precision_score(Y, F, average="macro")),
            (R.get_measure("coverage_error").compute(Y, F), skm.coverage_error(Y, F)),
        ]
        if ((Y.sum(axis=0) > 0) & (Y.sum(axis=0) < n)).all():  # scikit-learn's roc_auc
            pairs.append((R.get_measure("roc_auc").compute(Y, F),
                          skm.roc_auc_score(Y, F, average="macro")))
    for ours, ref in pairs:
        assert ours == pytest.approx(ref, abs=1e-12)


def _column_truth(y, f):
    """Brute force for one label: (correct pairs, ties of a positive, AP step sum)."""
    pos, neg = f[y], f[~y]
    correct = sum(int(a > b) for a in pos for b in neg)
    tied = len(set(pos)) < len(pos) or bool(set(pos) & set(neg))
    ap = sum(int((pos >= a).sum()) / int((f >= a).sum()) for a in pos) / max(len(pos), 1)
    return correct, tied, ap


def _collide(rng, n, K):
    """Distinct scores of each label that float32 cannot tell apart: +-(1 + k 2**-40)
    for distinct k, scaled into float32's range, below its smallest value (both signs
    round to zeros) or above its largest (infinities)."""
    k = np.column_stack([rng.permutation(200)[:n] for _ in range(K)])
    sign = rng.choice([1.0, -1.0], size=(n, K))
    return sign * (1.0 + k * 2.0**-40) * rng.choice([1.0, 1e-300, 1e39])


@pytest.mark.parametrize("kind", ["normal", "ties", "collide", "zeros"])
@pytest.mark.parametrize("seed", range(6))
def test_column_positions_equal_brute_force(kind, seed):
    rng = np.random.default_rng(seed)
    n, K = int(rng.integers(2, 60)), 5
    Y = (rng.random((n, K)) < rng.uniform(0.1, 0.7)).astype(np.int8)
    if kind == "normal":
        F = rng.normal(size=(n, K))
    elif kind == "ties":
        F = rng.integers(0, 4, size=(n, K)).astype(float)
    elif kind == "collide":
        F = _collide(rng, n, K)
    else:  # -0.0 equals 0.0; 1e-300 and -1e-300 round to float32 zeros but differ
        F = rng.choice([-0.0, 0.0, 1e-300, -1e-300, 2.0, 1e39, -1e39], size=(n, K))
    cp = _ranks.column_positions(Y, F)
    auc, ap = cp.auc(), cp.average_precision()
    for j in range(K):
        y, f = Y[:, j].astype(bool), F[:, j]
        correct, tied, want_ap = _column_truth(y, f)
        assert cp.n_pos[j] == y.sum()
        assert cp.exact[j] == (not tied)  # flagged exactly when a positive ties a score
        if tied:
            continue
        m = int(y.sum())
        # exact: the count is an integer; the AUC one division of integers
        if 0 < m < n:
            assert auc[j] == correct / (m * (n - m))
        assert ap[j] == pytest.approx(want_ap, abs=1e-12)  # sums of <= 60 fractions
    if kind == "collide":
        assert cp.exact.any()  # the runs of equal float32 keys were put in order


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@pytest.mark.parametrize("seed", range(4))
def test_label_measures_on_float32_collisions_equal_scikit_learn(seed):
    rng = np.random.default_rng(seed)
    n, K = 60, 6
    Y = (rng.random((n, K)) < 0.4).astype(np.int8)
    Y[0], Y[1] = 1, 0  # both classes in every label
    F = _collide(rng, n, K)
    assert R.get_measure("roc_auc").compute(Y, F) == pytest.approx(
        skm.roc_auc_score(Y, F), abs=1e-12)  # means of exact ratios
    assert R.get_measure("average_precision").compute(Y, F) == pytest.approx(
        skm.average_precision_score(Y, F), abs=1e-12)  # see the module docstring
