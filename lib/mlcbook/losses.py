"""Dependence-aware multi-label losses based on non-additive measures.

This module implements the loss family of Hüllermeier et al. (2022),
*A flexible class of dependence-aware multi-label loss functions*
(Machine Learning 111, sections 3–4).

Orientation (derived, not assumed)
----------------------------------
For a true label vector ``y`` and scores ``s`` in ``[0, 1]^K`` the per-label
*correctness* is ``u_i = 1 - |s_i - y_i|`` (eq. 7) and the loss is one minus the
discrete Choquet integral of ``u`` with respect to a capacity ``mu`` (eqs. 8, 14):

    loss = 1 - sum_i (u_(i) - u_(i-1)) * mu(A_(i)),   u_(1) <= ... <= u_(K),
    A_(i) = {labels at sorted positions i..K}.

``mu(A)`` is therefore the *reward for being right on all of A*: a binary
prediction that is right exactly on the set ``A`` has loss ``1 - mu(A)``.
For a counting measure ``mu(A) = v(|A|/K)`` this becomes the OWA form
(eqs. 15–16): ``loss = sum_i w_i * e_[i]`` with the errors ``e = |y - s|`` sorted
in *decreasing* order and ``w_i = v((K-i+1)/K) - v((K-i)/K)``; so ``w_1`` (the
increment of ``v`` at the top) multiplies the largest error.  A binary
prediction with ``m`` wrong labels out of ``K`` has loss ``1 - v((K-m)/K)``.

Representations of a capacity on ``K`` labels
---------------------------------------------
* a 1-D array of length ``2**K`` indexed by bitmask: entry ``A`` is ``mu`` of the
  set ``{i : A >> i & 1}`` (label ``i`` is bit ``i``);
* a mapping from subsets (frozensets, tuples, ... of label indices ``0..K-1``)
  to values; every non-empty subset must be present (the empty set may be
  omitted and defaults to 0);
* a callable ``mu(frozenset) -> float``, evaluated on all ``2**K`` subsets.

General capacities are enumerated, so ``K <= MAX_CAPACITY_LABELS``; the
counting-measure losses (OWA, polynomial, binomial) never enumerate subsets and
work for any ``K``.

Scores that are not probabilities
---------------------------------
The losses are defined on scores in ``[0, 1]`` (eq. 7).  Every loss takes

* ``threshold=t``: the scores are first turned into the binary prediction
  ``[s > t]`` (strictly above, as scikit-learn's ``predict`` of a linear model
  with ``t = 0`` on ``decision_function`` and MLkNN's MAP rule with
  ``t = 0.5`` on posteriors); any finite real scores are accepted;
* ``scores="decision"``: real-valued decision scores (log-odds), mapped to
  ``[0, 1]`` by the logistic function ``1 / (1 + exp(-s))`` before the soft
  loss is taken (ignored when ``threshold`` is given);

and ``sample_weight`` (instance weights of the mean, as in scikit-learn).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from numbers import Real
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.special import expit

from ._labelcounts import check_sample_weight
from ._validation import (
    Flag,
    as_2d,
    check_label_matrix,
    check_positive_int,
    check_real,
    check_same_shape,
    check_score_matrix,
    validate_params,
)
from ._validation import Real as RealIn

__all__ = [
    "MAX_CAPACITY_LABELS",
    "FAMILIES",
    "check_capacity",
    "moebius",
    "from_moebius",
    "choquet_integral",
    "choquet_integral_moebius",
    "choquet_loss",
    "choquet_loss_moebius",
    "counting_measure",
    "owa_weights",
    "owa_loss",
    "family_v",
    "error_count_losses",
    "polynomial_loss",
    "binomial_loss",
    "loss_profile",
    "hamming_capacity",
    "subset_capacity",
    "covering_capacity",
    "covering_loss",
    "popcount",
]

#: Largest number of labels for which a general capacity (2**K values) is enumerated.
MAX_CAPACITY_LABELS = 20

#: The one-parameter families of Sec. 4.3.
FAMILIES = ("binomial", "polynomial")

_TOL = 1e-9


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


def _check_n_labels_enumerable(K: int, what: str = "a capacity") -> None:
    if K > MAX_CAPACITY_LABELS:
        raise ValueError(
            f"K={K} labels is too many to enumerate the 2**{K} subsets of {what}; "
            f"the limit is MAX_CAPACITY_LABELS={MAX_CAPACITY_LABELS} "
            "(counting-measure losses such as owa_loss/binomial_loss/polynomial_loss "
            "have no such limit)"
        )


_SCORES = ("probability", "decision")


def _prepare(
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
    if not isinstance(scores, str) or scores not in _SCORES:
        raise ValueError(f"scores must be one of {_SCORES}, got {scores!r}")
    if threshold is not None or scores == "decision":
        t = None if threshold is None else check_real(threshold, "threshold")
        Y = _fast_label_matrix(Y, "Y")
        S_arr = check_score_matrix(S, "S")  # finite reals
        check_same_shape(Y, S_arr, "Y", "S")
        if t is not None:
            return Y, (S_arr > t).astype(np.int8), True
        S_arr = expit(S_arr)
        if _is_binary_float(S_arr):  # saturated: |s| > ~37
            return Y, S_arr.astype(np.int8), True
        return Y, S_arr, False
    Y = _fast_label_matrix(Y, "Y")
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
    if _is_binary_float(S_arr):
        return Y, S_arr.astype(np.int8), True
    return Y, S_arr, False


def _is_binary_float(S: np.ndarray) -> bool:
    """True if every score is exactly 0 or 1 (checks a leading block first: soft
    scores are usually recognised without a full pass)."""
    head = S[:256]
    if not np.all((head == 0.0) | (head == 1.0)):
        return False
    return bool(np.all((S == 0.0) | (S == 1.0)))


def _fast_label_matrix(Y: Any, name: str) -> np.ndarray:
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


def _check_sample_weight(sample_weight: Any, n: int) -> np.ndarray | None:
    return check_sample_weight(sample_weight, n)


def _reduce(losses: np.ndarray, w: np.ndarray | None, per_instance: bool):
    """Per-instance losses, or their (weighted) mean."""
    if per_instance:
        return losses
    return float(losses.mean() if w is None else np.average(losses, weights=w))


def _error_counts(Y: np.ndarray, P: np.ndarray) -> np.ndarray:
    """Number of wrong labels per row of two int8 0/1 matrices."""
    K = Y.shape[1]
    X = np.bitwise_xor(Y, P)
    if K < 127:  # einsum keeps int8 and is several times faster than sum(axis=1) on short rows
        return np.einsum("ij->i", X)
    return X.sum(axis=1, dtype=np.int64)


def _errors(Y: np.ndarray, S: np.ndarray) -> np.ndarray:
    E = np.subtract(S, Y, dtype=np.float64)
    return np.abs(E, out=E)


# -------------------------------------------------------------------------- capacities
def _subset_index(key: Any, K: int, name: str) -> int:
    try:
        items = list(key)
    except TypeError:
        raise TypeError(f"{name}: keys must be iterables of label indices, got {key!r}") from None
    idx = 0
    for i in items:
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= int(i) < K:
            raise ValueError(
                f"{name}: subset {key!r} holds {i!r}, not a label index in 0..{K - 1}"
            )
        idx |= 1 << int(i)
    return idx


def _capacity_array(mu: Any, K: int | None, name: str = "mu") -> np.ndarray:
    """Turn any supported capacity representation into an array of length 2**K."""
    if isinstance(mu, Mapping):
        if K is None:
            raise ValueError(f"{name}: K is needed to read a capacity given as a mapping")
        _check_n_labels_enumerable(K)
        arr = np.full(1 << K, np.nan)
        arr[0] = 0.0
        for key, val in mu.items():
            arr[_subset_index(key, K, name)] = check_real(val, f"{name}[{set(key)}]")
        if np.isnan(arr).any():
            missing = int(np.flatnonzero(np.isnan(arr))[0])
            subset = {i for i in range(K) if missing >> i & 1}
            raise ValueError(f"{name}: the mapping has no value for the subset {subset}")
        return arr
    if callable(mu):
        if K is None:
            raise ValueError(f"{name}: K is needed to evaluate a capacity given as a callable")
        _check_n_labels_enumerable(K)
        vals = np.empty(1 << K)
        for a in range(1 << K):
            vals[a] = check_real(mu(frozenset(i for i in range(K) if a >> i & 1)), f"{name}(A)")
        return vals
    if isinstance(mu, (str, bytes)) or mu is None:
        raise TypeError(
            f"{name} must be an array, a mapping or a callable, got {type(mu).__name__}"
        )
    arr = np.asarray(mu)
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold real numbers, got dtype {arr.dtype}")
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D (length 2**K), got shape {arr.shape}")
    n = arr.shape[0]
    if n < 2 or n & (n - 1):
        raise ValueError(f"{name} must have length 2**K for some K >= 1, got {n}")
    k_arr = n.bit_length() - 1
    if K is not None and k_arr != K:
        raise ValueError(f"{name} has length {n} = 2**{k_arr}, but there are K={K} labels")
    _check_n_labels_enumerable(k_arr)
    arr = arr.astype(np.float64)
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} must not contain NaN or infinite values")
    return arr


@validate_params(tol=RealIn(0, 1))
def check_capacity(
    mu: Any, K: int | None = None, *, name: str = "mu", tol: float = _TOL
) -> np.ndarray:
    """Validate a capacity (eq. 9) and return it as an array over bitmasks.

    Parameters
    ----------
    mu : array of length ``2**K``, mapping from subsets, or callable
        See the module docstring for the bitmask order.
    K : int, optional
        Number of labels; required for mappings and callables.
    name : str
        Argument name for messages.
    tol : float
        Slack allowed in the normalisation and monotonicity checks.

    Returns
    -------
    ndarray of shape (2**K,)

    Raises
    ------
    ValueError
        If ``mu(∅) != 0``, ``mu(L) != 1``, or ``mu(A) > mu(B)`` for some ``A ⊆ B``.
    """
    if K is not None:
        K = check_positive_int(K, "K")
    arr = _capacity_array(mu, K, name)
    K = arr.shape[0].bit_length() - 1
    if abs(arr[0]) > tol:
        raise ValueError(f"{name} is not normalised: mu(empty set) = {arr[0]:.6g}, must be 0")
    if abs(arr[-1] - 1.0) > tol:
        raise ValueError(
            f"{name} is not normalised: mu(all {K} labels) = {arr[-1]:.6g}, must be 1"
        )
    for i in range(K):
        v = arr.reshape(-1, 2, 1 << i)
        diff = v[:, 1, :] - v[:, 0, :]
        if diff.min() < -tol:
            j = np.unravel_index(int(np.argmin(diff)), diff.shape)
            a = (int(j[0]) << (i + 1)) | int(j[1])
            subset = {t for t in range(K) if a >> t & 1}
            raise ValueError(
                f"{name} is not monotone: mu({subset} + {{{i}}}) = {arr[a | (1 << i)]:.6g} "
                f"< mu({subset}) = {arr[a]:.6g}"
            )
    return arr


def moebius(mu: Any, K: int | None = None) -> np.ndarray:
    """Moebius transform of a capacity (eq. 11).

    ``m(A) = sum_{B ⊆ A} (-1)^{|A|-|B|} mu(B)``, computed by the fast subset
    transform in ``O(K 2**K)``.

    Parameters
    ----------
    mu : capacity (array over bitmasks, mapping, or callable); validated.
    K : int, optional
        Number of labels (required for mappings and callables).

    Returns
    -------
    ndarray of shape (2**K,)
    """
    m = check_capacity(mu, K).copy()
    K = m.shape[0].bit_length() - 1
    for i in range(K):
        v = m.reshape(-1, 2, 1 << i)
        v[:, 1, :] -= v[:, 0, :]
    return m


@validate_params(check=Flag())
def from_moebius(m: Any, *, check: bool = True) -> np.ndarray:
    """Capacity from its Moebius transform (eq. 10): ``mu(B) = sum_{A ⊆ B} m(A)``.

    Parameters
    ----------
    m : array of length ``2**K`` over bitmasks
    check : bool
        If True (default), verify that the result is a capacity (eq. 9).

    Returns
    -------
    ndarray of shape (2**K,)
    """
    mu = _capacity_array(m, None, "m").copy()
    K = mu.shape[0].bit_length() - 1
    for i in range(K):
        v = mu.reshape(-1, 2, 1 << i)
        v[:, 1, :] += v[:, 0, :]
    if check:
        check_capacity(mu, name="from_moebius(m)")
    return mu


def _sorted_masks(U: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sort each row ascending; return sorted values and the bitmasks of A_(i)."""
    order = np.argsort(U, axis=1, kind="stable")
    Us = np.take_along_axis(U, order, axis=1)
    bits = np.left_shift(np.int64(1), order.astype(np.int64))
    masks = np.cumsum(bits[:, ::-1], axis=1)[:, ::-1]  # disjoint bits: sum == OR
    return Us, masks


def _check_nonnegative(U: Any) -> np.ndarray:
    """The integrand of a Choquet integral: a finite, non-negative score matrix."""
    U = check_score_matrix(U, "U")
    if U.min() < 0:
        raise ValueError("U must be non-negative")
    return U


def choquet_integral(U: Any, mu: Any) -> np.ndarray:
    """Discrete Choquet integral of each row of ``U`` w.r.t. ``mu`` (Sec. 3.3).

    ``C_mu(u) = sum_i (u_(i) - u_(i-1)) mu(A_(i))`` with ``u`` sorted ascending,
    ``u_(0) = 0`` and ``A_(i)`` the labels at positions ``i..K``.

    Parameters
    ----------
    U : array-like of shape (n, K) or (K,), non-negative
    mu : capacity on K labels (validated)

    Returns
    -------
    ndarray of shape (n,)
    """
    U = _check_nonnegative(U)
    K = U.shape[1]
    _check_n_labels_enumerable(K)
    cap = check_capacity(mu, K)
    Us, masks = _sorted_masks(U)
    inc = np.diff(Us, axis=1, prepend=0.0)
    return np.einsum("ij,ij->i", inc, cap[masks])


def choquet_integral_moebius(U: Any, m: Any) -> np.ndarray:
    """Choquet integral in Moebius form (eq. 13): ``sum_T m(T) min_{i in T} u_i``.

    A reference implementation, ``O(n 2**K)``; ``m`` must be the Moebius
    transform of a capacity (validated through :func:`from_moebius`).

    Returns
    -------
    ndarray of shape (n,)
    """
    U = _check_nonnegative(U)
    n, K = U.shape
    _check_n_labels_enumerable(K, "a Moebius transform")
    m_arr = _capacity_array(m, K, "m")
    from_moebius(m_arr)  # validates that m is the transform of a capacity
    out = np.empty(n)
    step = max(1, (1 << 22) >> K)  # bound memory: step * 2**K doubles
    for start in range(0, n, step):
        u = U[start : start + step]
        mins = np.empty((u.shape[0], 1 << K))
        mins[:, 0] = 0.0  # the empty set carries m(∅) = 0
        for i in range(K):
            lo = 1 << i
            mins[:, lo : 2 * lo] = np.minimum(mins[:, :lo], u[:, i : i + 1])
            mins[:, lo] = u[:, i]
        out[start : start + step] = mins @ m_arr
    return out


@validate_params(per_instance=Flag())
def choquet_loss(
    Y: Any,
    S: Any,
    mu: Any,
    *,
    per_instance: bool = False,
    sample_weight: Any = None,
    scores: str = "probability",
    threshold: float | None = None,
) -> float | np.ndarray:
    """Choquet-integral loss (eq. 14): ``1 - C_mu(u)``, ``u_i = 1 - |s_i - y_i|``.

    Parameters
    ----------
    Y : array-like of shape (n, K) or (K,)
        True labels in {0, 1}.
    S : array-like of the same shape
        Scores in [0, 1] or binary predictions.
    mu : capacity on K labels
        Array over bitmasks (length ``2**K``), mapping from subsets, or callable
        on frozensets; must be normalised and monotone (eq. 9).
    per_instance : bool
        Return the loss of every row instead of the mean.
    sample_weight : array-like of shape (n,), optional
        Instance weights of the mean.
    scores : {"probability", "decision"}, default "probability"
        ``"decision"``: ``S`` holds real decision scores, mapped to [0, 1] by
        the logistic function (module docstring).
    threshold : float, optional
        Turn ``S`` into the binary prediction ``[S > threshold]`` first; ``S``
        may then hold any finite reals.

    Returns
    -------
    float or ndarray of shape (n,)
    """
    Y, S, binary = _prepare(Y, S, scores, threshold)
    w = _check_sample_weight(sample_weight, Y.shape[0])
    K = Y.shape[1]
    _check_n_labels_enumerable(K)
    cap = check_capacity(mu, K)
    if binary:
        # right exactly on the set A  =>  loss = 1 - mu(A)
        weights = np.left_shift(np.int64(1), np.arange(K, dtype=np.int64))
        right = (1 - np.bitwise_xor(Y, S)).astype(np.int64) @ weights
        losses = 1.0 - cap[right]
    else:
        U = 1.0 - _errors(Y, S)
        Us, masks = _sorted_masks(U)
        inc = np.diff(Us, axis=1, prepend=0.0)
        losses = 1.0 - np.einsum("ij,ij->i", inc, cap[masks])
    losses = np.clip(losses, 0.0, 1.0)
    return _reduce(losses, w, per_instance)


@validate_params(per_instance=Flag())
def choquet_loss_moebius(
    Y: Any,
    S: Any,
    m: Any,
    *,
    per_instance: bool = False,
    sample_weight: Any = None,
    scores: str = "probability",
    threshold: float | None = None,
) -> float | np.ndarray:
    """The loss of eq. 14 computed from the Moebius form (eq. 13).

    ``1 - sum_T m(T) min_{i in T} u_i``; equal to :func:`choquet_loss` with
    ``mu = from_moebius(m)``.  Reference implementation (``O(n 2**K)``).
    The keyword arguments are those of :func:`choquet_loss`.
    """
    Y, S, _ = _prepare(Y, S, scores, threshold)
    w = _check_sample_weight(sample_weight, Y.shape[0])
    losses = 1.0 - choquet_integral_moebius(1.0 - _errors(Y, S), m)
    losses = np.clip(losses, 0.0, 1.0)
    return _reduce(losses, w, per_instance)


# --------------------------------------------------------------------- counting measures
def _v_values(v: Any, K: int, name: str = "v") -> np.ndarray:
    """Values ``v(j/K)``, j = 0..K, validated: v(0)=0, v(1)=1, non-decreasing."""
    if callable(v):
        vals = np.array([check_real(v(j / K), f"{name}({j}/{K})") for j in range(K + 1)])
    else:
        if isinstance(v, (str, bytes)) or v is None:
            raise TypeError(
                f"{name} must be a callable or an array of K+1 values, got {type(v).__name__}"
            )
        vals = np.asarray(v)
        if vals.dtype.kind not in "biuf":
            raise TypeError(f"{name} must hold real numbers, got dtype {vals.dtype}")
        vals = vals.astype(np.float64)
        if vals.shape != (K + 1,):
            raise ValueError(
                f"{name} must hold the K+1 = {K + 1} values v(0/K)..v(K/K), got shape {vals.shape}"
            )
        if not np.isfinite(vals).all():
            raise ValueError(f"{name} must not contain NaN or infinite values")
    if abs(vals[0]) > _TOL or abs(vals[-1] - 1.0) > _TOL:
        raise ValueError(
            f"{name} must satisfy v(0) = 0 and v(1) = 1, got {vals[0]:.6g} and {vals[-1]:.6g}"
        )
    if np.any(np.diff(vals) < -_TOL):
        j = int(np.argmax(np.diff(vals) < -_TOL))
        raise ValueError(f"{name} must be non-decreasing: v({j + 1}/{K}) < v({j}/{K})")
    vals[0], vals[-1] = 0.0, 1.0
    return vals


def counting_measure(v: Callable[[float], float] | Sequence[float], K: int) -> np.ndarray:
    """Counting measure ``mu(A) = v(|A|/K)`` as an array over bitmasks (Sec. 4.2).

    Parameters
    ----------
    v : callable on [0, 1] or array of the K+1 values ``v(0), v(1/K), ..., v(1)``
        Non-decreasing with ``v(0) = 0`` and ``v(1) = 1``.
    K : int
        Number of labels, at most :data:`MAX_CAPACITY_LABELS`.

    Returns
    -------
    ndarray of shape (2**K,)
    """
    K = check_positive_int(K, "K")
    _check_n_labels_enumerable(K, "a counting measure")
    vals = _v_values(v, K)
    return vals[popcount(np.arange(1 << K))]


def owa_weights(v: Callable[[float], float] | Sequence[float], K: int) -> np.ndarray:
    """OWA weights of a counting measure (eq. 15).

    ``w_i = v((K-i+1)/K) - v((K-i)/K)``, i = 1..K.  In the loss (eq. 16),
    ``w_1`` multiplies the *largest* error and ``w_K`` the smallest.

    Returns
    -------
    ndarray of shape (K,), non-negative, summing to 1
    """
    K = check_positive_int(K, "K")
    vals = _v_values(v, K)
    return np.diff(vals)[::-1].copy()


def _check_weights(w: Any, K: int) -> np.ndarray:
    if isinstance(w, (str, bytes)) or w is None:
        raise TypeError(f"w must be an array of K weights, got {type(w).__name__}")
    w = np.asarray(w)
    if w.dtype.kind not in "biuf":
        raise TypeError(f"w must hold real numbers, got dtype {w.dtype}")
    w = w.astype(np.float64)
    if w.shape != (K,):
        raise ValueError(f"w must have shape ({K},) for K={K} labels, got {w.shape}")
    if not np.isfinite(w).all():
        raise ValueError("w must not contain NaN or infinite values")
    if w.min() < -_TOL:
        raise ValueError(f"w must be non-negative, got min {w.min():.6g}")
    if abs(w.sum() - 1.0) > 1e-6:
        raise ValueError(f"w must sum to 1, got {w.sum():.6g}")
    return np.clip(w, 0.0, None)


@validate_params(per_instance=Flag())
def owa_loss(
    Y: Any,
    S: Any,
    w: Any,
    *,
    per_instance: bool = False,
    sample_weight: Any = None,
    scores: str = "probability",
    threshold: float | None = None,
) -> float | np.ndarray:
    """OWA loss (eq. 16): ``sum_i w_i e_[i]`` with errors sorted decreasingly.

    Equal to :func:`choquet_loss` with the counting measure whose weights are
    ``w`` (:func:`owa_weights`).  Binary predictions are evaluated by looking up
    the number of errors ``m``: the loss is ``w_1 + ... + w_m``.

    Parameters
    ----------
    Y, S : as in :func:`choquet_loss`
    w : array of shape (K,)
        Non-negative weights summing to 1; ``w[0]`` goes with the largest error.
    per_instance : bool
        Return the loss of every row instead of the mean.
    sample_weight : array-like of shape (n,), optional
        Instance weights of the mean.
    scores : {"probability", "decision"}, default "probability"
        ``"decision"``: ``S`` holds real decision scores, mapped to [0, 1] by
        the logistic function (module docstring).
    threshold : float, optional
        Turn ``S`` into the binary prediction ``[S > threshold]`` first; ``S``
        may then hold any finite reals.
    """
    sparse = _sparse_binary(Y, S) if threshold is None and scores == "probability" else None
    if sparse is not None:  # sparse 0/1 input stays sparse: only the error counts
        m, K = sparse
        sw = _check_sample_weight(sample_weight, m.size)
        table = _owa_table(_check_weights(w, K))
        out = _count_table(m, table[:, None], per_instance, sw)
        return out[..., 0] if per_instance else float(out[0])
    Y, S, binary = _prepare(Y, S, scores, threshold)
    sw = _check_sample_weight(sample_weight, Y.shape[0])
    K = Y.shape[1]
    w = _check_weights(w, K)
    W = _owa_table(w)[:, None]
    out = _apply_count_table(Y, S, binary, W, w[:, None], per_instance, sw)
    return out[..., 0] if per_instance else float(out[0])


def _owa_table(w: np.ndarray) -> np.ndarray:
    """Loss of a binary prediction with m = 0..K errors: the m largest weights' sum."""
    table = np.concatenate([[0.0], np.cumsum(w)])
    table[-1] = 1.0
    return table


# ------------------------------------------------------------------ parametric families
def _check_family_param(family: Any, param: Any, K: int) -> tuple[str, float | int]:
    if not isinstance(family, str):
        raise TypeError(f"family must be one of {FAMILIES}, got {family!r}")
    if family not in FAMILIES:
        raise ValueError(f"family must be one of {FAMILIES}, got {family!r}")
    if family == "binomial":
        return family, check_positive_int(param, "k", low=1, high=K)
    if isinstance(param, Real) and not isinstance(param, bool) and param == math.inf:
        return family, math.inf
    return family, check_real(param, "alpha", low=1.0)


def family_v(family: str, param: float, K: int) -> np.ndarray:
    """Values ``v(j/K)``, j = 0..K, of the polynomial (eq. 17) or binomial (eq. 18) family.

    ``polynomial``: ``v(x) = x**alpha`` (``alpha >= 1``; ``alpha = inf`` gives
    the subset 0/1 limit).  ``binomial``: ``v(j/K) = C(j, k) / C(K, k)``,
    ``k in 1..K``.
    """
    K = check_positive_int(K, "K")
    family, param = _check_family_param(family, param, K)
    j = np.arange(K + 1)
    if family == "binomial":
        vals = _binomial_v(K, int(param))
    elif param == math.inf:
        vals = (j == K).astype(np.float64)
    else:
        vals = (j / K) ** float(param)
    vals[0], vals[-1] = 0.0, 1.0
    return vals


#: Up to this many labels the binomial weights C(j, k)/C(K, k) are computed from exact
#: integers (each correctly rounded); above, by a product recurrence in floating point.
_EXACT_BINOMIAL_K = 256


def _binomial_v(K: int, k: int) -> np.ndarray:
    """``C(j, k) / C(K, k)`` for j = 0..K.

    Exact integers cost O(K) big-number operations of O(K) digits per ``k``, so a
    whole profile (k = 1..K) grows as K**3 (5 s at K = 1000).  Above
    :data:`_EXACT_BINOMIAL_K` the ratios come from ``v(K) = 1`` and
    ``v(j - 1) = v(j) (j - k) / j``, one reversed cumulative product: O(K) per ``k``,
    relative error at most about ``2 K`` units of the last place (each factor is
    correctly rounded, a product of ``m`` of them is off by at most ``m`` ulps;
    ``tests/mlcbook/test_losses.py`` checks it against the exact value).
    """
    if K <= _EXACT_BINOMIAL_K:
        den = math.comb(K, k)
        return np.array([math.comb(t, k) / den for t in range(K + 1)])
    vals = np.zeros(K + 1)
    t = np.arange(k + 1, K + 1, dtype=np.float64)
    vals[k:K] = np.cumprod(((t - k) / t)[::-1])[::-1]
    vals[K] = 1.0
    return vals


def _binomial_binary(
    m: np.ndarray,
    params: Iterable[Any],
    K: int,
    per_instance: bool,
    w: np.ndarray | None,
) -> np.ndarray:
    """Binomial losses of binary predictions with ``m`` errors per row, for many ``k``,
    in O(d K) for d distinct error counts (d <= min(n, K + 1)): no (K + 1, P) table.

    With ``m`` errors the loss is ``1 - C(K - m, k) / C(K, k)`` and the ratio is
    ``prod_{s < k} (K - m - s) / (K - s)``: one cumulative product over ``k`` per
    distinct ``m`` (relative error at most about ``k`` ulps).
    """
    if isinstance(params, (str, bytes)) or params is None:
        raise TypeError(f"params must be a sequence of parameters, got {params!r}")
    plist = [
        p.item() if isinstance(p, np.generic) else p
        for p in np.atleast_1d(np.asarray(params, dtype=object))
    ]
    if not plist:
        raise ValueError("params must not be empty")
    ks = np.array([_check_family_param("binomial", p, K)[1] for p in plist], dtype=np.intp)
    ms, inverse = np.unique(m.astype(np.intp), return_inverse=True)
    s = np.arange(K, dtype=np.float64)
    factors = np.clip((K - ms[:, None] - s) / (K - s), 0.0, None)  # (d, K)
    ratio = np.cumprod(factors, axis=1)[:, ks - 1]  # C(K-m, k)/C(K, k), shape (d, P)
    rows = 1.0 - ratio
    rows[ms == 0] = 0.0
    rows[ms == K] = 1.0
    if per_instance:
        return rows[inverse]
    weight = np.bincount(inverse, weights=w, minlength=ms.size)
    return weight @ rows / (m.size if w is None else w.sum())


def _count_table(m: np.ndarray, table: np.ndarray, per_instance: bool, w: np.ndarray | None):
    """Losses of binary predictions from the error counts ``m`` and the (K+1, P) table."""
    m = m.astype(np.intp)
    if per_instance:
        return table[m]
    hist = np.bincount(m, weights=w, minlength=table.shape[0])
    return hist @ table / (m.size if w is None else w.sum())


def _sparse_binary(Y: Any, S: Any) -> tuple[np.ndarray, int] | None:
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


def error_count_losses(family: str, param: float, K: int) -> np.ndarray:
    """Loss of a binary prediction with ``m`` wrong labels out of ``K``, for m = 0..K.

    For a counting measure the loss of a binary prediction depends only on the
    number of errors: ``L[m] = 1 - v((K - m)/K)`` (the sum of the ``m`` weights
    attached to the largest errors, Sec. 4.2).

    Parameters
    ----------
    family : {'binomial', 'polynomial'}
    param : int or float
        ``k`` in 1..K for the binomial family, ``alpha >= 1`` (or ``inf``) for
        the polynomial family.
    K : int
        Number of labels.

    Returns
    -------
    ndarray of shape (K + 1,)
        ``L[0] = 0``, ``L[K] = 1``, non-decreasing.

    Examples
    --------
    >>> error_count_losses("binomial", 1, 4)   # Hamming
    array([0.  , 0.25, 0.5 , 0.75, 1.  ])
    >>> error_count_losses("binomial", 4, 4)   # subset 0/1
    array([0., 1., 1., 1., 1.])
    """
    vals = family_v(family, param, K)
    L = 1.0 - vals[::-1]
    L[0], L[-1] = 0.0, 1.0
    return L


def _apply_count_table(
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
        m = _error_counts(Y, S)
        if per_instance:
            return table[m.astype(np.intp)]
        if sample_weight is not None:  # weighted histogram of the error counts
            hist = np.bincount(m.astype(np.intp), weights=sample_weight, minlength=table.shape[0])
            return hist @ table / sample_weight.sum()
        hist = np.bincount(m.astype(np.intp), minlength=table.shape[0])
        return hist @ table / n
    E = _errors(Y, S)
    E.sort(axis=1)  # ascending; weights reversed below
    Wr = weights[::-1]
    if per_instance:
        return np.clip(E @ Wr, 0.0, 1.0)
    if sample_weight is not None:
        return np.clip(sample_weight @ E / sample_weight.sum() @ Wr, 0.0, 1.0)
    return np.clip(E.mean(axis=0) @ Wr, 0.0, 1.0)


def _family_values(family: str, params: Iterable[Any], K: int) -> np.ndarray:
    """``v(j/K)`` for j = 0..K (rows) and every parameter (columns)."""
    if isinstance(params, (str, bytes)) or params is None:
        raise TypeError(f"params must be a sequence of parameters, got {params!r}")
    try:
        plist = list(np.atleast_1d(np.asarray(params, dtype=object)))
    except Exception:  # pragma: no cover
        raise TypeError(f"params must be a sequence of parameters, got {params!r}") from None
    if not plist:
        raise ValueError("params must not be empty")
    plist = [p.item() if isinstance(p, np.generic) else p for p in plist]
    V = np.empty((K + 1, len(plist)))  # (K+1, P)
    for i, p in enumerate(plist):
        V[:, i] = family_v(family, p, K)
    return V


@validate_params(per_instance=Flag())
def loss_profile(
    Y: Any,
    S: Any,
    family: str,
    params: Iterable[Any],
    *,
    per_instance: bool = False,
    sample_weight: Any = None,
    scores: str = "probability",
    threshold: float | None = None,
) -> np.ndarray:
    """Mean loss for every parameter of a family, in one pass (Sec. 4.3–4.4).

    Binary predictions: one count of errors per row, one histogram, one small
    matrix product (no sort).  Soft scores: one row-wise sort of the errors and
    one matrix product with the ``(K, P)`` weight matrix.

    Parameters
    ----------
    Y : array-like of shape (n, K) or (K,), 0/1
    S : array-like of the same shape, scores in [0, 1] or 0/1 predictions
    family : {'binomial', 'polynomial'}
    params : sequence
        ``k`` values (1..K) or ``alpha`` values (>= 1, ``inf`` allowed).
    per_instance : bool
        Return an ``(n, P)`` array instead of the ``(P,)`` means.
    sample_weight : array-like of shape (n,), optional
        Instance weights of the mean.
    scores : {"probability", "decision"}, default "probability"
        ``"decision"``: ``S`` holds real decision scores, mapped to [0, 1] by
        the logistic function (module docstring).
    threshold : float, optional
        Turn ``S`` into the binary prediction ``[S > threshold]`` first; ``S``
        may then hold any finite reals.

    Returns
    -------
    ndarray of shape (P,) or (n, P)

    Examples
    --------
    >>> import numpy as np
    >>> Y = np.array([[1, 1, 1], [0, 0, 0]]); P = np.array([[1, 0, 1], [0, 0, 0]])
    >>> loss_profile(Y, P, "binomial", [1, 2, 3]).round(4)
    array([0.1667, 0.3333, 0.5   ])
    """
    sparse = _sparse_binary(Y, S) if threshold is None and scores == "probability" else None
    if sparse is not None:  # sparse 0/1 input stays sparse: only the error counts
        m, K = sparse
        binary = True
    else:
        Y, S, binary = _prepare(Y, S, scores, threshold)
        K = Y.shape[1]
        m = _error_counts(Y, S) if binary else np.empty(0)
    w = _check_sample_weight(sample_weight, m.size if sparse is not None else Y.shape[0])
    if binary and family == "binomial" and K > _EXACT_BINOMIAL_K:
        return _binomial_binary(m, params, K, per_instance, w)
    V = _family_values(family, params, K)
    if binary:  # the weights are not needed: skip a (K, P) array
        return _count_table(m, 1.0 - V[::-1], per_instance, w)
    return _apply_count_table(
        Y, S, False, 1.0 - V[::-1], np.diff(V, axis=0)[::-1], per_instance, w
    )


@validate_params(per_instance=Flag())
def polynomial_loss(
    Y: Any,
    S: Any,
    alpha: float,
    *,
    per_instance: bool = False,
    sample_weight: Any = None,
    scores: str = "probability",
    threshold: float | None = None,
) -> float | np.ndarray:
    """Polynomial loss: OWA loss with ``v(x) = x**alpha``, ``alpha >= 1`` (eq. 17).

    ``alpha = 1`` is the (generalised) Hamming loss; ``alpha -> inf`` tends to
    the subset 0/1 loss (``alpha = inf`` is accepted and gives it exactly).  For
    binary predictions with ``m`` of ``K`` labels wrong it is
    ``1 - ((K - m) / K) ** alpha``; :func:`loss_profile` computes several ``alpha``
    at once.

    Parameters
    ----------
    Y : array-like of shape (n, K) or (K,), 0/1
        True labels.
    S : array-like of the same shape
        Scores in [0, 1] or 0/1 predictions.
    alpha : float
        Exponent, ``alpha >= 1`` (``inf`` allowed).
    per_instance : bool, default False
        Return the loss of every row, shape ``(n,)``, instead of their mean.
    sample_weight : array-like of shape (n,), optional
        Instance weights of the mean.
    scores : {"probability", "decision"}, default "probability"
        ``"decision"``: ``S`` holds real decision scores, mapped to [0, 1] by the
        logistic function (module docstring).
    threshold : float, optional
        Turn ``S`` into the binary prediction ``[S > threshold]`` first; ``S`` may then
        hold any finite reals.

    Returns
    -------
    float or ndarray of shape (n,)
        The mean loss, or the loss per row with ``per_instance=True``; in [0, 1].

    Examples
    --------
    >>> Y, P = [1, 1, 1, 0], [1, 0, 1, 0]  # one wrong label of four
    >>> polynomial_loss(Y, P, 1), polynomial_loss(Y, P, 2), polynomial_loss(Y, P, float("inf"))
    (0.25, 0.4375, 1.0)
    """
    out = loss_profile(
        Y,
        S,
        "polynomial",
        [alpha],
        per_instance=per_instance,
        sample_weight=sample_weight,
        scores=scores,
        threshold=threshold,
    )
    return out[:, 0] if per_instance else float(out[0])


@validate_params(per_instance=Flag())
def binomial_loss(
    Y: Any,
    S: Any,
    k: int,
    *,
    per_instance: bool = False,
    sample_weight: Any = None,
    scores: str = "probability",
    threshold: float | None = None,
) -> float | np.ndarray:
    """Binomial loss: counting measure with ``v(j/K) = C(j, k)/C(K, k)`` (eq. 18).

    ``k = 1`` is the (generalised) Hamming loss, ``k = K`` the subset 0/1 loss.
    For binary predictions it is the fraction of the ``C(K, k)`` label
    ``k``-subsets that are not predicted entirely correctly: with ``m`` wrong labels,
    ``1 - C(K - m, k) / C(K, k)``.  For scores it is the OWA loss (eqs. 15–16) of the
    absolute errors with these weights; :func:`loss_profile` computes several ``k``
    at once.

    Parameters
    ----------
    Y : array-like of shape (n, K) or (K,), 0/1
        True labels.
    S : array-like of the same shape
        Scores in [0, 1] or 0/1 predictions.
    k : int
        Size of the label subsets, ``1 <= k <= K``.
    per_instance : bool, default False
        Return the loss of every row, shape ``(n,)``, instead of their mean.
    sample_weight : array-like of shape (n,), optional
        Instance weights of the mean.
    scores : {"probability", "decision"}, default "probability"
        ``"decision"``: ``S`` holds real decision scores, mapped to [0, 1] by the
        logistic function (module docstring).
    threshold : float, optional
        Turn ``S`` into the binary prediction ``[S > threshold]`` first; ``S`` may then
        hold any finite reals.

    Returns
    -------
    float or ndarray of shape (n,)
        The mean loss, or the loss per row with ``per_instance=True``; in [0, 1].

    Examples
    --------
    One wrong label of ``K = 4``: a quarter of the labels (``k = 1``), half of the
    six label pairs (``1 - C(3, 2) / C(4, 2)``), the whole vector (``k = K``); the
    second instance is right, so the mean halves.

    >>> import numpy as np
    >>> Y = np.array([[1, 1, 1, 0], [0, 1, 0, 0]])
    >>> P = np.array([[1, 0, 1, 0], [0, 1, 0, 0]])
    >>> [binomial_loss(Y, P, k, per_instance=True)[0] for k in (1, 2, 4)]
    [np.float64(0.25), np.float64(0.5), np.float64(1.0)]
    >>> binomial_loss(Y, P, 2)
    0.25

    Scores: the errors 0.8 and 0.1, largest first, weigh
    ``v(4/4) - v(3/4) = 1/2`` and ``v(3/4) - v(2/4) = 1/3``.

    >>> round(binomial_loss([1, 1, 1, 0], [0.9, 0.2, 1.0, 0.0], 2), 4)  # 0.4 + 0.1/3
    0.4333
    """
    out = loss_profile(
        Y,
        S,
        "binomial",
        [k],
        per_instance=per_instance,
        sample_weight=sample_weight,
        scores=scores,
        threshold=threshold,
    )
    return out[:, 0] if per_instance else float(out[0])


# ------------------------------------------------------------------------ special cases
def hamming_capacity(K: int) -> np.ndarray:
    """Additive capacity ``mu(A) = |A|/K``: its loss is the Hamming loss (Sec. 4.1)."""
    K = check_positive_int(K, "K")
    return counting_measure((np.arange(K + 1) / K).tolist(), K)


def subset_capacity(K: int) -> np.ndarray:
    """Capacity that is 1 on the full set only: its loss is the subset 0/1 loss (Sec. 4.1)."""
    K = check_positive_int(K, "K")
    _check_n_labels_enumerable(K)
    mu = np.zeros(1 << K)
    mu[-1] = 1.0
    return mu


def _check_covering(covering: Any, K: int) -> list[int]:
    if isinstance(covering, (str, bytes)) or covering is None:
        raise TypeError("covering must be a collection of label subsets")
    try:
        sets = list(covering)
    except TypeError:
        raise TypeError("covering must be a collection of label subsets") from None
    if not sets:
        raise ValueError("covering must hold at least one label subset")
    masks = [_subset_index(T, K, "covering") for T in sets]
    if any(mk == 0 for mk in masks):
        raise ValueError("covering must not contain the empty set")
    return masks


def covering_capacity(covering: Iterable[Iterable[int]], K: int) -> np.ndarray:
    """Capacity whose Moebius mass is spread evenly over the sets of a covering.

    ``m(T) = 1/r`` for each of the ``r`` sets ``T`` (repeats add up).  By the
    Moebius form (eq. 13) its Choquet loss is the mean over ``T`` of
    ``max_{i in T} |y_i - s_i|``, i.e. the covering error of Amit et al. (2007)
    (a sum of subset 0/1 losses on the sets of the covering) divided by ``r``.
    """
    K = check_positive_int(K, "K")
    _check_n_labels_enumerable(K)
    masks = _check_covering(covering, K)
    m = np.zeros(1 << K)
    for mk in masks:
        m[mk] += 1.0 / len(masks)
    return from_moebius(m)


@validate_params(per_instance=Flag())
def covering_loss(
    Y: Any,
    S: Any,
    covering: Iterable[Iterable[int]],
    *,
    per_instance: bool = False,
    sample_weight: Any = None,
    scores: str = "probability",
    threshold: float | None = None,
) -> float | np.ndarray:
    """Normalised covering error: mean over the sets ``T`` of ``max_{i in T} |y_i - s_i|``.

    For binary predictions this is the fraction of the covering's label sets
    that are not predicted entirely correctly (Amit et al. 2007, divided by the
    number of sets); it equals :func:`choquet_loss` with
    :func:`covering_capacity` (Sec. 4.1).  The keyword arguments are those of
    :func:`choquet_loss`.
    """
    Y, S, _ = _prepare(Y, S, scores, threshold)
    w = _check_sample_weight(sample_weight, Y.shape[0])
    K = Y.shape[1]
    masks = _check_covering(covering, K)
    E = _errors(Y, S)
    cols = [np.array([i for i in range(K) if mk >> i & 1]) for mk in masks]
    losses = np.mean([E[:, c].max(axis=1) for c in cols], axis=0)
    return _reduce(losses, w, per_instance)
