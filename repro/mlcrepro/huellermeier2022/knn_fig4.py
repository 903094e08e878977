"""The experiment of Hüllermeier et al. (2022), Sec. 6, Fig. 4.

:class:`~mlcbook.learners.LossMinimizingKNN` minimises every surrogate binomial
loss ``k_s = 1..K`` under 10-fold cross-validation; each prediction is scored with
every target binomial loss ``k_t`` (Fig. 4 shows the matrix per dataset).

* :func:`surrogate_target_losses` — the experiment on one in-memory dataset.
* :func:`fig4_spec` / :func:`fig4_table` — on named datasets through
  :mod:`mlcrepro.runner`, one cell per (dataset, fold), the cells'
  parameters read from :func:`fig4_config` (the key of the committed tables).
* :func:`consensus_summary` — the reach of the consensus rule under the same folds.
* :func:`loss_matrix` — pool a table into the target x surrogate matrix.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.model_selection import KFold
from sklearn.utils.validation import check_array

from mlcbook.datasets import load_dataset
from mlcbook.learners.knn import (
    LossMinimizingKNN,
    consensus_mask,
    l1_preprocessor,
    minimize_summed_loss,
)
from mlcbook.losses import error_count_losses, loss_profile
from mlcbook.profiles import pooled_mean
from mlcbook.validation import check_label_matrix, check_positive_int
from mlcrepro.results import dataset_fingerprints
from mlcrepro.runner import Spec, table

__all__ = [
    "consensus_summary",
    "fig4_config",
    "fig4_spec",
    "fig4_table",
    "loss_matrix",
    "neighbor_labels",
    "surrogate_target_losses",
]

#: the tie-breaks of :class:`~mlcbook.learners.LossMinimizingKNN` (one committed table each)
TIE_BREAKS = ("hamming", "nearest", "lexicographic")
_COLUMNS = ["fold", "n_test", "surrogate_k", "target_k", "loss", "n_free"]


def _as_data(X: Any, Y: Any) -> tuple[np.ndarray, np.ndarray]:
    X = check_array(X, accept_sparse="csr", dtype=np.float64, input_name="X")
    if sp.issparse(X):
        X = X.toarray()
    Y = check_label_matrix(Y, "Y", allow_sparse=False)
    if X.shape[0] != Y.shape[0]:
        raise ValueError(
            f"X and Y must have the same number of rows, got {X.shape[0]} and {Y.shape[0]}"
        )
    return X, Y


def _folds(n: int, n_splits: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    n_splits = check_positive_int(n_splits, "n_splits", low=2)
    return list(KFold(n_splits=n_splits, shuffle=True, random_state=seed).split(np.zeros((n, 1))))


def _neighbour_labels(
    X: np.ndarray,
    Y: np.ndarray,
    tr: np.ndarray,
    te: np.ndarray,
    nominal: dict[int, int] | None,
    n_neighbors: int,
    tie_break: str = "hamming",
) -> tuple[LossMinimizingKNN, np.ndarray]:
    prep = l1_preprocessor(X.shape[1], nominal).fit(X[tr])
    est = LossMinimizingKNN(n_neighbors=n_neighbors, tie_break=tie_break)
    est.fit(prep.transform(X[tr]), Y[tr])
    return est, est.neighbor_labels(prep.transform(X[te]))


def _fold_rows(
    X: np.ndarray,
    Y: np.ndarray,
    fold: int,
    tr: np.ndarray,
    te: np.ndarray,
    nominal: dict[int, int] | None,
    n_neighbors: int,
    tie_break: str,
) -> list[tuple]:
    """One fold of Fig. 4: (fold, n_test, surrogate k, target k, loss, mean free labels)."""
    K = Y.shape[1]
    ks = list(range(1, K + 1))
    est, N = _neighbour_labels(X, Y, tr, te, nominal, n_neighbors, tie_break)
    n_free = float((K - consensus_mask(N).sum(axis=1)).mean())
    T = np.vstack([np.asarray(error_count_losses("binomial", k, K), dtype=np.float64) for k in ks])
    P = minimize_summed_loss(N, T, tie_break=tie_break, max_free_labels=est.max_free_labels)
    rows = []
    for s, k_s in enumerate(ks):
        prof = loss_profile(Y[te], P[s], "binomial", ks)
        for k_t, val in zip(ks, prof):
            rows.append((fold, len(te), k_s, k_t, float(val), n_free))
    return rows


def surrogate_target_losses(
    X: Any,
    Y: Any,
    *,
    nominal: dict[int, int] | None = None,
    n_splits: int = 10,
    seed: int = 0,
    n_neighbors: int = 9,
    tie_break: str = "hamming",
) -> pd.DataFrame:
    """Fig. 4 for one dataset: mean target loss for every surrogate and target binomial ``k``.

    ``n_splits``-fold cross-validation (shuffled with ``seed``); in each fold
    the features are mapped by :func:`~mlcbook.learners.knn.l1_preprocessor` fitted
    on the training part, the neighbours are searched once and
    :class:`~mlcbook.learners.LossMinimizingKNN` predicts for every surrogate
    ``k = 1..K`` at once; each prediction is then scored with every target binomial
    loss (:func:`mlcbook.losses.loss_profile`).

    Returns
    -------
    pandas.DataFrame
        One row per (fold, surrogate ``k``, target ``k``): columns ``fold``,
        ``n_test``, ``surrogate_k``, ``target_k``, ``loss`` (mean over the
        fold's test instances), ``n_free`` (mean number of labels left free
        by the consensus rule in the fold).
    """
    X, Y = _as_data(X, Y)
    rows = []
    for fold, (tr, te) in enumerate(_folds(X.shape[0], n_splits, seed)):
        rows += _fold_rows(X, Y, fold, tr, te, nominal, n_neighbors, tie_break)
    return pd.DataFrame(rows, columns=_COLUMNS)


def loss_matrix(table: pd.DataFrame) -> pd.DataFrame:
    """Pool a :func:`surrogate_target_losses` table: mean target loss over all test instances.

    Returns
    -------
    pandas.DataFrame
        Rows: target ``k``; columns: surrogate ``k``.
    """
    keys = ["target_k", "surrogate_k"]
    return pooled_mean(table, keys, sort=True).set_index(keys)["loss"].unstack("surrogate_k")


def _named(name: str) -> tuple[np.ndarray, np.ndarray, dict[int, int]]:
    """A registry dataset, dense, with its nominal features as ``column -> categories``."""
    X, Y, info = load_dataset(name)
    nominal = {info.feature_names.index(f): len(c) for f, c in info.nominal.items()}
    X, Y = _as_data(X, Y)
    return X, Y, nominal


def fig4_config(
    datasets: Sequence[str],
    tie_break: str | None = None,
    *,
    n_splits: int = 10,
    seed: int = 0,
    n_neighbors: int = 9,
    labelled_only: bool = False,
) -> dict:
    """The specification of a :func:`fig4_table` (or, without ``tie_break``, of a
    :func:`consensus_summary`) table: the key of ``results.load_or_compute``.
    ``labelled_only`` leaves out the instances with no relevant label."""
    config = {
        "experiment": "Hüllermeier et al. (2022) Fig. 4",
        "datasets": list(datasets),
        "data": dataset_fingerprints(list(datasets)),
        "family": "binomial",
        "n_splits": n_splits,
        "seed": seed,
        "n_neighbors": n_neighbors,
        "distance": "L1",
        "features": "numeric min-max on training folds; nominal one-hot x 1/2",
    }
    if tie_break is not None:
        config["tie_break"] = tie_break
    if labelled_only:
        config["instances"] = "those with at least one relevant label"
    return config


def fig4_cell(
    dataset: str,
    fold: int,
    *,
    n_splits: int,
    seed: int,
    n_neighbors: int,
    tie_break: str,
    labelled_only: bool = False,
) -> pd.DataFrame:
    """One (dataset, fold) cell of Fig. 4: :func:`surrogate_target_losses` rows of that fold
    (of the instances with a relevant label only, with ``labelled_only``)."""
    X, Y, nominal = _named(dataset)
    if labelled_only:
        keep = Y.sum(axis=1) > 0
        X, Y = X[keep], Y[keep]
    tr, te = _folds(X.shape[0], n_splits, seed)[fold]
    rows = _fold_rows(X, Y, fold, tr, te, nominal, n_neighbors, tie_break)
    out = pd.DataFrame(rows, columns=_COLUMNS)
    out.insert(0, "dataset", dataset)
    return out


def _protocol(config: dict) -> dict:
    return {k: v for k, v in config.items() if k not in ("datasets", "data")}


def fig4_spec(
    datasets: Sequence[str],
    tie_break: str = "hamming",
    *,
    n_splits: int = 10,
    seed: int = 0,
    n_neighbors: int = 9,
    labelled_only: bool = False,
    name: str = "knn_fig4",
) -> Spec:
    """Fig. 4 as a runner spec: datasets x folds, parameters read from :func:`fig4_config`
    (``name``: the spec's cache folder)."""
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"tie_break must be one of {TIE_BREAKS}, got {tie_break!r}")
    check_positive_int(n_neighbors, "n_neighbors")
    config = fig4_config(
        datasets,
        tie_break,
        n_splits=n_splits,
        seed=seed,
        n_neighbors=n_neighbors,
        labelled_only=labelled_only,
    )
    params = {k: config[k] for k in ("n_splits", "seed", "n_neighbors", "tie_break")}
    if labelled_only:
        params["labelled_only"] = True
    return Spec(
        name,
        fig4_cell,
        {
            "dataset": list(datasets),
            "fold": range(check_positive_int(n_splits, "n_splits", low=2)),
        },
        params=params,
        key={k: v for k, v in _protocol(config).items() if k not in params},
        cell_key=lambda c: {"data": config["data"][c["dataset"]]},
    )


def fig4_table(
    datasets: Sequence[str],
    *,
    tie_break: str = "hamming",
    n_splits: int = 10,
    seed: int = 0,
    n_neighbors: int = 9,
    n_jobs: int = 1,
    cache_dir: Any = None,
) -> pd.DataFrame:
    """The experiment of Fig. 4 on several datasets (:func:`mlcbook.datasets.load_dataset`).

    Nominal features are taken from the dataset's ``info.nominal`` and one-hot
    encoded by :func:`~mlcbook.learners.knn.l1_preprocessor`.

    Returns
    -------
    pandas.DataFrame
        :func:`surrogate_target_losses` rows with a leading ``dataset`` column.
    """
    spec = fig4_spec(datasets, tie_break, n_splits=n_splits, seed=seed, n_neighbors=n_neighbors)
    return table(spec, n_jobs=n_jobs, cache_dir=cache_dir, desc=f"Fig. 4 ({tie_break})")


def neighbor_labels(
    dataset: str, *, n_splits: int = 10, seed: int = 0, n_neighbors: int = 9
) -> np.ndarray:
    """The neighbours' label vectors of every query of the Fig. 4 protocol on ``dataset``.

    The folds, L1 feature preparation and neighbours of :func:`fig4_table`.

    Returns
    -------
    ndarray of int8, shape (n_instances, n_neighbors, K)
        The folds in order, each fold's test instances in order.
    """
    X, Y, nominal = _named(dataset)
    parts = [
        _neighbour_labels(X, Y, tr, te, nominal, n_neighbors)[1]
        for tr, te in _folds(X.shape[0], n_splits, seed)
    ]
    return np.concatenate(parts).astype(np.int8)


def consensus_cell(dataset: str, *, n_splits: int, seed: int, n_neighbors: int) -> pd.DataFrame:
    """The reach of the consensus rule on one dataset (one row of :func:`consensus_summary`)."""
    N = neighbor_labels(dataset, n_splits=n_splits, seed=seed, n_neighbors=n_neighbors)
    K = N.shape[2]
    free = K - consensus_mask(N).sum(axis=1)
    row = (
        dataset,
        K,
        1.0 - free.mean() / K,
        free.mean(),
        int(free.max()),
        float(np.mean(2.0**free)),
        2**K,
    )
    return pd.DataFrame(
        [row],
        columns=[
            "dataset",
            "K",
            "fixed_fraction",
            "mean_free",
            "max_free",
            "mean_candidates",
            "all_candidates",
        ],
    )


def consensus_summary(
    datasets: Sequence[str],
    *,
    n_splits: int = 10,
    seed: int = 0,
    n_neighbors: int = 9,
    n_jobs: int = 1,
    cache_dir: Any = False,
) -> pd.DataFrame:
    """Reach of the consensus rule under the cross-validation of :func:`fig4_table`.

    Seconds per dataset, and called by the chapter's exercises: no cache unless
    ``cache_dir`` asks for one (a chapter writes nothing).

    Returns
    -------
    pandas.DataFrame
        One row per dataset: ``K``, ``fixed_fraction`` (share of query-label
        pairs fixed by the rule), ``mean_free``, ``max_free`` (labels left to
        search per query), ``mean_candidates`` (mean ``2**f``) and
        ``all_candidates`` (``2**K``).
    """
    config = fig4_config(datasets, n_splits=n_splits, seed=seed, n_neighbors=n_neighbors)
    params = {k: config[k] for k in ("n_splits", "seed", "n_neighbors")}
    spec = Spec(
        "knn_consensus",
        consensus_cell,
        {"dataset": list(datasets)},
        params=params,
        key={k: v for k, v in _protocol(config).items() if k not in params},
        cell_key=lambda c: {"data": config["data"][c["dataset"]]},
    )
    return table(spec, n_jobs=n_jobs, cache_dir=cache_dir, desc="consensus")
