"""Park & Read's blended Hamming/Jaccard/Exact similarity and its gradient.

Park and Read (2018), *A Blended Metric for Multi-label Optimisation and
Evaluation*, ECML-PKDD, blend the three most used multi-label similarities into
one two-parameter family.  For one instance with truth ``t`` and undetermined
(soft) predictions ``z`` in ``[0, 1]`` the *undetermined* confusion counts are

    TP = sum t z,  FP = sum (1-t) z,  FN = sum t (1-z),  TN = sum (1-t)(1-z),

(Sec. 2.2; for 0/1 ``z`` they are the ordinary counts) and the blended
similarity (eq. 5 raised to the power beta, Sec. 2.3) is

    s(z, t; alpha, beta) = [ (TP + alpha TN) / (L - (1 - alpha) TN) ] ** beta.

* ``alpha = beta = 1``: Hamming similarity ``(TP + TN) / L``.
* ``alpha -> 0`` (``alpha = 0`` is accepted): Jaccard ``TP / (TP + FP + FN)``,
  with the limit's convention ``s = 1`` when ``TP = FP = FN = 0`` (Sec. 2.1).
* ``beta -> inf`` (``beta = np.inf`` is accepted by :func:`blended_similarity`):
  exact match on 0/1 predictions, since the base is 1 iff the prediction is exact.

The linear-logistic learner of Sec. 3 maximises the mean of ``s`` over the
training instances minus ``gamma/2 ||W||^2``; :func:`blended_objective` returns
that objective and its analytic gradient (eq. 10).

Derivation of the gradient (eq. 10)
-----------------------------------
With the correctness ``p = z^t (1-z)^(1-t)`` (eq. 7), ``a = t + alpha (1-t)``,
``b = (alpha - 1)(1-t)``, ``N = p.a`` and ``D = L + p.b`` we have ``s = r^beta``,
``r = N / D`` and

    ds/dp_i  = beta r^(beta-1) (a_i D - b_i N) / D^2 = beta s (a_i / N - b_i / D),
    dp_i/dz_i = 2 t_i - 1           (= p_i [t_i / z_i - (1-t_i)/(1-z_i)]),
    dz_i/dw_ij = z_i (1 - z_i) x_j,

so ``ds/dw_ij = beta s p_i (t_i - z_i) (a_i/N - b_i/D) x_j`` -- eq. 10 of the
paper is right.  Two details of its penalised version are loose: the penalty
sums ``w_ij^2`` over ``i, j = 1..K`` (it should run over the L labels and the
M (+1 bias) features), and the penalised derivative is written per instance,
whereas the derivative of the objective is ``(1/K) sum_k ds_k/dw_ij - gamma w_ij``.
We compute ``ds/dp`` in the form ``beta r^(beta-1) (a_i - b_i r) / D``, which
stays finite when ``N = 0`` (alpha = 0 and no relevant label), where the
paper's ``a_i / N`` divides by zero.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import scipy.sparse as sp
from scipy.special import expit

from ._validation import (
    as_2d,
    check_label_matrix,
    check_real,
    check_same_shape,
    check_score_matrix,
)

__all__ = [
    "SoftConfusion",
    "soft_confusion",
    "blended_similarity",
    "blended_similarity_grad",
    "blended_objective",
    "blended_gradient",
]


class SoftConfusion(NamedTuple):
    """Per-instance undetermined confusion counts (arrays of shape ``(n_samples,)``)."""

    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    tn: np.ndarray


# --------------------------------------------------------------------------- validation
def _check_alpha(alpha: Any) -> float:
    return check_real(alpha, "alpha", low=0.0, high=1.0)


def _check_beta(beta: Any, *, allow_inf: bool = False) -> float:
    if (
        allow_inf
        and not isinstance(beta, bool)
        and isinstance(beta, (float, np.floating))
        and np.isposinf(beta)
    ):
        return float("inf")
    return check_real(beta, "beta", low=1.0)


def _check_gamma(gamma: Any) -> float:
    return check_real(gamma, "gamma", low=0.0)


def _check_tz(T: Any, Z: Any) -> tuple[np.ndarray, np.ndarray]:
    T = check_label_matrix(T, "T", allow_sparse=False).astype(np.float64)
    Z = check_score_matrix(Z, "Z", unit_interval=True)
    check_same_shape(T, Z, "T", "Z")
    return T, Z


# --------------------------------------------------------------------------- counts
def soft_confusion(T: Any, Z: Any) -> SoftConfusion:
    """Undetermined (soft) confusion counts of Sec. 2.2.

    Parameters
    ----------
    T : array-like of shape (n_samples, n_labels) or (n_labels,)
        True labels, 0/1.
    Z : array-like of the same shape
        Undetermined predictions in ``[0, 1]`` (0/1 predictions give the usual counts).

    Returns
    -------
    SoftConfusion
        ``tp, fp, fn, tn``, each of shape ``(n_samples,)``; per instance they sum to L.

    Examples
    --------
    The example of Sec. 2.2 (t = [1 0 1], z = [0.6 0.4 0.2]):

    >>> c = soft_confusion([1, 0, 1], [0.6, 0.4, 0.2])
    >>> [round(float(v[0]), 10) for v in c]
    [0.8, 0.4, 1.2, 0.6]
    """
    T, Z = _check_tz(T, Z)
    return _soft_confusion(T, Z)


def _soft_confusion(T: np.ndarray, Z: np.ndarray) -> SoftConfusion:
    tp = (T * Z).sum(axis=1)
    fp = ((1.0 - T) * Z).sum(axis=1)
    fn = (T * (1.0 - Z)).sum(axis=1)
    tn = ((1.0 - T) * (1.0 - Z)).sum(axis=1)
    return SoftConfusion(tp, fp, fn, tn)


# --------------------------------------------------------------------------- similarity
_add = np.add.reduce  # a sum without ndarray.sum's Python-level wrapper (the same loop)


class _Truth:
    """What the similarity and its gradient need of the truth ``T`` alone.

    A fit evaluates the objective hundreds of times on one ``T``: these arrays are
    computed once per fit instead of once per evaluation, by the same operations as
    inline (so every evaluation gives the same bits).
    """

    __slots__ = ("T", "a", "b", "n_pos", "neg", "pos", "sign")

    def __init__(self, T: np.ndarray, alpha: float) -> None:
        self.T = T
        self.pos = T > 0
        self.neg = 1.0 - T
        self.n_pos = T.sum(axis=1)
        self.a = T + alpha * self.neg  # a_i = t_i + alpha (1 - t_i)
        self.b = (alpha - 1.0) * self.neg  # b_i = (alpha - 1)(1 - t_i)
        self.sign = 2.0 * T - 1.0  # dp_i/dz_i


def _ratio_of(
    truth: _Truth, Z: np.ndarray, alpha: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``r = N / D`` per instance, ``D > 0``, ``D`` (1 where it is not > 0), ``1 - Z``."""
    Q = 1.0 - Z
    # p = z where t = 1, 1 - z where t = 0 (eq. 7); np.add.reduce is what .sum() calls
    P = np.where(truth.pos, Z, Q)
    tn = _add(truth.neg * P, axis=1)
    fp = _add(truth.neg * (1.0 - P), axis=1)
    num = _add(truth.T * P, axis=1) + alpha * tn  # TP + alpha TN  (= p.a)
    # D = L - (1 - alpha) TN, summed as TP + FN + FP + alpha TN: the subtraction cancels
    # catastrophically when alpha is small and TN is close to L (empty truth and prediction).
    den = truth.n_pos + fp + alpha * tn
    ok = den > 0
    safe = np.where(ok, den, 1.0)  # no division by zero: no floating-point state to switch
    r = np.where(ok, num / safe, 1.0)
    # den == 0 only if alpha == 0 and TP = FP = FN = 0: the alpha -> 0 limit is 1.
    return np.minimum(np.maximum(r, 0.0), 1.0), ok, safe, Q


def _ratio(T: np.ndarray, Z: np.ndarray, alpha: float) -> np.ndarray:
    """Base ``r = N / D`` of the blended similarity per instance (unvalidated)."""
    return _ratio_of(_Truth(T, alpha), Z, alpha)[0]


def blended_similarity(
    T: Any, Z: Any, alpha: float = 1.0, beta: float = 1.0, *, per_instance: bool = False
) -> float | np.ndarray:
    """Blended Hamming/Jaccard/Exact similarity (Park & Read 2018, eq. 5 to the power beta).

    ``s = [(TP + alpha TN) / (L - (1 - alpha) TN)] ** beta`` with the undetermined
    counts of :func:`soft_confusion`.

    Parameters
    ----------
    T : array-like of shape (n_samples, n_labels) or (n_labels,)
        True labels, 0/1.
    Z : array-like of the same shape
        Predictions in ``[0, 1]``: 0/1 labels or undetermined scores.
    alpha : float in [0, 1]
        Weight of the true negatives: 1 gives Hamming, 0 Jaccard (with s = 1
        when truth and prediction are both empty, the alpha -> 0 limit).
    beta : float in [1, inf]
        Power; ``np.inf`` gives exact match on 0/1 predictions.
    per_instance : bool
        Return the per-instance similarities instead of their mean.

    Returns
    -------
    float or ndarray of shape (n_samples,)

    Examples
    --------
    >>> t, y = [1, 0, 1, 0], [1, 0, 0, 1]
    >>> blended_similarity(t, y, 1, 1), round(blended_similarity(t, y, 0, 1), 4)
    (0.5, 0.3333)
    """
    alpha = _check_alpha(alpha)
    beta = _check_beta(beta, allow_inf=True)
    if not isinstance(per_instance, (bool, np.bool_)):
        raise TypeError(f"per_instance must be a bool, got {per_instance!r}")
    T, Z = _check_tz(T, Z)
    r = _ratio(T, Z, alpha)
    if np.isinf(beta):
        s = (r >= 1.0 - 1e-12).astype(np.float64)
    else:
        s = r**beta
    return s if per_instance else float(s.mean())


def _dsim_dz(
    truth: _Truth, Z: np.ndarray, alpha: float, beta: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-instance similarity ``s``, its derivative ``ds_k/dz_ki`` and ``1 - Z``."""
    r, ok, den, Q = _ratio_of(truth, Z, alpha)
    rb1 = r ** (beta - 1.0)  # 0 ** 0 == 1 for beta = 1
    coef = np.where(ok, beta * rb1 / den, 0.0)
    # ds/dp_i = beta r^(beta-1) (a_i - b_i r) / D ;  dp_i/dz_i = 2 t_i - 1
    dsdz = coef[:, None] * (truth.a - truth.b * r[:, None]) * truth.sign
    return r**beta, dsdz, Q


def blended_similarity_grad(T: Any, Z: Any, alpha: float = 1.0, beta: float = 1.0) -> np.ndarray:
    """Derivative of the *mean* blended similarity with respect to each score ``z_ki``.

    Returns ``(1/K) ds_k/dz_ki = (1/K) beta s_k (a_ki/N_k - b_ki/D_k) (2 t_ki - 1)``,
    an array of the shape of ``Z``.  Where the similarity is not differentiable
    (alpha = 0 and TP = FP = FN = 0) the value 0 is returned.
    """
    alpha = _check_alpha(alpha)
    beta = _check_beta(beta)
    T, Z = _check_tz(T, Z)
    _, g, _ = _dsim_dz(_Truth(T, alpha), Z, alpha, beta)
    return g / T.shape[0]


# --------------------------------------------------------------------------- linear model
def _sigmoid(eta: np.ndarray) -> np.ndarray:
    """Numerically stable logistic function."""
    return expit(eta)


def _objective(
    W: np.ndarray,
    b: np.ndarray | None,
    X,
    T: np.ndarray,
    alpha: float,
    beta: float,
    gamma: float,
    *,
    grad: bool = True,
    XT=None,
    truth: _Truth | None = None,
):
    """Penalised mean similarity and its gradient (no validation; hot path).

    ``J = mean_k s_k - gamma/2 ||W||^2`` (the intercept ``b`` is not penalised).
    Returns ``J`` or ``(J, dJ/dW, dJ/db)`` (``dJ/db`` is None if ``b`` is None).
    ``XT`` may hold ``X.T`` in CSR form (faster for sparse X); ``W`` may be the
    transpose of a C-contiguous ``(n_features, n_labels)`` array (then ``X @ W.T``
    needs no copy and ``dJ/dW`` is returned in the same layout).  ``truth`` may hold
    ``_Truth(T, alpha)``, computed once for the many evaluations of one fit.
    """
    eta = np.asarray(X @ W.T)
    if b is not None:
        eta = eta + b
    Z = _sigmoid(eta)
    K = T.shape[0]
    if truth is None:
        truth = _Truth(T, alpha)
    if not grad:
        r = _ratio_of(truth, Z, alpha)[0]
        return float((r**beta).mean()) - 0.5 * gamma * float(np.vdot(W, W))
    s, dsdz, Q = _dsim_dz(truth, Z, alpha, beta)
    G = dsdz * (Z * Q) / K  # dJ/d eta  (K, L)
    XG = np.asarray((X.T if XT is None else XT) @ G)  # (M, L)
    gW = XG.T - gamma * W  # (L, M)
    gb = _add(G, axis=0) if b is not None else None
    J = float(s.mean()) - 0.5 * gamma * float(np.vdot(W, W))
    return J, gW, gb


def _check_real_array(a: Any, name: str, ndim: int) -> np.ndarray:
    """A finite float64 array of ``ndim`` dimensions (strings, objects refused)."""
    if isinstance(a, (str, bytes)) or a is None or sp.issparse(a):
        raise TypeError(f"{name} must be a dense array of real numbers, got {type(a).__name__}")
    arr = np.asarray(a)
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold real numbers, got dtype {arr.dtype}")
    if arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-D, got shape {arr.shape}")
    arr = arr.astype(np.float64, copy=False)
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} must not contain NaN or infinite values")
    return arr


def _check_wxt(W, X, T, intercept):
    W = _check_real_array(W, "W", 2)
    X = as_2d(X, "X")  # sparse: canonical CSR (duplicates summed); both: >= 1 row, column
    values = X.data if sp.issparse(X) else X
    if values.dtype.kind not in "biuf":
        raise TypeError(f"X must hold real numbers, got dtype {values.dtype}")
    if not np.isfinite(values).all():
        raise ValueError("X must not contain NaN or infinite values")
    X = X.astype(np.float64, copy=False) if not sp.issparse(X) else X.astype(np.float64)
    T = check_label_matrix(T, "T", allow_sparse=False).astype(np.float64)
    if X.shape[0] != T.shape[0]:
        raise ValueError(
            f"X and T must have the same number of rows, got {X.shape[0]} and {T.shape[0]}"
        )
    if W.shape != (T.shape[1], X.shape[1]):
        raise ValueError(
            f"W must have shape (n_labels, n_features) = {(T.shape[1], X.shape[1])}, got {W.shape}"
        )
    b = None
    if intercept is not None:
        b = _check_real_array(intercept, "intercept", 1)
        if b.shape != (T.shape[1],):
            raise ValueError(f"intercept must have shape ({T.shape[1]},), got {b.shape}")
    return W, X, T, b


def blended_objective(
    W: Any,
    X: Any,
    T: Any,
    alpha: float = 1.0,
    beta: float = 1.0,
    gamma: float = 0.0,
    *,
    intercept: Any = None,
):
    """Penalised objective of Sec. 3.3 and its analytic gradient (eq. 10).

    The model is ``z_k = sigmoid(W x_k + intercept)``; the objective is

        J(W) = (1/K) sum_k s(z_k, t_k; alpha, beta) - gamma/2 sum_ij w_ij^2

    (the intercept, the paper's appended constant feature, is not penalised).

    Parameters
    ----------
    W : array of shape (n_labels, n_features)
    X : array-like or sparse matrix of shape (n_samples, n_features)
    T : array-like of shape (n_samples, n_labels), 0/1
    alpha, beta, gamma : float
        ``alpha`` in [0, 1], ``beta`` >= 1 (finite), ``gamma`` >= 0.
    intercept : array of shape (n_labels,), optional

    Returns
    -------
    J : float
    grad_W : ndarray of shape (n_labels, n_features)
        ``(1/K) sum_k beta s_k p_ki (t_ki - z_ki) (a_ki/N_k - b_ki/D_k) x_kj - gamma w_ij``.
    grad_intercept : ndarray of shape (n_labels,)
        Only when ``intercept`` is given.
    """
    alpha = _check_alpha(alpha)
    beta = _check_beta(beta)
    gamma = _check_gamma(gamma)
    W, X, T, b = _check_wxt(W, X, T, intercept)
    J, gW, gb = _objective(W, b, X, T, alpha, beta, gamma)
    return (J, gW) if b is None else (J, gW, gb)


def blended_gradient(
    W: Any,
    X: Any,
    T: Any,
    alpha: float = 1.0,
    beta: float = 1.0,
    gamma: float = 0.0,
    *,
    intercept: Any = None,
):
    """Gradient of :func:`blended_objective` (eq. 10 with the penalty of Sec. 3.3).

    Returns ``grad_W`` or, when ``intercept`` is given, ``(grad_W, grad_intercept)``.
    """
    out = blended_objective(W, X, T, alpha, beta, gamma, intercept=intercept)
    return out[1] if intercept is None else (out[1], out[2])
