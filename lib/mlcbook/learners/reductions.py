"""Label powerset and random k-labelsets as scikit-learn estimators.

scikit-multilearn (the usual home of these reductions) was last released in 2018
and does not install against current scikit-learn, so the two reductions are
written here, small, and tested against brute force in ``tests/mlcbook/test_learners.py``.

* :class:`LabelPowerset` (LP; Tsoumakas et al. 2010) turns every distinct label
  vector of the training data into one class of a multi-class problem.
* :class:`RAkEL` (RAkELo; Tsoumakas and Vlahavas 2007) draws ``m`` distinct random
  label subsets of size ``k``, trains an LP on each, and predicts a label when at
  least half of the members that contain it vote for it.
"""

from __future__ import annotations

import warnings
from itertools import combinations
from math import comb

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone, is_classifier
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.metaestimators import available_if

from .._validation import check_label_matrix, check_positive_int, check_real
from ._contract import MultiLabelMixin

__all__ = ["LabelPowerset", "RAkEL"]


def _dense_labels(Y) -> np.ndarray:
    Y = check_label_matrix(Y, "Y", allow_sparse=False)
    return np.asarray(Y, dtype=np.int8)


class LabelPowerset(MultiLabelMixin, ClassifierMixin, BaseEstimator):
    """Label powerset: one multi-class problem over the observed label vectors.

    Parameters
    ----------
    estimator : scikit-learn classifier, default DecisionTreeClassifier()
        The multi-class base learner (cloned).

    Attributes
    ----------
    combinations_ : ndarray of shape (n_classes, n_labels)
        The distinct training label vectors; class ``c`` stands for row ``c``.
    estimator_ : fitted classifier
    classes_ : list of ndarray
        ``[0, 1]`` for every label (scikit-learn's multi-label convention).
    n_features_in_ : int
    """

    _accept_sparse = ("csr", "csc")
    _fitted_attr = "estimator_"

    def __init__(self, estimator=None):
        self.estimator = estimator

    def fit(self, X, Y):
        """Fit the base classifier on the label vectors' class codes.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
        Y : array-like of shape (n_samples, n_labels), 0/1
        """
        X, Y = self._fit_input(X, Y)
        Y = _dense_labels(Y)
        self.n_labels_ = Y.shape[1]
        self.combinations_, codes = np.unique(Y, axis=0, return_inverse=True)
        codes = np.asarray(codes).reshape(-1)
        base = self.estimator if self.estimator is not None else DecisionTreeClassifier()
        with warnings.catch_warnings():
            # Many distinct label vectors make sklearn suspect a regression target.
            warnings.filterwarnings(
                "ignore", message="The number of unique classes", category=UserWarning
            )
            self.estimator_ = clone(base).fit(X, codes)
        return self

    def predict(self, X) -> np.ndarray:
        """Binary predictions of shape (n_samples, n_labels)."""
        X = self._predict_input(X)
        codes = np.asarray(self.estimator_.predict(X), dtype=np.intp)
        return self.combinations_[codes].astype(np.int64)

    def _base_has_proba(self) -> bool:
        base = DecisionTreeClassifier() if self.estimator is None else self.estimator
        return hasattr(base, "predict_proba")

    @available_if(_base_has_proba)
    def predict_proba(self, X) -> np.ndarray:
        """Marginal probabilities :math:`P(y_j = 1 \\mid x) = \\sum_c P(c \\mid x)\\,
        [\\![ \\text{combination } c \\text{ holds label } j ]\\!]`.

        Available when the base classifier has ``predict_proba`` (the default
        decision tree does).  Shape (n_samples, n_labels).
        """
        X = self._predict_input(X)
        proba = np.asarray(self.estimator_.predict_proba(X), dtype=np.float64)
        codes = np.asarray(self.estimator_.classes_, dtype=np.intp)
        return proba @ self.combinations_[codes].astype(np.float64)


class RAkEL(MultiLabelMixin, ClassifierMixin, BaseEstimator):
    """Random k-labelsets (overlapping variant) with majority voting.

    Parameters
    ----------
    k : int, default 3
        Size of each labelset (capped at the number of labels).
    m : int or None, default 10
        Number of ensemble members (capped at the number of distinct k-subsets);
        None means ``2 * n_labels``, the size recommended by Tsoumakas and Vlahavas.
    estimator : scikit-learn classifier, default DecisionTreeClassifier()
        Base learner of every member's label powerset.
    threshold : float, default 0.5
        A label is predicted when the fraction of positive votes among the members
        containing it is at least ``threshold``; labels in no member are predicted 0.
    random_state : int or None
        Seeds the choice of labelsets and (when the base learner has a
        ``random_state``) each member's learner.

    Attributes
    ----------
    labelsets_ : list of tuple of int
    members_ : list of LabelPowerset
    classes_ : list of ndarray
        ``[0, 1]`` for every label (scikit-learn's multi-label convention).
    n_features_in_ : int
    """

    _accept_sparse = ("csr", "csc")
    _fitted_attr = "members_"

    def __init__(
        self,
        k: int = 3,
        m: int | None = 10,
        estimator=None,
        threshold: float = 0.5,
        random_state=None,
    ):
        self.k = k
        self.m = m
        self.estimator = estimator
        self.threshold = threshold
        self.random_state = random_state

    def _draw_labelsets(self, n_labels: int, rng: np.random.Generator) -> list[tuple[int, ...]]:
        k = min(self.k, n_labels)
        total = comb(n_labels, k)
        m = min(2 * n_labels if self.m is None else self.m, total)
        if total <= 10_000:
            pool = list(combinations(range(n_labels), k))
            pick = rng.choice(len(pool), size=m, replace=False)
            return [pool[i] for i in sorted(pick)]
        chosen: set[tuple[int, ...]] = set()
        order: list[tuple[int, ...]] = []
        while len(order) < m:
            s = tuple(sorted(rng.choice(n_labels, size=k, replace=False).tolist()))
            if s not in chosen:
                chosen.add(s)
                order.append(s)
        return order

    def fit(self, X, Y):
        """Draw the labelsets and fit one label powerset on each.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
        Y : array-like of shape (n_samples, n_labels), 0/1
        """
        check_positive_int(self.k, "k")
        if self.m is not None:
            check_positive_int(self.m, "m")
        check_real(self.threshold, "threshold", low=0.0, high=1.0)
        X, Y = self._fit_input(X, Y)
        Y = _dense_labels(Y)
        self.n_labels_ = Y.shape[1]
        rng = np.random.default_rng(self.random_state)
        self.labelsets_ = self._draw_labelsets(self.n_labels_, rng)
        base = self.estimator if self.estimator is not None else DecisionTreeClassifier()
        if not is_classifier(base):
            raise TypeError(
                "estimator must be a scikit-learn classifier (each member predicts "
                f"labelset classes), got {type(base).__name__}"
            )
        seeds = rng.integers(0, 2**31 - 1, size=len(self.labelsets_))
        self.members_ = []
        for labels, seed in zip(self.labelsets_, seeds):
            est = clone(base)
            if "random_state" in est.get_params():
                est.set_params(random_state=int(seed))
            self.members_.append(LabelPowerset(est).fit(X, Y[:, list(labels)]))
        return self

    def decision_function(self, X) -> np.ndarray:
        """Fraction of positive votes among the members holding each label (0 for a
        label in no member): the score that :meth:`predict` thresholds.

        Returns
        -------
        ndarray of shape (n_samples, n_labels), values in [0, 1]
        """
        frac, _ = self._votes(X)
        return frac

    def predict(self, X) -> np.ndarray:
        """Binary predictions of shape (n_samples, n_labels) by majority vote."""
        frac, counts = self._votes(X)
        return ((frac >= self.threshold) & (counts > 0)).astype(np.int64)

    def _votes(self, X):
        X = self._predict_input(X)
        n = X.shape[0]
        votes = np.zeros((n, self.n_labels_))
        counts = np.zeros(self.n_labels_)
        for labels, member in zip(self.labelsets_, self.members_):
            idx = list(labels)
            votes[:, idx] += member.predict(X)
            counts[idx] += 1
        with np.errstate(invalid="ignore", divide="ignore"):
            frac = np.where(counts > 0, votes / np.maximum(counts, 1), 0.0)
        return frac, counts
