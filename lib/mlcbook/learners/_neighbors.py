"""The library's one neighbour policy: nearest first, equal distances by training index.

Which of several equidistant training instances is "the k-th neighbour" must not
depend on the machine.  scikit-learn's :class:`~sklearn.neighbors.NearestNeighbors`
leaves ties to its search structure and computes Euclidean distances through a
matrix product whose last bits depend on the BLAS kernel, so on data with many
ties (bag-of-words data such as medical, where most queries tie at the k-th
neighbour) two machines pick different neighbours.  Here:

* distances are computed so that they are the same on every machine: for
  integer-valued data (0/1 words, counts) the squared Euclidean distance
  ``|x|^2 + |y|^2 - 2 x.y`` is exact in float64 (every partial sum is an integer
  below 2**53, whatever the summation order); otherwise SciPy's
  :func:`~scipy.spatial.distance.cdist` evaluates each distance in one fixed
  order, independent of BLAS and of NumPy's CPU-specific code paths; the L1
  distance is exact or fixed-order in the same way;
* the ``k`` smallest distances are taken per row and ties are ordered by
  training index (a stable lexicographic sort), as
  :class:`~mlcbook.learners.LossMinimizingKNN` does.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.spatial.distance import cdist

__all__ = ["as_float", "is_integer_valued", "nearest_neighbors"]

_CHUNK_CELLS = 1 << 22  # distance-matrix entries per chunk (32 MiB of float64)


def as_float(X: Any) -> Any:
    """``X`` as float64: a CSR matrix if sparse, else a C-contiguous array."""
    if sp.issparse(X):
        return sp.csr_matrix(X, dtype=np.float64)
    return np.ascontiguousarray(X, dtype=np.float64)


def is_integer_valued(X: Any) -> bool:
    """True when every entry is an integer small enough for exact float64 products."""
    data = X.data if sp.issparse(X) else np.asarray(X)
    if data.size == 0:
        return True
    if not np.all(np.isfinite(data)) or not np.array_equal(data, np.round(data)):
        return False
    n_features = X.shape[1]
    largest = float(np.max(np.abs(data)))
    if largest >= 2.0**26:  # its square alone reaches 2**52 (and may overflow)
        return False
    return largest**2 * max(n_features, 1) < 2.0**52


#: Largest magnitude used as is; beyond it squared distances could overflow to inf.
_MAX_UNSCALED = 2.0**400


def _largest(X: Any) -> float:
    data = X.data if sp.issparse(X) else X
    return float(np.max(np.abs(data))) if data.size else 0.0


def _rescaled(X_fit: Any, Xq: Any) -> tuple[Any, Any]:
    """Both matrices times one power of two if their entries are huge (beyond
    :data:`_MAX_UNSCALED`, e.g. ``X * 1e200``), so that squared distances stay finite.

    A power of two scales every product and sum exactly (no rounding changes), and
    nearest neighbours do not change when all distances are scaled alike.
    """
    largest = max(_largest(X_fit), _largest(Xq))
    if not largest > _MAX_UNSCALED:
        return X_fit, Xq
    shift = 400 - math.frexp(largest)[1]
    same = Xq is X_fit
    X_fit = X_fit * 2.0**shift
    return X_fit, (X_fit if same else Xq * 2.0**shift)


def _sq_norms(X: Any) -> np.ndarray:
    if sp.issparse(X):
        return np.asarray(X.multiply(X).sum(axis=1)).ravel()
    return np.einsum("ij,ij->i", X, X)


def _distances(Xq: Any, Xf: Any, metric: str, exact: bool, nf: np.ndarray | None) -> np.ndarray:
    if metric == "euclidean" and exact:
        assert nf is not None  # the training rows' squared norms come with exact distances
        G = Xq @ Xf.T
        G = G.toarray() if sp.issparse(G) else np.asarray(G)
        return _sq_norms(Xq)[:, None] + nf[None, :] - 2.0 * G
    A = Xq.toarray() if sp.issparse(Xq) else Xq
    B = Xf.toarray() if sp.issparse(Xf) else Xf
    return cdist(A, B, "sqeuclidean" if metric == "euclidean" else "cityblock")


def _first(D: np.ndarray, c: int) -> np.ndarray:
    """Column indices of the ``c`` smallest entries per row, ties by column index."""
    kth = np.partition(D, c - 1, axis=1)[:, c - 1 : c]
    r, j = np.nonzero(D <= kth)  # row-major: j ascending within a row
    order = np.lexsort((j, D[r, j], r))
    r, j = r[order], j[order]
    starts = np.searchsorted(r, np.arange(D.shape[0]))
    return j[starts[:, np.newaxis] + np.arange(c)]


def nearest_neighbors(
    X_fit: Any,
    X: Any | None,
    n_neighbors: int,
    *,
    metric: str = "euclidean",
    exact: bool | None = None,
) -> np.ndarray:
    """Indices of the ``n_neighbors`` nearest rows of ``X_fit``, nearest first.

    Parameters
    ----------
    X_fit : ndarray or sparse matrix (n_fit, n_features), float64
        The training instances.
    X : ndarray or sparse matrix (n_queries, n_features), or None
        The queries; ``None`` queries the training instances themselves, each
        leaving itself out (leave-one-out, as ``NearestNeighbors.kneighbors()``).
    n_neighbors : int
        ``1 <= n_neighbors <= n_fit`` (``< n_fit`` when ``X`` is None).
    metric : {"euclidean", "manhattan"}
    exact : bool, optional
        Whether both matrices are integer-valued (:func:`is_integer_valued`);
        computed when not given.

    Returns
    -------
    ndarray of intp, shape (n_queries, n_neighbors)
        Equal distances are ordered by training index.
    """
    if metric not in ("euclidean", "manhattan"):
        raise ValueError(f"metric must be 'euclidean' or 'manhattan', got {metric!r}")
    loo = X is None
    Xq: Any = X_fit if X is None else X
    n_fit = X_fit.shape[0]
    if not 1 <= n_neighbors <= n_fit - loo:
        raise ValueError(
            f"n_neighbors must lie in [1, {n_fit - loo}] for {n_fit} training instances, "
            f"got {n_neighbors}"
        )
    if exact is None:
        exact = is_integer_valued(X_fit) and (loo or is_integer_valued(Xq))
    if metric == "manhattan" and exact:
        exact = False  # cdist's cityblock is already a fixed-order sum
    if not exact:
        X_fit, Xq = _rescaled(X_fit, X_fit if loo else Xq)
    nf = _sq_norms(X_fit) if (metric == "euclidean" and exact) else None
    if not exact and sp.issparse(X_fit):
        X_fit = X_fit.toarray()  # cdist needs dense rows; convert once, not per chunk
    if sp.issparse(Xq):
        Xq = sp.csr_matrix(Xq)
    step = max(1, _CHUNK_CELLS // max(n_fit, 1))
    out = np.empty((Xq.shape[0], n_neighbors), dtype=np.intp)
    for lo in range(0, Xq.shape[0], step):
        hi = min(lo + step, Xq.shape[0])
        D = _distances(Xq[lo:hi], X_fit, metric, exact, nf)
        if loo:
            D[np.arange(hi - lo), np.arange(lo, hi)] = np.inf
        out[lo:hi] = _first(D, n_neighbors)
    return out
