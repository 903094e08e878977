r"""Bootstrap confidence intervals and paired comparisons for every measure of the
registry that is a function of sums over instances.

Such a measure (a :class:`mlcbook.registry.MeasureSpec` with ``per_instance`` or
``decompose``) is a function :math:`g(S)` of a few sums over instances,
:math:`S = \sum_i w_i s_i`, with :math:`s_i` a short vector of per-instance statistics
and :math:`w_i` the instance weight (1 without ``sample_weight``):

* a mean over instances (Hamming loss, subset accuracy, Jaccard, instance and
  "samples" precision/recall/F, ranking loss, one-error, coverage, label-ranking
  average precision, instance AUC, the dependence-aware losses): :math:`s_i = (v_i,
  1)`, :math:`g = S_0 / S_1` (:math:`s_i = (0, 0)` where the value is undefined, e.g.
  instance AUC of a row with one class);
* micro precision/recall/F/Jaccard: :math:`s_i = (tp_i, |y_i|, |p_i|)`, the pooled
  counts;
* macro and weighted precision/recall/F/Jaccard: the per-label counts, :math:`3K`
  statistics;
* Zhang & Zhou's :math:`F^\beta_{exam}`: :math:`s_i = (P_i, R_i, 1, 1)`.

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

Not covered (their spec says why, ``no_interval`` of :class:`~mlcbook.registry.MeasureSpec`):
macro and micro AUC, scikit-learn's ``roc_auc`` and ``average_precision`` (per-label
statistics of pairs or rankings of instances, not sums over instances).
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
from . import _listed
from . import registry as _R
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

#: The built-in measures that have an interval (every registered measure with a
#: per-instance decomposition: ``mlcbook.registry.measure_names(interval=True)``); the
#: functions below read the registry when called, so a measure registered later counts.
INTERVAL_MEASURES: tuple[str, ...] = tuple(_R.measure_names(interval=True))
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


def _estimate(d: _R.Decomposition, total: np.ndarray, w: np.ndarray | None) -> float:
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


def _decompose(spec: _R.MeasureSpec, Y: Any, S: Any, params: dict[str, Any]) -> _R.Decomposition:
    """Per-instance statistics (rows) and the function of their sums (the registry's)."""
    d = spec.decomposition(Y, S, **params)
    assert d is not None  # _check_name admits only measures with an interval
    return d


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
def _check_name(measure: Any) -> tuple[_R.MeasureSpec, dict[str, Any]]:
    """The measure's spec (and the parameters a deprecated name fixes)."""
    try:
        spec, fixed = _R.resolve(measure)
    except ValueError:
        raise ValueError(
            f"measure must be one of {', '.join(_R.measure_names(interval=True))}, got {measure!r}"
        ) from None
    if not spec.has_interval:
        reason = spec.no_interval or "it is not a function of sums over instances"
        raise ValueError(f"{spec.name} has no bootstrap interval here: {reason}")
    return spec, fixed


def _check_params(spec: _R.MeasureSpec, fixed: dict[str, Any], params: dict[str, Any]):
    """Every parameter of the measure: given ones checked, the others at their default."""
    return spec.check_params({**fixed, **params})


def _common(confidence: Any, n_resamples: Any, method: Any) -> tuple[float, int, str]:
    confidence = check_real(
        confidence, "confidence", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False
    )
    n_resamples = check_positive_int(n_resamples, "n_resamples", low=1, high=10**8)
    if not isinstance(method, str) or method not in _METHODS:
        raise ValueError(f"method must be one of {_METHODS}, got {method!r}")
    return confidence, n_resamples, method


def _inputs(spec: _R.MeasureSpec, Y: Any, S: Any, name_s: str) -> tuple[Any, Any]:
    if spec.inputs == "scores" and _listed.is_listed(S):  # top-k or sparse: kept as given
        Y = check_label_matrix(Y, "Y")
        check_same_shape(Y, S, "Y", name_s)
        return Y, S
    if spec.inputs == "scores":
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
        A registered measure with an interval (:data:`INTERVAL_MEASURES`, e.g.
        ``"hamming_loss"``, ``"macro_f1"``, ``"f1_macro"``, ``"ranking_loss"``,
        ``"binomial_loss"``).
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
        The measure's parameters (its spec's ``params``): ``zero_division``, ``beta``
        (``*_f1`` with ``beta`` is F-beta), ``convention``, ``k`` (binomial loss),
        ``alpha`` (polynomial loss), ...

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
    spec, fixed = _check_name(measure)
    params = _check_params(spec, fixed, params)
    confidence, n_resamples, method = _common(confidence, n_resamples, method)
    Y, S = _inputs(spec, Y, S, "S")
    w = _lc.check_sample_weight(sample_weight, Y.shape[0])
    rng = _rng(random_state)
    decomposed = _decompose(spec, Y, S, params)
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
    return Interval(spec.name, estimate, lo, hi, confidence, method, n_resamples, se)


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
    spec, fixed = _check_name(measure)
    params = _check_params(spec, fixed, params)
    confidence, n_resamples, method = _common(confidence, n_resamples, method)
    n_permutations = check_positive_int(n_permutations, "n_permutations", low=1, high=10**8)
    Y, S_a = _inputs(spec, Y, S_a, "S_a")
    Yb, S_b = _inputs(spec, Y, S_b, "S_b")
    w = _lc.check_sample_weight(sample_weight, Y.shape[0])
    rng = _rng(random_state)
    da = _decompose(spec, Y, S_a, params)
    db = _decompose(spec, Yb, S_b, params)
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
        spec.name, est_a, est_b, est_a - est_b, lo, hi, p, confidence, method, n_resamples
    )
