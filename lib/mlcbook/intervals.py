r"""Bootstrap confidence intervals and paired comparisons for every measure and loss.

Every measure of :mod:`mlcbook.metrics` and every loss of :mod:`mlcbook.losses` is a
function :math:`g(S)` of a few sums over instances, :math:`S = \sum_i w_i s_i`, with
:math:`s_i` a short vector of per-instance statistics and :math:`w_i` the instance
weight (1 without ``sample_weight``):

* a mean over instances (Hamming loss, subset accuracy, Jaccard, instance
  precision/recall/F, ranking loss, one-error, coverage, average precision,
  instance AUC, the dependence-aware losses): :math:`s_i = (v_i, 1)`, :math:`g = S_0 /
  S_1` (instance AUC: :math:`s_i = (v_i, 1)` on instances where it is defined, 0
  elsewhere);
* micro precision/recall/F: :math:`s_i = (tp_i, |y_i|, |p_i|)`, the pooled counts;
* macro precision/recall/F: the per-label counts, :math:`3K` statistics;
* Zhang & Zhou's :math:`F^\beta_{exam}`: :math:`s_i = (P_i, R_i, 1)`.

A bootstrap resample draws ``n`` instances with replacement: its sums are
:math:`C s` with ``C`` the ``(B, n)`` matrix of how often each instance was drawn, so
``B`` resamples cost one matrix product (BLAS), not ``B`` calls of the measure: 10,000
resamples of n = 10,000 instances and K = 50 labels take seconds
(``benchmarks/bench_intervals.py``).  Leave-one-out (jackknife) values, needed by the
BCa interval, are :math:`g(S - w_i s_i)`, all ``n`` at once.

Intervals (:func:`bootstrap_interval`): ``'percentile'`` and ``'BCa'`` (bias-corrected
and accelerated; Efron & Tibshirani 1993, Ch. 14), the formulas of
:func:`scipy.stats.bootstrap`, which is the reference in the tests (same data, same
kind of resampling: the intervals agree up to the Monte Carlo error of the
resampling).  scipy itself is not called: it resamples each statistic separately, and
the 3K statistics of a macro average or the per-label counts of a sparse matrix would
cost K times more; it also has no instance weights.

Paired comparison (:func:`paired_comparison`) of two prediction sets on the same
truth: the bootstrap interval of the difference (both sets resampled with the same
instances) and a two-sided randomisation (permutation) test: under the null
hypothesis that the two systems are exchangeable on each instance, swapping the two
predictions of any instance leaves the distribution unchanged; the p-value is
:math:`(1 + \#\{|d^*| \ge |d|\}) / (R + 1)` over ``R`` random swap patterns (Noreen
1989; the approximate randomisation test of Yeh 2000 for F-measures).  Swaps are also
a matrix product: :math:`S_a^* = S_a + Z(s^b - s^a)` with ``Z`` the 0/1 swap matrix.

Not covered: macro and micro AUC (a pairwise statistic over instances, not a sum).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.special import ndtr, ndtri

from . import _labelcounts as _lc
from . import losses as _L
from . import metrics as _M
from ._validation import (
    check_label_matrix,
    check_positive_int,
    check_real,
    check_same_shape,
    check_score_matrix,
)

__all__ = [
    "Interval",
    "Comparison",
    "INTERVAL_MEASURES",
    "bootstrap_interval",
    "paired_comparison",
]

_PRED = (
    "hamming_loss",
    "subset_accuracy",
    "subset_zero_one_loss",
    "jaccard_score",
    *(f"{a}_{m}" for a in ("micro", "macro", "instance") for m in ("precision", "recall", "f1")),
    "example_based_f1",
    "binomial_loss",
    "polynomial_loss",
)
_SCORE = ("ranking_loss", "one_error", "coverage", "average_precision", "instance_auc")
#: Names :func:`bootstrap_interval` and :func:`paired_comparison` take (the measure
#: names of ``mlcbook evaluate``); the first group needs 0/1 predictions, the second
#: real-valued scores.
INTERVAL_MEASURES: tuple[str, ...] = _PRED + _SCORE
_METHODS = ("percentile", "BCa")
_CHUNK_CELLS = 1 << 23  # entries of the (chunk, n) resampling matrix built at once


@dataclass(frozen=True)
class Interval:
    """A bootstrap confidence interval: ``low <= estimate <= high`` (usually)."""

    measure: str
    estimate: float
    low: float
    high: float
    confidence: float
    method: str
    n_resamples: int
    standard_error: float


@dataclass(frozen=True)
class Comparison:
    """Two prediction sets on one truth: ``difference = estimate_a - estimate_b``,
    its bootstrap interval ``[low, high]`` and the randomisation test's p-value."""

    measure: str
    estimate_a: float
    estimate_b: float
    difference: float
    low: float
    high: float
    p_value: float
    confidence: float
    method: str
    n_resamples: int


# ------------------------------------------------------------------ decompositions
Finish = Callable[[np.ndarray], np.ndarray]


def _ratio(S: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return S[:, 0] / S[:, 1]


@dataclass(frozen=True)
class _Decomposed:
    """Per-instance statistics (rows), the function of their column sums, and for a
    mean over instances the per-instance values (NaN: left out of the mean)."""

    stats: Any
    finish: Finish
    values: np.ndarray | None = None


def _mean_stats(v: Any) -> _Decomposed:
    v = np.asarray(v, dtype=np.float64)
    ok = ~np.isnan(v)
    return _Decomposed(np.column_stack([np.where(ok, v, 0.0), ok.astype(np.float64)]), _ratio, v)


def _estimate(d: _Decomposed, total: np.ndarray, w: np.ndarray | None) -> float:
    """The measure's value as :mod:`mlcbook.metrics` computes it (a mean over
    instances by ``np.mean``/``np.average``, not by the ratio of two sums, so the
    last digit agrees too)."""
    if d.values is not None:
        v = d.values
        ok = ~np.isnan(v) if w is None else ~np.isnan(v) & (w > 0)
        if not ok.any():
            return float("nan")
        return _lc.weighted_mean(v[ok], None if w is None else w[ok])
    return float(d.finish(total[None, :])[0])


def _fbeta(tp, ny, np_, beta: float, zd: float) -> np.ndarray:
    b2 = beta * beta
    return _lc.divide((1.0 + b2) * tp, b2 * ny + np_, zd)


def _prf_finish(which: str, beta: float, zd: float, K: int | None) -> Finish:
    def finish(S: np.ndarray) -> np.ndarray:
        if K is None:
            tp, ny, np_ = S[:, 0], S[:, 1], S[:, 2]
        else:
            tp, ny, np_ = S[:, :K], S[:, K : 2 * K], S[:, 2 * K :]
        if which == "precision":
            v = _lc.divide(tp, np_, zd)
        elif which == "recall":
            v = _lc.divide(tp, ny, zd)
        else:
            v = _fbeta(tp, ny, np_, beta, zd)
        if K is None:
            return v
        ok = ~np.isnan(v)  # zero_division=nan: undefined labels left out of the mean
        with np.errstate(invalid="ignore"):
            return np.where(ok, v, 0.0).sum(axis=1) / ok.sum(axis=1)

    return finish


def _example_f_finish(beta: float) -> Finish:
    def finish(S: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            prec, rec = S[:, 0] / S[:, 2], S[:, 1] / S[:, 3]
        den = beta * beta * prec + rec
        out = np.zeros_like(den)
        np.divide((1 + beta * beta) * prec * rec, den, out=out, where=den > 0)
        out[np.isnan(den)] = np.nan  # zero_division=nan and no defined instance
        return out

    return finish


def _decompose(name: str, Y: Any, S: Any, params: dict[str, Any]) -> _Decomposed:
    """Per-instance statistics (rows) and the function of their sums."""
    zd = params.get("zero_division", 1.0)
    beta = params.get("beta", 1.0)
    if name in _SCORE:
        fn: Callable[..., Any] | None = {
            "ranking_loss": _M.ranking_loss,
            "one_error": _M.one_error,
            "coverage": _M.coverage,
            "average_precision": _M.average_precision,
        }.get(name)
        if fn is None:
            return _mean_stats(_M.auc(Y, S, "instance", per_instance=True))
        return _mean_stats(fn(Y, S, per_instance=True))
    if name in ("binomial_loss", "polynomial_loss"):
        fn = _L.binomial_loss if name == "binomial_loss" else _L.polynomial_loss
        param = params["k"] if name == "binomial_loss" else params["alpha"]
        return _mean_stats(fn(Y, S, param, per_instance=True))
    simple: dict[str, Callable[..., Any]] = {
        "hamming_loss": _M.hamming_loss,
        "subset_accuracy": _M.subset_accuracy,
        "subset_zero_one_loss": _M.subset_zero_one_loss,
    }
    if name in simple:
        return _mean_stats(simple[name](Y, S, per_instance=True))
    if name == "jaccard_score":
        return _mean_stats(_M.jaccard_score(Y, S, zero_division=zd, per_instance=True))
    if name == "example_based_f1":
        prec = _M.precision(Y, S, average="instance", zero_division=zd, per_instance=True)
        rec = _M.recall(Y, S, average="instance", zero_division=zd, per_instance=True)
        okp, okr = ~np.isnan(prec), ~np.isnan(rec)  # zero_division=nan: left out
        stats = np.column_stack(
            [np.where(okp, prec, 0.0), np.where(okr, rec, 0.0), okp, okr]
        ).astype(np.float64)
        return _Decomposed(stats, _example_f_finish(beta))
    average, which = name.split("_")
    which = "f" if which == "f1" else which
    if average == "instance":
        fn = {"precision": _M.precision, "recall": _M.recall}.get(which)  # None: F
        if fn is None:
            v = _M.f_measure(Y, S, beta, "instance", zero_division=zd, per_instance=True)
        else:
            v = fn(Y, S, average="instance", zero_division=zd, per_instance=True)
        return _mean_stats(v)
    Yc, Pc = _lc.check_pair(Y, S)
    c = _lc.Counts(Yc, Pc)
    if average == "micro":
        stats = np.column_stack([c.tp(1), c.ny(1), c.np_(1)]).astype(np.float64)
        return _Decomposed(stats, _prf_finish(which, beta, zd, None))
    K = Yc.shape[1]
    if sp.issparse(Yc):
        both = c.both
        stats = sp.hstack([both, Yc, Pc], format="csr").astype(np.float64)
    else:
        stats = np.hstack([Yc & Pc, Yc, Pc]).astype(np.float64)
    return _Decomposed(stats, _prf_finish(which, beta, zd, K))


def _weighted(stats, w: np.ndarray | None):
    if w is None:
        return stats
    if sp.issparse(stats):
        return sp.diags(w) @ stats
    return stats * w[:, None]


def _sums(C: np.ndarray, stats) -> np.ndarray:
    """``C @ stats`` for dense or sparse ``stats`` (rows of C: resamples)."""
    if sp.issparse(stats):
        return np.asarray((stats.T @ C.T).T)
    return C @ stats


# ------------------------------------------------------------------ checks
def _check_name(measure: Any) -> str:
    if not isinstance(measure, str):
        raise TypeError(f"measure must be a measure name (str), got {measure!r}")
    if measure not in INTERVAL_MEASURES:
        hint = (
            " (macro and micro AUC are not sums over instances: no interval here)"
            if measure in ("macro_auc", "micro_auc")
            else ""
        )
        raise ValueError(
            f"measure must be one of {', '.join(INTERVAL_MEASURES)}, got {measure!r}{hint}"
        )
    return measure


def _check_params(measure: str, params: dict[str, Any]) -> dict[str, Any]:
    allowed = {"zero_division", "beta"} if measure in _PRED else set()
    if measure == "binomial_loss":
        allowed = {"k"}
    elif measure == "polynomial_loss":
        allowed = {"alpha"}
    unknown = set(params) - allowed
    if unknown:
        raise TypeError(
            f"{measure} takes no parameter {sorted(unknown)[0]!r}"
            + (f"; it takes {', '.join(sorted(allowed))}" if allowed else "")
        )
    out = dict(params)
    if "zero_division" in out:
        out["zero_division"] = _M._check_zero_division(out["zero_division"])
    if "beta" in out:
        out["beta"] = _M._check_beta(out["beta"])
    for p in ("k", "alpha"):
        if measure.startswith("binomial" if p == "k" else "polynomial") and p not in out:
            raise TypeError(f"{measure} needs the parameter {p}=")
    return out


def _common(confidence: Any, n_resamples: Any, method: Any) -> tuple[float, int, str]:
    confidence = check_real(
        confidence, "confidence", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False
    )
    n_resamples = check_positive_int(n_resamples, "n_resamples", low=1, high=10**8)
    if not isinstance(method, str) or method not in _METHODS:
        raise ValueError(f"method must be one of {_METHODS}, got {method!r}")
    return confidence, n_resamples, method


def _inputs(measure: str, Y: Any, S: Any, name_s: str) -> tuple[Any, Any]:
    if measure in _SCORE:
        Y = check_label_matrix(Y, "Y", allow_sparse=False)
        S = check_score_matrix(S, name_s)
        check_same_shape(Y, S, "Y", name_s)
        return Y, S
    return _lc.check_pair(Y, S, "Y", name_s)


# ------------------------------------------------------------------ resampling
def _resample_counts(rng: np.random.Generator, rows: int, n: int) -> np.ndarray:
    """``rows`` bootstrap resamples as a (rows, n) matrix of draw counts."""
    idx = rng.integers(0, n, size=(rows, n))
    idx += (np.arange(rows) * n)[:, None]
    return np.bincount(idx.ravel(), minlength=rows * n).reshape(rows, n).astype(np.float64)


def _chunks(total: int, n: int):
    step = max(1, _CHUNK_CELLS // max(n, 1))
    for lo in range(0, total, step):
        yield min(step, total - lo)


def _jackknife(stats, total: np.ndarray, finish: Finish) -> np.ndarray:
    """``finish(total - stats_i)`` for every instance ``i``."""
    n = stats.shape[0]
    out = np.empty(n)
    step = max(1, _CHUNK_CELLS // max(stats.shape[1], 1))
    for lo in range(0, n, step):
        block = stats[lo : lo + step]
        block = block.toarray() if sp.issparse(block) else block
        out[lo : lo + step] = finish(total[None, :] - block)
    return out


def _interval(
    theta_b: np.ndarray,
    theta: float,
    confidence: float,
    method: str,
    jack: Callable[[], np.ndarray],
) -> tuple[float, float]:
    """Percentile or BCa interval from the bootstrap values (scipy's formulas)."""
    alpha = (1.0 - confidence) / 2.0
    theta_b = theta_b[~np.isnan(theta_b)]
    if theta_b.size == 0 or math.isnan(theta):
        return float("nan"), float("nan")
    if np.all(theta_b == theta_b[0]):  # a degenerate resampling distribution
        return float(theta_b[0]), float(theta_b[0])
    levels = np.array([alpha, 1.0 - alpha])
    if method == "BCa":
        z0 = ndtri(np.mean(theta_b < theta))
        jk = jack()
        jk = jk[~np.isnan(jk)]
        d = jk.mean() - jk
        den = 6.0 * np.sum(d**2) ** 1.5
        a = np.sum(d**3) / den if den > 0 else 0.0
        z = ndtri(levels)
        levels = ndtr(z0 + (z0 + z) / (1.0 - a * (z0 + z)))
        if not np.all(np.isfinite(levels)):  # z0 infinite: every resample on one side
            levels = np.array([alpha, 1.0 - alpha])
    lo, hi = np.percentile(theta_b, 100.0 * levels)
    return float(lo), float(hi)


def _rng(random_state: Any) -> np.random.Generator:
    if isinstance(random_state, np.random.Generator):
        return random_state
    if random_state is not None:
        random_state = check_positive_int(random_state, "random_state", low=0, high=2**63 - 1)
    return np.random.default_rng(random_state)


# ------------------------------------------------------------------ public API
def bootstrap_interval(
    measure: str,
    Y: Any,
    S: Any,
    *,
    confidence: float = 0.95,
    n_resamples: int = 9999,
    method: str = "BCa",
    sample_weight: Any = None,
    random_state: Any = None,
    **params: Any,
) -> Interval:
    """A bootstrap confidence interval of one measure over instances.

    Parameters
    ----------
    measure : str
        One of :data:`INTERVAL_MEASURES` (e.g. ``"hamming_loss"``, ``"macro_f1"``,
        ``"ranking_loss"``, ``"binomial_loss"``).
    Y : array-like or sparse matrix (n_samples, n_labels), 0/1
    S : array-like or sparse matrix (n_samples, n_labels)
        0/1 predictions, or real scores for the ranking measures.
    confidence : float in (0, 1), default 0.95
    n_resamples : int, default 9999
    method : {"BCa", "percentile"}
    sample_weight : array-like (n_samples,), optional
        Instance weights: each resample's value is the weighted measure of the drawn
        instances, and the estimate is the weighted measure (as in :mod:`metrics`).
    random_state : int, Generator or None
    **params
        ``zero_division`` and ``beta`` (prediction measures; ``*_f1`` with ``beta``
        is F-beta), ``k`` (binomial loss), ``alpha`` (polynomial loss).

    Returns
    -------
    Interval

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> Y = rng.integers(0, 2, (500, 5)); P = np.where(rng.random((500, 5)) < 0.2, 1 - Y, Y)
    >>> ci = bootstrap_interval("hamming_loss", Y, P, random_state=0)
    >>> round(ci.estimate, 4), ci.low < ci.estimate < ci.high  # np.mean(Y != P)
    (0.2132, True)
    """
    measure = _check_name(measure)
    params = _check_params(measure, params)
    confidence, n_resamples, method = _common(confidence, n_resamples, method)
    Y, S = _inputs(measure, Y, S, "S")
    w = _lc.check_sample_weight(sample_weight, Y.shape[0])
    rng = _rng(random_state)
    decomposed = _decompose(measure, Y, S, params)
    stats, finish = _weighted(decomposed.stats, w), decomposed.finish
    total = np.asarray(stats.sum(axis=0)).ravel()
    theta = float(finish(total[None, :])[0])  # the resamples' arithmetic
    n = Y.shape[0]
    theta_b = np.concatenate(
        [finish(_sums(_resample_counts(rng, rows, n), stats)) for rows in _chunks(n_resamples, n)]
    )
    lo, hi = _interval(
        theta_b, theta, confidence, method, lambda: _jackknife(stats, total, finish)
    )
    se = float(np.nanstd(theta_b, ddof=1)) if n_resamples > 1 else float("nan")
    estimate = _estimate(decomposed, total, w)
    return Interval(measure, estimate, lo, hi, confidence, method, n_resamples, se)


def paired_comparison(
    measure: str,
    Y: Any,
    S_a: Any,
    S_b: Any,
    *,
    confidence: float = 0.95,
    n_resamples: int = 9999,
    n_permutations: int = 9999,
    method: str = "BCa",
    sample_weight: Any = None,
    random_state: Any = None,
    **params: Any,
) -> Comparison:
    """Compare two prediction (or score) sets on the same truth, instance by instance.

    The difference ``measure(Y, S_a) - measure(Y, S_b)`` gets a paired bootstrap
    interval (both sets resampled with the same instances) and the two-sided p-value
    of a randomisation test that swaps the two systems' outputs on random subsets of
    instances (see the module docstring).

    Parameters
    ----------
    measure, Y, confidence, n_resamples, method, sample_weight, random_state, **params
        As in :func:`bootstrap_interval`.
    S_a, S_b : array-like or sparse matrix (n_samples, n_labels)
        The two systems' predictions (or scores), same shape as ``Y``.
    n_permutations : int, default 9999
        Random swap patterns of the randomisation test.

    Returns
    -------
    Comparison
    """
    measure = _check_name(measure)
    params = _check_params(measure, params)
    confidence, n_resamples, method = _common(confidence, n_resamples, method)
    n_permutations = check_positive_int(n_permutations, "n_permutations", low=1, high=10**8)
    Y, S_a = _inputs(measure, Y, S_a, "S_a")
    Yb, S_b = _inputs(measure, Y, S_b, "S_b")
    w = _lc.check_sample_weight(sample_weight, Y.shape[0])
    rng = _rng(random_state)
    da = _decompose(measure, Y, S_a, params)
    db = _decompose(measure, Yb, S_b, params)
    finish = da.finish
    sa, sb = _weighted(da.stats, w), _weighted(db.stats, w)
    ta = np.asarray(sa.sum(axis=0)).ravel()
    tb = np.asarray(sb.sum(axis=0)).ravel()
    diff = float(finish(ta[None, :])[0] - finish(tb[None, :])[0])  # as the resamples
    n = Y.shape[0]
    boots = []
    for rows in _chunks(n_resamples, n):
        C = _resample_counts(rng, rows, n)
        boots.append(finish(_sums(C, sa)) - finish(_sums(C, sb)))
    theta_b = np.concatenate(boots)

    def jack() -> np.ndarray:
        return _jackknife(sa, ta, finish) - _jackknife(sb, tb, finish)

    lo, hi = _interval(theta_b, diff, confidence, method, jack)
    delta = sb - sa
    extreme = 0
    tol = 1e-12 * max(1.0, abs(diff))  # a swap that reproduces |d| counts as extreme
    for rows in _chunks(n_permutations, n):
        Z = rng.integers(0, 2, size=(rows, n)).astype(np.float64)
        shift = _sums(Z, delta)
        d = finish(ta[None, :] + shift) - finish(tb[None, :] - shift)
        extreme += int(np.sum(np.abs(d) >= abs(diff) - tol))
    p = (1 + extreme) / (n_permutations + 1)
    est_a, est_b = _estimate(da, ta, w), _estimate(db, tb, w)
    return Comparison(
        measure, est_a, est_b, est_a - est_b, lo, hi, p, confidence, method, n_resamples
    )
