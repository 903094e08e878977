"""Ranking measures of listed scores (top-k or sparse), without a dense matrix.

The private engine behind :mod:`mlcbook.metrics`' ranking measures and AUCs, and
behind :mod:`mlcbook.extreme`, when the scores are a :class:`~mlcbook.topk.TopK` or
a sparse matrix (the convention is stated in :mod:`mlcbook.topk`: unlisted labels
tie below every listed score).

A row's ranking is a sequence of *tie groups* in decreasing score: each listed
group with its number of labels ``C`` and of relevant labels ``P``, then one
bottom group of the ``u = K - m`` unlisted labels, ``ru`` of them relevant.  Every
ranking measure is a function of that sequence and of within-row cumulative sums
over it, so the work is a sort of the listed entries of each row (none when the
rows come sorted, as top-k lists do) and a few passes over ``nnz + n`` numbers;
rows of one length (a top-k) are handled as an ``(n, k)`` array.  AUCs per label
use the same groups with labels as segments and instances as items.
"""

from __future__ import annotations

import functools
import sys
import warnings
from typing import Any

import numpy as np
import scipy.sparse as sp

from ._validation import as_2d
from .topk import TopK

__all__ = [
    "Listed",
    "RowRanking",
    "Segments",
    "TieGroups",
    "as_listed",
    "col_sums",
    "is_listed",
    "label_aucs",
    "label_average_precisions",
    "listed_from_csr",
    "micro_auc",
    "relevance",
    "row_sums",
]

# pad ragged rows into an (n, width) array for a row-wise sort when that costs at
# most this many times the listed entries (else one global sort)
_PAD_FACTOR = 4
# rows of one width up to this are summed column by column
_NARROW = 16


def is_listed(F: Any) -> bool:
    """True for the inputs this engine handles: a TopK or a sparse score matrix."""
    return isinstance(F, TopK) or sp.issparse(F)


class Segments:
    """Contiguous segments ``ptr[s]:ptr[s+1]`` of a flat array (the entries or tie
    groups of each row); ``width`` when every segment has that length, which turns
    every operation into one on an ``(n, width)`` view."""

    __slots__ = ("_ids", "ptr", "width")

    def __init__(self, ptr: np.ndarray, width: int | None = None) -> None:
        self.ptr = ptr
        self.width = width
        self._ids: np.ndarray | None = None

    @property
    def n(self) -> int:
        return int(self.ptr.size - 1)

    @property
    def ids(self) -> np.ndarray:
        """Segment of every element."""
        if self._ids is None:
            reps = self.width if self.width is not None else np.diff(self.ptr)
            self._ids = np.repeat(np.arange(self.n, dtype=np.int64), reps)
        return self._ids

    def _narrow(self) -> int:
        """The width of rows of one small width (handled one column at a time: a few
        passes over ``n`` numbers; NumPy's reductions along a short axis are slower),
        else 0."""
        return self.width if self.width is not None and self.width <= _NARROW else 0

    def sum(self, x: np.ndarray) -> np.ndarray:
        """Sum of ``x`` over each segment (exact for integers; 0 for an empty one)."""
        if w := self._narrow():
            x2 = x.reshape(-1, w)
            out = x2[:, 0].astype(np.result_type(x2.dtype, np.int64), copy=True)
            for j in range(1, x2.shape[1]):
                out += x2[:, j]
            return out
        if self.width is not None:
            return x.reshape(-1, self.width).sum(axis=1)
        c = np.cumsum(x)
        c = np.concatenate([np.zeros(1, dtype=c.dtype), c])
        return c[self.ptr[1:]] - c[self.ptr[:-1]]

    def before(self, x: np.ndarray) -> np.ndarray:
        """For every element, the sum of ``x`` over the earlier elements of its segment."""
        if w := self._narrow():
            x2 = x.reshape(-1, w)
            out = np.zeros(x2.shape, dtype=np.result_type(x2.dtype, np.int64))
            for j in range(1, x2.shape[1]):
                np.add(out[:, j - 1], x2[:, j - 1], out=out[:, j])
            return out.ravel()
        c = np.cumsum(x)
        start = (c - x)[self.ptr[:-1][np.diff(self.ptr) > 0]]
        return c - x - np.repeat(start, np.diff(self.ptr)[np.diff(self.ptr) > 0])

    def max(self, x: np.ndarray) -> np.ndarray:
        """Largest ``x`` of each segment; 0 for an empty segment."""
        if w := self._narrow():
            x2 = x.reshape(-1, w)
            out = x2[:, 0].copy()
            for j in range(1, x2.shape[1]):
                np.maximum(out, x2[:, j], out=out)
            return out
        if self.width is not None:
            return x.reshape(-1, self.width).max(axis=1)
        out = np.zeros(self.n, dtype=x.dtype)
        full = np.flatnonzero(self.ptr[1:] > self.ptr[:-1])
        if full.size:
            out[full] = np.maximum.reduceat(x, self.ptr[full])
        return out

    def position(self) -> np.ndarray:
        """For every element, its place (0, 1, ...) within its segment."""
        if self.width is not None:
            return np.tile(np.arange(self.width, dtype=np.int64), self.n)
        return np.arange(self.ptr[-1], dtype=np.int64) - self.ptr[:-1][self.ids]


def _row_breaks(rows: Segments, m: int) -> np.ndarray:
    """``b[j]`` True when elements ``j`` and ``j + 1`` lie in different segments."""
    b = np.zeros(m - 1, dtype=bool)
    inner = rows.ptr[1:-1]
    b[inner[(inner > 0) & (inner < m)] - 1] = True
    return b


def sort_rows(labels: np.ndarray, scores: np.ndarray, rows: Segments):
    """``labels`` and ``scores`` with each row's entries in decreasing score (ties in
    no particular order): nothing moved when the rows come sorted, a row-wise sort of
    an ``(n, width)`` array when the rows are short, else one global sort."""
    n, m = rows.n, scores.size
    if m < 2:
        return labels, scores
    if rows.width is not None:
        w = rows.width
        S2 = scores.reshape(n, w)
        if w > 1 and not bool((S2[:, 1:] <= S2[:, :-1]).all()):
            order = np.argsort(-S2, axis=1)
            labels = np.take_along_axis(labels.reshape(n, w), order, axis=1).ravel()
            scores = np.take_along_axis(S2, order, axis=1).ravel()
        return labels, scores
    if bool(((scores[1:] <= scores[:-1]) | _row_breaks(rows, m)).all()):
        return labels, scores
    counts = np.diff(rows.ptr)
    width = int(counts.max())
    if n * width <= _PAD_FACTOR * m + n:
        pad = np.full((n, width), -np.inf)
        pad[rows.ids, rows.position()] = scores
        order = np.argsort(-pad, axis=1)
        keep = order < counts[:, None]  # the padding (-inf) sorts last
        flat = (order + rows.ptr[:-1, None])[keep]
    else:  # one sort by (row, decreasing score): rank the scores, then sort the keys
        rank = np.empty(m, dtype=np.int64)
        rank[np.argsort(-scores)] = np.arange(m)
        flat = np.argsort(rows.ids * m + rank)
    return labels[flat], scores[flat]


def _strict(rows: Segments, scores: np.ndarray) -> bool:
    """No two equal scores within a row (scores sorted within rows)."""
    m = scores.size
    if m < 2:
        return True
    if rows.width is not None:
        S2 = scores.reshape(rows.n, rows.width)
        return not bool((S2[:, 1:] == S2[:, :-1]).any())
    tied = scores[1:] == scores[:-1]
    return not (tied.any() and bool((tied & ~_row_breaks(rows, m)).any()))


class Listed:
    """Listed scores, flat and sorted by decreasing score within each row.

    ``rows`` (:class:`Segments`) delimits the rows in ``labels`` and ``scores``;
    ``strict`` is True when no row has two equal scores (each tie group one label).
    """

    __slots__ = ("labels", "n_labels", "rows", "scores", "strict")

    def __init__(
        self, rows: Segments, labels: np.ndarray, scores: np.ndarray, n_labels: int
    ) -> None:
        self.rows, self.labels, self.scores, self.n_labels = rows, labels, scores, n_labels
        self.strict = _strict(rows, scores)

    @property
    def n(self) -> int:
        return self.rows.n


def listed_from_csr(indptr: Any, indices: Any, data: np.ndarray, n_labels: int) -> Listed:
    """:class:`Listed` of valid CSR arrays (each row then sorted by decreasing value)."""
    indptr = np.asarray(indptr, dtype=np.int64)
    counts = np.diff(indptr)
    width = None  # rows of one length > 0: handled as an (n, width) array
    if counts.size and counts[0] > 0 and bool((counts == counts[0]).all()):
        width = int(counts[0])
    rows = Segments(indptr, width)
    labels, scores = sort_rows(np.asarray(indices, dtype=np.int64), data, rows)
    return Listed(rows, labels, scores, n_labels)


def as_listed(F: Any, name: str = "F") -> Listed:
    """A validated :class:`Listed` from a :class:`TopK` or a sparse score matrix."""
    if isinstance(F, TopK):
        n, k = F.indices.shape
        rows = Segments(np.arange(0, n * k + 1, k, dtype=np.int64), k)
        labels, scores = sort_rows(F.indices.ravel(), F.scores.ravel(), rows)
        return Listed(rows, labels, scores, F.n_labels)
    A: Any = as_2d(F, name)  # canonical CSR copy: duplicates summed, indices sorted
    if A.data.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold real numbers, got dtype {A.data.dtype}")
    data = A.data.astype(np.float64, copy=False)
    if not np.isfinite(data).all():
        raise ValueError(f"{name} must not contain NaN or infinite values")
    _warn_unlisted_above(A.indptr, data, int(A.shape[1]), name)
    return listed_from_csr(A.indptr, A.indices, data, int(A.shape[1]))


class SparseScoresWarning(UserWarning):
    """A sparse score matrix read as listed scores is not the same dense matrix: some
    row stores a score <= 0 beside labels it does not store, which the dense matrix
    would rank at 0, above (or tied with) that score, and the listing ranks below it."""


def _warn_unlisted_above(indptr: np.ndarray, data: np.ndarray, K: int, name: str) -> None:
    """Warn when a row's implicit zeros are not the lowest scores of their row: a stored
    entry <= 0 in a row that leaves some label unstored."""
    lengths = np.diff(indptr)
    low = data <= 0.0
    if not low.any():
        return
    rows = np.flatnonzero(np.add.reduceat(low, indptr[:-1]) * (lengths > 0) * (lengths < K))
    if rows.size == 0:
        return
    warnings.warn(
        f"{name} is sparse, so its stored entries are the candidates and every label it "
        f"does not store ranks below them; but {rows.size} row(s) (the first: row "
        f"{int(rows[0])}) store a score <= 0, which the dense matrix would rank below its "
        "implicit zeros. The measures are those of the listing, not of "
        f"{name}.toarray(): pass the dense matrix to rank every label, or shift the "
        "scores to be positive",
        SparseScoresWarning,
        stacklevel=_caller_level(),
    )


def _caller_level() -> int:
    """The ``stacklevel`` of the first frame outside the library (the user's call)."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_globals.get("__name__", "").startswith("mlcbook."):
        frame, level = frame.f_back, level + 1  # type: ignore[assignment]
    return level


def relevance(Y: Any, rows: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """``Y[rows, labels]`` as bool for a validated int8 label matrix (dense or CSR)."""
    if rows.size == 0:
        return np.zeros(0, dtype=bool)
    if sp.issparse(Y):
        return np.asarray(Y[rows, labels]).ravel() != 0
    return Y[rows, labels] != 0


def row_sums(Y: Any) -> np.ndarray:
    """Relevant labels of each row of a validated label matrix, int64."""
    if sp.issparse(Y):
        return np.diff(Y.indptr).astype(np.int64)
    return Y.sum(axis=1, dtype=np.int64)


def col_sums(Y: Any, w: np.ndarray | None) -> np.ndarray:
    """Relevant instances of each label (int64), or their total weight (float64)."""
    if w is not None:
        return np.asarray(Y.T @ w).ravel() if sp.issparse(Y) else w @ Y
    if sp.issparse(Y):
        return np.bincount(Y.indices, minlength=Y.shape[1]).astype(np.int64)
    return Y.sum(axis=0, dtype=np.int64)


class TieGroups:
    """The tie groups of listed scores: runs of equal scores within a row.

    ``C`` (labels in each group) and ``seg`` (:class:`Segments`: the groups of each
    row); ``first`` the entry index of each group's first label, None when every
    entry is a group of its own (strictly decreasing rows).
    """

    def __init__(self, L: Listed) -> None:
        if L.strict:
            self.first: np.ndarray | None = None
            self.C = np.ones(L.scores.size, dtype=np.int64)
            self.seg = L.rows
            return
        rows = L.rows.ids
        new = np.ones(rows.size, dtype=bool)
        new[1:] = (L.scores[1:] != L.scores[:-1]) | (rows[1:] != rows[:-1])
        self.first = np.flatnonzero(new)
        self.C = np.diff(np.append(self.first, rows.size))
        self.seg = Segments(np.searchsorted(rows[self.first], np.arange(L.n + 1)))

    def first_entry(self) -> np.ndarray:
        """Entry index of the first label of every group."""
        return np.arange(self.C.size) if self.first is None else self.first

    def sum(self, x: np.ndarray) -> np.ndarray:
        """Per group, the sum of the per-entry values ``x``."""
        if self.first is None:
            return x
        c = np.cumsum(x)
        c = np.concatenate([np.zeros(1, dtype=c.dtype), c])
        return c[np.append(self.first[1:], x.size)] - c[self.first]

    def above(self, x: np.ndarray) -> np.ndarray:
        """Per group, the sum of the per-group values ``x`` over the groups above it."""
        return self.seg.before(x)


class RowRanking:
    """The tie groups of every row of listed scores against the truth ``Y``.

    Per row: ``n_pos`` relevant labels, ``u`` unlisted labels of which ``ru``
    relevant.  Per listed tie group (decreasing score within each row): ``C``
    labels, ``P`` relevant, and the relevant / all labels above it, ``Pa`` and ``Ca``.
    """

    def __init__(self, Y: Any, L: Listed) -> None:
        self.K, self.n, self.L = L.n_labels, L.n, L
        self.rel = relevance(Y, L.rows.ids, L.labels)
        self.n_pos = row_sums(Y)
        self.u = self.K - np.diff(L.rows.ptr)
        self.G = TieGroups(L)
        self.C = self.G.C

    @functools.cached_property
    def ru(self) -> np.ndarray:
        return self.n_pos - self.L.rows.sum(self.rel.view(np.int8))

    @functools.cached_property
    def P(self) -> np.ndarray:
        return self.G.sum(self.rel.view(np.int8)).astype(np.int64, copy=False)

    @functools.cached_property
    def Pa(self) -> np.ndarray:
        return self.G.above(self.P)

    @functools.cached_property
    def Ca(self) -> np.ndarray:
        return self.G.above(self.C)

    def _per_row(self, x: np.ndarray) -> np.ndarray:
        return self.G.seg.sum(x)

    @property
    def n_neg(self) -> np.ndarray:
        return self.K - self.n_pos

    def ranking_loss(self) -> np.ndarray:
        """(relevant, irrelevant) pairs with f_u <= f_v over all such pairs."""
        N = self.C - self.P
        Na = self.Ca - self.Pa
        nu = self.u - self.ru
        n_neg_listed = (self.K - self.u) - (self.n_pos - self.ru)
        wrong = self._per_row(self.P * (Na + N)) + self.ru * (n_neg_listed + nu)
        pairs = self.n_pos * self.n_neg
        out = np.zeros(self.n)
        np.divide(wrong, pairs, out=out, where=pairs > 0)
        return out

    def auc(self) -> np.ndarray:
        """Correctly ordered (relevant, irrelevant) pairs, a tie one half; NaN when a
        row has one class."""
        N = self.C - self.P
        Na = self.Ca - self.Pa
        nb = self.n_neg[self.G.seg.ids]
        good2 = self._per_row(self.P * (2 * (nb - Na - N) + N)) + self.ru * (self.u - self.ru)
        den = 2 * self.n_pos * self.n_neg
        out = np.full(self.n, np.nan)
        np.divide(good2, den, out=out, where=den > 0)
        return out

    def average_precision(self) -> np.ndarray:
        """Label ranking average precision, ties at the worst rank."""
        s = self._per_row(self.P * (self.Pa + self.P) / (self.Ca + self.C))
        s += self.ru * self.n_pos / self.K
        out = np.ones(self.n)
        ok = (self.n_pos > 0) & (self.n_pos < self.K)
        np.divide(s, self.n_pos, out=out, where=ok)
        return out

    def coverage(self) -> np.ndarray:
        """Rank (ties: worst) of the lowest relevant label, minus one."""
        depth = np.where(self.P > 0, self.Ca + self.C, 0)
        out = np.maximum(self.G.seg.max(depth) - 1, 0).astype(np.float64)
        out[self.ru > 0] = self.K - 1
        return out

    def one_error(self, Y: Any) -> np.ndarray:
        """1 where the top label (ties: the lowest index) is irrelevant."""
        gptr = self.G.seg.ptr
        first_g = gptr[:-1]
        listed = first_g < gptr[1:]
        top_rel = np.zeros(self.n, dtype=bool)
        rows = np.flatnonzero(listed)
        g = first_g[rows]
        starts = self.G.first_entry()[g]
        top_rel[rows] = self.rel[starts]
        tied = self.C[g] > 1
        if tied.any():  # the lowest label index among the tied top labels
            sizes = self.C[g[tied]]
            offsets = np.cumsum(sizes) - sizes
            take = np.repeat(starts[tied] - offsets, sizes) + np.arange(int(sizes.sum()))
            lowest = np.minimum.reduceat(self.L.labels[take], offsets)
            top_rel[rows[tied]] = relevance(Y, rows[tied], lowest)
        if not listed.all():  # a row listing nothing: all K tie, the top is label 0
            e = np.flatnonzero(~listed)
            top_rel[e] = relevance(Y, e, np.zeros(e.size, dtype=np.int64))
        return 1.0 - top_rel


def _sorted_groups(seg: np.ndarray, scores: np.ndarray, rel: np.ndarray, w: np.ndarray | None):
    """Entries sorted by (segment, decreasing score) merged into tie groups: the
    segment of each group and its (weighted) relevant and irrelevant counts."""
    m = seg.size
    wt = np.ones(m, dtype=np.int64) if w is None else w
    pos = np.where(rel, wt, 0)
    if m < 2:
        return seg, pos, wt - pos
    new = np.ones(m, dtype=bool)
    new[1:] = (seg[1:] != seg[:-1]) | (scores[1:] != scores[:-1])
    if new.all():
        return seg, pos, wt - pos
    first = np.flatnonzero(new)
    P = np.add.reduceat(pos, first)
    return seg[first], P, np.add.reduceat(wt, first) - P


def _auc_from_groups(seg, P, N, n_seg, seg_pos, seg_neg, bottom_pos, bottom_neg):
    """AUC per segment from its listed tie groups (decreasing score) and one bottom
    group of unlisted items below them; NaN where a segment has one class."""
    s = Segments(np.searchsorted(seg, np.arange(n_seg + 1)))
    below = seg_neg[seg] - s.before(N) - N  # negatives strictly below each group
    good2 = s.sum(P * (2 * below + N)) + bottom_pos * bottom_neg  # ties: one half
    den = 2.0 * seg_pos * seg_neg
    out = np.full(n_seg, np.nan)
    np.divide(good2, den, out=out, where=den > 0)
    return out


def _by_label(L: Listed) -> np.ndarray:
    """Order of the entries by (label, decreasing score): the scores ranked once,
    then one sort of the keys ``label * m + rank``."""
    m = L.scores.size
    rank = np.empty(m, dtype=np.int64)
    rank[np.argsort(-L.scores)] = np.arange(m)
    return np.argsort(L.labels * m + rank)


class _LabelGroups:
    """The listed entries of every label (column) in tie groups of decreasing score,
    and per label its (weighted) positives and negatives, listed and unlisted."""

    def __init__(self, Y: Any, L: Listed, w: np.ndarray | None) -> None:
        rows = L.rows.ids
        rel = relevance(Y, rows, L.labels)
        order = _by_label(L)
        lab = L.labels[order]
        wr = None if w is None else w[rows[order]]
        self.seg, self.P, self.N = _sorted_groups(lab, L.scores[order], rel[order], wr)
        K = self.K = L.n_labels
        self.total = Y.shape[0] if w is None else float(w.sum())
        self.pos = col_sums(Y, w)
        self.neg = self.total - self.pos
        if w is not None:  # exact zeros where a label has no negative of positive weight
            live = w > 0
            self.neg[int(live.sum()) - col_sums(Y[live], None) == 0] = 0.0
        listed = np.bincount(lab, weights=wr, minlength=K)
        is_pos = rel[order]
        listed_pos = np.bincount(
            lab[is_pos], weights=None if wr is None else wr[is_pos], minlength=K
        )
        self.bottom_pos = self.pos - listed_pos
        self.bottom_neg = (self.total - listed) - self.bottom_pos


def label_aucs(Y: Any, L: Listed, w: np.ndarray | None) -> np.ndarray:
    """AUC of every label (instances as items), NaN where a label has one class."""
    G = _LabelGroups(Y, L, w)
    return _auc_from_groups(G.seg, G.P, G.N, G.K, G.pos, G.neg, G.bottom_pos, G.bottom_neg)


def label_average_precisions(Y: Any, L: Listed, w: np.ndarray | None) -> np.ndarray:
    """Per label, the step sum of its precision-recall curve: the sum over the tie
    groups (thresholds) of the recall gained times the precision there; the unlisted
    instances are the last threshold.  0 for a label without positives."""
    G = _LabelGroups(Y, L, w)
    s = Segments(np.searchsorted(G.seg, np.arange(G.K + 1)))
    tp = s.before(G.P) + G.P  # positives at or above each threshold, in its label
    fp = s.before(G.N) + G.N
    prec = np.zeros(tp.shape)
    np.divide(tp, tp + fp, out=prec, where=(tp + fp) > 0)
    gain = s.sum(G.P * prec)
    last = np.zeros(G.K)  # the unlisted threshold: every instance at or above it
    np.divide(G.pos, G.total, out=last, where=np.asarray(G.total) > 0)
    gain = gain + G.bottom_pos * last
    out = np.zeros(G.K)
    np.divide(gain, G.pos, out=out, where=G.pos > 0)
    return out


def micro_auc(Y: Any, L: Listed, w: np.ndarray | None) -> float:
    """AUC over every (instance, label) entry of the matrix."""
    rows = L.rows.ids
    rel = relevance(Y, rows, L.labels)
    order = np.argsort(-L.scores)
    wr = None if w is None else w[rows[order]]
    zero = np.zeros(order.size, dtype=np.int64)
    seg, P, N = _sorted_groups(zero, L.scores[order], rel[order], wr)
    K = L.n_labels
    tot_pos: Any
    total: Any
    listed: Any
    listed_pos: Any
    if w is None:  # integer counts: n K may pass 2**53 in the pair counts
        tot_pos, total = int(row_sums(Y).sum()), Y.shape[0] * K
        listed, listed_pos = rows.size, int(rel.sum())
    else:
        tot_pos, total = float(row_sums(Y) @ w), float(w.sum()) * K
        listed, listed_pos = float(w[rows].sum()), float(w[rows][rel].sum())
    bottom_pos = tot_pos - listed_pos
    bottom_neg = (total - listed) - bottom_pos
    tot_neg = total - tot_pos
    if w is not None and int(row_sums(Y[w > 0]).sum()) == int((w > 0).sum()) * K:
        tot_neg = 0.0  # every entry of positive weight is relevant
    if w is not None:
        out = _auc_from_groups(
            seg, P, N, 1, np.array([tot_pos]), np.array([tot_neg]), bottom_pos, bottom_neg
        )
        return float(out[0])
    if tot_pos == 0 or tot_neg == 0:
        return float("nan")
    below = tot_neg - (np.cumsum(N) - N) - N  # negatives strictly below each group
    terms = P * (2 * below + N)
    if 2 * tot_pos * tot_neg >= 2**63:  # the int64 sum could overflow: Python integers
        terms = P.astype(object) * (2 * below.astype(object) + N.astype(object))
    good2 = int(terms.sum()) + bottom_pos * bottom_neg
    return good2 / (2 * tot_pos * tot_neg)  # Python integers: correctly rounded
