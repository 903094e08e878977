"""The evidence of the blended-metric chapter (Park & Read 2018), computed once per process.

Every table the chapter ``book/blended.md`` shows and its ledger
(:mod:`.ledger_blended`) judges comes from one function here: the worked examples of
Sec. 2 (Table 1, the undetermined counts), the limits, the monotonicity in alpha and
the gradient check (seeded random matrices), and the experiment of Sec. 4 read from
its committed tables (:mod:`.readings`, :mod:`.grid`) with the reading the chapter's
rule chooses.  Each result is computed once per process and handed out as a copy, so
that a caller may change what it receives without changing what the next caller gets.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
import pandas as pd
from scipy.optimize import check_grad

from mlcbook import metrics
from mlcbook.blended import blended_objective, blended_similarity, soft_confusion
from mlcrepro.ledger import Cause
from mlcrepro.park_read2018 import findings as bf
from mlcrepro.park_read2018 import readings as bs
from mlcrepro.park_read2018 import tables as bt
from mlcrepro.park_read2018.grid import GRID_ALPHAS, GRID_BETAS, load_blended_grid

__all__ = [
    "TABLE1_PREDICTIONS",
    "TABLE1_TRUTH",
    "COUNTS",
    "table1",
    "counts",
    "random_matrices",
    "limits",
    "monotone_in_alpha",
    "gradient_errors",
    "grids",
    "fit",
    "chosen_reading",
    "penalty_match",
    "split_spread",
    "enron_best_test",
    "full_grid",
    "causes",
]

#: Table 1 of the paper: the five predictions y_k and truths t_k (four labels)
TABLE1_PREDICTIONS = np.array(
    [[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 0, 1], [0, 1, 1, 0], [1, 0, 0, 0]]
)
TABLE1_TRUTH = np.array([[1, 0, 0, 1], [0, 1, 0, 1], [1, 0, 0, 1], [0, 1, 0, 0], [1, 0, 0, 1]])
#: the four confusion counts, in the paper's order
COUNTS = ("tp", "fp", "fn", "tn")

T = TypeVar("T")


def _once(func: Callable[[], T]) -> Callable[[], T]:
    """Compute ``func()`` once per process; every call gets its own deep copy."""
    cached = functools.cache(func)

    @functools.wraps(func)
    def wrapper() -> T:
        return copy.deepcopy(cached())

    return wrapper


@_once
def table1() -> pd.DataFrame:
    """Table 1: the three similarities of each instance, as limits of the blend, and their mean.

    Hamming ``s(1, 1)``, Exact ``s(1, inf)``, Jaccard ``s(0, 1)``
    (:func:`mlcbook.blended.blended_similarity`); the last row is the mean.
    """
    settings = {"Hamming s(1,1)": (1, 1), "Exact s(1,inf)": (1, np.inf), "Jaccard s(0,1)": (0, 1)}
    Y, Tr = TABLE1_PREDICTIONS, TABLE1_TRUTH
    rows = [f"x{k}: y={y}, t={t}" for k, (y, t) in enumerate(zip(Y, Tr), 1)]
    table = pd.DataFrame(
        {k: blended_similarity(Tr, Y, a, b, per_instance=True) for k, (a, b) in settings.items()},
        index=rows,
    )
    table.loc["mean"] = table.mean()
    return table


@_once
def counts() -> tuple[pd.Series, pd.Series]:
    """Sec. 2.2's example t = [1 0 1], z = [0.6 0.4 0.2]: undetermined and rounded counts."""
    soft = soft_confusion([1, 0, 1], [0.6, 0.4, 0.2])
    hard = soft_confusion([1, 0, 1], [1, 0, 0])  # z rounded: y = [1 0 0]
    return (
        pd.Series({k: float(getattr(soft, k)[0]) for k in COUNTS}),
        pd.Series({k: int(getattr(hard, k)[0]) for k in COUNTS}),
    )


@_once
def random_matrices() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """500 x 5 random truths, 0/1 predictions (density 0.15) and scores (seed 0, in order)."""
    rng = np.random.default_rng(0)
    T_r = (rng.random((500, 5)) < 0.15).astype(int)
    P_r = (rng.random((500, 5)) < 0.15).astype(int)
    Z_r = rng.random((500, 5))
    return T_r, P_r, Z_r


@_once
def limits() -> pd.Series:
    """The blend minus each measure it tends to (Sec. 2.1, 2.3) on :func:`random_matrices`."""
    T_r, P_r, _ = random_matrices()
    return pd.Series(
        {
            "Hamming: s(1,1) - (1 - hamming_loss)": blended_similarity(T_r, P_r, 1, 1)
            - 1
            + metrics.hamming_loss(T_r, P_r),
            "Jaccard: s(1e-9,1) - jaccard_score": blended_similarity(T_r, P_r, 1e-9, 1)
            - metrics.jaccard_score(T_r, P_r),
            "Exact: s(0.5,1e6) - subset_accuracy": blended_similarity(T_r, P_r, 0.5, 1e6)
            - metrics.subset_accuracy(T_r, P_r),
        }
    )


@_once
def monotone_in_alpha() -> bool:
    """Whether s(alpha, 2) is non-decreasing in 21 alphas for all 500 undetermined rows."""
    T_r, _, Z_r = random_matrices()
    s = np.array(
        [blended_similarity(T_r, Z_r, a, 2, per_instance=True) for a in np.linspace(0, 1, 21)]
    )
    return bool(np.all(np.diff(s, axis=0) >= -1e-12))


@_once
def gradient_errors() -> list[float]:
    """Relative error of the analytic gradient (eq. 10) against finite differences.

    One value per (alpha, beta) of the grid (and alpha = 0): 40 instances, 5 features,
    6 labels (three instances without labels), gamma = 1e-3, seed 1
    (:func:`scipy.optimize.check_grad`, epsilon 1e-7).
    """
    rng = np.random.default_rng(1)
    K, M, L = 40, 5, 6
    Xg, Tg = rng.normal(size=(K, M)), (rng.random((K, L)) < 0.3).astype(int)
    Tg[:3] = 0  # instances without labels

    def obj(x: np.ndarray, a: float, b: float) -> tuple[float, np.ndarray]:
        W = x[: L * M].reshape(L, M)
        J, gW, gb = blended_objective(W, Xg, Tg, a, b, 1e-3, intercept=x[L * M :])
        return J, np.concatenate([gW.ravel(), gb])

    errors = []
    for a in (0.0, *GRID_ALPHAS):
        for b in GRID_BETAS:
            x0 = rng.normal(scale=0.4, size=L * M + L)
            value = functools.partial(lambda x, a, b: obj(x, a, b)[0], a=a, b=b)
            grad = functools.partial(lambda x, a, b: obj(x, a, b)[1], a=a, b=b)
            err = check_grad(value, grad, x0, epsilon=1e-7)
            errors.append(float(err / np.linalg.norm(grad(x0))))
    return errors


@_once
def grids() -> dict[str, pd.DataFrame]:
    """The committed grids: ``"earlier"`` and one per reading of :data:`.readings.READINGS`."""
    return {"earlier": load_blended_grid(), **{r: bs.load_study(r) for r in bs.READINGS}}


@_once
def fit() -> pd.DataFrame:
    """Mean |ours - paper| over Tables 2-4, per grid (:func:`.tables.fit_to_paper`)."""
    return bt.fit_to_paper(grids())


@_once
def chosen_reading() -> str:
    """The reading that fits the paper better (:func:`.findings.choose_reading`)."""
    return bf.choose_reading(fit().loc[list(bs.READINGS)])


@_once
def penalty_match() -> pd.DataFrame:
    """The fixed penalty nearest the paper per base (:func:`.findings.penalty_match`)."""
    return bf.penalty_match(bs.load_penalty())


@_once
def split_spread() -> pd.DataFrame:
    """Enron's best test exact match over seeds and penalties (:func:`.findings.split_spread`)."""
    return bf.split_spread(bs.load_split_check())


@_once
def enron_best_test() -> float:
    """Our best test exact match on Enron (seed 0, the chosen reading, Table 4)."""
    full, _ = bt.fill_missing(grids()[chosen_reading()], grids()["earlier"])
    ex = bt.our_table(full, "exact")
    return float(ex.query("Data == 'Enron' and Type == 'Test'")["ours"].iloc[0])


@_once
def full_grid() -> tuple[pd.DataFrame, list[str]]:
    """The chosen reading's grid with missing datasets from the earlier grid, and their names."""
    return bt.fill_missing(grids()[chosen_reading()], grids()["earlier"])


def causes() -> dict[str, Cause]:
    """The causes of the chapter's differing rows (:func:`.findings.causes`), made once.

    Made anew on each call: a cause shared by rows must come from one call.  ``earlier``
    is the cause of rows read from the earlier grid (the test cause if there are none).
    """
    study = grids()
    c: dict[str, Any] = bf.causes(
        penalty_match(),
        split_spread(),
        bs.load_penalty(),
        enron_best_test=enron_best_test(),
        ranges=bf.split_ranges(bs.load_split_check()),
        ascent=study["ascent"],
        chosen=chosen_reading(),
    )
    _, earlier = full_grid()
    c["earlier"] = bf.earlier_cause(earlier) if earlier else c["test"]
    return c
