"""Paired cross-validation of multi-label learners, evaluated with loss profiles.

The study of Hüllermeier et al. (2022, Sec. 5) compares learners through
out-of-sample binary predictions from a paired 10-fold cross-validation (the
same folds for every learner), evaluated with the binomial loss
:math:`\\ell_{bin}` for every :math:`k = 1, \\dots, K` (eq. 18) and the
polynomial loss :math:`\\ell_{poly}` on a grid of :math:`\\alpha \\in [1, 1000]`
(eq. 17).

* :func:`cv_folds` — the seeded folds, shared by all learners.
* :func:`cross_val_predictions` — out-of-sample predictions of one learner on
  one dataset, fold by fold, through the cache.
* :func:`run_study` — all (dataset, learner, fold) cells, in parallel through
  joblib (so ``joblib.parallel_config(backend="dask")`` runs it on a Dask
  cluster unchanged), evaluated into a tidy table.
* :func:`pooled_profiles` / :func:`loss_ratios` — the curves of Figs 1–3.

Cells run through :mod:`mlcbook.experiments.runner`: each (dataset, learner, fold)
cell's test-fold predictions are cached under ``data/cache/experiments/study/``
(git-ignored), keyed by the dataset's checksum, the learner's full configuration
(class and every parameter, nested base learners included), the fold, the fold
scheme, and the versions of scikit-learn and mlrl-boomer.  A re-run only fits the
cells whose key changed; an interrupted run keeps what it finished.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.model_selection import KFold

from .._validation import check_label_matrix, check_positive_int
from ..datasets import load_dataset
from ..learners.registry import learner_config, learner_names, make_learner
from ..losses import loss_profile
from ..results import LogGrid, dataset_fingerprints, package_versions
from .runner import Cell, Spec, run

__all__ = [
    "ALPHAS",
    "DATASETS",
    "STUDY_LEARNERS",
    "cross_val_predictions",
    "cv_folds",
    "dataset_checksum",
    "evaluate_predictions",
    "loss_ratios",
    "pooled_profiles",
    "run_study",
    "study_cell",
    "study_config",
]

#: The nine datasets of the paper's Table 2 (flags with its 12 labels).
DATASETS: tuple[str, ...] = (
    "birds",
    "emotions",
    "enron",
    "flags-12",
    "genbase",
    "llog",
    "medical",
    "scene",
    "yeast",
)

#: The learners of the study.
STUDY_LEARNERS: tuple[str, ...] = (
    "BR",
    "CC",
    "LP",
    "RAkEL-k2-m10",
    "RAkEL-k5-m10",
    "RAkEL-k2-m2K",
    "RAkEL-k5-m2K",
    "PCT",
    "EPCT",
    "BOOMER-1-2021",
    "BOOMER-K-2021",
)

#: Log grid of the polynomial loss parameter, 1 <= alpha <= 1000 (8 points a decade),
#: identified by its specification ``"logspace(0, 3, 25)"`` (its floats differ in the
#: last bit between CPUs).
ALPHAS: LogGrid = LogGrid(0, 3, 25)

_VERSIONED = ("scikit-learn", "mlrl-boomer")


def dataset_checksum(X: Any, Y: Any) -> str:
    """sha256 of the arrays themselves (shape, dtype-normalised values)."""
    h = hashlib.sha256()
    if sp.issparse(X):
        X = sp.csr_matrix(X)
        X.sort_indices()
        parts = [
            np.asarray(X.shape),
            X.indptr.astype(np.int64),
            X.indices.astype(np.int64),
            X.data.astype(np.float64),
        ]
    else:
        Xa = np.ascontiguousarray(X, dtype=np.float64)
        parts = [np.asarray(Xa.shape), Xa]
    Ya = np.ascontiguousarray(np.asarray(Y), dtype=np.int8)
    for a in (*parts, np.asarray(Ya.shape), Ya):
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def cv_folds(
    n_samples: int, n_folds: int = 10, seed: int = 0
) -> list[tuple[np.ndarray, np.ndarray]]:
    """The paired folds: ``KFold(n_folds, shuffle=True, random_state=seed)``.

    Returns
    -------
    list of (train_index, test_index)
    """
    n_samples = check_positive_int(n_samples, "n_samples")
    n_folds = check_positive_int(n_folds, "n_folds", low=2)
    kf = KFold(n_splits=n_folds, shuffle=True, random_state=seed)
    return list(kf.split(np.zeros((n_samples, 1))))


def _fit_predict(
    estimator: Any, X: Any, Y: np.ndarray, train: np.ndarray, test: np.ndarray
) -> np.ndarray:
    """Fit a clone on the training rows, return 0/1 predictions (int8) for the test rows."""
    est = clone(estimator)
    est.fit(X[train], Y[train])
    P = est.predict(X[test])
    if sp.issparse(P):
        P = P.toarray()
    P = np.asarray(P)
    if P.shape != (len(test), Y.shape[1]):
        raise ValueError(
            f"{type(estimator).__name__}.predict returned shape {P.shape}, "
            f"expected {(len(test), Y.shape[1])}"
        )
    return (P > 0).astype(np.int8)


def study_cell(
    dataset: str,
    learner: str,
    fold: int,
    *,
    estimator: Any,
    X: Any,
    Y: np.ndarray,
    train: np.ndarray,
    test: np.ndarray,
) -> np.ndarray:
    """One cell of the study: the fold's test predictions of one learner on one dataset."""
    # looked up at call time, so tests can count fits by patching ``_fit_predict``
    return _fit_predict(estimator, X, Y, train, test)


def _as_inputs(X: Any, Y: Any) -> tuple[Any, np.ndarray]:
    Yc = check_label_matrix(Y, "Y", allow_sparse=False)
    Yc = np.ascontiguousarray(Yc, dtype=np.uint8)
    if sp.issparse(X):
        X = sp.csr_matrix(X)
    else:
        X = np.asarray(X)
        if X.ndim != 2:
            raise ValueError(f"X must be 2-D, got shape {X.shape}")
    if X.shape[0] != Yc.shape[0]:
        raise ValueError(
            f"X and Y must have the same number of rows, got {X.shape[0]} and {Yc.shape[0]}"
        )
    return X, Yc


def _spec(
    data: Mapping[str, tuple[Any, np.ndarray]],
    estimators: Mapping[str, Any],
    fold_ids: Sequence[int],
    n_folds: int,
    seed: int,
) -> tuple[Spec, dict]:
    """The study as a runner spec: datasets x learners x folds."""
    splits = {d: cv_folds(X.shape[0], n_folds, seed) for d, (X, _) in data.items()}
    checksums = {d: dataset_checksum(X, Y) for d, (X, Y) in data.items()}
    configs = {name: learner_config(est) for name, est in estimators.items()}

    def inputs(c: Cell) -> dict:
        X, Y = data[c["dataset"]]
        tr, te = splits[c["dataset"]][c["fold"]]
        return dict(estimator=estimators[c["learner"]], X=X, Y=Y, train=tr, test=te)

    def check(c: Cell, P: Any) -> None:
        n_test = len(splits[c["dataset"]][c["fold"]][1])
        shape = (n_test, data[c["dataset"]][1].shape[1])
        if not isinstance(P, np.ndarray) or P.shape != shape:
            raise ValueError(f"predictions of shape {getattr(P, 'shape', None)}, expected {shape}")

    def cost(c: Cell) -> float:
        X, Y = data[c["dataset"]]
        return float(X.shape[0] * X.shape[1] * Y.shape[1])

    spec = Spec(
        "study",
        study_cell,
        {"dataset": list(data), "learner": list(estimators), "fold": [int(f) for f in fold_ids]},
        key={
            "n_folds": int(n_folds),
            "cv_seed": int(seed),
            "versions": package_versions(_VERSIONED),
        },
        cell_key=lambda c: {"data": checksums[c["dataset"]], "learner": configs[c["learner"]]},
        inputs=inputs,
        check=check,
        cost=cost,
    )
    return spec, splits


def cross_val_predictions(
    X: Any,
    Y: Any,
    estimator: Any,
    *,
    n_folds: int = 10,
    seed: int = 0,
    n_jobs: int = 1,
    cache_dir: str | Path | bool | None = None,
    dataset: str = "data",
    learner: str | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Out-of-sample binary predictions of one learner under the paired folds.

    Parameters
    ----------
    X : array or sparse matrix (n_samples, n_features)
    Y : 0/1 array (n_samples, n_labels)
    estimator : scikit-learn estimator (cloned for every fold)
    n_folds, seed : int
        Fold scheme (:func:`cv_folds`).
    n_jobs : int
        joblib workers (the active ``joblib.parallel_config`` backend is used).
    cache_dir : path, True/None (default folder) or False (no cache)
    dataset, learner : str
        Names of the cell's coordinates (and cache folders).

    Returns
    -------
    P : ndarray of int8 (n_samples, n_labels)
        Row ``i`` predicted by the model that did not see it.
    fold_of : ndarray of int (n_samples,)
        The fold in which each row was a test row.
    """
    X, Yc = _as_inputs(X, Y)
    learner = learner or type(estimator).__name__
    n_folds = check_positive_int(n_folds, "n_folds", low=2)
    spec, splits = _spec({dataset: (X, Yc)}, {learner: estimator}, range(n_folds), n_folds, seed)
    got = run(spec, n_jobs=n_jobs, cache_dir=cache_dir, desc=f"{dataset}/{learner}")
    P = np.zeros_like(Yc, dtype=np.int8)
    fold_of = np.empty(X.shape[0], dtype=np.int64)
    for c, Pc in got.items():
        te = splits[dataset][c["fold"]][1]
        P[te] = Pc
        fold_of[te] = c["fold"]
    return P, fold_of


def evaluate_predictions(Y: Any, P: Any, alphas: Iterable[float] = ALPHAS) -> pd.DataFrame:
    """Binomial loss for k = 1..K and polynomial loss on ``alphas`` (long format).

    Returns
    -------
    DataFrame with columns ``family`` ('binomial'/'polynomial'), ``param``, ``loss``
    (the mean over the rows of ``Y``).
    """
    Yc = check_label_matrix(Y, "Y", allow_sparse=False)
    K = Yc.shape[1]
    ks = np.arange(1, K + 1)
    alphas = np.asarray(alphas if isinstance(alphas, LogGrid) else list(alphas), dtype=float)
    lb = loss_profile(Yc, P, "binomial", ks)
    lp = loss_profile(Yc, P, "polynomial", alphas)
    return pd.DataFrame(
        {
            "family": ["binomial"] * K + ["polynomial"] * len(alphas),
            "param": np.concatenate([ks.astype(float), alphas]),
            "loss": np.concatenate([lb, lp]),
        }
    )


def run_study(
    datasets: Iterable[str] | Mapping[str, tuple] = DATASETS,
    learners: Iterable[str] | Mapping[str, Any] | None = None,
    *,
    n_folds: int = 10,
    seed: int = 0,
    random_state: int = 0,
    folds: Iterable[int] | None = None,
    alphas: Iterable[float] = ALPHAS,
    n_jobs: int = 1,
    cache_dir: str | Path | bool | None = None,
) -> pd.DataFrame:
    """Paired CV of every learner on every dataset, as a tidy loss table.

    Parameters
    ----------
    datasets : names for :func:`mlcbook.datasets.load_dataset`, or a mapping
        ``name -> (X, Y)``.
    learners : registry names (:func:`mlcbook.learners.learner_names`, default all),
        or a mapping ``name -> estimator``.
    n_folds, seed : int
        The paired fold scheme (:func:`cv_folds`).
    random_state : int
        Seed of the registry learners.
    folds : iterable of int, optional
        Run only these folds (default all).
    alphas : the polynomial-loss grid.
    n_jobs : int
        joblib workers over all (dataset, learner, fold) cells; honours
        ``joblib.parallel_config`` (e.g. ``backend="dask"``).
    cache_dir : path, True/None (default folder) or False (no cache)

    Returns
    -------
    DataFrame
        Columns ``dataset, K, learner, fold, n_test, family, param, loss``: the
        mean loss over the fold's test rows; one row per parameter.
    """
    n_folds = check_positive_int(n_folds, "n_folds", low=2)
    if learners is None:
        learners = learner_names()
    if isinstance(learners, Mapping):
        estimators = dict(learners)
    else:
        estimators = {name: make_learner(name, random_state=random_state) for name in learners}
    if isinstance(datasets, Mapping):
        data = {name: _as_inputs(*xy[:2]) for name, xy in datasets.items()}
    else:
        data = {name: _as_inputs(*load_dataset(name)[:2]) for name in datasets}
    fold_ids = list(range(n_folds)) if folds is None else [int(f) for f in folds]
    spec, splits = _spec(data, estimators, fold_ids, n_folds, seed)
    frames = []
    for c, P in run(spec, n_jobs=n_jobs, cache_dir=cache_dir, desc="cells").items():
        Y = data[c["dataset"]][1]
        test = splits[c["dataset"]][c["fold"]][1]
        ev = evaluate_predictions(Y[test], P, alphas)
        ev.insert(0, "n_test", len(test))
        ev.insert(0, "fold", c["fold"])
        ev.insert(0, "learner", c["learner"])
        ev.insert(0, "K", Y.shape[1])
        ev.insert(0, "dataset", c["dataset"])
        frames.append(ev)
    return pd.concat(frames, ignore_index=True)


def pooled_profiles(table: pd.DataFrame) -> pd.DataFrame:
    """Loss of the pooled out-of-sample predictions (fold means weighted by ``n_test``).

    Returns
    -------
    DataFrame with columns ``dataset, K, learner, family, param, loss``, plus
    ``x``: ``(k-1)/(K-1)`` for the binomial family, ``alpha`` for the polynomial one.
    """
    t = table.assign(w=table["loss"] * table["n_test"])
    g = (
        t.groupby(["dataset", "K", "learner", "family", "param"], sort=False)[["w", "n_test"]]
        .sum()
        .reset_index()
    )
    g["loss"] = g["w"] / g["n_test"]
    g = g.drop(columns=["w", "n_test"])
    K = g["K"].astype(float)
    g["x"] = np.where(
        g["family"] == "binomial", (g["param"] - 1) / np.maximum(K - 1, 1), g["param"]
    )
    return g


def loss_ratios(pooled: pd.DataFrame, first: str, second: str) -> pd.DataFrame:
    """Ratio ``loss(second) / loss(first)`` for every dataset, family and parameter.

    Above 1: the first learner is better; a decreasing curve means the second
    learner gains with the dependence-awareness of the loss (Figs 2–3).
    """
    keys = ["dataset", "K", "family", "param", "x"]
    a = pooled[pooled["learner"] == first].set_index(keys)["loss"]
    b = pooled[pooled["learner"] == second].set_index(keys)["loss"]
    if a.empty or b.empty:
        raise ValueError(f"no rows for learner {first!r} or {second!r}")
    r = (b / a).rename("ratio").reset_index()
    r.insert(0, "pair", f"{second}/{first}")
    return r


def study_config(
    datasets: Iterable[str] = DATASETS,
    learners: Iterable[str] | None = None,
    *,
    n_folds: int = 10,
    seed: int = 0,
    random_state: int = 0,
    alphas: LogGrid | Sequence[float] = ALPHAS,
) -> dict:
    """Everything :func:`run_study` results depend on, for ``results.load_or_compute``.

    Includes each learner's full configuration, so a changed default or option
    (e.g. the BOOMER rule count) invalidates a committed table, and the sha256 of
    every dataset file.  The alpha grid enters by its specification (a
    :class:`~mlcbook.results.LogGrid` or a list of float literals), never as
    computed floats.
    """
    learners = list(learner_names() if learners is None else learners)
    return {
        "datasets": list(datasets),
        "data": dataset_fingerprints(list(datasets)),
        "learners": {
            name: learner_config(make_learner(name, random_state=random_state))
            for name in learners
        },
        "n_folds": int(n_folds),
        "cv_seed": int(seed),
        "random_state": int(random_state),
        "alphas": alphas if isinstance(alphas, LogGrid) else [float(a) for a in alphas],
    }
