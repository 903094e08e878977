"""What the evidence computes from Wu & Zhou's tables and ours: pure functions, no rows.

Rescaled tables (best 1, worst 0) and our Tables B.1-B.2 from the synthetic runs;
average ranks and Fig. 4's three readings, with their robustness over single splits;
the thresholding hypotheses beside the paper and their fit; LIMO's measures after 10
and 30 passes beside Table B.3; the thresholding account tried on a held-out dataset;
Sec. 5.1's readings of the synthetic study; Sec. 2.2's constant predictor under two
readings of ties; and whether the rescaled columns of Tables B.1-B.2 follow from the
absolute ones.  :mod:`mlcrepro.wu_zhou2017.collect` calls these on the committed tables,
and the ledger (:mod:`.ledgers`) judges what they return.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal

import numpy as np
import pandas as pd

from mlcbook.metrics import LOWER_IS_BETTER, auc, coverage, one_error
from mlcrepro.wu_zhou2017.printed import (
    B2_COLUMNS,
    B3_ORDER,
    DS_PAPER,
    METHODS,
    NAMES,
    VARIANTS,
    classification_measures,
    rank_measures,
)

__all__ = [
    "relative",
    "synthetic_tables",
    "average_ranks",
    "rank_rule",
    "rank_rule_robustness",
    "hypotheses_summary",
    "hypothesis_fit",
    "with_fit",
    "per_variant_fit",
    "best_per_variant",
    "as_strings",
    "synthetic_claims",
    "constant_predictor",
    "epochs_comparison",
    "account_check",
    "rescaling_ranges",
]


def relative(table: pd.DataFrame) -> pd.DataFrame:
    """Rescale each row (a measure) so that the best value is 1 and the worst 0."""
    out = table.astype(float).copy()
    for k in table.index:
        v = table.loc[k].astype(float)
        best, worst = (v.min(), v.max()) if k in LOWER_IS_BETTER else (v.max(), v.min())
        out.loc[k] = ((v - worst) / (best - worst)).abs() if best != worst else 1.0
    return out


def synthetic_tables(syn: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Our Tables B.1 and B.2 (absolute and relative) from the synthetic long table."""
    rank = syn[syn.threshold == "t"].groupby("method")[rank_measures()].mean().T[VARIANTS]
    cls = syn.groupby(["method", "threshold"])[classification_measures()].mean()
    cls.index = [f"{m}-{t}" for m, t in cls.index]
    cls = cls.T[B2_COLUMNS]
    return {"b1": rank, "b1_rel": relative(rank), "b2": cls, "b2_rel": relative(cls)}


def _ranks(table: pd.DataFrame) -> pd.DataFrame:
    """Rank methods (rows) per measure (columns): 1 best, ties share the mean rank."""
    return pd.DataFrame(
        {k: table[k].rank(ascending=k in LOWER_IS_BETTER, method="average") for k in B3_ORDER}
    )


def average_ranks(values: pd.DataFrame) -> pd.DataFrame:
    """Average over datasets of the six methods' ranks: measures x methods.

    ``values`` is indexed by (dataset, method) with the measures as columns.
    """
    ds = values.index.get_level_values(0).unique()
    ranks = [_ranks(values.loc[d].loc[METHODS]) for d in ds]
    return (sum(ranks) / len(ranks)).T.loc[B3_ORDER, METHODS]


def rank_rule(avg: pd.DataFrame) -> dict[str, int]:
    """Fig. 4's three readings, counted on an average-rank table."""
    other = [k for k in B3_ORDER if k not in ("macro_f1", "macro_auc")]
    return {
        "inst_macro": sum(
            avg.loc[k, "LIMO-inst"] < avg.loc[k, "LIMO-label"] for k in ("macro_f1", "macro_auc")
        ),
        "label_other": sum(avg.loc[k, "LIMO-label"] < avg.loc[k, "LIMO-inst"] for k in other),
        "limo_top2": sum(avg.loc[k, "LIMO"] <= avg.loc[k].nsmallest(2).max() for k in B3_ORDER),
    }


def rank_rule_robustness(bench: pd.DataFrame, key: str, need: int) -> tuple[int, int]:
    """On how many replications ``rank_rule(...)[key] >= need`` (ranks per split)."""
    reps = sorted(bench.replication.unique())
    hits = 0
    for r in reps:
        v = bench[bench.replication == r].groupby(["dataset", "method"])[B3_ORDER].mean()
        hits += rank_rule(average_ranks(v))[key] >= need
    return int(hits), len(reps)


def hypotheses_summary(
    table: pd.DataFrame, p: pd.DataFrame, measure: str = "macro_f1"
) -> pd.DataFrame:
    """Mean ``measure`` per hypothesis (rows) and (dataset, variant), the paper's first."""
    ours = (
        table.groupby(["hypothesis", "dataset", "method"])[measure]
        .mean()
        .unstack(["dataset", "method"])
    )
    cols = [(d, v) for d in table.dataset.unique() for v in VARIANTS]
    pap = p[p.measure == measure].set_index(["dataset", "method"])["mean"].astype(float)
    paper_row = pd.DataFrame(
        [[pap[(DS_PAPER[d], v)] for d, v in cols]],
        index=["paper (Table B.3)"],
        columns=pd.MultiIndex.from_tuples(cols),
    )
    order = list(dict.fromkeys(table.hypothesis))
    return pd.concat([paper_row, ours.loc[order, cols]])


def hypothesis_fit(summary: pd.DataFrame) -> pd.Series:
    """Mean |hypothesis - paper| over the (dataset, variant) cells, per hypothesis."""
    gap = (summary.iloc[1:] - summary.iloc[0]).abs()
    return gap.mean(axis=1).rename("mean |ours - paper|")


def with_fit(summary: pd.DataFrame) -> pd.DataFrame:
    """``summary`` with :func:`hypothesis_fit` as a last column ``("fit", "")``.

    The columns of ``summary`` are (dataset, variant) pairs; the new column gets the
    full two-level key (pandas 3 deprecates ``DataFrame.assign`` on such columns,
    which completed the key with ``""`` the same way).

    Examples
    --------
    >>> cols = pd.MultiIndex.from_tuples([("d", "LIMO-inst"), ("d", "LIMO-label")])
    >>> s = pd.DataFrame([[0.5, 0.25], [0.75, 0.0]], index=["paper", "code"], columns=cols)
    >>> with_fit(s).columns.tolist()[-1], float(with_fit(s).loc["code", ("fit", "")])
    (('fit', ''), 0.25)
    """
    out = summary.copy()
    out[("fit", "")] = hypothesis_fit(summary)
    return out


def per_variant_fit(summary: pd.DataFrame) -> pd.DataFrame:
    """Mean |hypothesis - paper| per variant (over datasets): which rule fits which."""
    gap = (summary.iloc[1:] - summary.iloc[0]).abs()
    return gap.T.groupby(level=1).mean().T[VARIANTS]


def best_per_variant(summary: pd.DataFrame) -> dict[str, tuple[str, float]]:
    """The best-fitting hypothesis of each variant and its mean |gap|."""
    fit = per_variant_fit(summary)
    return {v: (str(fit[v].idxmin()), float(fit[v].min())) for v in VARIANTS}


def as_strings(values: np.ndarray | Sequence[bool]) -> str:
    """✓/✗ pattern of booleans."""
    return "".join("✓" if v else "✗" for v in values)


def _better(a: float, b: float, k: str) -> bool:
    return a < b if k in LOWER_IS_BETTER else a > b


def _synthetic_rules(t: Mapping[str, pd.DataFrame]) -> list[tuple[str, bool]]:
    b1, b2 = t["b1"], t["b2"]
    lab = ["ranking_loss", "average_precision", "coverage", "instance_auc"]
    return [
        (
            "LIMO-label beats LIMO-inst on ranking loss, avg. precision, coverage, instance-AUC",
            all(_better(b1.loc[k, "LIMO-label"], b1.loc[k, "LIMO-inst"], k) for k in lab),
        ),
        (
            "LIMO-inst beats LIMO-label on macro-AUC",
            _better(
                b1.loc["macro_auc", "LIMO-inst"], b1.loc["macro_auc", "LIMO-label"], "macro_auc"
            ),
        ),
        ("LIMO has the best micro-AUC", b1.loc["micro_auc"].idxmax() == "LIMO"),
        (
            "LIMO-label-t(x) best on instance-F1 and micro-F1",
            b2.loc["instance_f1"].idxmax() == "LIMO-label-t(x)"
            and b2.loc["micro_f1"].idxmax() == "LIMO-label-t(x)",
        ),
        (
            "a LIMO-inst-t or LIMO-t pair best on macro-F1",
            b2.loc["macro_f1"].idxmax() in ("LIMO-inst-t", "LIMO-t"),
        ),
        (
            "synthetic one-error below 0.001 for all three LIMO variants",
            bool((b1.loc["one_error"] < 0.001).all()),
        ),
    ]


def synthetic_claims(syn: pd.DataFrame) -> list[tuple[str, bool, int, int]]:
    """Sec. 5.1's readings: (claim, holds on the means, hits, replications)."""
    main = _synthetic_rules(synthetic_tables(syn))
    reps = sorted(syn.replication.unique())
    per = [_synthetic_rules(synthetic_tables(syn[syn.replication == r])) for r in reps]
    return [(c, bool(h), sum(p[i][1] for p in per), len(reps)) for i, (c, h) in enumerate(main)]


def _auc_ge(Y: np.ndarray, F: np.ndarray, average: str) -> float:
    """Table 1's AUCs literally: the share of (positive, negative) pairs with ``>=``.

    Brute force over pairs: for small matrices (the constant-predictor example).
    """

    def share(pos: np.ndarray, neg: np.ndarray) -> float:
        return float((pos[:, None] >= neg[None, :]).mean())

    Yb = Y.astype(bool)
    if average == "micro":
        return share(F[Yb], F[~Yb])
    units = zip(F.T, Yb.T) if average == "macro" else zip(F, Yb)
    vals = [share(f[y], f[~y]) for f, y in units if y.any() and (~y).any()]
    return float(np.mean(vals))


def constant_predictor(Y) -> pd.DataFrame:
    """One-error, coverage and AUCs of a constant F under two readings of ties.

    ``metrics``: :mod:`mlcbook.metrics` (ties take the worst rank; AUC counts a tie
    one half).  ``Table 1, ties in F's favour``: a tied label counts as ranked first
    (one-error: an error only if no maximiser is relevant; rank = 1 + the number of
    labels scored strictly higher), and the AUCs count ``>=`` as Table 1 writes.
    """

    Y = np.asarray(Y, dtype=np.int8)
    F = np.ones(Y.shape)
    Yb = Y.astype(bool)
    top = F == F.max(axis=1, keepdims=True)
    lenient_oe = float((~(top & Yb).any(axis=1)).mean())
    rank = 1 + (F[:, None, :] > F[:, :, None]).sum(axis=2)  # rank[i, j]
    has = Yb.any(axis=1)
    lenient_cov = float((np.where(Yb, rank, 0).max(axis=1)[has] - 1).mean())
    rows = [("one_error", one_error(Y, F), lenient_oe), ("coverage", coverage(Y, F), lenient_cov)]
    for avg in ("macro", "instance", "micro"):
        rows.append((f"{avg}_auc", auc(Y, F, average=avg), _auc_ge(Y, F, avg)))
    cols = ["metrics", "Table 1, ties in F's favour"]
    return pd.DataFrame(rows, columns=["measure", *cols]).set_index("measure")


def epochs_comparison(ep: pd.DataFrame, p: pd.DataFrame) -> pd.DataFrame:
    """LIMO's non-F1 measures after each number of passes beside Table B.3.

    One row per (dataset, variant, measure): the paper's mean, ours after each number
    of passes in ``ep`` (:func:`mlcrepro.wu_zhou2017.thresholds.epochs_table`),
    whether each is within the paper's std (plus half a printed unit), and whether the
    paper's value lies between ours after the fewest and the most passes: strictly
    (``between``), up to half a unit of its printed precision (``between, printed``),
    and widened by the paper's std plus half a printed unit (``bracketed``).
    """
    f1 = {"macro_f1", "micro_f1", "instance_f1"}
    keys = [k for k in B3_ORDER if k not in f1]
    ours = ep.groupby(["dataset", "method", "n_epochs"])[keys].mean()
    rows = []
    for (d, m), tab in ours.groupby(level=[0, 1]):
        tab = tab.droplevel([0, 1])
        for k in keys:
            r = p[(p.dataset == DS_PAPER[d]) & (p.method == m) & (p.measure == k)].iloc[0]
            row = {"dataset": d, "method": m, "measure": k, "paper": float(r["mean"])}
            row.update({f"{e} passes": tab.loc[e, k] for e in tab.index})
            tol = 0.5 * 10.0 ** -len(r["mean"].split(".")[1]) + float(r["std"])
            for e in tab.index:
                row[f"within std, {e}"] = bool(abs(tab.loc[e, k] - row["paper"]) <= tol)
            lo, hi = sorted((tab[k].iloc[0], tab[k].iloc[-1]))
            row["between"] = bool(lo <= row["paper"] <= hi)
            half = 0.5 * 10.0 ** -len(r["mean"].split(".")[1])
            row["between, printed"] = bool(lo - half <= row["paper"] <= hi + half)
            row["bracketed"] = bool(lo - tol <= row["paper"] <= hi + tol)
            rows.append(row)
    return pd.DataFrame(rows).set_index(["dataset", "method", "measure"])


def account_check(
    thr: pd.DataFrame, held_out: pd.DataFrame, p: pd.DataFrame, dataset: str
) -> pd.DataFrame:
    """The account found on ``thr``'s datasets, tried on a held-out dataset.

    For every F1 measure and variant the hypothesis that fits the paper best on ``thr``
    (:func:`per_variant_fit`), among those run in ``held_out``, is read off on
    ``dataset`` beside the paper's mean and std and the committed rule (``code``):
    its mean over ``held_out``'s splits of ``dataset``, whether that mean lies within
    the paper's std (plus half a printed unit), and on how many of the ``splits``
    the single split's value does.
    """
    held = held_out[held_out["dataset"] == dataset]
    if held.empty:
        raise ValueError(f"held_out has no rows for dataset {dataset!r}")
    n_splits = int(held["replication"].nunique())
    rows = []
    for m in ("macro_f1", "micro_f1", "instance_f1"):
        fit = per_variant_fit(hypotheses_summary(thr, p, m))
        values = held.groupby(["hypothesis", "method"])[m]
        ours = values.mean()
        for v in VARIANTS:
            ranked = [h for h in fit[v].sort_values(kind="stable").index if (h, v) in ours.index]
            r = p[(p.dataset == DS_PAPER[dataset]) & (p.method == v) & (p.measure == m)]
            mean, std = float(r["mean"].iloc[0]), float(r["std"].iloc[0])
            tol = std + 0.5 * 10.0 ** -len(r["mean"].iloc[0].split(".")[1])
            acc, code = ours[(ranked[0], v)], ours[("code", v)]
            inside = {
                h: int((np.abs(values.get_group((h, v)).to_numpy(float) - mean) <= tol).sum())
                for h in (ranked[0], "code")
            }
            rows.append(
                {
                    "measure": NAMES[m],
                    "variant": v,
                    "hypothesis": ranked[0],
                    "paper": mean,
                    "std": std,
                    "account": acc,
                    "code": code,
                    "account within std": bool(abs(acc - mean) <= tol),
                    "code within std": bool(abs(code - mean) <= tol),
                    "splits": n_splits,
                    "account splits within std": inside[ranked[0]],
                    "code splits within std": inside["code"],
                }
            )
    return pd.DataFrame(rows).set_index(["measure", "variant"])


def _half_unit(text: str) -> float:
    exp = Decimal(text.strip()).as_tuple().exponent
    if not isinstance(exp, int):
        raise ValueError(f"a printed value must be a finite number, got {text!r}")
    return 0.5 * 10.0**exp


def rescaling_ranges(
    paper: Mapping[str, Sequence[tuple[str, str]]],
    columns: Sequence[str],
    lower_is_better: Iterable[str] = LOWER_IS_BETTER,
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
