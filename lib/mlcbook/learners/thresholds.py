"""Thresholding a score matrix into 0/1 predictions (Wu & Zhou 2017, Sec. 3.2).

Two families of threshold functions turn scores ``F`` into labels ``H``:

* per label, :math:`h_j(x) = [\\![ f_j(x) > t_j ]\\!]` (:func:`column_thresholds`,
  :class:`LabelThreshold`) -- the suitable choice for an instance-wise effective
  predictor, whose scores are comparable down a column;
* per instance, :math:`h_j(x) = [\\![ f_j(x) > t(x) ]\\!]` (:class:`InstanceThreshold`)
  -- the suitable choice for a label-wise effective predictor, whose scores are
  comparable along a row.

Both are *chosen on training data to optimise a classification measure*, which is
all the paper says (end of Sec. 4.2).  What we do, following the authors' released
MATLAB code (github.com/YuriWu/LIMO, ``best_f1_threshold.m``,
``best_hloss_threshold.m``, ``limo_row_threshold.m``, ``limo_column_threshold.m``):

* ``t_j``: for each label, the cut of the sorted training scores of that column that
  maximises the column's F1 (hence macro-F1 on the training set) or minimises its
  number of errors (Hamming loss); ``shared=True`` chooses one threshold for the
  whole matrix (maximising micro-F1 or minimising Hamming loss overall).
* ``t(x)``: for each *training* instance, the cut of its row that maximises its F1
  (instance-F1) or minimises its errors; a regressor from ``x`` to that target
  threshold then predicts ``t(x)`` for new instances -- the classic construction of
  Elisseeff & Weston (2002).  The authors regress with an RBF support-vector
  regressor (LIBSVM ``-s 3 -t 2 -c 1``), our default; any scikit-learn regressor can
  be passed.

The cut is placed half-way between two consecutive distinct scores; a cut above
every score (predict nothing) or below every score (predict everything) is placed
``1e-6`` beyond the extreme score.  Ties are never split.  With F1, an empty truth
and an empty prediction score 1 (nothing to find, nothing claimed).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.svm import SVR

from .._validation import (
    check_average,
    check_bool,
    check_label_matrix,
    check_same_shape,
    check_score_matrix,
)
from ._contract import MultiLabelMixin

__all__ = ["column_thresholds", "row_thresholds", "LabelThreshold", "InstanceThreshold"]

_MEASURES = ("f1", "hamming")
_EPS = 1e-6


def _best_cuts(F: np.ndarray, Y: np.ndarray, measure: str) -> np.ndarray:
    """Best threshold of every column of ``F`` (vectorised over columns)."""
    n, l = F.shape
    order = np.argsort(-F, axis=0, kind="stable")
    s = np.take_along_axis(F, order, axis=0)  # descending per column
    y = np.take_along_axis(Y, order, axis=0).astype(np.int64)
    npos = y.sum(axis=0)  # (l,)
    k = np.arange(n + 1)[:, None]  # number predicted positive: 0..n
    tp = np.vstack([np.zeros((1, l), dtype=np.int64), np.cumsum(y, axis=0)])
    fp = k - tp
    fn = npos[None, :] - tp
    if measure == "f1":
        denom = npos[None, :] + k
        with np.errstate(invalid="ignore", divide="ignore"):
            value = np.where(denom > 0, 2.0 * tp / np.maximum(denom, 1), 1.0)
    else:
        value = -(fp + fn).astype(float)
    # a cut after position k (1..n-1) is only valid between two distinct scores
    valid = np.ones((n + 1, l), dtype=bool)
    valid[1:n] = s[:-1] > s[1:]
    value = np.where(valid, value, -np.inf)
    best = np.argmax(value, axis=0)  # first best: the smallest number of positives
    cols = np.arange(l)
    upper = s[np.clip(best - 1, 0, n - 1), cols]
    lower = s[np.clip(best, 0, n - 1), cols]
    t = 0.5 * (upper + lower)
    t = np.where(best == 0, s[0, cols] + _EPS, t)
    t = np.where(best == n, s[n - 1, cols] - _EPS, t)
    return t


def _check(F, Y, measure):
    F = check_score_matrix(F, "F")
    Y = check_label_matrix(Y, "Y", allow_sparse=False)
    check_same_shape(F, Y, "F", "Y")
    measure = check_average(measure, _MEASURES, "measure")
    return F, Y, measure


def column_thresholds(F, Y, measure: str = "f1", *, shared: bool = False) -> np.ndarray:
    """Per-label thresholds :math:`t_j` optimising ``measure`` on ``(F, Y)``.

    Parameters
    ----------
    F : array-like of shape (n_samples, n_labels)
        Training scores.
    Y : array-like of shape (n_samples, n_labels)
        Training labels.
    measure : {'f1', 'hamming'}
        Maximise each column's F1 (macro-F1) or minimise its errors (Hamming loss).
    shared : bool
        One threshold for all labels, optimising micro-F1 (or the overall Hamming
        loss) on the flattened matrix -- what the authors' code uses for micro- and
        instance-F1.

    Returns
    -------
    ndarray of shape (n_labels,)
    """
    shared = check_bool(shared, "shared")
    F, Y, measure = _check(F, Y, measure)
    if shared:
        t = _best_cuts(F.reshape(-1, 1), Y.reshape(-1, 1), measure)[0]
        return np.full(F.shape[1], t)
    return _best_cuts(F, Y, measure)


def row_thresholds(F, Y, measure: str = "f1") -> np.ndarray:
    """Per-instance target thresholds optimising ``measure`` on each row of ``(F, Y)``.

    The training targets of :class:`InstanceThreshold`: instance-F1 (``'f1'``) or the
    instance's number of errors (``'hamming'``).

    Returns
    -------
    ndarray of shape (n_samples,)
    """
    F, Y, measure = _check(F, Y, measure)
    return _best_cuts(F.T.copy(), Y.T.copy(), measure)


class LabelThreshold(MultiLabelMixin, BaseEstimator):
    """Per-label thresholds ``t_j`` chosen on training scores.

    Its "features" are the scores: ``fit(F, Y)`` needs ``F`` of ``Y``'s shape,
    so ``n_features_in_`` is the number of labels.

    Parameters
    ----------
    measure : {'f1', 'hamming'}
    shared : bool
        One threshold for all labels (see :func:`column_thresholds`).

    Attributes
    ----------
    thresholds_ : ndarray of shape (n_labels,)
    n_features_in_ : int
        The number of labels (columns of ``F``).
    """

    _x_dtype = np.float64
    _fitted_attr = "thresholds_"

    def __init__(self, measure: str = "f1", shared: bool = False):
        self.measure = measure
        self.shared = shared

    def fit(self, F, Y) -> LabelThreshold:
        """Choose the thresholds on scores ``F`` and labels ``Y`` of one shape."""
        if not isinstance(self.shared, (bool, np.bool_)):
            raise TypeError(f"shared must be True or False, got {self.shared!r}")
        F, Y = self._fit_input(F, Y)
        self.thresholds_ = column_thresholds(F, Y, self.measure, shared=self.shared)
        return self

    def predict(self, F, X: Any = None) -> np.ndarray:
        """0/1 predictions ``[F[:, j] > t_j]`` (``X`` is ignored)."""
        F = self._predict_input(F)
        F = check_score_matrix(F, "F")
        return (F > self.thresholds_[None, :]).astype(np.int8)


class InstanceThreshold(MultiLabelMixin, BaseEstimator):
    """Per-instance threshold function ``t(x)`` learned by regression.

    ``fit(F, Y, X)`` and ``predict(F, X)`` take the scores *and* the features,
    so scikit-learn's ``fit(X, y)`` protocol does not apply as such (see
    ``tests/mlcbook/test_estimator_checks.py``); ``n_features_in_`` counts the
    features of ``X``.

    Parameters
    ----------
    measure : {'f1', 'hamming'}
        What the per-instance training thresholds optimise (see :func:`row_thresholds`).
    regressor : scikit-learn regressor, optional
        Maps ``x`` to its threshold; default ``SVR(kernel='rbf', C=1, gamma='auto')``,
        the LIBSVM defaults the authors use.

    Attributes
    ----------
    regressor_ : fitted regressor
    train_thresholds_ : ndarray of shape (n_samples,)
    n_features_in_ : int
        Features of ``X``.
    """

    _accept_sparse = ("csr", "csc")
    _fitted_attr = "regressor_"

    def __init__(self, measure: str = "f1", regressor: Any = None):
        self.measure = measure
        self.regressor = regressor

    def fit(self, F, Y, X) -> InstanceThreshold:
        """Learn ``t(x)`` from the best cut of each row of ``(F, Y)``, and ``X``."""
        X, Y = self._fit_input(X, Y)
        t = row_thresholds(F, Y, self.measure)
        reg = SVR(kernel="rbf", C=1.0, gamma="auto") if self.regressor is None else self.regressor
        self.regressor_ = clone(reg).fit(X, t)
        self.train_thresholds_ = t
        return self

    def predict(self, F, X) -> np.ndarray:
        """0/1 predictions ``[F[i, j] > t(x_i)]``."""
        X = self._predict_input(X)
        F = check_score_matrix(F, "F")
        if X.shape[0] != F.shape[0]:
            raise ValueError(
                f"X and F must have the same number of rows, got {X.shape[0]} and {F.shape[0]}"
            )
        t = np.asarray(self.regressor_.predict(X), dtype=float)
        return (F > t[:, None]).astype(np.int8)
