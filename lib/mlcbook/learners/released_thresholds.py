"""The thresholds of Wu & Zhou's released LIMO experiment (``demo.m``), step for step.

The authors' MATLAB code (github.com/YuriWu/LIMO, commit 4135cf5) turns LIMO's scores
into 0/1 predictions in three ways, one per group of measures of their Table B.3:

* Hamming loss (and the ranking measures, which ignore it): a per-instance threshold
  :math:`t(x)` -- for each training instance the cut of its row of scores with the
  fewest errors (``best_hloss_threshold.m``), then an epsilon-SVR from the features to
  that cut (``limo_row_threshold.m``: LIBSVM ``-s 3 -t 2 -c 1``, so an RBF kernel with
  LIBSVM's default :math:`\\gamma = 1/d`, :math:`\\epsilon = 0.1`); a label is
  predicted when :math:`f_j(x) - t(x) > 0` (``limo_predict.m``, ``'row_svm'``);
* macro-F1: per label the cut of its training column with the largest F1
  (``best_f1_threshold.m`` via ``limo_column_threshold.m``, ``'macro-F1'``);
* micro-F1 and instance-F1: one cut for the whole training matrix, the largest F1 of
  the matrix flattened column by column (``'micro-F1'``);

and for the last two a label is predicted when :math:`f_j(x) \\ge t_j` (``'column'``).

These are not :mod:`mlcbook.learners.thresholds` (our cleaned-up reading): the cuts
here keep the code's own rules, which this module reproduces exactly and the tests
compare with the MATLAB functions run by GNU Octave:

* scores are sorted ascending and stably (``sortrows``); the search starts from
  "predict everything" with the cut ``1e-5`` below the lowest score and moves up;
* the Hamming cut is tried only just above a *negative* (after the error count
  improved), is skipped when the two neighbouring scores differ by at most ``1e-8``,
  and is kept when strictly better: the lowest best cut wins, and "predict nothing"
  is never a candidate;
* the F1 cut is tried just below each positive, ties or not (a cut between equal
  scores equals them, and ``>=`` then predicts both), kept when strictly better; a
  column without positives gets ``1e-5`` above its highest score; F1 is computed as
  :math:`2PR/(P+R)` with 0 when nothing is predicted or relevant, as their
  ``compute_f1``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.base import clone
from sklearn.svm import SVR

from .._validation import check_label_matrix, check_same_shape, check_score_matrix

__all__ = [
    "best_f1_cut",
    "best_hamming_cut",
    "column_cuts",
    "predict_column",
    "predict_row",
    "row_cuts",
    "RowThresholdSVR",
]

_START = 1e-5  # distance of the first cut below (or a no-positive cut above) the scores
_TIE = 1e-8  # best_hloss_threshold.m: neighbouring scores closer than this are one score


def _sorted(value, truth) -> tuple[list[float], list[bool]]:
    value = np.asarray(value, dtype=np.float64).ravel()
    truth = np.asarray(truth).ravel()
    if value.shape != truth.shape or value.size == 0:
        raise ValueError(
            f"value and truth must be non-empty and of one length, got {value.shape} and "
            f"{truth.shape}"
        )
    order = np.argsort(value, kind="stable")  # sortrows(block, 1) keeps ties in order
    return value[order].tolist(), (truth[order] == 1).tolist()


def best_hamming_cut(value, truth) -> tuple[float, float]:
    """``best_hloss_threshold.m``: the cut of one score vector with the fewest errors.

    Parameters
    ----------
    value : array-like of shape (n,)
        Scores (one instance's row, or one label's column).
    truth : array-like of shape (n,)
        Labels, 1 relevant; anything else (0 or -1) irrelevant.

    Returns
    -------
    threshold : float
    hamming : float
        The fraction of errors the search believes the cut makes.

    Examples
    --------
    >>> best_hamming_cut([0.1, 0.4, 0.35, 0.8], [0, 1, 0, 1])
    (0.375, 0.0)
    >>> best_hamming_cut([0.3, 0.2], [0, 0])  # "predict nothing" is never a candidate
    (0.25, 0.5)
    """
    v, g = _sorted(value, truth)
    n = len(v)
    fp, fn = n - sum(g), 0
    best = (fp + fn) / n
    threshold = v[0] - _START
    for i in range(1, n):
        if g[i - 1]:
            fn += 1
        else:
            fp -= 1
            current = (fp + fn) / n
            if v[i] - v[i - 1] <= _TIE:
                continue
            if current < best:
                best = current
                threshold = (v[i] + v[i - 1]) / 2
    return threshold, best


def _f1(tp: int, fp: int, fn: int) -> float:
    """``compute_f1`` of ``best_f1_threshold.m``, operation for operation."""
    if tp + fp == 0 or tp + fn == 0:
        return 0.0
    precision = tp / (tp + fp)
    recall = tp / (tp + fn)
    if precision + recall == 0:
        return 0.0
    return 2 * precision * recall / (precision + recall)


def best_f1_cut(value, truth) -> tuple[float, float]:
    """``best_f1_threshold.m``: the cut of one score vector with the largest F1.

    Predictions are ``value >= threshold`` (``limo_predict.m``).

    Returns
    -------
    threshold : float
    f1 : float
        The F1 the search believes the cut reaches.

    Examples
    --------
    >>> best_f1_cut([0.1, 0.4, 0.35, 0.8], [0, 1, 0, 1])
    (0.375, 1.0)
    >>> best_f1_cut([0.3, 0.2], [0, 0])  # no positive: a cut above every score
    (0.30001, 0.0)
    """
    v, g = _sorted(value, truth)
    n = len(v)
    tp = sum(g)
    fp, fn = n - tp, 0
    best = _f1(tp, fp, fn)
    threshold = v[0] - _START
    last = -1  # 0-based position of the previous positive
    for idx in (k for k in range(n) if g[k]):
        fp -= idx - last - 1
        current = _f1(tp, fp, fn)
        if current > best:  # never true at idx = 0: nothing has changed yet
            best = current
            threshold = (v[idx] + v[idx - 1]) / 2
        last = idx
        tp -= 1
        fn += 1
    if not any(g):  # no positive at all
        threshold = v[-1] + _START
    return threshold, best


def _check(F, Y) -> tuple[np.ndarray, np.ndarray]:
    F = check_score_matrix(F, "F")
    Y = check_label_matrix(Y, "Y", allow_sparse=False)
    check_same_shape(F, Y, "F", "Y")
    return F, Y


_COLUMN = ("macro-F1", "micro-F1", "hloss")


def column_cuts(F, Y, metric: str = "macro-F1") -> np.ndarray:
    """``limo_column_threshold.m``: one cut per label.

    Parameters
    ----------
    F, Y : array-like of shape (n_samples, n_labels)
        Training scores and labels.
    metric : {'macro-F1', 'micro-F1', 'hloss'}
        Each column's best F1 cut; one best F1 cut of the matrix flattened column by
        column (MATLAB's ``value(:)``) repeated for every label; each column's best
        Hamming cut.

    Returns
    -------
    ndarray of shape (n_labels,)

    Examples
    --------
    >>> column_cuts([[0.2, 0.9], [0.6, 0.1]], [[0, 1], [1, 0]]).tolist()
    [0.4, 0.5]
    """
    F, Y = _check(F, Y)
    if metric not in _COLUMN:
        raise ValueError(f"metric must be one of {_COLUMN}, got {metric!r}")
    if metric == "micro-F1":
        t = best_f1_cut(F.ravel(order="F"), Y.ravel(order="F"))[0]
        return np.full(F.shape[1], t)
    cut = best_f1_cut if metric == "macro-F1" else best_hamming_cut
    return np.array([cut(F[:, j], Y[:, j])[0] for j in range(F.shape[1])])


_ROW = ("hloss", "example-F1")


def row_cuts(F, Y, metric: str = "hloss") -> np.ndarray:
    """The per-instance targets of ``limo_row_threshold.m``: each row's best cut.

    ``metric='hloss'`` (what ``demo.m`` uses) or ``'example-F1'``.

    Returns
    -------
    ndarray of shape (n_samples,)
    """
    F, Y = _check(F, Y)
    if metric not in _ROW:
        raise ValueError(f"metric must be one of {_ROW}, got {metric!r}")
    cut = best_hamming_cut if metric == "hloss" else best_f1_cut
    return np.array([cut(F[i], Y[i])[0] for i in range(F.shape[0])])


def predict_column(F, thresholds) -> np.ndarray:
    """``limo_predict.m``, ``'column'``: ``F[i, j] >= t_j`` as 0/1."""
    F = check_score_matrix(F, "F")
    t = np.asarray(thresholds, dtype=np.float64).ravel()
    if t.shape != (F.shape[1],):
        raise ValueError(f"thresholds must have one entry per label ({F.shape[1]}), got {t.shape}")
    return (F >= t[None, :]).astype(np.int8)


def predict_row(F, t) -> np.ndarray:
    """``limo_predict.m``, ``'row_svm'``: ``F[i, j] - t_i > 0`` as 0/1."""
    F = check_score_matrix(F, "F")
    t = np.asarray(t, dtype=np.float64).ravel()
    if t.shape != (F.shape[0],):
        raise ValueError(f"t must have one entry per instance ({F.shape[0]}), got {t.shape}")
    return (F - t[:, None] > 0).astype(np.int8)


class RowThresholdSVR:
    """``limo_row_threshold.m`` + ``limo_predict.m`` (``'row_svm'``): :math:`t(x)` by SVR.

    Parameters
    ----------
    metric : {'hloss', 'example-F1'}
        The per-instance cut the regressor learns (:func:`row_cuts`).
    regressor : scikit-learn regressor, optional
        Default ``SVR(kernel='rbf', C=1, gamma='auto', epsilon=0.1)``: LIBSVM's
        ``-s 3 -t 2 -c 1`` with its defaults :math:`\\gamma = 1/d`, ``-p 0.1``,
        ``-e 0.001`` (scikit-learn's SVR is LIBSVM).

    Attributes
    ----------
    targets_ : ndarray of shape (n_samples,)
        The training instances' cuts.
    regressor_ : fitted regressor
    """

    def __init__(self, metric: str = "hloss", regressor: Any = None):
        self.metric = metric
        self.regressor = regressor

    def fit(self, F, Y, X) -> RowThresholdSVR:
        """Learn :math:`t(x)` from the training scores ``F``, labels ``Y``, features ``X``."""
        self.targets_ = row_cuts(F, Y, self.metric)
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or X.shape[0] != self.targets_.shape[0]:
            raise ValueError(
                f"X must be 2-D with one row per row of F ({self.targets_.shape[0]}), "
                f"got shape {X.shape}"
            )
        reg = (
            SVR(kernel="rbf", C=1.0, gamma="auto", epsilon=0.1, tol=1e-3)
            if self.regressor is None
            else self.regressor
        )
        self.regressor_ = clone(reg).fit(X, self.targets_)
        return self

    def thresholds(self, X) -> np.ndarray:
        """:math:`t(x)` of each row of ``X``."""
        return np.asarray(self.regressor_.predict(np.asarray(X, dtype=np.float64)), dtype=float)

    def predict(self, F, X) -> np.ndarray:
        """0/1 predictions ``F[i, j] - t(x_i) > 0``."""
        return predict_row(F, self.thresholds(X))
