"""Bayes-optimal multi-label predictions by enumeration (Hüllermeier et al. 2022, Sec. 4.4).

Given a finite distribution over label vectors (a *support* of vectors ``y`` with
probabilities ``p(y)``) and a loss, the Bayes-optimal prediction is the vector
``c ∈ {0,1}^K`` minimising the risk ``R(c) = sum_y p(y) loss(y, c)``.

Capacity-based losses (every loss of :mod:`mlcbook.losses`) of a binary
prediction depend only on the set of labels predicted wrongly, i.e. on
``c XOR y``: ``loss(y, c) = g(c XOR y)`` with ``g(z) = 1 - mu(complement of z)``
(for a counting measure ``g(z) = L[popcount(z)]``).  The risk over all ``2**K``
candidates is therefore an XOR-convolution of the distribution with ``g`` and is
computed with three fast Walsh–Hadamard transforms in ``O(K 2**K)``, whatever
the size of the support.

Consensus pruning
-----------------
If every support point (with positive probability) has the same value ``b`` on
label ``j``, predicting ``b`` on ``j`` makes ``j`` correct for *every* outcome.
Because a capacity is monotone, adding ``j`` to the set of correct labels never
increases the loss, so for every candidate ``c`` the candidate with ``c_j = b``
has risk ``<=``.  Hence the minimum is attained with all consensus labels fixed,
and only the remaining labels need enumerating.  The same monotonicity gives
*all* minimisers: any minimiser, once its consensus labels are repaired, is a
minimiser of the reduced problem, and the risk never decreases along the way
from the repaired vector back to it; so the ties are recovered by a search
upwards from each reduced minimiser that stops as soon as the risk exceeds the
minimum.  Pruning is therefore exact for capacity losses; it is not applied to
arbitrary callables (which need not be monotone).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from . import losses as _losses
from ._choquet import check_weights
from ._consensus import TIE_TOL, consensus_mask, tied
from ._validation import Flag, Real, check_label_matrix, validate_params

__all__ = [
    "BayesOptimal",
    "bayes_optimal",
    "risk",
    "MAX_BAYES_LABELS",
    "MAX_CALLABLE_LABELS",
    "MAX_MINIMISERS",
]

#: Largest number of labels left to enumerate (after pruning) for capacity losses.
MAX_BAYES_LABELS = 22
#: Largest number of labels enumerated for a loss given as a callable (no pruning).
MAX_CALLABLE_LABELS = 16
#: Largest number of minimisers listed.  Degenerate losses (e.g. ``('counts', L)``
#: with ``L[m] = 0`` for every ``m < K``) tie on almost all ``2**K`` candidates; the
#: search for ties refuses once it has found more than this many, so its work stays
#: bounded whatever K is.
MAX_MINIMISERS = 1 << 14


class BayesOptimal(NamedTuple):
    """Result of :func:`bayes_optimal`: every minimiser and the minimal risk."""

    predictions: np.ndarray  # (n_minimisers, K) int8, sorted lexicographically
    risk: float


# ------------------------------------------------------------------------- loss specs
class _Kernel(NamedTuple):
    kind: str  # 'counts' | 'capacity' | 'callable'
    table: np.ndarray | None  # counts: L[m]; capacity: mu over bitmasks
    func: Callable | None


def _parse_loss(loss: Any, K: int) -> _Kernel:
    """Read the loss specification.

    Accepted: ``'hamming'``, ``'subset'`` (or ``'subset_zero_one'``);
    ``('binomial', k)``, ``('polynomial', alpha)``, ``('owa', w)``,
    ``('counts', L)`` with ``L`` the K+1 losses of 0..K errors,
    ``('choquet', mu)`` with any capacity; or a callable
    ``loss(Y, P) -> per-instance losses``.
    """
    if isinstance(loss, str):
        if loss == "hamming":
            return _Kernel("counts", _losses.error_count_losses("binomial", 1, K), None)
        if loss in ("subset", "subset_zero_one"):
            return _Kernel("counts", _losses.error_count_losses("binomial", K, K), None)
        raise ValueError(
            "loss must be 'hamming', 'subset', a (name, parameter) tuple or a callable, "
            f"got {loss!r}"
        )
    if isinstance(loss, tuple):
        if len(loss) != 2 or not isinstance(loss[0], str):
            raise ValueError(f"loss tuple must be (name, parameter), got {loss!r}")
        name, param = loss
        if name in _losses.FAMILIES:
            return _Kernel("counts", _losses.error_count_losses(name, param, K), None)
        if name == "owa":
            w = check_weights(param, K)
            L = np.concatenate([[0.0], np.cumsum(w)])
            L[-1] = 1.0
            return _Kernel("counts", L, None)
        if name == "counts":
            L = np.asarray(param)
            if L.dtype.kind not in "biuf":  # a cast would drop an imaginary part, parse text
                raise TypeError(
                    f"loss ('counts', L): L must hold real numbers, got dtype {L.dtype}"
                )
            L = L.astype(np.float64)
            if L.shape != (K + 1,):
                raise ValueError(
                    f"loss ('counts', L): L must have K+1 = {K + 1} entries, got shape {L.shape}"
                )
            if not np.isfinite(L).all():
                raise ValueError(
                    f"loss ('counts', L): L must be finite, got {L[~np.isfinite(L)][0]}"
                )
            if abs(L[0]) > 1e-9 or abs(L[-1] - 1) > 1e-9 or np.any(np.diff(L) < -1e-9):
                raise ValueError(
                    "loss ('counts', L): L must be non-decreasing from L[0] = 0 to L[K] = 1"
                )
            return _Kernel("counts", L, None)
        if name in ("choquet", "capacity"):
            return _Kernel(
                "capacity", _losses.check_capacity(param, K, name="loss capacity"), None
            )
        raise ValueError(
            f"unknown loss name {name!r}; use binomial, polynomial, owa, counts or choquet"
        )
    if callable(loss):
        return _Kernel("callable", None, loss)
    raise TypeError(
        "loss must be a string, a (name, parameter) tuple or a callable, "
        f"got {type(loss).__name__}"
    )


def _check_support(support: Any, probs: Any) -> tuple[np.ndarray, np.ndarray]:
    Ysup = check_label_matrix(support, "support", allow_sparse=False)
    p = np.asarray(probs)
    if p.dtype.kind not in "biuf":
        raise TypeError(f"probs must hold real numbers, got dtype {p.dtype}")
    p = np.atleast_1d(p.astype(np.float64))
    if p.ndim != 1 or p.shape[0] != Ysup.shape[0]:
        raise ValueError(
            f"probs must have one entry per support row ({Ysup.shape[0]}), got shape {p.shape}"
        )
    if not np.isfinite(p).all():
        raise ValueError("probs must not contain NaN or infinite values")
    if p.min() < 0:
        raise ValueError(f"probs must be non-negative, got {p.min():.6g}")
    if abs(p.sum() - 1.0) > 1e-6:
        raise ValueError(f"probs must sum to 1, got {p.sum():.9g}")
    keep = p > 0
    return Ysup[keep], p[keep]


def _codes(Y: np.ndarray) -> np.ndarray:
    K = Y.shape[1]
    return Y.astype(np.int64) @ (np.int64(1) << np.arange(K, dtype=np.int64))


def _fwht(a: np.ndarray) -> np.ndarray:
    """Unnormalised fast Walsh–Hadamard transform (in place on a copy)."""
    a = np.array(a, dtype=np.float64, copy=True)
    n = a.shape[0]
    h = 1
    while h < n:
        v = a.reshape(-1, 2, h)
        tmp = v[:, 0, :].copy()
        v[:, 0, :] += v[:, 1, :]
        np.subtract(tmp, v[:, 1, :], out=v[:, 1, :])
        h *= 2
    return a


def _krawtchouk_transform(table: np.ndarray, n: int) -> np.ndarray:
    """Walsh–Hadamard transform of ``z -> table[popcount(z)]`` on ``n`` bits, by weight.

    Entry ``w`` is the transform at any ``s`` with ``popcount(s) = w``:
    ``sum_m table[m] K_m(w)`` with the Krawtchouk polynomial
    ``K_m(w) = sum_j (-1)**j C(w, j) C(n - w, m - j)``.
    """
    out = np.empty(n + 1)
    for w in range(n + 1):
        kw = [
            sum(
                (-1) ** j * math.comb(w, j) * math.comb(n - w, m - j)
                for j in range(0, min(w, m) + 1)
            )
            for m in range(n + 1)
        ]
        out[w] = float(np.dot(table[: n + 1], np.array(kw, dtype=np.float64)))
    return out


def _direct_risks(
    cands: np.ndarray, ycodes: np.ndarray, p: np.ndarray, g: np.ndarray
) -> np.ndarray:
    """Risks of candidate codes, ``sum_y p(y) g(c XOR y)``, in chunks."""
    out = np.empty(cands.shape[0])
    step = max(1, (1 << 20) // max(1, ycodes.shape[0]))
    for s in range(0, cands.shape[0], step):
        out[s : s + step] = g[np.bitwise_xor(cands[s : s + step, None], ycodes[None, :])] @ p
    return out


def _risk_rows(P: np.ndarray, Ysup: np.ndarray, p: np.ndarray, kern: _Kernel) -> np.ndarray:
    """Risk of each row of the 0/1 matrix ``P`` (any K for counting losses)."""
    K = Ysup.shape[1]
    table = kern.table  # the 'counts' and 'capacity' kinds carry a table, 'callable' not
    if kern.kind == "counts":
        assert table is not None
        Pf = P.astype(np.float64)
        Yf = Ysup.astype(np.float64)
        agree = Pf @ Yf.T + (1 - Pf) @ (1 - Yf).T
        d = np.rint(K - agree).astype(np.intp)
        return table[d] @ p
    if kern.kind == "capacity":
        assert table is not None
        full = (1 << K) - 1
        x = np.bitwise_xor(_codes(P)[:, None], _codes(Ysup)[None, :])
        return (1.0 - table[full ^ x]) @ p
    out = np.empty(P.shape[0])
    t = Ysup.shape[0]
    assert kern.func is not None  # the 'callable' kind carries its function
    for i in range(P.shape[0]):
        out[i] = _callable_losses(kern.func, Ysup, P[i], t) @ p
    return out


def _callable_losses(func: Callable, Ysup: np.ndarray, row: np.ndarray, t: int) -> np.ndarray:
    """The ``t`` losses a callable loss gives ``row`` against the support, checked: real,
    finite, one per support row (a NaN would make every risk NaN and leave no minimiser,
    a complex value would lose its imaginary part)."""
    vals = np.asarray(func(Ysup, np.repeat(row[None, :], t, axis=0)))
    if vals.dtype == object or vals.dtype.kind not in "biuf":
        raise TypeError(f"loss: a callable loss must return real numbers, got dtype {vals.dtype}")
    if vals.shape != (t,):
        raise ValueError(
            f"loss: a callable loss must return one loss per row (shape ({t},)), got {vals.shape}"
        )
    vals = vals.astype(np.float64)
    if not np.isfinite(vals).all():
        bad = int(np.flatnonzero(~np.isfinite(vals))[0])
        raise ValueError(
            f"loss: the callable loss returned {vals[bad]} for the prediction "
            f"{row.tolist()} against the support row {Ysup[bad].tolist()}; it must "
            "return finite numbers"
        )
    return vals


def risk(prediction: Any, support: Any, probs: Any, loss: Any) -> float | np.ndarray:
    """Expected loss ``sum_y p(y) loss(y, prediction)`` under a finite distribution.

    Parameters
    ----------
    prediction : array-like of shape (K,) or (n, K), 0/1
    support : array-like of shape (t, K), 0/1
        The label vectors with positive probability (duplicates allowed).
    probs : array-like of shape (t,)
        Their probabilities (non-negative, summing to 1).
    loss : see :func:`bayes_optimal`

    Returns
    -------
    float for one prediction, ndarray of shape (n,) for several
    """
    one = np.ndim(prediction) == 1
    P = check_label_matrix(prediction, "prediction", allow_sparse=False)
    Ysup, p = _check_support(support, probs)
    if P.shape[1] != Ysup.shape[1]:
        raise ValueError(f"prediction has {P.shape[1]} labels but support has {Ysup.shape[1]}")
    kern = _parse_loss(loss, Ysup.shape[1])
    r = _risk_rows(P, Ysup, p, kern)
    return float(r[0]) if one else r


def _too_many_minimisers(count: str) -> ValueError:
    return ValueError(
        f"{count} predictions tie for the minimal risk (the limit is "
        f"MAX_MINIMISERS={MAX_MINIMISERS}); the loss is nearly constant on this "
        "distribution (e.g. zero for every prediction that is not entirely wrong), so "
        "the set of Bayes-optimal predictions is too large to list"
    )


@validate_params(prune=Flag(), atol=Real(low=0.0, high=1.0))
def bayes_optimal(
    support: Any, probs: Any, loss: Any, *, prune: bool = True, atol: float = TIE_TOL
) -> BayesOptimal:
    """All risk minimisers over ``{0,1}^K`` and the minimal risk.

    Parameters
    ----------
    support : array-like of shape (t, K), 0/1
        Label vectors of the distribution (duplicates are merged).
    probs : array-like of shape (t,)
        Probabilities, non-negative and summing to 1.
    loss : str, tuple or callable
        ``'hamming'``, ``'subset'``; ``('binomial', k)`` (eq. 18),
        ``('polynomial', alpha)`` (eq. 17), ``('owa', w)`` (eq. 16),
        ``('counts', L)`` with ``L[m]`` the loss of ``m`` errors
        (e.g. :func:`mlcbook.losses.error_count_losses`), ``('choquet', mu)``
        with any capacity (eq. 14); or a callable ``loss(Y, P)`` returning one
        loss per row (enumerated without pruning, ``K <= MAX_CALLABLE_LABELS``).
    prune : bool
        Fix the labels on which all support points agree (exact for capacity
        losses, see the module docstring).
    atol : float
        Candidates whose risk is within ``atol`` of the minimum are ties (default
        :data:`mlcbook._consensus.TIE_TOL`: a risk lies in [0, 1], see that module).

    Returns
    -------
    BayesOptimal
        ``predictions`` (n_minimisers, K) int8 sorted lexicographically, ``risk``.

    Raises
    ------
    ValueError
        If more than :data:`MAX_BAYES_LABELS` labels remain to enumerate after
        pruning, or more than :data:`MAX_MINIMISERS` predictions tie (the work
        is bounded by these two limits, whatever K is).
    """
    Ysup, p = _check_support(support, probs)
    K = Ysup.shape[1]
    # the enumeration limits are checked before the loss tables are built (a
    # binomial table for a large K is itself long work)
    if callable(loss) and not isinstance(loss, (str, tuple)):
        return _by_enumeration(Ysup, p, loss, atol)
    consensus = consensus_mask(Ysup, axis=0) if prune else np.zeros(K, dtype=bool)
    free = np.flatnonzero(~consensus)
    fixed = np.flatnonzero(consensus)
    if free.size > MAX_BAYES_LABELS:
        raise ValueError(
            f"{free.size} labels remain to enumerate after consensus pruning "
            f"(2**{free.size} candidates); the limit is MAX_BAYES_LABELS={MAX_BAYES_LABELS}"
        )
    kern = _parse_loss(loss, K)
    winners, rmin = _reduced_minimisers(Ysup, p, kern, free, atol)
    reduced = np.repeat(np.zeros(K, dtype=np.int8)[None, :], winners.size, axis=0)
    reduced[:, fixed] = Ysup[0, fixed]
    if free.size:
        reduced[:, free] = ((winners[:, None] >> np.arange(free.size)) & 1).astype(np.int8)
    if fixed.size == 0:
        return BayesOptimal(_sorted_rows(reduced), rmin)
    return BayesOptimal(
        _sorted_rows(_recover_ties(reduced, fixed, Ysup, p, kern, rmin, atol)), rmin
    )


def _by_enumeration(Ysup: np.ndarray, p: np.ndarray, loss: Any, atol: float) -> BayesOptimal:
    """:func:`bayes_optimal` of a callable loss: every candidate's risk."""
    K = Ysup.shape[1]
    if K > MAX_CALLABLE_LABELS:
        raise ValueError(
            f"K={K} labels is too many to enumerate for a callable loss; the limit is "
            f"MAX_CALLABLE_LABELS={MAX_CALLABLE_LABELS} (use a structured loss spec to get "
            "the fast transform and consensus pruning)"
        )
    kern = _parse_loss(loss, K)
    allc = ((np.arange(1 << K)[:, None] >> np.arange(K)) & 1).astype(np.int8)
    r = _risk_rows(allc, Ysup, p, kern)
    rmin = float(r.min())
    return BayesOptimal(_sorted_rows(allc[tied(r, rmin, rtol=atol)]), rmin)


def _reduced_minimisers(
    Ysup: np.ndarray, p: np.ndarray, kern: _Kernel, free: np.ndarray, atol: float
) -> tuple[np.ndarray, float]:
    """The minimisers over the free labels (codes of ``free``'s values; the fixed
    labels are right) and the minimal risk."""
    K, Kf = Ysup.shape[1], free.size
    # reduced kernel g over the free labels
    zs = np.arange(1 << Kf, dtype=np.int64)
    assert kern.table is not None  # only table kernels reach the transform
    if kern.kind == "counts":
        g = kern.table[_losses.popcount(zs)]
    else:
        scat = np.zeros_like(zs)
        for r_, j in enumerate(free):
            scat |= ((zs >> r_) & 1) << int(j)
        full = (1 << K) - 1
        g = 1.0 - kern.table[full ^ scat]
    ycodes = _codes(Ysup[:, free]) if Kf else np.zeros(Ysup.shape[0], dtype=np.int64)

    if (1 << Kf) * ycodes.shape[0] <= (1 << 16):
        rk = _direct_risks(zs, ycodes, p, g)
        near = np.flatnonzero(rk <= rk.min() + max(atol, 1e-9))
    else:
        dist = np.bincount(ycodes, weights=p, minlength=1 << Kf)
        if kern.kind == "counts":  # g depends on popcount only: its transform via Krawtchouk
            g_hat = _krawtchouk_transform(kern.table, Kf)[_losses.popcount(zs)]
        else:
            g_hat = _fwht(g)
        rk = _fwht(_fwht(dist) * g_hat) / float(1 << Kf)
        near = np.flatnonzero(rk <= rk.min() + 1e-8)
    if near.size > MAX_MINIMISERS:
        raise _too_many_minimisers(f"about {near.size}")
    exact = _direct_risks(zs[near], ycodes, p, g)
    rmin = float(exact.min())
    return zs[near][tied(exact, rmin, rtol=atol)], rmin


def _recover_ties(
    reduced: np.ndarray,
    fixed: np.ndarray,
    Ysup: np.ndarray,
    p: np.ndarray,
    kern: _Kernel,
    rmin: float,
    atol: float,
) -> np.ndarray:
    """Every minimiser: the reduced ones and the ties that flip consensus labels (an
    upward search, pruned by monotonicity).  Risk never decreases along the way, so if
    flipping every consensus label of a reduced minimiser is still a tie, all
    2**len(fixed) vectors in between are too."""
    if (1 << fixed.size) > MAX_MINIMISERS:
        top = reduced.copy()
        top[:, fixed] ^= 1
        if tied(_risk_rows(top, Ysup, p, kern), rmin, rtol=atol).any():
            raise _too_many_minimisers(f"at least 2**{fixed.size}")
    found = [reduced]
    n_found = reduced.shape[0]
    for row in reduced:
        stack = [(row, -1)]
        while stack:
            vec, last = stack.pop()
            kids = []
            for pos in range(last + 1, fixed.size):
                child = vec.copy()
                child[fixed[pos]] ^= 1
                kids.append((child, pos))
            if not kids:
                continue
            rs = _risk_rows(np.stack([c for c, _ in kids]), Ysup, p, kern)
            for (child, pos), rv in zip(kids, rs):
                if tied(rv, rmin, rtol=atol):
                    found.append(child[None, :])
                    stack.append((child, pos))
                    n_found += 1
                    if n_found > MAX_MINIMISERS:
                        raise _too_many_minimisers("more than the limit of")
    return np.unique(np.concatenate(found, axis=0), axis=0)


def _sorted_rows(A: np.ndarray) -> np.ndarray:
    A = np.asarray(A, dtype=np.int8)
    if A.shape[0] <= 1:
        return A
    order = np.lexsort(A.T[::-1])
    return A[order]
