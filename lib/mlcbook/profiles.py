"""Loss profiles of predictions and the ratio of two learners' profiles.

Hüllermeier et al. (2022, Sec. 5) compare learners by their *loss profiles*: the
binomial loss :math:`\\ell_{bin}` for every :math:`k = 1, \\dots, K` (eq. 18) and the
polynomial loss :math:`\\ell_{poly}` on a grid of :math:`\\alpha \\in [1, 1000]` (eq. 17),
computed on out-of-sample predictions, pooled over folds, and read as the ratio of
two learners' curves (Figs 2-3).  This module holds that vocabulary for any
predictions, not only the paper's:

* :func:`cv_folds` — seeded K-fold splits shared by every learner (paired folds);
* :func:`evaluate_predictions` — one profile, in long format;
* :func:`pooled_mean` — per-row means pooled, weighted by their counts (one group each);
  :func:`pooled_mean_draws` — the same for many draws of units at once (bootstrap
  resamples of folds), to the bit;
* :func:`pooled_profiles` — fold profiles pooled, weighted by test-fold size;
* :func:`loss_ratios` / :func:`curve_summary` — two learners' profiles compared;
* :class:`LogGrid` / :data:`ALPHAS` — the alpha grid, identified by its specification.

Examples
--------
>>> import numpy as np
>>> from mlcbook.profiles import evaluate_predictions
>>> Y = np.array([[1, 0, 1], [0, 1, 0]])
>>> P = np.array([[1, 0, 0], [0, 1, 0]])
>>> prof = evaluate_predictions(Y, P, alphas=[1.0])
>>> prof[prof.family == "binomial"]["loss"].round(4).tolist()
[0.1667, 0.3333, 0.5]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.model_selection import KFold

from . import _grids
from ._grids import LogGrid
from ._validation import (
    check_bool,
    check_label_matrix,
    check_positive_int,
    check_same_shape,
    check_score_matrix,
)
from .losses import loss_profile

__all__ = [
    "ALPHAS",
    "LogGrid",
    "cv_folds",
    "curve_summary",
    "evaluate_predictions",
    "loss_ratios",
    "pooled_mean",
    "pooled_mean_draws",
    "pooled_profiles",
]


#: Log grid of the polynomial loss parameter, 1 <= alpha <= 1000 (8 points a decade),
#: identified by its specification ``"logspace(0, 3, 25)"`` (its floats differ in the
#: last bit between CPUs).
ALPHAS: LogGrid = _grids.ALPHAS


def cv_folds(
    n_samples: int, n_folds: int = 10, seed: int = 0
) -> list[tuple[np.ndarray, np.ndarray]]:
    """The paired folds: ``KFold(n_folds, shuffle=True, random_state=seed)``.

    Returns
    -------
    list of (train_index, test_index)
    """
    n_samples = check_positive_int(n_samples, "n_samples")
    n_folds = check_positive_int(n_folds, "n_folds", low=2)
    kf = KFold(n_splits=n_folds, shuffle=True, random_state=seed)
    return list(kf.split(np.zeros((n_samples, 1))))


def evaluate_predictions(Y: Any, P: Any, alphas: Iterable[float] = ALPHAS) -> pd.DataFrame:
    """Binomial loss for k = 1..K and polynomial loss on ``alphas`` (long format).

    Returns
    -------
    DataFrame with columns ``family`` ('binomial'/'polynomial'), ``param``, ``loss``
    (the mean over the rows of ``Y``).
    """
    Yc = check_label_matrix(Y, "Y", allow_sparse=False)
    if sp.issparse(P):
        check_label_matrix(P, "P")
    else:  # named here: the loss functions call their argument S
        check_same_shape(Yc, check_score_matrix(P, "P", unit_interval=True), "Y", "P")
    K = Yc.shape[1]
    ks = np.arange(1, K + 1)
    if isinstance(alphas, LogGrid):
        alphas = alphas.values
    elif isinstance(alphas, (str, bytes)) or not isinstance(alphas, Iterable):
        raise TypeError(f"alphas must be an iterable of numbers, got {type(alphas).__name__}")
    alphas = np.asarray(list(alphas))
    # real numbers only: a cast to float drops an imaginary part and parses text
    if alphas.dtype.kind not in "biuf" or alphas.ndim != 1:
        raise TypeError(
            f"alphas must be a 1-D sequence of real numbers, got dtype {alphas.dtype} "
            f"and shape {alphas.shape}"
        )
    if alphas.size == 0:
        raise ValueError("alphas must not be empty")
    alphas = alphas.astype(float)
    lb = loss_profile(Yc, P, "binomial", ks)
    lp = loss_profile(Yc, P, "polynomial", alphas)
    return pd.DataFrame(
        {
            "family": ["binomial"] * K + ["polynomial"] * len(alphas),
            "param": np.concatenate([ks.astype(float), alphas]),
            "loss": np.concatenate([lb, lp]),
        }
    )


_CURVE_POINT = ["dataset", "K", "learner", "family", "param"]


def _check_pooling(
    table: Any, by: list[str], numbers: dict[str, bool], *, weight: str | None = None
) -> None:
    """Refuse a table that pooling would turn into a silent wrong number: missing
    columns, no rows, a missing group key, a number that is not finite, a count that is
    not a positive integer (``numbers``: column -> integer), or a weight that is not
    positive."""
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"table must be a pandas DataFrame, got {type(table).__name__}")
    need = list(dict.fromkeys([*by, *numbers]))
    missing = [c for c in need if c not in table.columns]
    if missing:
        raise ValueError(f"table lacks the columns {missing} (it needs {need})")
    if table.empty:
        raise ValueError("table has no rows")

    def where(bad: np.ndarray) -> str:
        row = table.loc[bad].iloc[0]
        first = ", ".join(f"{c}={row[c]!r}" for c in by)
        return f"{int(bad.sum())} of {len(table)} rows, the first {first}"

    for col in (c for c in by if c not in numbers):
        bad = table[col].isna().to_numpy()
        if bad.any():  # groupby would drop these rows without a word
            raise ValueError(
                f"table[{col!r}] is missing on {int(bad.sum())} of {len(table)} rows "
                f"(the first is row {table.index[bad][0]!r}); every row needs its {col}"
            )
    for col, integer in numbers.items():
        values = table[col]
        if values.dtype == bool or not pd.api.types.is_numeric_dtype(values.dtype):
            raise TypeError(f"table[{col!r}] must hold numbers, got dtype {values.dtype}")
        if pd.api.types.is_complex_dtype(values.dtype):
            raise TypeError(f"table[{col!r}] must hold real numbers, got dtype {values.dtype}")
        v = values.to_numpy(dtype=float, na_value=np.nan)
        bad = ~np.isfinite(v)
        if integer:
            bad |= ~bad & ((v < 1) | (v != np.round(v)))
        elif col == weight:
            bad |= ~bad & (v <= 0)
        if bad.any():
            what = "a positive integer" if integer else "a finite number"
            what = "a positive number" if col == weight and not integer else what
            raise ValueError(
                f"table[{col!r}] must be {what} on every row (NaN, infinite"
                f"{', zero or fractional' if integer else ''} values cannot be pooled): "
                f"{where(bad)} holds {values[bad].iloc[0]!r}"
            )


def pooled_mean(
    table: pd.DataFrame,
    by: Sequence[str],
    *,
    value: str = "loss",
    weight: str = "n_test",
    sort: bool = False,
) -> pd.DataFrame:
    """The mean of ``value`` over all the instances of each group: per-row means pooled.

    Each row holds the mean ``value`` of ``weight`` instances (e.g. one fold's mean loss
    over its ``n_test`` test instances); a group's pooled mean is
    ``sum(value * weight) / sum(weight)``, the mean over all its instances together
    (the loss of the pooled out-of-sample predictions, not a mean of fold means).

    Parameters
    ----------
    table : DataFrame
        The columns ``by``, ``value`` (finite numbers) and ``weight`` (positive).
    by : sequence of str
        The columns naming a group (none of them missing on any row).
    value, weight : str
        The columns of the per-row mean and of its count.
    sort : bool
        Order the groups by their keys; False keeps their order of first appearance.

    Returns
    -------
    DataFrame
        One row per group: the columns ``by``, ``value`` (the pooled mean) and
        ``weight`` (the summed count).

    Raises
    ------
    ValueError, TypeError
        A column is missing or of the wrong kind, a key is missing, a value is NaN or
        infinite, a weight is not positive (a NaN would be skipped by the sum, weights
        adding up to 0 would pool to 0/0): the message names the column and the first
        such row.

    Examples
    --------
    >>> folds = pd.DataFrame({"learner": ["A", "A", "B"], "loss": [0.1, 0.3, 0.5],
    ...                       "n_test": [10, 30, 5]})
    >>> pooled_mean(folds, ["learner"])
      learner  loss  n_test
    0       A  0.25      40
    1       B  0.50       5
    """
    if isinstance(by, str) or not all(isinstance(c, str) for c in by):
        raise TypeError(f"by must be a sequence of column names, got {by!r}")
    sort = check_bool(sort, "sort")
    keys = list(by)
    _check_pooling(table, keys, {value: False, weight: False}, weight=weight)
    t = table.assign(_w=table[value] * table[weight])
    g = t.groupby(keys, sort=sort)[["_w", weight]].sum().reset_index()
    g[value] = g.pop("_w") / g[weight]
    return g[[*keys, value, weight]]


def pooled_mean_draws(value: Any, weight: Any, draws: Any) -> np.ndarray:
    """:func:`pooled_mean` of many draws of units at once (e.g. bootstrap resamples of folds).

    ``value[u, g]`` is unit ``u``'s mean over ``weight[u, g]`` instances of group ``g``
    (NaN: the unit has no row of the group); row ``r`` of ``draws`` lists the units of
    one draw, with repetition.  Each draw's pooled mean of each group is
    ``sum(value * weight) / sum(weight)`` over its drawn units that have the group,
    the sums of ``value * weight`` taken in draw order with Kahan's compensation: the
    same operations, to the bit, as :func:`pooled_mean` (pandas' grouped sum) on the
    draw's rows concatenated in draw order, without building them.

    Parameters
    ----------
    value : array-like of shape (n_units, n_groups)
        Finite per-unit means, NaN where a unit has no row of a group.
    weight : array-like of shape (n_units, n_groups)
        The counts behind ``value``: positive where ``value`` is a number (read there
        only).
    draws : array-like of int, shape (n_draws, k)
        Row ``r``: the units (indices into the rows of ``value``) of draw ``r``.

    Returns
    -------
    numpy.ndarray of shape (n_draws, n_groups)
        The pooled means; NaN where no drawn unit has the group.

    Raises
    ------
    ValueError
        Shapes that do not match, a value infinite, a weight not positive where its
        value is a number, or a draw naming no unit.

    Examples
    --------
    >>> value = np.array([[0.1, np.nan], [0.3, 0.5]])  # unit 0 has no row of group 1
    >>> weight = np.array([[10, 0], [30, 5]])
    >>> pooled_mean_draws(value, weight, [[0, 1], [0, 0]]).round(12).tolist()
    [[0.25, 0.5], [0.1, nan]]
    """
    v = np.asarray(value, dtype=float)
    n = np.asarray(weight, dtype=float)
    d = np.asarray(draws)
    if v.ndim != 2 or n.shape != v.shape:
        raise ValueError(
            f"value and weight must be 2-D arrays of one shape, got {v.shape} and {n.shape}"
        )
    has = ~np.isnan(v)
    if np.isinf(v).any() or not (n[has] > 0).all():
        raise ValueError("value must be finite or NaN, and weight positive where value is not NaN")
    if d.ndim != 2 or d.dtype.kind not in "iu" or ((d < 0) | (d >= len(v))).any():
        raise ValueError(f"draws must be a 2-D array of unit indices in [0, {len(v)})")
    w = v * n  # NaN where a unit has no row: it adds nothing (pandas skips it)
    total = np.zeros((len(d), v.shape[1]))
    carry = np.zeros_like(total)  # Kahan's compensation, as pandas' grouped sum
    count = np.zeros_like(total)  # sums of integers: exact
    for i in range(d.shape[1]):  # the i-th drawn unit of every draw
        y = w[d[:, i]] - carry
        drawn = has[d[:, i]]
        t = total + y
        carry = np.where(drawn, (t - total) - y, carry)
        total = np.where(drawn, t, total)
        count += np.where(drawn, n[d[:, i]], 0.0)
    with np.errstate(invalid="ignore"):
        return np.where(count > 0, total / count, np.nan)


def pooled_profiles(table: pd.DataFrame) -> pd.DataFrame:
    """Loss of the pooled out-of-sample predictions (fold means weighted by ``n_test``).

    :func:`pooled_mean` of each curve point ``(dataset, K, learner, family, param)``,
    with the point's position on its curve.

    Parameters
    ----------
    table : DataFrame
        One row per fold and curve point, with columns ``dataset, K, learner, family,
        param, loss, n_test`` (e.g. :func:`evaluate_predictions` of each fold with the
        fold's size): ``loss`` and ``param`` finite numbers, ``n_test`` and ``K``
        positive integers.

    Returns
    -------
    DataFrame with columns ``dataset, K, learner, family, param, loss``, plus
    ``x``: ``(k-1)/(K-1)`` for the binomial family, ``alpha`` for the polynomial one.

    Raises
    ------
    ValueError
        A column is missing, the table is empty, a dataset, learner or family is
        missing, or a number is NaN, infinite or out of range (a NaN loss would be
        skipped by the sum, and folds of size 0 would pool to 0/0): the message names
        the column and the first such row.
    TypeError
        A numeric column holds something else (text, booleans, complex numbers).
    """
    numbers = {"loss": False, "param": False, "n_test": True, "K": True}
    _check_pooling(table, _CURVE_POINT, numbers)
    g = pooled_mean(table, _CURVE_POINT).drop(columns="n_test")
    K = g["K"].astype(float)
    g["x"] = np.where(
        g["family"] == "binomial", (g["param"] - 1) / np.maximum(K - 1, 1), g["param"]
    )
    return g


def loss_ratios(pooled: pd.DataFrame, first: str, second: str) -> pd.DataFrame:
    """Ratio ``loss(second) / loss(first)`` for every dataset, family and parameter.

    Above 1: the first learner is better; a decreasing curve means the second
    learner gains with the dependence-awareness of the loss (Figs 2–3).
    """
    keys = ["dataset", "K", "family", "param", "x"]
    a = pooled[pooled["learner"] == first].set_index(keys)["loss"]
    b = pooled[pooled["learner"] == second].set_index(keys)["loss"]
    if a.empty or b.empty:
        raise ValueError(f"no rows for learner {first!r} or {second!r}")
    r = (b / a).rename("ratio").reset_index()
    r.insert(0, "pair", f"{second}/{first}")
    return r


def curve_summary(
    pooled: pd.DataFrame, first: str, second: str, family: str = "binomial"
) -> pd.DataFrame:
    """Each dataset's curve of ``loss(second) / loss(first)`` along a loss family, in short.

    The ratio curves of Hüllermeier et al.'s Figs 2-3 (one per dataset), summarised
    by their value at the Hamming end (``start``: smallest parameter), at the other
    end (``end``: largest parameter), their ``min`` and ``max``, and ``falls``
    (``end < start``: the second learner gains as the loss demands more joint
    correctness).

    Parameters
    ----------
    pooled : DataFrame
        Columns ``dataset, learner, family, param, loss`` (one row per curve point),
        e.g. :func:`mlcbook.profiles.pooled_profiles`.
    first, second : str
        The learners; the ratio is the second's loss over the first's.
    family : str
        The loss family to read (``"binomial"`` or ``"polynomial"``).

    Returns
    -------
    DataFrame indexed by dataset (in order of first appearance) with columns
    ``start, end, min, max, falls``.
    """
    need = {"dataset", "learner", "family", "param", "loss"}
    if not isinstance(pooled, pd.DataFrame) or not need <= set(pooled.columns):
        raise ValueError(f"pooled must be a DataFrame with columns {sorted(need)}")
    rows = pooled[pooled["family"] == family]
    if rows.empty:
        raise ValueError(f"family {family!r} has no rows in pooled")
    keys = ["dataset", "param"]
    a = rows[rows["learner"] == first].set_index(keys)["loss"]
    b = rows[rows["learner"] == second].set_index(keys)["loss"]
    if a.empty or b.empty:
        raise ValueError(f"no rows for learner {first!r} or {second!r} in family {family!r}")
    ratio = (b / a).dropna().rename("ratio").reset_index().sort_values("param", kind="stable")
    g = ratio.groupby("dataset", sort=False)["ratio"]
    out = pd.DataFrame({"start": g.first(), "end": g.last(), "min": g.min(), "max": g.max()})
    out["falls"] = out["end"] < out["start"]
    order = [d for d in pd.unique(rows["dataset"]) if d in out.index]
    return out.loc[order]
