"""Rank sums of dense score matrices: one sort per row, then sums over relevant entries.

The private kernels behind the ranking measures of dense scores in
:mod:`mlcbook.metrics` (per instance: ranking loss, instance AUC, label ranking
average precision) and the per-label AUCs and average precisions.

**Rows** (:func:`rank_sums`).  For a row of ``m`` scores whose relevant entries sit at
the ascending sorted positions :math:`p_0 < p_1 < \\dots` (the :math:`j`-th relevant one
at :math:`p_j`), *when the row has no tied scores*:

* irrelevant entries below the :math:`j`-th relevant one: :math:`p_j - j`, so the
  correctly ordered (relevant, irrelevant) pairs number :math:`\\sum_j p_j -
  n_+(n_+ - 1)/2` (the Mann-Whitney rank sum);
* its rank from the top is :math:`m - p_j` and :math:`n_+ - j` relevant entries score
  at least as high, so the average precision is :math:`\\frac{1}{n_+}\\sum_j (n_+ -
  j)/(m - p_j)`.

Both need only the positions of the relevant entries, not a cumulative count per
entry.  Rows are processed in blocks that fit in a core's cache; rows with a tie are
flagged, and the callers compute them with their tie rules.

**Columns** (:func:`column_positions`).  A label's instances are long, and sorting
them is most of the work.  Each score is packed with its label into one 32-bit key:
the score rounded to float32 (a monotone map: ``x < y`` gives ``f32(x) <= f32(y)``;
``-0.0`` read as ``+0.0``), its bits made order-preserving as a signed integer, the
lowest bit replaced by the label.  One SIMD sort of the int32 keys (half the bytes of
the float64 scores, no permutation carried) gives every label's relevance in score
order.  Keys that differ above the lowest bit order their scores exactly; a run of
equal keys (scores within two float32 steps, or equal) holding a positive is put in
its exact order from the float64 scores of its members.  The positions of the
positives then give the Mann-Whitney count and the precision-recall step sum, as for
rows.  A label where a positive's score *equals* another score is flagged, and the
callers compute it with its ties: the AUC by :func:`column_counts` (its positive and
negative scores are sorted apart and each positive is located among the negatives by
binary search, which gives the Mann-Whitney count with ties one half), the average
precision by scikit-learn's precision-recall curve.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "ColumnCounts",
    "ColumnPositions",
    "RankSums",
    "column_counts",
    "column_positions",
    "columns",
    "lowest_relevant_rank",
    "rank_sums",
]

#: cells of a block of rows sorted at once (2 MiB of float64 scores)
_BLOCK_CELLS = 1 << 18
#: rows of a block transposed at once
_TRANSPOSE_ROWS = 1024


@dataclass(frozen=True)
class RankSums:
    """Per row: relevant entries ``n_pos``, the sum of their ascending positions
    ``position_sum``, the average-precision sum ``ap_sum`` (valid where ``tied`` is
    False) and ``tied``: the row has two equal scores."""

    n_pos: np.ndarray
    position_sum: np.ndarray
    ap_sum: np.ndarray
    tied: np.ndarray
    m: int

    def correct_pairs(self) -> np.ndarray:
        """(relevant, irrelevant) pairs with the relevant entry strictly higher."""
        return self.position_sum - self.n_pos * (self.n_pos - 1) // 2


def rank_sums(B: np.ndarray, A: np.ndarray) -> RankSums:
    """The rank sums of every row of the scores ``A`` (n, m) against the 0/1 ``B``
    (int8 or bool, same shape), a block of rows at a time."""
    n, m = A.shape
    n_pos = np.zeros(n, dtype=np.int64)
    position_sum = np.zeros(n, dtype=np.int64)
    ap_sum = np.zeros(n)
    tied = np.zeros(n, dtype=bool)
    step = max(1, _BLOCK_CELLS // max(m, 1))
    for lo in range(0, n, step):
        a, b = A[lo : lo + step], B[lo : lo + step]
        rows = a.shape[0]
        order = np.argsort(a, axis=1)
        order += (np.arange(rows, dtype=order.dtype) * m)[:, None]
        flat = order.ravel()
        s = a.ravel()[flat].reshape(rows, m)
        if m > 1:
            tied[lo : lo + rows] = (s[:, 1:] == s[:, :-1]).any(axis=1)
        r, p = np.divmod(np.flatnonzero(b.ravel()[flat]), m)
        cnt = np.bincount(r, minlength=rows)
        j = np.arange(r.size) - np.repeat(np.cumsum(cnt) - cnt, cnt)
        n_pos[lo : lo + rows] = cnt
        position_sum[lo : lo + rows] = np.bincount(r, weights=p, minlength=rows)
        ap_sum[lo : lo + rows] = np.bincount(r, weights=(cnt[r] - j) / (m - p), minlength=rows)
    return RankSums(n_pos, position_sum, ap_sum, tied, m)


def columns(A: np.ndarray) -> np.ndarray:
    """``A.T`` made contiguous a block of rows at a time (a transposing copy that
    reads and writes whole cache lines: about twice as fast as one copy)."""
    n, m = A.shape
    out = np.empty((m, n), dtype=A.dtype)
    for lo in range(0, n, _TRANSPOSE_ROWS):
        out[:, lo : lo + _TRANSPOSE_ROWS] = A[lo : lo + _TRANSPOSE_ROWS].T
    return out


_INF_BITS = np.array(np.inf).view(np.int64)


def lowest_relevant_rank(B: np.ndarray, A: np.ndarray, *, name: str = "") -> np.ndarray:
    """Per row, how many entries score at least as high as its lowest-scored relevant
    one (its rank, ties counted at the worst); 0 for a row without relevant entries.
    ``B``: 0/1 of any integer or boolean dtype.  No sort: per block of rows (in
    cache), the scores plus 0 (relevant) or +inf (irrelevant; the bits of ``(b - 1)
    & inf``), their row minimum, one comparison.  With ``name``, the scores are also
    checked for NaN and infinities on the way (``ValueError`` naming ``name``)."""
    n, m = A.shape
    out = np.empty(n, dtype=np.int64)
    step = max(1, (_BLOCK_CELLS // 4) // max(m, 1))
    buf = np.empty((min(step, n), m), dtype=np.int64)
    for lo in range(0, n, step):
        a, b = A[lo : lo + step], B[lo : lo + step]
        if name and not _finite_sum(a) and not np.isfinite(a).all():
            raise ValueError(f"{name} must not contain NaN or infinite values")
        w = buf[: a.shape[0]]
        np.subtract(b, 1, out=w, dtype=np.int64, casting="unsafe")  # 0 or -1 (all ones)
        w &= _INF_BITS
        wf = w.view(np.float64)
        wf += a  # a + 0.0 (relevant; -0.0 becomes 0.0, an equal score) or +inf
        ge = np.greater_equal(a, wf.min(axis=1)[:, None])
        out[lo : lo + a.shape[0]] = _row_counts(ge)
    return out


def _finite_sum(a: np.ndarray) -> bool:
    """A finite sum: no NaN or infinity (one pass, no temporary); a sum of huge finite
    values that overflows says False, and the caller looks closer."""
    with np.errstate(over="ignore", invalid="ignore"):
        return bool(np.isfinite(a.sum()))


def _row_counts(ge: np.ndarray) -> np.ndarray:
    """The True entries of each row of a bool matrix (int8 sums below 128 columns)."""
    if ge.shape[1] < 128:
        return np.einsum("ij->i", ge.view(np.int8))
    return np.count_nonzero(ge, axis=1)


@dataclass(frozen=True)
class ColumnCounts:
    """One label: its positive scores sorted (``pos``), the number of negatives
    below each (``below``) and tied with each (``tied_neg``), the number of
    instances ``n``; ``pos_tied``: two positives share a score."""

    pos: np.ndarray
    below: np.ndarray
    tied_neg: np.ndarray
    n: int
    pos_tied: bool

    @property
    def n_neg(self) -> int:
        return self.n - self.pos.size

    def auc(self) -> float:
        """Correctly ordered (positive, negative) pairs, a tie one half; NaN with one
        class."""
        if self.pos.size == 0 or self.n_neg == 0:
            return float("nan")
        good2 = 2 * int(self.below.sum(dtype=np.int64)) + int(self.tied_neg.sum(dtype=np.int64))
        return good2 / (2.0 * self.pos.size * self.n_neg)

    def average_precision(self) -> float | None:
        """Step sum of the precision-recall curve when no score ties a positive's
        (None otherwise); 0 without positives."""
        m = self.pos.size
        if m == 0:
            return 0.0
        if self.pos_tied or self.tied_neg.any():
            return None
        j = np.arange(m)
        return float(np.sum((m - j) / (self.n - self.below - j)) / m)


def column_counts(y: np.ndarray, f: np.ndarray) -> ColumnCounts:
    """The counts of one label: ``y`` bool, ``f`` its scores (contiguous 1-D)."""
    pos = np.sort(f[y])
    neg = np.sort(f[~y])
    below = np.searchsorted(neg, pos, side="left")
    at = below < neg.size
    tie = neg.size > 0 and bool((neg[np.minimum(below, neg.size - 1)] == pos)[at].any())
    tied_neg = np.searchsorted(neg, pos, side="right") - below if tie else np.zeros_like(below)
    pos_tied = pos.size > 1 and bool((pos[1:] == pos[:-1]).any())
    return ColumnCounts(pos, below, tied_neg, f.size, pos_tied)


#: bits of the hash that finds the members of a run of equal keys among a label's scores
_HASH_BITS = 16
_SIGN_OFF = np.int32(0x7FFFFFFF)


@dataclass(frozen=True)
class ColumnPositions:
    """Per label (column): positives ``n_pos``, the sum of their ascending positions
    among the label's ``n`` scores ``position_sum``, the average-precision sum
    ``ap_sum`` (:math:`\\sum_j (n_+ - j) / (n - p_j)`) and ``exact``: False where a
    positive's score equals another score of the label (its values are then not
    given: use :func:`column_counts`)."""

    n_pos: np.ndarray
    position_sum: np.ndarray
    ap_sum: np.ndarray
    exact: np.ndarray
    n: int

    def auc(self) -> np.ndarray:
        """Correctly ordered (positive, negative) pairs over all pairs; NaN with one
        class (and where not ``exact``)."""
        m = self.n_pos
        n_neg = self.n - m
        good2 = 2 * (self.position_sum - m * (m - 1) // 2)
        den = 2.0 * m * n_neg
        out = np.full(m.shape, np.nan)
        np.divide(good2, den, out=out, where=(den > 0) & self.exact)
        return out

    def average_precision(self) -> np.ndarray:
        """Step sum of each label's precision-recall curve (0 without positives; NaN
        where not ``exact``)."""
        out = np.zeros(self.n_pos.shape)
        np.divide(self.ap_sum, self.n_pos, out=out, where=self.n_pos > 0)
        out[~self.exact] = np.nan
        return out


def _keys(F: np.ndarray) -> np.ndarray:
    """Order-preserving int32 keys of the float64 scores ``F`` rounded to float32 with
    the lowest bit cleared (for the label)."""
    with np.errstate(over="ignore"):  # beyond float32's range: +-inf, a run resolved exactly
        g = F.astype(np.float32)
    g += np.float32(0.0)  # -0.0 -> +0.0 (equal scores, one key)
    k = g.view(np.int32)
    k ^= (k >> 31) & _SIGN_OFF  # negative floats: larger magnitude, smaller key
    k &= np.int32(-2)
    return k


def column_positions(Y: np.ndarray, F: np.ndarray, *, ap: bool = True) -> ColumnPositions:
    """The positions of every label's positives in the ascending order of its scores:
    ``Y`` (n, m) int8 or bool 0/1, ``F`` (n, m) float64 (finite); ``ap``: also the
    average-precision sums (else zeros)."""
    n, m = F.shape
    keys = _keys(F)
    keys |= Y.view(np.int8) if Y.dtype == bool else Y
    K = columns(keys)  # (m, n): one label a row, unsorted
    del keys
    S = np.sort(K, axis=1)
    lab = (S & 1).astype(bool)
    exact = np.ones(m, dtype=bool)
    if n > 1:
        # neighbours 0 or 1 apart (a difference that wrapped around is large unsigned)
        near = np.diff(S, axis=1).view(np.uint32) <= 1
        col, at = np.divmod(np.flatnonzero(near), n - 1)
        del near
        bounds = np.searchsorted(col, np.arange(m + 1))
        for j in np.flatnonzero(np.diff(bounds)):
            i = at[bounds[j] : bounds[j + 1]]
            exact[j] = _order_runs(S[j], i, lab[j], K[j], Y[:, j], F[:, j])
    del K, S
    n_pos = lab.sum(axis=1, dtype=np.int64)
    q = np.flatnonzero(lab)  # row * n + position
    starts = np.cumsum(n_pos) - n_pos
    has = n_pos > 0
    position_sum = np.zeros(m, dtype=np.int64)
    rows = np.flatnonzero(has)
    position_sum[has] = np.add.reduceat(q, starts[has]) - n_pos[has] * rows * n
    ap_sum = np.zeros(m)
    if ap and q.size:
        # the j-th positive of a row (at p_j): (n_pos - j) / (n - p_j), summed per row
        ends = starts + n_pos
        num = np.repeat(ends, n_pos) - np.arange(q.size)
        den = np.repeat(np.arange(1, m + 1) * n, n_pos) - q
        terms = num / den
        for r in rows:  # pairwise sums, row by row
            ap_sum[r] = np.sum(terms[starts[r] : ends[r]])
    return ColumnPositions(n_pos, position_sum, ap_sum, exact, n)


def _order_runs(
    s: np.ndarray, i: np.ndarray, lab: np.ndarray, k: np.ndarray, y: Any, f: np.ndarray
) -> bool:
    """Put the runs of equal keys of one label that hold a positive in the exact order
    of their float64 scores, writing their labels into ``lab``.  ``s``: the sorted
    keys, ``i`` the positions where the next key is 0 or 1 larger, ``k`` the unsorted
    keys.  False (the label is left to :func:`column_counts`) if a positive's score
    equals another score there."""
    # same score key: equal keys (same label), or a negative's even key then a positive's
    i = i[(s[i] == s[i + 1]) | ((s[i] & 1) == 0)]
    if i.size == 0:
        return True
    first = np.ones(i.size, dtype=bool)  # i starts a run (not the pair after another)
    first[1:] = i[1:] != i[:-1] + 1
    lo = i[first]  # first sorted position of each run
    hi = np.append(i[np.flatnonzero(first)[1:] - 1], i[-1]) + 2  # one past its last
    keep = (s[hi - 1] & 1) == 1  # the run holds a positive (labels sort after negatives)
    lo, hi = lo[keep], hi[keep]
    if lo.size == 0:
        return True
    v = s[lo] >> 1  # each run's score key, ascending
    mask = np.int32((1 << (_HASH_BITS + 1)) - 2)  # hash bits above the label bit
    table = np.zeros(1 << (_HASH_BITS + 1), dtype=bool)
    table[s[lo] & mask] = True
    cand = np.flatnonzero(table[k & mask])
    tc = k[cand] >> 1
    at = np.minimum(np.searchsorted(v, tc), v.size - 1)
    members = cand[v[at] == tc]  # original indices of the runs' members
    run = at[v[at] == tc]
    fv = f[members]
    yv = np.asarray(y[members]) != 0
    order = np.lexsort((fv, run))
    fs, ys, rs = fv[order], yv[order], run[order]
    if ((rs[1:] == rs[:-1]) & (fs[1:] == fs[:-1]) & (ys[1:] | ys[:-1])).any():
        return False  # a positive ties another score: one half per pair
    length = hi - lo
    where = np.repeat(lo - np.cumsum(length) + length, length) + np.arange(length.sum())
    lab[where] = ys
    return True
