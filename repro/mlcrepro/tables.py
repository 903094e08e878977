"""Small, tested helpers for the tables chapters print and the claims they check.

Rankings at the printed precision (:func:`ranked`, :func:`ranks`), how robust a claim is over
folds or resamples (:func:`robustness`, its seeded draws :func:`bootstrap_draws`), and the
readings of a surrogate-by-target loss table (:func:`surrogate_readings`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

__all__ = [
    "TIE_TOL",
    "best_surrogates",
    "bootstrap_draws",
    "ranked",
    "ranks",
    "robustness",
    "surrogate_readings",
]

#: Two pooled mean losses closer than this are one value (a tie).  A pooled mean is a
#: ratio of sums of per-instance losses, a rational with a small denominator, so two
#: different ones differ by far more, while two equal ones summed in different orders
#: differ in their last bits.  Measured on the Fig. 4 tables (three tie-breaks, six data
#: sets, the full folds and 200 bootstrap resamples of them): distinct pooled means at
#: least 4.1e-8 apart, equal ones at most 4.4e-16.
TIE_TOL = 1e-12


def ranked(values: pd.Series | Mapping[str, float], decimals: int = 3) -> str:
    """``"A < B = C < D"``: names ordered by value at the printed precision.

    Values equal after rounding to ``decimals`` are ties, written with ``=`` and
    ordered by name, so the printed ranking does not depend on the last bits of a
    floating-point sum (which differ between CPUs).

    Parameters
    ----------
    values : Series or mapping
        ``name -> value``; NaN is refused.
    decimals : int
        The printed precision (>= 0).
    """
    _check_decimals(decimals)
    items = list(values.items())
    if not items:
        raise ValueError("values must not be empty")
    keyed = []
    for name, v in items:
        v = float(v)
        if not math.isfinite(v):
            raise ValueError(f"values must be finite, got {v!r} for {name!r}")
        keyed.append((round(v, decimals), str(name)))
    keyed.sort()
    out = keyed[0][1]
    for (prev, _), (v, name) in zip(keyed, keyed[1:]):
        out += (" = " if v == prev else " < ") + name
    return out


def ranks(
    table: pd.DataFrame, lower_is_better: Iterable[str] = (), *, decimals: int | None = None
) -> pd.DataFrame:
    """Rank the rows of every column: 1 = best, ties share the average of their ranks.

    Parameters
    ----------
    table : DataFrame
        Rows are the competitors (methods), columns the criteria (measures).
    lower_is_better : iterable of str
        Columns in which the smallest value is best (losses); in the others the
        largest is.  Every name must be a column.
    decimals : int, optional
        Round to the printed precision first, so that values printed alike tie (and
        the ranks do not depend on the last bits of a floating-point sum).

    Returns
    -------
    DataFrame
        Same shape; a NaN value gets a NaN rank.

    Examples
    --------
    >>> t = pd.DataFrame({"loss": [0.2, 0.1, 0.2], "acc": [0.5, 0.7, 0.6]}, index=list("abc"))
    >>> ranks(t, ["loss"]).to_dict()
    {'loss': {'a': 2.5, 'b': 1.0, 'c': 2.5}, 'acc': {'a': 3.0, 'b': 1.0, 'c': 2.0}}
    """
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"table must be a DataFrame, got {type(table).__name__}")
    if isinstance(lower_is_better, str):
        raise TypeError("lower_is_better must be an iterable of column names, not a str")
    lower = set(lower_is_better)
    unknown = lower - set(table.columns)
    if unknown:
        raise ValueError(f"lower_is_better names columns not in table: {sorted(unknown)}")
    if decimals is not None:
        _check_decimals(decimals)
    values = table.astype(float)
    if np.isinf(values.to_numpy()).any():
        raise ValueError("table must not hold infinite values")
    if decimals is not None:
        values = values.round(decimals)
    return pd.DataFrame(
        {c: values[c].rank(ascending=c in lower, method="average") for c in table.columns},
        index=table.index,
    )


def bootstrap_draws(n_groups: int, resamples: int, seed: int = 0) -> np.ndarray:
    """The groups each bootstrap resample draws: ``n_groups`` with replacement, seeded.

    The draws of :func:`robustness`, one row per resample (indices into the groups in
    sorted order), for a caller that evaluates the same resamples another way.

    Parameters
    ----------
    n_groups : int
        Number of groups (>= 1); each resample draws as many.
    resamples : int
        Number of resamples (>= 1).
    seed : int
        Seed of the draws.

    Returns
    -------
    ndarray of int, shape (resamples, n_groups)

    Examples
    --------
    >>> d = bootstrap_draws(4, 3, seed=0)
    >>> d.shape, bool(((0 <= d) & (d < 4)).all())
    ((3, 4), True)
    """
    for name, value in (("n_groups", n_groups), ("resamples", resamples)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be an int >= 1, got {value!r}")
    rng = np.random.default_rng(seed)
    return np.array([rng.integers(0, n_groups, n_groups) for _ in range(resamples)])


def robustness(
    table: pd.DataFrame,
    holds: Callable[[pd.DataFrame], Any],
    *,
    by: str = "fold",
    resamples: int | None = None,
    seed: int = 0,
) -> Any:
    """How often a claim holds on parts or resamples of a table: ``(hits, trials)``.

    With ``resamples=None`` the claim ``holds`` is evaluated on the rows of each
    group of ``by`` alone (each fold: ``trials`` = number of folds).  With an int, on
    ``resamples`` bootstrap resamples of the groups: as many groups as there are,
    drawn with replacement (a group drawn twice enters twice, its ``by`` value made
    distinct), seeded by ``seed``.

    Parameters
    ----------
    table : DataFrame
        Long table with one column ``by`` (e.g. per-fold losses).
    holds : callable
        ``holds(sub_table)`` -> bool, or a mapping ``name -> bool`` to count several
        claims on the same parts at once.
    by : str
        The grouping column.
    resamples : int, optional
        Number of bootstrap resamples (>= 1); default: each group alone.
    seed : int
        Seed of the bootstrap draws.

    Returns
    -------
    (int, int), or a dict ``name -> (int, int)`` when ``holds`` returns a mapping.
    """
    if not isinstance(table, pd.DataFrame) or by not in table.columns:
        raise ValueError(f"table must be a DataFrame with a column {by!r}")
    if not callable(holds):
        raise TypeError("holds must be callable: holds(sub_table) -> bool or mapping")
    if resamples is not None and (
        isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 1
    ):
        raise ValueError(f"resamples must be None or an int >= 1, got {resamples!r}")
    groups = dict(tuple(table.groupby(by, sort=True)))
    if not groups:
        raise ValueError("table has no rows")
    keys = list(groups)
    if resamples is None:
        parts = (groups[k] for k in keys)
    else:
        draws = bootstrap_draws(len(keys), resamples, seed)
        parts = (
            pd.concat(
                [groups[keys[j]].assign(**{by: i}) for i, j in enumerate(d)], ignore_index=True
            )
            for d in draws
        )
    results = [holds(p) for p in parts]
    trials = len(results)
    if all(isinstance(r, Mapping) for r in results):
        names = list(results[0])
        return {n: (sum(bool(r[n]) for r in results), trials) for n in names}
    return sum(bool(r) for r in results), trials


def _check_decimals(decimals: Any) -> None:
    if isinstance(decimals, bool) or not isinstance(decimals, int) or decimals < 0:
        raise ValueError(f"decimals must be a non-negative int, got {decimals!r}")


def best_surrogates(losses: np.ndarray) -> np.ndarray:
    """The best surrogate of each row: the smallest loss, ties to the smaller ``k``.

    Losses within :data:`TIE_TOL` of a row's minimum are ties, so that two equal pooled
    means that rounding left a unit apart in the last digit do not decide the row.

    Parameters
    ----------
    losses : ndarray, shape (..., K)
        Loss of each surrogate ``k = 1..K`` along the last axis.

    Returns
    -------
    ndarray of int, shape (...)
        The 0-based position of the best surrogate (``k - 1``).

    Examples
    --------
    >>> best_surrogates(np.array([[0.3, 0.2, 0.2], [0.1 + 0.2, 0.3, 0.5]]))
    array([1, 0])
    """
    losses = np.asarray(losses, dtype=float)
    if losses.ndim < 1 or losses.shape[-1] == 0 or not np.isfinite(losses).all():
        raise ValueError("losses must be a finite array with surrogates on its last axis")
    return np.argmax(losses <= losses.min(axis=-1, keepdims=True) + TIE_TOL, axis=-1)


def surrogate_readings(losses: pd.DataFrame) -> pd.Series:
    """What Hüllermeier et al. (Sec. 6, Fig. 4) read off one surrogate-by-target table.

    Parameters
    ----------
    losses : DataFrame
        Mean target loss: rows are the target ``k = 1..K``, columns the surrogate
        ``k = 1..K`` (e.g. :func:`mlcrepro.huellermeier2022.knn_fig4.loss_matrix`).  The best
        surrogate of a row is its smallest loss; ties (:data:`TIE_TOL`) go to the smaller
        ``k``, and a surrogate is worse than another only by more than that.

    Returns
    -------
    Series with
        ``K``; ``best k non-decreasing`` (the best surrogate never falls as the
        target grows); ``best k at target K``; ``excess of best k <= K/2 at target
        K`` (how much worse the best surrogate with ``k <= K/2`` is on the subset
        0/1 target); ``targets with best k > target``; ``Hamming surrogate rank at
        target K (1 = worst)`` and ``subset 0/1 surrogate rank at target K (1 =
        worst)`` (1 + the number of surrogates strictly worse); ``rows where subset
        0/1 surrogate is worst``.
    """
    if not isinstance(losses, pd.DataFrame):
        raise TypeError(f"losses must be a DataFrame, got {type(losses).__name__}")
    K = losses.shape[0]
    ks = list(range(1, K + 1))
    if K == 0 or list(losses.index) != ks or list(losses.columns) != ks:
        raise ValueError("losses must have rows and columns k = 1..K (target, surrogate)")
    if not np.isfinite(losses.to_numpy(dtype=float)).all():
        raise ValueError("losses must be finite")
    best = pd.Series(best_surrogates(losses.to_numpy(dtype=float)) + 1, index=losses.index)
    last = losses.loc[K]
    tol = TIE_TOL
    return pd.Series(
        {
            "K": K,
            "best k non-decreasing": bool((np.diff(best.to_numpy()) >= 0).all()),
            "best k at target K": int(best[K]),
            "excess of best k <= K/2 at target K": float(
                last[last.index <= K / 2].min() - last.min()
            ),
            "targets with best k > target": int((best > best.index).sum()),
            "Hamming surrogate rank at target K (1 = worst)": int((last > last[1] + tol).sum())
            + 1,
            "subset 0/1 surrogate rank at target K (1 = worst)": int((last > last[K] + tol).sum())
            + 1,
            "rows where subset 0/1 surrogate is worst": int(
                (losses.to_numpy(dtype=float).max(axis=1) <= losses[K].to_numpy() + tol).sum()
            ),
        },
        dtype=object,
    )
