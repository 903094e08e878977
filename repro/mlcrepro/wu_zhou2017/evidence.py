"""Wu & Zhou (2017): the rescaled columns of Tables B.1-B.2.

Tables B.1 and B.2 print every value twice: absolute (three decimals) and rescaled
per measure so that the best method gets 1 and the worst 0 (two decimals).  Whether
the rescaled column follows from the absolute one can be decided exactly up to the
printing: :func:`rescaling_ranges` gives, for every cell, the range of rescaled values
that absolute values *within half a printed unit* of the printed ones can produce.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal

import numpy as np
import pandas as pd

from mlcbook import metrics as M
from mlcrepro.evidence_common import check_ledger
from mlcrepro.ledger import Entry, Ledger, paper_error

__all__ = ["rescaling_ranges", "add_rescaling_consistency"]


def _half_unit(text: str) -> float:
    exp = Decimal(text.strip()).as_tuple().exponent
    if not isinstance(exp, int):
        raise ValueError(f"a printed value must be a finite number, got {text!r}")
    return 0.5 * 10.0**exp


def rescaling_ranges(
    paper: Mapping[str, Sequence[tuple[str, str]]],
    columns: Sequence[str],
    lower_is_better: Iterable[str] = M.LOWER_IS_BETTER,
) -> pd.DataFrame:
    """Per cell: the rescaled values the printed absolute values allow.

    Parameters
    ----------
    paper : mapping measure -> sequence of (absolute, rescaled) as printed
        One pair per column; in each measure exactly one column is printed with the
        rescaled value 1 (the best) and one with 0 (the worst).
    columns : sequence of str
        The column names, in the order of each measure's pairs.
    lower_is_better : iterable of str
        The measures for which smaller is better.

    Returns
    -------
    pandas.DataFrame
        One line per cell: ``measure, column, absolute, printed`` (the rescaled value
        as printed), ``low, high`` (the range of ``(v - worst) / (best - worst)`` over
        absolute values within half a printed unit of the printed ones; ``-inf, inf``
        when the best and the worst may tie) and ``consistent`` (the range meets the
        printed value's own rounding interval).  The range is exact: the ratio is
        monotone in each of its three values on the box, so its extremes lie at the
        box's corners.
    """
    if not isinstance(paper, Mapping) or not paper:
        raise TypeError("paper must be a non-empty mapping measure -> (absolute, rescaled)")
    columns = list(columns)
    low_better = set(lower_is_better)
    rows = []
    for measure, cells in paper.items():
        cells = list(cells)
        if len(cells) != len(columns):
            raise ValueError(
                f"paper[{measure!r}] has {len(cells)} cells for {len(columns)} columns"
            )
        rel = [float(r) for _, r in cells]
        ones = [i for i, r in enumerate(rel) if r == 1.0]
        zeros = [i for i, r in enumerate(rel) if r == 0.0]
        if len(ones) != 1 or len(zeros) != 1:
            raise ValueError(
                f"paper[{measure!r}] must print exactly one rescaled 1 and one 0, got {rel}"
            )
        b, w = ones[0], zeros[0]
        box = [(float(a) - _half_unit(a), float(a) + _half_unit(a)) for a, _ in cells]
        tie = box[b][0] <= box[w][1] and box[w][0] <= box[b][1]
        lower = measure in low_better
        # the column printed 1 must be able to be the better one of the two anchors
        order_ok = box[b][0] <= box[w][1] if lower else box[b][1] >= box[w][0]
        for i, (a, r) in enumerate(cells):
            if i in (b, w) and not order_ok:
                lo, hi = np.nan, np.nan
            elif i in (b, w) or tie:
                lo, hi = (float(r), float(r)) if i in (b, w) else (-np.inf, np.inf)
            else:
                corners = itertools.product(box[i], box[w], box[b])
                vals = [(v - vw) / (vb - vw) for v, vw, vb in corners]
                lo, hi = min(vals), max(vals)
            h = _half_unit(r)
            rows.append(
                {
                    "measure": measure,
                    "column": columns[i],
                    "absolute": a,
                    "printed": r,
                    "low": lo,
                    "high": hi,
                    # the printed value's rounding interval meets the range (1e-12: slack
                    # for the double-precision corners of a ratio of 3-decimal values)
                    "consistent": bool(lo <= float(r) + h + 1e-12 and hi >= float(r) - h - 1e-12),
                    "better": "lower" if lower else "higher",
                }
            )
    return pd.DataFrame(rows)


def add_rescaling_consistency(
    led: Ledger,
    paper: Mapping[str, Sequence[tuple[str, str]]],
    columns: Sequence[str],
    source: str,
    *,
    lower_is_better: Iterable[str] = M.LOWER_IS_BETTER,
    claim_id: str | list[str] = "",
) -> Entry:
    """One row: every rescaled cell of a Table B.1/B.2 follows from its absolute values.

    ``paper``, ``columns`` and ``lower_is_better`` as for :func:`rescaling_ranges`;
    ``source`` is the table (``"Table B.1"``).  The row counts the cells whose printed
    rescaled value is consistent with the printed absolute values; a cell that is not
    is a proof that the table contradicts itself (the cause names the cells).

    Parameters
    ----------
    led : mlcrepro.ledger.Ledger
        The chapter's ledger; the rows are appended to it.
    paper : mapping of str to sequence of (str, str)
        Per measure, the printed (absolute, rescaled) pair of every column.
    columns : sequence of str
        The column names.
    source : str
        The table, e.g. ``"Table B.1"``.
    lower_is_better : iterable of str
        The measures for which smaller is better.
    claim_id : str or list of str
        The inventory id(s) of the claim the row checks (:class:`mlcrepro.ledger.Ledger`).

    Returns
    -------
    Entry
        The row added.
    """
    led = check_ledger(led)
    if not isinstance(source, str) or not source.strip():
        raise ValueError(f"source must name the table, e.g. 'Table B.1', got {source!r}")
    table = rescaling_ranges(paper, columns, lower_is_better)
    n, ok = len(table), int(table["consistent"].sum())
    free = int(np.isinf(table["high"]).sum())
    bad = table[~table["consistent"]]
    cause = None
    if ok < n:
        cells = "; ".join(
            f"{r.measure} {r.column}: printed {r.printed}, possible {r.low:.3f}-{r.high:.3f}"
            for r in bad.itertuples()
        )
        cause = paper_error(
            "no absolute values within half a printed unit of the printed ones give "
            f"these rescaled values: {cells}",
            ref="mlcrepro.wu_zhou2017.evidence.rescaling_ranges",
        )
    return led.exact(
        f"{source}: the rescaled values are (v - worst) / (best - worst) of the absolute "
        "ones (up to the printing)",
        source,
        paper=f"{n} of {n} cells",
        ours=f"{ok} of {n} cells",
        cause=cause,
        note=f"{free} cells are not decided by the printing (best and worst print alike)"
        if free and cause is None
        else "",
        claim_id=claim_id,
    )
