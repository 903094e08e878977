"""The consensus rule and the tie tolerance of the two exact loss minimisers.

:func:`mlcbook.bayes.bayes_optimal` minimises a risk ``sum_y p(y) loss(y, c)`` over
a distribution, :func:`mlcbook.learners.knn.minimize_summed_loss` a sum
``sum_i loss(y_i, c)`` over neighbours; both enumerate the candidates ``c`` after
fixing the labels on which every support point (neighbour) agrees
(:func:`consensus_mask`; exact for losses monotone in the set of wrong labels, see
either module), and both call candidates tied when their objective lies within a
tolerance of the minimum (:func:`tied`).

The tolerance, ``TIE_TOL`` times the largest value the objective can take
(``scale``: 1 for a risk of a loss in [0, 1], ``c * max L`` for a sum of ``c``
losses), is chosen between two bounds:

* *above rounding*: two candidates whose objectives are equal in exact arithmetic
  differ in floating point by the rounding of the loss values (a few units of
  2**-53 each) and of the sum of ``t`` terms (at most ``t`` units of 2**-53 of
  ``scale``); the neighbour search also rounds its loss tables to a grid of
  ``2 * scale * 2**-52`` (``knn._quantize``).  For ``t, c <= 1000`` this is below
  ``1e-12 * scale``, so mathematically tied candidates are tied here;
* *below every real difference*: the binomial losses of our data are multiples of
  ``1 / C(K, k)`` with ``K <= 53`` in the study (``C(19, 9) = 92378`` for the
  largest K of Fig. 4), the Hamming and subset losses multiples of ``1/K`` and 1,
  so distinct objectives on our data differ by far more than ``1e-12`` of their
  scale.

The library's tests check both bounds: exactly tied candidates are found tied, and
objectives one step of ``1 / C(K, k)`` apart are not.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["TIE_TOL", "consensus_mask", "tied"]

#: Relative tie tolerance: objectives within ``TIE_TOL * scale`` of the minimum tie.
TIE_TOL = 1e-12


def consensus_mask(labels: Any, axis: int = -2) -> np.ndarray:
    """Labels on which all label vectors along ``axis`` agree.

    Parameters
    ----------
    labels : array-like, e.g. (t, K) support points or (n_queries, c, K) neighbours
    axis : int
        The axis of the vectors that vote (the support points, the neighbours).

    Returns
    -------
    ndarray of bool
        ``labels`` with ``axis`` removed; True where the consensus rule fixes the label.
    """
    L = np.asarray(labels)
    if L.ndim < 2 or L.shape[axis] == 0:
        raise ValueError(
            f"labels must have at least one vector along axis {axis}, got shape {L.shape}"
        )
    first = np.take(L, [0], axis=axis)
    return (L == first).all(axis=axis)


def tied(values: Any, minimum: Any, scale: float = 1.0, rtol: float = TIE_TOL) -> np.ndarray:
    """``values <= minimum + rtol * scale``: the candidates that tie with the minimum.

    ``scale`` is the largest value the objective can take (1 for a risk of a loss in
    [0, 1]); ``rtol`` defaults to :data:`TIE_TOL`.
    """
    return np.asarray(values) <= np.asarray(minimum) + float(rtol) * float(scale)
