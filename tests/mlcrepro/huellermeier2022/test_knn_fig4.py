"""Hüllermeier et al.'s Fig. 4 experiment (:mod:`mlcrepro.huellermeier2022.knn_fig4`):
the surrogate/target loss table on small data, and the committed Fig. 4 and consensus
tables against a recomputation through the runner."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import KFold

from mlcbook.learners import LossMinimizingKNN
from mlcbook.learners.knn import l1_preprocessor
from mlcbook.losses import binomial_loss
from mlcrepro._paths import results_dir
from mlcbook.datasets import load_dataset
from mlcrepro.huellermeier2022.knn_fig4 import (
    consensus_summary,
    fig4_cell,
    fig4_table,
    loss_matrix,
    surrogate_target_losses,
)


def test_surrogate_target_losses_small():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(80, 3))
    Y = (X @ rng.normal(size=(3, 4)) + rng.normal(size=(80, 4)) > 0).astype(int)
    tab = surrogate_target_losses(X, Y, n_splits=4, seed=0, n_neighbors=5)
    assert len(tab) == 4 * 4 * 4 and tab["n_test"].groupby(tab["fold"]).first().sum() == 80
    M = loss_matrix(tab)
    assert M.shape == (4, 4) and list(M.index) == [1, 2, 3, 4]
    # cell (target t, surrogate s) recomputed by hand from cross-validated predictions
    P = np.empty_like(Y)
    for tr, te in KFold(4, shuffle=True, random_state=0).split(X):
        prep = l1_preprocessor(3).fit(X[tr])
        P[te] = LossMinimizingKNN(n_neighbors=5, param=2).fit(prep.transform(X[tr]), Y[tr]).predict(
            prep.transform(X[te]))
    assert M.loc[3, 2] == pytest.approx(binomial_loss(Y, P, 3))
    assert isinstance(tab, pd.DataFrame)


# ------------------------------------------------------- committed result tables
def _committed(name):

    path = results_dir() / f"{name}.csv"
    assert path.exists(), f"{path} is committed with the chapter"
    return pd.read_csv(path)


@pytest.mark.parametrize("name,tie_break", [("knn_fig4", "hamming"), ("knn_fig4_nearest", "nearest"),
                                            ("knn_fig4_lexicographic", "lexicographic")])
@pytest.mark.recompute
def test_committed_fig4_tables_match_a_recomputation(name, tie_break):

    saved = _committed(name)
    saved = saved[saved["dataset"] == "flags"].reset_index(drop=True)
    # through the runner (no cache: the cells are computed afresh)
    fresh = fig4_table(["flags"], tie_break=tie_break, cache_dir=False).drop(columns="n_free")
    # integer predictions of an exact minimiser; losses are means of exact values: 1e-12
    pd.testing.assert_frame_equal(fresh, saved, check_dtype=False, rtol=0, atol=1e-12)


@pytest.mark.recompute
def test_committed_consensus_table_matches_a_recomputation():

    saved = _committed("knn_consensus")
    saved = saved[saved["dataset"] == "emotions"].reset_index(drop=True)
    pd.testing.assert_frame_equal(consensus_summary(["emotions"], cache_dir=False), saved,
                                  check_dtype=False,
                                  rtol=0, atol=1e-12)


@pytest.mark.recompute
def test_committed_labelled_birds_table_matches_a_recomputation():
    """``knn_fig4_labelled``: Fig. 4 on birds' instances with a relevant label. Fold 0
    recomputed by the cell (about a second) equals the committed rows (1e-12, as above),
    and the folds' test parts add up to the labelled rows of the file, counted here."""
    saved = _committed("knn_fig4_labelled")
    Y = load_dataset("birds")[1]
    Y = Y.toarray() if hasattr(Y, "toarray") else np.asarray(Y)
    labelled = int((Y.sum(axis=1) > 0).sum())
    assert 0 < labelled < Y.shape[0]
    assert saved.drop_duplicates("fold")["n_test"].sum() == labelled
    fresh = fig4_cell(
        "birds", 0, n_splits=10, seed=0, n_neighbors=9, tie_break="hamming", labelled_only=True
    )
    pd.testing.assert_frame_equal(
        fresh, saved[saved["fold"] == 0].reset_index(drop=True), check_dtype=False, rtol=0,
        atol=1e-12,
    )
