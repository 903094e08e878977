"""The paper's baselines (BR, ML-kNN, GFM) on the authors' splits and normalisation.

Wu & Zhou (2017, Sec. 5.2) compare LIMO with three methods: "For BR, L2-regularized SVM
(Chang & Lin, 2011) with C = 1 is used as base learner.  For ML-kNN and GFM, the
number of nearest neighbors is 10", all called linear methods.  Chang & Lin (2011) is
LIBSVM; a linear L2-regularised SVM in LIBSVM is ``-s 0 -t 0 -c 1`` (C-SVC, linear
kernel, hinge loss, unpenalised bias), which is :class:`sklearn.svm.SVC` with
``kernel="linear", C=1`` (scikit-learn wraps LIBSVM).  Our benchmark
(:mod:`.benchmark`) ran BR on LIBLINEAR instead (:class:`sklearn.svm.LinearSVC`:
squared hinge loss, the bias penalised like a weight).  This module runs both on the
same data so that the difference between the two solvers is measured, not assumed:

* ``BR-LIBSVM``: one ``SVC(kernel="linear", C=1.0)`` per label (the paper's);
* ``BR-LIBLINEAR``: one ``LinearSVC(C=1.0)`` per label (the one of ``limo_benchmark``);
* ``ML-kNN``: :class:`mlcbook.learners.MLkNN` (k = 10, s = 1);
* ``GFM``: :class:`mlcbook.learners.GFM` (k = 10), scored by its 0/1 prediction, and
  ``GFM-marg`` (the same prediction, ranked by its neighbour marginals).

Every method predicts its own 0/1 labels (the thresholds of Sec. 3.2 are LIMO's);
nothing is tuned.  The data are ``demo.m``'s: the ten permutations of the ``.mat``
files (first 30% test) and each feature divided by its largest absolute value over the
whole data (:mod:`.authors`).  The eleven measures are the authors' own conventions
(:func:`mlcbook.metrics.all_measures` with ``convention="wu_zhou"``, tested against
their ``measure/*.m``).  :func:`baselines_table` is the committed table
``limo_authors_baselines``; :func:`solver_comparison` sets the two BRs beside the
paper's Table B.3.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from sklearn.multiclass import OneVsRestClassifier
from sklearn.svm import SVC, LinearSVC

from mlcrepro.results import load_or_compute, recompute_requested
from mlcrepro.runner import Spec, table
from mlcrepro.wu_zhou2017 import authors
from mlcrepro.wu_zhou2017.benchmark import baseline_predictions
from mlcrepro.wu_zhou2017.measure_rows import authors_measure_rows
from mlcrepro.wu_zhou2017.names import PAPER_COLUMN
from mlcrepro.wu_zhou2017.printed import paper_b3

__all__ = [
    "BASELINES",
    "BASELINES_TABLE",
    "baseline_cell",
    "baselines_config",
    "baselines_spec",
    "baselines_table",
    "make_br",
    "solver_comparison",
]

BASELINES_TABLE = "limo_authors_baselines"
#: the methods of the table (GFM's cell also writes ``GFM-marg``)
BASELINES: tuple[str, ...] = ("BR-LIBSVM", "BR-LIBLINEAR", "ML-kNN", "GFM")
#: the authors' file stems -> Table B.3's data set names (emotions is not in it)
_PAPER_NAMES = {"CAL500": "CAL500", "enron": "enron"}


def make_br(solver: str, C: float = 1.0) -> OneVsRestClassifier:
    """Binary relevance with a linear SVM per label, through LIBSVM or LIBLINEAR.

    ``"libsvm"``: ``SVC(kernel="linear", C=C)``, LIBSVM's C-SVC (hinge loss, bias not
    penalised), the paper's base learner.  ``"liblinear"``: ``LinearSVC(C=C)``
    (squared hinge loss, bias penalised; ``random_state=0`` fixes LIBLINEAR's
    coordinate order).

    >>> make_br("libsvm").estimator
    SVC(kernel='linear')
    """
    if solver == "libsvm":
        return OneVsRestClassifier(SVC(kernel="linear", C=C))
    if solver == "liblinear":
        return OneVsRestClassifier(LinearSVC(C=C, random_state=0))
    raise ValueError(f"solver must be 'libsvm' or 'liblinear', got {solver!r}")


def baseline_cell(dataset: str, split: int, method: str, *, C: float, k: int) -> pd.DataFrame:
    """One baseline on one of ``demo.m``'s splits: eleven measures, one row each.

    ``GFM`` returns the rows of ``GFM`` and ``GFM-marg``.
    """
    if method not in BASELINES:
        raise ValueError(f"method must be one of {list(BASELINES)}, got {method!r}")
    data = authors.load_authors_dataset(dataset)
    X = authors.normalize_max_abs(data.X)
    train, test = authors.authors_splits(data.randperms)[split]
    Xtr, Xte = X[train], X[test]
    Ytr, Yte = data.Y[train].astype(np.int64), data.Y[test].astype(np.int64)
    if method.startswith("BR-"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a label constant on the training part
            br = make_br(method[3:].lower(), C=C).fit(Xtr, Ytr)
            F, P = br.decision_function(Xte), br.predict(Xte)
        return authors_measure_rows(Yte, F, P, dataset=dataset, split=split, method=method)
    predictions = baseline_predictions(method, Xtr, Ytr, Xte, k=k, C=C)
    return pd.concat(
        [
            authors_measure_rows(Yte, F, P, dataset=dataset, split=split, method=row)
            for row, (F, P) in predictions.items()
        ],
        ignore_index=True,
    )


def baselines_config(datasets: Sequence[str] = authors.DATASETS) -> dict:
    """Everything ``limo_authors_baselines`` depends on.

    The version of scikit-learn (whose LIBSVM and LIBLINEAR fit BR) is recorded in the
    table's provenance, not here: as for the benchmark's BR, a newer release must give
    the same table to the tolerance of the recompute test, not a stale one.
    """
    return {
        "experiment": "BR, ML-kNN, GFM inside demo.m's protocol (YuriWu/LIMO 4135cf5)",
        "data_sha256": {d: authors.SHA256[f"limo/data/{d}.mat"] for d in datasets},
        "datasets": list(datasets),
        "splits": "randperms rows 1-10, first round(0.3 n) test",
        "normalisation": "each feature / max |value| over the whole data set (normalize.m)",
        "methods": list(BASELINES),
        "br": "one-vs-rest, SVC(kernel='linear', C) = LIBSVM -s 0 -t 0 and "
        "LinearSVC(C, random_state=0) = LIBLINEAR, C = 1",
        "knn": "k = 10 (ML-kNN s = 1), euclidean, equal distances by training index",
        "predictions": "each method's own 0/1 prediction for the classification measures",
        "measures": "mlcbook.metrics.all_measures, convention='wu_zhou'",
    }


def baselines_spec(datasets: Sequence[str] = authors.DATASETS) -> Spec:
    """dataset × split × method, one cell each (:func:`baseline_cell`)."""
    config = baselines_config(datasets)
    cost = {"BR-LIBSVM": 3.0, "BR-LIBLINEAR": 1.0, "ML-kNN": 1.0, "GFM": 1.0}
    return Spec(
        BASELINES_TABLE,
        baseline_cell,
        {"dataset": list(datasets), "split": range(10), "method": list(BASELINES)},
        params={"C": 1.0, "k": 10},
        key={k: v for k, v in config.items() if k not in ("datasets", "data_sha256")},
        cell_key=lambda c: {"data": config["data_sha256"][c["dataset"]]},
        cost=lambda c: (
            {"emotions": 1.0, "CAL500": 2.0, "enron": 4.0}[c["dataset"]] * cost[c["method"]]
        ),
        table=BASELINES_TABLE,
    )


def baselines_table(*, n_jobs: int = 1, cache_dir: Any = None) -> pd.DataFrame:
    """The committed ``limo_authors_baselines`` (computed through the runner only when asked)."""
    return load_or_compute(
        BASELINES_TABLE,
        lambda: table(
            baselines_spec(), n_jobs=n_jobs, cache_dir=cache_dir, desc="baselines, authors"
        ),
        baselines_config(),
    )


def solver_comparison(base: pd.DataFrame | None = None) -> pd.DataFrame:
    """BR through LIBSVM and through LIBLINEAR on the same splits, beside Table B.3.

    One row per (data set, measure) of the data sets in Table B.3 (CAL500, enron):
    the paper's BR mean and std, the 10-split means of ``BR-LIBSVM`` and
    ``BR-LIBLINEAR``, their difference, and for each whether it lies within the
    paper's std plus half a printed unit (the ledger's rule for a spread).
    """
    base = baselines_table() if base is None else base
    br = base[base.method.isin(["BR-LIBSVM", "BR-LIBLINEAR"])]
    mean = br.groupby(["dataset", "measure", "method"])["value"].mean().unstack("method")
    p = paper_b3()
    p = p[p.method == "BR"].set_index(["dataset", "measure"])
    rows = []
    for d, name in _PAPER_NAMES.items():
        for m in PAPER_COLUMN.values():
            r = p.loc[(name, m)]
            tol = float(r["std"]) + 0.5 * 10.0 ** -len(r["mean"].split(".")[1])
            lib, lin = mean.loc[(d, m), "BR-LIBSVM"], mean.loc[(d, m), "BR-LIBLINEAR"]
            paper = float(r["mean"])
            rows.append(
                {
                    "dataset": d,
                    "measure": m,
                    "paper": paper,
                    "paper_std": float(r["std"]),
                    "libsvm": lib,
                    "liblinear": lin,
                    "libsvm_minus_liblinear": lib - lin,
                    "libsvm_within": bool(abs(lib - paper) <= tol),
                    "liblinear_within": bool(abs(lin - paper) <= tol),
                }
            )
    return pd.DataFrame(rows)


def _main(argv: Sequence[str] | None = None) -> int:
    if not recompute_requested(BASELINES_TABLE):
        print(f"set MLCBOOK_RECOMPUTE={BASELINES_TABLE} to recompute the table")
    base = baselines_table()
    print(f"{BASELINES_TABLE}: {len(base)} rows")
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
