"""The ranking measures of :mod:`mlcbook.metrics`: functions of real-valued scores.

Ranking loss, one-error, coverage and label-ranking average precision, per row from one
sort (:mod:`mlcbook._ranks`; rows with tied scores by :class:`_TiedRowStats`), in the
book's convention and Wu & Zhou's MATLAB code's (``convention="wu_zhou"``).  Public
through :mod:`mlcbook.metrics`, which documents the conventions.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from . import _labelcounts as _lc
from . import _listed, _ranks
from ._classification import check_flag, check_scores, finish
from ._validation import (
    check_average,
    check_label_matrix,
    check_same_shape,
    check_score_matrix,
)

_divide = _lc.divide


# --------------------------------------------------------------------------- ranking
class RowStats:
    """Per-row ranking statistics, shared by the ranking measures: rank sums
    (:mod:`mlcbook._ranks`, one sort per row) for the rows without tied scores, the
    tie-aware counts of :class:`_TiedRowStats` for the rows with ties."""

    __slots__ = ("K", "rs", "tied", "tied_rows")

    def __init__(self, Y: np.ndarray, F: np.ndarray) -> None:
        self.K = F.shape[1]
        self.rs = _ranks.rank_sums(Y, F)
        self.tied_rows = np.flatnonzero(self.rs.tied)
        t = self.tied_rows
        self.tied = _TiedRowStats(Y[t], F[t]) if t.size else None

    def _with_ties(self, v: np.ndarray, what: str) -> np.ndarray:
        if self.tied is not None:
            v[self.tied_rows] = getattr(self.tied, what)()
        return v

    def ranking_loss(self) -> np.ndarray:
        pairs = self.rs.n_pos * (self.K - self.rs.n_pos)
        v = _divide(pairs - self.rs.correct_pairs(), pairs, 0.0)
        return self._with_ties(v, "ranking_loss")

    def average_precision(self) -> np.ndarray:
        n_pos = self.rs.n_pos
        v = _divide(self.rs.ap_sum, n_pos, 1.0)
        v[(n_pos == 0) | (n_pos == self.K)] = 1.0
        return self._with_ties(v, "average_precision")

    def auc(self) -> np.ndarray:
        pairs = self.rs.n_pos * (self.K - self.rs.n_pos)
        v = np.full(pairs.shape, np.nan)
        np.divide(self.rs.correct_pairs(), pairs, out=v, where=pairs > 0)
        return self._with_ties(v, "auc")


class _TiedRowStats:
    """Per-entry counts within each row, for rows with tied scores.

    Every row of ``F`` is sorted once (``argsort`` along the short label axis);
    cumulative sums then give, for each entry (in sorted order), the number of
    relevant / irrelevant entries of its row with a strictly smaller score
    (``rel_below``, ``irr_below``), the number of irrelevant entries with an
    equal score (``irr_tied``) and the first sorted position of its tie group
    (``start``).  No Python loop over rows.
    """

    __slots__ = ("K", "Ys", "irr_below", "irr_tied", "n_pos", "rel_below", "start")

    def __init__(self, Y: np.ndarray, F: np.ndarray) -> None:
        n, K = F.shape
        it = np.int32 if K < 2**31 - 2 else np.int64
        order = np.argsort(F, axis=1)
        Fs = np.take_along_axis(F, order, axis=1)
        Ys = np.take_along_axis(Y, order, axis=1)
        del order
        idx = np.arange(K, dtype=it)
        new = np.empty((n, K), dtype=bool)
        new[:, 0] = True
        np.not_equal(Fs[:, 1:], Fs[:, :-1], out=new[:, 1:])
        del Fs
        # first and last (inclusive) sorted position of each entry's tie group
        start = np.maximum.accumulate(np.where(new, idx, it(0)), axis=1)
        last = np.empty((n, K), dtype=bool)
        last[:, -1] = True
        last[:, :-1] = new[:, 1:]
        end = np.minimum.accumulate(np.where(last, idx, it(K - 1))[:, ::-1], axis=1)[:, ::-1]
        relcum = np.zeros((n, K + 1), dtype=it)
        np.cumsum(Ys, axis=1, dtype=it, out=relcum[:, 1:])
        self.rel_below = np.take_along_axis(relcum, start, axis=1)
        end += 1
        rel_upto = np.take_along_axis(relcum, end, axis=1)  # relevant with score <= own
        self.irr_below = start - self.rel_below
        self.irr_tied = end - rel_upto - self.irr_below
        self.start = start
        self.Ys = Ys.astype(bool)
        self.n_pos = relcum[:, -1].astype(np.int64)
        self.K = K

    def ranking_loss(self) -> np.ndarray:
        n_neg = self.K - self.n_pos
        # pairs (u relevant, v irrelevant) with f_u <= f_v are all pairs minus
        # those with the irrelevant label strictly below u
        below = np.where(self.Ys, self.irr_below, 0).sum(axis=1, dtype=np.int64)
        return _divide(self.n_pos * n_neg - below, self.n_pos * n_neg, 0.0)

    def average_precision(self) -> np.ndarray:
        rank = self.K - self.start  # labels scored >= this one (ties: worst rank)
        rel_above = self.n_pos[:, None] - self.rel_below  # relevant labels scored >= it
        s = np.where(self.Ys, rel_above / rank, 0.0).sum(axis=1)
        out = _divide(s, self.n_pos, 1.0)
        out[(self.n_pos == 0) | (self.n_pos == self.K)] = 1.0
        return out

    def auc(self) -> np.ndarray:
        n_neg = self.K - self.n_pos
        # twice the number of correctly ordered pairs, a tie counting one half
        good2 = np.where(self.Ys, 2 * self.irr_below + self.irr_tied, 0).sum(
            axis=1, dtype=np.int64
        )
        den = 2 * self.n_pos * n_neg
        out = np.full(den.shape, np.nan)
        np.divide(good2, den, out=out, where=den > 0)
        return out


def score_args(Y, F, sample_weight, per_instance):
    Y, F = check_scores(Y, F)
    w = _lc.check_sample_weight(sample_weight, Y.shape[0])
    return Y, F, w, check_flag(per_instance, "per_instance")


def listed_args(Y, F, sample_weight, per_instance, convention: Any = "mlcbook"):
    """Truth (sparse kept sparse) and listed scores (a TopK or a sparse matrix:
    :mod:`mlcbook.topk`), checked against each other."""
    if check_convention(convention) != "mlcbook":
        raise ValueError(
            "convention='wu_zhou' needs a dense score matrix F (the authors' code sorts "
            f"every score of a row), got {type(F).__name__}"
        )
    Yc = check_label_matrix(Y, "Y")
    L = _listed.as_listed(F, "F")
    if Yc.shape != (L.n, L.n_labels):
        raise ValueError(
            f"Y and F must have the same shape, got {Yc.shape} and {(L.n, L.n_labels)}"
        )
    w = _lc.check_sample_weight(sample_weight, Yc.shape[0])
    return Yc, L, w, check_flag(per_instance, "per_instance")


CONVENTIONS: tuple[str, ...] = ("mlcbook", "wu_zhou")


def check_convention(convention: Any) -> str:
    return check_average(convention, CONVENTIONS, "convention")


def degenerate_rows(Y: np.ndarray) -> np.ndarray:
    """Rows whose labels are all relevant or all irrelevant."""
    n_pos = Y.sum(axis=1)
    return (n_pos == 0) | (n_pos == Y.shape[1])


def skip_rows(v: np.ndarray, drop: np.ndarray) -> np.ndarray:
    """``v`` with the dropped rows set to NaN (left out of the mean by ``finish``)."""
    v = np.asarray(v, dtype=np.float64).copy()
    v[drop] = np.nan
    return v


def _sorted_positions(Y: np.ndarray, F: np.ndarray) -> np.ndarray:
    """Relevance of the labels in MATLAB's ``sort(F)`` order (ascending; equal scores
    keep their index order), one row per instance."""
    order = np.argsort(F, axis=1, kind="stable")
    return np.take_along_axis(Y.astype(bool), order, axis=1)


def _average_precision_order(Y: np.ndarray, F: np.ndarray) -> np.ndarray:
    """Wu & Zhou's ``Average_precision.m``: a label's rank is its place in the
    ascending sort counted from the top, ties by sort position."""
    Ys = _sorted_positions(Y, F)
    K = Y.shape[1]
    rel_from = np.cumsum(Ys[:, ::-1], axis=1)[:, ::-1]  # relevant at positions >= p
    rank = K - np.arange(K)  # labels at positions >= p
    n_pos = Ys.sum(axis=1)
    s = np.where(Ys, rel_from / rank, 0.0).sum(axis=1)
    return _divide(s, n_pos, np.nan)


def _coverage_order(Y: np.ndarray, F: np.ndarray) -> np.ndarray:
    """Wu & Zhou's ``Coverage.m``: labels at or above the lowest-placed relevant
    label in the ascending sort, minus one; -1 for a row without relevant labels."""
    Ys = _sorted_positions(Y, F)
    K = Y.shape[1]
    first = np.where(Ys.any(axis=1), Ys.argmax(axis=1), K)
    return (K - first - 1).astype(np.float64)


def ranking_loss_values(Y, F) -> np.ndarray:
    return RowStats(Y, F).ranking_loss()


def ranking_loss(
    Y: Any,
    F: Any,
    *,
    sample_weight: Any = None,
    per_instance: bool = False,
    convention: str = "mlcbook",
) -> float | np.ndarray:
    r"""Ranking loss: the mean fraction of (relevant, irrelevant) label pairs
    that the scores order wrongly.

    .. math:: \mathrm{rloss} = \frac1n\sum_i \frac{|\{(u,v)\in Y_i^+\times Y_i^-:
              f_u(\mathbf x_i)\le f_v(\mathbf x_i)\}|}{|Y_i^+|\,|Y_i^-|}

    Wu & Zhou (2017), Table 1; Zhang & Zhou (2014), Sec. 2.2.2.  A tied pair
    counts as wrong.  An instance whose labels are all relevant or all
    irrelevant contributes 0 (and counts in the mean).  Equal to
    :func:`sklearn.metrics.label_ranking_loss`, computed here without a loop
    over instances.

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels), 0/1
    F : array-like of shape (n_samples, n_labels), real scores
    sample_weight : array-like of shape (n_samples,), optional
        Instance weights of the mean (as in scikit-learn).
    per_instance : bool, default False
        Return the value of every instance (shape ``(n_samples,)``) instead.
    convention : {"mlcbook", "wu_zhou"}, default "mlcbook"
        ``"wu_zhou"``: as ``Ranking_loss.m`` of Wu & Zhou's code, instances whose
        labels are all relevant or all irrelevant are left out of the mean (their
        per-instance value is NaN).

    Returns
    -------
    float in [0, 1], or ndarray of shape (n_samples,)
    """
    if _listed.is_listed(F):
        Yc, L, w, per = listed_args(Y, F, sample_weight, per_instance, convention)
        return finish(_listed.RowRanking(Yc, L).ranking_loss(), w, per)
    Y, F, w, per = score_args(Y, F, sample_weight, per_instance)
    v = ranking_loss_values(Y, F)
    if check_convention(convention) == "wu_zhou":
        v = skip_rows(v, degenerate_rows(Y))
    return finish(v, w, per)


def one_error_values(Y, F) -> np.ndarray:
    top = np.argmax(F, axis=1)
    return 1.0 - np.take_along_axis(Y, top[:, None], axis=1)[:, 0].astype(np.float64)


def one_error(
    Y: Any, F: Any, *, sample_weight: Any = None, per_instance: bool = False
) -> float | np.ndarray:
    r"""One-error: the fraction of instances whose top-scored label is irrelevant.

    .. math:: \text{one-error} = \frac1n\sum_i [\![\arg\max_j f_j(\mathbf x_i)\notin Y_i^+]\!]

    Wu & Zhou (2017), Table 1.  Ties for the maximum are broken in favour of
    the first (lowest-index) label, as :func:`numpy.argmax` does; an instance
    without relevant labels counts as an error.  scikit-learn has no
    equivalent.

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels), 0/1
    F : array-like of shape (n_samples, n_labels)
    sample_weight : array-like of shape (n_samples,), optional
        Instance weights of the mean (as in scikit-learn).
    per_instance : bool, default False
        Return the value of every instance (shape ``(n_samples,)``) instead.

    Returns
    -------
    float in [0, 1], or ndarray of shape (n_samples,)
    """
    if _listed.is_listed(F):
        Yc, L, w, per = listed_args(Y, F, sample_weight, per_instance)
        return finish(_listed.RowRanking(Yc, L).one_error(Yc), w, per)
    Y, F, w, per = score_args(Y, F, sample_weight, per_instance)
    return finish(one_error_values(Y, F), w, per)


def coverage_values(Y, F, name: str = "") -> np.ndarray:
    cov = _ranks.lowest_relevant_rank(Y, F, name=name) - 1
    return np.maximum(cov, 0).astype(np.float64)


def coverage_args(Y: Any, F: Any, sample_weight: Any):
    """Truth and scores checked for the one-pass coverage kernel: a dense integer
    ``Y`` stays as it is, ``F``'s NaN and infinities are looked for by the kernel."""
    Yc = _lc.check_labels(Y, "Y", convert=False)
    if sp.issparse(Yc):
        Yc = Yc.toarray()
    Fc = check_score_matrix(F, "F", finite=False)
    check_same_shape(Yc, Fc, "Y", "F")
    return Yc, Fc, _lc.check_sample_weight(sample_weight, Yc.shape[0])


def coverage(
    Y: Any,
    F: Any,
    *,
    sample_weight: Any = None,
    per_instance: bool = False,
    convention: str = "mlcbook",
) -> float | np.ndarray:
    r"""Coverage: how far down the ranking one must go, on average, to cover
    every relevant label.

    .. math:: \mathrm{coverage} = \frac1n\sum_i \Big(\max_{j\in Y_i^+}
              \mathrm{rank}_F(\mathbf x_i, j) - 1\Big)

    Wu & Zhou (2017), Table 1, where :math:`\mathrm{rank}_F(\mathbf x, j)` is
    the number of labels scored at least as high as label ``j`` (ties get the
    worst rank).  scikit-learn's :func:`~sklearn.metrics.coverage_error` does
    not subtract one: ``coverage = coverage_error - 1`` whenever every instance
    has a relevant label.  An instance without relevant labels contributes 0
    here (scikit-learn also gives it 0, so there the identity is off by one
    for that instance).

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels), 0/1
    F : array-like of shape (n_samples, n_labels)
    sample_weight : array-like of shape (n_samples,), optional
        Instance weights of the mean (as in scikit-learn).
    per_instance : bool, default False
        Return the value of every instance (shape ``(n_samples,)``) instead.

    convention : {"mlcbook", "wu_zhou"}, default "mlcbook"
        ``"wu_zhou"``: as ``Coverage.m``, ranks by position in an ascending stable
        sort (a tied label of lower index is placed lower) and -1 for an instance
        without relevant labels.

    Returns
    -------
    float in [-1, n_labels - 1], or ndarray of shape (n_samples,)
    """
    if _listed.is_listed(F):
        Yc, L, w, per = listed_args(Y, F, sample_weight, per_instance, convention)
        return finish(_listed.RowRanking(Yc, L).coverage(), w, per)
    if check_convention(convention) == "wu_zhou":
        Y, F, w, per = score_args(Y, F, sample_weight, per_instance)
        return finish(_coverage_order(Y, F), w, per)
    Y, F, w = coverage_args(Y, F, sample_weight)
    per = check_flag(per_instance, "per_instance")
    return finish(coverage_values(Y, F, "F"), w, per)


def lrap_values(Y, F) -> np.ndarray:
    return RowStats(Y, F).average_precision()


def label_ranking_average_precision(
    Y: Any,
    F: Any,
    *,
    sample_weight: Any = None,
    per_instance: bool = False,
    convention: str = "mlcbook",
) -> float | np.ndarray:
    r"""Average precision (label ranking average precision).

    .. math:: \mathrm{avgprec} = \frac1n\sum_i\frac1{|Y_i^+|}\sum_{j\in Y_i^+}
              \frac{|\{k\in Y_i^+:\mathrm{rank}_F(\mathbf x_i,k)\le
              \mathrm{rank}_F(\mathbf x_i,j)\}|}{\mathrm{rank}_F(\mathbf x_i,j)}

    Wu & Zhou (2017), Table 1.  Tied labels share the worst rank.  An instance
    whose labels are all relevant or all irrelevant scores 1.  Equal to
    :func:`sklearn.metrics.label_ranking_average_precision_score`, computed
    without a loop over instances.

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels), 0/1
    F : array-like of shape (n_samples, n_labels)
    sample_weight : array-like of shape (n_samples,), optional
        Instance weights of the mean (as in scikit-learn).
    per_instance : bool, default False
        Return the value of every instance (shape ``(n_samples,)``) instead.

    convention : {"mlcbook", "wu_zhou"}, default "mlcbook"
        ``"wu_zhou"``: as ``Average_precision.m``, ranks by position in an ascending
        stable sort and instances with all or no labels relevant left out (NaN per
        instance).

    Returns
    -------
    float in (0, 1], or ndarray of shape (n_samples,)
    """
    if _listed.is_listed(F):
        Yc, L, w, per = listed_args(Y, F, sample_weight, per_instance, convention)
        return finish(_listed.RowRanking(Yc, L).average_precision(), w, per)
    Y, F, w, per = score_args(Y, F, sample_weight, per_instance)
    if check_convention(convention) == "wu_zhou":
        return finish(skip_rows(_average_precision_order(Y, F), degenerate_rows(Y)), w, per)
    return finish(lrap_values(Y, F), w, per)
