"""Input validation shared by every public function of :mod:`mlcbook`.

Each public function validates its arguments once, at the boundary, and raises
:class:`TypeError` (wrong kind of object) or :class:`ValueError` (right kind,
wrong content) with a message that names the offending argument.

Two layers:

* ``check_*`` functions validate one value (a label or score matrix, an integer or a
  real number in a range, a flag, a name that becomes a file name);
* :func:`validate_params` declares, next to a public function, what each parameter
  may be (:class:`Real`, :class:`Int`, :class:`Flag`, :class:`OneOf`, :class:`Name`)
  and checks the call before the function body runs, as scikit-learn's
  ``validate_params`` does.

Matrices are canonicalised before their content is checked: a sparse matrix has its
duplicate entries summed (on a copy) before the 0/1 check, so a stored ``1 + 1`` is
seen as the 2 it means; sparse and dense input go through the same shape checks
(at least one row and one column).
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from numbers import Integral
from numbers import Real as _RealNumber
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
    "check_bool",
    "check_name",
    "as_2d",
    "validate_params",
    "Real",
    "Int",
    "Flag",
    "OneOf",
    "Name",
    "Seed",
    "MAX_MAGNITUDE",
]

#: Largest magnitude accepted for a real parameter.  Beyond it the arithmetic of the
#: measures overflows (e.g. ``beta**2 * count`` in an F-measure), so such a value is
#: refused as a mistake instead of giving inf or NaN.
MAX_MAGNITUDE = 1e100


def _check_nonempty(shape: tuple[int, ...], name: str) -> None:
    if shape[1] == 0:
        raise ValueError(f"{name} must have at least one label column, got shape {shape}")
    if shape[0] == 0:
        raise ValueError(f"{name} must have at least one row, got shape {shape}")


def as_2d(a: Any, name: str) -> np.ndarray | sp.csr_matrix:
    """Return ``a`` as a 2-D array (a 1-D vector becomes one row).

    Sparse input is converted to a canonical CSR matrix and kept sparse: duplicate
    entries are summed and indices sorted, on a copy (the caller's matrix is not
    modified).  Dense and sparse input must have at least one row and one column.
    """
    if sp.issparse(a):
        if a.ndim != 2:
            raise ValueError(f"{name} must be 2-D, got a sparse object with ndim={a.ndim}")
        _check_nonempty(a.shape, name)
        A = sp.csr_matrix(a)
        if A is a or not A.has_canonical_format:
            A = A.copy()
        A.sum_duplicates()  # a stored 1 + 1 is a 2, not a label
        return A
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
    _check_nonempty(arr.shape, name)
    return arr


def check_label_matrix(Y: Any, name: str = "Y", *, allow_sparse: bool = True):
    """Validate a 0/1 label matrix.

    Parameters
    ----------
    Y : array-like or scipy sparse matrix of shape (n_samples, n_labels) or (n_labels,)
        Binary labels; booleans are accepted.  A sparse matrix is canonicalised first
        (duplicate entries summed), so the check sees the values the matrix means.
    name : str
        Argument name used in error messages.
    allow_sparse : bool
        If False, sparse input is densified.

    Returns
    -------
    ndarray of int8, or scipy.sparse.csr_matrix of int8
        The validated matrix, 2-D.
    """
    allow_sparse = check_bool(allow_sparse, "allow_sparse")
    Y = as_2d(Y, name)
    if sp.issparse(Y):
        data = Y.data
        if data.dtype.kind not in "biuf":
            raise TypeError(f"{name} must hold 0/1 numbers, got dtype {data.dtype}")
        zero = data == 0
        ok = zero | (data == 1)
        if data.size and not ok.all():
            bad = data[~ok][0]
            raise ValueError(f"{name} must be binary (0/1), found the value {bad!r}")
        copied = data.dtype != np.int8
        Y = Y.astype(np.int8, copy=False)  # a copy unless int8 already
        if zero.any():  # stored zeros dropped, on a copy: every stored entry is a 1
            Y = Y if copied else Y.copy()
            Y.eliminate_zeros()
        return Y if allow_sparse else Y.toarray()
    if Y.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold 0/1 numbers, got dtype {Y.dtype}")
    ok = (Y == 0) | (Y == 1)
    if not ok.all():
        bad = Y[~ok].flat[0]
        raise ValueError(f"{name} must be binary (0/1), found the value {bad!r}")
    return Y.astype(np.int8, copy=False)


def check_score_matrix(
    S: Any, name: str = "S", *, unit_interval: bool = False, finite: bool = True
) -> np.ndarray:
    """Validate a real-valued score matrix (dense).

    Parameters
    ----------
    S : array-like of shape (n_samples, n_labels) or (n_labels,)
    name : str
        Argument name used in error messages.
    unit_interval : bool
        If True, every score must lie in [0, 1].
    finite : bool
        If False, NaN and infinities are not looked for here (a caller that reads
        every score anyway checks them on its pass).

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
    # a finite sum means no NaN or infinity (one pass, no temporary); else look closer
    with np.errstate(over="ignore", invalid="ignore"):  # huge finite scores overflow
        finite_sum = not finite or bool(np.isfinite(S.sum()))
    if not finite_sum and not np.isfinite(S).all():
        raise ValueError(f"{name} must not contain NaN or infinite values")
    if check_bool(unit_interval, "unit_interval") and (S.min() < 0.0 or S.max() > 1.0):
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
        rng = f"in [{low}, {high}]" if high is not None else f">= {low}"
        raise ValueError(f"{name} must be an integer {rng}, got {value}")
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
    """Validate a finite real number in an interval.

    Booleans are refused (``True`` is not the number 1 here), and so are values whose
    magnitude exceeds ``MAX_MAGNITUDE`` whatever the interval: such values
    overflow the arithmetic of the measures.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, _RealNumber):
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
    if abs(value) > MAX_MAGNITUDE:
        raise ValueError(
            f"{name} must be at most {MAX_MAGNITUDE:g} in magnitude (larger values "
            f"overflow the computation), got {value:g}"
        )
    return value


def check_bool(value: Any, name: str) -> bool:
    """Validate a flag: ``True`` or ``False`` (or NumPy's booleans), nothing truthy."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise TypeError(f"{name} must be True or False, got {value!r}")


_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*")


def check_name(value: Any, name: str, *, max_length: int = 128) -> str:
    """Validate a name that becomes (part of) a file name.

    Accepted: 1 to ``max_length`` characters from letters, digits and ``_ . + -``,
    not starting with a dot or a dash.  So no path separator, no ``..``, no empty,
    hidden or option-like name can make a file land outside its folder.
    """
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value).__name__}")
    if not value:
        raise ValueError(f"{name} must not be empty")
    if len(value) > max_length or not _NAME.fullmatch(value):
        raise ValueError(
            f"{name} must be a plain name of at most {max_length} letters, digits and "
            f"'_.+-' not starting with '.' or '-' (it becomes a file name), "
            f"got {value!r}"
        )
    return value


# ----------------------------------------------------------------- declarative checks
@dataclass(frozen=True)
class Real:
    """A finite real number in ``[low, high]`` (ends open when ``*_inclusive=False``).

    ``allow_inf=True`` also accepts ``+inf`` (e.g. the polynomial loss's limit).
    """

    low: float | None = None
    high: float | None = None
    low_inclusive: bool = True
    high_inclusive: bool = True
    allow_inf: bool = False
    allow_none: bool = False

    def __call__(self, value: Any, name: str) -> float | None:
        if value is None and self.allow_none:
            return None
        if (
            self.allow_inf
            and isinstance(value, _RealNumber)
            and not isinstance(value, (bool, np.bool_))
            and value == np.inf
        ):
            return float("inf")
        return check_real(
            value,
            name,
            low=self.low,
            high=self.high,
            low_inclusive=self.low_inclusive,
            high_inclusive=self.high_inclusive,
        )


@dataclass(frozen=True)
class Int:
    """An integer (not a bool, not a float such as ``2.0``) in ``[low, high]``."""

    low: int = 0
    high: int | None = None
    allow_none: bool = False

    def __call__(self, value: Any, name: str) -> int | None:
        if value is None and self.allow_none:
            return None
        return check_positive_int(value, name, low=self.low, high=self.high)


@dataclass(frozen=True)
class Flag:
    """``True`` or ``False`` (``None`` too when ``allow_none``)."""

    allow_none: bool = False

    def __call__(self, value: Any, name: str) -> bool | None:
        if value is None and self.allow_none:
            return None
        return check_bool(value, name)


@dataclass(frozen=True)
class OneOf:
    """One of a fixed set of strings."""

    options: tuple[str, ...]

    def __call__(self, value: Any, name: str) -> str:
        return check_average(value, self.options, name)


@dataclass(frozen=True)
class Name:
    """A plain name that becomes a file name (see :func:`check_name`)."""

    max_length: int = 128

    def __call__(self, value: Any, name: str) -> str:
        return check_name(value, name, max_length=self.max_length)


@dataclass(frozen=True)
class Seed:
    """A random seed: None, an integer in [0, 2**63), or a NumPy ``Generator`` /
    ``SeedSequence`` (what :func:`numpy.random.default_rng` accepts, minus the
    negative integers, floats and bools it would refuse or misread)."""

    def __call__(self, value: Any, name: str) -> Any:
        if value is None or isinstance(value, (np.random.Generator, np.random.SeedSequence)):
            return value
        return check_positive_int(value, name, low=0, high=2**63 - 1)


def validate_params(**specs: Callable[[Any, str], Any]) -> Callable:
    """Declare what each parameter of a public function may be; check every call.

    Each keyword names a parameter of the decorated function and gives its
    constraint (:class:`Real`, :class:`Int`, :class:`Flag`, :class:`OneOf`,
    :class:`Name`, or any callable ``(value, name) -> value`` raising
    TypeError/ValueError).  The checks run before the function body, in the order of
    the signature, and the function receives the checked values (e.g. ``float``).

    Examples
    --------
    >>> @validate_params(beta=Real(low=0, low_inclusive=False), squared=Flag())
    ... def f(x, beta=1.0, *, squared=False):
    ...     return beta
    >>> f(0, 2)
    2.0
    >>> f(0, squared="no")
    Traceback (most recent call last):
    ...
    TypeError: squared must be True or False, got 'no'
    """

    def decorate(func: Callable) -> Callable:
        sig = inspect.signature(func)
        unknown = set(specs) - set(sig.parameters)
        if unknown:
            raise TypeError(f"validate_params: {func.__name__} has no parameter {sorted(unknown)}")
        order = [p for p in sig.parameters if p in specs]

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            bound = sig.bind(*args, **kwargs)
            bound.apply_defaults()
            for p in order:
                bound.arguments[p] = specs[p](bound.arguments[p], p)
            return func(*bound.args, **bound.kwargs)

        wrapper.__validated_params__ = dict(specs)  # type: ignore[attr-defined]
        return wrapper

    return decorate
