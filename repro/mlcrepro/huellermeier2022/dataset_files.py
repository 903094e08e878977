"""Table 2 of Hüllermeier et al. (2022) as an experiment: the statistics of each file.

One job: compute, one runner cell per dataset, the statistics of the benchmark files
that the datasets ledger sets beside the paper's Table 2
(:func:`mlcbook.datasets.dataset_statistics`), and key the committed table
``datasets_table2`` that holds them by the datasets' names and the sha256 the registry
records for their files (:func:`statistics_config`), so that reading and checking the
table opens no file.

The datasets: the nine of Table 2 (registry names), the paper's Flags as ``flags-12``
(MULAN's 7 colours and 5 binary symbol attributes) and ``medical-cmc``, the distributed
``medical.arff`` whole (1954 rows), whose first 978 rows are the registry's ``medical``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from mlcbook.datasets import dataset_statistics
from mlcrepro.huellermeier2022.printed import NAMES
from mlcrepro.results import dataset_fingerprints
from mlcrepro.runner import Spec

__all__ = [
    "STATISTICS_TABLE",
    "STATISTICS_DATASETS",
    "MEDICAL_FILE",
    "statistics_cell",
    "statistics_config",
    "statistics_spec",
]

#: the committed table of the files' statistics
STATISTICS_TABLE = "datasets_table2"
#: the registry's ``medical.arff`` read whole (the rows of the distributed file)
MEDICAL_FILE = "medical-cmc"
#: the datasets of the table, in its order: Table 2's nine, ``flags-12``, the Medical file
STATISTICS_DATASETS: tuple[str, ...] = (*NAMES.values(), "flags-12", MEDICAL_FILE)


def statistics_cell(dataset: str) -> pd.DataFrame:
    """One dataset's row of the table: its name and
    :func:`~mlcbook.datasets.dataset_statistics` (whole file; ``subset="all"``).

    >>> statistics_cell("emotions")[["dataset", "instances", "labels"]].values.tolist()
    [['emotions', 593, 6]]
    """
    if not isinstance(dataset, str):
        raise TypeError(f"dataset must be a registry name (str), got {type(dataset).__name__}")
    return dataset_statistics(dataset).reset_index()


def statistics_config(datasets: Sequence[str] = STATISTICS_DATASETS) -> dict:
    """The specification of the table: the key of ``results.load_or_compute``, from the
    datasets' names and the sha256 the registry records for their files (no file read).

    >>> "emotions.arff" in statistics_config(["emotions"])["data"]["emotions"]
    True
    """
    return {
        "experiment": "Hüllermeier et al. (2022) Table 2: statistics of the files",
        "datasets": list(datasets),
        "data": dataset_fingerprints(list(datasets)),
        "statistics": "mlcbook.datasets.dataset_statistics, subset 'all'",
    }


def statistics_spec(datasets: Sequence[str] = STATISTICS_DATASETS) -> Spec:
    """The table as a runner spec: one cell per dataset, keyed by its files' sha256."""
    config = statistics_config(datasets)
    return Spec(
        STATISTICS_TABLE,
        statistics_cell,
        {"dataset": list(datasets)},
        key={"experiment": config["experiment"], "statistics": config["statistics"]},
        cell_key=lambda c: {"data": config["data"][c["dataset"]]},
    )
