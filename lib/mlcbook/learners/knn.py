"""A nearest-neighbour learner that minimises a generalised multi-label loss.

Hüllermeier et al. (2022), Sec. 6, eq. (19): for a query ``x`` retrieve the
label vectors :math:`y^{(1)}, \\dots, y^{(c)}` of its ``c`` nearest training
instances (L1 distance) and predict

.. math::

    \\hat y^* \\in \\arg\\min_{\\hat y \\in \\{0, 1\\}^K}
        \\sum_{i=1}^{c} \\ell\\bigl(y^{(i)}, \\hat y\\bigr).

For a binary prediction, a loss built from a *counting measure* (the binomial
loss (18) with parameter ``k``, the polynomial loss (17) with parameter
``alpha``, indeed any OWA loss (16)) depends only on the number ``m`` of
wrongly predicted labels: :math:`\\ell(y, \\hat y) = L(m)` with ``L`` the table
returned by :func:`mlcbook.losses.error_count_losses`.  Such an ``L`` is
non-decreasing in ``m`` (the sum of the ``m`` largest OWA weights, all
weights being non-negative).

The consensus rule
------------------
If all ``c`` neighbours agree on label ``j`` (:math:`y^{(i)}_j = b` for all
``i``), the label can be fixed to ``b`` and removed from the search:

    Take any candidate :math:`\\hat y` with :math:`\\hat y_j \\ne b` and let
    :math:`\\hat y'` be it with label ``j`` flipped to ``b``.  For every
    neighbour the flip removes exactly one error, :math:`m_i' = m_i - 1`, so
    :math:`L(m_i') \\le L(m_i)` for every ``i`` (``L`` is non-decreasing) and
    the summed loss does not increase, while the summed number of errors
    :math:`\\sum_i m_i` drops by ``c``.

So a minimiser of (19) exists with every consensus label fixed, and the
search is exact over the :math:`2^f` assignments of the ``f`` labels on which
the neighbours disagree (``f <= K``; usually far fewer).  When ``L`` is only
weakly increasing (the binomial loss with ``k > 1`` is flat for
``m > K - k``; subset 0/1 is flat for all ``m >= 1``) a minimiser may also
violate a consensus label; the tie-break below never selects such a
candidate, so the pruned search returns *exactly* the candidate that a
brute-force search over all of :math:`\\{0, 1\\}^K` with the same tie-break
returns.

Tie-break (deterministic)
-------------------------
Candidates whose summed loss lies within ``TIE_TOL * c * max(L)`` of the minimum are
tied (:mod:`mlcbook._consensus`, where the tolerance is justified).
Among tied candidates the prediction is the first in the order

1. ``tie_break="hamming"`` (default): smallest summed number of errors
   :math:`\\sum_i m_i` (the Hamming surrogate, a medoid-like choice);
   ``tie_break="nearest"``: smallest number of errors with respect to the
   nearest neighbour, then smallest :math:`\\sum_i m_i`;
2. the lexicographically smallest label vector (label 0 first, 0 < 1).

``tie_break="lexicographic"`` skips step 1: among tied candidates, those that
keep every consensus label come first, then the lexicographically smallest.
It is what a plain enumeration after fixing the consensus labels returns when
it keeps the first minimum it meets (the procedure the paper describes,
whose tie-break it does not state); it favours 0 on the first labels.

Both secondary keys of step 1 strictly decrease when a wrong consensus label is
flipped, which is what makes the pruning exact including ties (the flipped
candidate is still tied, because its summed loss is not larger).  This also
holds for the computed numbers: the loss tables are first rounded to a dyadic
grid (an error below 1e-12, monotone), on which every sum of ``c`` entries is
exact in floating point whatever the order of summation.

Neighbours
----------
The ``c`` nearest training instances by L1 (Manhattan) distance, computed
with scikit-learn; equidistant training instances are ordered by their
position in the training set (stable sort), so the neighbour sets are
deterministic even for data with many distance ties (``flags``).
No feature scaling is done here; put a scaler in front (see the chapter).
"""

from __future__ import annotations

from collections.abc import Sequence
from numbers import Integral, Real
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.compose import ColumnTransformer
from sklearn.preprocessing import MinMaxScaler, OneHotEncoder
from sklearn.utils.validation import check_is_fitted

from .. import _consensus
from .._consensus import TIE_TOL
from .._validation import check_positive_int, check_real
from ..losses import error_count_losses
from ._contract import MultiLabelMixin
from ._neighbors import as_float, nearest_neighbors

__all__ = [
    "LossMinimizingKNN",
    "minimize_summed_loss",
    "TIE_TOL",
    "consensus_mask",
    "l1_preprocessor",
]

#: Upper bound on free labels per query accepted by default (2**20 candidates).
MAX_FREE_LABELS = 20
# Largest block the exact search may need for one query: 2**f candidates times
# max(c, n_params, f + 1) counts (about 2 GB of float64 at the limit).
_MAX_SEARCH_ELEMENTS = 1 << 28
_TIE_BREAKS = ("hamming", "nearest", "lexicographic")
_FAMILIES = ("binomial", "polynomial")
# elements (params x queries x candidates) handled per block of work
_BLOCK = 1 << 22


def consensus_mask(neighbor_labels: np.ndarray) -> np.ndarray:
    """Labels on which all neighbours of a query agree.

    Parameters
    ----------
    neighbor_labels : ndarray of shape (n_queries, c, K)
        0/1 label vectors of the ``c`` neighbours of each query.

    Returns
    -------
    ndarray of bool, shape (n_queries, K)
        True where the consensus rule fixes the label.
    """
    L = np.asarray(neighbor_labels)
    if L.ndim != 3:
        raise ValueError(f"neighbor_labels must have shape (n_queries, c, K), got shape {L.shape}")
    if not np.isin(L, (0, 1)).all():
        raise ValueError("neighbor_labels must hold 0/1 label vectors")
    return _consensus.consensus_mask(L, axis=1)


def _check_tables(loss_tables: Any, K: int) -> np.ndarray:
    T = np.asarray(loss_tables, dtype=np.float64)
    if T.ndim == 1:
        T = T[np.newaxis, :]
    if T.ndim != 2 or T.shape[1] != K + 1:
        raise ValueError(
            f"loss_tables must have shape (K + 1,) or (n_params, K + 1) with K={K}, "
            f"got {np.shape(loss_tables)}"
        )
    if T.shape[0] == 0:
        raise ValueError("loss_tables must hold at least one loss table")
    if not np.isfinite(T).all():
        raise ValueError("loss_tables must be finite")
    if (np.diff(T, axis=1) < 0).any():
        raise ValueError(
            "loss_tables must be non-decreasing in the number of errors (a counting-measure "
            "loss); the consensus rule is not exact otherwise"
        )
    return T


def minimize_summed_loss(
    neighbor_labels: Any,
    loss_tables: Any,
    *,
    tie_break: str = "hamming",
    max_free_labels: int = MAX_FREE_LABELS,
    prune: bool = True,
) -> np.ndarray:
    """Exact minimiser of the summed loss over the neighbours, eq. (19).

    Parameters
    ----------
    neighbor_labels : array-like of shape (n_queries, c, K)
        0/1 label vectors of each query's neighbours, nearest first (the
        order matters only for ``tie_break="nearest"``).
    loss_tables : array-like of shape (K + 1,) or (n_params, K + 1)
        ``loss_tables[p, m]`` is the loss of a binary prediction with ``m``
        wrong labels (:func:`mlcbook.losses.error_count_losses`); must be
        non-decreasing in ``m``.  Several tables give predictions for several
        surrogate losses from one pass.
    tie_break : {'hamming', 'nearest', 'lexicographic'}
        Criterion among tied candidates (see the module docstring); the last
        criterion is always the lexicographically smallest vector.
    max_free_labels : int
        Refuse (``ValueError``) queries with more free labels than this:
        the search enumerates ``2**f`` candidates per query.
    prune : bool
        Apply the consensus rule (default).  ``False`` enumerates all
        ``2**K`` candidates for every query; it exists to test the rule.

    Returns
    -------
    ndarray of int8
        Shape (n_queries, K) for one table, (n_params, n_queries, K) for a
        2-D ``loss_tables``.
    """
    N = np.asarray(neighbor_labels)
    if N.dtype == object or N.dtype.kind not in "biuf":
        raise TypeError(f"neighbor_labels must hold 0/1 numbers, got dtype {N.dtype}")
    if N.ndim != 3 or N.shape[1] == 0 or N.shape[2] == 0:
        raise ValueError(
            f"neighbor_labels must have shape (n_queries, c, K) with c, K >= 1, got {N.shape}"
        )
    if not ((N == 0) | (N == 1)).all():
        raise ValueError("neighbor_labels must be binary (0/1)")
    N = N.astype(np.int8)
    n, c, K = N.shape
    one_table = np.ndim(loss_tables) == 1
    T = _quantize(_check_tables(loss_tables, K), c)
    if tie_break not in _TIE_BREAKS:
        raise ValueError(f"tie_break must be one of {_TIE_BREAKS}, got {tie_break!r}")
    max_free_labels = check_positive_int(max_free_labels, "max_free_labels", low=0, high=62)

    fixed = consensus_mask(N) if prune else np.zeros((n, K), dtype=bool)
    n_free = K - fixed.sum(axis=1)
    if n and n_free.max() > max_free_labels:
        raise ValueError(
            f"a query has {int(n_free.max())} free labels (neighbours disagree on them), more "
            f"than max_free_labels={max_free_labels}; the exact search would enumerate "
            f"2**{int(n_free.max())} candidates. Use fewer neighbours or raise max_free_labels."
        )
    f_max = int(n_free.max()) if n else 0
    need = (1 << f_max) * max(c, T.shape[0], f_max + 1)
    if need > _MAX_SEARCH_ELEMENTS:
        raise ValueError(
            f"a query has {f_max} free labels left after consensus pruning; the exact "
            f"search would hold 2**{f_max} x {max(c, T.shape[0], f_max + 1)} = "
            f"{need:.3g} "
            f"counts for it, more than the limit of {_MAX_SEARCH_ELEMENTS:.3g} "
            "(max_free_labels does not lift this limit). Use fewer neighbours."
        )
    P = np.empty((T.shape[0], n, K), dtype=np.int8)
    P[:] = N[np.newaxis, :, 0, :]  # consensus labels (free ones are overwritten)
    for f in np.unique(n_free):
        rows = np.flatnonzero(n_free == f)
        if f == 0:
            continue
        # free label indices in ascending order; label free_idx[:, r] is bit f-1-r
        free_idx = np.argsort(fixed[rows], axis=1, kind="stable")[:, :f]
        weights = np.left_shift(np.int64(1), np.arange(f - 1, -1, -1, dtype=np.int64))
        Nf = np.take_along_axis(N[rows], free_idx[:, np.newaxis, :], axis=2)
        codes = Nf.astype(np.int64) @ weights  # (n_rows, c)
        best = _search(codes, T, int(f), tie_break)  # (n_params, n_rows)
        bits = ((best[:, :, np.newaxis] >> np.arange(f - 1, -1, -1)) & 1).astype(np.int8)
        P[:, rows[:, np.newaxis], free_idx] = bits
    return P[0] if one_table else P


def _quantize(T: np.ndarray, c: int) -> np.ndarray:
    """Round the loss tables to a dyadic grid so that every sum of ``c`` entries is exact.

    With entries that are integer multiples of ``2**e`` and sums below
    ``2**(e + 53)``, floating-point addition is exact in any order; the
    rounding (below ``1e-12`` for losses in [0, 1]) is monotone, so the
    tables stay non-decreasing.
    """
    top = max(1.0, float(np.abs(T).max())) * c
    e = int(np.ceil(np.log2(top))) - 52
    return np.ldexp(np.round(np.ldexp(T, -e)), e)


def _search(codes: np.ndarray, T: np.ndarray, f: int, tie_break: str) -> np.ndarray:
    """Best candidate code per (table, query) among the 2**f free-label assignments.

    For every query and candidate the neighbours' error counts are
    histogrammed (``cnt[m]`` = number of neighbours with ``m`` errors) and the
    summed loss of every table is one matrix product ``cnt @ T.T``; with the
    quantised tables this sum is exact, whatever order BLAS adds in.
    """
    n_q, c = codes.shape
    n_p = T.shape[0]
    scale = c * float(np.abs(T).max())  # the largest summed loss
    n_cand = 1 << f
    width = f + 1  # at most f errors on the free labels
    Tw = T[:, :width]
    utype = np.uint16 if f <= 16 else np.uint32
    codes = codes.astype(utype)
    cand = np.arange(n_cand, dtype=utype)
    out = np.empty((n_p, n_q), dtype=np.int64)
    bits = int(c).bit_length()  # enough for a count 0..c
    packed = bits * width <= 64
    if packed:
        shift = np.left_shift(np.uint64(1), (bits * np.arange(width)).astype(np.uint64))
        mask = np.uint64((1 << bits) - 1)
    q_step = max(1, _BLOCK // (n_cand * max(c, n_p, width)))
    for q0 in range(0, n_q, q_step):
        q1 = min(n_q, q0 + q_step)
        nq = q1 - q0
        # errors of every candidate w.r.t. every neighbour: popcount of XOR
        m = np.bitwise_count(codes[q0:q1, :, np.newaxis] ^ cand)  # (nq, c, n_cand) uint8
        ham = m.sum(axis=1, dtype=np.int64)  # (nq, n_cand) summed errors
        # cnt[w, q, cand] = number of neighbours with w errors
        if packed:
            # histogram packed into one integer, `bits` bits per error count
            h = shift[m].sum(axis=1, dtype=np.uint64).ravel()  # (nq * n_cand,)
            cnt = np.empty((width, nq * n_cand))
            for w in range(width):  # loop over error counts, not candidates
                cnt[w] = (h >> np.uint64(bits * w)) & mask
        else:  # one scatter per neighbour
            base = np.arange(nq * n_cand, dtype=np.intp).reshape(nq, n_cand)
            cnt = np.zeros((width, nq * n_cand))
            flat = cnt.reshape(-1)
            for i in range(c):  # loop over the c neighbours, not the candidates
                flat[(m[:, i, :].astype(np.intp) * (nq * n_cand) + base).ravel()] += 1.0
        total = (Tw @ cnt).reshape(n_p, nq, n_cand)
        cand64 = cand.astype(np.int64)
        if tie_break == "nearest":
            key = (m[:, 0, :].astype(np.int64) * (c * f + 1) + ham) * n_cand + cand64
        elif tie_break == "hamming":
            key = ham * n_cand + cand64
        else:  # "lexicographic": candidates keeping the consensus labels first
            cq = codes[q0:q1].astype(np.int64)
            agree = ~np.bitwise_or.reduce(cq ^ cq[:, :1], axis=1) & (n_cand - 1)
            viol = np.bitwise_count((cand64 ^ cq[:, :1]) & agree[:, np.newaxis]).astype(np.int64)
            key = viol * n_cand + cand64
        tied = _consensus.tied(total, total.min(axis=2, keepdims=True), scale)
        kt = np.int32 if key.max() < np.iinfo(np.int32).max else np.int64
        keyed = np.where(tied, key.astype(kt)[np.newaxis], np.iinfo(kt).max)
        out[:, q0:q1] = keyed.argmin(axis=2)
    return out


def _loss_table(family: str, param: Any, K: int) -> np.ndarray:
    return np.asarray(error_count_losses(family, param, K), dtype=np.float64)


class LossMinimizingKNN(MultiLabelMixin, ClassifierMixin, BaseEstimator):
    """Nearest-neighbour minimiser of a counting-measure loss (Hüllermeier et al. 2022, eq. 19).

    Parameters
    ----------
    n_neighbors : int, default=9
        Number ``c`` of neighbours (L1 distance).
    family : {'binomial', 'polynomial'}, default='binomial'
        Surrogate loss family: binomial (18) with parameter ``k`` in
        ``1..K``, polynomial (17) with parameter ``alpha >= 1``.
    param : int or float, default=1
        The family's parameter (``k = 1`` is Hamming, ``k = K`` subset 0/1).
    tie_break : {'hamming', 'nearest', 'lexicographic'}, default='hamming'
        Criterion among candidates with the same summed loss; see
        :func:`minimize_summed_loss`.
    max_free_labels : int, default=20
        Largest number of labels (where the neighbours disagree) searched
        exhaustively for one query; more raise ``ValueError``.

    Attributes
    ----------
    n_labels_ : int
        ``K``.
    n_features_in_ : int
    classes_ : list of ndarray
        ``[0, 1]`` for every label (scikit-learn's multi-label convention).

    Notes
    -----
    Exact for every loss that is non-decreasing in the number of wrong
    labels, thanks to the consensus rule (module docstring).  Equidistant
    neighbours are taken in training order.  Features are used as given.
    """

    _accept_sparse = "csr"
    _accept_large_sparse = False  # sparse L1 distances take int32 indices
    _x_dtype = np.float64
    _fitted_attr = "X_fit_"

    def __init__(
        self,
        n_neighbors: int = 9,
        family: str = "binomial",
        param: float = 1,
        tie_break: str = "hamming",
        max_free_labels: int = MAX_FREE_LABELS,
    ) -> None:
        self.n_neighbors = n_neighbors
        self.family = family
        self.param = param
        self.tie_break = tie_break
        self.max_free_labels = max_free_labels

    # ------------------------------------------------------------------ fit
    def fit(self, X: Any, Y: Any) -> LossMinimizingKNN:
        """Store the training data.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
        Y : array-like or sparse matrix of shape (n_samples, n_labels), 0/1
        """
        c = check_positive_int(self.n_neighbors, "n_neighbors")
        if self.family not in _FAMILIES:
            raise ValueError(f"family must be one of {_FAMILIES}, got {self.family!r}")
        if self.tie_break not in _TIE_BREAKS:
            raise ValueError(f"tie_break must be one of {_TIE_BREAKS}, got {self.tie_break!r}")
        check_positive_int(self.max_free_labels, "max_free_labels", low=0, high=62)
        X, Y = self._fit_input(X, Y)
        if c > X.shape[0]:
            raise ValueError(
                f"n_neighbors={c} exceeds the number of training samples, n_samples={X.shape[0]}"
            )
        self.n_labels_ = Y.shape[1]
        self._check_param(self.param)
        self.n_features_in_ = X.shape[1]
        self.X_fit_ = X
        self.Y_fit_ = Y
        return self

    def _check_param(self, param: Any) -> None:
        if self.family == "binomial":
            check_positive_int(param, "param", low=1, high=self.n_labels_)
        elif not (isinstance(param, Real) and param == float("inf")):
            check_real(param, "param", low=1.0)

    # -------------------------------------------------------------- predict
    def kneighbors(self, X: Any) -> np.ndarray:
        """Indices of the ``n_neighbors`` nearest training instances (L1), nearest first.

        Equidistant instances are ordered by their training index.

        Returns
        -------
        ndarray of int, shape (n_queries, n_neighbors)
        """
        X = self._predict_input(X)
        # the library's one neighbour policy (fixed-order L1 sums, ties by index)
        return nearest_neighbors(
            as_float(self.X_fit_), as_float(X), self.n_neighbors, metric="manhattan"
        )

    def neighbor_labels(self, X: Any) -> np.ndarray:
        """Label vectors of the neighbours, shape (n_queries, n_neighbors, K)."""
        return self.Y_fit_[self.kneighbors(X)]

    def predict(self, X: Any) -> np.ndarray:
        """Predict the label vector minimising the summed loss over the neighbours.

        Returns
        -------
        ndarray of int8, shape (n_queries, K)
        """
        return self.predict_params(X, [self.param])[0]

    def predict_params(self, X: Any, params: Sequence[float]) -> np.ndarray:
        """Predictions for several surrogate parameters from one neighbour search.

        Parameters
        ----------
        X : array-like of shape (n_queries, n_features)
        params : sequence
            Parameters of ``family`` (e.g. ``range(1, K + 1)`` for all binomial ``k``).

        Returns
        -------
        ndarray of int8, shape (len(params), n_queries, K)
        """
        check_is_fitted(self, "X_fit_")
        if isinstance(params, (Integral, Real)) or len(params) == 0:
            raise ValueError(f"params must be a non-empty sequence, got {params!r}")
        for p in params:
            self._check_param(p)
        T = np.vstack([_loss_table(self.family, p, self.n_labels_) for p in params])
        return minimize_summed_loss(
            self.neighbor_labels(X),
            T,
            tie_break=self.tie_break,
            max_free_labels=self.max_free_labels,
        )

    def n_free_labels(self, X: Any) -> np.ndarray:
        """Number of labels left free by the consensus rule for each query."""
        return self.n_labels_ - consensus_mask(self.neighbor_labels(X)).sum(axis=1)


# ---------------------------------------------------------------------------
# Features for the L1 distance (the experiment itself: mlcrepro.huellermeier2022.knn_fig4)
# ---------------------------------------------------------------------------
def l1_preprocessor(n_features: int, nominal: dict[int, int] | None = None):
    """Feature map under which the L1 distance follows Weka's convention.

    Numeric features are scaled to [0, 1] by their range on the training
    data (``MinMaxScaler``); a nominal feature (given ordinally, as
    :func:`mlcbook.datasets.load_dataset` encodes it) is one-hot encoded with
    weight 1/2, so that two different categories are at distance 1 and equal
    ones at 0.  Hüllermeier et al. (2022) do not state their preprocessing;
    this is the default of Weka's distance functions used by their Java
    tool chain (an assumption, documented in the chapter).

    Parameters
    ----------
    n_features : int
    nominal : dict, optional
        ``column index -> number of categories`` of the nominal features.

    Returns
    -------
    sklearn.compose.ColumnTransformer (unfitted)
    """
    nominal = dict(nominal or {})
    numeric = [j for j in range(n_features) if j not in nominal]
    parts = [("numeric", MinMaxScaler(), numeric)]
    if nominal:
        cols = sorted(nominal)
        cats = [np.arange(nominal[j], dtype=np.float64) for j in cols]
        parts.append(
            (
                "nominal",
                OneHotEncoder(categories=cats, handle_unknown="ignore", sparse_output=False),
                cols,
            )
        )
    return ColumnTransformer(
        parts, transformer_weights={"numeric": 1.0, "nominal": 0.5}, sparse_threshold=0.0
    )
