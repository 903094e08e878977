"""Wu & Zhou (2017) as printed: Tables 2, B.1, B.2 and B.3 as data, and their vocabulary.

The paper's printed numbers live in the claims inventory
(``book/_claims/wu_zhou2017.printed.csv``, read by :func:`mlcrepro.printed_numbers.printed`),
one cell per line with its claim id.  This module turns them into the shapes the
evidence and the ledger compare with ours: Table 2's ✓/✗ patterns, Tables B.1-B.2's
(absolute, rescaled) pairs, and Table B.3's mean, standard deviation and rank per
(dataset, method, measure).  It also fixes the order and names every other module of
the folder uses (Table B.3's measures, the six methods, the three LIMO variants).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence

import pandas as pd

from mlcbook.registry import get_measure
from mlcrepro.display import measure_name
from mlcrepro.printed_numbers import printed
from mlcrepro.wu_zhou2017.names import PAPER_COLUMN
from mlcrepro.wu_zhou2017.record import PAPER

__all__ = [
    "NAMES",
    "B3_ORDER",
    "METHODS",
    "VARIANTS",
    "DS_PAPER",
    "rank_measures",
    "classification_measures",
    "PAPER_KEY",
    "T2_COLUMNS",
    "B2_COLUMNS",
    "paper_pairs",
    "paper_table2",
    "paper_table",
    "paper_b3",
    "paper_frame",
]

#: display names of the eleven measures by the paper's column, short forms for the
#: narrow tables
NAMES = {c: measure_name(m, short=True) for m, c in PAPER_COLUMN.items()}


#: Table B.3's column order
B3_ORDER = [
    "hamming_loss",
    "ranking_loss",
    "average_precision",
    "one_error",
    "coverage",
    "instance_f1",
    "instance_auc",
    "macro_f1",
    "macro_auc",
    "micro_f1",
    "micro_auc",
]


METHODS = ["BR", "ML-kNN", "GFM", "LIMO-inst", "LIMO-label", "LIMO"]


#: the three LIMO variants, the column pairs of Table B.1
VARIANTS = ["LIMO-inst", "LIMO-label", "LIMO"]


DS_PAPER = {"cal500": "CAL500", "medical": "medical", "enron": "enron", "bibtex": "bibtex"}


#: where the paper's printed numbers live (:func:`mlcrepro.printed_numbers.printed`)
PAPER_KEY = PAPER.key


@functools.cache
def _of_inputs(inputs: str, table: str) -> tuple[str, ...]:
    """The paper's columns of the Table 1 measures whose input is ``inputs`` (the
    registry's ``MeasureSpec.inputs``), in the order ``table`` prints its rows (read from
    the printed numbers on the first call, not when the folder is imported: a handout
    imports :mod:`~mlcrepro.wu_zhou2017.names` without the claims inventory)."""
    order = list(dict.fromkeys(printed(PAPER_KEY, table)["row"]))
    cols = [c for m, c in PAPER_COLUMN.items() if get_measure(m).inputs == inputs]
    return tuple(sorted(cols, key=order.index))


def rank_measures() -> list[str]:
    """Table B.1's rows: the ranking measures (of scores), in its printed order.

    >>> rank_measures()[:4]
    ['ranking_loss', 'average_precision', 'one_error', 'coverage']
    """
    return list(_of_inputs("scores", "Table B.1"))


def classification_measures() -> list[str]:
    """Table B.2's rows: the classification measures (of 0/1 predictions), in its order."""
    return list(_of_inputs("predictions", "Table B.2"))


#: the columns of Table 2, in the order of its ✓/✗ patterns
T2_COLUMNS = ("label-wise", "inst-wise", "double")


#: the columns of Table B.2: each variant with the threshold t and t(x)
B2_COLUMNS = [f"{v}-{t}" for v in VARIANTS for t in ("t", "t(x)")]


#: Table B.3's printed cell, ``.145±.003(5)``: mean, standard deviation, rank
_B3_CELL = re.compile(r"^(?P<mean>[0-9]*\.[0-9]+)±(?P<std>[0-9]*\.[0-9]+)\((?P<rank>[0-9]+)\)$")


def paper_pairs(table: str) -> tuple[dict[str, list[tuple[str, str]]], dict[tuple[str, str], str]]:
    """Table B.1 or B.2 as printed: (absolute, rescaled) per column, and each cell's claim id.

    Returns ``(pairs, ids)``: ``pairs[measure]`` lists the printed (absolute, rescaled)
    pair of every column of the table in the paper's order (:data:`VARIANTS` for B.1,
    :data:`B2_COLUMNS` for B.2; Table B.1 of our copy prints its middle pair as "LIMO",
    which the text makes LIMO-label); ``ids[(measure, column)]`` is the claim id of the
    absolute value.
    """
    columns = {"Table B.1": VARIANTS, "Table B.2": B2_COLUMNS}
    if table not in columns:
        raise ValueError(f"table must be 'Table B.1' or 'Table B.2', got {table!r}")
    frame = printed(PAPER_KEY, table)
    value = {(r.row, r.column): r.value for r in frame.itertuples()}
    ids = {(r.row, r.column): r.id for r in frame.itertuples() if "rescaled" not in r.column}
    pairs = {
        k: [(value[(k, c)], value[(k, f"{c} rescaled")]) for c in columns[table]]
        for k in dict.fromkeys(frame["row"])
    }
    return pairs, ids


def paper_table2() -> tuple[dict[str, str], dict[str, list[str]]]:
    """Table 2 as printed: the ✓/✗ pattern of each measure and the claim ids of its cells.

    The pattern reads label-wise, inst-wise, double (:data:`T2_COLUMNS`).
    """
    frame = printed(PAPER_KEY, "Table 2")
    cell = {(r.row, r.column): (r.value, r.id) for r in frame.itertuples()}
    rows = list(dict.fromkeys(frame["row"]))
    pattern = {k: "".join(cell[(k, c)][0] for c in T2_COLUMNS) for k in rows}
    return pattern, {k: [cell[(k, c)][1] for c in T2_COLUMNS] for k in rows}


def paper_table(paper: Mapping[str, Sequence], columns: Sequence[str]) -> dict[str, pd.DataFrame]:
    """A printed Table B.1/B.2 as two float frames (measures x columns)."""
    out = {}
    for i, part in enumerate(("absolute", "relative")):
        out[part] = pd.DataFrame(
            {c: [float(paper[k][j][i]) for k in paper] for j, c in enumerate(columns)},
            index=list(paper),
        )
    return out


def paper_b3() -> pd.DataFrame:
    """Table B.3 as printed: dataset, method, measure, mean and std as strings, rank, id.

    Read from the paper's printed numbers (:func:`mlcrepro.printed_numbers.printed`), where each
    cell is kept as printed (``.145±.003(5)``); a leading ``.`` becomes ``0.`` so that
    the strings read as the paper's precision.
    """
    frame = printed(PAPER_KEY, "Table B.3")
    rows = []
    for r in frame.itertuples():
        m = _B3_CELL.match(r.value)
        if m is None:
            raise ValueError(f"Table B.3 cell {r.row}, {r.column} is not 'mean±std(rank)'")
        dataset, method = r.row.split(", ")
        cell = {k: "0" + v if v.startswith(".") else v for k, v in m.groupdict().items()}
        rows.append((dataset, method, r.column, cell["mean"], cell["std"], int(m["rank"]), r.id))
    cols = ["dataset", "method", "measure", "mean", "std", "rank", "id"]
    return pd.DataFrame(rows, columns=cols)


def paper_frame(p: pd.DataFrame, dataset: str, column: str) -> pd.DataFrame:
    """Table B.3 for one of our datasets: methods x measures, as floats."""
    w = (
        p[p.dataset == DS_PAPER[dataset]]
        .pivot(index="method", columns="measure", values=column)
        .astype(float)
    )
    return w.reindex(index=METHODS + ["GFM-marg"], columns=B3_ORDER)
