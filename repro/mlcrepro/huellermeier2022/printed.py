"""Hüllermeier et al. (2022) as printed: the paper's numbers, read from the claims inventory.

One job: read the values the paper prints (``book/_claims/huellermeier2022.printed.csv``,
:func:`mlcrepro.printed_numbers.printed`) into the shapes the evidence and the ledgers need,
never typing one of them here.

* :func:`paper_value` — one value, as printed (text);
* :func:`table1` — Table 1's 32 label vectors of five labels and their probabilities;
* :func:`table2` — Table 2's statistics of the nine datasets, as printed (text), and
  :func:`table2_ids`, the claim id of each of its numbers.
"""

from __future__ import annotations

from itertools import product

import numpy as np
import pandas as pd

from mlcrepro.huellermeier2022.record import PAPER
from mlcrepro.printed_numbers import printed

__all__ = ["CLAIMS_KEY", "COLUMNS", "NAMES", "paper_value", "table1", "table2", "table2_ids"]

#: the paper's key in the claims inventory (``book/_claims/<key>.csv``)
CLAIMS_KEY = PAPER.key
#: the statistics of Table 2, as :func:`mlcbook.datasets.dataset_statistics` names them
COLUMNS = (
    "instances",
    "labels",
    "label_to_instance_ratio",
    "distinct_combinations",
    "cardinality",
)
#: the paper's name of each dataset of Table 2 -> the registry's
NAMES = {
    "Birds": "birds",
    "Emotions": "emotions",
    "Enron-f": "enron",
    "Flags": "flags",
    "Genbase": "genbase",
    "Llog-f": "llog",
    "Medical": "medical",
    "Scene": "scene",
    "Yeast": "yeast",
}


def paper_value(table: str, row: str, column: str) -> str:
    """One value of the paper exactly as printed.

    >>> paper_value("Sec. 4.4, example 1", "learner A", "binomial k=2")
    '0.32'
    """
    t = printed(CLAIMS_KEY, table)
    hit = t[(t["row"] == row) & (t["column"] == column)]
    if len(hit) != 1:
        raise ValueError(f"no printed value at ({table!r}, {row!r}, {column!r})")
    return str(hit["value"].iloc[0])


def table1() -> tuple[np.ndarray, np.ndarray]:
    """The paper's Table 1: its 32 label vectors of five labels and their probabilities.

    The vectors in the order of :func:`itertools.product` (``00000``, ``00001``, ...),
    which is the table's.

    >>> support, probs = table1()
    >>> support.shape, round(float(probs.sum()), 9)
    ((32, 5), 1.0)
    """
    t = printed(CLAIMS_KEY, "Table 1")
    t = t[t["column"] == "probability"]
    support = np.array(list(product([0, 1], repeat=5)))
    probs = dict(zip(t["row"], t["value"]))
    return support, np.array([float(probs[" ".join(map(str, y))]) for y in support])


def table2() -> pd.DataFrame:
    """The paper's Table 2 as printed: one row per dataset (its name), :data:`COLUMNS`.

    >>> table2().loc["Flags", "labels"]
    '12'
    """
    t = printed(CLAIMS_KEY, "Table 2")
    wide = t.pivot(index="row", columns="column", values="value")
    wide = wide.rename(columns=lambda c: c.replace(" ", "_"))
    out = wide.reindex(index=list(NAMES), columns=list(COLUMNS))
    if out.isna().any().any():
        raise ValueError("the printed Table 2 lacks a value of the nine datasets")
    out.index.name = None
    out.columns.name = None
    return out


def table2_ids() -> dict[tuple[str, str], str]:
    """The claim id of each number of Table 2: ``(dataset name, column) -> id``.

    >>> table2_ids()["Birds", "instances"]
    'HU038'
    """
    t = printed(CLAIMS_KEY, "Table 2")
    return {(r, c.replace(" ", "_")): i for i, r, c in zip(t["id"], t["row"], t["column"])}
