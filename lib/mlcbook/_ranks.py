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

**Columns** (:func:`column_counts`).  A label's instances are long: its positive and
negative scores are sorted apart (two SIMD sorts, cheaper than one argsort) and each
positive is located among the negatives by binary search, which gives the
Mann-Whitney count (ties one half) and, without ties, the precision-recall step sum.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = [
    "ColumnCounts",
    "RankSums",
    "column_counts",
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


def lowest_relevant_rank(B: np.ndarray, A: np.ndarray) -> np.ndarray:
    """Per row, how many entries score at least as high as its lowest-scored relevant
    one (its rank, ties counted at the worst); 0 for a row without relevant entries.
    No sort: two passes over each block of rows while it is in cache."""
    n, m = A.shape
    out = np.empty(n, dtype=np.int64)
    step = max(1, (_BLOCK_CELLS // 4) // max(m, 1))
    for lo in range(0, n, step):
        a, b = A[lo : lo + step], B[lo : lo + step]
        lowest = np.where(b != 0, a, np.inf).min(axis=1)
        out[lo : lo + a.shape[0]] = np.count_nonzero(a >= lowest[:, None], axis=1)
    return out


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
