"""How the chapters show things: display names of the measures and paper-vs-ours tables.

One home for the glue that several chapters need: the eleven measures of
Wu & Zhou (2017, Table 1) are named here once, and :func:`side_by_side` sets a paper's
printed table beside ours, each of our numbers printed at the precision the paper
printed for that cell.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from decimal import Decimal, InvalidOperation
from html import escape
from types import MappingProxyType
from typing import Any

import numpy as np
import pandas as pd

from mlcbook._validation import Flag, Int, OneOf, validate_params
from mlcbook.metrics import WU_ZHOU_MEASURES

__all__ = [
    "MEASURE_NAMES",
    "measure_name",
    "measure_names",
    "printed_decimals",
    "side_by_side",
    "CompactTable",
    "compact_table",
    "verdicts",
    "BADGES",
]

#: how a ledger row's status is shown in a table: a mark readable in black and white,
#: and the word (:mod:`mlcrepro.ledger` renders its rows with them)
BADGES: Mapping[str, str] = MappingProxyType(
    {
        "reproduced": "✔ reproduced",
        "within spread": "± within spread",
        "within our spread": "± within our spread",
        "qualitative": "≈ qualitative",
        "fragile": "~ fragile",
        "differs": "✘ differs",
    }
)

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


def _shown_paper(v: Any) -> str:
    return "" if v is None or (isinstance(v, float) and math.isnan(v)) else str(v)


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
    # a missing paper value prints empty (pandas 3 holds None as NaN)
    printed = paper.map(_shown_paper)
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


class CompactTable:
    """A small table of text shown without its index: HTML for the book, text for nbval.

    Made by :func:`compact_table`; ``frame`` holds the cells (all text).
    """

    def __init__(self, frame: pd.DataFrame, caption: str = "") -> None:
        self.frame = frame
        self.caption = caption

    def _repr_html_(self) -> str:
        html = self.frame.to_html(
            index=False, escape=True, border=0, classes="dataframe compact", justify="left"
        )
        for badge in BADGES.values():  # a verdict never breaks between its mark and word
            html = html.replace(escape(badge), escape(badge).replace(" ", "&nbsp;"))
        if self.caption:
            head = html.index(">") + 1
            html = f"{html[:head]}<caption>{escape(self.caption)}</caption>{html[head:]}"
        return html

    def __repr__(self) -> str:
        text = self.frame.to_string(index=False)
        return f"{self.caption}\n{text}" if self.caption else text


def compact_table(frame: pd.DataFrame, caption: str = "") -> CompactTable:
    """Show ``frame`` as a compact table: its columns only (no index), every cell as text.

    For the short verdict tables of the chapters (claim, paper, ours, verdict), which
    must fit the text column: no index column of row numbers, and a plain-text form
    (the same cells) for the notebook's text output.

    >>> t = compact_table(pd.DataFrame({"claim": ["a < b"], "verdict": ["ok"]}), "Claims")
    >>> print(repr(t))
    Claims
    claim verdict
    a < b      ok
    >>> "<th>" in t._repr_html_() and "a &lt; b" in t._repr_html_()
    True
    """
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"frame must be a DataFrame, got {type(frame).__name__}")
    if not isinstance(caption, str):
        raise TypeError(f"caption must be a string, got {type(caption).__name__}")
    return CompactTable(frame.astype(str).reset_index(drop=True), caption)


def _ours_short(entry: Any) -> str:
    """Our side of a row in a few words: a value, or whether the rule holds."""
    if entry.kind == "ordering":
        text = "holds" if entry.holds else "does not hold"
        if entry.trials:
            text += f" ({entry.hits}/{entry.trials})"
        return text
    if entry.kind == "qualitative":
        return "agrees" if entry.holds else "does not agree"
    return str(entry.ours)


def verdicts(ledger: Any, labels: Mapping[str, str]) -> CompactTable:
    """A chapter's main claims in short: claim, paper, ours, verdict (no rule, no cause).

    Parameters
    ----------
    ledger : mlcrepro.ledger.Ledger
        The chapter's ledger (anything with ``entries`` of :class:`mlcrepro.ledger.Entry`).
    labels : mapping of str to str
        Claim id -> a short name of the claim, in the order to show; each id picks the
        first row that carries it.

    Returns
    -------
    CompactTable
        Columns ``claim`` (the label), ``paper`` (the paper's value or words as the row
        stores them), ``ours`` (a value; for an ordering whether its rule holds, with
        its robustness hits/trials; for a reading whether the evidence agrees) and
        ``verdict`` (the row's status).  The full ledger holds the rules and causes.
    """
    if not isinstance(labels, Mapping) or not labels:
        raise TypeError("labels must be a non-empty mapping claim id -> short claim")
    entries = getattr(ledger, "entries", None)
    if entries is None:
        raise TypeError(f"ledger must be a Ledger, got {type(ledger).__name__}")
    by_id: dict[str, Any] = {}
    for e in entries:
        for i in e.claim_ids:
            by_id.setdefault(i, e)
    missing = [i for i in labels if i not in by_id]
    if missing:
        raise ValueError(f"no ledger row carries the claim ids {missing}")
    rows = [
        (label, by_id[i].paper, _ours_short(by_id[i]), BADGES[by_id[i].status])
        for i, label in labels.items()
    ]
    return compact_table(pd.DataFrame(rows, columns=["claim", "paper", "ours", "verdict"]))
