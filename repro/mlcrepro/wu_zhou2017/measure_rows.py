"""The rows a Wu & Zhou cell gives: Table B.3's measures of one method's predictions."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from mlcbook.metrics import all_measures
from mlcrepro.wu_zhou2017.names import PAPER_COLUMN

__all__ = ["authors_measure_rows"]


def authors_measure_rows(Y: Any, F: Any, P: Any, **keys: Any) -> pd.DataFrame:
    """Table B.3's measures of the scores ``F`` and predictions ``P`` against ``Y``, by
    the authors' conventions (:func:`mlcbook.metrics.all_measures`,
    ``convention="wu_zhou"``), one row each: the columns ``keys`` (in their order), then
    ``measure`` (the paper's column name) and ``value``.

    >>> Y = np.array([[1, 0], [0, 1]])
    >>> rows = authors_measure_rows(Y, Y * 1.0, Y, dataset="toy", method="oracle")
    >>> list(rows.columns), len(rows) == len(PAPER_COLUMN)
    (['dataset', 'method', 'measure', 'value'], True)
    """
    out = all_measures(Y, np.asarray(F, dtype=float), np.asarray(P), convention="wu_zhou")
    return pd.DataFrame(
        {
            **keys,
            "measure": list(PAPER_COLUMN.values()),
            "value": [float(out[m]) for m in PAPER_COLUMN],
        }
    )
