"""A sparse score matrix is read as a listing (its stored entries are the candidates):
where that is not the dense matrix's ranking, the call says so once."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from mlcbook import extreme as X
from mlcbook import metrics as M
from mlcbook._listed import SparseScoresWarning

Y = np.array([[1, 0, 0, 1], [0, 1, 1, 0]])


def test_negative_scores_warn_and_differ_from_dense():
    S = np.array([[0.5, -0.2, 0.1, 0.0], [-1.0, 0.3, 0.0, 0.2]])
    dense = M.ranking_loss(Y, S)
    with pytest.warns(SparseScoresWarning, match=r"2 row\(s\) \(the first: row 0\)") as rec:
        listed = M.ranking_loss(Y, sp.csr_matrix(S))
    assert len(rec) == 1  # once per call
    assert dense == _pairs(Y, S) == 0.25  # 1 of 4 pairs misordered in each row
    unlisted = np.where(S == 0, -np.inf, S)  # the listing: unstored labels lowest
    assert listed == _pairs(Y, unlisted) == 0.5


def _pairs(Y, S):
    """Ranking loss by counting (relevant, irrelevant) pairs; a tie counts 1/2."""
    out = []
    for y, s in zip(Y, S):
        rel, irr = s[y == 1], s[y == 0]
        bad = sum((r < i) + 0.5 * (r == i) for r in rel for i in irr)
        out.append(bad / (len(rel) * len(irr)))
    return float(np.mean(out))


def test_positive_scores_are_the_dense_matrix_and_stay_silent():
    S = np.array([[0.5, 0.2, 0.1, 0.0], [0.0, 0.3, 0.0, 0.2]])  # zeros not stored
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert M.ranking_loss(Y, sp.csr_matrix(S)) == M.ranking_loss(Y, S)
        assert X.ndcg_at_k(Y, sp.csr_matrix(S), 2) == X.ndcg_at_k(Y, S, 2)
        # a row that stores every label has no implicit zero: nothing to warn about
        full = sp.csr_matrix(np.array([[-0.5, -0.2, -0.1, -0.3], [0.1, 0.3, 0.2, 0.4]]))
        M.ranking_loss(Y, full)


def test_warning_points_at_the_callers_line():
    S = sp.csr_matrix(np.array([[0.5, -0.2, 0.0, 0.0], [0.0, 0.3, 0.0, 0.2]]))
    with pytest.warns(SparseScoresWarning) as rec:
        X.precision_at_k(Y, S, 2)
    assert rec[0].filename == __file__
