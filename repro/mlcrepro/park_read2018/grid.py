"""The experiment of Park & Read (2018), Sec. 4: the alpha x beta grid of the blended model.

One :class:`~mlcbook.learners.BlendedLinearClassifier` per (alpha, beta) on a
seeded 50/50 split of each dataset, scored with Hamming, Jaccard and exact-match
similarity on both halves.  :func:`run_blended_grid` runs one runner cell per
dataset (:mod:`mlcrepro.runner`; within a dataset the fits share the
chosen penalty and warm-start along beta, so a dataset is the unit of work), with
the cells' parameters read from :func:`grid_config`, the key of the committed
tables; :func:`load_blended_grid` reads them.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import MaxAbsScaler, MinMaxScaler, StandardScaler

from mlcbook.datasets import load_dataset
from mlcbook.learners.blended import BlendedLinearClassifier
from mlcbook.metrics import hamming_loss, instance_jaccard, subset_accuracy
from mlcrepro.results import dataset_fingerprints, load_or_compute
from mlcrepro.runner import Spec, table

__all__ = [
    "GRID_ALPHAS",
    "GRID_BETAS",
    "GRID_DATASETS",
    "GRID_GAMMAS",
    "blended_grid",
    "grid_cell",
    "grid_config",
    "grid_spec",
    "load_blended_grid",
    "run_blended_grid",
    "SCALINGS",
    "scale_halves",
    "split_and_scale",
    "split_dataset",
]

#: alpha values of Sec. 4: 1e-5 (for alpha -> 0) and 0.1, 0.2, ..., 1.0
GRID_ALPHAS = (1e-5,) + tuple(round(0.1 * i, 1) for i in range(1, 11))
#: beta values of Sec. 4: 2^0, ..., 2^7
GRID_BETAS = tuple(float(2**i) for i in range(8))
#: datasets of Sec. 4 that are available (Stare is not)
GRID_DATASETS = ("emotions", "enron", "scene", "slashdot", "yeast")
#: candidate penalties for the cross-validation of gamma
GRID_GAMMAS = (1e-6, 1e-5, 1e-4, 1e-3, 1e-2)


#: how the features are scaled on the training half: "standard" (dense standardised,
#: sparse kept as they are) or "min-max" (dense to [0, 1]; sparse, non-negative, divided
#: by their maximum, which is min-max for them)
SCALINGS = ("standard", "min-max")


def scale_halves(Xtr: Any, Xte: Any, scaling: str = "standard") -> tuple[Any, Any]:
    """Scale both halves by a scaler fitted on the training half (:data:`SCALINGS`).

    Examples
    --------
    >>> Xtr, Xte = np.array([[0.0], [2.0]]), np.array([[1.0], [4.0]])
    >>> [a.ravel().tolist() for a in scale_halves(Xtr, Xte)]
    [[-1.0, 1.0], [0.0, 3.0]]
    >>> [a.ravel().tolist() for a in scale_halves(Xtr, Xte, "min-max")]
    [[0.0, 1.0], [0.5, 2.0]]
    """
    if scaling not in SCALINGS:
        raise ValueError(f"scaling must be one of {SCALINGS}, got {scaling!r}")
    if scaling == "standard":
        if sp.issparse(Xtr):
            return Xtr, Xte
        sc: Any = StandardScaler()
    else:
        sc = MaxAbsScaler() if sp.issparse(Xtr) else MinMaxScaler()
    sc.fit(Xtr)
    return sc.transform(Xtr), sc.transform(Xte)


def split_and_scale(
    X: Any, Y: Any, *, seed: int = 0, scaling: str = "standard"
) -> tuple[Any, Any, np.ndarray, np.ndarray]:
    """The 50/50 train/test split of Sec. 4 (seeded), features scaled on the train half.

    By default dense features are standardised (mean 0, variance 1 on the training
    half) and sparse (bag-of-words, 0/1) features are kept as they are; ``scaling``
    as for :func:`scale_halves`.
    """
    if scaling not in SCALINGS:
        raise ValueError(f"scaling must be one of {SCALINGS}, got {scaling!r}")
    Xtr, Xte, Ytr, Yte = train_test_split(X, Y, test_size=0.5, random_state=seed, shuffle=True)
    Xtr, Xte = scale_halves(Xtr, Xte, scaling)
    return Xtr, Xte, np.asarray(Ytr), np.asarray(Yte)


@functools.lru_cache(maxsize=4)
def split_dataset(
    dataset: str, seed: int = 0, scaling: str = "standard"
) -> tuple[Any, Any, np.ndarray, np.ndarray]:
    """:func:`split_and_scale` of one dataset, loaded and split once per process.

    Every cell of every table of the folder on one dataset and seed works on the same
    halves: a worker process that computes several of them loads, splits and scales
    the dataset once.  The arrays are shared between the callers, so they are returned
    read-only (a sparse matrix's arrays as well).

    Examples
    --------
    >>> Xtr, Xte, Ytr, Yte = split_dataset("emotions")
    >>> split_dataset("emotions")[0] is Xtr, Xtr.shape[0] + Xte.shape[0], Xtr.flags.writeable
    (True, 593, False)
    """
    X, Y, _ = load_dataset(dataset)
    halves = split_and_scale(X, Y, seed=seed, scaling=scaling)
    for a in halves:
        _read_only(a)
    return halves


def _read_only(a: Any) -> None:
    """Make an array, or a sparse matrix's arrays, read-only."""
    for arr in (a.data, a.indices, a.indptr) if sp.issparse(a) else (a,):
        arr.flags.writeable = False


def _scores(Y: np.ndarray, P: np.ndarray) -> dict:
    return {
        "hamming": 1.0 - hamming_loss(Y, P),
        "jaccard": instance_jaccard(Y, P, zero_division=1.0),
        "exact": subset_accuracy(Y, P),
    }


def blended_grid(
    Xtr: Any,
    Ytr: Any,
    Xte: Any,
    Yte: Any,
    *,
    alphas: Sequence[float] = GRID_ALPHAS,
    betas: Sequence[float] = GRID_BETAS,
    gammas: Sequence[float] = GRID_GAMMAS,
    cv: int = 3,
    max_iter: int = 200,
    tol: float = 1e-6,
    seed: int = 0,
) -> pd.DataFrame:
    """Fit one :class:`~mlcbook.learners.BlendedLinearClassifier` per (alpha, beta) and score it.

    gamma is chosen once, by ``cv``-fold cross-validation of the Hamming model
    (alpha = 1, beta = 1) on the training half, and used for all settings.  For
    each alpha the model for ``betas[0]`` starts from per-label logistic
    regressions (see :class:`~mlcbook.learners.BlendedLinearClassifier`) and the
    models for the following betas start from the previous beta's solution (a
    continuation along beta; from zero weights the gradient at beta = 128 is ~1e-39).

    Returns
    -------
    DataFrame
        One row per (alpha, beta): ``alpha, beta, gamma, n_iter, fit_seconds`` and
        ``{train,test}_{hamming,jaccard,exact}`` of the 0/1 predictions.
    """
    sel = BlendedLinearClassifier(
        alpha=1.0,
        beta=1.0,
        gamma="cv",
        gammas=tuple(gammas),
        cv=cv,
        max_iter=max_iter,
        tol=tol,
        random_state=seed,
    ).fit(Xtr, Ytr)
    gamma = sel.gamma_
    init = sel._warm_[("init", "full")]  # the logistic starting point, shared by all alphas
    rows = []
    for alpha in alphas:  # the runner shows the progress over cells
        clf = BlendedLinearClassifier(
            alpha=alpha,
            beta=betas[0],
            gamma=gamma,
            max_iter=max_iter,
            tol=tol,
            warm_start=True,
            random_state=seed,
        )
        clf._warm_ = {("init", "full"): init}
        for beta in betas:
            t0 = time.perf_counter()
            clf.set_params(beta=beta).fit(Xtr, Ytr)
            dt = time.perf_counter() - t0
            row = {
                "alpha": float(alpha),
                "beta": float(beta),
                "gamma": clf.gamma_,
                "n_iter": clf.n_iter_,
                "fit_seconds": dt,
            }
            for part, X, Y in (("train", Xtr, Ytr), ("test", Xte, Yte)):
                for k, v in _scores(Y, clf.predict(X)).items():
                    row[f"{part}_{k}"] = v
            rows.append(row)
    return pd.DataFrame(rows)


def grid_config(
    datasets: Sequence[str] = GRID_DATASETS,
    *,
    seed: int = 0,
    alphas: Sequence[float] = GRID_ALPHAS,
    betas: Sequence[float] = GRID_BETAS,
    gammas: Sequence[float] = GRID_GAMMAS,
    cv: int = 3,
    max_iter: int = 200,
    tol: float = 1e-6,
) -> dict:
    """The specification (the key of :func:`mlcrepro.results.load_or_compute`) of the grid.

    The alpha, beta and gamma grids are Python float literals (``GRID_ALPHAS`` is
    built with ``round``, which is correctly rounded on every machine).
    """
    return {
        "experiment": "park-read-2018-sec4",
        "datasets": list(datasets),
        "data": dataset_fingerprints(list(datasets)),
        "seed": seed,
        "split": "50/50 train_test_split(shuffle, random_state=seed); dense X standardised",
        "alphas": [float(a) for a in alphas],
        "betas": [float(b) for b in betas],
        "gammas": [float(g) for g in gammas],
        "cv": cv,
        "max_iter": max_iter,
        "tol": tol,
        "gamma_choice": "once per dataset: CV of the alpha=1, beta=1 model; warm start along beta",
        "init": "per-label logistic regression (C=1) at beta=1",
    }


_PARAMS = ("seed", "alphas", "betas", "gammas", "cv", "max_iter", "tol")


def grid_cell(
    dataset: str,
    *,
    seed: int,
    alphas: Sequence[float],
    betas: Sequence[float],
    gammas: Sequence[float],
    cv: int,
    max_iter: int,
    tol: float,
) -> pd.DataFrame:
    """One dataset's grid: loaded, split by :func:`split_and_scale`, fitted by
    :func:`blended_grid`."""
    Xtr, Xte, Ytr, Yte = split_dataset(dataset, seed)
    df = blended_grid(
        Xtr,
        Ytr,
        Xte,
        Yte,
        alphas=alphas,
        betas=betas,
        gammas=gammas,
        cv=cv,
        max_iter=max_iter,
        tol=tol,
        seed=seed,
    )
    df.insert(0, "dataset", dataset)
    return df


def grid_spec(datasets: Sequence[str] = GRID_DATASETS, *, seed: int = 0, **kw: Any) -> Spec:
    """The grid as a runner spec: one cell per dataset, parameters from :func:`grid_config`."""
    config = grid_config(datasets, seed=seed, **kw)
    params = {k: config[k] for k in _PARAMS}
    protocol = {k: v for k, v in config.items() if k not in ("datasets", "data", *_PARAMS)}
    return Spec(
        "blended_grid",
        grid_cell,
        {"dataset": list(datasets)},
        params=params,
        key=protocol,
        cell_key=lambda c: {"data": config["data"][c["dataset"]]},
        table=("blended_grid", *(f"blended_grid_{d}" for d in datasets)),
    )


def run_blended_grid(
    datasets: Sequence[str] = GRID_DATASETS,
    *,
    seed: int = 0,
    n_jobs: int = 1,
    cache_dir: Any = None,
    **kw: Any,
) -> pd.DataFrame:
    """The whole experiment of Sec. 4 on the named datasets (a tidy DataFrame).

    Each dataset is loaded with :func:`mlcbook.datasets.load_dataset`, split by
    :func:`split_and_scale`, and run through :func:`blended_grid`; ``kw`` are the
    grid's settings (``alphas, betas, gammas, cv, max_iter, tol``).
    """
    return table(
        grid_spec(datasets, seed=seed, **kw),
        n_jobs=n_jobs,
        cache_dir=cache_dir,
        desc="blended grid",
    )


def load_blended_grid(
    datasets: Sequence[str] = GRID_DATASETS, *, seed: int = 0, **kw: Any
) -> pd.DataFrame:
    """The committed grid ``data/results/blended_grid.csv``, or compute it.

    Each dataset's grid is cached on its own (``blended_grid_<name>.csv``, so a
    long run keeps what it has finished); the union is ``blended_grid.csv``.
    ``make reproduce`` (``MLCBOOK_RECOMPUTE=1``) recomputes everything.
    """

    def one(name: str) -> pd.DataFrame:
        return load_or_compute(
            f"blended_grid_{name}",
            lambda: run_blended_grid([name], seed=seed, **kw),
            grid_config([name], seed=seed, **kw),
        )

    return load_or_compute(
        "blended_grid",
        lambda: pd.concat([one(n) for n in datasets], ignore_index=True),
        grid_config(datasets, seed=seed, **kw),
    )
