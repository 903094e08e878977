"""Our Sec. 5 study beside the authors' released profiles (Hüllermeier et al., 2022).

The study of :mod:`mlcrepro.huellermeier2022.authors_study` reruns the paper's learners on
the authors' folds; the committed table ``dependence_released``
(:func:`mlcrepro.huellermeier2022.experiments.released_profiles`) holds the profiles the
authors released (binomial loss, eq. 15/18, k = 1..K; polynomial loss,
eq. 17, their 55 alphas), each pooled over the folds that finished.  This module
puts the two side by side:

* :func:`fold_spread` pools our folds and gives each pooled loss a tolerance from
  our own fold-to-fold spread (the rule is stated there);
* :func:`compare_with_authors` is the tidy comparison, :func:`endpoint_summary` its
  two ends (Hamming, k = 1, and subset 0/1, k = K) per (dataset, learner),
  :func:`median_gaps` and :func:`worst_pairs` its summaries;
* :func:`cpu_seconds` the cost of the study per learner and dataset.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from mlcbook.profiles import pooled_mean
from mlcbook.validation import check_bool
from mlcrepro.huellermeier2022.experiments import released_profiles
from mlcrepro.huellermeier2022.names import LEARNER_NAMES, paper_names

__all__ = [
    "MAIN_LEARNERS",
    "compare_with_authors",
    "cpu_seconds",
    "endpoint_summary",
    "fold_spread",
    "median_gaps",
    "printed",
    "worst_pairs",
]

#: The learners whose medians the chapter's targets are about (paper names).
MAIN_LEARNERS: tuple[str, ...] = tuple(n.paper for n in LEARNER_NAMES if n.paper != "RAkEL")

_TABLE = {"dataset", "K", "learner", "fold", "n_test", "family", "param", "loss"}
_REFERENCE = {"dataset", "learner", "family", "param", "loss", "folds", "K"}
_KEYS = ["dataset", "learner", "family", "param"]


def _frame(table: object, name: str, need: set[str]) -> pd.DataFrame:
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"{name} must be a pandas DataFrame, got {type(table).__name__}")
    missing = need - set(table.columns)
    if missing:
        raise ValueError(f"{name} lacks the columns {sorted(missing)}")
    if table.empty:
        raise ValueError(f"{name} has no rows")
    return table


def fold_spread(table: pd.DataFrame) -> pd.DataFrame:
    """Our pooled losses and a tolerance from our fold-to-fold spread.

    The pooled loss of F folds with means ``l_f`` over ``n_f`` test instances is
    ``L = sum_f n_f l_f / N`` (``N = sum_f n_f``; the authors' pooling).  Its
    standard error treats the folds as F exchangeable draws (the weighted-mean,
    or ratio, estimator):

    ``se = sqrt(F / (F - 1) * sum_f (n_f / N)**2 * (l_f - L)**2)``,

    which for equal fold sizes is the usual ``sd(l_f) / sqrt(F)``.  The tolerance
    is ``2 * se``: two standard errors bracket about 95 % of a normal mean, and a
    different draw of folds (scene, yeast), of bootstrap samples (EPCT) or a
    different fold left out (the authors pooled fewer folds for some pairs) moves
    the pooled loss by about that much.  The folds are not independent (their
    training sets overlap), so the standard error is an estimate of the spread,
    not an exact one; a single fold has no spread (``se`` NaN).

    Parameters
    ----------
    table : pandas.DataFrame
        Columns ``dataset, K, learner, fold, n_test, family, param, loss``: one row
        per fold and loss parameter, ``loss`` the fold's mean.

    Returns
    -------
    pandas.DataFrame
        One row per (dataset, learner, family, param): ``K``, ``ours`` (pooled),
        ``se``, ``tolerance`` (= 2 se), ``folds`` (how many) and ``n`` (= N).
    """
    t = _frame(table, "table", _TABLE)
    if (t["n_test"] <= 0).any():
        raise ValueError("table: every fold's n_test must be positive")
    g = t.groupby(_KEYS, sort=False)
    out = g.agg(K=("K", "first"), folds=("fold", "nunique"))
    if (g.size() != out["folds"]).any():
        raise ValueError("table: a (dataset, learner, family, param) repeats a fold")
    pooled = pooled_mean(t, _KEYS).set_index(_KEYS)
    out["ours"], out["n"] = pooled["loss"], pooled["n_test"]
    dev = t.join(out[["ours", "n"]], on=_KEYS)
    dev = (dev["n_test"] / dev["n"]) ** 2 * (dev["loss"] - dev["ours"]) ** 2
    ss = dev.groupby([t[k] for k in _KEYS], sort=False).sum()
    F = out["folds"].astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        out["se"] = np.sqrt(np.where(F > 1, F / (F - 1), np.nan) * ss)
    out["tolerance"] = 2 * out["se"]
    cols = ["K", "ours", "se", "tolerance", "folds", "n"]
    return out[cols].reset_index()


def compare_with_authors(
    table: pd.DataFrame, reference: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Our pooled losses beside the authors', for every loss parameter.

    Parameters
    ----------
    table : pandas.DataFrame
        The per-fold losses of the authors' study (see :func:`fold_spread`), with
        registry or paper learner names
        (:func:`~mlcrepro.huellermeier2022.names.paper_names` is applied with
        ``rakel_short=False`` so that RAkEL keeps its (k, m)).
    reference : pandas.DataFrame, optional
        The authors' profiles, columns ``dataset, learner, family, param, loss,
        folds, K``; default the committed table of the released profiles
        (:func:`mlcrepro.huellermeier2022.experiments.released_profiles`).

    Returns
    -------
    pandas.DataFrame
        One row per (dataset, learner, family, param) present in both: ``K``,
        ``ours``, ``theirs``, ``diff`` (ours - theirs), ``tolerance`` (see
        :func:`fold_spread`), ``our_folds``, ``their_folds``.

    Raises
    ------
    ValueError
        A pair with a different K in the two tables, or no pair in common.
    """
    ours = fold_spread(table)
    # the paper's names for the pooled rows' labels (RAkEL keeps its m): no loss is renamed
    labels = ours[["learner"]].drop_duplicates()
    named = paper_names(labels, rakel_short=False)["learner"]
    ours["learner"] = ours["learner"].map(dict(zip(labels["learner"], named)))
    if reference is None:
        reference = released_profiles()
    ref = _frame(reference, "reference", _REFERENCE)
    ref = ref[["dataset", "learner", "family", "param", "loss", "folds", "K"]]
    ref = ref.rename(columns={"loss": "theirs", "folds": "their_folds", "K": "K_ref"})
    ref = ref.assign(param=ref["param"].astype(float))
    ours = ours.assign(param=ours["param"].astype(float))
    # alphas are the same printed decimals in both tables: round before matching
    for f in (ours, ref):
        f["param"] = f["param"].round(9)
    m = ours.merge(ref, on=_KEYS, how="inner")
    if m.empty:
        raise ValueError("table and reference have no (dataset, learner) in common")
    bad = m[m["K"] != m["K_ref"]]
    if not bad.empty:
        raise ValueError(f"K differs from the reference for {bad[_KEYS[:2]].iloc[0].tolist()}")
    m["diff"] = m["ours"] - m["theirs"]
    m = m.rename(columns={"folds": "our_folds"})
    cols = [*_KEYS, "K", "ours", "theirs", "diff", "tolerance", "our_folds", "their_folds"]
    return m[cols]


def endpoint_summary(comparison: pd.DataFrame) -> pd.DataFrame:
    """Hamming (k = 1) and subset 0/1 (k = K) per (dataset, learner).

    Parameters
    ----------
    comparison : pandas.DataFrame
        The output of :func:`compare_with_authors`.

    Returns
    -------
    pandas.DataFrame
        One row per (dataset, learner): ``K, our_folds, their_folds``, then for
        ``hamming`` and ``subset01`` the columns ``_ours, _theirs, _diff, _tol``,
        and ``within``: both ends within their tolerance (``|diff| <= tol``).
    """
    c = _frame(
        comparison,
        "comparison",
        {*_KEYS, "K", "ours", "theirs", "diff", "tolerance", "our_folds", "their_folds"},
    )
    b = c[c["family"] == "binomial"]
    ends = {"hamming": b[b["param"] == 1], "subset01": b[b["param"] == b["K"]]}
    keys = ["dataset", "learner"]
    out = ends["hamming"][[*keys, "K", "our_folds", "their_folds"]].set_index(keys)
    for end, rows in ends.items():
        r = rows.set_index(keys)[["ours", "theirs", "diff", "tolerance"]]
        r.columns = [f"{end}_{x}" for x in ("ours", "theirs", "diff", "tol")]
        out = out.join(r, how="inner")
    if out.empty:
        raise ValueError("comparison has no binomial rows at k = 1 and k = K")
    out["within"] = (out["hamming_diff"].abs() <= out["hamming_tol"]) & (
        out["subset01_diff"].abs() <= out["subset01_tol"]
    )
    return out.reset_index()


def median_gaps(summary: pd.DataFrame, learners: Sequence[str] = MAIN_LEARNERS) -> pd.DataFrame:
    """Median |ours - theirs| at Hamming and subset 0/1, per learner and overall.

    Parameters
    ----------
    summary : pandas.DataFrame
        The output of :func:`endpoint_summary`.
    learners : sequence of str
        The learners to pool (paper names); default :data:`MAIN_LEARNERS`.

    Returns
    -------
    pandas.DataFrame
        Indexed by learner, then ``"all"`` (every pair of those learners):
        ``pairs``, ``hamming`` and ``subset01`` (medians of the absolute
        differences).
    """
    s = _frame(summary, "summary", {"learner", "hamming_diff", "subset01_diff"})
    if isinstance(learners, str) or not all(isinstance(x, str) for x in learners):
        raise TypeError("learners must be a sequence of learner names (str)")
    s = s[s["learner"].isin(list(learners))]
    if s.empty:
        raise ValueError(f"summary has no rows for the learners {list(learners)}")
    a = s.assign(hamming=s["hamming_diff"].abs(), subset01=s["subset01_diff"].abs())
    per = a.groupby("learner").agg(
        pairs=("hamming", "size"), hamming=("hamming", "median"), subset01=("subset01", "median")
    )
    per = per.reindex([x for x in learners if x in per.index])
    total = pd.DataFrame(
        {
            "pairs": [len(a)],
            "hamming": [a["hamming"].median()],
            "subset01": [a["subset01"].median()],
        },
        index=["all"],
    )
    return pd.concat([per, total]).rename_axis("learner")


def printed(x: float, significant: int = 4) -> str:
    """A loss in [0, 1] as a fixed-point string with at least ``significant`` digits.

    Four decimals for losses of 0.1 and more, more for smaller ones, so that a small
    loss (genbase's Hamming loss is about 0.001) keeps its precision: ``0.001119`` ->
    ``'0.001119'``, ``0.2401`` -> ``'0.2401'``, ``0`` -> ``'0.0000'``.  A ledger row
    reads the printed decimals as the precision of the claim.

    Parameters
    ----------
    x : float
        A finite number >= 0.
    significant : int
        Significant digits, at least 1; also the fewest decimals.

    Returns
    -------
    str
    """
    if isinstance(significant, bool) or not isinstance(significant, int) or significant < 1:
        raise ValueError(f"significant must be an int >= 1, got {significant!r}")
    v = float(x)
    if not (np.isfinite(v) and v >= 0):
        raise ValueError(f"x must be a finite number >= 0, got {x!r}")
    lead = int(np.floor(np.log10(v))) if v > 0 else 0
    return f"{v:.{max(significant, significant - 1 - lead)}f}"


def worst_pairs(summary: pd.DataFrame, n: int = 5) -> pd.DataFrame:
    """The ``n`` (dataset, learner) pairs farthest from the authors.

    Ranked by the larger of ``|diff| / tol`` at the two ends (how many of our own
    tolerances away; a difference beside a zero tolerance counts as infinitely many);
    a pair without a tolerance (one fold) ranks by its largest absolute difference
    after all others.

    Parameters
    ----------
    summary : pandas.DataFrame
        The output of :func:`endpoint_summary`.
    n : int
        How many pairs, at least 1.

    Returns
    -------
    pandas.DataFrame
        The ``n`` rows of ``summary`` in that order, with a column ``tols`` (the
        ranking value).
    """
    s = _frame(
        summary, "summary", {"hamming_diff", "hamming_tol", "subset01_diff", "subset01_tol"}
    )
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be an int >= 1, got {n!r}")
    with np.errstate(divide="ignore", invalid="ignore"):
        h = s["hamming_diff"].abs() / s["hamming_tol"]
        z = s["subset01_diff"].abs() / s["subset01_tol"]
    tols = pd.concat([h, z], axis=1).max(axis=1, skipna=False)
    gap = pd.concat([s["hamming_diff"].abs(), s["subset01_diff"].abs()], axis=1).max(axis=1)
    order = s.assign(tols=tols, _nan=tols.isna(), _gap=gap).sort_values(
        ["_nan", "tols", "_gap"], ascending=[True, False, False], kind="stable"
    )
    return order.drop(columns=["_nan", "_gap"]).head(int(n)).reset_index(drop=True)


def cpu_seconds(table: pd.DataFrame, *, rakel_together: bool = True) -> pd.DataFrame:
    """CPU seconds per learner and dataset, summed over folds, with totals.

    Every row of one (dataset, learner, fold) carries the same ``cpu_seconds`` (the
    cell's); it is counted once.

    Parameters
    ----------
    table : pandas.DataFrame
        Columns ``dataset, learner, fold, cpu_seconds``.
    rakel_together : bool
        Sum every learner whose name starts with ``RAkEL`` (all its k) into one row
        ``RAkEL``.

    Returns
    -------
    pandas.DataFrame
        Learners (rows, order of appearance) by datasets (columns, order of
        appearance), plus a ``total`` row and column; NaN where a learner did not
        run on a dataset.
    """
    t = _frame(table, "table", {"dataset", "learner", "fold", "cpu_seconds"})
    cells = t.drop_duplicates(["dataset", "learner", "fold"])
    check = t.groupby(["dataset", "learner", "fold"])["cpu_seconds"].nunique()
    if (check > 1).any():
        raise ValueError("table: a (dataset, learner, fold) has several cpu_seconds")
    rakel_together = check_bool(rakel_together, "rakel_together")
    if rakel_together:
        rakel = cells["learner"].astype(str).str.startswith("RAkEL")
        cells = cells.assign(learner=cells["learner"].where(~rakel, "RAkEL"))
    p = cells.pivot_table(
        index="learner", columns="dataset", values="cpu_seconds", aggfunc="sum", sort=False
    )
    p["total"] = p.sum(axis=1)
    p.loc["total"] = p.sum(axis=0)
    p.columns.name = None
    return p
