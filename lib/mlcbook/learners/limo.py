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

Departures of the released code from Algorithm 1, where we follow the paper: the code
samples instances uniformly (not by :math:`c^{inst}`) and draws the instance-wise
triplet by picking an instance and one of its relevant labels.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin

from .._progress import progress_enabled
from .._validation import check_label_matrix, check_positive_int, check_real
from ._contract import MultiLabelMixin
from .thresholds import InstanceThreshold, LabelThreshold

__all__ = ["LIMO", "limo_objective"]


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


def _sample_triplets(Y: np.ndarray, T: int, rng: np.random.Generator):
    """``T`` triplets (row, one of its ones, one of its zeros), rows weighted by #ones * #zeros.

    Returns None when no row has both a one and a zero.
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


def limo_objective(W, X, Y, lambda1: float = 1.0, lambda2: float = 1.0, *, normalize: bool = True) -> float:
    """The LIMO objective, Eq. (3), at ``W`` (shape ``(n_labels, n_features)``).

    With ``normalize=True`` each hinge sum is divided by its number of pairs.  Algorithm 1
    draws every pair with equal probability, so its hinge steps are unbiased for this
    form (the constants absorbed into :math:`\\lambda_1, \\lambda_2`, Appendix A.3); it
    applies the shrinkage :math:`(1 - \\eta)` only to rows of violated pairs, however, so it
    is not exact SGD on it.  Dense computation: for small problems (tests, the synthetic data).
    """
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
    ):
        self.lambda1 = lambda1
        self.lambda2 = lambda2
        self.eta = eta
        self.n_iter = n_iter
        self.n_epochs = n_epochs
        self.threshold = threshold
        self.threshold_measure = threshold_measure
        self.random_state = random_state

    # ------------------------------------------------------------------ fitting
    def fit(self, X, Y, *, fit_threshold: bool = True) -> "LIMO":
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
            raise ValueError("threshold must be one of ('label', 'instance', "
                             f"'shared'), got {self.threshold!r}")
        if self.threshold_measure not in ("f1", "hamming"):
            raise ValueError("threshold_measure must be one of ('f1', 'hamming'), "
                             f"got {self.threshold_measure!r}")
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
        lab = _sample_triplets(Y, T, rng) if lam1 > 0 else None
        ins = _sample_triplets(Y.T, T, rng) if lam2 > 0 else None
        # ins = (label j, positive instance a, negative instance b)
        self.coef_, self.n_updates_ = _run_sgd(X, W, lab, ins, T, eta, lam1, lam2)
        self.n_iter_ = T
        self.n_features_in_ = d
        self.n_labels_ = l
        if fit_threshold:
            self.fit_threshold(X, Y)
        return self

    def fit_threshold(self, X, Y) -> "LIMO":
        """Choose the thresholds of :meth:`predict` on ``(X, Y)`` (usually the training set)."""
        F = self.decision_function(X)
        if self.threshold == "instance":
            self.threshold_ = InstanceThreshold(self.threshold_measure).fit(F, Y, X)
        elif self.threshold in ("label", "shared"):
            self.threshold_ = LabelThreshold(self.threshold_measure, shared=self.threshold == "shared").fit(F, Y)
        else:
            raise ValueError(f"threshold must be one of ('label', 'instance', 'shared'), got {self.threshold!r}")
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
            from sklearn.exceptions import NotFittedError

            raise NotFittedError("LIMO was fitted with fit_threshold=False: call "
                                 "fit_threshold before predict")
        F = np.asarray(X @ self.coef_.T)
        return self.threshold_.predict(F, X)


def _run_sgd(X, W, lab, ins, T, eta, lam1, lam2):
    """Algorithm 1, lines 4-17, with the lazily accumulated average."""
    l, d = W.shape
    S = np.zeros_like(W)  # running sum of the iterates, up to last[k]
    last = np.ones(l, dtype=np.int64)  # W[k] has been W^t for t = last[k], ..., now
    shrink = 1.0 - eta
    sparse = sp.issparse(X)
    if sparse:
        indptr, indices, data = X.indptr, X.indices, X.data
    else:
        Xd = X
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
        if do_lab:
            i, u, v = I[t - 1], U[t - 1], V[t - 1]
            wu, wv = W[u], W[v]
            if sparse:
                idx = indices[indptr[i]:indptr[i + 1]]
                val = data[indptr[i]:indptr[i + 1]]
                gap = (wu[idx] - wv[idx]) @ val
            else:
                x = Xd[i]
                gap = (wu - wv) @ x
            if 1.0 - gap > 0.0:  # lines 7-9
                flush(u, t)
                flush(v, t)
                wu *= shrink
                wv *= shrink
                if sparse:
                    wu[idx] += step1 * val
                    wv[idx] -= step1 * val
                else:
                    wu += step1 * x
                    wv -= step1 * x
                n_lab += 1
        if do_ins:
            j, a, b = J[t - 1], A[t - 1], B[t - 1]
            wj = W[j]
            if sparse:
                ia = indices[indptr[a]:indptr[a + 1]]
                va = data[indptr[a]:indptr[a + 1]]
                ib = indices[indptr[b]:indptr[b + 1]]
                vb = data[indptr[b]:indptr[b + 1]]
                gap = wj[ia] @ va - wj[ib] @ vb
            else:
                xa, xb = Xd[a], Xd[b]
                gap = wj @ xa - wj @ xb
            if 1.0 - gap > 0.0:  # lines 13-14
                flush(j, t)
                wj *= shrink
                if sparse:
                    wj[ia] += step2 * va
                    wj[ib] -= step2 * vb
                else:
                    wj += step2 * (xa - xb)
                n_ins += 1
    S += (T + 1 - last)[:, None] * W
    return S / T, (n_lab, n_ins)


# ---------------------------------------------------------------------------
# The experimental protocol of Wu & Zhou (2017), Sec. 5.2 (benchmark data)
# ---------------------------------------------------------------------------

#: The six learners of Sec. 5.2, with LIMO's trade-offs (λ1, λ2).
BENCHMARK_METHODS: tuple[str, ...] = ("BR", "ML-kNN", "GFM", "LIMO-inst", "LIMO-label", "LIMO")
LIMO_VARIANTS: dict[str, tuple[float, float]] = {
    "LIMO-inst": (0.0, 1.0),
    "LIMO-label": (1.0, 0.0),
    "LIMO": (1.0, 1.0),
}


def split_indices(n: int, replication: int, train_fraction: float = 0.7):
    """Random train/test split of replication ``replication`` (seeded by it)."""
    rng = np.random.default_rng(20170000 + int(replication))
    perm = rng.permutation(n)
    n_train = int(round(train_fraction * n))
    return np.sort(perm[:n_train]), np.sort(perm[n_train:])


def _measures(Y, F, P_by_measure: dict) -> dict:
    """The eleven measures; each classification measure uses its own 0/1 prediction."""
    from ..metrics import all_measures

    out = all_measures(Y, F, P_by_measure["hamming_loss"])
    seen = {}
    for key in ("macro_f1", "micro_f1", "instance_f1"):
        P = P_by_measure[key]
        pid = id(P)
        if pid not in seen:
            seen[pid] = all_measures(Y, F, P)
        out[key] = seen[pid][key]
    return out


def limo_benchmark_predictions(Xtr, Ytr, Xte, lambda1, lambda2, *, eta=0.01, random_state=None, n_epochs=10):
    """Scores and the thresholded predictions LIMO is evaluated with on benchmark data.

    The thresholds follow the authors' released experiment script (``demo.m``):
    Hamming loss with a per-instance ``t(x)`` minimising each training instance's
    errors (RBF-SVR regression); macro-F1 with per-label ``t_j`` maximising each
    label's F1; micro- and instance-F1 with one threshold maximising micro-F1.
    """
    model = LIMO(lambda1, lambda2, eta=eta, n_epochs=n_epochs, random_state=random_state)
    model.fit(Xtr, Ytr, fit_threshold=False)
    Ftr = model.decision_function(Xtr)
    Fte = model.decision_function(Xte)
    P_ham = InstanceThreshold("hamming").fit(Ftr, Ytr, Xtr).predict(Fte, Xte)
    P_macro = LabelThreshold("f1").fit(Ftr, Ytr).predict(Fte)
    P_shared = LabelThreshold("f1", shared=True).fit(Ftr, Ytr).predict(Fte)
    return Fte, {"hamming_loss": P_ham, "macro_f1": P_macro, "micro_f1": P_shared, "instance_f1": P_shared}


def _scaled_split(name: str, replication: int):
    """The 70/30 split of one replication, features scaled to [-1, 1] on the training part."""
    from sklearn.preprocessing import MaxAbsScaler

    from ..datasets import load_dataset

    X, Y, _ = load_dataset(name)
    Y = np.asarray(Y, dtype=np.int8)
    tr, te = split_indices(X.shape[0], replication)
    scaler = MaxAbsScaler().fit(X[tr])
    Xtr, Xte = scaler.transform(X[tr]), scaler.transform(X[te])
    if sp.issparse(Xtr):
        Xtr, Xte = sp.csr_matrix(Xtr), sp.csr_matrix(Xte)
    return Xtr, Xte, Y[tr], Y[te]


def benchmark_cell(name: str, replication: int, method: str, *, eta: float = 0.01, k: int = 10,
                   C: float = 1.0, n_epochs: int = 10, data=None) -> list[dict]:
    """One method on one 70/30 split of one dataset: its rows of eleven measures.

    Features are scaled to [-1, 1] per column (``MaxAbsScaler`` fitted on the training
    part; the authors' code divides by the column's maximum absolute value).
    GFM has no scores: its 0/1 prediction is also its score matrix (row ``GFM``); row
    ``GFM-marg`` scores it by the neighbour-estimated marginals instead (not ranked).
    ``data`` may pass the split of :func:`_scaled_split` to avoid reloading it.
    """
    import time

    from sklearn.multiclass import OneVsRestClassifier
    from sklearn.svm import LinearSVC

    from .gfm import GFM
    from .mlknn import MLkNN

    if method not in BENCHMARK_METHODS:
        raise ValueError(f"method must be one of {list(BENCHMARK_METHODS)}, got {method!r}")
    Xtr, Xte, Ytr, Yte = _scaled_split(name, replication) if data is None else data
    rows = []
    keys = ("hamming_loss", "macro_f1", "micro_f1", "instance_f1")

    def add(label, F, P_by, seconds):
        r = {"dataset": name, "replication": int(replication), "method": label}
        r.update(_measures(Yte, np.asarray(F, dtype=float), P_by))
        r["seconds"] = seconds
        rows.append(r)

    t0 = time.perf_counter()
    if method == "BR":
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # labels constant on the training part
            br = OneVsRestClassifier(LinearSVC(C=C, random_state=0)).fit(Xtr, Ytr)
            F, P = br.decision_function(Xte), br.predict(Xte)
        P = np.asarray(P.toarray() if sp.issparse(P) else P, dtype=np.int8)
        add(method, F, dict.fromkeys(keys, P), time.perf_counter() - t0)
    elif method == "ML-kNN":
        mk = MLkNN(k=k, s=1.0).fit(Xtr, Ytr)
        F, P = mk.predict_proba(Xte), mk.predict(Xte)
        add(method, F, dict.fromkeys(keys, P), time.perf_counter() - t0)
    elif method == "GFM":
        g = GFM(k=k).fit(Xtr, Ytr)
        P = g.predict(Xte)
        Pby = dict.fromkeys(keys, P)
        sec = time.perf_counter() - t0
        add("GFM", P.astype(float), Pby, sec)
        add("GFM-marg", g.predict_marginals(Xte), Pby, sec)
    else:
        l1, l2 = LIMO_VARIANTS[method]
        F, Pby = limo_benchmark_predictions(Xtr, Ytr, Xte, l1, l2, eta=eta,
                                            random_state=int(replication), n_epochs=n_epochs)
        add(method, F, Pby, time.perf_counter() - t0)
    return rows


def benchmark_unit(name: str, replication: int, methods=BENCHMARK_METHODS, **kw) -> list[dict]:
    """All ``methods`` on one 70/30 split of one dataset (:func:`benchmark_cell` each)."""
    data = _scaled_split(name, replication)
    return [r for m in methods for r in benchmark_cell(name, replication, m, data=data, **kw)]


BENCHMARK_DATASETS: tuple[str, ...] = ("cal500", "medical", "enron", "bibtex")


def _reps(datasets, replications) -> dict:
    if isinstance(replications, dict):
        return {d: int(replications[d]) for d in datasets}
    return {d: int(replications) for d in datasets}


def benchmark_config(datasets=BENCHMARK_DATASETS, replications: int | dict = 10) -> dict:
    """Everything the benchmark table depends on (the key of ``load_or_compute``).

    ``replications`` is a number for every dataset or a dict ``dataset -> number``.
    """
    from ..results import dataset_fingerprints

    return {
        "experiment": "Wu & Zhou (2017) Sec. 5.2",
        "datasets": list(datasets),
        "data": dataset_fingerprints(list(datasets)),
        "replications": _reps(datasets, replications),
        "split": "70/30, seed 20170000 + replication",
        "methods": list(BENCHMARK_METHODS),
        "limo": {"eta": 0.01, "lambda": 1.0, "n_epochs": 10, "init_std": "1/sqrt(d)",
                 "sampling": "Algorithm 1 (weighted)"},
        "knn": 10, "neighbours": "euclidean, equal distances by training index",
        "br_C": 1.0, "scaling": "MaxAbsScaler(train)",
        "thresholds": "hamming: t(x) SVR; macro-F1: t_j; micro/instance-F1: shared t",
    }


def _cell_cache_path(name: str, replication: int, method: str, config: dict):
    from .._paths import cache_dir
    from ..results import config_hash

    spec = {k: v for k, v in config.items() if k not in ("datasets", "replications", "data")}
    spec.update(dataset=name, data=config["data"][name], replication=int(replication),
                method=method)
    safe = method.replace("/", "_")
    key = config_hash(spec)
    return cache_dir() / "limo_bench" / name / f"{int(replication)}_{safe}_{key}.json"


def _read_cached_rows(path):
    import json
    import warnings

    if not path.exists():
        return None
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(rows, list) or not rows or not all(isinstance(r, dict) for r in rows):
            raise ValueError("not a list of rows")
        return rows
    except (OSError, ValueError) as err:
        warnings.warn(f"discarding the corrupt cache entry {path} ({err}); it is recomputed",
                      RuntimeWarning, stacklevel=2)
        path.unlink(missing_ok=True)
        return None


def benchmark_table(datasets=BENCHMARK_DATASETS, replications: int | dict = 10, *,
                    n_jobs: int = 1):
    """The long table of Sec. 5.2: one row per dataset, replication and method.

    Every (dataset, replication, method) cell is memoised in
    ``data/cache/limo_bench`` (git-ignored; :func:`mlcbook._paths.cache_dir`), keyed by its specification, written
    atomically as it finishes, so an interrupted run resumes.  Cells run in
    parallel through joblib (``n_jobs``).  The memo is bypassed when the table is
    being recomputed (``make reproduce``/``make table``) unless
    ``MLCBOOK_RESUME=1`` says that it was filled by the same, interrupted recomputation.
    """
    import json
    import os

    import pandas as pd
    from joblib import Parallel, delayed

    from .._io import atomic_write_text
    from .._progress import progress
    from ..results import recompute_requested

    config = benchmark_config(datasets, replications)
    reps = _reps(datasets, replications)
    trust = not recompute_requested("limo_benchmark") or os.environ.get("MLCBOOK_RESUME") == "1"
    cells = [(d, r, m) for d in datasets for r in range(reps[d]) for m in BENCHMARK_METHODS]
    done = {}
    for c in cells:
        rows = _read_cached_rows(_cell_cache_path(*c, config)) if trust else None
        if rows is not None:
            done[c] = rows
    todo = [c for c in cells if c not in done]
    jobs = (delayed(benchmark_cell)(*c) for c in todo)
    for c, rows in progress(zip(todo, Parallel(n_jobs=n_jobs, return_as="generator")(jobs)),
                            desc="LIMO benchmark", total=len(todo)):
        atomic_write_text(_cell_cache_path(*c, config), json.dumps(rows))
        done[c] = rows
    return pd.DataFrame([r for c in cells for r in done[c]])


# ---------------------------------------------------------------------------
# The synthetic experiment of Sec. 5.1
# ---------------------------------------------------------------------------

SYNTHETIC_LAMBDA = 100.0


def synthetic_config(replications: int = 10) -> dict:
    """Everything the synthetic tables depend on."""
    return {
        "experiment": "Wu & Zhou (2017) Sec. 5.1",
        "data": "make_limo_synthetic(2000, seed=replication), quadrant design v1",
        "replications": int(replications),
        "test_fraction": 0.5,
        "lambda": SYNTHETIC_LAMBDA,
        "limo": {"eta": 0.01, "n_epochs": 10, "init_std": "1/sqrt(d)", "intercept": False},
        "thresholds": {"t": "per-label t_j", "t(x)": "per-instance, RBF-SVR",
                       "optimised": "hamming for Hamming loss, F1 for the F-measures"},
    }


def synthetic_replication(replication: int, lam: float = SYNTHETIC_LAMBDA) -> list[dict]:
    """LIMO-inst, LIMO-label and LIMO on one draw of the synthetic data (50 % held out).

    One row per (variant, thresholding) with the eleven measures: ``threshold`` is
    ``'t'`` (per label) or ``'t(x)'`` (per instance); the ranking measures do not
    depend on it.  Hamming loss is computed with thresholds minimising training
    errors, the F-measures with thresholds maximising training F1 (per label for
    ``t``, per instance for ``t(x)``).
    """
    from ..datasets.synthetic import make_limo_synthetic

    X, Y = make_limo_synthetic(2000, seed=int(replication))
    n_train = X.shape[0] // 2
    Xtr, Xte, Ytr, Yte = X[:n_train], X[n_train:], Y[:n_train], Y[n_train:]
    rows = []
    for name, (a1, a2) in LIMO_VARIANTS.items():
        model = LIMO(lam * a1, lam * a2, eta=0.01, random_state=int(replication))
        model.fit(Xtr, Ytr, fit_threshold=False)
        Ftr, Fte = model.decision_function(Xtr), model.decision_function(Xte)
        for tname in ("t", "t(x)"):
            P = {}
            for measure in ("hamming", "f1"):
                if tname == "t":
                    P[measure] = LabelThreshold(measure).fit(Ftr, Ytr).predict(Fte)
                else:
                    P[measure] = InstanceThreshold(measure).fit(Ftr, Ytr, Xtr).predict(Fte, Xte)
            Pby = {"hamming_loss": P["hamming"], "macro_f1": P["f1"], "micro_f1": P["f1"],
                   "instance_f1": P["f1"]}
            r = {"replication": int(replication), "method": name, "threshold": tname}
            r.update(_measures(Yte, Fte, Pby))
            rows.append(r)
    return rows


def synthetic_table(replications: int = 10):
    """All replications of :func:`synthetic_replication` as one long table."""
    import pandas as pd

    from .._progress import progress

    rows = []
    for r in progress(range(replications), desc="synthetic"):
        rows.extend(synthetic_replication(r))
    return pd.DataFrame(rows)
