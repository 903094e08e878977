"""The seeded problems the measures are checked on, and the conventions' four instances.

Every random draw of the measures' evidence starts here, from a fixed seed, so that the
ledger's numbers are the same on every run:

* :func:`benchmark_problem` -- a benchmark-like problem (seed 2024): 2,000 instances,
  20 correlated labels, scores with ties, and the single-label and "effective" scores
  drawn after it from the same generator;
* :func:`random_label_pair` -- small random truth/prediction pairs with empty label
  sets, on which the definitions are compared with scikit-learn;
* :data:`EDGE_TRUTH`, :data:`EDGE_SCORES` -- four instances, one per convention (no
  relevant label, all relevant, tied scores, ordinary).
"""

from __future__ import annotations

import functools
import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "EDGE_TRUTH",
    "EDGE_SCORES",
    "Draws",
    "draws",
    "benchmark_problem",
    "random_label_pair",
]


def _frozen(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array


#: the conventions' four instances: no relevant label, all relevant, tied scores, ordinary
EDGE_TRUTH = _frozen(np.array([[0, 0, 0, 0], [1, 1, 1, 1], [1, 0, 1, 0], [1, 0, 0, 1]]))
#: their scores (the third instance ties each relevant label with an irrelevant one)
EDGE_SCORES = _frozen(
    np.array(
        [[0.9, 0.1, 0.4, 0.2], [0.3, 0.8, 0.5, 0.1], [0.5, 0.5, 0.2, 0.2], [0.7, 0.6, 0.1, 0.4]]
    )
)


@dataclass(frozen=True)
class Draws:
    """Every random draw of the benchmark-like problem (read-only arrays)."""

    Y: np.ndarray  #: truth, (2000, 20)
    F: np.ndarray  #: scores, two decimals
    P: np.ndarray  #: predictions, F >= 0.5
    y_class: np.ndarray  #: single-label truth, one class of 20 per instance
    p_class: np.ndarray  #: single-label prediction, 30% replaced by a random class
    F_eff: np.ndarray  #: label-wise effective scores for Y


@functools.cache
def draws() -> Draws:
    """Every random draw of the benchmark-like problem, from one generator (seed 2024).

    In order: the truth ``Y`` (n = 2000, K = 20 labels with frequencies falling from
    about 40% to 2%, correlated through a three-factor latent model; every row has a
    relevant and an irrelevant label), the scores ``F`` (a noisy logit, rounded to two
    decimals so that ties occur), single-label classes ``y_class`` and predictions
    ``p_class`` (30% replaced by a random class), and label-wise effective scores
    ``F_eff`` (relevant in (1, 1.5), irrelevant in (0, 0.5)); ``P`` thresholds ``F`` at
    0.5.  Computed once; the arrays are read-only.
    """
    rng = np.random.default_rng(2024)
    n, K = 2000, 20
    freq = 0.4 * (0.05 / 0.4) ** (np.arange(K) / (K - 1))  # 40% ... 2%
    latent = rng.normal(size=(n, 3)) @ rng.normal(size=(3, K))  # correlated labels
    logit = np.log(freq / (1 - freq)) + latent
    Y = (rng.random((n, K)) < 1 / (1 + np.exp(-logit))).astype(int)
    Y[np.arange(n), rng.integers(0, K, n)] = 1  # at least one relevant label
    full = Y.sum(axis=1) == K
    Y[full, rng.integers(0, K, full.sum())] = 0  # and at least one irrelevant
    F = np.round(1 / (1 + np.exp(-(logit + rng.normal(scale=1.0, size=(n, K))))), 2)
    y_class = rng.integers(0, K, n)
    p_class = np.where(rng.random(n) < 0.3, rng.integers(0, K, n), y_class)
    F_eff = Y + 0.5 * rng.random((n, K))
    P = (F >= 0.5).astype(int)
    return Draws(*(_frozen(a) for a in (Y, F, P, y_class, p_class, F_eff)))


def benchmark_problem() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The benchmark-like problem: truth ``Y``, scores ``F`` (two decimals), predictions ``P``.

    See :func:`draws` for the model.

    >>> Y, F, P = benchmark_problem()
    >>> Y.shape, bool(((Y.sum(axis=1) > 0) & (Y.sum(axis=1) < 20)).all())
    ((2000, 20), True)
    """
    d = draws()
    return d.Y, d.F, d.P


def random_label_pair(
    n: int, K: int, *, density: float = 0.35, seed: Any = 0
) -> tuple[np.ndarray, np.ndarray]:
    """A seeded random truth ``Y`` and prediction ``P`` (0/1, shape (n, K)).

    A prediction agrees with the truth on each label with probability 0.7, so the pairs
    cover exact hits, partial overlaps and empty label sets.

    Parameters
    ----------
    n, K : int
        Instances and labels (positive).
    density : float in [0, 1]
        Probability that a true label is relevant.
    seed : int, SeedSequence or Generator
        Anything :func:`numpy.random.default_rng` accepts.

    Returns
    -------
    Y, P : ndarray of int8, shape (n, K)

    Examples
    --------
    >>> Y, P = random_label_pair(3, 4, seed=1)
    >>> Y.shape, P.dtype.name
    ((3, 4), 'int8')
    """
    for name, value in (("n", n), ("K", K)):
        if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    if not isinstance(density, numbers.Real) or not 0.0 <= float(density) <= 1.0:
        raise ValueError(f"density must be a number in [0, 1], got {density!r}")
    rng = np.random.default_rng(seed)
    Y = (rng.random((n, K)) < density).astype(np.int8)
    flip = rng.random((n, K)) < 0.3
    return Y, np.where(flip, 1 - Y, Y).astype(np.int8)
