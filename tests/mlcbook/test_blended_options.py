"""BlendedLinearClassifier's options for the open hypotheses of Park & Read (2018).

``penalize_intercept`` (the paper's penalty over all weights, the appended 1's included)
and ``cv_score="determined"`` (CV on the 0/1 predictions' similarity), each checked
against an independent computation with the public API.
"""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import check_grad
from sklearn.model_selection import KFold

from mlcbook.blended import blended_objective, blended_similarity
from mlcbook.learners import BlendedLinearClassifier
from mlcbook.learners import blended as lb
from mlcbook.learners.blended import _packed


def _data(seed=0, n=60, m=4, labels=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, m))
    W = rng.normal(size=(labels, m))
    T = ((X @ W.T + rng.normal(scale=0.5, size=(n, labels))) > 0.3).astype(float)
    return X, T


def test_penalised_intercept_value_and_gradient():
    X, T = _data()
    rng = np.random.default_rng(1)
    W0, b0 = rng.normal(scale=0.3, size=(3, 4)), rng.normal(scale=0.3, size=3)
    gamma = 0.05
    fun, x0, unpack = _packed(X, T, 0.4, 2.0, gamma, W0, b0, penalize_intercept=True)
    plain, *_ = _packed(X, T, 0.4, 2.0, gamma, W0, b0)
    x = x0 + rng.normal(scale=0.2, size=x0.size)
    W, b = unpack(x)
    J, *_ = blended_objective(W, X, T, 0.4, 2.0, gamma, intercept=b)
    # the two rescaled objectives share the scale: their ratio is J_pen / J
    ratio = fun(x)[0] / plain(x)[0]
    assert ratio == pytest.approx((J - 0.5 * gamma * b @ b) / J, rel=1e-10)  # rounding only
    err = check_grad(lambda v: fun(v)[0], lambda v: fun(v)[1], x, epsilon=1e-7)
    assert err / np.linalg.norm(fun(x)[1]) < 1e-5  # finite differences' error at eps 1e-7


def test_penalised_intercept_shrinks_the_intercept():
    X, T = _data(2)
    T[:, 0] = 1.0  # a label that is always on: a large intercept pays
    kw = dict(alpha=1.0, beta=1.0, gamma=0.5, init="zeros", max_iter=500)
    free = BlendedLinearClassifier(**kw).fit(X, T)
    pen = BlendedLinearClassifier(penalize_intercept=True, **kw).fit(X, T)
    assert abs(pen.intercept_[0]) < abs(free.intercept_[0])
    assert BlendedLinearClassifier(**kw).get_params()["penalize_intercept"] is False


@pytest.mark.parametrize("solver", ["lbfgs", "ascent"])
def test_cv_on_determined_scores_matches_separate_fits(solver):
    X, T = _data(3, n=45)
    gammas, alpha, beta = (1e-3, 1e-1), 0.5, 2.0
    clf = BlendedLinearClassifier(
        alpha=alpha,
        beta=beta,
        gamma="cv",
        gammas=gammas,
        cv=3,
        solver=solver,
        cv_score="determined",
        max_iter=200,
    ).fit(X, T)
    folds = KFold(3, shuffle=True, random_state=0).split(np.arange(len(X)))
    folds = list(folds)
    for g in gammas:
        vals = []
        for tr, va in folds:
            one = BlendedLinearClassifier(
                alpha=alpha, beta=beta, gamma=g, solver=solver, max_iter=200
            ).fit(X[tr], T[tr])
            vals.append(blended_similarity(T[va], one.predict(X[va]), alpha, beta))
        # the same fits from the same start: equal up to summation order
        assert clf.cv_scores_[g] == pytest.approx(np.mean(vals), abs=1e-12)
    assert clf.gamma_ == max(gammas, key=lambda g: (clf.cv_scores_[g], g))


def test_option_errors():
    X, T = _data()
    with pytest.raises(TypeError, match="penalize_intercept"):
        BlendedLinearClassifier(penalize_intercept="yes").fit(X, T)
    with pytest.raises(ValueError, match="cv_score"):
        BlendedLinearClassifier(cv_score="hard").fit(X, T)


def test_literal_ascent_against_a_hand_written_loop():
    X, T = _data(4)
    W0, b0 = np.zeros((3, 4)), np.zeros(3)
    fun, x, unpack = _packed(X, T, 0.3, 1.0, 1e-2, W0, b0)
    J, g = fun(x)
    steps = 0
    while steps < 40:  # the rule by hand: fixed step 0.5, stop when J would not rise
        Jn, gn = fun(x + 0.5 * g)
        if not Jn > J:
            break
        x, J, g, steps = x + 0.5 * g, Jn, gn, steps + 1
    W, b = unpack(x)
    clf = BlendedLinearClassifier(
        alpha=0.3, beta=1.0, gamma=1e-2, solver="ascent", init="zeros", rate=0.5, max_iter=40
    ).fit(X, T)
    assert clf.n_iter_ == steps
    np.testing.assert_allclose(clf.coef_, W, rtol=0, atol=1e-12)  # same arithmetic
    np.testing.assert_allclose(clf.intercept_, b, rtol=0, atol=1e-12)
    assert clf.status_ == ("stopped" if steps < 40 else "capped")
    with pytest.raises(ValueError, match="rate needs solver='ascent'"):
        BlendedLinearClassifier(rate=0.5).fit(X, T)
    with pytest.raises(ValueError, match="rate"):
        BlendedLinearClassifier(rate=-1.0, solver="ascent").fit(X, T)


def test_logistic_start_is_computed_once_per_training_part_and_equals_a_fresh_fit():
    """The logistic starting point is kept by the digest of its data: the same part gives
    the same (read-only) arrays without refitting, equal to a fit made afresh with the
    memory emptied; other data (one value changed, or the labels) give another start."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(60, 4))
    T = (rng.random((60, 3)) < 0.4).astype(float)
    lb._INITS.clear()
    W, b = lb._logistic_init(X, T)
    assert lb._logistic_init(X.copy(), T.copy())[0] is W  # equal data: no refit
    assert not W.flags.writeable and not b.flags.writeable
    lb._INITS.clear()
    W2, b2 = lb._logistic_init(X, T)
    assert W2 is not W
    np.testing.assert_array_equal(W2, W)  # deterministic: the kept start is a fresh fit's
    np.testing.assert_array_equal(b2, b)
    X3 = X.copy()
    X3[0, 0] += 1.0
    assert not np.array_equal(lb._logistic_init(X3, T)[0], W)
    assert lb._logistic_init(X, 1.0 - T)[0] is not W
    Xs = sp.csr_matrix(X)  # sparse data are told apart from dense with equal values
    assert lb._logistic_init(Xs, T)[0] is not W
    assert len(lb._INITS) == 4


def test_logistic_starts_kept_stay_within_their_memory(monkeypatch):
    """The latest starts are kept within ``_INITS_BYTES``, the oldest dropped first."""
    rng = np.random.default_rng(6)
    X = rng.normal(size=(40, 4))
    T = (rng.random((40, 3)) < 0.5).astype(float)
    one = 3 * 4 * 8 + 3 * 8  # bytes of one start: W (3 x 4) and b (3)
    monkeypatch.setattr(lb, "_INITS_BYTES", 2 * one)
    lb._INITS.clear()
    starts = [lb._logistic_init(X[k:], T[k:]) for k in range(4)]
    assert [w for w, _ in lb._INITS.values()] == [w for w, _ in starts[2:]]
    assert lb._logistic_init(X[3:], T[3:])[0] is starts[3][0]  # kept: the same arrays
    assert lb._logistic_init(X, T)[0] is not starts[0][0]  # dropped: fitted again
    monkeypatch.setattr(lb, "_INITS_BYTES", one - 1)  # a start larger than the memory
    lb._logistic_init(X[5:], T[5:])
    assert not lb._INITS
