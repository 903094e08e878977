"""TunedThresholdMultiLabelCV: the chosen thresholds against brute force over the same
candidates on the same out-of-fold scores (mlcbook.metrics computes every value)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.model_selection import KFold
from sklearn.multioutput import MultiOutputClassifier
from sklearn.tree import DecisionTreeClassifier

from mlcbook import losses as L
from mlcbook import metrics as M
from mlcbook.learners import MLkNN, TunedThresholdMultiLabelCV


def data(seed=0, n=150, K=4):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 5))
    Y = (X[:, :K] + rng.normal(size=(n, K)) > 0.8).astype(int)
    return X, Y


def _f(Y, S, t, avg, zd=0.0):
    """F1 of thresholded scores; 0/0 = ``zd`` (scikit-learn's names: 0, the book's: 1)."""
    return M.f_measure(Y, (S > t).astype(int), 1.0, avg, zero_division=zd)


def test_macro_thresholds_are_the_best_candidate_of_each_label():
    X, Y = data()
    m = TunedThresholdMultiLabelCV(MLkNN(k=7), scoring="f1_macro", thresholds=20).fit(X, Y)
    S = m.cv_scores_
    # the out-of-fold scores: each fold of KFold(5) scored by a model fitted on the rest
    ref_S = np.empty(Y.shape)
    for train, test in KFold(5).split(X):
        ref_S[test] = MLkNN(k=7).fit(X[train], Y[train]).predict_proba(X[test])
    np.testing.assert_array_equal(S, ref_S)
    for j in range(Y.shape[1]):
        cands = np.append(np.unique(np.quantile(S[:, j], np.linspace(0, 1, 20))),
                          np.nextafter(S[:, j].max(), np.inf))
        best = max(M.f_measure(Y[:, [j]], (S[:, [j]] >= c).astype(int), 1.0, "macro",
                               zero_division=0.0) for c in cands)
        got = M.f_measure(Y[:, [j]], (S[:, [j]] > m.thresholds_[j]).astype(int), 1.0,
                          "macro", zero_division=0.0)
        assert got == best
    assert m.best_score_ == pytest.approx(_f(Y, S, m.thresholds_, "macro"), abs=1e-15)


@pytest.mark.parametrize("scoring,avg,zd", [("f1_micro", "micro", 0.0),
                                            ("f1_samples", "instance", 0.0),
                                            ("instance_f1", "instance", 1.0)])
def test_coordinate_ascent_beats_the_best_shared_threshold(scoring, avg, zd):
    X, Y = data(1)
    shared = TunedThresholdMultiLabelCV(MLkNN(k=7), scoring=scoring, per_label=False,
                                        thresholds=30).fit(X, Y)
    S = shared.cv_scores_
    # shared: brute force over the same candidates
    cands = np.append(np.unique(np.quantile(S, np.linspace(0, 1, 30))),
                      np.nextafter(S.max(), np.inf))
    brute = max(M.f_measure(Y, (S >= c).astype(int), 1.0, avg, zero_division=zd)
                for c in cands)
    assert shared.best_score_ == pytest.approx(brute, abs=1e-15)
    assert len(set(shared.thresholds_)) == 1
    per = TunedThresholdMultiLabelCV(MLkNN(k=7), scoring=scoring, thresholds=30).fit(X, Y)
    assert per.best_score_ == pytest.approx(_f(Y, S, per.thresholds_, avg, zd), abs=1e-15)
    assert per.best_score_ >= shared.best_score_


def test_any_mlcbook_scorer_and_losses_are_minimised():
    X, Y = data(2)
    m = TunedThresholdMultiLabelCV(MLkNN(k=7), scoring="binomial_loss",
                                   scoring_params={"k": 2}, thresholds=15).fit(X, Y)
    P = (m.cv_scores_ > m.thresholds_).astype(int)
    assert m.best_score_ == pytest.approx(-L.binomial_loss(Y, P, 2), abs=1e-15)
    # no threshold of a single label alone does better (coordinate-wise optimum)
    S = m.cv_scores_
    for j in range(Y.shape[1]):
        for c in np.quantile(S[:, j], np.linspace(0, 1, 15)):
            t = m.thresholds_.copy()
            t[j] = np.nextafter(c, -np.inf)
            assert -L.binomial_loss(Y, (S > t).astype(int), 2) <= m.best_score_ + 1e-12


def test_predict_thresholds_the_refitted_estimator_and_lists_of_probabilities():
    X, Y = data(3)
    base = MultiOutputClassifier(DecisionTreeClassifier(max_depth=3, random_state=0))
    m = TunedThresholdMultiLabelCV(base, scoring="f1_micro", thresholds=10).fit(X, Y)
    S = np.column_stack([p[:, 1] for p in m.estimator_.predict_proba(X)])
    np.testing.assert_array_equal(m.predict(X), (S > m.thresholds_).astype(np.int8))
    np.testing.assert_array_equal(m.decision_function(X) > 0, m.predict(X) == 1)


@pytest.mark.parametrize("kw,exc,match", [
    ({"scoring": "ranking_loss"}, ValueError, "measure of 0/1 predictions"),
    ({"scoring": "f1_micro", "beta": 0}, ValueError, "beta"),
    ({"scoring": "binomial_loss"}, TypeError, "needs the parameter k"),
    ({"thresholds": 1}, ValueError, "thresholds"),
    ({"per_label": "yes"}, TypeError, "per_label"),
    ({"response_method": "predict"}, ValueError, "response_method"),
])
def test_bad_parameters_are_refused_before_fitting(kw, exc, match):
    X, Y = data(4, n=40)
    with pytest.raises(exc, match=match):
        TunedThresholdMultiLabelCV(MLkNN(k=3), **kw).fit(X, Y)
