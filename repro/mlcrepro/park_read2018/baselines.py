"""Park & Read (2018), Sec. 1 and 5.1: the exact-match baseline their conclusion names.

The paper concludes that training on the blended similarity gives better exact match
than optimising exact match directly, naming label powerset (LP) as "the exact match
minimizer" and multi-class logistic regression as its convex form (Sec. 1).  It prints
no LP result and no setting for it.  :func:`lp_cell` trains LP with a multinomial
logistic regression on the same 50/50 split as the grid (:func:`.grid.split_and_scale`,
seed 0) at scikit-learn's default penalty ``C = 1``; :func:`lp_scores` is the fit and
scoring on given halves.  A 3-fold cross-validation of ``C`` over {0.01, 0.1, 1, 10}
did not finish Enron (about 450 label vectors) on the shared machine: about 3 CPU
minutes in 40 wall-clock minutes, of some 10 needed (and before that, over seven
values, 5 CPU and 19 wall-clock minutes).  :func:`lp_spec` declares the five datasets
as a runner spec and :func:`load_lp` reads the committed table
``data/results/blended_lp.csv``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression

from mlcbook.datasets import load_dataset
from mlcbook.learners import LabelPowerset
from mlcbook.metrics import hamming_loss, jaccard_score, subset_accuracy
from mlcrepro.park_read2018.grid import GRID_DATASETS, split_and_scale
from mlcrepro.results import dataset_fingerprints, load_or_compute
from mlcrepro.runner import Spec, table

__all__ = ["LP_SETTINGS", "lp_scores", "lp_cell", "lp_config", "lp_spec", "load_lp"]

#: LP's base learner: multinomial logistic regression at scikit-learn's default C = 1
LP_SETTINGS: dict[str, Any] = {"C": 1.0, "max_iter": 1000, "seed": 0}


def lp_scores(Xtr: Any, Ytr: Any, Xte: Any, Yte: Any, *, C: float, max_iter: int) -> dict:
    """Fit LP (multinomial logistic regression, inverse penalty ``C``) and score both halves.

    Returns ``C``, the solver's iterations, the number of label vectors seen in
    training, CPU seconds and ``{train,test}_{hamming,jaccard,exact}``.

    Examples
    --------
    Features that are the labels themselves: LP predicts every vector exactly.

    >>> Y = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 6)
    >>> X = Y + 0.01 * np.arange(24)[:, None] % 0.05
    >>> r = lp_scores(X, Y, X[:8], Y[:8], C=10.0, max_iter=200)
    >>> r["n_combinations"], r["train_exact"], r["test_exact"]
    (4, 1.0, 1.0)
    """
    base = LogisticRegression(C=C, max_iter=max_iter)
    t0 = time.process_time()
    clf = LabelPowerset(base).fit(Xtr, Ytr)
    cpu = time.process_time() - t0
    row: dict[str, Any] = {
        "C": float(C),
        "n_iter": int(np.max(clf.estimator_.n_iter_)),
        "n_combinations": len(clf.combinations_),
        "cpu_seconds": cpu,
    }
    for part, (Xp, Yp) in {"train": (Xtr, Ytr), "test": (Xte, Yte)}.items():
        P = clf.predict(Xp)
        row[f"{part}_hamming"] = 1.0 - hamming_loss(Yp, P)
        row[f"{part}_jaccard"] = jaccard_score(Yp, P)
        row[f"{part}_exact"] = subset_accuracy(Yp, P)
    return row


def lp_cell(dataset: str, *, C: float, max_iter: int, seed: int) -> pd.DataFrame:
    """:func:`lp_scores` on one dataset's split (:func:`.grid.split_and_scale`): one row."""
    X, Y, _ = load_dataset(dataset)
    Xtr, Xte, Ytr, Yte = split_and_scale(X, Y, seed=seed)
    row = lp_scores(Xtr, Ytr, Xte, Yte, C=C, max_iter=max_iter)
    return pd.DataFrame([{"dataset": dataset, **row}])


def lp_config(datasets: Sequence[str] = GRID_DATASETS) -> dict:
    """The specification that keys ``data/results/blended_lp.csv``."""
    return {
        "experiment": "park-read-2018-lp",
        "datasets": list(datasets),
        "data": dataset_fingerprints(list(datasets)),
        "learner": "LabelPowerset(LogisticRegression, multinomial)",
        "split": "50/50, split_and_scale",
        **LP_SETTINGS,
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
        params=dict(LP_SETTINGS),
        key={"experiment": "park-read-2018-lp", "split": "50/50, split_and_scale"},
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
