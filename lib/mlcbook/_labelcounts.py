"""Validated 0/1 label matrices and their counts, in as few passes as possible.

The private engine behind the classification measures of :mod:`mlcbook.metrics`.
A pair ``(Y, P)`` is validated once (one pass per matrix for integer and
boolean input: the largest entry of the array viewed as *unsigned* integers is
at most 1 exactly when every entry is 0 or 1, negative values included) and
turned into ``int8``; every measure is then computed from three kinds of
counts -- true positives, true-set sizes and predicted-set sizes -- pooled
over the matrix, per label (column) or per instance (row), optionally weighted
per instance.  No call into scikit-learn: its target-type inference costs
30-80 times a pass over the data (issue 16) and is redundant after our checks.
Sparse input stays sparse.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import scipy.sparse as sp

from ._validation import as_2d, check_label_matrix, check_same_shape

__all__ = [
    "check_pair",
    "check_sample_weight",
    "Counts",
    "weighted_mean",
    "divide",
    "prf",
    "f_of_averages",
]

_UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
# rows per block when summing int8 columns in int8 (127 ones fit in an int8)
_BLOCK_ROWS = 127
# bytes of input checked and converted at once (fits in a core's L2 cache)
_BLOCK_BYTES = 1 << 20


def _labels(A: Any, name: str):
    """A 0/1 matrix as dense int8 (one checking pass for integer input) or int8 CSR."""
    arr = as_2d(A, name)
    if sp.issparse(arr):
        return check_label_matrix(arr, name)
    if arr.shape[0] == 0:
        raise ValueError(f"{name} must have at least one row, got shape {arr.shape}")
    kind = arr.dtype.kind
    if kind == "b":
        return arr.view(np.int8)
    if kind in "iu":
        if arr.dtype.itemsize == 1:
            if arr.view(np.uint8).max() > 1:
                _raise_not_binary(arr, name)
            return arr.view(np.int8)
        return _to_int8(arr, name)
    return check_label_matrix(arr, name)


def check_labels(A: Any, name: str = "Y", *, convert: bool = True):
    """One validated 0/1 matrix: dense int8 (one checking pass for integer input) or
    int8 CSR storing only ones.  ``convert=False``: a dense integer or boolean matrix
    is checked and returned as it is (for a kernel that reads it once anyway)."""
    if not convert:
        arr = as_2d(A, name)
        if not sp.issparse(arr) and arr.dtype.kind in "biu" and arr.shape[0] > 0:
            if arr.dtype.kind != "b" and arr.view(_UNSIGNED[arr.dtype.itemsize]).max() > 1:
                _raise_not_binary(arr, name)
            return arr
    return _labels(A, name)


def _raise_not_binary(arr: np.ndarray, name: str):
    bad = arr[(arr < 0) | (arr > 1)].flat[0]
    raise ValueError(f"{name} must be binary (0/1), found the value {bad!r}")


def _to_int8(arr: np.ndarray, name: str) -> np.ndarray:
    """Check and convert an integer matrix block by block (each block read from
    memory once: the check and the conversion find it in cache)."""
    u = arr.view(_UNSIGNED[arr.dtype.itemsize])
    out = np.empty(arr.shape, dtype=np.int8)
    step = max(1, _BLOCK_BYTES // max(1, arr.shape[1] * arr.dtype.itemsize))
    for lo in range(0, arr.shape[0], step):
        if u[lo : lo + step].max() > 1:  # negatives are huge as unsigned
            _raise_not_binary(arr, name)
        out[lo : lo + step] = arr[lo : lo + step]
    return out


def check_pair(Y: Any, P: Any, name_y: str = "Y", name_p: str = "P"):
    """Validate two 0/1 matrices of one shape; both dense int8 or both int8 CSR."""
    Y = _labels(Y, name_y)
    P = _labels(P, name_p)
    check_same_shape(Y, P, name_y, name_p)
    if sp.issparse(Y) != sp.issparse(P):
        Y, P = sp.csr_matrix(Y), sp.csr_matrix(P)
    return Y, P


def check_sample_weight(sample_weight: Any, n: int) -> np.ndarray | None:
    """``None`` or finite non-negative float64 weights of length ``n``, sum > 0."""
    if sample_weight is None:
        return None
    if isinstance(sample_weight, (str, bytes)) or sp.issparse(sample_weight):
        raise TypeError(
            f"sample_weight must be a 1-D array of {n} numbers or None, "
            f"got {type(sample_weight).__name__}"
        )
    w = np.asarray(sample_weight)
    if w.dtype == object or w.dtype.kind not in "biuf":
        raise TypeError(f"sample_weight must hold real numbers, got dtype {w.dtype}")
    if w.shape != (n,):
        raise ValueError(
            f"sample_weight must have shape ({n},), one weight per instance, got {w.shape}"
        )
    w = w.astype(np.float64)
    if not np.isfinite(w).all():
        raise ValueError("sample_weight must not contain NaN or infinite values")
    if (w < 0).any():
        raise ValueError(f"sample_weight must be non-negative, got min {w.min():.6g}")
    if not w.sum() > 0:
        raise ValueError("sample_weight must have a positive sum")
    return w


def weighted_mean(v: np.ndarray, w: np.ndarray | None) -> float:
    """``np.mean`` or, with weights, ``np.average`` (scikit-learn's arithmetic)."""
    return float(np.mean(v) if w is None else np.average(v, weights=w))


def divide(num, den, zero_division: float) -> np.ndarray:
    """``num / den`` elementwise, ``zero_division`` where ``den == 0``.

    ``zero_division`` of a float subclass named ``_WarnZero`` (``"warn"`` checked by
    :mod:`mlcbook.metrics`) also warns, as scikit-learn's ``zero_division="warn"``,
    with :class:`~sklearn.exceptions.UndefinedMetricWarning`.
    """
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out = np.full(np.broadcast(num, den).shape, float(zero_division), dtype=np.float64)
    zero = den == 0
    np.divide(num, den, out=out, where=~zero)
    if type(zero_division).__name__ == "_WarnZero" and zero.any():
        # scikit-learn is imported here, not at module level: `mlcbook evaluate` starts
        # without it (1 s of imports), and only a zero division under "warn" needs it
        from sklearn.exceptions import UndefinedMetricWarning

        warnings.warn(
            f"{int(np.count_nonzero(zero))} ratio(s) with a zero denominator (no true or "
            "no predicted label) set to 0.0; use zero_division to choose the value "
            "(nan leaves them out of the average)",
            UndefinedMetricWarning,
            stacklevel=4,
        )
    return out


def prf(which: str, tp, ny, np_, beta: float, zero_division: float) -> np.ndarray:
    r"""Precision, recall or F-beta from counts: the one home of these formulas.

    ``tp`` true positives, ``ny`` true-set sizes, ``np_`` predicted-set sizes (pooled,
    per label or per instance; arrays broadcast).  ``which``: ``"precision"``
    (:math:`tp/|p|`), ``"recall"`` (:math:`tp/|y|`) or ``"f"``
    (:math:`(1+\beta^2)\,tp/(\beta^2|y| + |p|)`, scikit-learn's arithmetic);
    ``zero_division`` where the denominator is 0 (see :func:`divide`).
    """
    if which == "precision":
        return divide(tp, np_, zero_division)
    if which == "recall":
        return divide(tp, ny, zero_division)
    b2 = beta * beta
    return divide(
        (1.0 + b2) * np.asarray(tp, np.float64),
        b2 * np.asarray(ny, np.float64) + np.asarray(np_, np.float64),
        zero_division,
    )


def f_of_averages(prec, rec, beta: float) -> np.ndarray:
    r"""The weighted harmonic mean :math:`(1+\beta^2)PR/(\beta^2P + R)` of averaged
    precision and recall (Zhang & Zhou's :math:`F^\beta_{exam}`): 0 where both are 0
    (its limit), NaN where either is NaN."""
    prec = np.asarray(prec, dtype=np.float64)
    rec = np.asarray(rec, dtype=np.float64)
    b2 = beta * beta
    den = b2 * prec + rec
    out = np.zeros(np.broadcast(prec, rec).shape)
    np.divide((1 + b2) * prec * rec, den, out=out, where=den > 0)
    out[np.isnan(den)] = np.nan
    return out


def _row_sums(A) -> np.ndarray:
    """Row sums of a validated int8 0/1 matrix (dense, or canonical CSR storing only
    ones: its row lengths) as int64."""
    if sp.issparse(A):
        return np.diff(A.indptr).astype(np.int64)
    if A.shape[1] < 128:  # int8 accumulation cannot overflow; ~4x faster than int64
        return np.einsum("ij->i", A).astype(np.int64)
    return A.sum(axis=1, dtype=np.int64)


def _col_sums(A, w: np.ndarray | None) -> np.ndarray:
    """(Weighted) column sums of an int8 0/1 matrix: int64, or float64 with weights."""
    if w is not None:
        if sp.issparse(A):
            return np.asarray(A.T @ w).ravel()
        return w @ A  # float64 result, rows weighted
    if sp.issparse(A):  # stores only ones: count the column indices
        return np.bincount(A.indices, minlength=A.shape[1]).astype(np.int64)
    n, K = A.shape
    m = n - n % _BLOCK_ROWS
    # blocks of 127 rows summed in int8 (no overflow), then the block sums in int64
    head = np.einsum("bij->bj", A[:m].reshape(-1, _BLOCK_ROWS, K)).sum(axis=0, dtype=np.int64)
    return head + A[m:].sum(axis=0, dtype=np.int64)


def _count(A, w: np.ndarray | None):
    """(Weighted) number of ones of an int8 0/1 matrix."""
    if w is not None:
        return float(_row_sums(A) @ w)
    if sp.issparse(A):
        return int(A.nnz)  # stores only ones
    return int(np.count_nonzero(A))


class Counts:
    """Lazily computed counts of a validated pair ``(Y, P)``.

    ``tp`` = entries with ``y = p = 1``; ``ny`` = ones of ``Y``; ``np_`` = ones
    of ``P``; ``err`` = entries with ``y != p``.  ``axis=None`` pools the
    matrix, ``0`` gives one count per label, ``1`` one per instance.  With
    ``w``, pooled and per-label counts weight each instance by ``w_i``
    (scikit-learn's ``sample_weight``); per-instance counts are never weighted.
    """

    def __init__(self, Y, P, w: np.ndarray | None = None) -> None:
        self.Y, self.P, self.w = Y, P, w
        self._both = None

    @property
    def both(self):
        if self._both is None:
            self._both = (
                self.Y.multiply(self.P).tocsr()
                if sp.issparse(self.Y)
                else np.bitwise_and(self.Y, self.P)
            )
        return self._both

    def _of(self, A, axis: int | None):
        if axis is None:
            return _count(A, self.w)
        return _col_sums(A, self.w) if axis == 0 else _row_sums(A)

    def tp(self, axis: int | None):
        return self._of(self.both, axis)

    def ny(self, axis: int | None):
        return self._of(self.Y, axis)

    def np_(self, axis: int | None):
        return self._of(self.P, axis)

    def err(self, axis: int | None):
        """Wrong entries; pooled without weights in one pass (count of ``Y != P``)."""
        if sp.issparse(self.Y):
            # |y xor p| = |y| + |p| - 2 |y and p|: three counts, no difference matrix
            return self.ny(axis) + self.np_(axis) - 2 * self.tp(axis)
        if axis is None and self.w is None:
            return int(np.count_nonzero(self.Y != self.P))
        return self._of(np.bitwise_xor(self.Y, self.P), axis)
