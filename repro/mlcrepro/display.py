"""How the chapters show things: display names of the measures and paper-vs-ours tables.

One home for the glue that several chapters need (issue 12): the eleven measures of
Wu & Zhou (2017, Table 1) are named here once, and :func:`side_by_side` sets a paper's
printed table beside ours, each of our numbers printed at the precision the paper
printed for that cell.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal, InvalidOperation
from types import MappingProxyType
from typing import Any

import numpy as np
import pandas as pd

from mlcbook._validation import Flag, Int, OneOf, validate_params
from mlcbook.metrics import WU_ZHOU_MEASURES

__all__ = ["MEASURE_NAMES", "measure_name", "measure_names", "printed_decimals", "side_by_side"]

#: Display name of each of the eleven measures of :data:`mlcbook.metrics.WU_ZHOU_MEASURES`
#: (the keys of :func:`mlcbook.metrics.all_measures`), as Wu & Zhou's Table 1 names them.
MEASURE_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "hamming_loss": "Hamming loss",
        "ranking_loss": "ranking loss",
        "one_error": "one-error",
        "coverage": "coverage",
        "average_precision": "average precision",
        "macro_f1": "macro-F1",
        "instance_f1": "instance-F1",
        "micro_f1": "micro-F1",
        "macro_auc": "macro-AUC",
        "instance_auc": "instance-AUC",
        "micro_auc": "micro-AUC",
    }
)

# shorter forms for narrow tables and figure axes; names not listed are short already
_SHORT = {"average_precision": "avg. precision"}


def measure_name(key: str, *, short: bool = False) -> str:
    """The display name of a measure key, e.g. ``"macro_auc"`` -> ``"macro-AUC"``.

    Parameters
    ----------
    key : str
        One of :data:`mlcbook.metrics.WU_ZHOU_MEASURES`.
    short : bool
        Abbreviate long names (``"avg. precision"``) for narrow tables.

    >>> measure_name("average_precision", short=True)
    'avg. precision'
    """
    if not isinstance(key, str):
        raise TypeError(f"key must be a str, got {type(key).__name__}")
    if key not in MEASURE_NAMES:
        raise ValueError(f"key must be one of {', '.join(WU_ZHOU_MEASURES)}, got {key!r}")
    return _SHORT.get(key, MEASURE_NAMES[key]) if short else MEASURE_NAMES[key]


def measure_names(keys: Iterable[str] = WU_ZHOU_MEASURES, *, short: bool = False) -> list[str]:
    """Display names of several measure keys (default: all eleven, in Table 1's order)."""
    return [measure_name(k, short=short) for k in keys]


def printed_decimals(text: Any) -> int | None:
    """Decimals written in a number as printed (``"0.80"`` -> 2, ``"12"`` -> 0).

    ``None`` for anything that is not a finite number written as text (``"-"``,
    ``"(0.3, 1)"``, ``""``, ``"nan"``, a float object).
    """
    if not isinstance(text, str):
        return None
    try:
        d = Decimal(text.strip())
    except InvalidOperation:
        return None
    if not d.is_finite():
        return None
    return max(0, -int(d.as_tuple().exponent))


def _shown(value: Any, decimals: int) -> str:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return ""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, float, np.number)):
        return f"{float(value):.{decimals}f}"
    return str(value)


def _or(value: int | None, default: int) -> int:
    return default if value is None else value


@validate_params(layout=OneOf(("columns", "rows")), decimals=Int(0, 17), agreement=Flag())
def side_by_side(
    paper: pd.DataFrame,
    ours: pd.DataFrame,
    *,
    layout: str = "columns",
    decimals: int = 3,
    agreement: bool = False,
) -> pd.DataFrame:
    """The paper's printed table beside ours, ours at the paper's printed precision.

    Parameters
    ----------
    paper : DataFrame
        The paper's table as printed: strings (``"0.80"``, ``"12"``, ``"-"``); a
        numeric cell gives its decimals to the cell of ours beside it.
    ours : DataFrame
        Our table with the same index and columns (numbers or text).  A number beside
        a non-numeric paper cell is printed with ``decimals`` decimals.
    layout : {'columns', 'rows'}
        ``'columns'``: each column becomes a pair ``(column, 'paper')``,
        ``(column, 'ours')``.  ``'rows'``: each row becomes two rows,
        ``(row, 'paper')`` above ``(row, 'ours')``.
    decimals : int
        Decimals for our numbers where the paper's cell is not a number.
    agreement : bool
        Add a column ``'same'``: how many cells of the row print the same on both
        sides, as ``"4/5"`` (with ``layout='rows'``, on the row of ours).

    Returns
    -------
    DataFrame of str
        Every cell as text, ready to show.

    Examples
    --------
    >>> paper = pd.DataFrame({"labels": ["6"], "card.": ["1.87"]}, index=["emotions"])
    >>> ours = pd.DataFrame({"labels": [6], "card.": [1.8685]}, index=["emotions"])
    >>> side_by_side(paper, ours, layout="rows", agreement=True).to_numpy().tolist()
    [['6', '1.87', ''], ['6', '1.87', '2/2']]
    """
    for name, frame in (("paper", paper), ("ours", ours)):
        if not isinstance(frame, pd.DataFrame):
            raise TypeError(f"{name} must be a DataFrame, got {type(frame).__name__}")
    if not (paper.index.equals(ours.index) and paper.columns.equals(ours.columns)):
        raise ValueError(
            "paper and ours must have the same index and columns, got "
            f"{list(paper.index)} x {list(paper.columns)} and "
            f"{list(ours.index)} x {list(ours.columns)}"
        )
    printed = paper.map(lambda v: "" if v is None else str(v))
    shown = pd.DataFrame(
        [
            [
                _shown(ours.iat[i, j], _or(printed_decimals(printed.iat[i, j]), decimals))
                for j in range(ours.shape[1])
            ]
            for i in range(ours.shape[0])
        ],
        index=ours.index,
        columns=ours.columns,
    )
    same = [
        f"{int((printed.iloc[i] == shown.iloc[i]).sum())}/{ours.shape[1]}"
        for i in range(ours.shape[0])
    ]
    if layout == "columns":
        out = pd.concat({"paper": printed, "ours": shown}, axis=1).swaplevel(axis=1)
        out = out[[(c, side) for c in ours.columns for side in ("paper", "ours")]]
        if agreement:
            out[("same", "")] = same
        return out
    out = (
        pd.concat({"paper": printed, "ours": shown})
        .swaplevel()
        .sort_index(level=0, sort_remaining=False)
    )
    out = out.reindex(pd.MultiIndex.from_product([ours.index, ["paper", "ours"]]))
    if agreement:
        out["same"] = [s for pair in zip([""] * len(same), same) for s in pair]
    return out
