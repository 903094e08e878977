"""The checks and reductions every loss of :mod:`mlcbook.losses` shares: the
scores read as probabilities, decisions or thresholded predictions, the error matrix and
its counts, the per-instance values and their (weighted) mean, and ``popcount``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.special import expit

from ._validation import (
    as_2d,
    check_label_matrix,
    check_real,
    check_same_shape,
    check_score_matrix,
)

#: Largest number of labels for which a general capacity (2**K values) is enumerated.
MAX_CAPACITY_LABELS = 20


TOL = 1e-9


# --------------------------------------------------------------------------- helpers
def popcount(a: np.ndarray) -> np.ndarray:
    """Number of set bits of every entry of an array of non-negative integers (vectorised).

    Examples
    --------
    >>> popcount(np.array([0, 1, 6, 2**62 + 1])).tolist()
    [0, 1, 2, 2]
    """
    a = np.asarray(a)
    # integers only: a cast from float, complex or text would count the bits of another
    # number (NaN, 2.7 and '3' all have some), and a negative integer those of its
    # two's complement
    if a.dtype.kind not in "biu":
        raise TypeError(f"a must hold non-negative integers, got dtype {a.dtype}")
    if a.dtype.kind == "i" and a.size and a.min() < 0:
        raise ValueError(f"a must hold non-negative integers, found {a.min()}")
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(a.astype(np.uint64, copy=False)).astype(np.int64)
    a = a.astype(np.uint64)
    out = np.zeros(a.shape, dtype=np.int64)  # pragma: no cover - numpy < 2.0
    while np.any(a):  # pragma: no cover
        out += (a & np.uint64(1)).astype(np.int64)
        a = a >> np.uint64(1)
    return out  # pragma: no cover


def check_n_labels_enumerable(K: int, what: str = "a capacity") -> None:
    if K > MAX_CAPACITY_LABELS:
        raise ValueError(
            f"K={K} labels is too many to enumerate the 2**{K} subsets of {what}; "
            f"the limit is MAX_CAPACITY_LABELS={MAX_CAPACITY_LABELS} "
            "(counting-measure losses such as owa_loss/binomial_loss/polynomial_loss "
            "have no such limit)"
        )


SCORES = ("probability", "decision")


def prepare(
    Y: Any, S: Any, scores: Any = "probability", threshold: Any = None
) -> tuple[np.ndarray, np.ndarray, bool]:
    """Validate ``Y`` (0/1) and ``S``; return ``Y``, the scores in [0, 1] and
    whether they are binary.

    ``threshold`` given: ``S`` may be any finite reals and becomes ``[S > t]``.
    ``scores="decision"``: ``S`` may be any finite reals and becomes
    ``expit(S)``.  Otherwise ``S`` holds scores in [0, 1] or 0/1 predictions.

    Returns dense 2-D arrays and whether ``S`` is binary.  Integer/boolean
    arrays are checked with one min/max pass (equivalent to the 0/1 test and
    much cheaper on large inputs); floating scores go through
    :func:`mlcbook._validation.check_score_matrix`.
    """
    if not isinstance(scores, str) or scores not in SCORES:
        raise ValueError(f"scores must be one of {SCORES}, got {scores!r}")
    if threshold is not None or scores == "decision":
        t = None if threshold is None else check_real(threshold, "threshold")
        Y = fast_label_matrix(Y, "Y")
        S_arr = check_score_matrix(S, "S")  # finite reals
        check_same_shape(Y, S_arr, "Y", "S")
        if t is not None:
            return Y, (S_arr > t).astype(np.int8), True
        S_arr = expit(S_arr)
        if is_binary_float(S_arr):  # saturated: |s| > ~37
            return Y, S_arr.astype(np.int8), True
        return Y, S_arr, False
    Y = fast_label_matrix(Y, "Y")
    S_in: Any = as_2d(S, "S")
    S_arr = S_in.toarray() if sp.issparse(S_in) else np.asarray(S_in)
    if S_arr.dtype.kind in "biu":
        if S_arr.shape[0] == 0:
            raise ValueError(f"S must have at least one row, got shape {S_arr.shape}")
        lo, hi = (S_arr.min(), S_arr.max()) if S_arr.dtype.kind != "b" else (0, 1)
        if lo < 0 or hi > 1:
            raise ValueError(f"S must lie in [0, 1], got values in [{lo}, {hi}]")
        check_same_shape(Y, S_arr, "Y", "S")
        return Y, S_arr.astype(np.int8, copy=False), True
    if S_arr.dtype.kind == "f" and S_arr.shape[0] > 0:
        # same checks as check_score_matrix(unit_interval=True) in two passes:
        # min/max propagate NaN, and [0, 1] excludes infinities
        lo, hi = S_arr.min(), S_arr.max()
        if np.isnan(lo) or np.isnan(hi):
            raise ValueError("S must not contain NaN or infinite values")
        if lo < 0.0 or hi > 1.0:
            raise ValueError(f"S must lie in [0, 1], got values in [{lo:.6g}, {hi:.6g}]")
        S_arr = S_arr.astype(np.float64, copy=False)
    else:
        S_arr = check_score_matrix(S_arr, "S", unit_interval=True)
    check_same_shape(Y, S_arr, "Y", "S")
    if is_binary_float(S_arr):
        return Y, S_arr.astype(np.int8), True
    return Y, S_arr, False


def is_binary_float(S: np.ndarray) -> bool:
    """True if every score is exactly 0 or 1 (checks a leading block first: soft
    scores are usually recognised without a full pass)."""
    head = S[:256]
    if not np.all((head == 0.0) | (head == 1.0)):
        return False
    return bool(np.all((S == 0.0) | (S == 1.0)))


def fast_label_matrix(Y: Any, name: str) -> np.ndarray:
    """0/1 label matrix, dense int8; fast path for integer dtypes."""
    arr = as_2d(Y, name)
    if sp.issparse(arr):
        return check_label_matrix(arr, name, allow_sparse=False)
    if arr.dtype.kind in "biu" and arr.shape[0] > 0:
        if arr.dtype.kind != "b":
            lo, hi = arr.min(), arr.max()
            if lo < 0 or hi > 1:
                bad = lo if lo < 0 else hi
                raise ValueError(f"{name} must be binary (0/1), found the value {bad!r}")
        return arr.astype(np.int8, copy=False)
    return check_label_matrix(arr, name, allow_sparse=False)


def reduce_losses(losses: np.ndarray, w: np.ndarray | None, per_instance: bool):
    """Per-instance losses, or their (weighted) mean."""
    if per_instance:
        return losses
    return float(losses.mean() if w is None else np.average(losses, weights=w))


def error_counts(Y: np.ndarray, P: np.ndarray) -> np.ndarray:
    """Number of wrong labels per row of two int8 0/1 matrices."""
    K = Y.shape[1]
    X = np.bitwise_xor(Y, P)
    if K < 127:  # einsum keeps int8 and is several times faster than sum(axis=1) on short rows
        return np.einsum("ij->i", X)
    return X.sum(axis=1, dtype=np.int64)


def errors(Y: np.ndarray, S: np.ndarray) -> np.ndarray:
    E = np.subtract(S, Y, dtype=np.float64)
    return np.abs(E, out=E)


def count_table(m: np.ndarray, table: np.ndarray, per_instance: bool, w: np.ndarray | None):
    """Losses of binary predictions from the error counts ``m`` and the (K+1, P) table."""
    m = m.astype(np.intp)
    if per_instance:
        return table[m]
    hist = np.bincount(m, weights=w, minlength=table.shape[0])
    return hist @ table / (m.size if w is None else w.sum())


def sparse_binary(Y: Any, S: Any) -> tuple[np.ndarray, int] | None:
    """Error counts per row of two sparse 0/1 matrices (no dense copy), or None when
    ``S`` is not a sparse 0/1 matrix (then the dense path validates it)."""
    if not (sp.issparse(Y) and sp.issparse(S)):
        return None
    Sc: Any = as_2d(S, "S")
    if Sc.data.size and not np.all((Sc.data == 0) | (Sc.data == 1)):
        return None  # soft scores: the dense path
    Yc = check_label_matrix(Y, "Y")
    Sc = check_label_matrix(Sc, "S")
    check_same_shape(Yc, Sc, "Y", "S")
    tp = np.asarray(Yc.multiply(Sc).sum(axis=1, dtype=np.int64)).ravel()
    ny = np.diff(Yc.indptr).astype(np.int64)
    ns = np.diff(Sc.indptr).astype(np.int64)
    return ny + ns - 2 * tp, Yc.shape[1]


def apply_count_table(
    Y: np.ndarray,
    S: np.ndarray,
    binary: bool,
    table: np.ndarray,
    weights: np.ndarray,
    per_instance: bool,
    sample_weight: np.ndarray | None = None,
) -> np.ndarray:
    """Evaluate several counting-measure losses at once.

    ``table`` (K+1, P): loss of m errors for each of P losses (binary lookup);
    ``weights`` (K, P): OWA weights, row 0 for the largest error (soft scores).
    One sort and one matrix product for the soft case; no sort for binary input.
    """
    n = Y.shape[0]
    if binary:
        m = error_counts(Y, S)
        if per_instance:
            return table[m.astype(np.intp)]
        if sample_weight is not None:  # weighted histogram of the error counts
            hist = np.bincount(m.astype(np.intp), weights=sample_weight, minlength=table.shape[0])
            return hist @ table / sample_weight.sum()
        hist = np.bincount(m.astype(np.intp), minlength=table.shape[0])
        return hist @ table / n
    E = errors(Y, S)
    E.sort(axis=1)  # ascending; weights reversed below
    Wr = weights[::-1]
    if per_instance:
        return np.clip(E @ Wr, 0.0, 1.0)
    if sample_weight is not None:
        return np.clip(sample_weight @ E / sample_weight.sum() @ Wr, 0.0, 1.0)
    return np.clip(E.mean(axis=0) @ Wr, 0.0, 1.0)
