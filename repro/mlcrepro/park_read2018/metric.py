"""Park & Read (2018), Secs. 2-3: the blended metric checked against the library.

Pure functions of :mod:`mlcbook.blended` and :mod:`mlcbook.metrics` on the paper's worked
examples and on seeded random matrices: Table 1 as limits of the blend, the undetermined
counts of Sec. 2.2, the three limits, the monotonicity in alpha, eq. 8's increment, the
vector form of Sec. 2.3, the gradient (eq. 10) against finite differences and the
decoupling of the labels at ``alpha = beta = 1`` (Sec. 3.2).  Nothing here reads a
committed table; :func:`~mlcrepro.park_read2018.collect.evidence` calls each
function once.
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd
from scipy.optimize import check_grad

from mlcbook import metrics
from mlcbook.blended import (
    blended_objective,
    blended_similarity,
    blended_similarity_grad,
    soft_confusion,
)
from mlcrepro.evidence_common import identity_gap
from mlcrepro.park_read2018.grid import GRID_ALPHAS, GRID_BETAS
from mlcrepro.worked_examples import PARK_READ_TABLE1_PREDICTIONS, PARK_READ_TABLE1_TRUTH

__all__ = [
    "TABLE1_PREDICTIONS",
    "TABLE1_TRUTH",
    "COUNTS",
    "table1",
    "counts",
    "random_matrices",
    "limits",
    "eq8_increment",
    "monotone_in_alpha",
    "gradient_errors",
    "vector_form_gap",
    "cross_terms",
    "independent_gradient",
]

#: Table 1 of the paper: the five predictions y_k and truths t_k (four labels), whose
#: one owner is :mod:`mlcrepro.worked_examples` (the standard measures read them too)
TABLE1_PREDICTIONS = PARK_READ_TABLE1_PREDICTIONS
TABLE1_TRUTH = PARK_READ_TABLE1_TRUTH
#: the four confusion counts, in the paper's order
COUNTS = ("tp", "fp", "fn", "tn")


def _check_count(value: object, name: str, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    if not 1 <= int(value) <= high:
        raise ValueError(f"{name} must lie in [1, {high}], got {value}")
    return int(value)


def _check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an integer, got {type(seed).__name__}")
    if int(seed) < 0:
        raise ValueError(f"seed must be non-negative, got {seed}")
    return int(seed)


def table1() -> pd.DataFrame:
    """Table 1: the three similarities of each instance, as limits of the blend, and their mean.

    Hamming ``s(1, 1)``, Exact ``s(1, inf)``, Jaccard ``s(0, 1)``
    (:func:`mlcbook.blended.blended_similarity`); the last row is the mean.

    Examples
    --------
    >>> table1().loc["mean"].round(4).tolist()
    [0.8, 0.4, 0.6667]
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


def counts() -> tuple[pd.Series, pd.Series]:
    """Sec. 2.2's example t = [1 0 1], z = [0.6 0.4 0.2]: undetermined and rounded counts.

    Examples
    --------
    >>> soft, hard = counts()
    >>> soft.round(10).tolist(), hard.tolist()
    ([0.8, 0.4, 1.2, 0.6], [1, 0, 1, 1])
    """
    soft = soft_confusion([1, 0, 1], [0.6, 0.4, 0.2])
    hard = soft_confusion([1, 0, 1], [1, 0, 0])  # z rounded: y = [1 0 0]
    return (
        pd.Series({k: float(getattr(soft, k)[0]) for k in COUNTS}),
        pd.Series({k: int(getattr(hard, k)[0]) for k in COUNTS}),
    )


def random_matrices() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """500 x 5 random truths, 0/1 predictions (density 0.15) and scores (seed 0, in order)."""
    rng = np.random.default_rng(0)
    T_r = (rng.random((500, 5)) < 0.15).astype(int)
    P_r = (rng.random((500, 5)) < 0.15).astype(int)
    Z_r = rng.random((500, 5))
    return T_r, P_r, Z_r


def limits() -> pd.Series:
    """The blend minus each measure it tends to (Secs. 2.1, 2.3) on :func:`random_matrices`.

    Examples
    --------
    >>> bool(limits().abs().max() < 1e-8)
    True
    """
    T_r, P_r, _ = random_matrices()
    return pd.Series(
        {
            "Hamming: s(1,1) - (1 - hamming_loss)": blended_similarity(T_r, P_r, 1, 1)
            - 1
            + metrics.hamming_loss(T_r, P_r),
            "Jaccard: s(1e-9,1) - jaccard_score": blended_similarity(T_r, P_r, 1e-9, 1)
            - metrics.instance_jaccard(T_r, P_r),
            "Exact: s(0.5,1e6) - subset_accuracy": blended_similarity(T_r, P_r, 0.5, 1e6)
            - metrics.subset_accuracy(T_r, P_r),
        }
    )


def eq8_increment() -> pd.Series:
    """Eq. 8 as printed and as meant, against the blend at ``alpha + delta`` itself.

    On :func:`random_matrices`' 500 undetermined predictions, with ``alpha = 0.3``,
    ``delta = 0.2``, ``beta = 1``: the largest difference between
    ``s(z, t; alpha + delta)`` (:func:`~mlcbook.blended.blended_similarity`) and eq. 8
    with the increment as printed, ``delta (1 - t_k)`` read as the only scalar it can
    be, ``delta`` times the number of irrelevant labels, and as meant,
    ``delta p_k^T (1 - t_k)`` with the correctness ``p_k`` of eq. 7.
    """
    T_r, _, Z_r = random_matrices()
    alpha, delta = 0.3, 0.2
    L = T_r.shape[1]
    p = np.where(T_r == 1, Z_r, 1 - Z_r)  # eq. 7
    a = np.where(T_r == 1, 1.0, alpha)
    b = np.where(T_r == 1, 0.0, alpha - 1)
    num, den = (p * a).sum(1), L + (p * b).sum(1)
    printed = delta * (1 - T_r).sum(1)
    meant = delta * (p * (1 - T_r)).sum(1)
    direct = blended_similarity(T_r, Z_r, alpha + delta, 1, per_instance=True)
    return pd.Series(
        {
            "as printed: delta (1 - t_k)": float(
                np.abs((num + printed) / (den + printed) - direct).max()
            ),
            "as meant: delta p_k'(1 - t_k)": float(
                np.abs((num + meant) / (den + meant) - direct).max()
            ),
        }
    )


def monotone_in_alpha() -> bool:
    """Whether s(alpha, 2) is non-decreasing in 21 alphas for all 500 undetermined rows."""
    T_r, _, Z_r = random_matrices()
    s = np.array(
        [blended_similarity(T_r, Z_r, a, 2, per_instance=True) for a in np.linspace(0, 1, 21)]
    )
    return bool(np.all(np.diff(s, axis=0) >= -1e-12))


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


def vector_form_gap(*, seed: int = 0, n: int = 500) -> float:
    """Sec. 2.3: the largest gap between ``p'a / (L + p'b)`` and the count form (5).

    Random t, z (n x L, L = 2..8) and alpha in [0, 1]; the count form
    ``(TP + alpha TN) / (L - (1 - alpha) TN)`` from :func:`mlcbook.blended.soft_confusion`
    against :func:`mlcbook.blended.blended_similarity` (beta = 1), which evaluates the
    vector form with ``p = z^t (1 - z)^(1 - t)``, ``a = t + alpha (1 - t)``,
    ``b = (alpha - 1)(1 - t)``.  Rounded by :func:`~mlcrepro.evidence_common.identity_gap`.

    Examples
    --------
    >>> vector_form_gap(n=50)
    0.0
    """
    seed, n = _check_seed(seed), _check_count(n, "n", 100_000)
    gap = 0.0
    for Lk, ss in zip(range(2, 9), np.random.SeedSequence(seed).spawn(7)):
        rng = np.random.default_rng(ss)
        T = rng.integers(0, 2, (n, Lk))
        T[0] = 1  # keep every denominator positive at alpha = 0
        Z = rng.random((n, Lk))
        for alpha in rng.random(5):
            c = soft_confusion(T, Z)
            count = (c.tp + alpha * c.tn) / (Lk - (1 - alpha) * c.tn)
            vec = blended_similarity(T, Z, alpha, 1.0, per_instance=True)
            gap = max(gap, float(np.abs(count - vec).max()))
    return identity_gap(gap)


def cross_terms(T: np.ndarray, Z: np.ndarray, alpha: float, beta: float, delta: float) -> float:
    """Largest change of label i's gradient entry when another label's z_k moves by delta."""
    g0 = blended_similarity_grad(T, Z, alpha, beta)
    out = 0.0
    for k in range(Z.shape[1]):
        Zk = Z.copy()
        Zk[:, k] = np.clip(Zk[:, k] + delta, 0.0, 1.0)
        d = np.abs(blended_similarity_grad(T, Zk, alpha, beta) - g0)
        d[:, k] = 0.0  # label k's own entry may change
        out = max(out, float(d.max()))
    return out


def independent_gradient(*, seed: int = 0, n: int = 200) -> tuple[float, float]:
    """Sec. 3.2: at alpha = beta = 1 the gradient of label i depends on w_i only.

    The gradient with respect to w_i is ``(ds/dz_i)(dz_i/dw_i)``; so it is enough that
    ``ds/dz_i`` does not change when another label's score moves.  On random t, z
    (n x 5), each other label's z_k is moved by 0.1 and the largest change of
    label i's entry of :func:`mlcbook.blended.blended_similarity_grad` recorded (a
    finite change: the labels are independent, not just to first order).

    Returns
    -------
    (float, float)
        That change at ``alpha = beta = 1`` (rounded by
        :func:`~mlcrepro.evidence_common.identity_gap`), and the smallest such change
        at the 8 other settings of alpha in {0, 0.5, 1} x beta in {1, 2, 8}, which
        shows that the check can see a dependence.
    """
    seed, n = _check_seed(seed), _check_count(n, "n", 10_000)
    rng = np.random.default_rng(seed)
    T = rng.integers(0, 2, (n, 5))
    Z = rng.uniform(0.05, 0.85, (n, 5))
    at_11 = cross_terms(T, Z, 1.0, 1.0, 0.1)
    others = min(
        cross_terms(T, Z, a, b, 0.1)
        for a in (0.0, 0.5, 1.0)
        for b in (1.0, 2.0, 8.0)
        if (a, b) != (1.0, 1.0)
    )
    return identity_gap(at_11), others
