"""The measures under scikit-learn's names, with scikit-learn's defaults and averages.

:mod:`mlcbook.metrics` computes the book's measures (``zero_division=1``, undefined AUCs
left out); the registry's scikit-learn names (``f1_macro``, ``jaccard_weighted``,
``roc_auc``, ``average_precision``, ``coverage_error``, ...) must give scikit-learn's
numbers on every input scikit-learn accepts.  This module holds what that needs
beyond the shared counts of :mod:`mlcbook._labelcounts`:

* ``zero_division="warn"`` by default (0 and an ``UndefinedMetricWarning``);
* ``average="weighted"`` (per-label values weighted by the number of true instances)
  and ``"samples"`` with scikit-learn's weighting of per-instance counts;
* scikit-learn's NaN-skipping average (``sklearn.utils.extmath._nanaverage``: NaN values
  left out; when the remaining weights sum to zero, their plain mean);
* ``roc_auc``: the macro average of the per-label AUCs, NaN (with a warning) when a
  label has one class -- scikit-learn >= 1.6 (earlier releases refuse that input);
* ``average_precision``: the per-label step sum of the precision-recall curve
  (scikit-learn's ``_binary_uninterpolated_average_precision``), averaged over labels;
  a label without positives scores 0 (with scikit-learn's warning);
* ``coverage_error``: one more than Wu & Zhou's coverage on rows with a relevant label,
  0 on rows without.

The three ranking measures also take top-k or sparse scores (scikit-learn's do not),
with the convention of :mod:`mlcbook.topk`: the value of the dense matrix whose
unlisted entries lie below every listed score.

The arithmetic follows scikit-learn's order of operations, so that the values agree to
the last bit or within a few units of it (the tests state the tolerance).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from . import _labelcounts as _lc
from . import _listed, _ranks
from ._auc import label_aucs
from ._classification import check_scores, check_zero_division
from ._ranking import coverage_args, listed_args

__all__ = [
    "prf",
    "jaccard",
    "samples_values",
    "nanaverage",
    "nanaverage_rows",
    "roc_auc",
    "average_precision",
    "coverage_error",
    "coverage_error_values",
]


def nanaverage(a: Any, weights: Any = None) -> float:
    """scikit-learn's ``_nanaverage``: NaN left out; all NaN gives NaN; remaining weights
    that sum to zero give the plain mean of the remaining values."""
    a = np.asarray(a, dtype=np.float64)
    if a.shape[0] == 0:
        return float("nan")
    mask = np.isnan(a)
    if mask.all():
        return float("nan")
    if weights is None:
        return float(np.nanmean(a))
    w = np.asarray(weights, dtype=np.float64)[~mask]
    a = a[~mask]
    try:
        return float(np.average(a, weights=w))
    except ZeroDivisionError:
        return float(np.average(a))


def nanaverage_rows(v: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
    """:func:`nanaverage` of every row of ``v`` (rows: bootstrap resamples)."""
    ok = ~np.isnan(v)
    v0 = np.where(ok, v, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        plain = v0.sum(axis=1) / ok.sum(axis=1)
        if weights is None:
            return plain
        w0 = np.where(ok, weights, 0.0)
        ws = w0.sum(axis=1)
        return np.where(ws > 0, (v0 * w0).sum(axis=1) / np.where(ws > 0, ws, 1.0), plain)


def _counts(Y: Any, P: Any, average: str, w: np.ndarray | None):
    """(tp, |y|, |p|) as scikit-learn's ``multilabel_confusion_matrix`` gives them: pooled
    (micro) or per label with instance weights in the counts, or per instance with each
    row's counts multiplied by its weight (``samplewise=True``)."""
    if average == "samples":
        c = _lc.Counts(Y, P)
        tp, ny, np_ = c.tp(1), c.ny(1), c.np_(1)
        if w is not None:
            tp, ny, np_ = tp * w, ny * w, np_ * w
        return tp, ny, np_
    c = _lc.Counts(Y, P, w)
    axis = None if average == "micro" else 0
    tp, ny, np_ = c.tp(axis), c.ny(axis), c.np_(axis)
    if average == "micro":
        return np.array([tp]), np.array([ny]), np.array([np_])
    return tp, ny, np_


def _average(v: np.ndarray, average: str, ny: Any, w: np.ndarray | None) -> float:
    weights = ny if average == "weighted" else (w if average == "samples" else None)
    return nanaverage(v, weights)


def _args(Y: Any, P: Any, sample_weight: Any):
    Y, P = _lc.check_pair(Y, P, "Y", "P")
    return Y, P, _lc.check_sample_weight(sample_weight, Y.shape[0])


def prf(
    Y: Any,
    P: Any,
    *,
    which: str,
    average: str,
    zero_division: Any = "warn",
    sample_weight: Any = None,
) -> float:
    """scikit-learn's ``precision_score``/``recall_score``/``f1_score`` (``which``:
    ``"precision"``, ``"recall"``, ``"f"``) of a label matrix with ``average``
    ``"micro"``, ``"macro"``, ``"samples"`` or ``"weighted"``."""
    Y, P, w = _args(Y, P, sample_weight)
    zd = check_zero_division(zero_division)
    tp, ny, np_ = _counts(Y, P, average, w)
    return _average(_lc.prf(which, tp, ny, np_, 1.0, zd), average, ny, w)


def jaccard(
    Y: Any, P: Any, *, average: str, zero_division: Any = "warn", sample_weight: Any = None
) -> float:
    """scikit-learn's ``jaccard_score`` of a label matrix: ``|y & p| / |y | p|`` per
    label (macro, weighted), pooled (micro) or per instance (samples)."""
    Y, P, w = _args(Y, P, sample_weight)
    zd = check_zero_division(zero_division)
    tp, ny, np_ = _counts(Y, P, average, w)
    v = _lc.divide(tp, np.asarray(ny, np.float64) + np_ - tp, zd)
    if average == "weighted":
        weights = None if not np.any(ny) else ny  # scikit-learn: no true label, no weights
        return nanaverage(v, weights)
    return nanaverage(v, w if average == "samples" else None)


def samples_values(Y: Any, P: Any, *, which: str, zero_division: Any = "warn") -> np.ndarray:
    """Per-instance precision, recall, F1 or Jaccard index (``average="samples"``
    before averaging): the values whose mean the registry's intervals resample."""
    Y, P = _lc.check_pair(Y, P, "Y", "P")
    zd = float(check_zero_division(zero_division))  # no warning per resample
    c = _lc.Counts(Y, P)
    tp, ny, np_ = c.tp(1), c.ny(1), c.np_(1)
    if which == "jaccard":
        return _lc.divide(tp, ny + np_ - tp, zd)
    return _lc.prf(which, tp, ny, np_, 1.0, zd)


# ---------------------------------------------------------------------- scores
def _score_args(Y: Any, F: Any, sample_weight: Any):
    Y, F = check_scores(Y, F)
    return Y.astype(bool), F, _lc.check_sample_weight(sample_weight, Y.shape[0])


def _undefined(what: str) -> None:
    from sklearn.exceptions import UndefinedMetricWarning  # lazy: 1 s of imports

    warnings.warn(what, UndefinedMetricWarning, stacklevel=4)


def roc_auc(Y: Any, F: Any, *, sample_weight: Any = None) -> float:
    """scikit-learn's ``roc_auc_score(Y, F)`` (``average="macro"``) of a label matrix:
    the mean of the per-label AUCs (ties one half), NaN with an
    ``UndefinedMetricWarning`` if a label has only one class (scikit-learn >= 1.6; an
    earlier scikit-learn refuses that input)."""
    if _listed.is_listed(F):  # top-k or sparse scores (mlcbook.topk): nothing made dense
        Yc, L, w, _ = listed_args(Y, F, sample_weight, False)
        scores = _listed.label_aucs(Yc, L, w)
    else:
        Y, F, w = _score_args(Y, F, sample_weight)
        scores = label_aucs(Y, F, w)
    if np.isnan(scores).any():
        _undefined(
            f"{int(np.isnan(scores).sum())} label(s) have only one class: their ROC AUC "
            "is not defined and the macro average is NaN (the book's macro_auc leaves "
            "them out)"
        )
    return float(np.average(scores))


def _ap_1d(y: np.ndarray, f: np.ndarray, w: np.ndarray | None) -> float:
    """scikit-learn's ``_binary_uninterpolated_average_precision`` of one label."""
    if w is not None:
        keep = w != 0
        y, f, w = y[keep], f[keep], w[keep]
    order = np.argsort(f, kind="mergesort")[::-1]
    fs, ys = f[order], y[order]
    weight = 1.0 if w is None else w[order]
    # distinct thresholds: scikit-learn's np.diff(fs) != 0 without its overflow (+-1e308)
    idx = np.r_[np.flatnonzero(fs[1:] != fs[:-1]), ys.size - 1]
    tps = np.cumsum(ys * weight, dtype=np.float64)[idx]
    if w is None:
        fps = 1 + idx - tps
    else:
        fps = np.cumsum((1 - ys) * weight, dtype=np.float64)[idx]
    ps = tps + fps
    precision = np.zeros_like(tps)
    np.divide(tps, ps, out=precision, where=ps != 0)
    if tps[-1] == 0:
        recall = np.ones_like(tps)
    else:
        recall = tps / tps[-1]
    precision = np.hstack((precision[::-1], 1))
    recall = np.hstack((recall[::-1], 0))
    return float(max(0.0, -np.sum(np.diff(recall) * precision[:-1])))


def average_precision(Y: Any, F: Any, *, sample_weight: Any = None) -> float:
    """scikit-learn's ``average_precision_score(Y, F)`` (``average="macro"``) of a label
    matrix: per label the step sum :math:`\\sum_n (R_n - R_{n-1}) P_n` over the
    thresholds of its precision-recall curve, averaged over labels.  A label without a
    positive instance scores 0 (with scikit-learn's warning)."""
    listed = _listed.is_listed(F)  # top-k or sparse scores (mlcbook.topk)
    if listed:
        Yc, L, w, _ = listed_args(Y, F, sample_weight, False)
        pos = _listed.col_sums(Yc, w)
    else:
        Y, F, w = _score_args(Y, F, sample_weight)
        pos = Y.sum(axis=0) if w is None else w @ Y
    if np.any(pos == 0):
        _undefined(
            f"{int(np.sum(pos == 0))} label(s) have no positive instance: their average "
            "precision is 0"
        )
    if listed:
        return float(np.average(_listed.label_average_precisions(Yc, L, w)))
    return float(np.average(_label_aps(Y, F, w)))


def _label_aps(Y: np.ndarray, F: np.ndarray, w: np.ndarray | None) -> np.ndarray:
    """Every label's average precision: from the positions of its positives in one
    sort of packed keys (:func:`mlcbook._ranks.column_positions`) when no score ties a
    positive's, else (ties, weights) by scikit-learn's curve (:func:`_ap_1d`)."""
    if w is not None:
        return np.array([_ap_1d(Y[:, j], F[:, j], w) for j in range(Y.shape[1])])
    Yi = Y.view(np.int8) if Y.dtype == bool else Y.astype(np.int8, copy=False)
    cp = _ranks.column_positions(Yi, F)
    out = cp.average_precision()
    for j in np.flatnonzero(~cp.exact):
        out[j] = _ap_1d(Y[:, j], np.ascontiguousarray(F[:, j]), None)
    return out


def coverage_error_values(Y: Any, F: Any) -> np.ndarray:
    """Per instance: how many labels score at least as high as the lowest-scored
    relevant one (0 without a relevant label): scikit-learn's ``coverage_error``."""
    if _listed.is_listed(F):  # top-k or sparse scores (mlcbook.topk)
        Yc, L, _, _ = listed_args(Y, F, None, False)
        R = _listed.RowRanking(Yc, L)
        return np.where(R.n_pos > 0, R.coverage() + 1.0, 0.0)
    Y, F, _ = coverage_args(Y, F, None)
    return _ranks.lowest_relevant_rank(Y, F, name="F").astype(np.float64)  # 0: none relevant


def coverage_error(Y: Any, F: Any, *, sample_weight: Any = None) -> float:
    """scikit-learn's ``coverage_error``: the mean of :func:`coverage_error_values`."""
    if _listed.is_listed(F):
        Yc, L, w, _ = listed_args(Y, F, sample_weight, False)
        R = _listed.RowRanking(Yc, L)
        return float(np.average(np.where(R.n_pos > 0, R.coverage() + 1.0, 0.0), weights=w))
    Y, F, w = coverage_args(Y, F, sample_weight)
    v = _ranks.lowest_relevant_rank(Y, F, name="F").astype(np.float64)
    return float(np.average(v, weights=w))
