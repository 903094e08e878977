"""Dependence-aware multi-label losses based on non-additive measures.

This module implements the loss family of Hüllermeier et al. (2022),
*A flexible class of dependence-aware multi-label loss functions*
(Machine Learning 111, sections 3–4).

Orientation (derived, not assumed)
----------------------------------
For a true label vector ``y`` and scores ``s`` in ``[0, 1]^K`` the per-label
*correctness* is ``u_i = 1 - |s_i - y_i|`` (eq. 7) and the loss is one minus the
discrete Choquet integral of ``u`` with respect to a capacity ``mu`` (eqs. 8, 14):

    loss = 1 - sum_i (u_(i) - u_(i-1)) * mu(A_(i)),   u_(1) <= ... <= u_(K),
    A_(i) = {labels at sorted positions i..K}.

``mu(A)`` is therefore the *reward for being right on all of A*: a binary
prediction that is right exactly on the set ``A`` has loss ``1 - mu(A)``.
For a counting measure ``mu(A) = v(|A|/K)`` this becomes the OWA form
(eqs. 15–16): ``loss = sum_i w_i * e_[i]`` with the errors ``e = |y - s|`` sorted
in *decreasing* order and ``w_i = v((K-i+1)/K) - v((K-i)/K)``; so ``w_1`` (the
increment of ``v`` at the top) multiplies the largest error.  A binary
prediction with ``m`` wrong labels out of ``K`` has loss ``1 - v((K-m)/K)``.

Representations of a capacity on ``K`` labels
---------------------------------------------
* a 1-D array of length ``2**K`` indexed by bitmask: entry ``A`` is ``mu`` of the
  set ``{i : A >> i & 1}`` (label ``i`` is bit ``i``);
* a mapping from subsets (frozensets, tuples, ... of label indices ``0..K-1``)
  to values; every non-empty subset must be present (the empty set may be
  omitted and defaults to 0);
* a callable ``mu(frozenset) -> float``, evaluated on all ``2**K`` subsets.

General capacities are enumerated, so ``K <= MAX_CAPACITY_LABELS``; the
counting-measure losses (OWA, polynomial, binomial) never enumerate subsets and
work for any ``K``.

Scores that are not probabilities
---------------------------------
The losses are defined on scores in ``[0, 1]`` (eq. 7).  Every loss takes

* ``threshold=t``: the scores are first turned into the binary prediction
  ``[s > t]`` (strictly above, as scikit-learn's ``predict`` of a linear model
  with ``t = 0`` on ``decision_function`` and MLkNN's MAP rule with
  ``t = 0.5`` on posteriors); any finite real scores are accepted;
* ``scores="decision"``: real-valued decision scores (log-odds), mapped to
  ``[0, 1]`` by the logistic function ``1 / (1 + exp(-s))`` before the soft
  loss is taken (ignored when ``threshold`` is given);

and ``sample_weight`` (instance weights of the mean, as in scikit-learn).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from numbers import Real
from typing import Any

import numpy as np

from ._choquet import (
    check_capacity,
    choquet_integral,
    choquet_integral_moebius,
    choquet_loss,
    choquet_loss_moebius,
    counting_measure,
    covering_capacity,
    covering_loss,
    from_moebius,
    hamming_capacity,
    moebius,
    owa_loss,
    owa_weights,
    subset_capacity,
)
from ._labelcounts import check_sample_weight
from ._loss_core import (
    MAX_CAPACITY_LABELS,
    apply_count_table,
    count_table,
    error_counts,
    popcount,
    prepare,
    sparse_binary,
)
from ._validation import (
    Flag,
    check_positive_int,
    check_real,
    validate_params,
)

__all__ = [
    "MAX_CAPACITY_LABELS",
    "FAMILIES",
    "check_capacity",
    "moebius",
    "from_moebius",
    "choquet_integral",
    "choquet_integral_moebius",
    "choquet_loss",
    "choquet_loss_moebius",
    "counting_measure",
    "owa_weights",
    "owa_loss",
    "family_v",
    "error_count_losses",
    "polynomial_loss",
    "binomial_loss",
    "loss_profile",
    "hamming_capacity",
    "subset_capacity",
    "covering_capacity",
    "covering_loss",
    "popcount",
]


#: The one-parameter families of Sec. 4.3.
FAMILIES = ("binomial", "polynomial")


# ------------------------------------------------------------------ parametric families
def _check_family_param(family: Any, param: Any, K: int) -> tuple[str, float | int]:
    if not isinstance(family, str):
        raise TypeError(f"family must be one of {FAMILIES}, got {family!r}")
    if family not in FAMILIES:
        raise ValueError(f"family must be one of {FAMILIES}, got {family!r}")
    if family == "binomial":
        return family, check_positive_int(param, "k", low=1, high=K)
    if isinstance(param, Real) and not isinstance(param, bool) and param == math.inf:
        return family, math.inf
    return family, check_real(param, "alpha", low=1.0)


def family_v(family: str, param: float, K: int) -> np.ndarray:
    """Values ``v(j/K)``, j = 0..K, of the polynomial (eq. 17) or binomial (eq. 18) family.

    ``polynomial``: ``v(x) = x**alpha`` (``alpha >= 1``; ``alpha = inf`` gives
    the subset 0/1 limit).  ``binomial``: ``v(j/K) = C(j, k) / C(K, k)``,
    ``k in 1..K``.
    """
    K = check_positive_int(K, "K")
    family, param = _check_family_param(family, param, K)
    j = np.arange(K + 1)
    if family == "binomial":
        vals = _binomial_v(K, int(param))
    elif param == math.inf:
        vals = (j == K).astype(np.float64)
    else:
        vals = (j / K) ** float(param)
    vals[0], vals[-1] = 0.0, 1.0
    return vals


#: Up to this many labels the binomial weights C(j, k)/C(K, k) are computed from exact
#: integers (each correctly rounded); above, by a product recurrence in floating point.
_EXACT_BINOMIAL_K = 256


def _binomial_v(K: int, k: int) -> np.ndarray:
    """``C(j, k) / C(K, k)`` for j = 0..K.

    Exact integers cost O(K) big-number operations of O(K) digits per ``k``, so a
    whole profile (k = 1..K) grows as K**3 (5 s at K = 1000).  Above
    :data:`_EXACT_BINOMIAL_K` the ratios come from ``v(K) = 1`` and
    ``v(j - 1) = v(j) (j - k) / j``, one reversed cumulative product: O(K) per ``k``,
    relative error at most about ``2 K`` units of the last place (each factor is
    correctly rounded, a product of ``m`` of them is off by at most ``m`` ulps;
    ``tests/mlcbook/test_losses.py`` checks it against the exact value).
    """
    if K <= _EXACT_BINOMIAL_K:
        den = math.comb(K, k)
        return np.array([math.comb(t, k) / den for t in range(K + 1)])
    vals = np.zeros(K + 1)
    t = np.arange(k + 1, K + 1, dtype=np.float64)
    vals[k:K] = np.cumprod(((t - k) / t)[::-1])[::-1]
    vals[K] = 1.0
    return vals


def _binomial_binary(
    m: np.ndarray,
    params: Iterable[Any],
    K: int,
    per_instance: bool,
    w: np.ndarray | None,
) -> np.ndarray:
    """Binomial losses of binary predictions with ``m`` errors per row, for many ``k``,
    in O(d K) for d distinct error counts (d <= min(n, K + 1)): no (K + 1, P) table.

    With ``m`` errors the loss is ``1 - C(K - m, k) / C(K, k)`` and the ratio is
    ``prod_{s < k} (K - m - s) / (K - s)``: one cumulative product over ``k`` per
    distinct ``m`` (relative error at most about ``k`` ulps).
    """
    if isinstance(params, (str, bytes)) or params is None:
        raise TypeError(f"params must be a sequence of parameters, got {params!r}")
    plist = [
        p.item() if isinstance(p, np.generic) else p
        for p in np.atleast_1d(np.asarray(params, dtype=object))
    ]
    if not plist:
        raise ValueError("params must not be empty")
    ks = np.array([_check_family_param("binomial", p, K)[1] for p in plist], dtype=np.intp)
    ms, inverse = np.unique(m.astype(np.intp), return_inverse=True)
    s = np.arange(K, dtype=np.float64)
    factors = np.clip((K - ms[:, None] - s) / (K - s), 0.0, None)  # (d, K)
    ratio = np.cumprod(factors, axis=1)[:, ks - 1]  # C(K-m, k)/C(K, k), shape (d, P)
    rows = 1.0 - ratio
    rows[ms == 0] = 0.0
    rows[ms == K] = 1.0
    if per_instance:
        return rows[inverse]
    weight = np.bincount(inverse, weights=w, minlength=ms.size)
    return weight @ rows / (m.size if w is None else w.sum())


def error_count_losses(family: str, param: float, K: int) -> np.ndarray:
    """Loss of a binary prediction with ``m`` wrong labels out of ``K``, for m = 0..K.

    For a counting measure the loss of a binary prediction depends only on the
    number of errors: ``L[m] = 1 - v((K - m)/K)`` (the sum of the ``m`` weights
    attached to the largest errors, Sec. 4.2).

    Parameters
    ----------
    family : {'binomial', 'polynomial'}
    param : int or float
        ``k`` in 1..K for the binomial family, ``alpha >= 1`` (or ``inf``) for
        the polynomial family.
    K : int
        Number of labels.

    Returns
    -------
    ndarray of shape (K + 1,)
        ``L[0] = 0``, ``L[K] = 1``, non-decreasing.

    Examples
    --------
    >>> error_count_losses("binomial", 1, 4)   # Hamming
    array([0.  , 0.25, 0.5 , 0.75, 1.  ])
    >>> error_count_losses("binomial", 4, 4)   # subset 0/1
    array([0., 1., 1., 1., 1.])
    """
    vals = family_v(family, param, K)
    L = 1.0 - vals[::-1]
    L[0], L[-1] = 0.0, 1.0
    return L


def _family_values(family: str, params: Iterable[Any], K: int) -> np.ndarray:
    """``v(j/K)`` for j = 0..K (rows) and every parameter (columns)."""
    if isinstance(params, (str, bytes)) or params is None:
        raise TypeError(f"params must be a sequence of parameters, got {params!r}")
    try:
        plist = list(np.atleast_1d(np.asarray(params, dtype=object)))
    except Exception:  # pragma: no cover
        raise TypeError(f"params must be a sequence of parameters, got {params!r}") from None
    if not plist:
        raise ValueError("params must not be empty")
    plist = [p.item() if isinstance(p, np.generic) else p for p in plist]
    V = np.empty((K + 1, len(plist)))  # (K+1, P)
    for i, p in enumerate(plist):
        V[:, i] = family_v(family, p, K)
    return V


@validate_params(per_instance=Flag())
def loss_profile(
    Y: Any,
    S: Any,
    family: str,
    params: Iterable[Any],
    *,
    per_instance: bool = False,
    sample_weight: Any = None,
    scores: str = "probability",
    threshold: float | None = None,
) -> np.ndarray:
    """Mean loss for every parameter of a family, in one pass (Sec. 4.3–4.4).

    Binary predictions: one count of errors per row, one histogram, one small
    matrix product (no sort).  Soft scores: one row-wise sort of the errors and
    one matrix product with the ``(K, P)`` weight matrix.

    Parameters
    ----------
    Y : array-like of shape (n, K) or (K,), 0/1
    S : array-like of the same shape, scores in [0, 1] or 0/1 predictions
    family : {'binomial', 'polynomial'}
    params : sequence
        ``k`` values (1..K) or ``alpha`` values (>= 1, ``inf`` allowed).
    per_instance : bool
        Return an ``(n, P)`` array instead of the ``(P,)`` means.
    sample_weight : array-like of shape (n,), optional
        Instance weights of the mean.
    scores : {"probability", "decision"}, default "probability"
        ``"decision"``: ``S`` holds real decision scores, mapped to [0, 1] by
        the logistic function (module docstring).
    threshold : float, optional
        Turn ``S`` into the binary prediction ``[S > threshold]`` first; ``S``
        may then hold any finite reals.

    Returns
    -------
    ndarray of shape (P,) or (n, P)

    Examples
    --------
    >>> import numpy as np
    >>> Y = np.array([[1, 1, 1], [0, 0, 0]]); P = np.array([[1, 0, 1], [0, 0, 0]])
    >>> loss_profile(Y, P, "binomial", [1, 2, 3]).round(4)
    array([0.1667, 0.3333, 0.5   ])
    """
    sparse = sparse_binary(Y, S) if threshold is None and scores == "probability" else None
    if sparse is not None:  # sparse 0/1 input stays sparse: only the error counts
        m, K = sparse
        binary = True
    else:
        Y, S, binary = prepare(Y, S, scores, threshold)
        K = Y.shape[1]
        m = error_counts(Y, S) if binary else np.empty(0)
    w = check_sample_weight(sample_weight, m.size if sparse is not None else Y.shape[0])
    if binary and family == "binomial" and K > _EXACT_BINOMIAL_K:
        return _binomial_binary(m, params, K, per_instance, w)
    V = _family_values(family, params, K)
    if binary:  # the weights are not needed: skip a (K, P) array
        return count_table(m, 1.0 - V[::-1], per_instance, w)
    return apply_count_table(Y, S, False, 1.0 - V[::-1], np.diff(V, axis=0)[::-1], per_instance, w)


@validate_params(per_instance=Flag())
def polynomial_loss(
    Y: Any,
    S: Any,
    alpha: float,
    *,
    per_instance: bool = False,
    sample_weight: Any = None,
    scores: str = "probability",
    threshold: float | None = None,
) -> float | np.ndarray:
    """Polynomial loss: OWA loss with ``v(x) = x**alpha``, ``alpha >= 1`` (eq. 17).

    ``alpha = 1`` is the (generalised) Hamming loss; ``alpha -> inf`` tends to
    the subset 0/1 loss (``alpha = inf`` is accepted and gives it exactly).  For
    binary predictions with ``m`` of ``K`` labels wrong it is
    ``1 - ((K - m) / K) ** alpha``; :func:`loss_profile` computes several ``alpha``
    at once.

    Parameters
    ----------
    Y : array-like of shape (n, K) or (K,), 0/1
        True labels.
    S : array-like of the same shape
        Scores in [0, 1] or 0/1 predictions.
    alpha : float
        Exponent, ``alpha >= 1`` (``inf`` allowed).
    per_instance : bool, default False
        Return the loss of every row, shape ``(n,)``, instead of their mean.
    sample_weight : array-like of shape (n,), optional
        Instance weights of the mean.
    scores : {"probability", "decision"}, default "probability"
        ``"decision"``: ``S`` holds real decision scores, mapped to [0, 1] by the
        logistic function (module docstring).
    threshold : float, optional
        Turn ``S`` into the binary prediction ``[S > threshold]`` first; ``S`` may then
        hold any finite reals.

    Returns
    -------
    float or ndarray of shape (n,)
        The mean loss, or the loss per row with ``per_instance=True``; in [0, 1].

    Examples
    --------
    >>> Y, P = [1, 1, 1, 0], [1, 0, 1, 0]  # one wrong label of four
    >>> polynomial_loss(Y, P, 1), polynomial_loss(Y, P, 2), polynomial_loss(Y, P, float("inf"))
    (0.25, 0.4375, 1.0)
    """
    out = loss_profile(
        Y,
        S,
        "polynomial",
        [alpha],
        per_instance=per_instance,
        sample_weight=sample_weight,
        scores=scores,
        threshold=threshold,
    )
    return out[:, 0] if per_instance else float(out[0])


@validate_params(per_instance=Flag())
def binomial_loss(
    Y: Any,
    S: Any,
    k: int,
    *,
    per_instance: bool = False,
    sample_weight: Any = None,
    scores: str = "probability",
    threshold: float | None = None,
) -> float | np.ndarray:
    """Binomial loss: counting measure with ``v(j/K) = C(j, k)/C(K, k)`` (eq. 18).

    ``k = 1`` is the (generalised) Hamming loss, ``k = K`` the subset 0/1 loss.
    For binary predictions it is the fraction of the ``C(K, k)`` label
    ``k``-subsets that are not predicted entirely correctly: with ``m`` wrong labels,
    ``1 - C(K - m, k) / C(K, k)``.  For scores it is the OWA loss (eqs. 15–16) of the
    absolute errors with these weights; :func:`loss_profile` computes several ``k``
    at once.

    Parameters
    ----------
    Y : array-like of shape (n, K) or (K,), 0/1
        True labels.
    S : array-like of the same shape
        Scores in [0, 1] or 0/1 predictions.
    k : int
        Size of the label subsets, ``1 <= k <= K``.
    per_instance : bool, default False
        Return the loss of every row, shape ``(n,)``, instead of their mean.
    sample_weight : array-like of shape (n,), optional
        Instance weights of the mean.
    scores : {"probability", "decision"}, default "probability"
        ``"decision"``: ``S`` holds real decision scores, mapped to [0, 1] by the
        logistic function (module docstring).
    threshold : float, optional
        Turn ``S`` into the binary prediction ``[S > threshold]`` first; ``S`` may then
        hold any finite reals.

    Returns
    -------
    float or ndarray of shape (n,)
        The mean loss, or the loss per row with ``per_instance=True``; in [0, 1].

    Examples
    --------
    One wrong label of ``K = 4``: a quarter of the labels (``k = 1``), half of the
    six label pairs (``1 - C(3, 2) / C(4, 2)``), the whole vector (``k = K``); the
    second instance is right, so the mean halves.

    >>> import numpy as np
    >>> Y = np.array([[1, 1, 1, 0], [0, 1, 0, 0]])
    >>> P = np.array([[1, 0, 1, 0], [0, 1, 0, 0]])
    >>> [binomial_loss(Y, P, k, per_instance=True)[0] for k in (1, 2, 4)]
    [np.float64(0.25), np.float64(0.5), np.float64(1.0)]
    >>> binomial_loss(Y, P, 2)
    0.25

    Scores: the errors 0.8 and 0.1, largest first, weigh
    ``v(4/4) - v(3/4) = 1/2`` and ``v(3/4) - v(2/4) = 1/3``.

    >>> round(binomial_loss([1, 1, 1, 0], [0.9, 0.2, 1.0, 0.0], 2), 4)  # 0.4 + 0.1/3
    0.4333
    """
    out = loss_profile(
        Y,
        S,
        "binomial",
        [k],
        per_instance=per_instance,
        sample_weight=sample_weight,
        scores=scores,
        threshold=threshold,
    )
    return out[:, 0] if per_instance else float(out[0])
