r"""Top-k scores: the few highest-scored labels of each instance, and nothing else.

An extreme classifier with :math:`K = 10^5` labels does not return an
:math:`n \times K` score matrix; it returns, for each instance, the ``k`` labels it
scores highest and their scores.  :class:`TopK` holds exactly that, as two
``(n, k)`` arrays, and every ranking measure of :mod:`mlcbook.metrics` and every
measure of :mod:`mlcbook.extreme` takes it in place of a score matrix ``F``, in
memory :math:`O(nk)`.

What a ranking measure means when only the top ``k`` scores are known
------------------------------------------------------------------------
*The labels a row does not list tie with each other below every score it
lists.*  A measure of a :class:`TopK` (or of a sparse score matrix, whose stored
entries are its listed scores, explicit zeros included) is therefore exactly the
measure of the dense score matrix in which every unlisted entry is set to one
common value below the row's smallest listed score, with each measure's own rule
for ties (:mod:`mlcbook.metrics`): ranking loss counts a (relevant, irrelevant)
pair of unlisted labels as mis-ordered, coverage and average precision give the
unlisted labels the worst rank :math:`K`, AUCs count such a pair one half, and
one-error, which breaks a tie for the top by the lowest label index, can reach
the unlisted labels only in a row that lists nothing.  For a sparse matrix whose
stored scores are all positive this is the matrix itself (its unstored entries
are zeros, below every stored score).  Measures *at k* (:mod:`mlcbook.extreme`)
rank only listed labels: a row that lists fewer labels than the cut-off has
empty positions, which count as misses.

For example:

>>> import numpy as np
>>> from mlcbook.topk import TopK
>>> top = TopK(indices=[[2, 0], [1, 3]], scores=[[0.9, 0.4], [0.8, 0.7]], n_labels=4)
>>> top.shape, top.k
((2, 4), 2)
>>> top.label_matrix().toarray()
array([[1, 0, 1, 0],
       [0, 1, 0, 1]], dtype=int8)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from ._validation import check_positive_int

__all__ = ["TopK"]


def _as_matrix(a: Any, name: str, kinds: str, what: str) -> np.ndarray:
    if sp.issparse(a) or isinstance(a, (str, bytes)) or a is None:
        raise TypeError(f"{name} must be an array of {what}, got {type(a).__name__}")
    arr = np.asarray(a)
    if arr.dtype.kind not in kinds:
        raise TypeError(f"{name} must hold {what}, got dtype {arr.dtype}")
    if arr.ndim == 1:
        arr = arr[np.newaxis, :]
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n_samples, k), got shape {arr.shape}")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name} must have at least one row and one column, got {arr.shape}")
    return arr


def _check_distinct(idx: np.ndarray) -> None:
    """Raise ValueError if a row of ``idx`` lists a label twice."""
    k = idx.shape[1]
    if k == 1:
        return
    if k <= 8:  # k(k-1)/2 column comparisons beat a sort of every row
        for a in range(k):
            for b in range(a + 1, k):
                same = idx[:, a] == idx[:, b]
                if same.any():
                    i = int(np.flatnonzero(same)[0])
                    raise ValueError(
                        f"indices must not repeat a label in a row: row {i} lists "
                        f"label {int(idx[i, a])} twice"
                    )
        return
    srt = np.sort(idx, axis=1)
    same = srt[:, 1:] == srt[:, :-1]
    if same.any():
        i, j = (int(v[0]) for v in np.nonzero(same))
        raise ValueError(
            f"indices must not repeat a label in a row: row {i} lists label {int(srt[i, j])} twice"
        )


@dataclass(frozen=True, eq=False)
class TopK:
    """The ``k`` highest-scored labels of each of ``n`` instances and their scores.

    Validated when made: ``indices`` and ``scores`` are ``(n, k)`` arrays (a 1-D
    array is one instance), ``indices`` integers in ``[0, n_labels)`` with no label
    twice in a row, ``scores`` finite reals, ``1 <= k <= n_labels``.  The order of a
    row's slots does not matter (measures sort by score); nothing else about the
    unlisted labels is assumed (module docstring).

    Parameters
    ----------
    indices : array-like of int, shape (n_samples, k)
        Label index of each slot.
    scores : array-like of float, shape (n_samples, k)
        Score of each slot (higher means more relevant).
    n_labels : int
        Number of labels ``K`` of the problem (the width of the truth ``Y``).

    Attributes
    ----------
    shape : tuple (n_samples, n_labels)
        The shape of the score matrix this stands for, as ``Y.shape``.
    k : int
        Labels listed per instance.
    """

    indices: np.ndarray
    scores: np.ndarray
    n_labels: int

    def __post_init__(self) -> None:
        K = check_positive_int(self.n_labels, "n_labels")
        idx = _as_matrix(self.indices, "indices", "iu", "integer label indices")
        s = _as_matrix(self.scores, "scores", "biuf", "real numbers")
        if s.shape != idx.shape:
            raise ValueError(
                f"indices and scores must have the same shape, got {idx.shape} and {s.shape}"
            )
        if idx.shape[1] > K:
            raise ValueError(f"k = {idx.shape[1]} labels per row exceeds n_labels = {K}")
        lo, hi = idx.min(), idx.max()
        if lo < 0 or hi >= K:
            bad = lo if lo < 0 else hi
            raise ValueError(f"indices must lie in [0, {K}) (n_labels = {K}), found {bad}")
        idx = idx.astype(np.int64, copy=False)
        s = s.astype(np.float64, copy=False)
        if not np.isfinite(s).all():
            raise ValueError("scores must not contain NaN or infinite values")
        _check_distinct(idx)
        object.__setattr__(self, "indices", idx)
        object.__setattr__(self, "scores", s)
        object.__setattr__(self, "n_labels", K)

    @property
    def shape(self) -> tuple[int, int]:
        return (int(self.indices.shape[0]), self.n_labels)

    @property
    def k(self) -> int:
        return int(self.indices.shape[1])

    def __repr__(self) -> str:
        n, K = self.shape
        return f"TopK(n_samples={n}, k={self.k}, n_labels={K})"

    def label_matrix(self) -> sp.csr_matrix:
        """The listed labels as a sparse 0/1 matrix ``(n_samples, n_labels)``: the
        top-k read as a prediction of ``k`` labels per instance."""
        n, K = self.shape
        order = np.argsort(self.indices, axis=1)
        cols = np.take_along_axis(self.indices, order, axis=1).ravel()
        indptr = np.arange(0, n * self.k + 1, self.k, dtype=np.int64)
        data = np.ones(cols.size, dtype=np.int8)
        return sp.csr_matrix((data, cols, indptr), shape=(n, K))
