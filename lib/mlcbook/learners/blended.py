"""The linear-logistic learner of Park & Read (2018, Sec. 3) for the blended similarity.

:class:`BlendedLinearClassifier` fits ``z = sigmoid(W x + b)`` for all labels
jointly by maximising the mean blended similarity ``s(z, t; alpha, beta)``
(:func:`mlcbook.blended.blended_similarity`) minus ``gamma/2 ||W||^2`` with
scipy's L-BFGS on the analytic gradient (eq. 10), and predicts ``sign(W x + b)``,
i.e. ``z >= 0.5``.

Choices where the paper is silent (documented in the chapter):

* ``gamma`` is chosen per fit by ``cv``-fold cross-validation on the training
  data over the grid ``gammas``; the criterion is the objective being
  optimised, the mean blended similarity ``s(z, t; alpha, beta)`` of the
  undetermined predictions on the held-out folds (ties go to the larger gamma).
* The intercept (the paper's appended constant feature) is not penalised, unless
  ``penalize_intercept=True`` (the paper's penalty runs over all weights, the
  appended 1's included).
* Weights start at per-label L2 logistic regressions (``init="logistic"``),
  or -- with ``warm_start=True`` -- at the previous fit's solution (also per CV
  fold), which lets a grid over beta be run as a continuation
  ``beta = 1, 2, 4, ...``.  From zero weights the mean-sigmoid objective can
  run into its flat region: on Slashdot, L-BFGS drives every intercept to
  about -30 in its first steps (predicting no label scores 94% Hamming), where
  all gradients vanish, and the fit stops at "predict nothing".
* The objective is divided by its value at the starting point before it is
  handed to L-BFGS (this does not move the optimum): for large beta the raw
  similarity and its gradient are ~1e-39 at ``W = 0`` and the optimiser's
  stopping rules would otherwise stop at once.
"""

from __future__ import annotations

import functools
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.optimize import minimize
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.model_selection import KFold
from threadpoolctl import ThreadpoolController

from .._validation import check_label_matrix, check_positive_int, check_real
from ..blended import _check_alpha, _check_beta, _objective, _ratio, _sigmoid, _Truth
from ._contract import MultiLabelMixin

__all__ = ["BlendedLinearClassifier", "DEFAULT_GAMMAS"]

DEFAULT_GAMMAS = (1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2)


def _check_X(X: Any, name: str = "X"):
    if sp.issparse(X):
        X = sp.csr_matrix(X, dtype=np.float64)
        if not np.isfinite(X.data).all():
            raise ValueError(f"{name} must not contain NaN or infinite values")
        return X
    X = np.asarray(X)
    if X.dtype == object or X.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold real numbers, got dtype {X.dtype}")
    if X.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n_samples, n_features), got shape {X.shape}")
    X = np.ascontiguousarray(X, dtype=np.float64)
    if not np.isfinite(X).all():
        raise ValueError(f"{name} must not contain NaN or infinite values")
    return X


_CONTROLLER: list[ThreadpoolController] = []


def _one_blas_thread():
    """A context in which BLAS runs on one thread.

    The libraries are scanned once per process (``threadpool_limits`` scans them
    on every call: about 8 ms, paid by every fit of an experiment's thousands).
    """
    if not _CONTROLLER:
        _CONTROLLER.append(ThreadpoolController())
    return _CONTROLLER[0].limit(limits=1, user_api="blas")


#: the starting points of the latest fits, by the digest of their data: every fit of an
#: experiment on the same training part (a CV fold, a whole training half) starts at the
#: same per-label logistic regressions, L fits each; the latest are kept, within
#: _INITS_BYTES (a start larger than that is not kept)
_INITS: OrderedDict[bytes, tuple[np.ndarray, np.ndarray]] = OrderedDict()
_INITS_BYTES = 64 * 2**20
_INITS_LOCK = threading.Lock()


def _digest(X, T, C: float) -> bytes:
    """A digest of everything :func:`_logistic_init` reads (equal data, equal digest)."""
    h = hashlib.blake2b(digest_size=20)
    h.update(repr((type(X).__name__, X.shape, T.shape, float(C))).encode())
    arrays = (X.data, X.indices, X.indptr) if sp.issparse(X) else (X,)
    for a in (*arrays, T):
        a = np.ascontiguousarray(a)
        h.update(str(a.dtype).encode())
        h.update(a.tobytes())
    return h.digest()


def _logistic_init(X, T, C: float = 1.0):
    """Per-label L2 logistic regression (scikit-learn, ``C``): a starting point.

    A label without positives (negatives) in ``T`` gets zero weights and
    intercept -10 (+10).  The result is deterministic, and is kept (read-only)
    for the next fits on the same data, which get it without refitting.
    """
    key = _digest(X, T, C)
    with _INITS_LOCK:
        if key in _INITS:
            _INITS.move_to_end(key)
            return _INITS[key]
    from sklearn.linear_model import LogisticRegression

    M = X.shape[1]
    L = T.shape[1]
    W, b = np.zeros((L, M)), np.zeros(L)
    with _one_blas_thread():
        for j in range(L):
            y = T[:, j]
            if y.min() == y.max():
                b[j] = 10.0 if y[0] > 0 else -10.0
                continue
            lr = LogisticRegression(C=C, max_iter=500, tol=1e-6).fit(X, y.astype(int))
            W[j], b[j] = lr.coef_[0], lr.intercept_[0]
    W.flags.writeable = b.flags.writeable = False
    with _INITS_LOCK:
        _INITS[key] = (W, b)
        while _INITS and sum(w.nbytes + c.nbytes for w, c in _INITS.values()) > _INITS_BYTES:
            _INITS.popitem(last=False)
    return W, b


def _packed(X, T, alpha, beta, gamma, W0, b0, penalize_intercept=False, XT=None):
    """The objective over one packed vector, rescaled to be O(1) at ``(W0, b0)``.

    All labels' weights and intercepts form one vector (the weights stored
    feature-major, so that ``X @ W.T`` needs no copy).  Returns ``fun(x) ->
    (J/|J0|, grad)``, ``x0``, and ``unpack(x) -> (W, b)``.  The scale does not
    move the optimum: it keeps the optimisers' stopping rules meaningful when
    the raw similarity is ~1e-39 (beta = 128 near W = 0).  With
    ``penalize_intercept`` the penalty ``gamma/2 ||b||^2`` is subtracted too.
    ``XT`` may hold ``X.T`` in CSR form for a sparse ``X`` (made here otherwise).
    """
    L, M = W0.shape
    if XT is None and sp.issparse(X):
        XT = X.T.tocsr()
    truth = _Truth(T, alpha)  # what the objective needs of T, once for every evaluation
    x0 = np.concatenate([np.ascontiguousarray(W0.T).ravel(), b0])
    J0 = _objective(W0, b0, X, T, alpha, beta, 0.0, grad=False, truth=truth)
    scale = 1.0 / max(abs(J0), 1e-300)

    def fun(x):
        W = x[: L * M].reshape(M, L).T
        b = x[L * M :]
        J, gW, gb = _objective(W, b, X, T, alpha, beta, gamma, XT=XT, truth=truth)
        if penalize_intercept:
            J, gb = J - 0.5 * gamma * float(b @ b), gb - gamma * b
        return J * scale, np.concatenate([gW.T.ravel(), gb]) * scale

    def unpack(x):
        return np.ascontiguousarray(x[: L * M].reshape(M, L).T), x[L * M :].copy()

    return fun, x0, unpack


def _lbfgs(X, T, alpha, beta, gamma, W0, b0, max_iter, tol, penalize_intercept=False, XT=None):
    """Maximise the penalised mean similarity by L-BFGS from ``(W0, b0)``.

    Returns ``W, b, n_iter, status`` with ``status`` one of ``"converged"``
    (scipy's gradient or relative-decrease test met: ``gtol = tol``,
    ``ftol = tol * 1e-3`` on the rescaled objective), ``"capped"`` (stopped
    at ``max_iter``) or ``"stalled"`` (the line search found no increase: a
    stop by scipy's rule, neither converged nor capped).  ``XT`` as for :func:`_packed`.
    """
    fun, x0, unpack = _packed(X, T, alpha, beta, gamma, W0, b0, penalize_intercept, XT)

    def neg(x):
        J, g = fun(x)
        return -J, -g

    # One BLAS thread: scipy's L-BFGS-B calls BLAS on tiny vectors, and with a
    # multi-threaded BLAS on a busy machine thread hand-offs cost ~5x the run time.
    with _one_blas_thread():
        res = minimize(
            neg,
            x0,
            jac=True,
            method="L-BFGS-B",
            options={"maxiter": max_iter, "gtol": tol, "ftol": tol * 1e-3, "maxcor": 10},
        )
    if res.success:
        status = "converged"
    elif res.nit >= max_iter or res.status == 1:
        status = "capped"
    else:
        status = "stalled"
    W, b = unpack(res.x)
    return W, b, int(res.nit), status


def _fit_lbfgs(X, T, alpha, beta, gamma, W0, b0, max_iter, tol):
    """:func:`_lbfgs` without the status: ``W, b, n_iter``."""
    W, b, nit, _ = _lbfgs(X, T, alpha, beta, gamma, W0, b0, max_iter, tol)
    return W, b, nit


def _ascent(
    X, T, alpha, beta, gamma, W0, b0, max_iter, tol, penalize_intercept=False, rate=None, XT=None
):
    """Gradient ascent, the optimiser of Park & Read (2018, Sec. 3.2).

    ``w <- w + lambda dJ/dw`` on the rescaled objective ``J/|J(W0)|`` (the
    penalised mean similarity of Sec. 3.3).  The paper leaves the rate
    ``lambda`` open; here it is fixed but found automatically: it starts at 1
    and is halved (and the step retried) whenever a step would not increase
    ``J``, so it settles at the largest rate that keeps the ascent monotone.
    The paper's rule "until the optimisation function stops increasing" is
    read as: stop after the first step whose increase is at most ``tol * |J|``
    (relative), or when 40 halvings find no increase.

    With ``rate`` given, the rule is read literally instead: the step size is
    ``rate`` throughout (no halving) and the ascent stops at the first step that
    would not increase ``J`` (that step is not taken); ``tol`` is not used.

    Returns ``W, b, n_iter, status`` with ``status`` ``"stopped"`` (by that
    rule) or ``"capped"`` (``max_iter`` accepted steps without the rule firing).
    ``XT`` as for :func:`_packed`.
    """
    fun, x, unpack = _packed(X, T, alpha, beta, gamma, W0, b0, penalize_intercept, XT)
    with _one_blas_thread():
        J, g = fun(x)
        lam, status, it = 1.0, "capped", 0
        while rate is not None and it < max_iter:
            xn = x + rate * g
            Jn, gn = fun(xn)
            if not Jn > J:
                status = "stopped"
                break
            it += 1
            x, J, g = xn, Jn, gn
        while rate is None and it < max_iter:
            for _ in range(40):
                xn = x + lam * g
                Jn, gn = fun(xn)
                if Jn > J:
                    break
                lam *= 0.5
            else:
                status = "stopped"
                break
            it += 1
            gain = Jn - J
            x, J, g = xn, Jn, gn
            if gain <= tol * abs(J):
                status = "stopped"
                break
    W, b = unpack(x)
    return W, b, it, status


_SOLVERS: dict[str, Callable[..., Any]] = {"lbfgs": _lbfgs, "ascent": _ascent}


class BlendedLinearClassifier(MultiLabelMixin, ClassifierMixin, BaseEstimator):
    """Linear-logistic multi-label classifier maximising the blended similarity.

    Park & Read (2018), Sec. 3: ``z_k = sigmoid(W x_k + b)``; ``W, b`` maximise
    ``(1/K) sum_k s(z_k, t_k; alpha, beta) - gamma/2 ||W||^2`` (eq. 9 with the
    penalty of Sec. 3.3); predictions are ``sign(W x + b)`` (``z >= 0.5``).

    Parameters
    ----------
    alpha : float in [0, 1], default 1.0
        Blend between Jaccard (0) and Hamming (1).
    beta : float >= 1, default 1.0
        Power; large values approach exact match.
    gamma : float >= 0 or "cv", default "cv"
        L2 penalty; ``"cv"`` chooses it from ``gammas`` by cross-validation.
    gammas : sequence of float, default (1e-7, 1e-6, ..., 1e-2)
        Candidate penalties for ``gamma="cv"``.
    cv : int, default 3
        Number of folds for choosing ``gamma``.
    max_iter : int, default 300
        Iterations per fit (L-BFGS iterations, or accepted ascent steps).
    tol : float, default 1e-6
        Stopping tolerance on the rescaled objective: L-BFGS's gradient
        tolerance, or the relative increase below which gradient ascent stops.
    warm_start : bool, default False
        Start from the previous solution (also per CV fold and gamma).
    init : {"logistic", "zeros"}, default "logistic"
        Starting point when not warm-starting: per-label L2 logistic regressions
        (scikit-learn, C = 1) or zero weights.
    random_state : int, default 0
        Seed of the CV fold assignment.
    solver : {"lbfgs", "ascent"}, default "lbfgs"
        scipy's L-BFGS run to convergence, or the paper's gradient ascent
        stopped when one step raises the objective by at most ``tol`` relative
        (Sec. 3.2).  The paper leaves the step size open: here it starts at 1 and
        is halved, and the step retried, whenever a step would not raise the
        objective, so it settles at the largest size that keeps the ascent
        monotone (unless ``rate`` fixes it).
    penalize_intercept : bool, default False
        Also subtract ``gamma/2 ||b||^2``: the paper's penalty (Sec. 3.3) runs over
        all weights, including those of the appended constant feature.
    cv_score : {"undetermined", "determined"}, default "undetermined"
        The CV criterion for ``gamma``: the held-out mean similarity of the
        undetermined predictions ``z`` (the objective), or of the 0/1 predictions
        ``z >= 0.5`` (what the paper's tables report).
    rate : float > 0, optional
        With ``solver="ascent"``: a fixed step size and the paper's rule read
        literally -- stop at the first step that would not increase the objective
        (``tol`` unused); ``max_iter`` is then the fit's budget of steps.

    Attributes
    ----------
    coef_ : ndarray of shape (n_labels, n_features)
    intercept_ : ndarray of shape (n_labels,)
    gamma_ : float
        The penalty used for the final fit.
    cv_scores_ : dict
        Mean held-out similarity for each candidate gamma (``gamma="cv"``).
    n_iter_ : int
        Iterations of the final fit.
    status_ : str
        How the final fit ended: ``"converged"``, ``"stalled"`` (L-BFGS line
        search without increase), ``"stopped"`` (the ascent's rule) or
        ``"capped"`` (``max_iter`` reached).
    cv_status_ : dict
        ``status -> count`` over the cross-validation fits (empty without CV).
    classes_ : list of ndarray
        ``[0, 1]`` for every label (scikit-learn's multi-label convention).
    n_features_in_ : int
    """

    _accept_sparse = "csr"
    _x_dtype = np.float64
    _fitted_attr = "coef_"

    def __init__(
        self,
        alpha: float = 1.0,
        beta: float = 1.0,
        gamma: float | str = "cv",
        gammas: tuple = DEFAULT_GAMMAS,
        cv: int = 3,
        max_iter: int = 300,
        tol: float = 1e-6,
        warm_start: bool = False,
        init: str = "logistic",
        random_state: int = 0,
        solver: str = "lbfgs",
        penalize_intercept: bool = False,
        cv_score: str = "undetermined",
        rate: float | None = None,
    ) -> None:
        self.alpha = alpha
        self.beta = beta
        self.gamma = gamma
        self.gammas = gammas
        self.cv = cv
        self.max_iter = max_iter
        self.tol = tol
        self.warm_start = warm_start
        self.init = init
        self.random_state = random_state
        self.solver = solver
        self.penalize_intercept = penalize_intercept
        self.cv_score = cv_score
        self.rate = rate

    # ----------------------------------------------------------------- helpers
    def _validate_params(self):
        alpha = _check_alpha(self.alpha)
        beta = _check_beta(self.beta)
        if isinstance(self.gamma, str):
            if self.gamma != "cv":
                raise ValueError(
                    f"gamma must be a non-negative number or 'cv', got {self.gamma!r}"
                )
            gammas = tuple(check_real(g, "gammas", low=0.0) for g in self.gammas)
            if not gammas:
                raise ValueError("gammas must not be empty")
        else:
            gammas = (check_real(self.gamma, "gamma", low=0.0),)
        cv = check_positive_int(self.cv, "cv", low=2)
        if self.solver not in _SOLVERS:
            raise ValueError(f"solver must be 'lbfgs' or 'ascent', got {self.solver!r}")
        if not isinstance(self.penalize_intercept, (bool, np.bool_)):
            raise TypeError(
                f"penalize_intercept must be True or False, got {self.penalize_intercept!r}"
            )
        if self.cv_score not in ("undetermined", "determined"):
            raise ValueError(
                f"cv_score must be 'undetermined' or 'determined', got {self.cv_score!r}"
            )
        if self.rate is not None:
            if self.solver != "ascent":
                raise ValueError(f"rate needs solver='ascent', got solver={self.solver!r}")
            check_real(self.rate, "rate", low=0.0, low_inclusive=False)
        if self.init not in ("logistic", "zeros"):
            raise ValueError(f"init must be 'logistic' or 'zeros', got {self.init!r}")
        max_iter = check_positive_int(self.max_iter, "max_iter")
        tol = check_real(self.tol, "tol", low=0.0, low_inclusive=False)
        if not isinstance(self.random_state, (int, np.integer)) or isinstance(
            self.random_state, bool
        ):
            raise TypeError(f"random_state must be an integer, got {self.random_state!r}")
        return alpha, beta, gammas, cv, max_iter, tol

    def _start(self, key, L, M, X, T, warm):
        if self.warm_start and key in warm and warm[key][0].shape == (L, M):
            W, b = warm[key]
            return W.copy(), b.copy()
        if self.init == "zeros":
            return np.zeros((L, M)), np.zeros(L)
        ikey = ("init",) + (key if isinstance(key, tuple) else (key,))[-1:]
        if ikey not in warm:
            warm[ikey] = _logistic_init(X, T)
        W, b = warm[ikey]
        return W.copy(), b.copy()

    # --------------------------------------------------------------------- API
    def fit(self, X: Any, Y: Any) -> BlendedLinearClassifier:
        """Fit the weights (and choose gamma by cross-validation if asked).

        Parameters
        ----------
        X : array-like or scipy sparse matrix of shape (n_samples, n_features)
        Y : array-like of shape (n_samples, n_labels), 0/1
        """
        alpha, beta, gammas, cv, max_iter, tol = self._validate_params()
        X, _ = self._fit_input(X, Y)
        X = _check_X(X)
        T = check_label_matrix(Y, "Y", allow_sparse=False).astype(np.float64)
        if X.shape[0] != T.shape[0]:
            raise ValueError(
                f"X and Y must have the same number of rows, got {X.shape[0]} and {T.shape[0]}"
            )
        K, M = X.shape
        L = T.shape[1]
        warm = dict(getattr(self, "_warm_", {}) or {}) if self.warm_start else {}
        solve = _SOLVERS[self.solver]
        if self.rate is not None:
            solve = functools.partial(_ascent, rate=float(self.rate))
        pen_b = bool(self.penalize_intercept)
        cv_status: dict = {}
        if len(gammas) > 1:
            if K < cv:
                raise ValueError(f"cannot run {cv}-fold CV on {K} samples")
            folds = list(
                KFold(cv, shuffle=True, random_state=int(self.random_state)).split(np.arange(K))
            )
            # each fold's halves once, for all gammas (and X.T of a sparse training part)
            parts = [(X[tr], T[tr], X[va], T[va]) for tr, va in folds]
            XTs = [Xtr.T.tocsr() if sp.issparse(Xtr) else None for Xtr, *_ in parts]
            scores = {}
            for g in gammas:
                vals = []
                for f, (Xtr, Ttr, Xva, Tva) in enumerate(parts):
                    W0, b0 = self._start(("cv", g, f), L, M, Xtr, Ttr, warm)
                    W, b, _, st = solve(
                        Xtr, Ttr, alpha, beta, g, W0, b0, max_iter, tol, pen_b, XT=XTs[f]
                    )
                    cv_status[st] = cv_status.get(st, 0) + 1
                    warm[("cv", g, f)] = (W, b)
                    Zva = _sigmoid(np.asarray(Xva @ W.T) + b)
                    if self.cv_score == "determined":  # the 0/1 predictions' similarity
                        Zva = (Zva >= 0.5).astype(np.float64)
                    r = _ratio(Tva, Zva, alpha)
                    vals.append(float((r**beta).mean()))
                scores[g] = float(np.mean(vals))
            best = max(scores.values())
            gamma = max(g for g, v in scores.items() if v == best)  # ties: more penalty
            self.cv_scores_ = scores
        else:
            gamma = gammas[0]
            self.cv_scores_ = {}
        W0, b0 = self._start("full", L, M, X, T, warm)
        W, b, nit, status = solve(X, T, alpha, beta, gamma, W0, b0, max_iter, tol, pen_b)
        warm["full"] = (W, b)
        self._warm_ = warm
        self.coef_, self.intercept_, self.gamma_, self.n_iter_ = W, b, float(gamma), nit
        self.status_, self.cv_status_ = status, cv_status
        self.n_features_in_ = M
        self.n_labels_ = L
        return self

    def _check_fitted(self, X):
        return _check_X(self._predict_input(X))

    def decision_function(self, X: Any) -> np.ndarray:
        """Linear scores ``W x + b`` (log-odds), shape (n_samples, n_labels)."""
        X = self._check_fitted(X)
        return np.asarray(X @ self.coef_.T) + self.intercept_

    def predict_proba(self, X: Any) -> np.ndarray:
        """Undetermined predictions ``z = sigmoid(W x + b)`` in (0, 1)."""
        return _sigmoid(self.decision_function(X))

    def predict(self, X: Any) -> np.ndarray:
        """Determined predictions ``sign(W x + b)`` as 0/1 (``z >= 0.5``)."""
        return (self.decision_function(X) >= 0).astype(np.int8)
