"""Park & Read (2018), Tables 2-4: the paper's values, ours, and how far apart they are.

A *grid* is a table with one row per (dataset, alpha, beta) and the columns
``{train,test}_{hamming,jaccard,exact}`` (the committed ``blended_grid`` or one
reading of :mod:`mlcrepro.park_read2018.readings`).  For each dataset and half the tables
locate the best (alpha, beta) of one measure and report it with the *base*
settings the paper expects to be best: Jaccard ``(alpha -> 0, 1)`` (Table 2),
Hamming ``(1, 1)`` (Table 3), exact match ``(alpha -> 0, 128)`` and ``(1, 128)``
(Table 4).  Ties go to the base, then to small beta, then to small alpha.

The paper's values are kept as printed (strings), for the ledger's printed
precision, in ``book/_claims/park_read2018.printed.csv`` (:func:`paper_values`).
Stare, which we do not have, is left out.
"""

from __future__ import annotations

import copy
import functools
from typing import Any

import numpy as np
import pandas as pd

from mlcrepro.park_read2018.record import PAPER
from mlcrepro.printed_numbers import printed

__all__ = [
    "NAMES",
    "PAPER_KEY",
    "paper_values",
    "paper_id",
    "BASES",
    "optimum",
    "our_table",
    "side_by_side",
    "paper_pairs",
    "fit_to_paper",
    "fmt_alpha",
    "compare",
    "FIT_STATUSES",
    "fit_report",
]

#: dataset key -> the paper's name, in the paper's order (Stare left out)
NAMES = {
    "emotions": "Emotions",
    "scene": "Scene",
    "yeast": "Yeast",
    "slashdot": "Slashdot",
    "enron": "Enron",
}

#: where the paper's printed numbers live (:func:`mlcrepro.printed_numbers.printed`)
PAPER_KEY = PAPER.key


@functools.cache
def _printed_tables() -> tuple[dict, dict]:
    """(values, claim ids) of Tables 2-4, read once per process and never changed:
    :func:`paper_values` hands out a copy, :func:`paper_id` only looks up."""
    values: dict[str, dict[tuple[str, str], tuple[Any, ...]]] = {}
    ids: dict[tuple[str, str, str, str], str] = {}
    for measure, (table, _, _) in BASES.items():
        frame = printed(PAPER_KEY, table)
        cell = {(r.row, r.column): r for r in frame.itertuples()}
        bases = BASES[measure][2]
        values[measure] = {}
        for row in dict.fromkeys(frame["row"]):
            data, part = row.split(" ")
            key = (data, part.capitalize())
            a, b = cell[(row, "(alpha, beta)")].value.strip("()").split(", ")
            best = cell[(row, "best")].value
            values[measure][key] = (
                float(a),
                int(b),
                None if best == "-" else best,
                *(cell[(row, n)].value for n in bases),
            )
            for column in ("(alpha, beta)", "best", *bases):
                ids[(measure, *key, column)] = cell[(row, column)].id
    return values, ids


def paper_values() -> dict[str, dict[tuple[str, str], tuple[Any, ...]]]:
    """Tables 2-4 as printed: measure -> {(Data, Type): (alpha, beta, best, base[, base2])}.

    Read from ``book/_claims/park_read2018.printed.csv``; ``best`` is ``None`` where the
    paper prints a dash (the optimum is at the base), the scores are strings as printed.
    """
    return copy.deepcopy(_printed_tables()[0])


def paper_id(measure: str, data: str, part: str, column: str) -> str:
    """The claim id of a printed cell of Tables 2-4.

    ``column`` is ``"(alpha, beta)"``, ``"best"`` or a base's name (``"Base"``,
    ``"BaseJ"``, ``"BaseH"``); ``part`` is ``"Train"`` or ``"Test"``.
    """
    ids = _printed_tables()[1]
    key = (_check_measure(measure), data, part, column)
    if key not in ids:
        raise ValueError(f"no printed cell {key[1:]} in the {measure} table")
    return ids[key]


_A0 = 1e-5
#: measure -> (table, base settings, names of the base columns)
BASES: dict[str, tuple[str, list[tuple[float, float]], list[str]]] = {
    "jaccard": ("Table 2", [(_A0, 1.0)], ["Base"]),
    "hamming": ("Table 3", [(1.0, 1.0)], ["Base"]),
    "exact": ("Table 4", [(_A0, 128.0), (1.0, 128.0)], ["BaseJ", "BaseH"]),
}


def _check_measure(measure: Any) -> str:
    if measure not in BASES:
        raise ValueError(f"measure must be one of {sorted(BASES)}, got {measure!r}")
    return measure


def _check_grid(grid: Any) -> pd.DataFrame:
    if not isinstance(grid, pd.DataFrame):
        raise TypeError(f"grid must be a pandas DataFrame, got {type(grid).__name__}")
    need = {"dataset", "alpha", "beta"}
    if not need <= set(grid.columns):
        raise ValueError(f"grid must have the columns {sorted(need)}, got {list(grid.columns)}")
    keys = grid[["dataset", "alpha", "beta"]]
    if keys.duplicated().any():
        raise ValueError(
            "grid must have one row per (dataset, alpha, beta); filter one "
            "reading and gamma choice first"
        )
    return grid


def fmt_alpha(a: float) -> str:
    """alpha as the paper prints it: ``1e-05`` for the alpha -> 0 setting, else ``%g``."""
    return "1e-05" if a < 0.05 else f"{a:g}"


def _value(df: pd.DataFrame, a: float, b: float, col: str) -> float:
    hit = (df["alpha"].to_numpy() == a) & (df["beta"].to_numpy() == b)
    return float(df[col].to_numpy()[hit][0])


def optimum(df: pd.DataFrame, col: str, base: tuple[float, float]) -> tuple[float, float, float]:
    """Best ``(alpha, beta, score)`` of one dataset's column ``col``.

    Ties are resolved towards ``base``, then small beta, then small alpha.
    """
    best = float(df[col].max())
    if _value(df, *base, col) == best:
        return base[0], base[1], best
    hit = df[col].to_numpy() == best
    alpha, beta = df["alpha"].to_numpy()[hit], df["beta"].to_numpy()[hit]
    first = np.lexsort((alpha, beta))[0]  # by beta, then alpha
    return float(alpha[first]), float(beta[first]), best


def our_table(grid: pd.DataFrame, measure: str) -> pd.DataFrame:
    """Our Table 2, 3 or 4: per dataset and half, the optimum and the base scores.

    Columns ``Data, Type, alpha, beta, ours, ours at base, base0[, base1]``.
    """
    _check_measure(measure)
    grid = _check_grid(grid)
    bases = BASES[measure][1]
    rows = []
    for d, name in NAMES.items():
        df = grid[grid["dataset"] == d]
        if df.empty:
            continue
        for part in ("train", "test"):
            col = f"{part}_{measure}"
            a, b, best = optimum(df, col, bases[0])
            row = {
                "Data": name,
                "Type": part.capitalize(),
                "alpha": a,
                "beta": b,
                "ours": best,
                "ours at base": (a, b) == bases[0],
            }
            for i, bb in enumerate(bases):
                row[f"base{i}"] = _value(df, *bb, col)
            rows.append(row)
    return pd.DataFrame(rows)


def side_by_side(ours: pd.DataFrame, measure: str) -> pd.DataFrame:
    """Our table (:func:`our_table`) beside the paper's, as printed (3 decimals)."""
    _, _, base_names = BASES[_check_measure(measure)]
    out = []
    paper = paper_values()[measure]
    for _, r in ours.iterrows():
        p = paper[(r["Data"], r["Type"])]
        dash = r["ours at base"] and measure != "exact"
        row = {
            "Data": r["Data"],
            "Type": r["Type"],
            "paper (α, β)": f"({fmt_alpha(p[0])}, {p[1]})",
            "ours (α, β)": f"({fmt_alpha(r['alpha'])}, {int(r['beta'])})",
            "paper best": p[2] or "-",
            "ours best": "-" if dash else f"{r['ours']:.3f}",
        }
        for i, name in enumerate(base_names):
            row[f"paper {name}"] = p[3 + i]
            row[f"ours {name}"] = f"{r[f'base{i}']:.3f}"
        out.append(row)
    return pd.DataFrame(out).set_index(["Data", "Type"])


def paper_pairs(grid: pd.DataFrame) -> pd.DataFrame:
    """Every printed number of Tables 2-4 beside ours: one row per number.

    Columns ``table, measure, Data, Type, column, paper (str), ours (float), id`` (the
    claim id of the printed number); a dash in the paper stands for its base value,
    which is printed.
    """
    rows = []
    values = paper_values()
    for measure, (table, _, base_names) in BASES.items():
        for _, r in our_table(grid, measure).iterrows():
            p = values[measure][(r["Data"], r["Type"])]
            cols = [("best", p[2], r["ours"])] if p[2] is not None else []
            cols += [(n, p[3 + i], r[f"base{i}"]) for i, n in enumerate(base_names)]
            for column, paper, ours in cols:
                rows.append(
                    {
                        "table": table,
                        "measure": measure,
                        "Data": r["Data"],
                        "Type": r["Type"],
                        "column": column,
                        "paper": paper,
                        "ours": float(ours),
                        "id": paper_id(measure, r["Data"], r["Type"], column),
                    }
                )
    return pd.DataFrame(rows)


def fit_to_paper(grids: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Mean |ours - paper| over the printed numbers of Tables 2-4, per grid and half.

    The measure by which a reading is said to fit the paper better: the mean
    absolute difference over every printed number (:func:`paper_pairs`), on the
    training and the test halves and over both, on the datasets that *all* grids
    hold (so that every grid is judged on the same numbers); the count of
    numbers is given.
    """
    if not isinstance(grids, dict) or not grids:
        raise TypeError("grids must be a non-empty dict name -> grid DataFrame")
    common = set.intersection(*(set(_check_grid(g)["dataset"]) for g in grids.values()))
    rows = []
    for name, grid in grids.items():
        pairs = paper_pairs(grid[grid["dataset"].isin(common)])
        diff = (pairs["paper"].astype(float) - pairs["ours"]).abs()
        row: dict[str, Any] = {"grid": name, "numbers": len(pairs)}
        for part in ("Train", "Test"):
            row[f"mean |Δ| {part.lower()}"] = float(diff[pairs["Type"] == part].mean())
        row["mean |Δ| all"] = float(diff.mean())
        row["max |Δ|"] = float(diff.max())
        rows.append(row)
    return pd.DataFrame(rows).set_index("grid")


def compare(grids: dict[str, pd.DataFrame], measure: str) -> pd.DataFrame:
    """One of Tables 2-4: the paper's columns, then each grid's (α, β), best and bases."""
    _check_measure(measure)
    if not isinstance(grids, dict) or not grids:
        raise TypeError("grids must be a non-empty dict name -> grid DataFrame")
    frames = []
    for i, (name, grid) in enumerate(grids.items()):
        t = side_by_side(our_table(grid, measure), measure)
        if i == 0:
            frames.append(t[[c for c in t.columns if c.startswith("paper")]])
        ours = t[[c for c in t.columns if c.startswith("ours")]]
        ours.columns = [f"{name} {c[5:]}" for c in ours.columns]
        frames.append(ours)
    return pd.concat(frames, axis=1)


#: how a fit of :class:`~mlcbook.learners.BlendedLinearClassifier` can end (``status_``)
FIT_STATUSES = ("converged", "stalled", "stopped", "capped")


def fit_report(study: pd.DataFrame) -> pd.DataFrame:
    """How the fits of a study table ended, and their CPU time, per dataset.

    Columns: the final fits' statuses (counts), the CV fits' statuses (counts),
    and ``cpu minutes`` (the process CPU time of all fits, with their CV).
    """
    if not isinstance(study, pd.DataFrame) or "status" not in study.columns:
        raise TypeError("study must be a table of mlcrepro.park_read2018.readings.load_study")
    g = study.groupby("dataset", sort=False)
    counts = g["status"].value_counts().unstack(fill_value=0)
    out = pd.DataFrame(index=counts.index)
    for s in FIT_STATUSES:
        out[f"fits {s}"] = counts[s] if s in counts else 0
    for s in FIT_STATUSES:
        out[f"CV fits {s}"] = g[f"cv_{s}"].sum()
    out["cpu minutes"] = g["cpu_seconds"].sum() / 60.0
    return out
