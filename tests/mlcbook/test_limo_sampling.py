"""LIMO's two readings of the triplet sampling: Algorithm 1 and the released sgd_limo_train.m.

The empirical frequencies of many seeded draws are compared with each reading's closed-form
probabilities; the released reading's SGD is compared with a line-by-line transcription of
``sgd_limo_train.m`` fed the same draws.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
import scipy.sparse as sp

from mlcbook.learners import LIMO
from mlcbook.learners.limo import SAMPLINGS, sample_released_triplets, sample_triplets

# 6 instances x 4 labels: row 4 has every label (no irrelevant one), row 5 none;
# label 3 is relevant for every instance but row 5, label 2 for rows 1 and 4 only.
_Y = np.array(
    [
        [1, 0, 0, 1],
        [1, 1, 1, 1],
        [0, 1, 0, 1],
        [1, 0, 0, 1],
        [1, 1, 1, 1],
        [0, 0, 0, 0],
    ]
)
_T = 200_000


def _within(counts: Counter, probs: dict, T: int) -> None:
    """Every outcome's frequency within 5 binomial sd of its probability; no other outcome.

    5 sd: a single cell fails by chance with probability < 6e-7, so over the few dozen
    cells here a correct sampler passes with certainty for practical purposes, while a
    wrong probability of 0.01 or more (> 20 sd at T = 200 000) is always caught.
    """
    assert set(counts) <= set(probs), set(counts) - set(probs)
    assert sum(probs.values()) == pytest.approx(1.0, abs=1e-12)
    for key, p in probs.items():
        f = counts.get(key, 0) / T
        assert abs(f - p) <= 5 * np.sqrt(p * (1 - p) / T) + 1e-12, (key, f, p)


def _label_wise_probs_released(Y):
    m = Y.shape[0]
    probs: dict = {}
    for i in range(m):
        pos, neg = np.flatnonzero(Y[i]), np.flatnonzero(Y[i] == 0)
        if len(pos) and len(neg):
            for u in pos:
                for v in neg:
                    probs[(i, int(u), int(v))] = 1 / (m * len(pos) * len(neg))
        else:  # the iteration's label-wise step is spent on this instance
            probs[(i, -1, -1)] = 1 / m
    return probs


def _instance_wise_probs_released(Y):
    m = Y.shape[0]
    probs: dict = {}
    for a in range(m):
        pos = np.flatnonzero(Y[a])
        if not len(pos):
            probs[(-1, a, -1)] = 1 / m
            continue
        for j in pos:
            negs = np.flatnonzero(Y[:, j] == 0)
            if not len(negs):  # the positive-only step
                probs[(int(j), a, -1)] = 1 / (m * len(pos))
            for b in negs:
                probs[(int(j), a, int(b))] = 1 / (m * len(pos) * len(negs))
    return probs


def _algorithm1_probs(Y):
    pairs = [
        (i, int(u), int(v))
        for i in range(Y.shape[0])
        for u in np.flatnonzero(Y[i])
        for v in np.flatnonzero(Y[i] == 0)
    ]
    return {p: 1 / len(pairs) for p in pairs}


def test_released_label_wise_draws_follow_the_closed_form():
    (i, u, v), _ = sample_released_triplets(_Y, _T, np.random.default_rng(11))
    _within(Counter(zip(i.tolist(), u.tolist(), v.tolist())), _label_wise_probs_released(_Y), _T)


def test_released_instance_wise_draws_follow_the_closed_form():
    _, (j, a, b) = sample_released_triplets(_Y, _T, np.random.default_rng(12))
    counts = Counter(zip(j.tolist(), a.tolist(), b.tolist()))
    _within(counts, _instance_wise_probs_released(_Y), _T)


def test_algorithm1_draws_weight_every_pair_equally():
    rows, u, v = sample_triplets(_Y, _T, np.random.default_rng(13))
    _within(Counter(zip(rows.tolist(), u.tolist(), v.tolist())), _algorithm1_probs(_Y), _T)
    # instance-wise: Y.T, (label, positive instance, negative instance)
    j, a, b = sample_triplets(_Y.T, _T, np.random.default_rng(14))
    _within(Counter(zip(j.tolist(), a.tolist(), b.tolist())), _algorithm1_probs(_Y.T), _T)


def test_the_two_readings_weight_labels_differently():
    """Closed forms: label 3 (5 positives, 1 negative) is drawn twice as often when released."""
    rel = _instance_wise_probs_released(_Y)
    alg = _algorithm1_probs(_Y.T)
    by_label_rel = {k: sum(p for (j, _, _), p in rel.items() if j == k) for k in range(4)}
    by_label_alg = {k: sum(p for (j, _, _), p in alg.items() if j == k) for k in range(4)}
    # Algorithm 1: |Y_j+||Y_j-| = 4*2, 3*3, 2*4, 5*1 over 30
    assert by_label_alg == pytest.approx({0: 8 / 30, 1: 9 / 30, 2: 8 / 30, 3: 5 / 30})
    # released: (1/m) sum over positives a of 1/|Y_a+|; m = 6
    assert by_label_rel[3] == pytest.approx((1 / 2 + 1 / 4 + 1 / 2 + 1 / 2 + 1 / 4) / 6)
    assert by_label_rel[3] > by_label_alg[3]


def _naive_released(X, Y, lam1, lam2, eta, T, seed):
    """sgd_limo_train.m line by line (one 'epoch' of T iterations), the same draws."""
    rng = np.random.default_rng(seed)
    l, d = Y.shape[1], X.shape[1]
    W = rng.normal(0.0, 1.0 / np.sqrt(d), size=(l, d))
    (I, U, V), (J, A, B) = sample_released_triplets(Y, T, rng)
    total = np.zeros_like(W)
    for t in range(T):
        if lam1 != 0 and U[t] >= 0:
            x, u, v = X[I[t]], U[t], V[t]
            fp, fn = W[u] @ x, W[v] @ x
            if fn > fp - 1:
                wp, wn = W[u].copy(), W[v].copy()
                W[u] = wp - eta * (-lam1 * x + wp)
                W[v] = wn - eta * (lam1 * x + wn)
        if lam2 != 0 and J[t] >= 0:
            j, x_pos = J[t], X[A[t]]
            w = W[j].copy()
            if B[t] < 0:  # no negative instance of label j: update w for the positive only
                W[j] = w - eta * (lam2 * (-x_pos) + w)
            else:
                x_neg = X[B[t]]
                if w @ x_neg > w @ x_pos - 1:
                    W[j] = w - eta * (lam2 * (x_neg - x_pos) + w)
        total += W
    return total / T


@pytest.mark.parametrize("lams", [(1.0, 1.0), (1.0, 0.0), (0.0, 1.0), (50.0, 50.0)])
@pytest.mark.parametrize("sparse", [False, True])
def test_released_reading_equals_line_by_line_sgd_limo_train(lams, sparse):
    rng = np.random.default_rng(0)
    # a fifth label relevant everywhere: no negative instance, the positive-only step
    Y = np.hstack([np.vstack([_Y] * 10), np.ones((60, 1), dtype=int)])
    X = rng.normal(size=(Y.shape[0], 5))
    X[np.abs(X) < 0.5] = 0.0
    T = 600
    ref = _naive_released(X, Y, *lams, eta=0.01, T=T, seed=4)
    Xin = sp.csr_matrix(X) if sparse else X
    est = LIMO(*lams, eta=0.01, n_iter=T, random_state=4, sampling="released_code")
    got = est.fit(Xin, Y, fit_threshold=False).coef_
    # the same arithmetic in another order (lazy averaging): rounding only
    np.testing.assert_allclose(got, ref, rtol=1e-10, atol=1e-12)


def test_default_reading_is_algorithm1():
    assert LIMO().sampling == "algorithm1" == SAMPLINGS[0]
    X = np.random.default_rng(1).normal(size=(60, 4))
    Y = np.vstack([_Y] * 10)
    a = LIMO(n_iter=300, random_state=2).fit(X, Y, fit_threshold=False).coef_
    b = LIMO(n_iter=300, random_state=2, sampling="algorithm1").fit(X, Y, fit_threshold=False)
    c = LIMO(n_iter=300, random_state=2, sampling="released_code").fit(X, Y, fit_threshold=False)
    np.testing.assert_array_equal(a, b.coef_)
    assert not np.allclose(a, c.coef_)


def test_unknown_sampling_is_refused():
    X = np.zeros((6, 2))
    with pytest.raises(ValueError, match="sampling must be one of"):
        LIMO(sampling="uniform").fit(X, _Y)
