"""The areas under the ROC curve of :mod:`mlcbook.metrics` (macro, micro, instance).

Public through :mod:`mlcbook.metrics` (:func:`auc`), which documents the conventions.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _labelcounts as _lc
from . import _listed, _ranks
from ._classification import check_flag, check_scores
from ._ranking import RowStats, check_convention, listed_args
from ._validation import check_average

_AVERAGES_AUC = ("macro", "micro", "instance")


def label_aucs(Y: np.ndarray, F: np.ndarray, w: np.ndarray | None) -> np.ndarray:
    """AUC of every label (column), NaN where it has one class: from the positions of
    the positives in one sort of packed keys (:func:`mlcbook._ranks.column_positions`);
    the labels where a positive ties another score, and weighted instances, by the
    tie-aware count of each column."""
    if w is None:
        Yi = Y.view(np.int8) if Y.dtype in (np.int8, bool) else (Y != 0).view(np.int8)
        cp = _ranks.column_positions(Yi, F, ap=False)
        out = cp.auc()
        for j in np.flatnonzero(~cp.exact):
            out[j] = _auc_1d(Yi[:, j].astype(bool), np.ascontiguousarray(F[:, j]))
        return out
    YT = _ranks.columns(Y).view(bool) if Y.dtype == np.int8 else _ranks.columns(Y != 0)
    FT = _ranks.columns(F)
    return np.array([_auc_1d(YT[j], FT[j], w) for j in range(FT.shape[0])])


def _auc_order_1d(y: np.ndarray, f: np.ndarray) -> float:
    """Wu & Zhou's ``fast_AUC.m``: the rank sum of the positives in the ascending
    stable sort (a tie counts as ordered by index), NaN without both classes."""
    M = int(y.sum())
    N = y.size - M
    if M == 0 or N == 0:
        return float("nan")
    order = np.argsort(f, kind="stable")
    sigma = float(np.flatnonzero(y[order]).sum() + M)  # 1-based positions
    return (sigma - (M + 1) * M / 2) / (M * N)


def _auc_1d(y: np.ndarray, f: np.ndarray, w: np.ndarray | None = None) -> float:
    """AUC of one column (ties one half) by sorting the scores and binary search;
    NaN if ``y`` has no positive or no negative entry (or zero weight on either).

    With weights ``w`` every (positive, negative) pair counts ``w_a w_b``: the
    weighted Mann-Whitney statistic, the area under scikit-learn's weighted ROC
    curve.
    """
    if w is None:
        return _ranks.column_counts(y, f).auc()
    order = np.argsort(f[~y], kind="stable")
    neg, wn = f[~y][order], w[~y][order]
    pos, wp = f[y], w[y]
    if wp.sum() <= 0 or wn.sum() <= 0:
        return float("nan")
    cum = np.concatenate([[0.0], np.cumsum(wn)])
    below = cum[np.searchsorted(neg, pos, side="left")]
    tied = cum[np.searchsorted(neg, pos, side="right")] - below
    # each side normalised first: w_a w_b of weights near 1e-200 or 1e200 would
    # underflow to 0 or overflow to inf (scikit-learn's ROC curve is scale-free)
    return float((wp / wp.sum()) @ ((below + 0.5 * tied) / wn.sum()))


def nanmean(v, w: np.ndarray | None = None) -> float:
    v = np.asarray(v, dtype=np.float64)
    ok = ~np.isnan(v)
    if w is not None:
        ok &= w > 0
        return float(np.average(v[ok], weights=w[ok])) if ok.any() else float("nan")
    v = v[ok]
    return float(v.mean()) if v.size else float("nan")


def auc_average(
    Y, F, average: str, stats: RowStats | None = None, w: np.ndarray | None = None
) -> float:
    if average == "instance":
        return nanmean((stats or RowStats(Y, F)).auc(), w)
    Yb = Y.astype(bool, copy=False)
    if average == "macro":
        return nanmean(label_aucs(Y, F, w))
    wf = None if w is None else np.repeat(w, F.shape[1])
    return nanmean([_auc_1d(Yb.ravel(), F.ravel(), wf)])


def auc(
    Y: Any,
    F: Any,
    average: str | None = "macro",
    *,
    sample_weight: Any = None,
    per_instance: bool = False,
    convention: str = "mlcbook",
) -> float | np.ndarray:
    r"""Area under the ROC curve, averaged per label, per instance or pooled.

    For a set of positives :math:`A` and negatives :math:`B` with scores
    :math:`s`, :math:`\mathrm{AUC} = \frac{|\{(a,b): s_a > s_b\}| + \frac12
    |\{(a,b): s_a = s_b\}|}{|A|\,|B|}`.  ``'macro'`` averages it over labels
    (instances as items), ``'instance'`` over instances (labels as items) and
    ``'micro'`` computes it once over all entries of the matrix: Wu & Zhou's
    macro-, instance- and micro-AUC (Table 1).

    Ties count one half, as in :func:`sklearn.metrics.roc_auc_score`; Wu &
    Zhou's set definitions use ``>=`` (a tie counts fully) and assume that no
    ties occur.  Labels (for ``'macro'``) or instances (``'instance'``) with
    no positive or no negative entry have no AUC and are left out of the mean;
    scikit-learn returns NaN in that case.  If none is defined the result is
    NaN.  Equal to ``roc_auc_score(Y, F, average='macro'/'samples'/'micro')``
    whenever the latter is defined (also with ``sample_weight``); computed by
    one vectorised sort.

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels), 0/1
    F : array-like of shape (n_samples, n_labels)
    average : {'macro', 'micro', 'instance'} or None
        None: the AUC of every label, an array of shape (n_labels,) (NaN for a label
        with one class), whose mean over the defined ones is ``'macro'``.
    sample_weight : array-like of shape (n_samples,), optional
        Instance weights: a (positive, negative) pair of instances counts
        ``w_a w_b`` ('macro', 'micro'); 'instance' takes the weighted mean of
        the per-instance AUCs, as scikit-learn does.
    per_instance : bool, default False
        With ``average='instance'``: the AUC of every instance (NaN where an
        instance has no relevant or no irrelevant label).
    convention : {"mlcbook", "wu_zhou"}, default "mlcbook"
        ``"wu_zhou"``: ``fast_AUC.m``'s rank sum over an ascending stable sort, so a
        tie counts as ordered by index (micro: MATLAB's column-major ``labels(:)``);
        no ``sample_weight``.  Loops over labels or instances in Python.

    Returns
    -------
    float in [0, 1] (or NaN), or ndarray of shape (n_samples,)
    """
    if average is None:  # the AUC of every label (scikit-learn's average=None)
        if check_flag(per_instance, "per_instance"):
            raise ValueError("per_instance=True needs average='instance', got None")
        if _listed.is_listed(F):
            Yc, L, w, _ = listed_args(Y, F, sample_weight, False, convention)
            return np.asarray(_listed.label_aucs(Yc, L, w), dtype=np.float64)
        Y, F = check_scores(Y, F)
        w = _lc.check_sample_weight(sample_weight, Y.shape[0])
        if check_convention(convention) == "wu_zhou":
            if w is not None:
                raise ValueError(
                    "convention='wu_zhou' takes no sample_weight (the authors' has none)"
                )
            Yb = Y.astype(bool)
            return np.array([_auc_order_1d(y, f) for y, f in zip(Yb.T, F.T)])
        return np.asarray(label_aucs(Y, F, w), dtype=np.float64)
    if _listed.is_listed(F):
        average = check_average(average, _AVERAGES_AUC)
        Yc, L, w, per = listed_args(Y, F, sample_weight, per_instance, convention)
        if per and average != "instance":
            raise ValueError(f"per_instance=True needs average='instance', got {average!r}")
        if average == "instance":
            v = _listed.RowRanking(Yc, L).auc()
            return v if per else nanmean(v, w)
        if average == "macro":
            return nanmean(_listed.label_aucs(Yc, L, w))
        return _listed.micro_auc(Yc, L, w)
    Y, F = check_scores(Y, F)
    average = check_average(average, _AVERAGES_AUC)
    w = _lc.check_sample_weight(sample_weight, Y.shape[0])
    if check_convention(convention) == "wu_zhou":
        if w is not None:
            raise ValueError("convention='wu_zhou' takes no sample_weight (the authors' has none)")
        Yb = Y.astype(bool)
        if average == "micro":  # MATLAB's labels(:): column after column
            return _auc_order_1d(Yb.ravel(order="F"), F.ravel(order="F"))
        axis_items = Yb.T if average == "macro" else Yb
        scores = F.T if average == "macro" else F
        vals = np.array([_auc_order_1d(y, f) for y, f in zip(axis_items, scores)])
        if check_flag(per_instance, "per_instance"):
            if average != "instance":
                raise ValueError(f"per_instance=True needs average='instance', got {average!r}")
            return vals
        return nanmean(vals)
    if check_flag(per_instance, "per_instance"):
        if average != "instance":
            raise ValueError(f"per_instance=True needs average='instance', got {average!r}")
        return RowStats(Y, F).auc()
    return auc_average(Y, F, average, w=w)
