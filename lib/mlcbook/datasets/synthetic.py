"""Synthetic data of Wu & Zhou (2017), Sec. 5.1.

The paper draws 2000 points uniformly from the square :math:`(-1, 1)^2` and assigns
four labels :math:`\\{A, B, C, D\\}` by "four regions" around the centre
:math:`(0, 0)` (its Figure 1), such that the number of co-occurring labels varies,
every label covers a different region, and no linear model separates the data.
Figure 1 is not in our copy of the paper, so the regions are our own design from
that description: the four quadrants, with

=========  ==================  ==========
quadrant   where               label set
=========  ==================  ==========
I          x > 0, y > 0        {A}
II         x < 0, y > 0        {A, B, C}
III        x < 0, y < 0        {A, C}
IV         x > 0, y < 0        {B, C, D}
=========  ==================  ==========

Label set sizes are 1, 3, 2 and 3.  A and C cover three quadrants, B two opposite
ones, D one: none of the four is a half-plane, so no linear classifier (with or
without intercept) gets any label perfectly right.
"""

from __future__ import annotations

import numpy as np

from .._validation import Int, Seed, check_positive_int, validate_params

__all__ = ["make_limo_synthetic", "LIMO_SYNTHETIC_REGIONS", "LIMO_SYNTHETIC_LABELS"]

LIMO_SYNTHETIC_LABELS: tuple[str, ...] = ("A", "B", "C", "D")

#: Label set (0/1 over A, B, C, D) of quadrants I, II, III, IV.
LIMO_SYNTHETIC_REGIONS: dict[str, tuple[int, int, int, int]] = {
    "I": (1, 0, 0, 0),
    "II": (1, 1, 1, 0),
    "III": (1, 0, 1, 0),
    "IV": (0, 1, 1, 1),
}


def limo_synthetic_labels(X) -> np.ndarray:
    """Labels of points ``X`` (shape (n, 2)) under the region design above."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"X must have shape (n, 2), got {X.shape}")
    table = np.array(list(LIMO_SYNTHETIC_REGIONS.values()), dtype=np.int8)
    right, up = X[:, 0] > 0, X[:, 1] > 0
    quadrant = np.where(up, np.where(right, 0, 1), np.where(right, 3, 2))
    return table[quadrant]


@validate_params(n=Int(1, 10**8), seed=Seed())
def make_limo_synthetic(n: int = 2000, seed: int | None = 0) -> tuple[np.ndarray, np.ndarray]:
    """Points uniform in :math:`(-1, 1)^2` with the four region-defined labels.

    Parameters
    ----------
    n : int
        Number of points (2000 in the paper).
    seed : int, optional
        Seed of :func:`numpy.random.default_rng`.

    Returns
    -------
    X : ndarray of shape (n, 2)
    Y : ndarray of int8, shape (n, 4)
        Columns A, B, C, D.
    """
    n = check_positive_int(n, "n")
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1.0, 1.0, size=(n, 2))
    return X, limo_synthetic_labels(X)
