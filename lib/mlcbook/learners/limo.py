"""LIMO: Label-wise and Instance-wise Margins Optimization (Wu & Zhou 2017, Algorithm 1).

A linear predictor :math:`F(x) = W x` (one row ``W[j]`` per label, no bias) trained by
stochastic (sub)gradient descent on Eq. (3),

.. math::
   \\min_W \\sum_j \\|w_j\\|^2
   + \\lambda_1 \\sum_i \\sum_{(u,v) \\in Y_i^+ \\times Y_i^-} [1 - (w_u - w_v)^\\top x_i]_+
   + \\lambda_2 \\sum_j \\sum_{(a,b) \\in Y_j^+ \\times Y_j^-} [1 - w_j^\\top (x_a - x_b)]_+ ,

with fixed step size and the averaged iterate.  Each iteration samples one
*label-wise* triplet (an instance with probability :math:`\\propto |Y_i^+||Y_i^-|`,
then a relevant and an irrelevant label of it uniformly) and one *instance-wise*
triplet (a label with probability :math:`\\propto |Y_j^+||Y_j^-|`, then a positive and
a negative instance of it uniformly), so that every pair of the two sums is equally
likely; a violated triplet moves the two (one) weight rows (Algorithm 1, lines 5-15).

Implementation notes (the algorithm is unchanged):

* all random indices are drawn up front, vectorised;
* the average :math:`\\frac1T \\sum_t W^t` is accumulated lazily: a row's running sum
  is brought up to date only when that row changes, so an iteration costs
  :math:`O(d)` (the rows it touches), not :math:`O(ld)`;
* sparse ``X`` (CSR) is used as is: a dot product touches the stored entries only.

Choices the paper leaves open, settled as in the authors' released MATLAB code
(github.com/YuriWu/LIMO):

* the number of iterations :math:`T` is not given in the paper; the code runs
  ``10 * m * round(label cardinality)`` iterations (10 "epochs"), our default
  (``n_iter=None``, ``n_epochs=10``);
* :math:`W^0 \\sim N(0, 1/\\sqrt d)` is read as standard deviation :math:`1/\\sqrt d`;
* with :math:`\\lambda_1 = 0` (LIMO-inst) the label-wise step is skipped entirely,
  likewise the instance-wise step with :math:`\\lambda_2 = 0` (LIMO-label); read
  literally, Algorithm 1 would still shrink the rows of violated triplets;
* the instance-wise step of iteration ``t`` sees the rows already updated by the
  label-wise step of the same iteration.

Two readings of the sampling (``sampling=``):

* ``"algorithm1"`` (default): Algorithm 1 as printed, every pair of each hinge sum
  equally likely (:func:`sample_triplets`);
* ``"released_code"``: what the authors' ``sgd_limo_train.m`` draws
  (:func:`sample_released_triplets`).  Label-wise: an instance uniformly, then one of
  its relevant and one of its irrelevant labels uniformly; an instance without a
  relevant or without an irrelevant label spends the iteration's label-wise step
  (nothing moves).  Instance-wise: a *new* instance uniformly, then one of its
  relevant labels ``j`` uniformly (so a label is chosen with probability
  :math:`\\frac1m\\sum_{a \\in Y_j^+} 1/|Y_a^+|`, not :math:`\\propto |Y_j^+||Y_j^-|`),
  then a negative instance of ``j`` uniformly; an instance without relevant labels
  spends the step, and a label without negative instances moves
  :math:`w_j \\leftarrow (1-\\eta) w_j + \\eta\\lambda_2 x_a` *unconditionally* (no
  hinge test).  Updates, step sizes, iteration count, initialisation and averaging
  are the same in both readings.  (``limo_init.m`` also rescales a column of
  :math:`W^0` whose entries *all* exceed 5, ``if(tmp1>norm_up)`` on a vector; at
  :math:`N(0, 1/d)` draws that never happens, and neither reading does it.)
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import NotFittedError

from .._validation import check_label_matrix, check_positive_int, check_real
from ._contract import MultiLabelMixin
from .thresholds import InstanceThreshold, LabelThreshold

__all__ = ["LIMO", "SAMPLINGS", "limo_objective", "sample_released_triplets", "sample_triplets"]


def _as_X(X):
    if sp.issparse(X):
        X = sp.csr_matrix(X, dtype=np.float64)
        X.sort_indices()
        return X
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D, got shape {X.shape}")
    if not np.isfinite(X).all():
        raise ValueError("X must not contain NaN or infinite values")
    return X


def _groups(Y: np.ndarray):
    """Flattened index lists of the ones and the zeros of every row of ``Y``."""
    n = Y.shape[0]
    pos_r, pos_c = np.nonzero(Y)
    neg_r, neg_c = np.nonzero(Y == 0)
    npos = np.bincount(pos_r, minlength=n)
    nneg = np.bincount(neg_r, minlength=n)
    pptr = np.concatenate([[0], np.cumsum(npos)])
    nptr = np.concatenate([[0], np.cumsum(nneg)])
    return pos_c, pptr, npos, neg_c, nptr, nneg


SAMPLINGS = ("algorithm1", "released_code")


def sample_triplets(Y: np.ndarray, T: int, rng: np.random.Generator):
    """``T`` triplets (row, one of its ones, one of its zeros), rows weighted by #ones * #zeros.

    Algorithm 1's draw: every (row, one, zero) triplet has probability
    :math:`1 / \\sum_i |Y_i^+||Y_i^-|`.  ``Y`` for the label-wise triplets,
    ``Y.T`` for the instance-wise ones (label, positive instance, negative instance).

    Returns None when no row has both a one and a zero.

    Examples
    --------
    >>> rows, u, v = sample_triplets(np.array([[1, 0, 0], [1, 1, 1]]), 4, np.random.default_rng(0))
    >>> rows.tolist(), u.tolist(), v.tolist()
    ([0, 0, 0, 0], [0, 0, 0, 0], [2, 2, 2, 1])
    """
    pos_c, pptr, npos, neg_c, nptr, nneg = _groups(Y)
    w = npos.astype(float) * nneg
    if w.sum() == 0:
        return None
    rows = rng.choice(Y.shape[0], size=T, p=w / w.sum())
    ru = rng.random(T)
    rv = rng.random(T)
    u = pos_c[pptr[rows] + np.minimum((ru * npos[rows]).astype(np.int64), npos[rows] - 1)]
    v = neg_c[nptr[rows] + np.minimum((rv * nneg[rows]).astype(np.int64), nneg[rows] - 1)]
    return rows, u, v


_sample_triplets = sample_triplets  # the name used before the two readings existed


def _uniform_member(ptr, count, owners, r):
    """For each draw, the member ``floor(r * count)`` of its owner's list (-1 if empty)."""
    c = count[owners]
    k = np.minimum((r * c).astype(np.int64), np.maximum(c - 1, 0))
    return np.where(c > 0, ptr[owners] + k, -1)


def sample_released_triplets(Y: np.ndarray, T: int, rng: np.random.Generator):
    """``T`` label-wise and ``T`` instance-wise draws as ``sgd_limo_train.m`` makes them.

    Returns ``((i, u, v), (j, a, b))``, arrays of length ``T``:

    * label-wise: instance ``i`` uniform over all ``m`` rows, ``u`` uniform over its
      relevant labels, ``v`` over its irrelevant ones; ``u = v = -1`` when ``i`` has
      no relevant or no irrelevant label (the step does nothing).  Hence
      :math:`P(i, u, v) = \\frac1m \\frac1{|Y_i^+|} \\frac1{|Y_i^-|}`.
    * instance-wise: instance ``a`` uniform, ``j`` uniform over its relevant labels,
      ``b`` uniform over the negative instances of ``j``:
      :math:`P(j, a, b) = \\frac1m \\frac1{|Y_a^+|} \\frac1{|Y_j^-|}`; ``j = b = -1``
      when ``a`` has no relevant label (nothing moves), ``b = -1`` alone when ``j``
      has no negative instance (the unconditional positive-only step).

    Examples
    --------
    >>> (i, u, v), (j, a, b) = sample_released_triplets(
    ...     np.array([[1, 0], [0, 0]]), 3, np.random.default_rng(1))
    >>> i.tolist(), u.tolist(), v.tolist()
    ([0, 1, 1], [0, -1, -1], [1, -1, -1])
    """
    m = Y.shape[0]
    pos_c, pptr, npos, neg_c, nptr, nneg = _groups(Y)
    i = rng.integers(0, m, size=T)
    ru, rv = rng.random(T), rng.random(T)
    ok = (npos[i] > 0) & (nneg[i] > 0)
    u = np.where(ok, pos_c[np.maximum(_uniform_member(pptr, npos, i, ru), 0)], -1)
    v = np.where(ok, neg_c[np.maximum(_uniform_member(nptr, nneg, i, rv), 0)], -1)
    # instance-wise: the negatives of each label are the zeros of the columns
    _, _, _, negi_c, negi_ptr, negi_n = _groups(Y.T)
    a = rng.integers(0, m, size=T)
    rj, rb = rng.random(T), rng.random(T)
    has = npos[a] > 0
    j = np.where(has, pos_c[np.maximum(_uniform_member(pptr, npos, a, rj), 0)], -1)
    jj = np.maximum(j, 0)
    has_b = has & (negi_n[jj] > 0)
    b = np.where(has_b, negi_c[np.maximum(_uniform_member(negi_ptr, negi_n, jj, rb), 0)], -1)
    return (i, u, v), (j, a, b)


def limo_objective(
    W, X, Y, lambda1: float = 1.0, lambda2: float = 1.0, *, normalize: bool = True
) -> float:
    """The LIMO objective, Eq. (3), at ``W`` (shape ``(n_labels, n_features)``).

    With ``normalize=True`` each hinge sum is divided by its number of pairs.  Algorithm 1
    draws every pair with equal probability, so its hinge steps are unbiased for this
    form (the constants absorbed into :math:`\\lambda_1, \\lambda_2`, Appendix A.3); it
    applies the shrinkage :math:`(1 - \\eta)` only to rows of violated pairs, however, so it
    is not exact SGD on it.  Dense computation: for small problems (tests, the synthetic data).
    """
    lambda1 = check_real(lambda1, "lambda1", low=0.0)
    lambda2 = check_real(lambda2, "lambda2", low=0.0)
    X = _as_X(X)
    Y = check_label_matrix(Y, "Y", allow_sparse=False).astype(bool)
    W = np.asarray(W, dtype=float)
    F = np.asarray(X @ W.T)
    reg = float((W**2).sum())
    # label-wise pairs: F[i,u] - F[i,v] for u relevant, v irrelevant
    D = F[:, :, None] - F[:, None, :]
    mask = Y[:, :, None] & ~Y[:, None, :]
    h1 = np.maximum(0.0, 1.0 - D[mask]).sum()
    n1 = max(int(mask.sum()), 1)
    h2, n2 = 0.0, 0
    for j in range(Y.shape[1]):  # instance-wise pairs, per label
        fp, fn = F[Y[:, j], j], F[~Y[:, j], j]
        h2 += np.maximum(0.0, 1.0 - (fp[:, None] - fn[None, :])).sum()
        n2 += fp.size * fn.size
    n2 = max(n2, 1)
    if normalize:
        return reg + lambda1 * h1 / n1 + lambda2 * h2 / n2
    return reg + lambda1 * h1 + lambda2 * h2


class LIMO(MultiLabelMixin, ClassifierMixin, BaseEstimator):
    """Label-wise and instance-wise margins optimisation (Wu & Zhou 2017, Algorithm 1).

    Parameters
    ----------
    lambda1 : float
        Trade-off of the label-wise hinge term (0 gives LIMO-inst).
    lambda2 : float
        Trade-off of the instance-wise hinge term (0 gives LIMO-label).
    eta : float
        Fixed step size (the paper uses 0.01 on benchmark data).
    n_iter : int, optional
        Number of SGD iterations :math:`T`; default ``n_epochs * m * max(1, round(card))``
        with ``m`` training instances and ``card`` their mean number of labels (the
        authors' code).
    n_epochs : int
        Used when ``n_iter`` is None.
    threshold : {'label', 'instance', 'shared'}
        How :meth:`predict` thresholds the scores: per-label ``t_j``, per-instance
        ``t(x)``, or one threshold for all labels, all chosen on the training data
        (see :mod:`mlcbook.learners.thresholds`).
    threshold_measure : {'f1', 'hamming'}
        What the thresholds optimise on the training data.
    sampling : {'algorithm1', 'released_code'}
        How the SGD draws its triplets: Algorithm 1 as printed (every pair of each
        hinge sum equally likely), or as the authors' ``sgd_limo_train.m`` does
        (instances uniformly, then labels; see the module docstring and
        :func:`sample_released_triplets`).
    random_state : int or numpy Generator, optional
        Seeds the initialisation and every sampled triplet.

    Attributes
    ----------
    coef_ : ndarray of shape (n_labels, n_features)
        The averaged iterate :math:`\\bar W = \\frac1T\\sum_{t=1}^T W^t`.
    n_iter_ : int
        The number of iterations run.
    n_updates_ : tuple of int
        Violated (hence applied) label-wise and instance-wise steps.
    classes_ : list of ndarray
        ``[0, 1]`` for every label (scikit-learn's multi-label convention).
    n_features_in_ : int
    """

    _accept_sparse = "csr"
    _x_dtype = np.float64
    _fitted_attr = "coef_"

    def __init__(
        self,
        lambda1: float = 1.0,
        lambda2: float = 1.0,
        eta: float = 0.01,
        n_iter: int | None = None,
        n_epochs: int = 10,
        threshold: str = "label",
        threshold_measure: str = "f1",
        random_state=None,
        sampling: str = "algorithm1",
    ):
        self.lambda1 = lambda1
        self.lambda2 = lambda2
        self.eta = eta
        self.n_iter = n_iter
        self.n_epochs = n_epochs
        self.threshold = threshold
        self.threshold_measure = threshold_measure
        self.random_state = random_state
        self.sampling = sampling

    # ------------------------------------------------------------------ fitting
    def fit(self, X, Y, *, fit_threshold: bool = True) -> LIMO:
        """Run Algorithm 1 on ``(X, Y)`` and then choose the thresholds on it.

        Parameters
        ----------
        X : array-like or scipy sparse matrix of shape (n_samples, n_features)
        Y : array-like of shape (n_samples, n_labels)
        fit_threshold : bool
            Skip the threshold fit when only scores are needed.
        """
        X, Y = self._fit_input(X, Y)
        X = _as_X(X)
        Y = check_label_matrix(Y, "Y", allow_sparse=False)
        if self.threshold not in ("label", "instance", "shared"):
            raise ValueError(
                f"threshold must be one of ('label', 'instance', 'shared'), got {self.threshold!r}"
            )
        if self.threshold_measure not in ("f1", "hamming"):
            raise ValueError(
                "threshold_measure must be one of ('f1', 'hamming'), "
                f"got {self.threshold_measure!r}"
            )
        if self.sampling not in SAMPLINGS:
            raise ValueError(f"sampling must be one of {SAMPLINGS}, got {self.sampling!r}")
        lam1 = check_real(self.lambda1, "lambda1", low=0.0)
        lam2 = check_real(self.lambda2, "lambda2", low=0.0)
        eta = check_real(self.eta, "eta", low=0.0, low_inclusive=False)
        m, d = X.shape
        l = Y.shape[1]
        if self.n_iter is None:
            epochs = check_positive_int(self.n_epochs, "n_epochs")
            card = Y.sum() / m
            T = epochs * m * max(1, int(np.round(card)))
        else:
            T = check_positive_int(self.n_iter, "n_iter")
        rng = np.random.default_rng(self.random_state)
        W = rng.normal(0.0, 1.0 / np.sqrt(d), size=(l, d))
        if self.sampling == "algorithm1":
            lab = sample_triplets(Y, T, rng) if lam1 > 0 else None
            ins = sample_triplets(Y.T, T, rng) if lam2 > 0 else None
        else:
            lab, ins = sample_released_triplets(Y, T, rng)
            lab = lab if lam1 > 0 else None
            ins = ins if lam2 > 0 else None
        # ins = (label j, positive instance a, negative instance b); -1 = see
        # sample_released_triplets
        self.coef_, self.n_updates_ = _run_sgd(X, W, lab, ins, T, eta, lam1, lam2)
        self.n_iter_ = T
        self.n_features_in_ = d
        self.n_labels_ = l
        if fit_threshold:
            self.fit_threshold(X, Y)
        return self

    def fit_threshold(self, X, Y) -> LIMO:
        """Choose the thresholds of :meth:`predict` on ``(X, Y)`` (usually the training set)."""
        F = self.decision_function(X)
        if self.threshold == "instance":
            self.threshold_ = InstanceThreshold(self.threshold_measure).fit(F, Y, X)
        elif self.threshold in ("label", "shared"):
            self.threshold_ = LabelThreshold(
                self.threshold_measure, shared=self.threshold == "shared"
            ).fit(F, Y)
        else:
            raise ValueError(
                f"threshold must be one of ('label', 'instance', 'shared'), got {self.threshold!r}"
            )
        return self

    # --------------------------------------------------------------- predicting
    def decision_function(self, X) -> np.ndarray:
        """Scores :math:`F(x) = \\bar W x`, shape (n_samples, n_labels)."""
        X = _as_X(self._predict_input(X))
        return np.asarray(X @ self.coef_.T)

    def predict(self, X) -> np.ndarray:
        """0/1 predictions from the thresholds chosen at fit time."""
        X = _as_X(self._predict_input(X))
        if not hasattr(self, "threshold_"):
            raise NotFittedError(
                "LIMO was fitted with fit_threshold=False: call fit_threshold before predict"
            )
        F = np.asarray(X @ self.coef_.T)
        return self.threshold_.predict(F, X)


def _run_sgd(X, W, lab, ins, T, eta, lam1, lam2):
    """Algorithm 1, lines 4-17, with the lazily accumulated average."""
    S = np.zeros_like(W)  # running sum of the iterates, up to last[k]
    last = np.ones(W.shape[0], dtype=np.int64)  # W[k] has been W^t for t = last[k], ..., now
    shrink = 1.0 - eta
    csr = (X.indptr, X.indices, X.data) if sp.issparse(X) else None
    n_lab = n_ins = 0
    I = U = V = J = A = B = None
    if lab is not None:
        I, U, V = (a.tolist() for a in lab)
    if ins is not None:
        J, A, B = (a.tolist() for a in ins)
    do_lab, do_ins = lab is not None, ins is not None
    step1, step2 = eta * lam1, eta * lam2

    def flush(k, t):
        S[k] += (t - last[k]) * W[k]
        last[k] = t

    for t in range(1, T + 1):
        if do_lab and U[t - 1] >= 0:  # u = -1: a released-code draw that moves nothing
            n_lab += _label_step(W, X, csr, I[t - 1], U[t - 1], V[t - 1], shrink, step1, flush, t)
        if do_ins and J[t - 1] >= 0:  # j = -1: a released-code draw that moves nothing
            n_ins += _instance_step(
                W, X, csr, J[t - 1], A[t - 1], B[t - 1], shrink, step2, flush, t
            )
    S += (T + 1 - last)[:, None] * W
    return S / T, (n_lab, n_ins)


def _row(X, csr, i):
    """Row ``i`` of ``X``: (column indices, values) if sparse (``csr``), else (None, row)."""
    if csr is None:
        return None, X[i]
    indptr, indices, data = csr
    return indices[indptr[i] : indptr[i + 1]], data[indptr[i] : indptr[i + 1]]


def _label_step(W, X, csr, i, u, v, shrink, step, flush, t):
    """Lines 7-9: instance ``i`` ranks label ``u`` above ``v`` by a margin of 1, else
    both rows of ``W`` move (after shrinking); 1 if they moved, else 0."""
    wu, wv = W[u], W[v]
    idx, x = _row(X, csr, i)
    gap = (wu[idx] - wv[idx]) @ x if idx is not None else (wu - wv) @ x
    if not 1.0 - gap > 0.0:
        return 0
    flush(u, t)
    flush(v, t)
    wu *= shrink
    wv *= shrink
    if idx is not None:
        wu[idx] += step * x
        wv[idx] -= step * x
    else:
        wu += step * x
        wv -= step * x
    return 1


def _instance_step(W, X, csr, j, a, b, shrink, step, flush, t):
    """Lines 13-14: label ``j`` ranks instance ``a`` above ``b`` by a margin of 1, else
    its row moves; ``b`` < 0 (the released code's label without negatives) moves it
    unconditionally.  1 if it moved, else 0."""
    wj = W[j]
    ia, xa = _row(X, csr, a)
    if b < 0:
        flush(j, t)
        wj *= shrink
        if ia is not None:
            wj[ia] += step * xa
        else:
            wj += step * xa
        return 1
    ib, xb = _row(X, csr, b)
    gap = wj[ia] @ xa - wj[ib] @ xb if ia is not None else wj @ xa - wj @ xb
    if not 1.0 - gap > 0.0:
        return 0
    flush(j, t)
    wj *= shrink
    if ia is not None:
        wj[ia] += step * xa
        wj[ib] -= step * xb
    else:
        wj += step * (xa - xb)
    return 1
