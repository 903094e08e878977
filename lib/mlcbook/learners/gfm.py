"""GFM, the General F-measure Maximizer (Dembczyński et al. 2011; Waegeman et al. 2014).

Given, for an instance :math:`x`, the probabilities
:math:`p_{is} = P(y_i = 1, s_y = s \\mid x)` (label :math:`i` relevant and :math:`s`
labels relevant in all, :math:`s = 1..m`) and :math:`P(y = 0 \\mid x)`, the
F1-optimal prediction is found exactly in :math:`O(m^3)`: with
:math:`W_{sk} = 2/(s+k)` and :math:`\\Delta = P W`, the best prediction with
:math:`k` labels takes the :math:`k` largest entries of column :math:`k` of
:math:`\\Delta`, its expected F1 being their sum; the answer is the best of these
:math:`m` candidates and the empty set (expected F1 :math:`P(y = 0 \\mid x)`, by the
convention F(0, 0) = 1) (Waegeman et al. 2014, Algorithm 1).

Wu & Zhou (2017) only say that GFM uses 10 nearest neighbours.  We therefore estimate
the :math:`p_{is}` by the empirical distribution of the label vectors of the
:math:`k` nearest training neighbours (Euclidean, equal distances by training index, see
:mod:`mlcbook.learners._neighbors`), i.e.
:math:`p_{is} = \\frac1k \\sum_{n \\in N_k(x)} [\\![y_{ni} = 1, |y_n| = s]\\!]`, a
plug-in estimate with which GFM maximises exactly the mean F1 against the
neighbours' label sets.  (Waegeman et al. estimate them with one multinomial
logistic regression per label; the kNN variant is the one the citing paper names.)
Under this estimate :math:`\\Delta = \\frac1k Y_N^\\top W_{s_N}`, one small matrix product
per instance.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from .._validation import check_label_matrix, check_positive_int
from ._contract import MultiLabelMixin
from ._neighbors import as_float, is_integer_valued, nearest_neighbors

__all__ = ["GFM", "gfm_predict"]


def gfm_predict(P: np.ndarray, p_empty: np.ndarray) -> np.ndarray:
    """GFM inference from the probability matrices of a batch of instances.

    Parameters
    ----------
    P : ndarray of shape (n_samples, n_labels, n_labels)
        ``P[x, i, s - 1]`` = :math:`P(y_i = 1, s_y = s \\mid x)`.
    p_empty : ndarray of shape (n_samples,)
        :math:`P(y = 0 \\mid x)`.

    Returns
    -------
    ndarray of int8, shape (n_samples, n_labels)
        The F1-optimal predictions.
    """
    P = _probabilities(P, "P")
    p_empty = _probabilities(p_empty, "p_empty")
    if P.ndim != 3 or P.shape[1] != P.shape[2]:
        raise ValueError(f"P must have shape (n_samples, n_labels, n_labels), got {P.shape}")
    if p_empty.shape != (P.shape[0],):
        raise ValueError(
            f"p_empty must have shape (n_samples,) = ({P.shape[0]},), got {p_empty.shape}"
        )
    m = P.shape[1]
    s = np.arange(1, m + 1)
    Wsk = 2.0 / (s[:, None] + s[None, :])
    return _gfm_from_delta(P @ Wsk, p_empty)


def _probabilities(a: object, name: str) -> np.ndarray:
    """``a`` as floats, every entry a probability in [0, 1] (NaN refused)."""
    try:
        A = np.asarray(a, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must hold real numbers, got {type(a).__name__}") from None
    if not np.all((A >= 0.0) & (A <= 1.0)):  # NaN fails both comparisons
        bad = A[~((A >= 0.0) & (A <= 1.0))].flat[0]
        raise ValueError(f"{name} must hold probabilities in [0, 1], found {bad}")
    return A


def _gfm_from_delta(D: np.ndarray, p_empty: np.ndarray) -> np.ndarray:
    n, m, _ = D.shape
    order = np.argsort(-D, axis=1, kind="stable")  # per column k: labels by decreasing Delta
    top = np.take_along_axis(D, order, axis=1)
    csum = np.cumsum(top, axis=1)
    ks = np.arange(m)
    value = csum[:, ks, ks]  # expected F of the best prediction with k+1 labels
    kbest = np.argmax(value, axis=1)
    best = value[np.arange(n), kbest]
    H = np.zeros((n, m), dtype=np.int8)
    rank = np.arange(m)[None, :]
    chosen = np.take_along_axis(order, kbest[:, None, None], axis=2)[:, :, 0]  # (n, m) label order
    sel = rank <= kbest[:, None]
    rows = np.broadcast_to(np.arange(n)[:, None], (n, m))
    H[rows[sel], chosen[sel]] = 1
    H[p_empty >= best] = 0  # the empty prediction wins ties
    return H


class GFM(MultiLabelMixin, ClassifierMixin, BaseEstimator):
    """GFM with k-nearest-neighbour estimates of :math:`P(y_i = 1, s_y = s \\mid x)`.

    Parameters
    ----------
    k : int
        Number of neighbours (10 in Wu & Zhou 2017).
    batch_size : int
        Test instances processed at once (memory ~ ``batch_size * n_labels**2`` floats).

    Attributes
    ----------
    classes_ : list of ndarray
        ``[0, 1]`` for every label (scikit-learn's multi-label convention).
    n_features_in_ : int
    """

    _accept_sparse = "csr"
    _fitted_attr = "X_fit_"

    def __init__(self, k: int = 10, batch_size: int = 256):
        self.k = k
        self.batch_size = batch_size

    def fit(self, X, Y) -> GFM:
        k = check_positive_int(self.k, "k")
        check_positive_int(self.batch_size, "batch_size")
        X, Y = self._fit_input(X, Y)
        Y = check_label_matrix(Y, "Y", allow_sparse=False).astype(np.float64)
        if k > Y.shape[0]:
            raise ValueError(
                f"k={k} must be at most the number of training instances, n_samples={Y.shape[0]}"
            )
        X = as_float(X)
        self.X_fit_, self.exact_, self.k_ = X, is_integer_valued(X), k
        self.Y_ = Y
        self.sizes_ = Y.sum(axis=1).astype(np.int64)
        return self

    def kneighbors(self, X) -> np.ndarray:
        """Indices of the neighbours of each row of ``X``, nearest first (ties by index)."""
        X = as_float(self._predict_input(X))
        return nearest_neighbors(
            self.X_fit_, X, self.k_, exact=self.exact_ and is_integer_valued(X)
        )

    def predict_marginals(self, X) -> np.ndarray:
        """:math:`P(y_j = 1 \\mid x)` under the neighbour estimate (mean neighbour label)."""
        neigh = self.kneighbors(X)
        return self.Y_[neigh].mean(axis=1)

    def predict_proba(self, X) -> np.ndarray:
        """The marginals of :meth:`predict_marginals`, the model's scores of each
        label (GFM's prediction is not a threshold of them)."""
        return self.predict_marginals(X)

    def predict(self, X) -> np.ndarray:
        """The F1-maximising label set of every instance."""
        neigh = self.kneighbors(X)
        m = self.Y_.shape[1]
        s = np.arange(m + 1)
        Wsk = np.zeros((m + 1, m))  # row s_n (0..m), column k-1: 2 / (s_n + k); zero for s_n = 0
        Wsk[1:] = 2.0 / (s[1:, None] + s[None, 1:])
        out = np.empty((neigh.shape[0], m), dtype=np.int8)
        bs = check_positive_int(self.batch_size, "batch_size")
        for lo in range(0, neigh.shape[0], bs):
            nb = neigh[lo : lo + bs]
            Yn = self.Y_[nb]  # (b, k, m)
            Sn = self.sizes_[nb]  # (b, k)
            D = np.einsum("bni,bnk->bik", Yn, Wsk[Sn]) / nb.shape[1]
            p_empty = (Sn == 0).mean(axis=1)
            out[lo : lo + bs] = _gfm_from_delta(D, p_empty)
        return out
