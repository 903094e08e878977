"""The evidence of the datasets ledger: Table 2 of Hüllermeier et al. (2022), recomputed.

One job: read, from the committed table of the benchmark files' statistics
(:func:`mlcbook.datasets.dataset_statistics` of each file, computed by
:mod:`~mlcrepro.huellermeier2022.dataset_files`), the statistics that the datasets
ledger sets beside the paper's Table 2, and gather them in one frozen value
(:func:`datasets_evidence`).  Nothing here writes a ledger row or opens a data file.

The paper's Flags has 12 labels: it is the registry's ``flags-12`` (MULAN's 7 colours
and 5 binary symbol attributes); its Medical is the registry's ``medical``, the first
978 rows of the distributed file, whose 1954 rows are ``medical-cmc``.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from mlcrepro.huellermeier2022.dataset_files import MEDICAL_FILE
from mlcrepro.huellermeier2022.experiments import dataset_statistics_table
from mlcrepro.huellermeier2022.printed import COLUMNS, NAMES

__all__ = ["table2_keys", "DatasetsEvidence", "datasets_evidence", "empty_prediction_hamming"]


def table2_keys() -> list[str]:
    """The registry names of Table 2's datasets, the paper's flags as ``flags-12``.

    >>> table2_keys()[3]
    'flags-12'
    """
    return ["flags-12" if n == "Flags" else k for n, k in NAMES.items()]


def empty_prediction_hamming(stats: pd.DataFrame) -> pd.Series:
    """The Hamming loss of predicting no label: the label density, cardinality / K.

    >>> s = pd.DataFrame({"labels": [4, 10], "cardinality": [1.0, 0.5]}, index=["a", "b"])
    >>> empty_prediction_hamming(s).tolist()
    [0.25, 0.05]
    """
    if not isinstance(stats, pd.DataFrame):
        raise TypeError(f"stats must be a pandas DataFrame, got {type(stats).__name__}")
    missing = {"labels", "cardinality"} - set(stats.columns)
    if missing or stats.empty:
        raise ValueError(
            f"stats must have rows and the columns labels and cardinality; lacks {missing}"
        )
    return stats["cardinality"].astype(float) / stats["labels"].astype(float)


@dataclass(frozen=True)
class DatasetsEvidence:
    """What the datasets ledger reads.

    ``stats``: :func:`mlcbook.datasets.dataset_statistics` of the nine datasets of
    Table 2 (registry names), of ``flags-12`` and of MULAN's ``flags``;
    ``medical_file_rows``: the instances of the distributed ``medical.arff``;
    ``density``: the Hamming loss of the empty prediction on Table 2's datasets
    (:func:`empty_prediction_hamming`).
    """

    stats: pd.DataFrame
    medical_file_rows: int
    density: pd.Series

    def __post_init__(self) -> None:
        need = [*table2_keys(), "flags"]
        missing = sorted(set(need) - set(self.stats.index))
        missing += sorted(set(COLUMNS) - set(self.stats.columns))
        if missing:
            raise ValueError(f"stats lacks the rows or columns {missing}")
        rows = self.medical_file_rows
        if isinstance(rows, bool) or not isinstance(rows, int):
            raise TypeError(f"medical_file_rows must be an int, got {rows!r}")


def datasets_evidence(table: pd.DataFrame | None = None) -> DatasetsEvidence:
    """The statistics of the benchmark files, from the committed table.

    Parameters
    ----------
    table : pandas.DataFrame, optional
        :func:`mlcbook.datasets.dataset_statistics` of Table 2's datasets, ``flags-12``
        and the whole Medical file (``medical-cmc``), indexed by dataset; default the
        committed table (:func:`~mlcrepro.huellermeier2022.experiments.dataset_statistics_table`).
    """
    table = dataset_statistics_table() if table is None else table
    if not isinstance(table, pd.DataFrame) or MEDICAL_FILE not in table.index:
        raise ValueError(f"table must be a statistics table with a row {MEDICAL_FILE!r}")
    stats = table.drop(index=MEDICAL_FILE)
    return DatasetsEvidence(
        stats=stats,
        medical_file_rows=int(table.loc[MEDICAL_FILE, "instances"]),
        density=empty_prediction_hamming(stats.loc[table2_keys()]),
    )
