"""Input validation shared by every public function of :mod:`mlcbook`.

Each public function validates its arguments once, at the boundary, and raises
:class:`TypeError` (wrong kind of object) or :class:`ValueError` (right kind,
wrong content) with a message that names the offending argument.
"""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any

import numpy as np
import scipy.sparse as sp

__all__ = [
    "check_label_matrix",
    "check_score_matrix",
    "check_same_shape",
    "check_average",
    "check_positive_int",
    "check_real",
    "as_2d",
]


def as_2d(a: Any, name: str) -> np.ndarray | sp.csr_matrix:
    """Return ``a`` as a 2-D array (a 1-D vector becomes one row).

    Sparse input is converted to CSR and kept sparse.
    """
    if sp.issparse(a):
        if a.ndim != 2:
            raise ValueError(f"{name} must be 2-D, got a sparse object with ndim={a.ndim}")
        return sp.csr_matrix(a)
    if isinstance(a, (str, bytes)) or a is None:
        raise TypeError(f"{name} must be an array-like of numbers, got {type(a).__name__}")
    try:
        arr = np.asarray(a)
    except Exception as exc:  # pragma: no cover - numpy raises many kinds
        raise TypeError(f"{name} must be an array-like of numbers: {exc}") from None
    if arr.dtype == object or arr.dtype.kind in "USV":
        raise TypeError(f"{name} must hold numbers, got dtype {arr.dtype}")
    if arr.ndim == 1:
        arr = arr[np.newaxis, :]
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 1-D or 2-D (n_samples, n_labels), got shape {arr.shape}")
    if arr.shape[1] == 0:
        raise ValueError(f"{name} must have at least one label column, got shape {arr.shape}")
    return arr


def check_label_matrix(Y: Any, name: str = "Y", *, allow_sparse: bool = True):
    """Validate a 0/1 label matrix.

    Parameters
    ----------
    Y : array-like or scipy sparse matrix of shape (n_samples, n_labels) or (n_labels,)
        Binary labels; booleans are accepted.
    name : str
        Argument name used in error messages.
    allow_sparse : bool
        If False, sparse input is densified.

    Returns
    -------
    ndarray of int8, or scipy.sparse.csr_matrix of int8
        The validated matrix, 2-D.
    """
    Y = as_2d(Y, name)
    if sp.issparse(Y):
        data = Y.data
        if data.dtype.kind not in "biuf":
            raise TypeError(f"{name} must hold 0/1 numbers, got dtype {data.dtype}")
        if data.size and not np.all((data == 0) | (data == 1)):
            bad = data[~((data == 0) | (data == 1))][0]
            raise ValueError(f"{name} must be binary (0/1), found the value {bad!r}")
        Y = Y.astype(np.int8)
        Y.eliminate_zeros()
        return Y if allow_sparse else Y.toarray()
    if Y.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold 0/1 numbers, got dtype {Y.dtype}")
    ok = (Y == 0) | (Y == 1)
    if not ok.all():
        bad = Y[~ok].flat[0]
        raise ValueError(f"{name} must be binary (0/1), found the value {bad!r}")
    if Y.shape[0] == 0:
        raise ValueError(f"{name} must have at least one row, got shape {Y.shape}")
    return Y.astype(np.int8, copy=False)


def check_score_matrix(S: Any, name: str = "S", *, unit_interval: bool = False) -> np.ndarray:
    """Validate a real-valued score matrix (dense).

    Parameters
    ----------
    S : array-like of shape (n_samples, n_labels) or (n_labels,)
    name : str
        Argument name used in error messages.
    unit_interval : bool
        If True, every score must lie in [0, 1].

    Returns
    -------
    ndarray of float64, 2-D
    """
    S = as_2d(S, name)
    if sp.issparse(S):
        S = S.toarray()
    if S.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold real numbers, got dtype {S.dtype}")
    S = S.astype(np.float64, copy=False)
    if S.shape[0] == 0:
        raise ValueError(f"{name} must have at least one row, got shape {S.shape}")
    if not np.isfinite(S).all():
        raise ValueError(f"{name} must not contain NaN or infinite values")
    if unit_interval and (S.min() < 0.0 or S.max() > 1.0):
        raise ValueError(
            f"{name} must lie in [0, 1], got values in [{S.min():.6g}, {S.max():.6g}]"
        )
    return S


def check_same_shape(a, b, name_a: str, name_b: str) -> None:
    """Raise ValueError unless ``a`` and ``b`` have the same shape."""
    if a.shape != b.shape:
        raise ValueError(
            f"{name_a} and {name_b} must have the same shape, got {a.shape} and {b.shape}"
        )


def check_average(average: Any, allowed: tuple[str, ...], name: str = "average") -> str:
    """Validate a string option such as ``average='micro'``."""
    if not isinstance(average, str):
        raise TypeError(f"{name} must be one of {allowed}, got {average!r}")
    if average not in allowed:
        raise ValueError(f"{name} must be one of {allowed}, got {average!r}")
    return average


def check_positive_int(value: Any, name: str, *, low: int = 1, high: int | None = None) -> int:
    """Validate an integer in ``[low, high]``."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if value < low or (high is not None and value > high):
        rng = f"[{low}, {high}]" if high is not None else f">= {low}"
        raise ValueError(f"{name} must be an integer in {rng}, got {value}")
    return value


def check_real(
    value: Any,
    name: str,
    *,
    low: float | None = None,
    high: float | None = None,
    low_inclusive: bool = True,
    high_inclusive: bool = True,
) -> float:
    """Validate a finite real number in an interval."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    value = float(value)
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    if low is not None and (value < low or (not low_inclusive and value == low)):
        op = ">=" if low_inclusive else ">"
        raise ValueError(f"{name} must be {op} {low}, got {value}")
    if high is not None and (value > high or (not high_inclusive and value == high)):
        op = "<=" if high_inclusive else "<"
        raise ValueError(f"{name} must be {op} {high}, got {value}")
    return value
