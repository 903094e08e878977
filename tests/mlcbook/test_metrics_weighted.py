"""Instance weights, per-instance values and the fast 0/1 path of mlcbook.metrics.

Every weighted value is compared with scikit-learn's ``sample_weight`` on random
inputs (dense and sparse, several integer dtypes), and every per-instance vector
with its definition and with the mean the unweighted call returns.

Tolerances: 1e-12 absolute.  Both sides compute the same ratios of integer (or
weighted) counts and differ only in the order of a few float additions over at
most a few hundred terms, each below 1, so the rounding difference is bounded
by ~n * 2**-52 < 1e-13.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

from mlcbook import metrics as M

from .test_metrics import AVG_SK, SPARSE_FORMATS, random_problem

TOL = 1e-12  # see the module docstring


def sk(fn, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ill-defined labels: zero_division is given
        return fn(*args, **kw)


def weights(seed: int, n: int) -> np.ndarray:
    rng = np.random.default_rng(seed + 1000)
    w = rng.uniform(0.0, 3.0, n)
    w[rng.random(n) < 0.2] = 0.0  # zero weights are allowed
    w[0] = 1.0  # a positive sum
    return w


@pytest.mark.parametrize("seed", range(20))
def test_weighted_classification_measures_equal_sklearn(seed):
    Y, P, _ = random_problem(seed)
    w = weights(seed, len(Y))
    assert M.hamming_loss(Y, P, sample_weight=w) == pytest.approx(
        skm.hamming_loss(Y, P, sample_weight=w), abs=TOL
    )
    assert M.subset_accuracy(Y, P, sample_weight=w) == pytest.approx(
        skm.accuracy_score(Y, P, sample_weight=w), abs=TOL
    )
    assert M.subset_zero_one_loss(Y, P, sample_weight=w) == pytest.approx(
        skm.zero_one_loss(Y, P, sample_weight=w), abs=TOL
    )
    for zd in (0.0, 1.0):
        assert M.instance_jaccard(
            Y, P, zero_division=zd, sample_weight=w
        ) == pytest.approx(
            sk(
                skm.jaccard_score,
                Y,
                P,
                average="samples",
                zero_division=zd,
                sample_weight=w,
            ),
            abs=TOL,
        )
        for avg in ("micro", "macro", "instance"):
            kw = dict(average=AVG_SK[avg], zero_division=zd, sample_weight=w)
            ours = dict(average=avg, zero_division=zd, sample_weight=w)
            assert M.precision(Y, P, **ours) == pytest.approx(
                sk(skm.precision_score, Y, P, **kw), abs=TOL
            )
            assert M.recall(Y, P, **ours) == pytest.approx(
                sk(skm.recall_score, Y, P, **kw), abs=TOL
            )
            for beta in (0.5, 1.0, 2.0):
                assert M.f_measure(Y, P, beta, **ours) == pytest.approx(
                    sk(skm.fbeta_score, Y, P, beta=beta, **kw), abs=TOL
                )


@pytest.mark.parametrize("seed", range(20))
def test_weighted_ranking_measures_equal_sklearn(seed):
    Y, _, F = random_problem(seed, ties=seed % 2 == 0)
    w = weights(seed, len(Y))
    assert M.ranking_loss(Y, F, sample_weight=w) == pytest.approx(
        skm.label_ranking_loss(Y, F, sample_weight=w), abs=TOL
    )
    assert M.label_ranking_average_precision(Y, F, sample_weight=w) == pytest.approx(
        skm.label_ranking_average_precision_score(Y, F, sample_weight=w), abs=TOL
    )
    has = Y.sum(axis=1) > 0
    assert M.coverage(Y[has], F[has], sample_weight=w[has]) == pytest.approx(
        skm.coverage_error(Y[has], F[has], sample_weight=w[has]) - 1, abs=TOL
    )
    one_err = np.array([0.0 if Y[i, np.argmax(F[i])] else 1.0 for i in range(len(Y))])
    assert M.one_error(Y, F, sample_weight=w) == pytest.approx(
        np.average(one_err, weights=w), abs=TOL
    )


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("avg", ["macro", "micro", "instance"])
def test_weighted_auc_equals_sklearn_where_defined(seed, avg):
    rng = np.random.default_rng(seed)
    n, K = 30, 5
    F = (
        rng.integers(0, 4, size=(n, K)).astype(float)
        if seed % 2
        else rng.normal(size=(n, K))
    )
    Y = (rng.random((n, K)) < 0.4).astype(int)
    rows = np.arange(n)
    # every instance has a relevant and an irrelevant label, every label a positive
    # and a negative instance
    Y[rows, rows % K] = 1
    Y[rows, (rows + 1) % K] = 0
    w = rng.uniform(0.5, 2.0, n)  # positive: every AUC defined
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ref = skm.roc_auc_score(Y, F, average=AVG_SK[avg], sample_weight=w)
    assert M.auc(Y, F, avg, sample_weight=w) == pytest.approx(ref, abs=TOL)


@pytest.mark.parametrize("seed", range(15))
def test_per_instance_values_match_definitions_and_means(seed):
    Y, P, F = random_problem(seed)
    n, K = Y.shape
    tp = (Y & P).sum(1)
    union = (Y | P).sum(1)
    ny, npr = Y.sum(1), P.sum(1)
    zd = 1.0
    defs = {
        M.hamming_loss: (Y != P).sum(1) / K,
        M.subset_accuracy: (Y == P).all(1).astype(float),
        M.subset_zero_one_loss: (Y != P).any(1).astype(float),
        M.instance_jaccard: np.array([t / u if u else zd for t, u in zip(tp, union)]),
    }
    for fn, ref in defs.items():
        v = fn(Y, P, per_instance=True)
        assert v.shape == (n,) and v.dtype == np.float64
        np.testing.assert_allclose(v, ref, rtol=0, atol=TOL)
        assert fn(Y, P) == pytest.approx(v.mean(), abs=TOL)
    prec = np.array([t / p if p else zd for t, p in zip(tp, npr)])
    rec = np.array([t / y if y else zd for t, y in zip(tp, ny)])
    f2 = np.array(
        [5 * t / (4 * y + p) if 4 * y + p else zd for t, y, p in zip(tp, ny, npr)]
    )
    np.testing.assert_allclose(
        M.precision(Y, P, average="instance", per_instance=True), prec, atol=TOL, rtol=0
    )
    np.testing.assert_allclose(
        M.recall(Y, P, average="instance", per_instance=True), rec, atol=TOL, rtol=0
    )
    np.testing.assert_allclose(
        M.f_measure(Y, P, 2.0, "instance", per_instance=True), f2, atol=TOL, rtol=0
    )
    for fn in (M.ranking_loss, M.one_error, M.coverage, M.label_ranking_average_precision):
        v = fn(Y, F, per_instance=True)
        assert v.shape == (n,)
        # each instance alone gives its own value
        np.testing.assert_allclose(
            v, [fn(Y[i], F[i]) for i in range(n)], atol=TOL, rtol=0
        )
        assert fn(Y, F) == pytest.approx(v.mean(), abs=TOL)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(1, 30),
    K=st.integers(1, 9),
    seed=st.integers(0, 2**32 - 1),
    dtype=st.sampled_from(
        [
            np.int8,
            np.uint8,
            np.int16,
            np.int32,
            np.int64,
            np.uint64,
            bool,
            np.float32,
            np.float64,
        ]
    ),
    fmt=st.sampled_from((None,) + SPARSE_FORMATS),
)
def test_hypothesis_every_input_kind_gives_the_same_value(n, K, seed, dtype, fmt):
    """Dtype and sparsity never change a value; integer weights equal repeated rows."""
    Y, P, _ = random_problem(seed, n, K, degenerate=False)
    Yd, Pd = Y.astype(dtype), P.astype(dtype)
    if fmt is not None:
        Yd, Pd = fmt(Yd), fmt(Pd)
    reps = np.random.default_rng(seed).integers(0, 3, n)
    reps[0] = 1
    Yr, Pr = np.repeat(Y, reps, axis=0), np.repeat(P, reps, axis=0)
    calls = [
        lambda a, b, **k: M.hamming_loss(a, b, **k),
        lambda a, b, **k: M.subset_accuracy(a, b, **k),
        lambda a, b, **k: M.instance_jaccard(a, b, **k),
        lambda a, b, **k: M.example_based_f_measure(a, b, 2.0, **k),
    ] + [
        (lambda avg, fn: lambda a, b, **k: fn(a, b, average=avg, **k))(avg, fn)
        for avg in ("micro", "macro", "instance")
        for fn in (M.precision, M.recall, M.f_measure)
    ]
    for call in calls:
        ref = call(Y, P)
        assert call(Yd, Pd) == pytest.approx(ref, abs=TOL)
        # weight r on a row is the row repeated r times (zero weight: left out)
        assert call(Y, P, sample_weight=reps) == pytest.approx(call(Yr, Pr), abs=TOL)


def test_single_label_column_equals_binary_sklearn():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 50)
    p = rng.integers(0, 2, 50)
    Y, P = y[:, None], p[:, None]
    assert M.hamming_loss(Y, P) == pytest.approx(skm.hamming_loss(y, p), abs=TOL)
    assert M.precision(Y, P, average="macro") == pytest.approx(
        skm.precision_score(y, p), abs=TOL
    )
    assert M.f_measure(Y, P, 1.0, "micro") == pytest.approx(skm.f1_score(y, p), abs=TOL)


Y0 = np.array([[1, 0, 1], [0, 1, 0]])
P0 = np.array([[1, 1, 0], [0, 1, 0]])


@pytest.mark.parametrize(
    "fn",
    [
        M.hamming_loss,
        M.subset_accuracy,
        M.instance_jaccard,
        M.precision,
        M.recall,
        M.f_measure,
        M.example_based_f_measure,
    ],
)
def test_bad_sample_weight(fn):
    with pytest.raises(ValueError, match=r"sample_weight must have shape \(2,\)"):
        fn(Y0, P0, sample_weight=[1.0])
    with pytest.raises(ValueError, match="sample_weight must be non-negative"):
        fn(Y0, P0, sample_weight=[1.0, -1.0])
    with pytest.raises(ValueError, match="sample_weight must not contain NaN"):
        fn(Y0, P0, sample_weight=[1.0, np.nan])
    with pytest.raises(ValueError, match="sample_weight must have a positive sum"):
        fn(Y0, P0, sample_weight=[0.0, 0.0])
    with pytest.raises(TypeError, match="sample_weight must hold real numbers"):
        fn(Y0, P0, sample_weight=["a", "b"])


def test_bad_per_instance():
    with pytest.raises(TypeError, match="per_instance must be True or False"):
        M.hamming_loss(Y0, P0, per_instance="yes")
    with pytest.raises(ValueError, match="per_instance=True needs average='instance'"):
        M.f_measure(Y0, P0, average="micro", per_instance=True)
    with pytest.raises(TypeError, match="per_instance must be True or False"):
        M.ranking_loss(Y0, np.zeros((2, 3)), per_instance=1)


@pytest.mark.parametrize(
    "dtype, bad",
    [(d, b) for d in (np.int8, np.int16, np.int64) for b in (2, -1, 127)]
    + [(d, b) for d in (np.uint8, np.uint32) for b in (2, 127)],
)
def test_fast_integer_check_finds_every_non_binary_value(dtype, bad):
    """The one-pass unsigned-view check: negatives and values > 1 are refused."""
    P = np.zeros((3000, 4), dtype=dtype)  # more than one block of the chunked check
    P[2999, 3] = bad
    with pytest.raises(ValueError, match=f"P must be binary .*{bad}"):
        M.hamming_loss(np.zeros((3000, 4), dtype=dtype), P)
    with pytest.raises(ValueError, match=f"Y must be binary .*{bad}"):
        M.f_measure(P, np.zeros((3000, 4), dtype=dtype), average="instance")


def test_sparse_and_dense_may_be_mixed():
    Y, P, _ = random_problem(4, 20, 5)
    for avg in ("micro", "macro", "instance"):
        assert M.f_measure(sp.csr_matrix(Y), P, 1.0, avg) == pytest.approx(
            M.f_measure(Y, P, 1.0, avg), abs=TOL
        )
    w = weights(4, 20)
    assert M.precision(
        Y, sp.csc_matrix(P), average="macro", sample_weight=w
    ) == pytest.approx(M.precision(Y, P, average="macro", sample_weight=w), abs=TOL)


@pytest.mark.parametrize("seed", range(10))
def test_per_instance_auc_matches_each_instance_alone(seed):
    Y, _, F = random_problem(seed, ties=seed % 2 == 0)
    v = M.auc(Y, F, "instance", per_instance=True)
    assert v.shape == (len(Y),)
    for i in range(len(Y)):
        ref = M.auc(Y[i : i + 1], F[i : i + 1], "instance")  # one instance alone
        assert (np.isnan(v[i]) and np.isnan(ref)) or v[i] == ref
    assert M.auc(Y, F, "instance") == pytest.approx(np.nanmean(v), abs=TOL)
    with pytest.raises(ValueError, match="per_instance=True needs average='instance'"):
        M.auc(Y, F, "macro", per_instance=True)
