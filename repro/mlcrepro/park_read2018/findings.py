"""Park & Read (2018), Secs. 4-5: the findings computed from the grids.

Each function computes one finding from a grid (see :mod:`mlcrepro.park_read2018.tables`)
or one of the study's tables (:mod:`mlcrepro.park_read2018.readings`): which reading fits
the paper, the trend in alpha, where the optima are, the fixed penalty nearest the
paper, how far another split moves a number, the readings of Figs. 1-2, the
recommendations of Sec. 5 and the headline comparison with label powerset.  Each
printed number of Tables 2-4 is given its cause (:func:`table_numbers`), chosen among
the shared ones of :mod:`mlcrepro.park_read2018.causes`.  Nothing here adds a ledger row:
:func:`mlcrepro.park_read2018.ledger_rows.ledgers` does, from
:func:`mlcrepro.park_read2018.collect.evidence`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import spearmanr

from mlcrepro.ledger import Cause
from mlcrepro.park_read2018.causes import PENALTY_FIT, TIE, cause_for
from mlcrepro.park_read2018.tables import (
    BASES,
    NAMES,
    fmt_alpha,
    our_table,
    paper_id,
    paper_pairs,
    paper_values,
)

__all__ = [
    "choose_reading",
    "strictly_at_128",
    "alpha_trend",
    "location_gaps",
    "PENALTY_BASES",
    "penalty_match",
    "penalty_sentence",
    "literal_trends",
    "split_spread",
    "split_ranges",
    "table_numbers",
    "locations",
    "recommendations",
    "sweet_spot",
    "diagonal_reading",
    "slashdot_test_corner",
    "exact_vs_jaccard",
    "headline_table",
    "headline_wins",
]


def choose_reading(fit: pd.DataFrame, column: str = "mean |Δ| all") -> str:
    """The reading whose row of :func:`~.tables.fit_to_paper` has the smallest ``column``."""
    if column not in fit.columns:
        raise ValueError(f"column must be one of {list(fit.columns)}, got {column!r}")
    return str(fit[column].astype(float).idxmin())


def alpha_trend(
    grid: pd.DataFrame, dataset: str = "emotions", beta: float = 1.0, col: str = "train_hamming"
) -> dict:
    """How ``col`` moves with alpha at fixed ``beta`` (Sec. 4's Emotions example).

    Returns the values from alpha -> 0 to 1, Spearman's rho over the 11 alphas,
    and ``rises``: rho >= 0.5 and the value at alpha = 1 above the one at alpha -> 0.
    """
    df = grid[(grid["dataset"] == dataset) & (grid["beta"] == beta)].sort_values("alpha")
    if len(df) < 3:
        raise ValueError(f"the grid has {len(df)} alphas for {dataset} at beta={beta}")
    v = df[col].to_numpy(dtype=float)
    # a constant column has no trend (and no defined rank correlation)
    rho = float(spearmanr(df["alpha"], v).statistic) if np.ptp(v) > 0 else 0.0
    return {
        "values": v,
        "rho": rho,
        "first": v[0],
        "last": v[-1],
        "rises": bool(rho >= 0.5 and v[-1] > v[0]),
    }


def location_gaps(grid: pd.DataFrame, measure: str) -> pd.DataFrame:
    """Per dataset and half: our optimum, the paper's, and our score at the paper's.

    ``gap`` is our best minus our score at the paper's (alpha, beta): how much our
    grid loses at the paper's setting (0 when the two optima agree).
    """
    t = our_table(grid, measure)
    paper = paper_values()[measure]
    rows = []
    for _, r in t.iterrows():
        pa, pb = paper[(r["Data"], r["Type"])][:2]
        d = next(k for k, v in NAMES.items() if v == r["Data"])
        df = grid[grid["dataset"] == d]
        at = df.loc[
            np.isclose(df["alpha"], pa) & (df["beta"] == pb), f"{r['Type'].lower()}_{measure}"
        ]
        rows.append(
            {
                "Data": r["Data"],
                "Type": r["Type"],
                "paper": f"({fmt_alpha(pa)}, {int(pb)})",
                "ours": f"({fmt_alpha(r['alpha'])}, {int(r['beta'])})",
                "ours best": r["ours"],
                "ours at paper's": float(at.iloc[0]),
                "gap": r["ours"] - float(at.iloc[0]),
            }
        )
    return pd.DataFrame(rows)


#: the base settings of Tables 2-4 a fixed gamma is tried on (those of
#: :data:`~mlcrepro.park_read2018.tables.BASES`): (alpha, beta) -> (measure, column name)
PENALTY_BASES = {
    setting: (measure, column)
    for measure, (_, settings, columns) in BASES.items()
    for setting, column in zip(settings, columns)
}


def penalty_match(penalty: pd.DataFrame) -> pd.DataFrame:
    """Per dataset and base setting: the fixed gamma whose train/test pair is nearest the paper.

    ``penalty`` is the table of
    :func:`mlcrepro.park_read2018.readings.load_penalty` (fixed-gamma paths at
    the two base alphas); its rows at the base settings of :data:`PENALTY_BASES` are
    used: Jaccard at ``(alpha -> 0, 1)``, Hamming at ``(1, 1)``, exact match at
    ``(alpha -> 0, 128)`` and ``(1, 128)``.  The distance is
    ``max(|train - paper train|, |test - paper test|)`` on the base's own measure;
    the row gives it for the best fixed gamma and for the smallest gamma (what CV
    tends to choose).
    """
    rows = []
    for (d, a, b), df in penalty.groupby(["dataset", "alpha", "beta"]):
        if (a, b) not in PENALTY_BASES:
            continue
        measure, column = PENALTY_BASES[(a, b)]
        i = BASES[measure][2].index(column)
        name = NAMES[d]
        pt = float(paper_values()[measure][(name, "Train")][3 + i])
        pe = float(paper_values()[measure][(name, "Test")][3 + i])
        dist = np.maximum((df[f"train_{measure}"] - pt).abs(), (df[f"test_{measure}"] - pe).abs())
        best = df.loc[dist.idxmin()]
        rows.append(
            {
                "Data": name,
                "setting": f"({fmt_alpha(a)}, {b:g})",
                "measure": measure,
                "column": column,
                "paper train": pt,
                "paper test": pe,
                "best gamma": best["gamma"],
                "train": best[f"train_{measure}"],
                "test": best[f"test_{measure}"],
                "distance": float(dist.min()),
                "distance at smallest gamma": float(dist[df["gamma"].idxmin()]),
            }
        )
    order = list(NAMES.values())
    out = pd.DataFrame(rows)
    out["_o"] = out["Data"].map(order.index)
    return (
        out.sort_values(["_o", "setting"], kind="stable").drop(columns="_o").reset_index(drop=True)
    )


def _possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _bases(frame: pd.DataFrame) -> str:
    """The bases of ``frame`` in words, datasets grouped by base: "Emotions' and Scene's
    Jaccard base"."""
    label = [
        f"{m.capitalize()} base" if c == "Base" else c
        for m, c in zip(frame["measure"], frame["column"])
    ]
    groups: dict[str, list[str]] = {}
    for d, lab in zip(frame["Data"], label):
        groups.setdefault(lab, []).append(_possessive(d))
    return "; ".join(f"{_join(ds)} {lab}" for lab, ds in groups.items())


def penalty_sentence(match: pd.DataFrame, beta: float = 1.0) -> str:
    """In words (MyST): which fixed gamma brings which base at ``beta`` near the paper.

    ``match`` is :func:`penalty_match`; a base counts when its training and its test
    value both come within :data:`PENALTY_FIT` of the paper's.  One sentence with the
    count, a list of the bases per gamma, and the bases no gamma of the grid brings
    that near.

    Examples
    --------
    >>> m = pd.DataFrame({"Data": ["Emotions", "Scene", "Enron", "Enron"],
    ...                   "setting": ["(1, 1)", "(1, 1)", "(1, 1)", "(1e-05, 1)"],
    ...                   "measure": ["hamming", "hamming", "hamming", "jaccard"],
    ...                   "column": "Base", "best gamma": [0.01, 0.01, 1e-3, 1e-3],
    ...                   "distance": [0.01, 0.02, 0.001, 0.05]})
    >>> print(penalty_sentence(m))  # doctest: +NORMALIZE_WHITESPACE
    On 3 of the 4 (dataset, base) pairs at β = 1 a fixed γ brings the training and the
    test value both within 0.03 of the paper's:
    <BLANKLINE>
    * γ = 0.01: Emotions' and Scene's Hamming base
    * γ = 0.001: Enron's Hamming base
    <BLANKLINE>
    No γ of the grid does so for Enron's Jaccard base.
    """
    rows = match[match["setting"].str.endswith(f", {beta:g})")]
    if rows.empty:
        raise ValueError(f"match has no base at beta = {beta:g}")
    ok = rows[rows["distance"] <= PENALTY_FIT]
    head = (
        f"On {len(ok)} of the {len(rows)} (dataset, base) pairs at β = {beta:g} a fixed γ "
        f"brings the training and the test value both within {PENALTY_FIT} of the paper's"
    )
    items = [
        f"* γ = {g:g}: {_bases(f)}"
        for g, f in sorted(ok.groupby("best gamma"), key=lambda x: -x[0])
    ]
    missed = rows[rows["distance"] > PENALTY_FIT]
    tail = f"No γ of the grid does so for {_bases(missed)}." if len(missed) else ""
    parts = [head + (":" if items else "."), "\n".join(items), tail]
    return "\n\n".join(p for p in parts if p)


def literal_trends(literal: pd.DataFrame) -> pd.DataFrame:
    """Emotions' training Hamming against alpha at beta = 1, per step size of the literal fits.

    ``literal`` is :func:`.variants.load_literal`; one row per step size with the
    trend of :func:`alpha_trend`, the fits' largest number of steps and how many of
    them stopped by the rule.
    """
    rows = {}
    for rate, g in literal.groupby("rate", sort=False):
        t = alpha_trend(g)
        rows[rate] = {
            "Spearman rho": float(t["rho"]),
            "alpha -> 0": float(t["first"]),
            "alpha = 1": float(t["last"]),
            "rises": bool(t["rises"]),
            "steps": int(g["n_iter"].max()),
            "stopped by the rule": int((g["status"] == "stopped").sum()),
        }
    frame = pd.DataFrame.from_dict(rows, orient="index").rename_axis("step size")
    return frame.astype({"Spearman rho": float, "alpha -> 0": float, "alpha = 1": float})


def split_spread(split: pd.DataFrame, measure: str = "test_exact") -> pd.DataFrame:
    """Best ``measure`` over beta per (features, seed) and gamma of the split check."""
    best = split.groupby(["features", "seed", "gamma"])[measure].max()
    return best.unstack("gamma")


def split_ranges(split: pd.DataFrame) -> dict[tuple[str, str], float]:
    """How far the split alone moves one setting's value, per (half, measure).

    ``split`` is the split check (:func:`mlcrepro.park_read2018.readings.load_split_check`):
    fits at one alpha, eight betas and fixed penalties on several seeds.  For every
    (beta, gamma) the range (max - min) of a score over the seeds with the features
    as they are; the result is its largest value over (beta, gamma), keyed by
    ``("Train" | "Test", measure)``.
    """
    asis = split[split["features"] == "as-is"]
    if asis["seed"].nunique() < 2:
        raise ValueError("split must hold at least two seeds with features 'as-is'")
    out = {}
    for part in ("Train", "Test"):
        for m in ("hamming", "jaccard", "exact"):
            col = asis.groupby(["beta", "gamma"])[f"{part.lower()}_{m}"]
            out[(part, m)] = float((col.max() - col.min()).max())
    return out


#: the ledger's names of the numbers of Tables 2-4 (as the claims inventory cites them)
_ROW_NAMES = {
    ("jaccard", "best"): "best Jaccard",
    ("jaccard", "Base"): "Jaccard base (1e-5, 1)",
    ("hamming", "best"): "best Hamming",
    ("hamming", "Base"): "Hamming base (1, 1)",
    ("exact", "best"): "best Exact",
    ("exact", "BaseJ"): "Exact BaseJ (1e-5, 128)",
    ("exact", "BaseH"): "Exact BaseH (1, 128)",
}


def table_numbers(
    grid: pd.DataFrame,
    c: dict[str, Cause],
    explained: Mapping[tuple[str, str, str], Mapping[str, float]],
    ranges: dict[tuple[str, str], float] | None = None,
    bases_grid: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Every printed number of Tables 2-4 (Stare left out) beside ours, with its cause.

    The rows of :func:`~.tables.paper_pairs` with the ledger's ``claim`` and the
    ``cause`` a difference would take: ``explained`` is the penalty family
    (:func:`.causes.explained_by_penalty`: the (Data, measure, column) bases a fixed
    gamma brings near the paper, each with that run's values), whose rows take the
    penalty cause only within their own tolerance (:func:`.causes.penalty_cause`);
    ``ranges`` (:func:`split_ranges`): an Enron row whose difference is at most the
    split's range for its half and measure takes the cause ``c["split"]``.
    ``bases_grid``: the grid Table 4's BaseJ/BaseH numbers are read from (default
    ``grid``; see :func:`.hypotheses.family_reading`).  Whether a row differs is the
    ledger's rule; the cause is kept only where it does.
    """
    pairs = paper_pairs(grid)
    if bases_grid is not None:
        bases = paper_pairs(bases_grid).set_index("id")["ours"]
        at = pairs["column"].isin(["BaseJ", "BaseH"])
        pairs.loc[at, "ours"] = pairs.loc[at, "id"].map(bases)
    pairs["claim"] = [
        f"{_ROW_NAMES[(r['measure'], r['column'])]}, {r['Data']} {r['Type'].lower()}"
        for _, r in pairs.iterrows()
    ]
    pairs["cause"] = [cause_for(r, c, explained, ranges) for _, r in pairs.iterrows()]
    return pairs


def locations(grid: pd.DataFrame, c: dict[str, Cause], tie: float = TIE) -> pd.DataFrame:
    """One row per optimum location (alpha, beta) of Tables 2-4, with its cause.

    Columns of :func:`location_gaps` and ``measure, table, claim, id, cause``.  A
    location that differs and whose paper setting scores within ``tie`` of our best
    gets the near-tie cause; otherwise the cause of the row's values; a location that
    agrees gets none.
    """
    frames = []
    for measure, (table, _, _) in BASES.items():
        g = location_gaps(grid, measure).assign(measure=measure, table=table)
        g["claim"] = [
            f"{measure.capitalize()} optimum (alpha, beta), {d} {t.lower()}"
            for d, t in zip(g["Data"], g["Type"])
        ]
        g["id"] = [paper_id(measure, d, t, "(alpha, beta)") for d, t in zip(g["Data"], g["Type"])]
        frames.append(g)
    out = pd.concat(frames, ignore_index=True)
    out["cause"] = [
        None
        if r["paper"] == r["ours"]
        else c["flat"]
        if r["gap"] <= tie + 1e-12
        else cause_for(r, c)
        for _, r in out.iterrows()
    ]
    return out


def _gaps(grid: pd.DataFrame, measure: str) -> pd.Series:
    t = our_table(grid, measure)
    base = t[[c for c in t.columns if c.startswith("base")]].max(axis=1)
    return t["ours"] - base


def strictly_at_128(grid: pd.DataFrame) -> int:
    """Dataset halves whose best exact match at beta = 2^7 is above every exact match at
    a smaller beta: an optimum at beta = 2^7 that no tie-break (:func:`.tables.optimum`)
    decides.

    >>> g = pd.DataFrame({"dataset": ["scene"] * 2, "alpha": [1.0, 1.0],
    ...                   "beta": [1.0, 128.0], "train_exact": [0.5, 0.6],
    ...                   "test_exact": [0.4, 0.4]})
    >>> strictly_at_128(g)  # train: 0.6 above 0.5; test: a tie
    1
    """
    count = 0
    for d in NAMES:
        df = grid[grid["dataset"] == d]
        for part in ("train", "test"):
            col = df[f"{part}_exact"]
            count += bool(col[df["beta"] == 128].max() > col[df["beta"] < 128].max())
    return count


def recommendations(grid: pd.DataFrame, exact_grid: pd.DataFrame | None = None) -> dict[str, Any]:
    """What the recommendations of Sec. 5 are judged by, over the ten dataset halves.

    ``exact_grid``: the grid of the best exact match against the bases at beta = 2^7
    (default ``grid``; the family "whole grid" of :func:`.hypotheses.family_reading`).

    Returns
    -------
    dict
        ``n`` dataset halves; ``hamming`` and ``jaccard``: halves where the base is
        within 0.01 (0.004) of the best (half a printed unit added); ``at128``: exact
        optima at beta = 128 (``at128_strict``: of those, the ones above every smaller
        beta, :func:`strictly_at_128`) and ``gain``: mean gain of the best exact match over the
        better base (both on ``exact_grid``); ``low``: exact optima at alpha <= 0.2,
        ``paper_low``: the paper's count on the same halves; ``small``: exact optima at
        alpha <= 0.2 and beta = 128.
    """
    exact_grid = grid if exact_grid is None else exact_grid
    ham, jac = (_gaps(grid, m) for m in ("hamming", "jaccard"))
    t4x = our_table(exact_grid, "exact")
    t4 = our_table(grid, "exact")
    exact = paper_values()["exact"]
    return {
        "n": len(ham),
        "hamming": int((ham <= 0.01 + 5e-4).sum()),
        "jaccard": int((jac <= 0.004 + 5e-4).sum()),
        "at128": int((t4x["beta"] == 128).sum()),
        "at128_strict": strictly_at_128(exact_grid),
        "gain": float(_gaps(exact_grid, "exact").mean()),
        "low": int((t4["alpha"] <= 0.2).sum()),
        "paper_low": sum(exact[(r["Data"], r["Type"])][0] <= 0.2 for _, r in t4.iterrows()),
        "small": int(((t4["alpha"] <= 0.2) & (t4["beta"] == 128)).sum()),
    }


def sweet_spot(grid: pd.DataFrame) -> tuple[float, float]:
    """Sec. 5: Slashdot's training Jaccard at (alpha -> 0, 1), and the median of the rest."""
    sd = grid[grid["dataset"] == "slashdot"]
    if sd.empty:
        raise ValueError("grid has no rows for slashdot")
    corner_mask = (sd["alpha"] < 0.05) & (sd["beta"] == 1.0)
    corner = float(sd.loc[corner_mask, "train_jaccard"].iloc[0])
    rest = float(sd.loc[~corner_mask, "train_jaccard"].median())
    return corner, rest


# ---------------------------------------------------------------- readings of Figs. 1-2
def _check_grid(grid: Any, columns: list[str]) -> pd.DataFrame:
    if not isinstance(grid, pd.DataFrame):
        raise TypeError(f"grid must be a pandas DataFrame, got {type(grid).__name__}")
    need = {"dataset", "alpha", "beta", *columns}
    if not need <= set(grid.columns):
        raise ValueError(f"grid lacks the columns {sorted(need - set(grid.columns))}")
    if grid[["dataset", "alpha", "beta"]].duplicated().any():
        raise ValueError("grid must have one row per (dataset, alpha, beta)")
    return grid


def _panel(df: pd.DataFrame, col: str) -> pd.DataFrame:
    """One dataset's column as a beta x alpha table (both ascending)."""
    return df.pivot(index="beta", columns="alpha", values=col).sort_index().sort_index(axis=1)


def _datasets(grid: pd.DataFrame) -> list[str]:
    return list(dict.fromkeys(grid["dataset"]))


def _diagonal(panel: pd.DataFrame) -> np.ndarray:
    """Mask of the cells on the line from (alpha -> 0, smallest beta) to (1, largest)."""
    nb, na = panel.shape
    mask = np.zeros((nb, na), dtype=bool)
    for j in range(nb):
        mask[j, round(j * (na - 1) / (nb - 1))] = True
    return mask


def diagonal_reading(grid: pd.DataFrame) -> list[tuple[str, str, float, float]]:
    """Figs. 1-2: the mean Jaccard on the diagonal and off it, per dataset and half.

    The diagonal has one cell per beta, alpha rising in step from alpha -> 0 to 1.
    Returns ``(dataset, half, diagonal mean, mean of the other cells)`` in the grid's
    order of datasets.
    """
    grid = _check_grid(grid, ["train_jaccard", "test_jaccard"])
    parts = []
    for d in _datasets(grid):
        df = grid[grid["dataset"] == d]
        for half in ("train", "test"):
            p = _panel(df, f"{half}_jaccard")
            m = _diagonal(p)
            v = p.to_numpy()
            parts.append((d, half, float(v[m].mean()), float(v[~m].mean())))
    return parts


def slashdot_test_corner(grid: pd.DataFrame) -> dict[str, tuple[float, float]]:
    """Fig. 2: Slashdot's Jaccard corner (alpha -> 0, smallest beta) against the rest.

    ``{"test": (corner, median of the other cells), "train": (...)}``.
    """
    grid = _check_grid(grid, ["train_jaccard", "test_jaccard"])
    sd = grid[grid["dataset"] == "slashdot"]
    if sd.empty:
        raise ValueError("grid has no rows for slashdot")
    lift = {}
    for half in ("test", "train"):
        v = _panel(sd, f"{half}_jaccard").to_numpy()
        lift[half] = (float(v[0, 0]), float(np.median(v.ravel()[1:])))
    return lift


def exact_vs_jaccard(grid: pd.DataFrame) -> list[tuple[str, str, float, float]]:
    """Figs. 1-2: Spearman's rho of the exact-match and the Jaccard values over the cells.

    Returns ``(dataset, half, rho, alpha of the best exact-match cell)`` per dataset and
    half, in the grid's order of datasets.
    """
    grid = _check_grid(grid, ["train_jaccard", "test_jaccard", "train_exact", "test_exact"])
    out = []
    for d in _datasets(grid):
        df = grid[grid["dataset"] == d]
        for half in ("train", "test"):
            rho = float(spearmanr(df[f"{half}_exact"], df[f"{half}_jaccard"]).statistic)
            best = float(df.loc[df[f"{half}_exact"].idxmax(), "alpha"])
            out.append((d, half, rho, best))
    return out


# ---------------------------------------------------------------- the headline
def headline_table(grid: pd.DataFrame, lp: pd.DataFrame) -> pd.DataFrame:
    """Test exact match per dataset: the blend, its bases at beta = 2^7, and LP.

    ``blend`` is the test exact match at the (alpha, beta) with the best *training*
    exact match (chosen without the test half; ties to the first in the grid's order),
    ``blend, best on test`` the best test value over the grid (as the paper's
    Table 4 picks it), ``bases`` the better of BaseJ (1e-5, 128) and BaseH (1, 128),
    ``LP`` label powerset (:func:`.baselines.load_lp`).
    """
    rows = []
    for d, g in grid.groupby("dataset", sort=False):
        g = g.sort_values(["beta", "alpha"])
        at = g.loc[g["train_exact"].idxmax()]
        big = g[(g["beta"] == 128) & g["alpha"].isin([1e-5, 1.0])]
        rows.append(
            {
                "Data": NAMES[d],
                "(alpha, beta)": f"({fmt_alpha(at['alpha'])}, {at['beta']:g})",
                "blend": float(at["test_exact"]),
                "blend, best on test": float(g["test_exact"].max()),
                "bases": float(big["test_exact"].max()),
                "LP": float(lp.loc[lp["dataset"] == d, "test_exact"].iloc[0]),
            }
        )
    return pd.DataFrame(rows).set_index("Data")


def headline_wins(table: pd.DataFrame) -> int:
    """Datasets where the blend's test exact match beats LP's and the better base's.

    The rule of the headline (fixed before LP was computed), on :func:`headline_table`.

    >>> t = pd.DataFrame({"blend": [0.3, 0.4], "LP": [0.2, 0.5], "bases": [0.25, 0.3]})
    >>> headline_wins(t)
    1
    """
    return int(((table["blend"] > table["LP"]) & (table["blend"] > table["bases"])).sum())
