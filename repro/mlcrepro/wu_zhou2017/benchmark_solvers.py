"""BR through the paper's solver on the benchmark's own splits of medical and bibtex.

The paper's BR is LIBSVM's linear SVM with C = 1 (Sec. 5.2); the benchmark's is
LIBLINEAR's (:func:`~mlcrepro.wu_zhou2017.benchmark.baseline_predictions`), which
squares the hinge and penalises the bias.  On CAL500 and enron both solvers were run
inside the authors' protocol (``limo_authors_baselines``); medical and bibtex have no
released splits, so this experiment runs both solvers on the benchmark's own splits and
scaling (:func:`~mlcrepro.wu_zhou2017.benchmark.scaled_split`), measured by the
authors' measure code (``convention="wu_zhou"``, the code behind the paper's numbers).
With both solvers under one convention, the solver is the only difference between the
two rows of a cell.  :func:`solver_causes` turns the table into the causes of BR's
Table B.3 cells on these data sets.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import pandas as pd

from mlcrepro.ledger import Cause, section, settle_by, tested, unknown
from mlcrepro.results import load_or_compute
from mlcrepro.runner import Spec, table
from mlcrepro.wu_zhou2017.authors_baselines import make_br
from mlcrepro.wu_zhou2017.authors_causes import within_paper
from mlcrepro.wu_zhou2017.benchmark import benchmark_config, scaled_split
from mlcrepro.wu_zhou2017.measure_rows import authors_measure_rows
from mlcrepro.wu_zhou2017.printed import DS_PAPER
from mlcrepro.wu_zhou2017.record import PAPER

__all__ = [
    "SOLVERS",
    "SOLVERS_DATASETS",
    "SOLVERS_TABLE",
    "solver_causes",
    "solvers_cell",
    "solvers_config",
    "solvers_spec",
    "solvers_table",
]

SOLVERS_TABLE = "limo_benchmark_solvers"
#: the benchmark's data sets without the authors' splits (CAL500 and enron have them)
SOLVERS_DATASETS: tuple[str, ...] = ("medical", "bibtex")
#: the two solvers, as :func:`~mlcrepro.wu_zhou2017.authors_baselines.make_br` names them
SOLVERS: dict[str, str] = {"BR-LIBSVM": "libsvm", "BR-LIBLINEAR": "liblinear"}
#: where the Reproduce page shows this evidence
_REF = section(f"Reproducing {PAPER.citation}", "The authors' code, splits and measures")
#: what would settle a cell neither solver reaches
_SETTLER = "the authors' BR code and its LIBSVM options beyond C = 1, not released"


def solvers_cell(dataset: str, replication: int, method: str, *, C: float) -> pd.DataFrame:
    """BR through one solver on one benchmark split: eleven measures, the authors' way.

    Long rows ``dataset, replication, method, measure, value``.

    Examples
    --------
    >>> solvers_cell("medical", 0, "BR-SAGA", C=1.0)
    Traceback (most recent call last):
    ...
    ValueError: method must be one of ['BR-LIBSVM', 'BR-LIBLINEAR'], got 'BR-SAGA'
    """
    if method not in SOLVERS:
        raise ValueError(f"method must be one of {list(SOLVERS)}, got {method!r}")
    Xtr, Xte, Ytr, Yte = scaled_split(dataset, int(replication))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a label constant on the training part
        br = make_br(SOLVERS[method], C=C).fit(Xtr, Ytr)
        F, P = br.decision_function(Xte), br.predict(Xte)
    return authors_measure_rows(
        Yte, F, P, dataset=dataset, replication=int(replication), method=method
    )


def solvers_config(datasets: Sequence[str] = SOLVERS_DATASETS) -> dict:
    """Everything ``limo_benchmark_solvers`` depends on: the benchmark's protocol for BR,
    the two solvers, and the authors' measure conventions."""
    bench = benchmark_config(list(datasets))
    return {
        "experiment": "Wu & Zhou (2017) Table B.3: BR through LIBSVM and LIBLINEAR",
        "datasets": list(datasets),
        "data": bench["data"],
        "replications": 10,
        "split": bench["split"],
        "scaling": bench["scaling"],
        "methods": list(SOLVERS),
        "br": "one-vs-rest, SVC(kernel='linear', C) = LIBSVM -s 0 -t 0 and "
        "LinearSVC(C, random_state=0) = LIBLINEAR",
        "br_C": bench["br_C"],
        "measures": "mlcbook.metrics.all_measures, convention='wu_zhou'",
    }


def solvers_spec(datasets: Sequence[str] = SOLVERS_DATASETS) -> Spec:
    """dataset x replication x solver, one cell each (:func:`solvers_cell`)."""
    config = solvers_config(datasets)
    return Spec(
        SOLVERS_TABLE,
        solvers_cell,
        {
            "dataset": list(datasets),
            "replication": range(config["replications"]),
            "method": list(SOLVERS),
        },
        params={"C": config["br_C"]},
        key={k: v for k, v in config.items() if k not in ("datasets", "data")},
        cell_key=lambda c: {"data": config["data"][c["dataset"]]},
        cost=lambda c: 50.0 if (c["dataset"], c["method"]) == ("bibtex", "BR-LIBSVM") else 1.0,
        table=SOLVERS_TABLE,
    )


def solvers_table(*, n_jobs: int = 1, cache_dir: Any = None) -> pd.DataFrame:
    """The committed table ``limo_benchmark_solvers`` (computed only by the runner)."""
    return load_or_compute(
        SOLVERS_TABLE,
        lambda: table(solvers_spec(), n_jobs=n_jobs, cache_dir=cache_dir),
        solvers_config(),
    )


def solver_causes(
    solvers: pd.DataFrame, paper_b3: pd.DataFrame
) -> dict[tuple[str, str, str], Cause]:
    """Causes of BR's Table B.3 cells on the data sets of ``solvers``, by one rule.

    With ``libsvm`` and ``liblinear`` the means over the ten splits of the two solvers
    (both measured the authors' way) and "within" the ledger's spread rule
    (:func:`~mlcrepro.wu_zhou2017.authors_causes.within_paper`):

    1. LIBSVM within the paper's std and LIBLINEAR not: *tested*, the solver;
    2. LIBLINEAR within: *tested*, the measure convention (with LIBLINEAR, the
       benchmark's solver; with either, if LIBSVM is within as well);
    3. neither within: *unknown*, neither solver on our splits reaches the paper's value,
       ending in what would settle it (the authors' BR code).

    Every BR cell of the table's data sets gets a cause; a ledger row keeps it only where
    its rule says the row differs.

    Parameters
    ----------
    solvers : DataFrame
        The table ``limo_benchmark_solvers``.
    paper_b3 : DataFrame
        Table B.3 as printed (:func:`mlcrepro.wu_zhou2017.printed.paper_b3`).

    Returns
    -------
    dict
        ``(dataset, "BR", measure) -> Cause``, our data set names.

    Examples
    --------
    >>> paper = pd.DataFrame({"dataset": ["medical"], "method": ["BR"],
    ...                       "measure": ["micro_auc"], "mean": ["0.910"], "std": ["0.039"]})
    >>> runs = pd.DataFrame({"dataset": "medical", "replication": 0,
    ...                      "method": ["BR-LIBSVM", "BR-LIBLINEAR"],
    ...                      "measure": "micro_auc", "value": [0.93, 0.96]})
    >>> solver_causes(runs, paper)[("medical", "BR", "micro_auc")].kind
    'tested'
    """
    means = solvers.groupby(["dataset", "measure", "method"], sort=False)["value"].mean()
    paper = paper_b3[paper_b3.method == "BR"].set_index(["dataset", "measure"])
    out: dict[tuple[str, str, str], Cause] = {}
    for dataset, measure in dict.fromkeys(zip(solvers.dataset, solvers.measure)):
        cell = paper.loc[(DS_PAPER[dataset], measure)]
        mean, std = cell["mean"], cell["std"]
        libsvm = float(means.loc[(dataset, measure, "BR-LIBSVM")])
        liblinear = float(means.loc[(dataset, measure, "BR-LIBLINEAR")])
        lib_in, lin_in = within_paper(libsvm, mean, std), within_paper(liblinear, mean, std)
        said = (
            f"on our ten splits, measured by the authors' code, BR gives {libsvm:.4g} through "
            f"LIBSVM (the paper's named solver, C = 1) and {liblinear:.4g} through LIBLINEAR "
            f"(ours); paper {mean} ± {std}"
        )
        if lib_in and not lin_in:
            cause = tested("the solver, LIBSVM within the paper's std: " + said, _REF)
        elif lin_in:
            which = "either solver" if lib_in else "LIBLINEAR"
            cause = tested(
                f"the measure convention, with {which} within the paper's std: " + said, _REF
            )
        else:
            cause = unknown(
                "not traced; neither solver on our splits reaches the paper's value: "
                + said
                + ". "
                + settle_by(_SETTLER),
                _REF,
            )
        out[(dataset, "BR", measure)] = cause
    return out
