r"""Measures at k of extreme multi-label classification, and Jain et al.'s propensities.

With :math:`K` in the hundreds of thousands, a classifier is judged by the few
labels it ranks highest for each instance.  For the truth :math:`\mathbf y_i`
(:math:`|\mathbf y_i|` relevant labels), the :math:`k` labels ranked highest by the
scores, :math:`r_1, \dots, r_k`, and the discount :math:`d_j = 1/\log_2(j + 1)`:

.. math::

   P@k_i = \frac1k\sum_{j=1}^k y_{i r_j}, \qquad
   R@k_i = \frac1{|\mathbf y_i|}\sum_{j=1}^k y_{i r_j}, \qquad
   \mathrm{nDCG}@k_i = \frac{\sum_{j=1}^k y_{i r_j} d_j}
                          {\sum_{j=1}^{\min(k, |\mathbf y_i|)} d_j},

averaged over instances, and with each hit weighted by the inverse propensity
:math:`1/p_l` of its label, Jain, Prabhu & Varma (2016, Sec. 3, *propensity scored*
precision and nDCG), :func:`psprecision_at_k` and :func:`psndcg_at_k`:

.. math::

   PSP@k_i = \frac1k\sum_{j=1}^k \frac{y_{i r_j}}{p_{r_j}}, \qquad
   PSnDCG@k_i = \frac{\sum_{j=1}^k y_{i r_j} d_j / p_{r_j}}
                     {\sum_{j=1}^{\min(k, |\mathbf y_i|)} d_j}.

:func:`coverage_at_k` is the fraction of the labels relevant somewhere in the data
that are correctly predicted in the top k of at least one instance.  The
propensity :math:`p_l` of label :math:`l` (the chance that a relevant label is
observed) is Jain et al.'s empirical model, :func:`jain_propensity`.

The scores ``F`` may be a dense ``(n, K)`` matrix, a sparse matrix (its stored
entries are the candidates) or a :class:`~mlcbook.topk.TopK`; the truth ``Y`` a
dense or sparse 0/1 matrix.  Memory and time are :math:`O(\mathrm{nnz}(Y) + nk)`
for top-k and sparse input (no Python loop over instances); a dense ``F`` costs one
partial sort of each row.

Conventions (they differ across the literature; each is a parameter or stated here)
------------------------------------------------------------------------------------
* **Ties.**  When scores tie across the cut-off, the value is the *average over
  the orders of the tied labels* (equivalently: each position held by a tie group
  gets the group's mean relevance, and coverage@k the probability that a label is
  covered), as scikit-learn's :func:`~sklearn.metrics.ndcg_score` does
  (``ignore_ties=False``).  pyxclib and napkinXC break ties by whatever order their
  sort returns.
* **Unlisted labels** (top-k and sparse scores) never enter the top k: a row that
  lists fewer than ``k`` labels has empty positions, which count as misses
  (pyxclib pads with a dummy label; napkinXC stops its ranking).
* **Rows with no true label**, ``empty_rows``: ``"zero"`` (default) counts them
  with value 0, as pyxclib, napkinXC (``zero_division=0``) and scikit-learn's
  ``ndcg_score`` do; ``"skip"`` leaves them out of the mean (pyxclib's
  ``Metrics(remove_invalid=True)``).
* **nDCG's normaliser**, ``normalization``: ``"ideal"`` (default) divides by the
  DCG of a perfect ranking, :math:`\sum_{j \le \min(k, |\mathbf y_i|)} d_j` (Jain et
  al. 2016; pyxclib; scikit-learn; napkinXC 0.7.2's ``napkinxc.metrics.ndcg_at_k``,
  tested against it to 1e-16); ``"k"`` by :math:`\sum_{j \le k} d_j`, so that an
  instance with fewer than k relevant labels cannot reach 1 (no library above uses
  it; it differs from ``"ideal"`` by up to a quarter).
* **Normalising the propensity-scored measures**, ``normalize``: ``True``
  (default) divides the mean over instances by the mean of the best achievable
  values (the true labels ranked by decreasing inverse propensity), so the result
  lies in [0, 1]: what pyxclib's ``psprecision``/``psndcg`` and napkinXC's
  ``psprecision_at_k(normalize=True)`` compute and the Extreme Classification
  Repository reports.  ``False`` is Jain et al.'s definition as printed, a mean of
  the per-instance values, unbounded above.
* **The discount** is :math:`1/\log_2(j+1)` (base 2, as pyxclib, napkinXC and
  scikit-learn; Jain et al. write :math:`\log(l+1)`).

For example:

>>> import numpy as np
>>> Y = np.array([[1, 0, 1, 0], [0, 1, 0, 0]])
>>> F = np.array([[0.9, 0.8, 0.1, 0.0], [0.2, 0.7, 0.3, 0.1]])
>>> precision_at_k(Y, F, 2)   # row 1: 1 of 2; row 2: 1 of 2
0.5
>>> float(np.round(ndcg_at_k(Y, F, 2), 4))   # (1 / (1 + 1/log2 3) + 1) / 2
0.8066
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
    check_real,
    check_score_matrix,
)

__all__ = [
    "precision_at_k",
    "recall_at_k",
    "ndcg_at_k",
    "psprecision_at_k",
    "psndcg_at_k",
    "coverage_at_k",
    "jain_propensity",
    "JAIN_PARAMETERS",
]

#: Jain et al.'s (A, B) by data set family, as pyxclib's ``compute_inv_propesity``
#: and napkinXC's ``Jain_et_al_inverse_propensity`` document them (the paper fits A and B on
#: Wikipedia and Amazon and uses 0.55 and 1.5 elsewhere).
JAIN_PARAMETERS: dict[str, tuple[float, float]] = {
    "default": (0.55, 1.5),
    "wikipedia": (0.5, 0.4),
    "amazon": (0.6, 2.6),
}

_EMPTY = ("zero", "skip")
_NORMALIZATION = ("ideal", "k")


# --------------------------------------------------------------------- propensities
def jain_propensity(Y: Any, A: float = 0.55, B: float = 1.5) -> np.ndarray:
    r"""Propensity of every label by Jain, Prabhu & Varma (2016, Sec. 3.2).

    .. math:: p_l = \frac{1}{1 + C e^{-A \log(N_l + B)}}
                  = \frac{1}{1 + C (N_l + B)^{-A}}, \qquad
              C = (\log N - 1)(B + 1)^A,

    with :math:`N` the number of instances of ``Y`` (usually the *training*
    labels), :math:`N_l` the number with label :math:`l` relevant, and natural
    logarithms.  Published parameters (:data:`JAIN_PARAMETERS`): ``A = 0.55, B =
    1.5`` in general, ``A = 0.5, B = 0.4`` for Wikipedia (WikiLSHTC) and ``A = 0.6,
    B = 2.6`` for Amazon; the same as pyxclib's ``compute_inv_propesity`` (which
    returns :math:`1/p_l`) and napkinXC's ``Jain_et_al_inverse_propensity``.

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels), 0/1
        Labels the frequencies are counted on; at least 3 rows (:math:`C > 0` needs
        :math:`\log N > 1`).
    A : float >= 0, default 0.55
    B : float > 0, default 1.5

    Returns
    -------
    ndarray of shape (n_labels,), values in (0, 1)

    Examples
    --------
    >>> import numpy as np
    >>> Y = np.array([[1, 0], [1, 0], [1, 1], [1, 0], [0, 0]])
    >>> jain_propensity(Y).round(4)   # N = 5; N_l = 4, and 1: p = 1 / log 5
    array([0.7168, 0.6213])
    """
    Yc = check_label_matrix(Y, "Y")
    a = check_real(A, "A", low=0.0)
    b = check_real(B, "B", low=0.0, low_inclusive=False)
    N = Yc.shape[0]
    if N < 3:
        raise ValueError(
            f"Y must have at least 3 rows for Jain et al.'s propensities "
            f"(C = (log N - 1)(B + 1)^A is positive only for N > e), got {N}"
        )
    freq = _listed.col_sums(Yc, None).astype(np.float64)
    C = (np.log(N) - 1.0) * (b + 1.0) ** a
    return 1.0 / (1.0 + C * (freq + b) ** -a)


def _check_propensity(propensity: Any, K: int | None = None) -> np.ndarray:
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
class _TopGroups:
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


def _check_k(k: Any, K: int, dense: bool) -> int:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise TypeError(f"k must be a positive integer, got {k!r}")
    k = int(k)
    if k < 1:
        raise ValueError(f"k must be a positive integer, got {k}")
    if dense and k > K:
        raise ValueError(f"k must be at most the number of labels {K}, got {k}")
    return k


def _check_inputs(Y: Any, F: Any) -> tuple[Any, Any]:
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


def _dense_top(F: np.ndarray, k: int) -> _listed.Listed:
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


def _dense_rows(Y: Any, rows: np.ndarray) -> np.ndarray:
    return Y[rows].toarray() if sp.issparse(Y) else Y[rows]


@dataclass(frozen=True)
class _TopGrid:
    """The common case: every row lists ``w`` labels in strictly decreasing score.
    ``rel`` (n, w) is 0/1 (float) by place, ``W`` the relevant labels' weights."""

    n: int
    n_pos: np.ndarray
    rel: np.ndarray
    W: np.ndarray | None
    k: int


def _top_groups(Y: Any, S: Any, k: int, q: np.ndarray | None) -> _TopGroups | _TopGrid:
    """The tie groups covering the top ``k`` of every row (see :class:`_TopGroups`),
    or the places of every row when its scores are strictly decreasing."""
    dense = not isinstance(S, _listed.Listed)
    L = _dense_top(S, k) if dense else S
    rel = _listed.relevance(Y, L.rows.ids, L.labels)
    w = L.rows.width
    if L.strict and w is not None:
        vk = L.scores[L.rows.ptr[1:] - 1]
        if not dense or bool(((S == vk[:, None]).sum(axis=1) == 1).all()):
            cols = min(k, w)
            R2 = rel.reshape(L.n, w)[:, :cols].astype(np.float64)
            W2 = None if q is None else R2 * q[L.labels.reshape(L.n, w)[:, :cols]]
            return _TopGrid(L.n, _listed.row_sums(Y), R2, W2, k)
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
            Yr = _dense_rows(Y, cut).astype(bool) & eq
            g = last[cut]
            C[g] = c_full[cut]
            P[g] = Yr.sum(axis=1)
            if W is not None and q is not None:
                W[g] = Yr @ q
    Ca = G.above(C)
    t = np.clip(k - Ca, 0, C)
    return _TopGroups(L.n, _listed.row_sums(Y), G.seg, C, P, W, Ca, t, k)


def _discounts(k: int) -> tuple[np.ndarray, np.ndarray]:
    """``d[j] = 1/log2(j + 1)`` for j = 0..k (``d[0]`` unused) and ``D[j] = d_1 + .. + d_j``."""
    d = np.zeros(k + 1)
    d[1:] = 1.0 / np.log2(np.arange(2, k + 2))
    D = np.concatenate([[0.0], np.cumsum(d[1:])])
    return d, D


def _hits(T: _TopGroups | _TopGrid, W: bool = False) -> np.ndarray:
    if isinstance(T, _TopGrid):
        x2 = T.W if W else T.rel
        assert x2 is not None
        return x2 @ np.ones(x2.shape[1])
    x = T.W if W else T.P
    assert x is not None
    whole = T.t == T.C
    return T.per_row(np.where(whole, x, x * (T.t / T.C)))


def _dcg(T: _TopGroups | _TopGrid, W: bool = False) -> np.ndarray:
    d, D = _discounts(T.k)
    if isinstance(T, _TopGrid):
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


def _ideal_ps(Y: Any, q: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Per row: the largest achievable sum of inverse propensities in the top k, and
    the largest propensity-scored DCG (the true labels by decreasing weight)."""
    d, _ = _discounts(k)
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
def _empty(empty_rows: Any) -> str:
    return check_average(empty_rows, _EMPTY, "empty_rows")


def _mean(v: np.ndarray, n_pos: np.ndarray, empty: str, w, per_instance: bool):
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


def _ratio(num: np.ndarray, den: np.ndarray, zero: float = 0.0) -> np.ndarray:
    out = np.full(num.shape, zero, dtype=np.float64)
    np.divide(num, den, out=out, where=den > 0)
    return out


def _setup(Y, F, k, sample_weight, per_instance, empty_rows, *, beyond_labels=False):
    Yc, S = _check_inputs(Y, F)
    k = _check_k(k, Yc.shape[1], not (beyond_labels or isinstance(S, _listed.Listed)))
    w = _lc.check_sample_weight(sample_weight, Yc.shape[0])
    return Yc, S, k, w, check_bool(per_instance, "per_instance"), _empty(empty_rows)


def _ps_setup(Y, F, k, propensity, sample_weight, per_instance, empty_rows, normalize):
    Yc, S, k, w, per, empty = _setup(Y, F, k, sample_weight, per_instance, empty_rows)
    p = _check_propensity(propensity, Yc.shape[1])
    norm = check_bool(normalize, "normalize")
    if norm and per:
        raise ValueError(
            "per_instance=True needs normalize=False: the normalised measure is a ratio "
            "of two sums over instances, not a mean of per-instance values"
        )
    return Yc, S, k, w, per, empty, 1.0 / p, norm


def _normalised(num: np.ndarray, den: np.ndarray, n_pos, empty: str, w) -> float:
    keep = n_pos > 0 if empty == "skip" else np.ones(num.shape, dtype=bool)
    if w is not None:
        keep &= w > 0
    a = num[keep] if w is None else num[keep] @ w[keep]
    b = den[keep] if w is None else den[keep] @ w[keep]
    a, b = float(np.sum(a)), float(np.sum(b))
    return a / b if b > 0 else float("nan")


# --------------------------------------------------------------------- the measures
def precision_at_k(
    Y: Any,
    F: Any,
    k: int,
    *,
    empty_rows: str = "zero",
    sample_weight: Any = None,
    per_instance: bool = False,
) -> float | np.ndarray:
    r"""Precision at k: the fraction of the k top-ranked labels that are relevant.

    :math:`P@k = \frac1n \sum_i \frac1k \sum_{j=1}^k y_{i r_j}` (module docstring;
    Jain et al. 2016, Sec. 3; pyxclib's ``precision``; napkinXC's
    ``precision_at_k``).  Ties across the cut-off count their mean relevance.

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels), 0/1
        True labels.
    F : array-like or sparse matrix of shape (n_samples, n_labels), or TopK
        Scores: dense, sparse (stored entries are the candidates) or a
        :class:`~mlcbook.topk.TopK`.
    k : int >= 1
        Cut-off (at most ``n_labels`` for dense ``F``).
    empty_rows : {"zero", "skip"}, default "zero"
        Rows without a true label: value 0, or left out of the mean.
    sample_weight : array-like of shape (n_samples,), optional
        Instance weights of the mean.
    per_instance : bool, default False
        Return the value of every instance (NaN for a skipped row).

    Returns
    -------
    float in [0, 1], or ndarray of shape (n_samples,)
    """
    Yc, S, k, w, per, empty = _setup(Y, F, k, sample_weight, per_instance, empty_rows)
    T = _top_groups(Yc, S, k, None)
    return _mean(_hits(T) / k, T.n_pos, empty, w, per)


def recall_at_k(
    Y: Any,
    F: Any,
    k: int,
    *,
    empty_rows: str = "zero",
    sample_weight: Any = None,
    per_instance: bool = False,
) -> float | np.ndarray:
    r"""Recall at k: the fraction of an instance's relevant labels ranked in its top k.

    :math:`R@k = \frac1n \sum_i \frac{1}{|\mathbf y_i|}\sum_{j=1}^k y_{i r_j}`
    (pyxclib's ``recall``, napkinXC's ``recall_at_k``).

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels), 0/1
        True labels.
    F : array-like or sparse matrix of shape (n_samples, n_labels), or TopK
        Scores: dense, sparse (stored entries are the candidates) or a
        :class:`~mlcbook.topk.TopK`.
    k : int >= 1
        Cut-off (at most ``n_labels`` for dense ``F``).
    empty_rows : {"zero", "skip"}, default "zero"
        Rows without a true label (0/0): value 0 (pyxclib; napkinXC's default
        ``zero_division=0``), or left out of the mean.
    sample_weight : array-like of shape (n_samples,), optional
    per_instance : bool, default False

    Returns
    -------
    float in [0, 1], or ndarray of shape (n_samples,)
    """
    Yc, S, k, w, per, empty = _setup(Y, F, k, sample_weight, per_instance, empty_rows)
    T = _top_groups(Yc, S, k, None)
    return _mean(_ratio(_hits(T), T.n_pos), T.n_pos, empty, w, per)


def _ndcg_norm(n_pos: np.ndarray, k: int, normalization: str) -> np.ndarray:
    _, D = _discounts(k)
    if normalization == "k":
        return np.full(n_pos.shape, D[k])
    return D[np.minimum(n_pos, k)]


def ndcg_at_k(
    Y: Any,
    F: Any,
    k: int,
    *,
    normalization: str = "ideal",
    empty_rows: str = "zero",
    sample_weight: Any = None,
    per_instance: bool = False,
) -> float | np.ndarray:
    r"""Normalised discounted cumulative gain at k.

    :math:`\mathrm{nDCG}@k_i = \sum_{j=1}^k y_{i r_j} d_j / \sum_{j=1}^{\min(k,
    |\mathbf y_i|)} d_j` with :math:`d_j = 1/\log_2(j+1)` (Jain et al. 2016; pyxclib's
    ``ndcg``).  Equal to :func:`sklearn.metrics.ndcg_score` ``(Y, F, k=k)`` for a
    dense ``F`` (tested; both average tied scores).

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels), 0/1
        True labels.
    F : array-like or sparse matrix of shape (n_samples, n_labels), or TopK
        Scores: dense, sparse (stored entries are the candidates) or a
        :class:`~mlcbook.topk.TopK`.
    k : int >= 1
        Cut-off; above ``n_labels`` a dense ``F`` ranks all its labels (scikit-learn's
        ``ndcg_score`` with such a ``k``).
    normalization : {"ideal", "k"}, default "ideal"
        Divide by the DCG of a perfect ranking (:math:`\min(k, |\mathbf y_i|)`
        discounts, as pyxclib, scikit-learn and napkinXC), or by the first ``k``
        discounts.
    empty_rows : {"zero", "skip"}, default "zero"
        Rows without a true label: value 0 (pyxclib, scikit-learn), or left out.
    sample_weight : array-like of shape (n_samples,), optional
    per_instance : bool, default False

    Returns
    -------
    float in [0, 1], or ndarray of shape (n_samples,)
    """
    # a dense ranking holds K labels: its DCG at k > K is its DCG at K, as scikit-learn's
    # ndcg_score computes it; the ideal normaliser has min(k, |y|) = |y| terms either way
    Yc, S, k, w, per, empty = _setup(
        Y, F, k, sample_weight, per_instance, empty_rows, beyond_labels=True
    )
    k_rank = k if isinstance(S, _listed.Listed) else min(k, Yc.shape[1])
    norm = check_average(normalization, _NORMALIZATION, "normalization")
    T = _top_groups(Yc, S, k_rank, None)
    return _mean(_ratio(_dcg(T), _ndcg_norm(T.n_pos, k, norm)), T.n_pos, empty, w, per)


def _psp_parts(Yc, S, k: int, q: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per instance: PSP@k's sum of weights in the top k, its best value, and |y_i|."""
    T = _top_groups(Yc, S, k, q)
    best, _ = _ideal_ps(Yc, q, k)
    return _hits(T, W=True) / k, best / k, T.n_pos


def _psndcg_parts(Yc, S, k: int, q: np.ndarray, normalization: str):
    """Per instance: PSnDCG@k, its best value, and |y_i|."""
    T = _top_groups(Yc, S, k, q)
    _, best = _ideal_ps(Yc, q, k)
    norm = _ndcg_norm(T.n_pos, k, normalization)
    return _ratio(_dcg(T, W=True), norm), _ratio(best, norm), T.n_pos


def _ps_values(
    Y: Any, F: Any, k: int, propensity: Any, measure: str, normalization: str = "ideal"
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validated per-instance (value, best value, |y_i|) of ``measure`` in {"psp",
    "psndcg"}: the statistics of the normalised measure (a ratio of their sums)."""
    Yc, S = _check_inputs(Y, F)
    k = _check_k(k, Yc.shape[1], not isinstance(S, _listed.Listed))
    q = 1.0 / _check_propensity(propensity, Yc.shape[1])
    if measure == "psp":
        return _psp_parts(Yc, S, k, q)
    nz = check_average(normalization, _NORMALIZATION, "normalization")
    return _psndcg_parts(Yc, S, k, q, nz)


def psprecision_at_k(
    Y: Any,
    F: Any,
    k: int,
    *,
    propensity: Any,
    normalize: bool = True,
    empty_rows: str = "zero",
    sample_weight: Any = None,
    per_instance: bool = False,
) -> float | np.ndarray:
    r"""Propensity-scored precision at k (Jain, Prabhu & Varma 2016, Sec. 3).

    :math:`PSP@k = \frac1n\sum_i \frac1k \sum_{j=1}^k y_{i r_j} / p_{r_j}`; with
    ``normalize=True`` divided by the same mean for the best ranking (each
    instance's true labels by decreasing :math:`1/p_l`): pyxclib's
    ``psprecision`` and napkinXC's ``psprecision_at_k``, the values the Extreme
    Classification Repository reports.

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels), 0/1
        True labels.
    F : array-like or sparse matrix of shape (n_samples, n_labels), or TopK
        Scores: dense, sparse (stored entries are the candidates) or a
        :class:`~mlcbook.topk.TopK`.
    k : int >= 1
        Cut-off (at most ``n_labels`` for dense ``F``).
    propensity : array-like of shape (n_labels,), values in (0, 1]
        Label propensities :math:`p_l`, e.g. :func:`jain_propensity` of the
        training labels (not their inverses).
    normalize : bool, default True
        Divide by the best achievable value (a ratio of two sums over instances);
        False gives the paper's unnormalised mean.
    empty_rows : {"zero", "skip"}, default "zero"
        Rows without a true label: value 0 or left out.  Normalised, both give the
        same result (such a row adds 0 to both sums).
    sample_weight : array-like of shape (n_samples,), optional
    per_instance : bool, default False
        Per-instance values; only with ``normalize=False``.

    Returns
    -------
    float (in [0, 1] when normalised), or ndarray of shape (n_samples,)
    """
    Yc, S, k, w, per, empty, q, norm = _ps_setup(
        Y, F, k, propensity, sample_weight, per_instance, empty_rows, normalize
    )
    num, best, n_pos = _psp_parts(Yc, S, k, q)
    if norm:
        return _normalised(num, best, n_pos, empty, w)
    return _mean(num, n_pos, empty, w, per)


def psndcg_at_k(
    Y: Any,
    F: Any,
    k: int,
    *,
    propensity: Any,
    normalize: bool = True,
    normalization: str = "ideal",
    empty_rows: str = "zero",
    sample_weight: Any = None,
    per_instance: bool = False,
) -> float | np.ndarray:
    r"""Propensity-scored nDCG at k (Jain, Prabhu & Varma 2016, Sec. 3).

    :math:`PSnDCG@k_i = \sum_{j=1}^k y_{i r_j} d_j / p_{r_j} \,/\, \sum_{j=1}^{\min(k,
    |\mathbf y_i|)} d_j`, averaged over instances; with ``normalize=True`` divided
    by the same average for the best ranking (pyxclib's ``psndcg``).

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels), 0/1
        True labels.
    F : array-like or sparse matrix of shape (n_samples, n_labels), or TopK
        Scores: dense, sparse (stored entries are the candidates) or a
        :class:`~mlcbook.topk.TopK`.
    k : int >= 1
        Cut-off (at most ``n_labels`` for dense ``F``).
    propensity : array-like of shape (n_labels,), values in (0, 1]
        Label propensities :math:`p_l` (:func:`jain_propensity`).
    normalize : bool, default True
        Divide by the best achievable value (ratio of two sums over instances).
    normalization : {"ideal", "k"}, default "ideal"
        The per-instance denominator, as in :func:`ndcg_at_k`.
    empty_rows : {"zero", "skip"}, default "zero"
    sample_weight : array-like of shape (n_samples,), optional
    per_instance : bool, default False
        Per-instance values; only with ``normalize=False``.

    Returns
    -------
    float (in [0, 1] when normalised), or ndarray of shape (n_samples,)
    """
    Yc, S, k, w, per, empty, q, norm = _ps_setup(
        Y, F, k, propensity, sample_weight, per_instance, empty_rows, normalize
    )
    nz = check_average(normalization, _NORMALIZATION, "normalization")
    num, best, n_pos = _psndcg_parts(Yc, S, k, q, nz)
    if norm:
        return _normalised(num, best, n_pos, empty, w)
    return _mean(num, n_pos, empty, w, per)


def coverage_at_k(Y: Any, F: Any, k: int, *, sample_weight: Any = None) -> float:
    r"""Coverage at k: the fraction of labels correctly predicted somewhere.

    .. math:: \mathrm{coverage}@k = \frac{|\bigcup_i (\{r_{i1},\dots,r_{ik}\}\cap
              \mathbf y_i)|}{|\bigcup_i \mathbf y_i|}

    the labels relevant to at least one instance that some instance ranks in its
    top k while relevant (napkinXC's ``coverage_at_k``; Wydmuch et al. 2018).
    With ties across the cut-off a label counts with the probability that it is
    covered.  NaN if no instance has a true label.  Not a mean over instances, so
    there are no per-instance values; an instance repeated covers nothing new, so
    instance weights only say which instances count (weight > 0).

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels), 0/1
        True labels.
    F : array-like or sparse matrix of shape (n_samples, n_labels), or TopK
        Scores: dense, sparse (stored entries are the candidates) or a
        :class:`~mlcbook.topk.TopK`.
    k : int >= 1
        Cut-off (at most ``n_labels`` for dense ``F``).
    sample_weight : array-like of shape (n_samples,), optional
        Instances of weight 0 are left out; the positive weights do not matter.

    Returns
    -------
    float in [0, 1] (or NaN)
    """
    Yc, S = _check_inputs(Y, F)
    k = _check_k(k, Yc.shape[1], not isinstance(S, _listed.Listed))
    w = _lc.check_sample_weight(sample_weight, Yc.shape[0])
    K = Yc.shape[1]
    live = None if w is None else w > 0
    seen = _listed.col_sums(Yc if live is None else Yc[live], None) > 0
    n_true = int(seen.sum())
    if n_true == 0:
        return float("nan")
    rows, labels, prob = _covered(Yc, S, k)
    if live is not None:
        keep = live[rows]
        labels, prob = labels[keep], prob[keep]
    sure = np.zeros(K, dtype=bool)
    sure[labels[prob == 1.0]] = True
    maybe = prob < 1.0
    logmiss = np.zeros(K)  # per label: log of the probability that no row covers it
    np.add.at(logmiss, labels[maybe], np.log1p(-prob[maybe]))
    covered = np.where(sure, 1.0, -np.expm1(logmiss))
    return float(covered[seen].sum() / n_true)


def _covered(Yc: Any, S: Any, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(row, label, probability) of every relevant label that may be in its row's top
    k: probability 1, or t/C for one of C tied labels sharing t places at the cut."""
    dense = not isinstance(S, _listed.Listed)
    L = _dense_top(S, k) if dense else S
    rows = L.rows.ids
    rel = _listed.relevance(Yc, rows, L.labels)
    G = _listed.TieGroups(L)
    C = G.C.copy()
    last = G.seg.ptr[1:] - 1
    if dense:  # the tie group at the k-th place counted over the whole row
        vk = L.scores[L.rows.ptr[1:] - 1]
        C[last] = (S == vk[:, None]).sum(axis=1)
    t = np.clip(k - G.above(C), 0, C)
    p_group = t / C
    prob = np.repeat(p_group, G.C) if G.first is not None else p_group
    keep = rel & (prob > 0.0)
    out_rows, out_labels, out_prob = rows[keep], L.labels[keep], prob[keep]
    if dense:  # relevant labels of a cut tie group beyond the listed top k
        cut_rows = np.flatnonzero(C[last] > G.C[last])
        if cut_rows.size:
            eq = (S[cut_rows] == vk[cut_rows, None]) & _dense_rows(Yc, cut_rows).astype(bool)
            np.put_along_axis(eq, L.labels.reshape(-1, k)[cut_rows], False, axis=1)
            r, c = np.nonzero(eq)
            out_rows = np.concatenate([out_rows, cut_rows[r]])
            out_labels = np.concatenate([out_labels, c])
            out_prob = np.concatenate([out_prob, p_group[last[cut_rows]][r]])
    return out_rows, out_labels, out_prob
