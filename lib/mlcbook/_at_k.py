"""The machinery of the measures at k (:mod:`mlcbook.extreme`): the top k of each row
with its tie groups, the discounts, hits and DCG, the best achievable propensity-scored
values, the reductions over instances, and the checks of ``k`` and of propensities.

:mod:`mlcbook.extreme` documents the conventions and holds the measures.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from . import _labelcounts as _lc
from . import _listed
from ._validation import (
    check_average,
    check_bool,
    check_label_matrix,
    check_score_matrix,
)

_EMPTY = ("zero", "skip")
NORMALIZATION = ("ideal", "k")


def check_propensity(propensity: Any, K: int | None = None) -> np.ndarray:
    """Label propensities: a 1-D array (of ``K`` values when given) in (0, 1]."""
    what = f"{K} label propensities" if K is not None else "label propensities"
    if propensity is None or isinstance(propensity, (str, bytes)) or sp.issparse(propensity):
        raise TypeError(
            f"propensity must be an array of {what} in (0, 1] (see jain_propensity), "
            f"got {type(propensity).__name__}"
        )
    p = np.asarray(propensity)
    if p.dtype.kind not in "iuf":
        raise TypeError(f"propensity must hold real numbers, got dtype {p.dtype}")
    if p.ndim != 1 or (K is not None and p.shape != (K,)):
        want = f"({K},), one per label" if K is not None else "(n_labels,)"
        raise ValueError(f"propensity must have shape {want}, got {p.shape}")
    p = p.astype(np.float64)
    if not np.isfinite(p).all():
        raise ValueError("propensity must not contain NaN or infinite values")
    if p.size == 0 or p.min() <= 0.0 or p.max() > 1.0:
        hint = " (inverse propensities? pass 1 / inv)" if p.size and p.min() >= 1.0 else ""
        lo, hi = (p.min(), p.max()) if p.size else (np.nan, np.nan)
        raise ValueError(
            f"propensity must lie in (0, 1]{hint}, got values in [{lo:.6g}, {hi:.6g}]"
        )
    return p


# --------------------------------------------------------------------- the top k
@dataclass(frozen=True)
class TopGroups:
    """Tie groups of each row in decreasing score, enough to cover the top ``k``.

    Per group: ``C`` labels, ``P`` relevant, ``W`` the sum of the relevant
    labels' weights (inverse propensities; None without), ``Ca`` labels above it in
    its row and ``t`` of its positions within the top ``k``.  ``seg`` delimits the
    rows; ``n_pos`` is the number of relevant labels of each row.
    """

    n: int
    n_pos: np.ndarray
    seg: _listed.Segments
    C: np.ndarray
    P: np.ndarray
    W: np.ndarray | None
    Ca: np.ndarray
    t: np.ndarray
    k: int

    def per_row(self, x: np.ndarray) -> np.ndarray:
        return self.seg.sum(x)


def check_k(k: Any, K: int, dense: bool) -> int:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise TypeError(f"k must be a positive integer, got {k!r}")
    k = int(k)
    if k < 1:
        raise ValueError(f"k must be a positive integer, got {k}")
    if dense and k > K:
        raise ValueError(f"k must be at most the number of labels {K}, got {k}")
    return k


def check_inputs(Y: Any, F: Any) -> tuple[Any, Any]:
    """Validated truth (sparse kept sparse) and scores: a Listed, or a dense matrix."""
    Yc = check_label_matrix(Y, "Y")
    if _listed.is_listed(F):
        L = _listed.as_listed(F, "F")
        shape = (L.n, L.n_labels)
        scores: Any = L
    else:
        scores = check_score_matrix(F, "F")
        shape = scores.shape
    if Yc.shape != shape:
        raise ValueError(f"Y and F must have the same shape, got {Yc.shape} and {shape}")
    return Yc, scores


def dense_top(F: np.ndarray, k: int) -> _listed.Listed:
    """The k highest scores of each row, sorted (the k-th place's tie group cut)."""
    n, K = F.shape
    if k < K:
        part = np.argpartition(F, K - k, axis=1)[:, K - k :]
    else:
        part = np.broadcast_to(np.arange(K), (n, K))
    s = np.take_along_axis(F, part, axis=1)
    order = np.argsort(-s, axis=1, kind="stable")
    labels = np.take_along_axis(part, order, axis=1).astype(np.int64).ravel()
    scores = np.take_along_axis(s, order, axis=1).ravel()
    rows = _listed.Segments(np.arange(0, n * k + 1, k, dtype=np.int64), k)
    return _listed.Listed(rows, labels, scores, K)


def dense_rows(Y: Any, rows: np.ndarray) -> np.ndarray:
    return Y[rows].toarray() if sp.issparse(Y) else Y[rows]


@dataclass(frozen=True)
class TopGrid:
    """The common case: every row lists ``w`` labels in strictly decreasing score.
    ``rel`` (n, w) is 0/1 (float) by place, ``W`` the relevant labels' weights."""

    n: int
    n_pos: np.ndarray
    rel: np.ndarray
    W: np.ndarray | None
    k: int


def top_groups(Y: Any, S: Any, k: int, q: np.ndarray | None) -> TopGroups | TopGrid:
    """The tie groups covering the top ``k`` of every row (see :class:`TopGroups`),
    or the places of every row when its scores are strictly decreasing."""
    dense = not isinstance(S, _listed.Listed)
    L = dense_top(S, k) if dense else S
    rel = _listed.relevance(Y, L.rows.ids, L.labels)
    w = L.rows.width
    if L.strict and w is not None:
        vk = L.scores[L.rows.ptr[1:] - 1]
        if not dense or bool(((S == vk[:, None]).sum(axis=1) == 1).all()):
            cols = min(k, w)
            R2 = rel.reshape(L.n, w)[:, :cols].astype(np.float64)
            W2 = None if q is None else R2 * q[L.labels.reshape(L.n, w)[:, :cols]]
            return TopGrid(L.n, _listed.row_sums(Y), R2, W2, k)
    G = _listed.TieGroups(L)
    C = G.C.copy()
    P = G.sum(rel.view(np.int8)).astype(np.int64)
    W = None if q is None else G.sum(np.where(rel, q[L.labels], 0.0))
    if dense:  # the last group of a row (the k-th score) may go on beyond the top k
        last = G.seg.ptr[1:] - 1
        vk = L.scores[L.rows.ptr[1:] - 1]
        c_full = (S == vk[:, None]).sum(axis=1)
        cut = np.flatnonzero(c_full > C[last])
        if cut.size:
            eq = S[cut] == vk[cut, None]
            Yr = dense_rows(Y, cut).astype(bool) & eq
            g = last[cut]
            C[g] = c_full[cut]
            P[g] = Yr.sum(axis=1)
            if W is not None and q is not None:
                W[g] = Yr @ q
    Ca = G.above(C)
    t = np.clip(k - Ca, 0, C)
    return TopGroups(L.n, _listed.row_sums(Y), G.seg, C, P, W, Ca, t, k)


def discounts(k: int) -> tuple[np.ndarray, np.ndarray]:
    """``d[j] = 1/log2(j + 1)`` for j = 0..k (``d[0]`` unused) and ``D[j] = d_1 + .. + d_j``."""
    d = np.zeros(k + 1)
    d[1:] = 1.0 / np.log2(np.arange(2, k + 2))
    D = np.concatenate([[0.0], np.cumsum(d[1:])])
    return d, D


def hits(T: TopGroups | TopGrid, W: bool = False) -> np.ndarray:
    if isinstance(T, TopGrid):
        x2 = T.W if W else T.rel
        assert x2 is not None
        return x2 @ np.ones(x2.shape[1])
    x = T.W if W else T.P
    assert x is not None
    whole = T.t == T.C
    return T.per_row(np.where(whole, x, x * (T.t / T.C)))


def dcg(T: TopGroups | TopGrid, W: bool = False) -> np.ndarray:
    d, D = discounts(T.k)
    if isinstance(T, TopGrid):
        x2 = T.W if W else T.rel
        assert x2 is not None
        return x2 @ d[1 : x2.shape[1] + 1]
    x = T.W if W else T.P
    assert x is not None
    single = T.C == 1  # one label at position Ca + 1: its discount, exactly
    pos = np.minimum(T.Ca + 1, T.k)
    one = np.where(T.t > 0, x * d[pos], 0.0)
    lo = np.minimum(T.Ca, T.k)
    spread = (x / T.C) * (D[lo + T.t] - D[lo])
    return T.per_row(np.where(single, one, spread))


def ideal_ps(Y: Any, q: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Per row: the largest achievable sum of inverse propensities in the top k, and
    the largest propensity-scored DCG (the true labels by decreasing weight)."""
    d, _ = discounts(k)
    if not sp.issparse(Y):  # the k largest weights among each row's true labels
        Q = np.where(Y != 0, q, 0.0)  # weights >= 1: the true labels come first
        kk = min(k, Q.shape[1])
        top = -np.partition(-Q, kk - 1, axis=1)[:, :kk] if kk < Q.shape[1] else Q
        top = -np.sort(-top, axis=1)
        return top @ np.ones(kk), top @ d[1 : kk + 1]
    counts = np.diff(Y.indptr)
    w = int(counts[0]) if counts.size else 0
    if w > 0 and bool((counts == w).all()):  # every row has w true labels: (n, w)
        top = -np.sort(-q[Y.indices].reshape(-1, w), axis=1)[:, :k]
        return top @ np.ones(top.shape[1]), top @ d[1 : top.shape[1] + 1]
    L = _listed.listed_from_csr(Y.indptr, Y.indices, q[Y.indices], Y.shape[1])
    pos = L.rows.position()
    inside = pos < k
    v = np.where(inside, L.scores, 0.0)
    disc = np.where(inside, d[np.minimum(pos + 1, k)], 0.0)
    return L.rows.sum(v), L.rows.sum(v * disc)


# --------------------------------------------------------------------- reductions
def check_empty_rows(empty_rows: Any) -> str:
    return check_average(empty_rows, _EMPTY, "empty_rows")


def mean_at_k(v: np.ndarray, n_pos: np.ndarray, empty: str, w, per_instance: bool):
    v = np.asarray(v, dtype=np.float64)
    if empty == "skip":
        v = np.where(n_pos > 0, v, np.nan)
    if per_instance:
        return v
    ok = ~np.isnan(v)
    if w is not None:
        ok &= w > 0
    if not ok.any():
        return float("nan")
    return _lc.weighted_mean(v[ok], None if w is None else w[ok])


def safe_ratio(num: np.ndarray, den: np.ndarray, zero: float = 0.0) -> np.ndarray:
    out = np.full(num.shape, zero, dtype=np.float64)
    np.divide(num, den, out=out, where=den > 0)
    return out


def setup(Y, F, k, sample_weight, per_instance, empty_rows, *, beyond_labels=False):
    Yc, S = check_inputs(Y, F)
    k = check_k(k, Yc.shape[1], not (beyond_labels or isinstance(S, _listed.Listed)))
    w = _lc.check_sample_weight(sample_weight, Yc.shape[0])
    return Yc, S, k, w, check_bool(per_instance, "per_instance"), check_empty_rows(empty_rows)


def ps_setup(Y, F, k, propensity, sample_weight, per_instance, empty_rows, normalize):
    Yc, S, k, w, per, empty = setup(Y, F, k, sample_weight, per_instance, empty_rows)
    p = check_propensity(propensity, Yc.shape[1])
    norm = check_bool(normalize, "normalize")
    if norm and per:
        raise ValueError(
            "per_instance=True needs normalize=False: the normalised measure is a ratio "
            "of two sums over instances, not a mean of per-instance values"
        )
    return Yc, S, k, w, per, empty, 1.0 / p, norm


def normalised(num: np.ndarray, den: np.ndarray, n_pos, empty: str, w) -> float:
    keep = n_pos > 0 if empty == "skip" else np.ones(num.shape, dtype=bool)
    if w is not None:
        keep &= w > 0
    a = num[keep] if w is None else num[keep] @ w[keep]
    b = den[keep] if w is None else den[keep] @ w[keep]
    a, b = float(np.sum(a)), float(np.sum(b))
    return a / b if b > 0 else float("nan")


def psp_parts(Yc, S, k: int, q: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per instance: PSP@k's sum of weights in the top k, its best value, and |y_i|."""
    T = top_groups(Yc, S, k, q)
    best, _ = ideal_ps(Yc, q, k)
    return hits(T, W=True) / k, best / k, T.n_pos


def psndcg_parts(Yc, S, k: int, q: np.ndarray, normalization: str):
    """Per instance: PSnDCG@k, its best value, and |y_i|."""
    T = top_groups(Yc, S, k, q)
    _, best = ideal_ps(Yc, q, k)
    norm = ndcg_norm(T.n_pos, k, normalization)
    return safe_ratio(dcg(T, W=True), norm), safe_ratio(best, norm), T.n_pos


def ps_values(
    Y: Any, F: Any, k: int, propensity: Any, measure: str, normalization: str = "ideal"
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validated per-instance (value, best value, |y_i|) of ``measure`` in {"psp",
    "psndcg"}: the statistics of the normalised measure (a ratio of their sums)."""
    Yc, S = check_inputs(Y, F)
    k = check_k(k, Yc.shape[1], not isinstance(S, _listed.Listed))
    q = 1.0 / check_propensity(propensity, Yc.shape[1])
    if measure == "psp":
        return psp_parts(Yc, S, k, q)
    nz = check_average(normalization, NORMALIZATION, "normalization")
    return psndcg_parts(Yc, S, k, q, nz)


def ndcg_norm(n_pos: np.ndarray, k: int, normalization: str) -> np.ndarray:
    _, D = discounts(k)
    if normalization == "k":
        return np.full(n_pos.shape, D[k])
    return D[np.minimum(n_pos, k)]
