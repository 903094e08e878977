"""Table B.3's LIMO rows with the released code's sampling, on every benchmark data set.

The benchmark (:mod:`.benchmark`) runs LIMO as Algorithm 1 prints it: an instance drawn
with weight ``|Y+| |Y-|``, then one of its (relevant, irrelevant) pairs.  The authors'
released ``sgd_limo_train.m`` draws an instance uniformly, then a relevant label
(``LIMO(sampling="released_code")``); inside the authors' protocol that reading is the
one that agrees with their code (``limo_authors_ours``).  Only CAL500 and enron come
with the authors' splits; this table runs LIMO, LIMO-inst and LIMO-label in the
released reading on all four data sets of the benchmark, on the benchmark's own seeded
70/30 splits, scaling and thresholds, everything else as in :func:`.benchmark.benchmark_cell`
(the same seed per split), so that the two readings can be set side by side on every
cell of Table B.3.

* :func:`sampling_spec` / :func:`sampling_table`: the runner experiment, committed as
  ``limo_benchmark_released``;
* :func:`sampling_comparison`: per data set, variant and reading, how many of the
  eleven measures lie within the paper's std.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from mlcrepro.results import load_or_compute
from mlcrepro.runner import Spec, table
from mlcrepro.wu_zhou2017 import printed as P
from mlcrepro.wu_zhou2017.authors_causes import within_paper
from mlcrepro.wu_zhou2017.benchmark import (
    BENCHMARK_DATASETS,
    LIMO_VARIANTS,
    benchmark_cell,
    benchmark_config,
)
from mlcrepro.wu_zhou2017.names import PAPER_COLUMN

__all__ = [
    "SAMPLING_TABLE",
    "sampling_cell",
    "sampling_comparison",
    "sampling_config",
    "sampling_spec",
    "sampling_table",
]

SAMPLING_TABLE = "limo_benchmark_released"


def sampling_config(
    datasets: Sequence[str] = BENCHMARK_DATASETS, replications: int | Mapping[str, int] = 10
) -> dict:
    """The benchmark's configuration with LIMO's sampling as the released code does it."""
    config = benchmark_config(datasets, replications)
    config["experiment"] = "Wu & Zhou (2017) Sec. 5.2, LIMO with the released code's sampling"
    config["methods"] = list(LIMO_VARIANTS)
    config["limo"] = {**config["limo"], "sampling": "released code (uniform instance)"}
    return config


def sampling_cell(
    dataset: str, replication: int, method: str, *, eta: float, n_epochs: int
) -> pd.DataFrame:
    """One LIMO variant, released sampling, on one benchmark split: its eleven measures."""
    if method not in LIMO_VARIANTS:
        raise ValueError(f"method must be one of {list(LIMO_VARIANTS)}, got {method!r}")
    rows = benchmark_cell(
        dataset, replication, method, eta=eta, n_epochs=n_epochs, sampling="released_code"
    )
    return pd.DataFrame(rows)


def sampling_spec(
    datasets: Sequence[str] = BENCHMARK_DATASETS, replications: int | Mapping[str, int] = 10
) -> Spec:
    """The experiment as a runner spec: datasets x replications x LIMO variants."""
    config = sampling_config(datasets, replications)
    reps = config["replications"]
    protocol = {k: v for k, v in config.items() if k not in ("datasets", "replications", "data")}
    return Spec(
        SAMPLING_TABLE,
        sampling_cell,
        {
            "dataset": list(datasets),
            "replication": range(max(reps.values(), default=0)),
            "method": list(config["methods"]),
        },
        params={"eta": config["limo"]["eta"], "n_epochs": config["limo"]["n_epochs"]},
        key=protocol,
        cell_key=lambda c: {"data": config["data"][c["dataset"]]},
        include=lambda c: c["replication"] < reps[c["dataset"]],
        table=SAMPLING_TABLE,
    )


def sampling_table(**kw: Any) -> pd.DataFrame:
    """The committed table ``limo_benchmark_released`` (computed through the runner)."""
    return load_or_compute(
        SAMPLING_TABLE,
        lambda: table(sampling_spec(), desc="LIMO, released sampling", **kw),
        sampling_config(),
    )


def sampling_comparison(algorithm1: pd.DataFrame, released: pd.DataFrame) -> pd.DataFrame:
    """Per data set and LIMO variant: measures within the paper's std, in each reading.

    ``algorithm1`` is the benchmark's table (``limo_benchmark``), ``released`` this
    module's; both are averaged over their splits and judged by the ledger's spread rule
    (:func:`.authors_causes.within_paper`) against Table B.3 as printed.  Returns
    columns ``dataset`` (the paper's name), ``method``, ``measures`` (how many of Table
    B.3's cells the row has), ``algorithm1`` and ``released_code`` (how many lie within).
    """
    paper = P.paper_b3().set_index(["dataset", "method", "measure"])
    means = {
        reading: frame[frame["method"].isin(list(LIMO_VARIANTS))]
        .groupby(["dataset", "method"])
        .mean(numeric_only=True)
        for reading, frame in (("algorithm1", algorithm1), ("released_code", released))
    }
    rows = []
    for dataset, method in means["released_code"].index:
        name = P.DS_PAPER[dataset]
        cells = [
            (m, paper.loc[(name, method, m)])
            for m in PAPER_COLUMN.values()
            if (name, method, m) in paper.index
        ]
        row: dict[str, Any] = {"dataset": name, "method": method, "measures": len(cells)}
        for reading in ("algorithm1", "released_code"):
            ours = means[reading].loc[(dataset, method)]
            row[reading] = sum(
                within_paper(float(ours[m]), cell["mean"], cell["std"]) for m, cell in cells
            )
        rows.append(row)
    return pd.DataFrame(rows)


if __name__ == "__main__":  # make table NAME=limo_benchmark_released
    print(sampling_table().groupby(["dataset", "method"]).size())
