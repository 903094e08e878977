"""The one-sort label kernels (packed float32 keys, mlcbook._ranks.column_positions)
and the one-pass coverage kernel against scikit-learn, on seeded random cases that
hit their edges: ties, -0.0 beside 0.0, magnitudes from 5e-324 to 1.7e308 (beyond
float32's range both ways), scores that differ only below float32 precision (one key
for several scores: the runs the kernel must put in order from the float64 scores),
labels all positive or all negative, truth of several dtypes, and sample weights
(zeros among them, and scales of 1e-200 and 1e200).

Tolerance 1e-12 absolute: AUCs are one division of exact integer counts (or of sums of
weights), average precisions sums of at most 80 fractions in another order than
scikit-learn's (80 * 2**-52 ~ 2e-14), coverages means of integers.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn import metrics as skm
from sklearn.exceptions import UndefinedMetricWarning

from mlcbook import _sklearn_measures as S
from mlcbook import metrics as M

KINDS = ("normal", "ties", "collide", "collide_ties", "extremes", "magnitudes", "f32_halves")


def scores(rng, n, K, kind):
    if kind == "normal":
        return rng.normal(size=(n, K))
    if kind == "ties":
        return rng.integers(0, 4, size=(n, K)).astype(float)
    if kind == "collide":  # distinct, one float32 for many; scaled to zeros / infinities
        k = np.column_stack([rng.permutation(200)[:n] for _ in range(K)])
        sign = rng.choice([1.0, -1.0], size=(n, K))
        return sign * (1.0 + k * 2.0**-40) * rng.choice([1.0, 1e-300, 1e39, 3.0e38])
    if kind == "collide_ties":  # few values below float32 precision: runs with ties
        return (1.0 + rng.integers(0, 6, size=(n, K)) * 2.0**-45) * rng.choice([1.0, -1.0])
    if kind == "extremes":
        values = [-0.0, 0.0, 1e-300, -1e-300, 5e-324, -5e-324, 2.0, 1e39, -1e39, 1.7e308, -1.7e308]
        return rng.choice(values, size=(n, K))
    if kind == "magnitudes":
        return rng.normal(size=(n, K)) * 10.0 ** rng.integers(-300, 300, size=(n, K))
    # float32 values and the float64 midpoints between them
    base = rng.normal(size=(n, K)).astype(np.float32)
    half = np.spacing(base).astype(float) / 2
    return base.astype(float) + rng.integers(-2, 3, size=(n, K)) * half


def case(seed):
    rng = np.random.default_rng(seed)
    n, K = int(rng.integers(1, 80)), int(rng.integers(2, 8))
    F = scores(rng, n, K, KINDS[seed % len(KINDS)])
    dtype = rng.choice([np.int64, np.int8, bool, np.float64, np.uint8])
    Y = (rng.random((n, K)) < rng.uniform(0.05, 0.95)).astype(dtype)
    if seed % 5 == 1:
        Y[:, 0] = 1  # a label all positive
    if seed % 5 == 2:
        Y[:, -1] = 0  # a label all negative
    w = None
    if seed % 3 == 1:
        w = rng.random(n) * rng.choice([1.0, 1e-200, 1e200])
        w[rng.random(n) < 0.2] = 0.0
        w[0] = max(w[0], 1e-3 * w.max(), 1e-250)  # a positive sum
    return Y, F, w


# ours may warn that a measure is undefined, nothing else (no overflow in a check)
pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")


def outcome(fn, *args, **kw):
    """The value, or the class of the error raised; scikit-learn's warnings (overflow
    on huge scores among them) ignored, ours only when they say a value is undefined."""
    with warnings.catch_warnings():
        if fn.__module__.startswith("sklearn"):
            warnings.simplefilter("ignore")
        else:
            warnings.simplefilter("ignore", UndefinedMetricWarning)
        try:
            return fn(*args, **kw)
        except (ValueError, ZeroDivisionError, IndexError) as exc:
            return type(exc)


def same(a, b):
    if isinstance(a, type) or isinstance(b, type):
        # scikit-learn refuses a label with one class (roc_auc); so do we
        return isinstance(a, type) and isinstance(b, type)
    return (np.isnan(a) and np.isnan(b)) or abs(a - b) <= 1e-12


def zhang_zhou_coverage(Y, F, w):
    """Scikit-learn's own per-row count (its masked-array code), less 1; 0 for a row
    without a relevant label."""
    low = np.ma.masked_array(F, mask=~Y).min(axis=1).reshape(-1, 1)
    count = (F >= low).sum(axis=1).filled(0)
    return float(np.average(np.maximum(count - 1, 0), weights=w))


@pytest.mark.parametrize("block", range(8))
def test_label_kernels_and_coverage_equal_scikit_learn(block):
    for seed in range(block * 60, (block + 1) * 60):
        Y, F, w = case(seed)
        Yb = Y.astype(bool)
        Yi = Y.astype(int)
        pairs = {
            "roc_auc": (outcome(S.roc_auc, Y, F, sample_weight=w),
                        outcome(skm.roc_auc_score, Yi, F, sample_weight=w)),
            "average_precision": (outcome(S.average_precision, Y, F, sample_weight=w),
                                  outcome(skm.average_precision_score, Yi, F, sample_weight=w)),
            "coverage_error": (outcome(S.coverage_error, Y, F, sample_weight=w),
                               outcome(skm.coverage_error, Yi, F, sample_weight=w)),
            "coverage": (outcome(M.coverage, Y, F, sample_weight=w),
                         zhang_zhou_coverage(Yb, F, w)),
            "ranking_loss": (outcome(M.ranking_loss, Y, F, sample_weight=w),
                             outcome(skm.label_ranking_loss, Yi, F, sample_weight=w)),
        }
        if w is None:
            pairs["coverage_error_values"] = (S.coverage_error_values(Y, F).mean(),
                                              outcome(skm.coverage_error, Yi, F))
        # the book's macro AUC leaves out the labels without both classes (weighted)
        per_label = [outcome(skm.roc_auc_score, Yi[:, j], F[:, j], sample_weight=w)
                     for j in range(Y.shape[1]) if 0 < Yi[:, j].sum() < len(Yi)]
        defined = [v for v in per_label if not isinstance(v, type)]
        if defined:
            pairs["macro_auc"] = (outcome(M.auc, Y, F, "macro", sample_weight=w),
                                  np.nanmean(defined) if not np.isnan(defined).all()
                                  else np.nan)
        for name, (ours, ref) in pairs.items():
            assert same(ours, ref), (seed, name, ours, ref)


def test_coverage_refuses_non_finite_scores_and_non_binary_truth():
    Y = np.array([[1, 0], [0, 1]])
    for bad in (np.nan, np.inf, -np.inf):
        F = np.array([[0.1, bad], [0.3, 0.4]])
        for fn in (M.coverage, S.coverage_error):
            with pytest.raises(ValueError, match="F must not contain NaN or infinite"):
                fn(Y, F)
    for bad_y in (2, -1):
        Yb = np.array([[1, bad_y], [0, 1]])
        with pytest.raises(ValueError, match="Y"):
            M.coverage(Yb, np.ones((2, 2)))


def test_all_zero_sample_weight_refused_as_scikit_learn_refuses():
    """Scikit-learn 1.7 raises for these three with all-zero weights (ValueError,
    IndexError, ZeroDivisionError); ours raises one ValueError that says why."""
    rng = np.random.default_rng(0)
    Y = (rng.random((20, 4)) < 0.5).astype(int)
    Y[0], Y[1] = 1, 0
    F, w = rng.normal(size=(20, 4)), np.zeros(20)
    for ours, theirs in ((S.roc_auc, skm.roc_auc_score),
                         (S.average_precision, skm.average_precision_score),
                         (S.coverage_error, skm.coverage_error)):
        with pytest.raises((ValueError, IndexError, ZeroDivisionError)):
            theirs(Y, F, sample_weight=w)
        with pytest.raises(ValueError, match="sample_weight must have a positive sum"):
            ours(Y, F, sample_weight=w)
