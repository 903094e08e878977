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

The smoothing must be positive.  With :math:`s = 0` the estimates are the unsmoothed
frequencies, which are 0/0 for a label that no training instance has (or that every
one has) and for a neighbour count a class never showed, so the posterior would be
undefined (NaN) exactly where the smoothing is needed; any :math:`s > 0` defines
every estimate, and a small :math:`s` approaches the unsmoothed rule wherever that
is defined.  For a tiny :math:`s` the products :math:`P(H)P(E \\mid H)` can fall
below the smallest normal double; those entries are computed from the logarithms of
the factors instead.  A product is at least :math:`s^2 / ((2s + m)(s(k+1) + m))`, so
this never happens for :math:`s \\ge 10^{-140}` on up to :math:`10^7` training
instances, where the products are the paper's formula evaluated as written.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit
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
        Laplace smoothing, > 0 (1 in the original paper; 0, the unsmoothed
        frequencies, is refused: see the module docstring).

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
        if s == 0.0:
            raise ValueError(
                "s must be > 0, got 0: without smoothing the estimates are 0/0 for a "
                "label that no training instance has (or every one has), and the "
                "posterior is undefined; a small s such as 1e-6 approaches that rule"
            )
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
        # the same estimates as logarithms of their factors: finite for every s > 0,
        # used where a product underflows (see the module docstring)
        n_pos = Y.sum(axis=0)
        self._log_prior_ = (np.log(s + n_pos), np.log(s + (m - n_pos)))  # over 2s + m
        self._log_cond_ = tuple(
            np.log(s + kap) - np.log(s * (k + 1) + kap.sum(axis=1, keepdims=True))
            for kap in (kappa, kappa_n)
        )
        return self

    def kneighbors(self, X) -> np.ndarray:
        """Indices of the neighbours of each row of ``X``, nearest first (ties by index)."""
        X = as_float(self._predict_input(X))
        k = self.cond_pos_.shape[1] - 1
        return nearest_neighbors(self.X_fit_, X, k, exact=self.exact_ and is_integer_valued(X))

    def _posterior(self, X) -> tuple[np.ndarray, np.ndarray]:
        """``P(H^1 | E)`` and the MAP decision ``P(H^1)P(E|H^1) > P(H^0)P(E|H^0)``."""
        neigh = self.kneighbors(X)
        C = self.Y_[neigh].sum(axis=1)
        cols = np.arange(self.Y_.shape[1])[None, :]
        p1 = self.prior_[None, :] * self.cond_pos_[cols, C]
        p0 = (1 - self.prior_)[None, :] * self.cond_neg_[cols, C]
        tiny = np.finfo(np.float64).tiny
        under = (p1 < tiny) | (p0 < tiny)  # both are > 0 in exact arithmetic (s > 0)
        with np.errstate(invalid="ignore", divide="ignore"):
            proba, decide = p1 / (p1 + p0), p1 > p0
        if under.any():  # a tiny s: compare the logarithms instead of the products
            lp1, lp0 = self._log_prior_
            lpos, lneg = self._log_cond_
            d = (lp1[None, :] + lpos[cols, C]) - (lp0[None, :] + lneg[cols, C])
            proba[under] = expit(d[under])
            decide[under] = d[under] > 0
        return proba, decide

    def predict_proba(self, X) -> np.ndarray:
        """Posterior :math:`P(H_j^1 \\mid E)` for every label, the ranking scores."""
        return self._posterior(X)[0]

    decision_function = predict_proba

    def predict(self, X) -> np.ndarray:
        """MAP labels: 1 where :math:`P(H^1)P(E|H^1) > P(H^0)P(E|H^0)`."""
        return self._posterior(X)[1].astype(np.int8)
