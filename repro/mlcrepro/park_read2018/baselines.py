"""Park & Read (2018), Sec. 1 and 5.1: the exact-match baseline their conclusion names.

The paper concludes that training on the blended similarity gives better exact match
than optimising exact match directly, naming label powerset (LP) as "the exact match
minimizer" and multi-class logistic regression as its convex form (Sec. 1).  It prints
no LP result and no setting for it.  :func:`lp_cell` trains LP with a multinomial
logistic regression on the same 50/50 split as the grid (:func:`.grid.split_and_scale`,
seed 0), its inverse penalty ``C`` chosen by 3-fold cross-validation of exact match on
the training half over the grid :data:`LP_SETTINGS` ``["Cs"]`` (four decades around
scikit-learn's default ``C = 1``, fixed before any cross-validated result was seen, though
after LP's scores at ``C = 1``; exact match of LP is the accuracy of its multi-class
problem); :func:`lp_scores` is the
fit and scoring on given halves, :func:`lp_spec` declares the five datasets as a runner
spec and :func:`load_lp` reads the committed table ``data/results/blended_lp.csv``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold

from mlcbook.learners import LabelPowerset
from mlcbook.metrics import hamming_loss, instance_jaccard, subset_accuracy
from mlcrepro.park_read2018.grid import GRID_DATASETS, split_dataset
from mlcrepro.results import dataset_fingerprints, load_or_compute
from mlcrepro.runner import Spec, table

__all__ = ["LP_SETTINGS", "lp_scores", "lp_cell", "lp_config", "lp_spec", "load_lp"]

#: LP's base learner: multinomial logistic regression, C chosen by ``cv``-fold CV over ``Cs``
LP_SETTINGS: dict[str, Any] = {"Cs": (0.01, 0.1, 1.0, 10.0), "cv": 3, "max_iter": 1000, "seed": 0}


def _lp(C: float, max_iter: int) -> LabelPowerset:
    return LabelPowerset(LogisticRegression(C=float(C), max_iter=max_iter))


def lp_scores(
    Xtr: Any,
    Ytr: Any,
    Xte: Any,
    Yte: Any,
    *,
    Cs: Sequence[float],
    cv: int,
    max_iter: int,
    seed: int,
) -> dict[str, Any]:
    """Fit LP on one half with C chosen by CV of exact match, and score both halves.

    The folds are a seeded shuffled ``KFold`` (many label vectors occur once, so a
    stratified split is not possible); the chosen ``C`` has the best mean held-out
    exact match (the first in ``Cs`` on a tie).  Returns ``C``, its mean held-out exact
    match ``cv_exact``, the number of label vectors seen in training, the solver's
    iterations at the chosen C, CPU seconds (with the CV) and
    ``{train,test}_{hamming,jaccard,exact}``.

    Examples
    --------
    Features that are the labels themselves: LP predicts every vector exactly.

    >>> Y = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 6)
    >>> X = Y + 0.01 * np.arange(24)[:, None] % 0.05
    >>> r = lp_scores(X, Y, X[:8], Y[:8], Cs=(0.1, 10.0), cv=2, max_iter=200, seed=0)
    >>> r["n_combinations"], r["C"] in (0.1, 10.0), r["train_exact"], r["test_exact"]
    (4, True, 1.0, 1.0)
    """
    if len(Cs) == 0:
        raise ValueError("Cs must name at least one inverse penalty, got none")
    Ytr = np.asarray(Ytr)
    folds = list(KFold(n_splits=cv, shuffle=True, random_state=seed).split(Ytr))
    t0 = time.process_time()
    mean_exact = []
    for C in Cs:  # held-out exact match of LP = accuracy of its multi-class problem
        held = [
            float(
                subset_accuracy(Ytr[te], _lp(C, max_iter).fit(Xtr[tr], Ytr[tr]).predict(Xtr[te]))
            )
            for tr, te in folds
        ]
        mean_exact.append(float(np.mean(held)))
    best = float(Cs[int(np.argmax(mean_exact))])  # ties: the first, the stronger penalty
    clf = _lp(best, max_iter).fit(Xtr, Ytr)
    cpu = time.process_time() - t0
    row: dict[str, Any] = {
        "C": best,
        "cv_exact": max(mean_exact),
        "n_iter": int(np.max(clf.estimator_.n_iter_)),
        "n_combinations": len(clf.combinations_),
        "cpu_seconds": cpu,
    }
    for part, (Xp, Yp) in {"train": (Xtr, Ytr), "test": (Xte, Yte)}.items():
        P = clf.predict(Xp)
        row[f"{part}_hamming"] = 1.0 - hamming_loss(Yp, P)
        row[f"{part}_jaccard"] = instance_jaccard(Yp, P)
        row[f"{part}_exact"] = subset_accuracy(Yp, P)
    return row


def lp_cell(
    dataset: str, *, Cs: Sequence[float], cv: int, max_iter: int, seed: int
) -> pd.DataFrame:
    """:func:`lp_scores` on one dataset's split (:func:`.grid.split_and_scale`): one row."""
    Xtr, Xte, Ytr, Yte = split_dataset(dataset, seed)  # loaded once per process
    row = lp_scores(Xtr, Ytr, Xte, Yte, Cs=Cs, cv=cv, max_iter=max_iter, seed=seed)
    return pd.DataFrame([{"dataset": dataset, **row}])


def lp_config(datasets: Sequence[str] = GRID_DATASETS) -> dict:
    """The specification that keys ``data/results/blended_lp.csv``."""
    return {
        "experiment": "park-read-2018-lp",
        "datasets": list(datasets),
        "data": dataset_fingerprints(list(datasets)),
        "learner": "LabelPowerset(LogisticRegression, multinomial); C by CV of exact match",
        "split": "50/50, split_and_scale",
        "folds": "KFold(cv, shuffle=True, random_state=seed)",
        **{k: (list(v) if isinstance(v, tuple) else v) for k, v in LP_SETTINGS.items()},
    }


def _lp_rows(dataset: str, **params: Any) -> pd.DataFrame:
    return lp_cell(dataset, **params)


def lp_spec(datasets: Sequence[str] = GRID_DATASETS) -> Spec:
    """LP on each dataset as a runner spec (one cell a dataset)."""
    data = dataset_fingerprints(list(datasets))
    return Spec(
        "blended_lp",
        _lp_rows,
        {"dataset": list(datasets)},
        params={k: (list(v) if isinstance(v, tuple) else v) for k, v in LP_SETTINGS.items()},
        key={
            "experiment": "park-read-2018-lp",
            "split": "50/50, split_and_scale",
            "folds": "KFold(cv, shuffle=True, random_state=seed)",
        },
        cell_key=lambda c: {"data": data[c["dataset"]]},
        table="blended_lp",
    )


def load_lp(datasets: Sequence[str] = GRID_DATASETS) -> pd.DataFrame:
    """``data/results/blended_lp.csv``: LP's scores on the grid's split."""
    return load_or_compute(
        "blended_lp",
        lambda: table(lp_spec(datasets), desc="blended LP"),
        lp_config(datasets),
    )
