"""The scikit-learn contract of every learner, checked directly (beyond common checks).

Before fit every prediction method raises NotFittedError; fit sets
``n_features_in_`` and (classifiers) ``classes_`` as one ``[0, 1]`` array per
label; bad X / Y are refused with messages naming them; tags declare
multi-output, multi-label and sparse support; the new score methods equal their
definitions computed by hand.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone, is_classifier
from sklearn.exceptions import NotFittedError
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils import get_tags

from mlcbook.learners import (
    GFM,
    LIMO,
    BlendedLinearClassifier,
    InstanceThreshold,
    LabelPowerset,
    LabelThreshold,
    LossMinimizingKNN,
    MLkNN,
    RAkEL,
)

XY_ESTIMATORS = [
    LabelPowerset(DecisionTreeClassifier(random_state=0)),
    RAkEL(k=2, m=4, random_state=0),
    MLkNN(k=3),
    GFM(k=3),
    LIMO(n_iter=300, random_state=0),
    BlendedLinearClassifier(gamma=1e-3, max_iter=30),
    LossMinimizingKNN(n_neighbors=3),
]
SPARSE_OK = {
    "LabelPowerset",
    "RAkEL",
    "MLkNN",
    "GFM",
    "LIMO",
    "BlendedLinearClassifier",
    "LossMinimizingKNN",
}
METHODS = ("predict", "predict_proba", "decision_function")


def data(seed=0, n=40, d=5, K=4):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    Y = (X @ rng.normal(size=(d, K)) + rng.normal(size=(n, K)) > 0).astype(int)
    Y[0], Y[1] = 1, 0  # every label has both values
    return X, Y


def ids(est):
    return type(est).__name__


@pytest.mark.parametrize("est", XY_ESTIMATORS, ids=ids)
def test_not_fitted_error_before_fit(est):
    X, _ = data()
    for m in METHODS:
        if hasattr(est, m):
            with pytest.raises(NotFittedError):
                getattr(clone(est), m)(X)


@pytest.mark.parametrize("est", XY_ESTIMATORS, ids=ids)
def test_fitted_attributes_and_tags(est):
    X, Y = data()
    e = clone(est).fit(X, Y)
    assert e.n_features_in_ == X.shape[1]
    assert is_classifier(e)
    assert len(e.classes_) == Y.shape[1]
    for c in e.classes_:
        np.testing.assert_array_equal(c, [0, 1])
    tags = get_tags(e)
    assert tags.target_tags.multi_output and not tags.target_tags.single_output
    assert tags.classifier_tags.multi_label
    assert tags.input_tags.sparse == (type(e).__name__ in SPARSE_OK)
    P = e.predict(X)
    assert P.shape == Y.shape and set(np.unique(P)) <= {0, 1}


@pytest.mark.parametrize("est", XY_ESTIMATORS, ids=ids)
def test_bad_input_is_refused_with_the_argument_named(est):
    X, Y = data()
    with pytest.raises(ValueError, match="X and Y must have the same number of rows"):
        clone(est).fit(X[:-1], Y)
    with pytest.raises(ValueError, match="NaN"):
        clone(est).fit(np.where(X > 1.5, np.nan, X), Y)
    with pytest.raises(ValueError, match="infinity|NaN"):
        clone(est).fit(np.where(X > 1.5, np.inf, X), Y)
    with pytest.raises(ValueError, match="Y must be binary"):
        clone(est).fit(X, Y * 2)
    with pytest.raises(ValueError, match="requires y to be passed"):
        clone(est).fit(X, None)
    with pytest.raises(ValueError, match="1-D Y is read as the labels of one instance"):
        clone(est).fit(X, Y[:, 0])
    e = clone(est).fit(X, Y)
    with pytest.raises(ValueError, match="X has 3 features"):
        e.predict(X[:, :3])
    with pytest.raises(ValueError, match="NaN"):
        e.predict(np.where(X > 1.5, np.nan, X))


@pytest.mark.parametrize("est", XY_ESTIMATORS, ids=ids)
def test_lists_and_sparse_give_the_same_predictions_as_arrays(est):
    X, Y = data(1)
    # some zeros, but no two distances equal: dense and sparse neighbour searches
    # order exact ties differently (tie-breaking is not part of this contract)
    Xs = np.where(np.abs(X) > 0.2, X, 0.0)
    ref = clone(est).fit(Xs, Y).predict(Xs)
    np.testing.assert_array_equal(
        clone(est).fit(Xs.tolist(), Y.tolist()).predict(Xs.tolist()), ref
    )
    np.testing.assert_array_equal(
        clone(est).fit(sp.csr_matrix(Xs), Y).predict(sp.csr_matrix(Xs)), ref
    )


def test_label_powerset_predict_proba_is_the_marginal_of_the_class_probabilities():
    X, Y = data(2)
    lp = LabelPowerset(DecisionTreeClassifier(max_depth=3, random_state=0)).fit(X, Y)
    proba = lp.predict_proba(X)
    pc = lp.estimator_.predict_proba(X)
    ref = np.zeros_like(proba)
    for i in range(X.shape[0]):  # by the definition, class by class
        for c, code in enumerate(lp.estimator_.classes_):
            ref[i] += pc[i, c] * lp.combinations_[code]
    np.testing.assert_allclose(
        proba, ref, rtol=0, atol=1e-15
    )  # same sums, another order
    assert not hasattr(LabelPowerset(estimator=_NoProba()), "predict_proba")


class _NoProba(DecisionTreeClassifier):
    def __getattribute__(self, name):
        if name == "predict_proba":
            raise AttributeError(name)
        return super().__getattribute__(name)


def test_rakel_decision_function_is_the_vote_fraction_that_predict_thresholds():
    X, Y = data(3, K=5)
    rk = RAkEL(k=2, m=4, threshold=0.5, random_state=0).fit(X, Y)
    frac = rk.decision_function(X)
    votes = np.zeros(Y.shape)
    counts = np.zeros(Y.shape[1])
    for labels, member in zip(rk.labelsets_, rk.members_):
        votes[:, list(labels)] += member.predict(X)
        counts[list(labels)] += 1
    ref = np.divide(votes, counts, out=np.zeros_like(votes), where=counts > 0)
    np.testing.assert_array_equal(frac, ref)
    np.testing.assert_array_equal(
        rk.predict(X), ((ref >= 0.5) & (counts > 0)).astype(int)
    )
    with pytest.raises(ValueError, match="threshold must be <= 1"):
        RAkEL(threshold=1.5).fit(X, Y)


def test_gfm_predict_proba_is_the_mean_neighbour_label():
    X, Y = data(4)
    g = GFM(k=4).fit(X, Y)
    nn = g.kneighbors(X)
    np.testing.assert_array_equal(g.predict_proba(X), Y[nn].mean(axis=1))


def test_limo_without_thresholds_refuses_predict_but_scores():
    X, Y = data(5)
    m = LIMO(n_iter=100, random_state=0).fit(X, Y, fit_threshold=False)
    assert m.decision_function(X).shape == Y.shape
    with pytest.raises(NotFittedError, match="fit_threshold"):
        m.predict(X)
    with pytest.raises(ValueError, match="threshold must be one of"):
        LIMO(threshold="row").fit(X, Y)


def test_threshold_estimators():
    X, Y = data(6)
    F = X[:, :4]
    with pytest.raises(NotFittedError):
        LabelThreshold().predict(F)
    with pytest.raises(NotFittedError):
        InstanceThreshold().predict(F, X)
    lt = LabelThreshold().fit(F, Y)
    assert lt.n_features_in_ == Y.shape[1]
    with pytest.raises(ValueError, match="X has 3 features"):
        lt.predict(F[:, :3])
    with pytest.raises(TypeError, match="shared must be True or False"):
        LabelThreshold(shared="yes").fit(F, Y)
    it = InstanceThreshold().fit(F, Y, X)
    assert it.n_features_in_ == X.shape[1]
    with pytest.raises(ValueError, match="X and F must have the same number of rows"):
        it.predict(F[:-1], X)
    with pytest.raises(ValueError, match="X and Y must have the same number of rows"):
        InstanceThreshold().fit(F, Y, X[:-1])
