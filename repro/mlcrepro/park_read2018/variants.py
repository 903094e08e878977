"""Park & Read (2018): the variants of the open hypotheses, re-run under both readings.

Four things the paper leaves open or that our mirror makes possible are re-run on the
grid of Sec. 4 (11 alphas x 8 betas, gamma by 3-fold CV per alpha, as
:func:`.readings.cell`), under both readings of the training:

``"min-max"``
    every feature scaled to [0, 1] on the training half instead of standardised;
``"mulan-split"``
    Scene's MULAN train and test files (1,211/1,196 instances) as the split instead of
    a seeded 50/50 split of their union;
``"penalised-intercept"``
    the penalty over the intercepts too (the paper's sum of squared weights includes
    the weights of the appended 1);
``"cv-determined"``
    gamma chosen by CV on the held-out similarity of the 0/1 predictions instead of
    the undetermined ones.

``"penalised-intercept"`` and ``"cv-determined"`` are computed on the three dense
datasets of Sec. 4 (Emotions, Scene, Yeast; :data:`VARIANT_DATASETS`); Enron and
Slashdot (sparse bag-of-words, whose fits cost more than the three others together)
are left out, and ``"mulan-split"`` is about Scene only.  ``"min-max"`` is computed on
Emotions only: on Scene, L-BFGS on min-max-scaled features took about 9 wall-clock
minutes a cell (eight betas) on the shared machine, against about 2 standardised.

:func:`variant_spec` declares one variant as a runner spec (reading x dataset x alpha,
one :func:`.readings.cell` a cell), :func:`load_variant` reads its committed table
``data/results/blended_<variant>.csv``.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from mlcbook.learners.blended import BlendedLinearClassifier
from mlcrepro.park_read2018.grid import GRID_ALPHAS, GRID_BETAS
from mlcrepro.park_read2018.readings import (
    DATA_VARIANTS,
    READINGS,
    STUDY_GAMMAS,
    STUDY_SETTINGS,
    _scores,
    _split,
    cell,
)
from mlcrepro.results import dataset_fingerprints, load_or_compute
from mlcrepro.runner import Spec, table

__all__ = [
    "LITERAL",
    "literal_cell",
    "literal_gamma",
    "literal_spec",
    "load_literal",
    "VARIANT_DATASETS",
    "VARIANT_ARGS",
    "variant_table",
    "variant_config",
    "variant_spec",
    "load_variant",
]

#: the datasets each variant is about
VARIANT_DATASETS: dict[str, tuple[str, ...]] = {
    "min-max": ("emotions",),
    "mulan-split": ("scene",),
    "penalised-intercept": ("emotions", "scene", "yeast"),
    "cv-determined": ("emotions", "scene", "yeast"),
}
#: each variant's arguments of :func:`.readings.cell`
VARIANT_ARGS: dict[str, dict[str, Any]] = {
    "min-max": {"features": "min-max"},
    "mulan-split": {"features": "mulan-split"},
    "penalised-intercept": {"penalize_intercept": True},
    "cv-determined": {"cv_score": "determined"},
}


def _check_variant(variant: Any) -> str:
    if variant not in VARIANT_ARGS:
        raise ValueError(f"variant must be one of {list(VARIANT_ARGS)}, got {variant!r}")
    return str(variant)


def variant_table(variant: str) -> str:
    """``blended_min_max`` or ``blended_mulan_split``: the committed table's name."""
    return "blended_" + _check_variant(variant).replace("-", "_")


def variant_config(variant: str, *, seed: int = 0) -> dict:
    """The specification that keys one variant's committed table."""
    datasets = list(VARIANT_DATASETS[_check_variant(variant)])
    extra = {} if variant in DATA_VARIANTS else {"args": VARIANT_ARGS[variant]}
    return {
        **extra,
        "experiment": "park-read-2018-variant",
        "variant": variant,
        "readings": {r: STUDY_SETTINGS[r] for r in READINGS},
        "datasets": datasets,
        "data": dataset_fingerprints(datasets),
        "seed": seed,
        "alphas": [float(a) for a in GRID_ALPHAS],
        "betas": [float(b) for b in GRID_BETAS],
        "gammas": [float(g) for g in STUDY_GAMMAS],
        "gamma_per": "alpha",
        "cv": 3,
    }


def _variant_rows(dataset: str, alpha: float, reading: str, **params: Any) -> pd.DataFrame:
    return pd.DataFrame(cell(dataset, alpha, reading, **params))


def variant_spec(variant: str, *, seed: int = 0) -> Spec:
    """One variant as a runner spec: reading x dataset x alpha, one beta path a cell."""
    datasets = list(VARIANT_DATASETS[_check_variant(variant)])
    data = dataset_fingerprints(datasets)
    return Spec(
        variant_table(variant),
        _variant_rows,
        {"reading": list(READINGS), "dataset": datasets, "alpha": [float(a) for a in GRID_ALPHAS]},
        params={
            "gamma_per": "alpha",
            "seed": int(seed),
            "betas": [float(b) for b in GRID_BETAS],
            "gammas": [float(g) for g in STUDY_GAMMAS],
            "cv": 3,
            **VARIANT_ARGS[variant],
        },
        key={"experiment": "park-read-2018-variant"},
        cell_key=lambda c: {"data": data[c["dataset"]], **STUDY_SETTINGS[c["reading"]]},
        table=variant_table(variant),
    )


def load_variant(variant: str, *, seed: int = 0) -> pd.DataFrame:
    """The committed table of one variant (computed only under ``MLCBOOK_RECOMPUTE``)."""
    name = variant_table(variant)
    return load_or_compute(
        name,
        lambda: table(variant_spec(variant, seed=seed), desc=name),
        variant_config(variant, seed=seed),
    )


#: the literal fit budget (hypothesis 3): Emotions at beta = 1, gradient ascent from zero
#: with a fixed step (three step sizes, none taken from the paper, which gives none),
#: stopping at the first step that would not increase J, at most ``max_iter`` steps,
#: gamma fixed across alpha at the CV choice of the ascent reading at (1, 1)
LITERAL: dict[str, Any] = {
    "dataset": "emotions",
    "beta": 1.0,
    "rates": (1.0, 0.1, 0.01),
    "max_iter": 2000,
    "seed": 0,
}


def literal_cell(
    dataset: str, alpha: float, rate: float, *, beta: float, gamma: float, max_iter: int, seed: int
) -> pd.DataFrame:
    """One literal ascent fit (:class:`~mlcbook.learners.BlendedLinearClassifier` ``rate``)."""
    Xtr, Xte, Ytr, Yte = _split(dataset, seed, "as-is")
    clf = BlendedLinearClassifier(
        alpha=alpha,
        beta=beta,
        gamma=gamma,
        solver="ascent",
        init="zeros",
        rate=rate,
        max_iter=max_iter,
        random_state=seed,
    ).fit(Xtr, Ytr)
    row = {
        "dataset": dataset,
        "alpha": alpha,
        "beta": beta,
        "rate": rate,
        "gamma": gamma,
        "n_iter": clf.n_iter_,
        "status": clf.status_,
    }
    row.update(_scores(Ytr, clf.predict(Xtr), "train"))
    row.update(_scores(Yte, clf.predict(Xte), "test"))
    return pd.DataFrame([row])


def literal_gamma(ascent: pd.DataFrame) -> float:
    """The ascent reading's CV choice of gamma on the literal dataset at (1, 1)."""
    at = ascent.query("dataset == @LITERAL['dataset'] and alpha == 1.0 and beta == 1.0")
    return float(at["gamma"].iloc[0])


def literal_spec(gamma: float) -> Spec:
    """The literal fit budget as a runner spec: rate x alpha, one fit a cell."""
    d = LITERAL["dataset"]
    return Spec(
        "blended_literal",
        literal_cell,
        {"rate": [float(r) for r in LITERAL["rates"]], "alpha": [float(a) for a in GRID_ALPHAS]},
        params={
            "dataset": d,
            "beta": LITERAL["beta"],
            "gamma": float(gamma),
            "max_iter": LITERAL["max_iter"],
            "seed": LITERAL["seed"],
        },
        key={"experiment": "park-read-2018-literal"},
        cell_key=lambda c: {"data": dataset_fingerprints([d])[d]},
        table="blended_literal",
    )


def load_literal(gamma: float) -> pd.DataFrame:
    """``data/results/blended_literal.csv`` (computed only under ``MLCBOOK_RECOMPUTE``)."""
    d = LITERAL["dataset"]
    config = {
        "experiment": "park-read-2018-literal",
        **{k: (list(v) if isinstance(v, tuple) else v) for k, v in LITERAL.items()},
        "gamma": float(gamma),
        "alphas": [float(a) for a in GRID_ALPHAS],
        "data": dataset_fingerprints([d]),
        "start": "zeros",
    }
    return load_or_compute(
        "blended_literal", lambda: table(literal_spec(gamma), desc="blended literal"), config
    )
