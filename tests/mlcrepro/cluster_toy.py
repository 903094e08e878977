"""The cells of the cluster fault test (``test_cluster_faults.py``): each sleeps briefly
and returns a sum of squares, and writes a line to a log before and after.

This module imports nothing but the standard library and pandas, so that a dask worker
that unpickles the cell function imports little.  Each line of the log is
``started|finished <dataset>/<fold> <pid> <time>``; lines this short, appended, are
written whole by concurrent processes (``O_APPEND``).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pandas as pd

#: the file, in the folder the cell is given, where every computation writes its lines
LOG = "computations.log"


def _note(folder: str, event: str, cell: str) -> None:
    with (Path(folder) / LOG).open("a", encoding="utf-8") as fh:
        fh.write(f"{event} {cell} {os.getpid()} {time.time():.3f}\n")


def sleepy_cell(dataset: str, fold: int, seconds: float, log: str) -> pd.DataFrame:
    """One row: ``value`` is the sum of the squares ``0**2 + ... + n**2`` with
    ``n = fold + 10 * len(dataset)``, summed term by term after ``seconds`` of sleep."""
    cell = f"{dataset}/{fold}"
    _note(log, "started", cell)
    time.sleep(seconds)
    n = fold + 10 * len(dataset)
    value = float(sum(k * k for k in range(n + 1)))
    _note(log, "finished", cell)
    return pd.DataFrame({"dataset": [dataset], "fold": [fold], "value": [value]})
