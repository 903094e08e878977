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

Cache
-----
Each fitted cell's test-fold predictions are stored in
``data/cache/experiments/<dataset>/<learner>/<key>.npz`` (git-ignored), where
``key`` hashes the dataset checksum, the learner's full configuration (class
and every parameter, nested base learners included), the fold, the fold
scheme, and the versions of scikit-learn and mlrl-boomer.  A re-run only fits
the cells whose key changed.  Files are written atomically by the calling
process as results arrive, so an interrupted run keeps what it finished.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
import warnings
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
from joblib import Parallel, delayed
from sklearn.base import clone
from sklearn.model_selection import KFold

from ._paths import data_dir
from ._progress import progress
from ._validation import check_label_matrix, check_positive_int
from ._io import atomic_write
from .losses import loss_profile
from .results import LogGrid, canonical, dataset_fingerprints

__all__ = [
    "ALPHAS",
    "DATASETS",
    "STUDY_LEARNERS",
    "cache_key",
    "cross_val_predictions",
    "cv_folds",
    "dataset_checksum",
    "default_cache_dir",
    "evaluate_predictions",
    "loss_ratios",
    "pooled_profiles",
    "run_study",
    "study_config",
]

#: The nine datasets of the paper's Table 2 (flags with its 12 labels).
DATASETS: tuple[str, ...] = ("birds", "emotions", "enron", "flags-12", "genbase", "llog", "medical", "scene", "yeast")

#: The learners of the study.
STUDY_LEARNERS: tuple[str, ...] = ("BR", "CC", "LP", "RAkEL-k2-m10", "RAkEL-k5-m10", "RAkEL-k2-m2K",
                                   "RAkEL-k5-m2K", "PCT", "EPCT", "BOOMER-1", "BOOMER-K")

#: Log grid of the polynomial loss parameter, 1 <= alpha <= 1000 (8 points a decade),
#: identified by its specification ``"logspace(0, 3, 25)"`` (its floats differ in the
#: last bit between CPUs).
ALPHAS: LogGrid = LogGrid(0, 3, 25)

_VERSIONED = ("scikit-learn", "mlrl-boomer")


def default_cache_dir() -> Path:
    """``data/cache/experiments`` (git-ignored); ``MLCBOOK_EXPERIMENT_CACHE`` overrides."""
    env = os.environ.get("MLCBOOK_EXPERIMENT_CACHE")
    return Path(env) if env else data_dir() / "cache" / "experiments"


def dataset_checksum(X: Any, Y: Any) -> str:
    """sha256 of the arrays themselves (shape, dtype-normalised values)."""
    h = hashlib.sha256()
    if sp.issparse(X):
        X = sp.csr_matrix(X)
        X.sort_indices()
        parts = [np.asarray(X.shape), X.indptr.astype(np.int64), X.indices.astype(np.int64), X.data.astype(np.float64)]
    else:
        Xa = np.ascontiguousarray(X, dtype=np.float64)
        parts = [np.asarray(Xa.shape), Xa]
    Ya = np.ascontiguousarray(np.asarray(Y), dtype=np.int8)
    for a in (*parts, np.asarray(Ya.shape), Ya):
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def cv_folds(n_samples: int, n_folds: int = 10, seed: int = 0) -> list[tuple[np.ndarray, np.ndarray]]:
    """The paired folds: ``KFold(n_folds, shuffle=True, random_state=seed)``.

    Returns
    -------
    list of (train_index, test_index)
    """
    n_samples = check_positive_int(n_samples, "n_samples")
    n_folds = check_positive_int(n_folds, "n_folds", low=2)
    kf = KFold(n_splits=n_folds, shuffle=True, random_state=seed)
    return list(kf.split(np.zeros((n_samples, 1))))


def _versions() -> dict[str, str | None]:
    out = {}
    for pkg in _VERSIONED:
        try:
            out[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:  # pragma: no cover
            out[pkg] = None
    return out


def cache_key(checksum: str, estimator: Any, fold: int, n_folds: int, seed: int) -> str:
    """Hash of everything one cell's predictions depend on."""
    from .learners.registry import learner_config

    payload = {
        "dataset": checksum,
        "learner": learner_config(estimator),
        "fold": int(fold),
        "n_folds": int(n_folds),
        "cv_seed": int(seed),
        "versions": _versions(),
    }
    text = json.dumps(canonical(payload), sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _fit_predict(estimator: Any, X: Any, Y: np.ndarray, train: np.ndarray, test: np.ndarray) -> np.ndarray:
    """Fit a clone on the training rows, return 0/1 predictions (int8) for the test rows."""
    est = clone(estimator)
    est.fit(X[train], Y[train])
    P = est.predict(X[test])
    if sp.issparse(P):
        P = P.toarray()
    P = np.asarray(P)
    if P.shape != (len(test), Y.shape[1]):
        raise ValueError(f"{type(estimator).__name__}.predict returned shape {P.shape}, "
                         f"expected {(len(test), Y.shape[1])}")
    return (P > 0).astype(np.int8)


def _timed(estimator: Any, X: Any, Y: np.ndarray, train: np.ndarray, test: np.ndarray) -> tuple[np.ndarray, float]:
    # Looked up at call time, so tests can count calls by patching ``_fit_predict``.
    start = time.process_time()
    P = _fit_predict(estimator, X, Y, train, test)
    return P, time.process_time() - start


def _cache_path(folder: Path, dataset: str, learner: str, key: str) -> Path:
    return folder / dataset / learner / f"{key}.npz"


def _load_cell(path: Path) -> np.ndarray | None:
    """A cached cell, or None; a corrupt entry is removed (with a warning) and refitted."""
    if not path.exists():
        return None
    try:
        with np.load(path) as f:
            return f["P"].astype(np.int8)
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as err:
        warnings.warn(f"discarding the corrupt cache entry {path} ({err}); it is refitted",
                      RuntimeWarning, stacklevel=2)
        with contextlib.suppress(OSError):
            path.unlink()
        return None


def _save_cell(path: Path, P: np.ndarray, test: np.ndarray, seconds: float = np.nan) -> None:
    with atomic_write(path, "wb") as fh:
        np.savez_compressed(fh, P=P, test=test, cpu_seconds=np.float64(seconds))


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
        raise ValueError(f"X and Y must have the same number of rows, got {X.shape[0]} and {Yc.shape[0]}")
    return X, Yc


def _run_cells(cells: list[dict], data: Mapping[str, tuple], *, n_jobs: int, cache_dir: Path | None,
               desc: str) -> dict[tuple[str, str, int], np.ndarray]:
    """Predictions of every cell: from the cache, else fitted in parallel (and cached)."""
    out: dict[tuple[str, str, int], np.ndarray] = {}
    todo = []
    for c in cells:
        cid = (c["dataset"], c["learner"], c["fold"])
        if cache_dir is not None:
            P = _load_cell(_cache_path(cache_dir, c["dataset"], c["learner"], c["key"]))
            if P is not None and P.shape == (len(c["test"]), data[c["dataset"]][1].shape[1]):
                out[cid] = P
                continue
        todo.append(c)
    if not todo:
        return out
    # Cheap datasets first: an interrupted run leaves whole datasets in the cache.
    todo.sort(key=lambda c: c["cost"])
    jobs = (delayed(_timed)(c["estimator"], data[c["dataset"]][0], data[c["dataset"]][1], c["train"], c["test"])
            for c in todo)
    results = Parallel(n_jobs=n_jobs, return_as="generator")(jobs)
    for c, (P, seconds) in progress(zip(todo, results), desc=desc, total=len(todo)):
        if cache_dir is not None:
            _save_cell(_cache_path(cache_dir, c["dataset"], c["learner"], c["key"]), P, c["test"], seconds)
        out[(c["dataset"], c["learner"], c["fold"])] = P
    return out


def cross_val_predictions(
    X: Any, Y: Any, estimator: Any, *, n_folds: int = 10, seed: int = 0, n_jobs: int = 1,
    cache_dir: str | Path | None | bool = None, dataset: str = "data", learner: str | None = None,
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
        Names used for the cache folders.

    Returns
    -------
    P : ndarray of int8 (n_samples, n_labels)
        Row ``i`` predicted by the model that did not see it.
    fold_of : ndarray of int (n_samples,)
        The fold in which each row was a test row.
    """
    X, Yc = _as_inputs(X, Y)
    learner = learner or type(estimator).__name__
    folder = None if cache_dir is False else (default_cache_dir() if cache_dir in (None, True) else Path(cache_dir))
    checksum = dataset_checksum(X, Yc)
    folds = cv_folds(X.shape[0], n_folds, seed)
    cells = [dict(dataset=dataset, learner=learner, fold=f, train=tr, test=te, estimator=estimator, cost=0,
                  key=cache_key(checksum, estimator, f, n_folds, seed)) for f, (tr, te) in enumerate(folds)]
    got = _run_cells(cells, {dataset: (X, Yc)}, n_jobs=n_jobs, cache_dir=folder, desc=f"{dataset}/{learner}")
    P = np.zeros_like(Yc, dtype=np.int8)
    fold_of = np.empty(X.shape[0], dtype=np.int64)
    for f, (_, te) in enumerate(folds):
        P[te] = got[(dataset, learner, f)]
        fold_of[te] = f
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
    return pd.DataFrame({
        "family": ["binomial"] * K + ["polynomial"] * len(alphas),
        "param": np.concatenate([ks.astype(float), alphas]),
        "loss": np.concatenate([lb, lp]),
    })


def _load_named(name: str) -> tuple[Any, np.ndarray]:
    from .datasets import load_dataset

    X, Y, _ = load_dataset(name)
    return X, Y


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
    cache_dir: str | Path | None | bool = None,
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
    from .learners.registry import learner_names, make_learner

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
        data = {name: _as_inputs(*_load_named(name)) for name in datasets}
    fold_ids = list(range(n_folds)) if folds is None else [int(f) for f in folds]
    folder = None if cache_dir is False else (default_cache_dir() if cache_dir in (None, True) else Path(cache_dir))

    cells, split = [], {}
    for dname, (X, Y) in data.items():
        checksum = dataset_checksum(X, Y)
        split[dname] = cv_folds(X.shape[0], n_folds, seed)
        cost = X.shape[0] * X.shape[1] * Y.shape[1]
        for lname, est in estimators.items():
            for f in fold_ids:
                tr, te = split[dname][f]
                cells.append(dict(dataset=dname, learner=lname, fold=f, train=tr, test=te, estimator=est,
                                  cost=cost,
                                  key=cache_key(checksum, est, f, n_folds, seed)))
    got = _run_cells(cells, data, n_jobs=n_jobs, cache_dir=folder, desc="cells")

    frames = []
    for c in cells:
        Y = data[c["dataset"]][1]
        ev = evaluate_predictions(Y[c["test"]], got[(c["dataset"], c["learner"], c["fold"])], alphas)
        ev.insert(0, "n_test", len(c["test"]))
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
    g = t.groupby(["dataset", "K", "learner", "family", "param"], sort=False)[["w", "n_test"]].sum().reset_index()
    g["loss"] = g["w"] / g["n_test"]
    g = g.drop(columns=["w", "n_test"])
    K = g["K"].astype(float)
    g["x"] = np.where(g["family"] == "binomial", (g["param"] - 1) / np.maximum(K - 1, 1), g["param"])
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
    from .learners.registry import learner_config, learner_names, make_learner

    learners = list(learner_names() if learners is None else learners)
    return {
        "datasets": list(datasets),
        "data": dataset_fingerprints(list(datasets)),
        "learners": {name: learner_config(make_learner(name, random_state=random_state)) for name in learners},
        "n_folds": int(n_folds),
        "cv_seed": int(seed),
        "random_state": int(random_state),
        "alphas": alphas if isinstance(alphas, LogGrid) else [float(a) for a in alphas],
    }
