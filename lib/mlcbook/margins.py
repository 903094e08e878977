"""Label-wise and instance-wise margins of a multi-label predictor (Wu & Zhou, 2017).

For a score matrix ``F`` (``F[i, j]`` = :math:`f_j(x_i)`) and labels ``Y``:

* the **label-wise margin** of instance :math:`i` (Definition 1) is
  :math:`\\gamma^{label}_i = \\min_{(u, v) \\in Y_i^+ \\times Y_i^-} f_u(x_i) - f_v(x_i)`,
  i.e. the smallest score of a relevant label minus the largest score of an
  irrelevant label of that row;
* the **instance-wise margin** of label :math:`j` (Definition 2) is
  :math:`\\gamma^{inst}_j = \\min_{(a, b) \\in Y_j^+ \\times Y_j^-} f_j(x_a) - f_j(x_b)`,
  the same quantity on column :math:`j`.

A predictor is *label-wise effective* (Definition 3) when every label-wise margin is
positive, *instance-wise effective* (Definition 4) when every instance-wise margin is
positive, and *double effective* (Definition 5) when both hold.

Rows (columns) without a relevant or without an irrelevant label have no pair; their
margin is the minimum over an empty set, returned as ``+inf``: they impose no
constraint, so they never make a predictor ineffective (the paper's definitions
quantify over the pairs only).
"""

from __future__ import annotations

import numpy as np

from ._validation import check_label_matrix, check_same_shape, check_score_matrix

__all__ = [
    "label_wise_margins",
    "instance_wise_margins",
    "is_label_wise_effective",
    "is_instance_wise_effective",
    "is_double_effective",
]


def _validate(Y, F) -> tuple[np.ndarray, np.ndarray]:
    Y = check_label_matrix(Y, "Y", allow_sparse=False)
    F = check_score_matrix(F, "F")
    check_same_shape(Y, F, "Y", "F")
    return Y.astype(bool), F


def _row_margins(Y: np.ndarray, F: np.ndarray) -> np.ndarray:
    """min over relevant of F minus max over irrelevant of F, per row."""
    min_pos = np.where(Y, F, np.inf).min(axis=1)
    max_neg = np.where(Y, -np.inf, F).max(axis=1)
    out = min_pos - max_neg
    # a row without positives or without negatives has no pair: +inf
    out[~Y.any(axis=1) | Y.all(axis=1)] = np.inf
    return out


def label_wise_margins(Y, F) -> np.ndarray:
    """Label-wise margin of every instance (Wu & Zhou 2017, Definition 1).

    Parameters
    ----------
    Y : array-like of shape (n_samples, n_labels)
        True 0/1 labels.
    F : array-like of shape (n_samples, n_labels)
        Real-valued scores, ``F[i, j]`` = :math:`f_j(x_i)`.

    Returns
    -------
    ndarray of shape (n_samples,)
        :math:`\\gamma^{label}_i`; ``+inf`` for an instance whose labels are all
        relevant or all irrelevant (no pair to compare).

    Examples
    --------
    >>> label_wise_margins([[1, 0, 1]], [[0.9, 0.2, 0.5]])
    array([0.3])
    """
    Y, F = _validate(Y, F)
    return _row_margins(Y, F)


def instance_wise_margins(Y, F) -> np.ndarray:
    """Instance-wise margin of every label (Wu & Zhou 2017, Definition 2).

    Parameters
    ----------
    Y : array-like of shape (n_samples, n_labels)
        True 0/1 labels.
    F : array-like of shape (n_samples, n_labels)
        Real-valued scores.

    Returns
    -------
    ndarray of shape (n_labels,)
        :math:`\\gamma^{inst}_j`; ``+inf`` for a label that is relevant for all or
        for no instance.

    Examples
    --------
    >>> instance_wise_margins([[1, 0], [0, 1]], [[0.9, 0.2], [0.5, 0.4]])
    array([0.4, 0.2])
    """
    Y, F = _validate(Y, F)
    return _row_margins(Y.T, F.T)


def is_label_wise_effective(Y, F) -> bool:
    """True if every label-wise margin is positive (Definition 3)."""
    return bool(np.all(label_wise_margins(Y, F) > 0))


def is_instance_wise_effective(Y, F) -> bool:
    """True if every instance-wise margin is positive (Definition 4)."""
    return bool(np.all(instance_wise_margins(Y, F) > 0))


def is_double_effective(Y, F) -> bool:
    """True if every label-wise and every instance-wise margin is positive (Definition 5)."""
    Yv, Fv = _validate(Y, F)
    return bool(np.all(_row_margins(Yv, Fv) > 0) and np.all(_row_margins(Yv.T, Fv.T) > 0))
