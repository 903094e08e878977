"""The learner registry of Hüllermeier et al. (2022, Sec. 5.2) and the LP/RAkEL reductions."""

from itertools import combinations

import numpy as np
import pytest

from ..conftest import _boomer_param
from sklearn.tree import DecisionTreeClassifier

from mlcbook.learners import LabelPowerset, RAkEL, learner_config, learner_names, make_learner


def _toy(n=80, K=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 5))
    Y = (X[:, :K] + 0.3 * rng.normal(size=(n, K)) > 0).astype(int)
    Y[:, -1] = Y[:, 0] & Y[:, 1]  # a dependent label
    return X, Y


def test_registry_has_the_paper_configurations():
    names = learner_names()
    for name in ("BR", "CC", "LP", "PCT", "EPCT", "PCT-CLUS", "EPCT-CLUS",
                 "BOOMER-1-2021", "BOOMER-K-2021"):
        assert name in names
    assert {"RAkEL-k2-m10", "RAkEL-k5-m10"} <= set(names)


#: the registry's learners that run Java (Weka's J48, CLUS): tested in tests/java
JAVA = ("J48", "CLUS")


def fits_and_predicts_binary_matrices(name):
    """Fit one registry learner on a toy problem; its predictions are 0/1 of the right shape."""
    X, Y = _toy()
    est = make_learner(name, random_state=0)
    if name.startswith("BOOMER"):
        est.set_params(options={"max_rules": 20})
    est.fit(X[:60], Y[:60])
    P = np.asarray(est.predict(X[60:]).toarray() if hasattr(est.predict(X[60:]), "toarray") else est.predict(X[60:]))
    assert P.shape == (20, Y.shape[1])
    assert set(np.unique(P)) <= {0, 1}


@pytest.mark.parametrize(
    "name", [_boomer_param(n) for n in learner_names() if not any(j in n for j in JAVA)]
)
def test_every_learner_fits_and_predicts_binary_matrices(name):
    fits_and_predicts_binary_matrices(name)


@pytest.mark.parametrize(
    "name", [_boomer_param(n) for n in ("CC", "RAkEL-k2-m10", "EPCT", "BOOMER-K-2021")]
)
def test_learners_are_seeded(name):
    X, Y = _toy(seed=1)

    def run():
        est = make_learner(name, random_state=3)
        if name.startswith("BOOMER"):
            est.set_params(options={"max_rules": 20})
        return np.asarray(est.fit(X[:60], Y[:60]).predict(X[60:]))

    np.testing.assert_array_equal(run(), run())


def test_make_learner_rejects_bad_input():
    with pytest.raises(ValueError, match="name"):
        make_learner("NOPE")
    with pytest.raises(TypeError, match="name"):
        make_learner(3)
    with pytest.raises(ValueError, match="random_state"):
        make_learner("BR", random_state=-1)


def test_label_powerset_is_a_multiclass_tree_on_label_vectors():
    X, Y = _toy(seed=2)
    lp = LabelPowerset(DecisionTreeClassifier(random_state=0)).fit(X, Y)
    # Brute force: encode each row as an integer, fit the same tree, decode.
    codes = Y @ (1 << np.arange(Y.shape[1]))
    tree = DecisionTreeClassifier(random_state=0).fit(X, codes)
    decoded = (tree.predict(X)[:, None] >> np.arange(Y.shape[1])) & 1
    np.testing.assert_array_equal(lp.predict(X), decoded)
    # Only label vectors seen in training are predicted.
    seen = {tuple(r) for r in Y}
    assert {tuple(r) for r in lp.predict(X + 0.5)} <= seen


def test_rakel_limits_and_voting():
    X, Y = _toy(seed=3)
    K = Y.shape[1]
    # k = K with one member is LP.
    r = RAkEL(k=K, m=1, estimator=DecisionTreeClassifier(random_state=0), random_state=0).fit(X, Y)
    lp = LabelPowerset(DecisionTreeClassifier(random_state=r.members_[0].estimator_.random_state)).fit(X, Y)
    np.testing.assert_array_equal(r.predict(X), lp.predict(X))
    # k = 1 with all K singletons is BR (the ensemble of one tree per label).
    r1 = RAkEL(k=1, m=K, random_state=0).fit(X, Y)
    assert sorted(r1.labelsets_) == [(j,) for j in range(K)]
    # Distinct labelsets of size k; m capped at C(K, k).
    r2 = RAkEL(k=2, m=100, random_state=0).fit(X, Y)
    assert sorted(r2.labelsets_) == list(combinations(range(K), 2))
    # Voting by hand: fraction of positive votes >= 0.5 among members holding the label.
    votes = np.zeros((X.shape[0], K)); counts = np.zeros(K)
    for ls, mem in zip(r2.labelsets_, r2.members_):
        votes[:, list(ls)] += mem.predict(X); counts[list(ls)] += 1
    np.testing.assert_array_equal(r2.predict(X), (votes / counts >= 0.5).astype(int))


def test_rakel_uncovered_labels_are_predicted_negative():
    X, Y = _toy(seed=4)
    r = RAkEL(k=1, m=2, random_state=0).fit(X, Y)
    covered = {j for ls in r.labelsets_ for j in ls}
    P = r.predict(X)
    for j in set(range(Y.shape[1])) - covered:
        assert not P[:, j].any()


def test_learner_config_sees_nested_parameters():
    a = learner_config(make_learner("BR", 0))
    b = learner_config(make_learner("BR", 0).set_params(estimator__max_depth=3))
    assert a != b and a == learner_config(make_learner("BR", 0))
