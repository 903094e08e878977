"""ML-kNN, the multi-label k-nearest-neighbour learner of Zhang & Zhou (2007).

For each label :math:`j` and a test instance whose :math:`k` nearest training
neighbours hold label :math:`j` :math:`C_j` times, ML-kNN predicts

.. math::
   y_j = \\arg\\max_{b \\in \\{0,1\\}} P(H_j^b)\\, P(E_j^{C_j} \\mid H_j^b),
   \\qquad r_j = P(H_j^1 \\mid E_j^{C_j}),

with the smoothed estimates (smoothing :math:`s`, :math:`m` training instances)
:math:`P(H_j^1) = (s + \\sum_i y_{ij}) / (2s + m)` and
:math:`P(E_j^c \\mid H_j^1) = (s + \\kappa_j[c]) / (s(k+1) + \\sum_{c'} \\kappa_j[c'])`,
where :math:`\\kappa_j[c]` counts the training instances *with* label :math:`j` whose
own :math:`k` neighbours (itself excluded) hold label :math:`j` exactly :math:`c`
times (:math:`\\tilde\\kappa_j` likewise for those without it).  Neighbours by
Euclidean distance, dense or sparse input, with the library's one neighbour policy
(:func:`mlcbook.learners._neighbors.nearest_neighbors`: machine-independent distances,
equal distances broken by training index); ties of the MAP rule predict 0.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from .._validation import check_label_matrix, check_positive_int, check_real
from ._contract import MultiLabelMixin
from ._neighbors import as_float, is_integer_valued, nearest_neighbors

__all__ = ["MLkNN"]


class MLkNN(MultiLabelMixin, ClassifierMixin, BaseEstimator):
    """ML-kNN (Zhang & Zhou 2007).

    Parameters
    ----------
    k : int
        Number of neighbours (10 in Wu & Zhou 2017 and in the original paper).
    s : float
        Laplace smoothing (1 in the original paper).

    Attributes
    ----------
    prior_ : ndarray of shape (n_labels,)
        :math:`P(H_j^1)`.
    cond_pos_, cond_neg_ : ndarray of shape (n_labels, k + 1)
        :math:`P(E_j^c \\mid H_j^1)` and :math:`P(E_j^c \\mid H_j^0)`.
    classes_ : list of ndarray
        ``[0, 1]`` for every label (scikit-learn's multi-label convention).
    n_features_in_ : int
    """

    _accept_sparse = "csr"
    _fitted_attr = "X_fit_"

    def __init__(self, k: int = 10, s: float = 1.0):
        self.k = k
        self.s = s

    def fit(self, X, Y) -> MLkNN:
        k = check_positive_int(self.k, "k")
        s = check_real(self.s, "s", low=0.0)
        X, Y = self._fit_input(X, Y)
        Y = check_label_matrix(Y, "Y", allow_sparse=False).astype(np.int64)
        m, l = Y.shape
        if k >= m:
            raise ValueError(
                f"k={k} must be smaller than the number of training instances, n_samples={m}"
            )
        X = as_float(X)
        self.X_fit_, self.exact_ = X, is_integer_valued(X)
        self.Y_ = Y
        neigh = nearest_neighbors(X, None, k, exact=self.exact_)  # each point leaves itself out
        C = Y[neigh].sum(axis=1)  # (m, l) in 0..k
        self.prior_ = (s + Y.sum(axis=0)) / (2 * s + m)
        cols = np.broadcast_to(np.arange(l), C.shape)
        kappa = np.zeros((l, k + 1))
        kappa_n = np.zeros((l, k + 1))
        np.add.at(kappa, (cols[Y == 1], C[Y == 1]), 1)
        np.add.at(kappa_n, (cols[Y == 0], C[Y == 0]), 1)
        self.cond_pos_ = (s + kappa) / (s * (k + 1) + kappa.sum(axis=1, keepdims=True))
        self.cond_neg_ = (s + kappa_n) / (s * (k + 1) + kappa_n.sum(axis=1, keepdims=True))
        return self

    def kneighbors(self, X) -> np.ndarray:
        """Indices of the neighbours of each row of ``X``, nearest first (ties by index)."""
        X = as_float(self._predict_input(X))
        k = self.cond_pos_.shape[1] - 1
        return nearest_neighbors(self.X_fit_, X, k, exact=self.exact_ and is_integer_valued(X))

    def _joint(self, X):
        neigh = self.kneighbors(X)
        C = self.Y_[neigh].sum(axis=1)
        cols = np.arange(self.Y_.shape[1])[None, :]
        p1 = self.prior_[None, :] * self.cond_pos_[cols, C]
        p0 = (1 - self.prior_)[None, :] * self.cond_neg_[cols, C]
        return p1, p0

    def predict_proba(self, X) -> np.ndarray:
        """Posterior :math:`P(H_j^1 \\mid E)` for every label, the ranking scores."""
        p1, p0 = self._joint(X)
        return p1 / (p1 + p0)

    decision_function = predict_proba

    def predict(self, X) -> np.ndarray:
        """MAP labels: 1 where :math:`P(H^1)P(E|H^1) > P(H^0)P(E|H^0)`."""
        p1, p0 = self._joint(X)
        return (p1 > p0).astype(np.int8)
