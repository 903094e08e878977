"""The classification measures of :mod:`mlcbook.metrics`: functions of 0/1 predictions.

Example-based (Hamming loss, subset accuracy, the instance Jaccard index) and the
precision, recall and F-beta of every average, counted by :mod:`mlcbook._labelcounts`,
with the checks of their arguments that the other measure modules share
(``zero_division``, ``beta``, flags).  Public through :mod:`mlcbook.metrics`, which
documents the conventions.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.sparse as sp

from . import _labelcounts as _lc
from ._validation import (
    check_average,
    check_real,
    check_same_shape,
    check_score_matrix,
)

_AVERAGES_F = ("micro", "macro", "instance")
_divide = _lc.divide


# --------------------------------------------------------------------------- validation
def check_pair(Y: Any, P: Any, name_y: str = "Y", name_p: str = "P"):
    return _lc.check_pair(Y, P, name_y, name_p)


def check_scores(Y: Any, F: Any, name_y: str = "Y", name_f: str = "F"):
    Y = _lc.check_labels(Y, name_y)  # dense int8, one checking pass
    if sp.issparse(Y):
        Y = Y.toarray()
    F = check_score_matrix(F, name_f)
    check_same_shape(Y, F, name_y, name_f)
    return Y, F


class _WarnZero(float):
    """``zero_division="warn"``: the value 0.0, and a warning when it is used."""


def check_zero_division(zero_division: Any) -> float:
    """A real in [0, 1], NaN (leave the undefined value out of the average), or
    ``"warn"`` (0.0 with :class:`~sklearn.exceptions.UndefinedMetricWarning`)."""
    if isinstance(zero_division, str):
        if zero_division == "warn":
            return _WarnZero(0.0)
        raise TypeError(
            f"zero_division must be a number in [0, 1], nan or 'warn', got {zero_division!r}"
        )
    if (
        isinstance(zero_division, (float, np.floating))
        and not isinstance(zero_division, bool)
        and math.isnan(zero_division)
    ):
        return float("nan")
    return check_real(zero_division, "zero_division", low=0.0, high=1.0)


def check_beta(beta: Any) -> float:
    # bounded so that beta**2 and (1 + beta**2) * tp stay finite and informative
    return check_real(beta, "beta", low=0.0, low_inclusive=False, high=1e100)


def check_flag(value: Any, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def finish(v: np.ndarray, w: np.ndarray | None, per_instance: Any):
    """Per-instance values as float64, or their (weighted) mean; NaN values (from
    ``zero_division=nan``) are left out of the mean (NaN if all are)."""
    if per_instance:
        return np.asarray(v, dtype=np.float64)
    return mean_defined(v, w)


def mean_defined(v: np.ndarray, w: np.ndarray | None = None) -> float:
    v = np.asarray(v, dtype=np.float64)
    ok = ~np.isnan(v)
    if ok.all():
        return _lc.weighted_mean(v, w)
    if w is not None:
        ok &= w > 0
    if not ok.any():
        return float("nan")
    return _lc.weighted_mean(v[ok], None if w is None else w[ok])


# --------------------------------------------------------------------------- counting
def label_counts(Y, P, axis: int | None):
    """True positives, true-set sizes and predicted-set sizes along ``axis``."""
    c = _lc.Counts(Y, P)
    return c.tp(axis), c.ny(axis), c.np_(axis)


def _prf(
    Y,
    P,
    which: str,
    beta: float,
    average: str | None,
    zero_division: float,
    w: np.ndarray | None,
    per_instance: bool,
):
    """Precision / recall / F-beta from the counts of one axis (no scikit-learn);
    ``average=None``: the value of every label."""
    if per_instance and average != "instance":
        raise ValueError(f"per_instance=True needs average='instance', got {average!r}")
    axis = {"micro": None, "macro": 0, "instance": 1, None: 0}[average]
    c = _lc.Counts(Y, P, w)
    # the formulas' one home; the arithmetic of scikit-learn (and Hivemall's micro path)
    v = _lc.prf(which, c.tp(axis), c.ny(axis), c.np_(axis), beta, zero_division)
    if axis == 1:
        return finish(v, w, per_instance)
    if average is None:
        return np.asarray(v, dtype=np.float64)
    return mean_defined(v)  # per label (weights are in the counts), or pooled


def _pair_args(Y, P, sample_weight, per_instance):
    Y, P = check_pair(Y, P)
    w = _lc.check_sample_weight(sample_weight, Y.shape[0])
    return Y, P, w, check_flag(per_instance, "per_instance")


# --------------------------------------------------------------------------- example-based
def hamming_loss(
    Y: Any, P: Any, *, sample_weight: Any = None, per_instance: bool = False
) -> float | np.ndarray:
    r"""Hamming loss: the fraction of wrongly predicted (instance, label) pairs.

    .. math:: \mathrm{hloss} = \frac{1}{nK}\sum_{i=1}^n\sum_{j=1}^K [\![p_{ij}\neq y_{ij}]\!]

    Zhang & Zhou (2014), Sec. 2.2.2; Wu & Zhou (2017), Table 1.  Equal to
    :func:`sklearn.metrics.hamming_loss` (tested), computed by one count
    after one validating pass per matrix.  Park & Read's *Hamming similarity*
    (their Eq. 1) is ``1 - hamming_loss``.

    Parameters
    ----------
    Y, P : array-like or sparse matrix of shape (n_samples, n_labels)
        True and predicted 0/1 labels.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative instance weights: the result is the weighted mean of the
        per-instance losses, as in scikit-learn.
    per_instance : bool, default False
        Return the loss of every instance (shape ``(n_samples,)``) instead.

    Returns
    -------
    float in [0, 1], or ndarray of shape (n_samples,)
    """
    Y, P, w, per = _pair_args(Y, P, sample_weight, per_instance)
    c = _lc.Counts(Y, P, w)
    K = Y.shape[1]
    if per or w is not None:
        return finish(c.err(1) / K, w, per)
    return c.err(None) / (Y.shape[0] * K)


def _exact(Y, P) -> np.ndarray:
    """Per instance: 1.0 if the predicted set equals the true set."""
    return (_lc.Counts(Y, P).err(1) == 0).astype(np.float64)


def subset_accuracy(
    Y: Any, P: Any, *, sample_weight: Any = None, per_instance: bool = False
) -> float | np.ndarray:
    r"""Subset accuracy (exact match): the fraction of instances whose predicted
    label set equals the true one.

    .. math:: \mathrm{subsetacc} = \frac1n\sum_i [\![\mathbf p_i = \mathbf y_i]\!]

    Zhang & Zhou (2014), Sec. 2.2.2; Park & Read's *Exact* (Eq. 2).  Equal to
    :func:`sklearn.metrics.accuracy_score` on label matrices (tested).

    Parameters
    ----------
    Y, P : array-like or sparse matrix of shape (n_samples, n_labels)
    sample_weight : array-like of shape (n_samples,), optional
    per_instance : bool, default False
        Return 1.0 / 0.0 for every instance instead of the mean.

    Returns
    -------
    float in [0, 1], or ndarray of shape (n_samples,)
    """
    Y, P, w, per = _pair_args(Y, P, sample_weight, per_instance)
    return finish(_exact(Y, P), w, per)


def subset_zero_one_loss(
    Y: Any, P: Any, *, sample_weight: Any = None, per_instance: bool = False
) -> float | np.ndarray:
    """Subset 0/1 loss: ``1 - subset_accuracy(Y, P)``.

    Equal to :func:`sklearn.metrics.zero_one_loss` on label matrices (tested).

    Parameters
    ----------
    Y, P : array-like or sparse matrix of shape (n_samples, n_labels)
    sample_weight : array-like of shape (n_samples,), optional
    per_instance : bool, default False
        Return 0.0 / 1.0 for every instance instead of the mean.

    Returns
    -------
    float in [0, 1], or ndarray of shape (n_samples,)
    """
    Y, P, w, per = _pair_args(Y, P, sample_weight, per_instance)
    if per:
        return 1.0 - _exact(Y, P)
    return 1.0 - _lc.weighted_mean(_exact(Y, P), w)


def instance_jaccard(
    Y: Any,
    P: Any,
    *,
    zero_division: float = 1.0,
    sample_weight: Any = None,
    per_instance: bool = False,
) -> float | np.ndarray:
    r"""Example-based accuracy (Jaccard index), averaged over instances.

    .. math:: \mathrm{Accuracy}_{exam} = \frac1n\sum_i
              \frac{|\mathbf y_i\wedge\mathbf p_i|}{|\mathbf y_i\vee\mathbf p_i|}

    Zhang & Zhou (2014), Sec. 2.2.2 (*Accuracy_exam*); Park & Read (2018),
    Eq. 3.  Equal to ``sklearn.metrics.jaccard_score(Y, P, average='samples',
    zero_division=zero_division)`` (tested).

    Parameters
    ----------
    Y, P : array-like or sparse matrix of shape (n_samples, n_labels)
    zero_division : float in [0, 1], default 1.0
        Value for an instance with neither true nor predicted labels.  The
        default 1.0 is Park & Read's convention ("1 if TN = L"); scikit-learn's
        default gives 0.0 and warns.
    sample_weight : array-like of shape (n_samples,), optional
    per_instance : bool, default False
        Return the index of every instance instead of the mean.

    Returns
    -------
    float in [0, 1], or ndarray of shape (n_samples,)
    """
    Y, P, w, per = _pair_args(Y, P, sample_weight, per_instance)
    zd = check_zero_division(zero_division)
    c = _lc.Counts(Y, P)
    tp = c.tp(1)
    return finish(_divide(tp, tp + c.err(1), zd), w, per)


def precision(
    Y: Any,
    P: Any,
    *,
    average: str | None = "micro",
    zero_division: float = 1.0,
    sample_weight: Any = None,
    per_instance: bool = False,
) -> float | np.ndarray:
    r"""Precision, micro-, macro- (per label) or instance-averaged.

    ``average='instance'`` is Zhang & Zhou's example-based precision
    :math:`\frac1n\sum_i |\mathbf y_i\wedge\mathbf p_i|/|\mathbf p_i|`;
    ``'macro'`` averages the per-label precisions; ``'micro'`` pools the counts
    of the whole matrix.  Equal to :func:`sklearn.metrics.precision_score` with
    ``average`` = ``'micro'``/``'macro'``/``'samples'`` (tested, also with
    ``sample_weight``), computed here from counts.

    Parameters
    ----------
    Y, P : array-like or sparse matrix of shape (n_samples, n_labels)
    average : {'micro', 'macro', 'instance'} or None
        None: the value of every label, an array of shape (n_labels,) (scikit-learn's
        ``average=None``).
    zero_division : float in [0, 1], default 1.0
        Value when nothing is predicted (for an instance, a label, or at all).
    sample_weight : array-like of shape (n_samples,), optional
        Instance weights: they weight the counts (micro, macro) or the mean
        over instances (instance), as in scikit-learn.
    per_instance : bool, default False
        With ``average='instance'``: the precision of every instance.

    Returns
    -------
    float in [0, 1], or ndarray of shape (n_samples,)
    """
    Y, P, w, per = _pair_args(Y, P, sample_weight, per_instance)
    average = None if average is None else check_average(average, _AVERAGES_F)
    zd = check_zero_division(zero_division)
    return _prf(Y, P, "precision", 1.0, average, zd, w, per)


def recall(
    Y: Any,
    P: Any,
    *,
    average: str | None = "micro",
    zero_division: float = 1.0,
    sample_weight: Any = None,
    per_instance: bool = False,
) -> float | np.ndarray:
    r"""Recall, micro-, macro- (per label) or instance-averaged.

    ``average='instance'`` is Zhang & Zhou's example-based recall
    :math:`\frac1n\sum_i |\mathbf y_i\wedge\mathbf p_i|/|\mathbf y_i|`.
    Equal to :func:`sklearn.metrics.recall_score` (``'instance'`` is
    scikit-learn's ``'samples'``; tested).

    Parameters
    ----------
    Y, P : array-like or sparse matrix of shape (n_samples, n_labels)
    average : {'micro', 'macro', 'instance'} or None
        None: the value of every label, an array of shape (n_labels,) (scikit-learn's
        ``average=None``).
    zero_division : float in [0, 1], default 1.0
        Value when there is no true label (for an instance, a label, or at all).
    sample_weight : array-like of shape (n_samples,), optional
    per_instance : bool, default False
        With ``average='instance'``: the recall of every instance.

    Returns
    -------
    float in [0, 1], or ndarray of shape (n_samples,)
    """
    Y, P, w, per = _pair_args(Y, P, sample_weight, per_instance)
    average = None if average is None else check_average(average, _AVERAGES_F)
    zd = check_zero_division(zero_division)
    return _prf(Y, P, "recall", 1.0, average, zd, w, per)


def f_measure(
    Y: Any,
    P: Any,
    beta: float = 1.0,
    average: str | None = "micro",
    *,
    zero_division: float = 1.0,
    sample_weight: Any = None,
    per_instance: bool = False,
) -> float | np.ndarray:
    r"""F-beta measure, micro-, macro- (per label) or instance-averaged.

    For counts :math:`tp`, :math:`|\mathbf y|` (true) and :math:`|\mathbf p|`
    (predicted) pooled over the matrix (micro), per label (macro, then the mean
    over labels) or per instance (instance, then the mean over instances):

    .. math:: F_\beta = \frac{(1+\beta^2)\,tp}{\beta^2|\mathbf y| + |\mathbf p|}

    With ``beta=1`` these are Wu & Zhou's micro-F1, macro-F1 and instance-F1
    (Table 1).  Equal to :func:`sklearn.metrics.fbeta_score` with ``average``
    ``'micro'``/``'macro'``/``'samples'`` (tested).  Micro F-beta is also what
    Hivemall computes on label sets (:func:`f_measure_label_sets`).

    Note that the instance average (mean of per-instance F) is *not* Zhang &
    Zhou's :math:`F^\beta_{exam}`, which is the weighted harmonic mean of the
    *averaged* precision and recall: see :func:`example_based_f_measure`.

    Parameters
    ----------
    Y, P : array-like or sparse matrix of shape (n_samples, n_labels)
    beta : float > 0, default 1
        Weight of recall: recall counts ``beta`` times as much as precision.
    average : {'micro', 'macro', 'instance'} or None
        None: the value of every label, an array of shape (n_labels,) (scikit-learn's
        ``average=None``).
    zero_division : float in [0, 1], default 1.0
        Value when there is neither a true nor a predicted label (in the
        instance, the label, or the matrix).
    sample_weight : array-like of shape (n_samples,), optional
    per_instance : bool, default False
        With ``average='instance'``: the F-beta of every instance.

    Returns
    -------
    float in [0, 1], or ndarray of shape (n_samples,)
    """
    Y, P, w, per = _pair_args(Y, P, sample_weight, per_instance)
    b = check_beta(beta)
    average = None if average is None else check_average(average, _AVERAGES_F)
    zd = check_zero_division(zero_division)
    return _prf(Y, P, "f", b, average, zd, w, per)


def example_based_f_measure(
    Y: Any,
    P: Any,
    beta: float = 1.0,
    *,
    zero_division: float = 1.0,
    sample_weight: Any = None,
) -> float:
    r"""Zhang & Zhou's example-based :math:`F^\beta_{exam}`.

    .. math:: F^\beta_{exam} = \frac{(1+\beta^2)\,\mathrm{Precision}_{exam}\,
              \mathrm{Recall}_{exam}}{\beta^2\,\mathrm{Precision}_{exam} +
              \mathrm{Recall}_{exam}}

    where the precision and recall are first averaged over instances
    (Zhang & Zhou 2014, Sec. 2.2.2).  This is the F of the averages, which in
    general differs from the average of per-instance F-values
    (``f_measure(..., average='instance')``, scikit-learn's ``'samples'``,
    Wu & Zhou's instance-F1).  scikit-learn has no equivalent.  Being a
    function of two averages it has no per-instance values.

    Parameters
    ----------
    Y, P : array-like or sparse matrix of shape (n_samples, n_labels)
    beta : float > 0, default 1
    zero_division : float in [0, 1], default 1.0
        Per-instance precision (recall) of an instance with no predicted (true)
        label.  It is not the result when both averages are 0: the weighted
        harmonic mean of 0 and 0 is 0 (its limit, Zhang & Zhou's formula,
        ``scipy.stats.hmean([0, 0])``), so a completely wrong prediction scores
        0 whatever ``zero_division`` is.
    sample_weight : array-like of shape (n_samples,), optional
        Weights of the two averages over instances.

    Returns
    -------
    float in [0, 1]
    """
    Y, P, w, _ = _pair_args(Y, P, sample_weight, False)
    b = check_beta(beta)
    zd = check_zero_division(zero_division)
    c = _lc.Counts(Y, P)
    tp = c.tp(1)
    prec = mean_defined(_divide(tp, c.np_(1), zd), w)
    rec = mean_defined(_divide(tp, c.ny(1), zd), w)
    # NaN if either average is (zero_division=nan and no defined row); 0 if both are 0
    return float(_lc.f_of_averages(prec, rec, b))
