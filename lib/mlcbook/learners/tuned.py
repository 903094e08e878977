"""Thresholds of a multi-label scorer chosen by cross-validation.

:class:`TunedThresholdMultiLabelCV` is the multi-label counterpart of
scikit-learn's :class:`~sklearn.model_selection.TunedThresholdClassifierCV` (binary
only): it turns any estimator with ``predict_proba`` or ``decision_function`` into a
0/1 predictor whose thresholds maximise a measure of out-of-fold predictions.

* The scores are cross-validated once (each instance scored by a model fitted on
  the other folds), so each candidate threshold is judged on instances the model did
  not see.
* Candidates: the scores' quantiles at ``thresholds`` levels (or a given array); a
  candidate ``c`` predicts ``s >= c`` (stored as the largest float below ``c``, so
  ``predict`` uses ``s > threshold`` like the rest of the library).
* ``per_label=False``: one threshold shared by all labels, the best candidate.
  ``per_label=True``: one threshold per label.  For macro F-beta the labels are
  independent and each label's best candidate is found exactly; for micro and instance
  F-beta and any other measure the thresholds interact, and they are found by
  coordinate ascent (start from the best shared threshold, then each label's best
  candidate given the others, ``n_sweeps`` rounds; every step can only improve the
  objective).  F-beta objectives are evaluated from counts in one vectorised pass per
  label; other mlcbook scorers call the measure once per candidate and label.

The objective is any registered measure of 0/1 predictions (:mod:`mlcbook.registry`:
scikit-learn's ``"f1_macro"``, ``"f1_micro"``, ``"f1_samples"`` with their 0/0 = 0, the
book's ``"macro_f1"``, ``"micro_f1"``, ``"instance_f1"`` with 0/0 = 1,
``"hamming_loss"``, ``"binomial_loss"`` with ``scoring_params={"k": 2}``, ...; losses are
minimised).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.model_selection import check_cv

from .. import registry as _R
from .. import scorers as _S
from .._labelcounts import prf
from .._validation import check_bool, check_positive_int, check_real
from ._contract import MultiLabelMixin

__all__ = ["TunedThresholdMultiLabelCV"]

#: F-beta objectives computed from counts: name -> average (0/0: the measure's default).
_FBETA = {
    "f1_macro": "macro",
    "f1_micro": "micro",
    "f1_samples": "instance",
    "macro_f1": "macro",
    "micro_f1": "micro",
    "instance_f1": "instance",
}


def _scores_of(estimator: Any, X: Any, method: str) -> np.ndarray:
    S = getattr(estimator, method)(X)
    return _as_matrix(S)


def _as_matrix(S: Any) -> np.ndarray:
    """A score matrix; scikit-learn's list of (n, 2) probability arrays (one per label,
    ``MultiOutputClassifier``) becomes its column of the positive class."""
    if isinstance(S, list):
        S = np.column_stack([np.asarray(s)[:, -1] for s in S])
    S = np.asarray(S, dtype=np.float64)
    return S[:, None] if S.ndim == 1 else S


def _below(c: np.ndarray) -> np.ndarray:
    """The largest floats below ``c``: ``s > _below(c)`` iff ``s >= c``."""
    return np.nextafter(c, -np.inf)


class _Objective:
    """The measure to maximise, from counts (F-beta) or by calling the measure."""

    def __init__(self, scoring: str, params: dict[str, Any], beta: float) -> None:
        if not isinstance(scoring, str):
            raise TypeError(f"scoring must be a scorer name (str), got {scoring!r}")
        names = _R.measure_names(inputs="predictions")
        try:
            spec = _R.get_measure(scoring)
        except ValueError:
            spec = None
        if spec is None or spec.inputs != "predictions":
            raise ValueError(
                f"scoring must name a measure of 0/1 predictions, one of {names}; got {scoring!r}"
            )
        fast = set(params) <= {"zero_division"}
        self.average = _FBETA.get(spec.name) if fast else None
        self.beta = beta
        # the measure's own 0/0 value ("warn" counts as its value 0: no warning per step)
        self.zero_division = (
            float(spec.check_params(params)["zero_division"])
            if fast and (self.average is not None)
            else 1.0
        )
        if self.average is None:
            scorer = _S.get_scorer(scoring, **params)  # checks the parameters
            self.fn = scorer._score_func
            self.kwargs = dict(scorer._kwargs)
            self.sign = float(scorer._sign)

    def __call__(self, Y: np.ndarray, P: np.ndarray) -> float:
        if self.average is not None:
            tp, ny, np_ = _counts(Y, P, self.average)
            return self.from_counts(tp, ny, np_)
        return self.sign * float(self.fn(Y, P, **self.kwargs))

    def from_counts(self, tp: Any, ny: Any, np_: Any) -> float:
        """F-beta of counts: per label (macro), pooled (micro) or per row (instance);
        the last axis is averaged; 0/0 is the measure's ``zero_division``."""
        return float(np.mean(self.f(tp, ny, np_)))

    def f(self, tp: Any, ny: Any, np_: Any) -> np.ndarray:
        """F-beta of counts, elementwise (:func:`mlcbook._labelcounts.prf`)."""
        return prf("f", tp, ny, np_, self.beta, self.zero_division)


def _counts(Y: np.ndarray, P: np.ndarray, average: str):
    axis = {"macro": 0, "instance": 1, "micro": None}[average]
    tp = (Y & P).sum(axis=axis)
    return tp, Y.sum(axis=axis), P.sum(axis=axis)


class TunedThresholdMultiLabelCV(MultiLabelMixin, ClassifierMixin, BaseEstimator):
    """Per-label (or shared) decision thresholds tuned by cross-validation.

    Parameters
    ----------
    estimator : estimator
        A multi-label estimator with ``predict_proba`` or ``decision_function``
        returning an ``(n_samples, n_labels)`` matrix (or scikit-learn's list of
        per-label ``(n_samples, 2)`` arrays).
    scoring : str, default "f1_macro"
        A registered measure of 0/1 predictions (:mod:`mlcbook.registry`); the
        default is scikit-learn's macro F1 (a label never true nor predicted scores 0).
    scoring_params : dict, optional
        Parameters of the measure (e.g. ``{"k": 2}`` for ``"binomial_loss"``).
    beta : float > 0, default 1
        F-beta instead of F1 for the F1 objectives (``f1_*`` and ``*_f1``).
    per_label : bool, default True
        One threshold per label; False: one shared threshold.
    thresholds : int or array-like, default 100
        Number of candidate thresholds (quantiles of the out-of-fold scores: of each
        label's column when ``per_label``), or the candidates themselves.
    cv : int, cross-validation generator or iterable, default 5
    response_method : {"auto", "predict_proba", "decision_function"}
        ``"auto"``: ``predict_proba`` if the estimator has it, else
        ``decision_function``.
    n_sweeps : int, default 3
        Rounds of coordinate ascent (objectives other than macro F-beta).

    Attributes
    ----------
    estimator_ : estimator
        A clone of ``estimator`` fitted on all the data.
    thresholds_ : ndarray of shape (n_labels,)
        ``predict`` gives ``score > thresholds_`` per label.
    best_score_ : float
        The objective at ``thresholds_`` on the out-of-fold scores (a loss negated).
    classes_ : list of ndarray

    Examples
    --------
    >>> import numpy as np
    >>> from mlcbook.learners import MLkNN, TunedThresholdMultiLabelCV
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(120, 4)); Y = (X[:, :3] + rng.normal(size=(120, 3)) > 1).astype(int)
    >>> model = TunedThresholdMultiLabelCV(MLkNN(k=5), scoring="f1_macro").fit(X, Y)
    >>> model.thresholds_.shape, model.predict(X).shape
    ((3,), (120, 3))
    """

    _accept_sparse = ("csr", "csc")
    _fitted_attr = "thresholds_"

    def __init__(
        self,
        estimator: Any,
        *,
        scoring: str = "f1_macro",
        scoring_params: dict[str, Any] | None = None,
        beta: float = 1.0,
        per_label: bool = True,
        thresholds: Any = 100,
        cv: Any = 5,
        response_method: str = "auto",
        n_sweeps: int = 3,
    ) -> None:
        self.estimator = estimator
        self.scoring = scoring
        self.scoring_params = scoring_params
        self.beta = beta
        self.per_label = per_label
        self.thresholds = thresholds
        self.cv = cv
        self.response_method = response_method
        self.n_sweeps = n_sweeps

    # ----------------------------------------------------------------- fitting
    def _method(self) -> str:
        if self.response_method == "auto":
            if hasattr(self.estimator, "predict_proba"):
                return "predict_proba"
            if hasattr(self.estimator, "decision_function"):
                return "decision_function"
            raise TypeError(
                f"{type(self.estimator).__name__} has neither predict_proba nor "
                "decision_function: nothing to threshold"
            )
        if self.response_method not in ("predict_proba", "decision_function"):
            raise ValueError(
                "response_method must be 'auto', 'predict_proba' or "
                f"'decision_function', got {self.response_method!r}"
            )
        return self.response_method

    def _candidates(self, S: np.ndarray) -> np.ndarray:
        if isinstance(self.thresholds, (int, np.integer)) and not isinstance(
            self.thresholds, bool
        ):
            m = check_positive_int(self.thresholds, "thresholds", low=2, high=10**6)
            c = np.unique(np.quantile(S, np.linspace(0.0, 1.0, m)))
        else:
            c = np.unique(np.asarray(self.thresholds, dtype=np.float64).ravel())
            if c.size == 0 or not np.all(np.isfinite(c)):
                raise ValueError("thresholds must be a positive int or finite numbers")
        # also "predict nothing": a candidate above every score
        return np.append(c, np.nextafter(S.max(), np.inf))

    def fit(self, X: Any, Y: Any) -> TunedThresholdMultiLabelCV:
        """Cross-validate the scores, choose the thresholds, refit on all data."""
        if self.scoring_params is not None and not isinstance(self.scoring_params, dict):
            raise TypeError(f"scoring_params must be a dict, got {self.scoring_params!r}")
        beta = check_real(self.beta, "beta", low=0.0, low_inclusive=False)
        per_label = check_bool(self.per_label, "per_label")
        sweeps = check_positive_int(self.n_sweeps, "n_sweeps", low=1, high=100)
        objective = _Objective(self.scoring, dict(self.scoring_params or {}), beta)
        method = self._method()
        X, Y = self._fit_input(X, Y)
        S = self._out_of_fold(X, Y, method)
        Yb = Y.astype(bool)
        if per_label:
            cols = [self._candidates(S[:, j]) for j in range(Y.shape[1])]
            t, best = self._per_label(Yb, S, cols, objective, sweeps)
        else:
            c = self._candidates(S)
            t, best = self._shared(Yb, S, c, objective)
        self.thresholds_ = _below(t)
        self.best_score_ = float(best)
        self.cv_scores_ = S
        self.estimator_ = clone(self.estimator).fit(X, Y)
        self.response_method_ = method
        return self

    def _out_of_fold(self, X: Any, Y: np.ndarray, method: str) -> np.ndarray:
        """Scores of every instance by a model fitted without it (the folds of
        ``check_cv(cv)``, as :func:`~sklearn.model_selection.cross_val_predict`, whose
        handling of multi-label ``predict_proba`` differs between scikit-learn
        versions: a list of per-label arrays from 1.9 on)."""
        cv = check_cv(self.cv)
        S = np.full(Y.shape, np.nan)
        for train, test in cv.split(X, Y):
            model = clone(self.estimator).fit(X[train], Y[train])
            part = _scores_of(model, X[test], method)
            if part.shape != (len(test), Y.shape[1]):
                raise ValueError(
                    f"{type(self.estimator).__name__}.{method} gave scores of shape "
                    f"{part.shape} for {len(test)} instances and {Y.shape[1]} labels"
                )
            S[test] = part
        if np.isnan(S).any():
            raise ValueError("the cross-validation folds do not cover every instance")
        return S

    @staticmethod
    def _shared(Y, S, c, objective) -> tuple[np.ndarray, float]:
        vals = [objective(Y, S >= t) for t in c]
        i = int(np.argmax(vals))
        return np.full(Y.shape[1], c[i]), vals[i]

    def _per_label(self, Y, S, cols, objective, sweeps) -> tuple[np.ndarray, float]:
        K = Y.shape[1]
        if objective.average == "macro":  # labels independent: exact per label
            t = np.empty(K)
            for j in range(K):
                f = _column_f(Y[:, j], S[:, j], cols[j], objective)
                t[j] = cols[j][int(np.argmax(f))]
            return t, objective(Y, S >= t)
        shared, best = self._shared(Y, S, np.unique(np.concatenate(cols)), objective)
        t = shared.copy()
        for _ in range(sweeps):
            improved = False
            for j in range(K):
                vals = self._label_values(Y, S, t, j, cols[j], objective)
                i = int(np.argmax(vals))
                if vals[i] > best + 1e-15:  # strictly better: no cycling on ties
                    t[j], best, improved = cols[j][i], vals[i], True
            if not improved:
                break
        return t, best

    @staticmethod
    def _label_values(Y, S, t, j, cand, objective) -> np.ndarray:
        """The objective for every candidate of label ``j``, the others fixed."""
        P = S >= t
        if objective.average is None:
            out = np.empty(cand.size)
            for i, c in enumerate(cand):
                P[:, j] = S[:, j] >= c
                out[i] = objective(Y, P)
            return out
        Pj = S[:, j][:, None] >= cand[None, :]  # (n, C)
        yj = Y[:, j][:, None]
        if objective.average == "micro":  # pooled counts, one per candidate
            tp0 = (Y & P).sum() - (Y[:, j] & P[:, j]).sum()
            np0 = P.sum() - P[:, j].sum()
            tp_c = tp0 + (yj & Pj).sum(axis=0)
            return objective.f(tp_c, Y.sum(), np0 + Pj.sum(axis=0))
        tp0 = (Y & P).sum(axis=1) - (Y[:, j] & P[:, j])  # instance: per row
        np0 = P.sum(axis=1) - P[:, j]
        tp = tp0[:, None] + (yj & Pj)
        npp = np0[:, None] + Pj
        return objective.f(tp, Y.sum(axis=1)[:, None], npp).mean(axis=0)

    # ----------------------------------------------------------------- prediction
    def decision_function(self, X: Any) -> np.ndarray:
        """The estimator's scores minus the thresholds (> 0: predicted)."""
        X = self._predict_input(X)
        return _scores_of(self.estimator_, X, self.response_method_) - self.thresholds_

    def predict(self, X: Any) -> np.ndarray:
        """0/1 predictions ``score > thresholds_``, int8."""
        X = self._predict_input(X)
        S = _scores_of(self.estimator_, X, self.response_method_)
        return (S > self.thresholds_).astype(np.int8)


def _column_f(y: np.ndarray, s: np.ndarray, cand: np.ndarray, objective: _Objective) -> np.ndarray:
    """F-beta of one label for every candidate ``c`` (predict ``s >= c``), exactly,
    by one sort."""
    order = np.argsort(s)
    ss, ys = s[order], y[order]
    pos_from = np.concatenate([np.cumsum(ys[::-1])[::-1], [0]])  # positives at >= index
    first = np.searchsorted(ss, cand, side="left")
    tp = pos_from[first]
    npred = s.size - first
    return objective.f(tp, y.sum(), npred)
