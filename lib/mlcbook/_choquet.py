"""Capacities and Choquet integrals of :mod:`mlcbook.losses`: general capacities (and
their Moebius transforms), the Choquet loss, the counting measures and OWA losses they
reduce to for symmetric capacities, and the special cases (Hamming, subset 0/1,
coverings of the labels).  Public through :mod:`mlcbook.losses`, which documents them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from ._labelcounts import check_sample_weight
from ._loss_core import (
    TOL,
    apply_count_table,
    check_n_labels_enumerable,
    count_table,
    errors,
    popcount,
    prepare,
    reduce_losses,
    sparse_binary,
)
from ._validation import (
    Flag,
    check_positive_int,
    check_real,
    check_score_matrix,
    validate_params,
)
from ._validation import Real as RealIn


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


def capacity_array(mu: Any, K: int | None, name: str = "mu") -> np.ndarray:
    """Turn any supported capacity representation into an array of length 2**K."""
    if isinstance(mu, Mapping):
        if K is None:
            raise ValueError(f"{name}: K is needed to read a capacity given as a mapping")
        check_n_labels_enumerable(K)
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
        check_n_labels_enumerable(K)
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
    check_n_labels_enumerable(k_arr)
    arr = arr.astype(np.float64)
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} must not contain NaN or infinite values")
    return arr


@validate_params(tol=RealIn(0, 1))
def check_capacity(
    mu: Any, K: int | None = None, *, name: str = "mu", tol: float = TOL
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
    arr = capacity_array(mu, K, name)
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
    mu = capacity_array(m, None, "m").copy()
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


def check_nonnegative(U: Any) -> np.ndarray:
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
    U = check_nonnegative(U)
    K = U.shape[1]
    check_n_labels_enumerable(K)
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
    U = check_nonnegative(U)
    n, K = U.shape
    check_n_labels_enumerable(K, "a Moebius transform")
    m_arr = capacity_array(m, K, "m")
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
    Y, S, binary = prepare(Y, S, scores, threshold)
    w = check_sample_weight(sample_weight, Y.shape[0])
    K = Y.shape[1]
    check_n_labels_enumerable(K)
    cap = check_capacity(mu, K)
    if binary:
        # right exactly on the set A  =>  loss = 1 - mu(A)
        weights = np.left_shift(np.int64(1), np.arange(K, dtype=np.int64))
        right = (1 - np.bitwise_xor(Y, S)).astype(np.int64) @ weights
        losses = 1.0 - cap[right]
    else:
        U = 1.0 - errors(Y, S)
        Us, masks = _sorted_masks(U)
        inc = np.diff(Us, axis=1, prepend=0.0)
        losses = 1.0 - np.einsum("ij,ij->i", inc, cap[masks])
    losses = np.clip(losses, 0.0, 1.0)
    return reduce_losses(losses, w, per_instance)


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
    Y, S, _ = prepare(Y, S, scores, threshold)
    w = check_sample_weight(sample_weight, Y.shape[0])
    losses = 1.0 - choquet_integral_moebius(1.0 - errors(Y, S), m)
    losses = np.clip(losses, 0.0, 1.0)
    return reduce_losses(losses, w, per_instance)


# --------------------------------------------------------------------- counting measures
def v_values(v: Any, K: int, name: str = "v") -> np.ndarray:
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
    if abs(vals[0]) > TOL or abs(vals[-1] - 1.0) > TOL:
        raise ValueError(
            f"{name} must satisfy v(0) = 0 and v(1) = 1, got {vals[0]:.6g} and {vals[-1]:.6g}"
        )
    if np.any(np.diff(vals) < -TOL):
        j = int(np.argmax(np.diff(vals) < -TOL))
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
        Number of labels, at most ``MAX_CAPACITY_LABELS`` (20).

    Returns
    -------
    ndarray of shape (2**K,)
    """
    K = check_positive_int(K, "K")
    check_n_labels_enumerable(K, "a counting measure")
    vals = v_values(v, K)
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
    vals = v_values(v, K)
    return np.diff(vals)[::-1].copy()


def check_weights(w: Any, K: int) -> np.ndarray:
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
    if w.min() < -TOL:
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
    sparse = sparse_binary(Y, S) if threshold is None and scores == "probability" else None
    if sparse is not None:  # sparse 0/1 input stays sparse: only the error counts
        m, K = sparse
        sw = check_sample_weight(sample_weight, m.size)
        table = owa_table(check_weights(w, K))
        out = count_table(m, table[:, None], per_instance, sw)
        return out[..., 0] if per_instance else float(out[0])
    Y, S, binary = prepare(Y, S, scores, threshold)
    sw = check_sample_weight(sample_weight, Y.shape[0])
    K = Y.shape[1]
    w = check_weights(w, K)
    W = owa_table(w)[:, None]
    out = apply_count_table(Y, S, binary, W, w[:, None], per_instance, sw)
    return out[..., 0] if per_instance else float(out[0])


def owa_table(w: np.ndarray) -> np.ndarray:
    """Loss of a binary prediction with m = 0..K errors: the m largest weights' sum."""
    table = np.concatenate([[0.0], np.cumsum(w)])
    table[-1] = 1.0
    return table


# ------------------------------------------------------------------------ special cases
def hamming_capacity(K: int) -> np.ndarray:
    """Additive capacity ``mu(A) = |A|/K``: its loss is the Hamming loss (Sec. 4.1)."""
    K = check_positive_int(K, "K")
    return counting_measure((np.arange(K + 1) / K).tolist(), K)


def subset_capacity(K: int) -> np.ndarray:
    """Capacity that is 1 on the full set only: its loss is the subset 0/1 loss (Sec. 4.1)."""
    K = check_positive_int(K, "K")
    check_n_labels_enumerable(K)
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
    check_n_labels_enumerable(K)
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
    Y, S, _ = prepare(Y, S, scores, threshold)
    w = check_sample_weight(sample_weight, Y.shape[0])
    K = Y.shape[1]
    masks = _check_covering(covering, K)
    E = errors(Y, S)
    cols = [np.array([i for i in range(K) if mk >> i & 1]) for mk in masks]
    losses = np.mean([E[:, c].max(axis=1) for c in cols], axis=0)
    return reduce_losses(losses, w, per_instance)
