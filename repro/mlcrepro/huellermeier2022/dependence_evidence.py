"""Hüllermeier et al. (2022), Sec. 5.3, Fig. 3: the trends under the polynomial family.

Read from per-fold losses of a learner study with the paper's learner names (e.g. the
authors' study renamed by :func:`mlcrepro.huellermeier2022.authors_compare.paper_names`; never
recomputed here).  The dependence chapter's ledger judges every Sec. 5.3 claim on both
families (:mod:`mlcrepro.huellermeier2022.ledger_dependence`); these helpers remain for
tables with BR, CC and LP.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from mlcbook.profiles import loss_ratios, pooled_profiles
from mlcrepro.evidence_common import check_ledger
from mlcrepro.ledger import Cause, Entry, Ledger

__all__ = ["polynomial_gains", "add_polynomial_trends"]

_COLUMNS = {"dataset", "K", "learner", "fold", "n_test", "family", "param", "loss"}


def polynomial_gains(
    table: pd.DataFrame, pairs: Sequence[tuple[str, str]] = (("BR", "LP"), ("BR", "CC"))
) -> pd.DataFrame:
    """Per pair and dataset: the ratio second/first at the smallest and largest alpha.

    ``table`` has one row per (dataset, learner, fold, family, param) with the fold's
    mean loss and ``n_test`` (paper names: ``BR``, ``LP``, ``CC``); the folds are
    pooled (each instance counted once).  ``gains`` is True when the ratio at the
    largest alpha is below the one at the smallest by more than a relative 1e-9
    (the second learner gains).

    Parameters
    ----------
    table : pandas.DataFrame
        Columns ``dataset, K, learner, fold, n_test, family, param, loss``.
    pairs : sequence of (str, str)
        ``(first, second)`` learners; the ratio is second/first.

    Returns
    -------
    pandas.DataFrame
        Columns ``pair, dataset, alpha_first, alpha_last, start, end, gains``.
    """
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"table must be a pandas DataFrame, got {type(table).__name__}")
    missing = _COLUMNS - set(table.columns)
    if missing:
        raise ValueError(f"table lacks the columns {sorted(missing)}")
    poly = table[table["family"] == "polynomial"]
    if poly.empty:
        raise ValueError("table has no rows of the polynomial family")
    pooled = pooled_profiles(poly)
    rows = []
    for first, second in pairs:
        r = loss_ratios(pooled, first, second)
        for d, g in r.groupby("dataset", sort=False):
            g = g.sort_values("param")
            start, end = float(g["ratio"].iloc[0]), float(g["ratio"].iloc[-1])
            rows.append(
                {
                    "pair": f"{second}/{first}",
                    "dataset": d,
                    "alpha_first": g["param"].iloc[0],
                    "alpha_last": g["param"].iloc[-1],
                    "start": start,
                    "end": end,
                    # a flat ratio is no gain: equal ratios of pooled means may differ
                    # in their last bits (relative 1e-16), far below 1e-9
                    "gains": end < start * (1 - 1e-9),
                }
            )
    return pd.DataFrame(rows)


def _holds(g: pd.DataFrame) -> bool:
    """Each pair gains on most datasets (more than half)."""
    return bool(g.groupby("pair")["gains"].agg(lambda s: s.sum() > len(s) / 2).all())


def add_polynomial_trends(led: Ledger, table: pd.DataFrame, cause: Cause | None = None) -> Entry:
    """Fig. 3: LP and CC gain on BR as alpha grows (the polynomial family).

    The rule: the ratios LP/BR and CC/BR are lower at the largest alpha than at
    alpha = 1 on most datasets (more than half), on the pooled folds; robustness:
    on how many folds, each taken alone, the rule holds too.  ``cause`` goes to the
    row only if it differs.

    Parameters
    ----------
    led : mlcrepro.ledger.Ledger
        The chapter's ledger; the rows are appended to it.
    table : pandas.DataFrame
        The per-fold losses of the learner study (see :func:`polynomial_gains`).
    cause : mlcrepro.ledger.Cause, optional
        The chapter's cause, given to the row only if it differs (required then).

    Returns
    -------
    Entry
        The row added.
    """
    led = check_ledger(led)
    gains = polynomial_gains(table)
    holds = _holds(gains)
    folds = sorted(table["fold"].unique())
    hits = sum(_holds(polynomial_gains(table[table["fold"] == f])) for f in folds)
    counts = gains.groupby("pair", sort=False)["gains"].agg(["sum", "size"])
    alpha = gains["alpha_last"].iloc[0]
    shown = "; ".join(
        f"{p} falls on {int(r['sum'])} of {int(r['size'])} datasets, median "
        f"{gains.loc[gains.pair == p, 'start'].median():.3f} -> "
        f"{gains.loc[gains.pair == p, 'end'].median():.3f}"
        for p, r in counts.iterrows()
    )
    return led.ordering(
        "LP and CC gain on BR as alpha grows (polynomial loss)",
        "Sec. 5.3, Fig. 3",
        paper="the trends hold for the polynomial family as alpha grows",
        rule=f"ratio lower at alpha = {alpha:g} than at alpha = 1 on most datasets, for "
        f"both pairs ({shown})",
        holds=holds,
        robustness=(hits, len(folds)),
        over="folds, each alone",
        cause=None if holds else cause,
    )
