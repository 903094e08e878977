"""Park & Read (2018), Sec. 4 re-run under two readings of their training procedure.

The paper trains its linear-logistic model "until the optimisation function
stops increasing" by gradient ascent (Sec. 3.2) and says of the penalty only
that it is "typically chosen via cross-validation" (Sec. 3.3) and "was computed
using cross validation" (Sec. 4, for each of the 88 optimised models).  Two
readings are computed here, both with ``gamma`` chosen by ``cv``-fold
cross-validation *per (alpha, beta) setting* from :data:`STUDY_GAMMAS`, the
criterion being the held-out mean blended similarity of the undetermined
predictions (the objective itself):

``"lbfgs"``
    L-BFGS run to convergence (``max_iter`` raised to 1000; every fit reports
    whether it converged, stalled or was capped), started at per-label logistic
    regressions for ``beta = 1`` and at the previous beta's solution after that
    (a continuation along beta, also inside every CV fold).
``"ascent"``
    The paper's optimiser: gradient ascent from zero weights for every setting,
    stopped when one accepted step raises the objective by at most
    ``tol = 1e-4`` of its value (the ascent of :mod:`mlcbook.learners.blended`).

Each reading also records the fits with ``gamma`` chosen once per alpha (the CV
choice at ``beta = 1`` kept for all betas), which costs one more fit per setting.

A *cell* is one (dataset, alpha) of a reading: the eight betas of a continuation
belong together (each starts from the previous one's weights), so they are one
unit of work.  :func:`cell` computes it; :func:`readings_spec` declares the cells
of one table as a :class:`~mlcrepro.runner.Spec`, so
:func:`run_study` computes them through :mod:`mlcrepro.runner` (its
one cache, keyed by the cell's specification, so an interrupted run resumes;
joblib parallelism; progress); :func:`load_study` reads the committed table (or
computes it under ``MLCBOOK_RECOMPUTE``).  The fixed-gamma table
(:func:`penalty_spec`, :func:`load_penalty`) and the split check
(:func:`split_spec`, :func:`load_split_check`) are runner specs too.
"""

from __future__ import annotations

import math
import numbers
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.preprocessing import StandardScaler

from mlcbook.datasets import load_dataset
from mlcbook.learners.blended import BlendedLinearClassifier
from mlcbook.metrics import hamming_loss, instance_jaccard, subset_accuracy
from mlcrepro.park_read2018.grid import (
    GRID_ALPHAS,
    GRID_BETAS,
    GRID_DATASETS,
    scale_halves,
    split_dataset,
)
from mlcrepro.park_read2018.tables import FIT_STATUSES as _STATUSES
from mlcrepro.results import dataset_fingerprints, load_or_compute
from mlcrepro.runner import Spec, table

__all__ = [
    "READINGS",
    "STUDY_GAMMAS",
    "STUDY_SETTINGS",
    "STUDY_DATASETS",
    "PER_SETTING_DATASETS",
    "PENALTY_ALPHAS",
    "SPLIT_CHECK",
    "cell",
    "cell_spec",
    "study_config",
    "readings_spec",
    "run_study",
    "load_study",
    "table_name",
    "GAMMA_PER",
    "penalty_config",
    "penalty_spec",
    "load_penalty",
    "path_cell",
    "split_cells",
    "split_config",
    "split_spec",
    "load_split_check",
]

#: the two readings of the paper's training procedure
READINGS = ("lbfgs", "ascent")
#: candidate penalties for the cross-validation of gamma (reaching 1e-1)
STUDY_GAMMAS = (1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 3e-2, 1e-1)
#: per reading: iteration cap and stopping tolerance (on the rescaled objective)
STUDY_SETTINGS: dict[str, dict[str, Any]] = {
    "lbfgs": {"max_iter": 1000, "tol": 1e-6, "init": "logistic", "warm_start": True},
    "ascent": {
        "max_iter": 2000,
        "tol": 1e-4,
        "init": "zeros",
        "warm_start": False,
        "rate": "fixed; halved while a step would not increase J",
    },
}
#: where gamma is chosen by CV: for every (alpha, beta), or once per alpha (at beta = 1)
GAMMA_PER = ("setting", "alpha")
#: "as-is": the split of :func:`split_and_scale` (sparse word counts kept as they are);
#: "standardised": every feature standardised on the training half, sparse ones too
FEATURES = ("as-is", "standardised")
#: the data variants of the open hypotheses (:mod:`.variants`): "min-max": every feature
#: scaled to [0, 1] on the training half (instead of standardised; sparse non-negative
#: features divided by their maximum, which is min-max for them); "mulan-split": Scene's
#: MULAN train/test files (1,211/1,196) as the split
DATA_VARIANTS = ("min-max", "mulan-split")


def _check_real(value: Any, name: str, low: float, high: float = math.inf) -> float:
    """``value`` as a float if it is a finite real number in [low, high], else an error."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    value = float(value)
    if not (math.isfinite(value) and low <= value <= high):
        raise ValueError(f"{name} must be a finite number in [{low}, {high}], got {value}")
    return value


def _one_of(value: Any, name: str, choices: tuple[str, ...]) -> str:
    """``value`` if it is one of ``choices``, else an error naming ``name``."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}, got {value!r}")
    return value


def cell_spec(
    dataset: str,
    alpha: float,
    reading: str,
    *,
    gamma_per: str = "setting",
    seed: int = 0,
    betas=GRID_BETAS,
    gammas=STUDY_GAMMAS,
    cv: int = 3,
    features: str = "as-is",
    penalize_intercept: bool = False,
    cv_score: str = "undetermined",
) -> dict:
    """Everything one cell's numbers depend on (checked before any work).

    ``penalize_intercept`` and ``cv_score`` are options of
    :class:`~mlcbook.learners.BlendedLinearClassifier` (the open hypotheses); like
    ``features``, they enter the key only when they differ from the default.

    :func:`readings_spec` keys each runner cell by the same items (its parameters,
    the reading's settings) and the checksum of the cell's dataset.
    """
    _one_of(dataset, "dataset", GRID_DATASETS)
    _one_of(reading, "reading", READINGS)
    _one_of(gamma_per, "gamma_per", GAMMA_PER)
    if alpha not in GRID_ALPHAS:
        raise ValueError(f"alpha must be one of {GRID_ALPHAS}, got {alpha!r}")
    features = _one_of(features, "features", FEATURES + DATA_VARIANTS)
    extra: dict[str, Any] = {} if features == "as-is" else {"features": features}
    if penalize_intercept:
        extra["penalize_intercept"] = True
    if cv_score != "undetermined":
        if cv_score != "determined":
            raise ValueError(f"cv_score must be 'undetermined' or 'determined', got {cv_score!r}")
        extra["cv_score"] = cv_score
    return {
        **extra,
        "experiment": "park-read-2018-sec4-readings",
        "dataset": dataset,
        "alpha": float(alpha),
        "reading": reading,
        "gamma_per": gamma_per,
        "seed": int(seed),
        "betas": [float(b) for b in betas],
        "gammas": [float(g) for g in gammas],
        "cv": int(cv),
        **STUDY_SETTINGS[reading],
    }


def _scores(Y, P, part: str) -> dict:
    return {
        f"{part}_hamming": 1.0 - hamming_loss(Y, P),
        f"{part}_jaccard": instance_jaccard(Y, P, zero_division=1.0),
        f"{part}_exact": subset_accuracy(Y, P),
    }


def _row(clf, choice: str, cpu: float, data) -> dict:
    Xtr, Xte, Ytr, Yte = data
    row = {
        "gamma_choice": choice,
        "beta": float(clf.beta),
        "gamma": clf.gamma_,
        "status": clf.status_,
        "n_iter": clf.n_iter_,
        "cpu_seconds": cpu,
    }
    row.update({f"cv_{s}": int(clf.cv_status_.get(s, 0)) for s in _STATUSES})
    row.update(_scores(Ytr, clf.predict(Xtr), "train"))
    row.update(_scores(Yte, clf.predict(Xte), "test"))
    return row


def _timed_fit(clf, X, Y) -> float:
    t0 = time.process_time()
    clf.fit(X, Y)
    return time.process_time() - t0


def _split(dataset: str, seed: int, features: str):
    if features == "mulan-split":
        if dataset != "scene":
            raise ValueError(f"features='mulan-split' needs dataset 'scene', got {dataset!r}")
        Xtr, Ytr, _ = load_dataset(dataset, subset="train")
        Xte, Yte, _ = load_dataset(dataset, subset="test")
        Xtr, Xte = scale_halves(Xtr, Xte)  # dense: standardised on the training file
        return Xtr, Xte, np.asarray(Ytr), np.asarray(Yte)
    if features == "min-max":
        return split_dataset(dataset, seed, "min-max")
    Xtr, Xte, Ytr, Yte = split_dataset(dataset, seed)  # loaded once per process
    if features == "standardised" and sp.issparse(Xtr):
        sc = StandardScaler().fit(Xtr.toarray())
        Xtr, Xte = sc.transform(Xtr.toarray()), sc.transform(Xte.toarray())
    return Xtr, Xte, Ytr, Yte


def cell(
    dataset: str,
    alpha: float,
    reading: str,
    *,
    gamma_per: str = "setting",
    seed: int = 0,
    betas=GRID_BETAS,
    gammas=STUDY_GAMMAS,
    cv: int = 3,
    features: str = "as-is",
    penalize_intercept: bool = False,
    cv_score: str = "undetermined",
) -> list[dict]:
    """The eight betas of one (dataset, alpha) under one reading: one row per fit.

    Rows with ``gamma_choice == "setting"`` have gamma chosen by CV for that
    (alpha, beta); rows with ``"alpha"`` keep the CV choice of ``beta = betas[0]``.
    ``gamma_per="setting"`` computes both kinds of rows, ``"alpha"`` only the
    second (its first row, at ``betas[0]``, is the CV fit itself).
    ``cpu_seconds`` is the process CPU time of the fit (with its CV).
    """
    spec = cell_spec(
        dataset,
        alpha,
        reading,
        gamma_per=gamma_per,
        seed=seed,
        betas=betas,
        gammas=gammas,
        cv=cv,
        features=features,
        penalize_intercept=penalize_intercept,
        cv_score=cv_score,
    )
    data = _split(dataset, seed, features)
    Xtr, Ytr = data[0], data[2]
    opts = {k: spec[k] for k in ("max_iter", "tol", "init", "warm_start")}  # "rate": the code
    common = dict(
        alpha=float(alpha),
        random_state=seed,
        solver=reading,
        penalize_intercept=bool(penalize_intercept),
        **opts,
    )
    per_setting = BlendedLinearClassifier(
        beta=float(betas[0]), gamma="cv", gammas=tuple(gammas), cv=cv, cv_score=cv_score, **common
    )
    cpu = _timed_fit(per_setting, Xtr, Ytr)  # at betas[0] both choices are this fit
    rows = [
        _row(per_setting, c, cpu, data)
        for c in ("alpha", "setting")
        if c == "alpha" or gamma_per == "setting"
    ]
    per_alpha = BlendedLinearClassifier(beta=float(betas[0]), gamma=per_setting.gamma_, **common)
    per_alpha._warm_ = dict(per_setting._warm_)  # the continuation starts at this fit
    for beta in betas[1:]:
        if gamma_per == "setting":
            cpu = _timed_fit(per_setting.set_params(beta=float(beta)), Xtr, Ytr)
            rows.append(_row(per_setting, "setting", cpu, data))
        cpu = _timed_fit(per_alpha.set_params(beta=float(beta)), Xtr, Ytr)
        rows.append(_row(per_alpha, "alpha", cpu, data))
    for r in rows:
        r.update(dataset=dataset, reading=reading, alpha=float(alpha))
    return rows


_COLUMNS = ["dataset", "reading", "gamma_choice", "alpha", "beta"]


def _cell_rows(dataset: str, alpha: float, **params: Any) -> pd.DataFrame:
    # ``cell`` looked up at call time, so tests can see whether the cache answered
    return pd.DataFrame(cell(dataset, alpha, **params))


def readings_spec(
    reading: str,
    datasets: Sequence[str] = GRID_DATASETS,
    *,
    gamma_per: str = "alpha",
    seed: int = 0,
    alphas: Sequence[float] = GRID_ALPHAS,
    betas: Sequence[float] = GRID_BETAS,
    gammas: Sequence[float] = STUDY_GAMMAS,
    cv: int = 3,
) -> Spec:
    """One reading's table as a runner spec: one cell (:func:`cell`) per dataset x alpha.

    A cell's key holds :func:`cell_spec` (the reading's settings, its betas, gammas
    and CV) and the checksum of its dataset; ``alphas``, ``betas`` and ``gammas``
    other than the defaults give a smaller study (tests), not a committed table.
    """
    _one_of(reading, "reading", READINGS)
    _one_of(gamma_per, "gamma_per", GAMMA_PER)
    for d in datasets:
        _one_of(d, "dataset", GRID_DATASETS)
    wrong = [a for a in alphas if a not in GRID_ALPHAS]
    if wrong:
        raise ValueError(f"alphas must be among {GRID_ALPHAS}, got {wrong}")
    data = dataset_fingerprints(list(datasets))
    params = {
        "reading": reading,
        "gamma_per": gamma_per,
        "seed": int(seed),
        "betas": [float(b) for b in betas],
        "gammas": [float(g) for g in gammas],
        "cv": int(cv),
    }
    return Spec(
        "blended_readings",
        _cell_rows,
        {"dataset": list(datasets), "alpha": [float(a) for a in alphas]},
        params=params,
        key={"experiment": "park-read-2018-sec4-readings", **STUDY_SETTINGS[reading]},
        cell_key=lambda c: {"data": data[c["dataset"]]},
        table=table_name(reading, gamma_per),
    )


def run_study(
    reading: str,
    datasets: Sequence[str] = GRID_DATASETS,
    *,
    gamma_per: str = "alpha",
    seed: int = 0,
    n_jobs: int = 1,
    cache_dir: Any = None,
) -> pd.DataFrame:
    """All cells of one reading on the named datasets, as one tidy table (the runner)."""
    df = table(
        readings_spec(reading, datasets, gamma_per=gamma_per, seed=seed),
        n_jobs=n_jobs,
        cache_dir=cache_dir,
        desc=f"blended {reading}",
    )
    rest = [c for c in df.columns if c not in _COLUMNS]
    return df[_COLUMNS + rest].sort_values(_COLUMNS, ignore_index=True)


def study_config(
    reading: str, datasets=GRID_DATASETS, *, gamma_per: str = "alpha", seed: int = 0
) -> dict:
    """The specification (the key of :func:`mlcrepro.results.load_or_compute`) of one table."""
    _one_of(reading, "reading", READINGS)
    _one_of(gamma_per, "gamma_per", GAMMA_PER)
    return {
        "experiment": "park-read-2018-sec4-readings",
        "reading": reading,
        "gamma_per": gamma_per,
        "datasets": list(datasets),
        "data": dataset_fingerprints(list(datasets)),
        "seed": seed,
        "alphas": [float(a) for a in GRID_ALPHAS],
        "betas": [float(b) for b in GRID_BETAS],
        "gammas": [float(g) for g in STUDY_GAMMAS],
        "cv": 3,
        "split": "50/50 train_test_split(shuffle, random_state=seed); dense X standardised",
        **STUDY_SETTINGS[reading],
    }


def table_name(reading: str, gamma_per: str = "alpha") -> str:
    """``blended_study_<reading>`` (gamma per alpha) or ``..._per_setting``."""
    suffix = "" if _one_of(gamma_per, "gamma_per", GAMMA_PER) == "alpha" else "_per_setting"
    return f"blended_study_{_one_of(reading, 'reading', READINGS)}{suffix}"


#: the datasets each committed table of the readings holds (gamma per alpha): all five
STUDY_DATASETS: dict[str, tuple[str, ...]] = dict.fromkeys(
    READINGS, ("emotions", "enron", "scene", "slashdot", "yeast")
)
#: the datasets each committed table with gamma chosen per (alpha, beta) holds: its CV
#: costs eight times that of gamma per alpha, so Enron and Slashdot, the costliest, are
#: not in it
PER_SETTING_DATASETS: dict[str, tuple[str, ...]] = dict.fromkeys(
    READINGS, ("emotions", "scene", "yeast")
)


def load_study(
    reading: str, datasets=None, *, gamma_per: str = "alpha", seed: int = 0
) -> pd.DataFrame:
    """The committed table ``data/results/<table_name>.csv`` (or compute it).

    ``datasets`` defaults to :data:`STUDY_DATASETS` of the reading (gamma per alpha)
    or :data:`PER_SETTING_DATASETS` (gamma per setting).
    """
    if datasets is None:
        per_alpha = _one_of(gamma_per, "gamma_per", GAMMA_PER) == "alpha"
        reading = _one_of(reading, "reading", READINGS)
        datasets = (STUDY_DATASETS if per_alpha else PER_SETTING_DATASETS)[reading]
    return load_or_compute(
        table_name(reading, gamma_per),
        lambda: run_study(reading, datasets, gamma_per=gamma_per, seed=seed),
        study_config(reading, datasets, gamma_per=gamma_per, seed=seed),
    )


#: the alphas of the paper's base settings (alpha -> 0: Jaccard at beta = 1, BaseJ of exact
#: match at beta = 128; alpha = 1: Hamming at beta = 1, BaseH at beta = 128), whose
#: sensitivity to a fixed gamma is measured along the whole beta path
PENALTY_ALPHAS = (1e-5, 1.0)


def penalty_config(datasets=GRID_DATASETS, *, seed: int = 0) -> dict:
    """The specification of the fixed-gamma table of the base settings."""
    return {
        "experiment": "park-read-2018-penalty-paths",
        "datasets": list(datasets),
        "data": dataset_fingerprints(list(datasets)),
        "seed": seed,
        "alphas": [float(a) for a in PENALTY_ALPHAS],
        "betas": [float(b) for b in GRID_BETAS],
        "gammas": [float(g) for g in STUDY_GAMMAS],
        **STUDY_SETTINGS["lbfgs"],
    }


def _penalty_rows(dataset: str, alpha: float, gamma: float, **params: Any) -> pd.DataFrame:
    rows = pd.DataFrame(path_cell(dataset, alpha, gamma, **params))
    return rows.drop(columns=["seed", "features"])


def penalty_spec(datasets: Sequence[str] = GRID_DATASETS, *, seed: int = 0) -> Spec:
    """The fixed-gamma table as a runner spec: dataset x alpha x gamma, one path a cell.

    A cell is :func:`path_cell`: L-BFGS from per-label logistic regressions at
    ``beta = 1``, continued along the eight betas at the fixed gamma, as the
    ``"lbfgs"`` reading trains (without its CV of gamma).  Its ``beta = 1`` fit is
    the base setting of Tables 2 and 3, its ``beta = 128`` fit that of Table 4.
    """
    for d in datasets:
        _one_of(d, "dataset", GRID_DATASETS)
    data = dataset_fingerprints(list(datasets))
    return Spec(
        "blended_penalty",
        _penalty_rows,
        {
            "dataset": list(datasets),
            "alpha": [float(a) for a in PENALTY_ALPHAS],
            "gamma": [float(g) for g in STUDY_GAMMAS],
        },
        params={"seed": int(seed), "features": "as-is"},
        key={
            "experiment": "park-read-2018-path",
            "betas": [float(b) for b in GRID_BETAS],
            **STUDY_SETTINGS["lbfgs"],
        },
        cell_key=lambda c: {"data": data[c["dataset"]]},
        table="blended_penalty",
    )


def load_penalty(datasets=GRID_DATASETS, *, seed: int = 0) -> pd.DataFrame:
    """``data/results/blended_penalty.csv``: the base settings at every fixed gamma."""
    return load_or_compute(
        "blended_penalty",
        lambda: table(penalty_spec(datasets, seed=seed), desc="blended penalty"),
        penalty_config(datasets, seed=seed),
    )


#: the split check of the largest test-half gap (Enron, best exact match): L-BFGS
#: continuations along beta at the paper's alpha, at fixed penalties (no CV: cheaper, and
#: the best over them and over beta is an optimistic, test-chosen value)
SPLIT_CHECK: dict[str, Any] = {
    "dataset": "enron",
    "alpha": 0.2,
    "gammas": (1e-4, 1e-3),
    "seeds": (0, 1, 2, 3, 4),
}


def path_cell(
    dataset: str, alpha: float, gamma: float, *, seed: int = 0, features: str = "as-is"
) -> list[dict]:
    """The eight betas at a fixed gamma: L-BFGS from logistic regressions, warm along beta."""
    spec = _path_spec(dataset, alpha, gamma, seed, features)
    data = _split(dataset, seed, features)
    opts = {k: STUDY_SETTINGS["lbfgs"][k] for k in ("max_iter", "tol", "init", "warm_start")}
    clf = BlendedLinearClassifier(
        alpha=spec["alpha"], beta=1.0, gamma=spec["gamma"], random_state=seed, **opts
    )
    rows = []
    for beta in GRID_BETAS:
        cpu = _timed_fit(clf.set_params(beta=float(beta)), data[0], data[2])
        rows.append(_row(clf, "fixed", cpu, data))
    for r in rows:
        r.update(dataset=dataset, alpha=spec["alpha"], seed=int(seed), features=features)
    return rows


def _path_spec(dataset, alpha, gamma, seed, features) -> dict:
    _one_of(dataset, "dataset", GRID_DATASETS)
    return {
        "experiment": "park-read-2018-path",
        "dataset": dataset,
        "alpha": _check_real(alpha, "alpha", 0.0, 1.0),
        "gamma": _check_real(gamma, "gamma", 0.0),
        "seed": int(seed),
        "features": _one_of(features, "features", FEATURES + DATA_VARIANTS),
        "betas": [float(b) for b in GRID_BETAS],
        **STUDY_SETTINGS["lbfgs"],
    }


def split_cells(check=SPLIT_CHECK) -> list[tuple[int, str, float]]:
    """The (seed, features, gamma) paths of the split check."""
    first = check["seeds"][0]
    return [(s, "as-is", g) for s in check["seeds"] for g in check["gammas"]] + [
        (first, "standardised", g) for g in check["gammas"]
    ]


def split_config(*, check=SPLIT_CHECK) -> dict:
    """The specification of the split/feature check (``blended_split_check``)."""
    d = check["dataset"]
    return {
        "experiment": "park-read-2018-split-check",
        "dataset": d,
        "data": dataset_fingerprints([d]),
        "alpha": float(check["alpha"]),
        "gammas": [float(g) for g in check["gammas"]],
        "seeds": [int(s) for s in check["seeds"]],
        "features": "as-is for every seed; standardised for the first seed",
        "betas": [float(b) for b in GRID_BETAS],
        **STUDY_SETTINGS["lbfgs"],
    }


def _path_rows(features: str, seed: int, gamma: float, **params: Any) -> pd.DataFrame:
    return pd.DataFrame(path_cell(gamma=gamma, seed=seed, features=features, **params))


def split_spec(*, check=SPLIT_CHECK) -> Spec:
    """The split check as a runner spec: the paths of :func:`split_cells`, one a cell."""
    d = check["dataset"]
    _one_of(d, "dataset", GRID_DATASETS)
    first = int(check["seeds"][0])
    data = dataset_fingerprints([d])[d]
    return Spec(
        "blended_split_check",
        _path_rows,
        {
            "features": list(FEATURES),
            "seed": [int(s) for s in check["seeds"]],
            "gamma": [float(g) for g in check["gammas"]],
        },
        params={"dataset": d, "alpha": float(check["alpha"])},
        key={
            "experiment": "park-read-2018-path",
            "betas": [float(b) for b in GRID_BETAS],
            **STUDY_SETTINGS["lbfgs"],
        },
        cell_key=lambda c: {"data": data},
        include=lambda c: c["features"] == "as-is" or c["seed"] == first,
        table="blended_split_check",
    )


def load_split_check(*, check=SPLIT_CHECK) -> pd.DataFrame:
    """``data/results/blended_split_check.csv``: other splits and standardised features."""
    return load_or_compute(
        "blended_split_check",
        lambda: table(split_spec(check=check), desc="blended split check"),
        split_config(check=check),
    )
