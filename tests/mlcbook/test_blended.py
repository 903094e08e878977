"""Tests of mlcbook.blended and BlendedLinearClassifier (Park & Read 2018)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy.optimize import check_grad
from scipy.special import expit

from mlcbook import metrics
from mlcbook.blended import (
    _objective,
    _Truth,
    blended_gradient,
    blended_objective,
    blended_similarity,
    blended_similarity_grad,
    soft_confusion,
)
from mlcbook.learners import BlendedLinearClassifier

# Table 1 of the paper: (y_k, t_k) and the per-instance Hamming, Exact, Jaccard
TABLE1 = [
    ([1, 0, 1, 0], [1, 0, 0, 1], 0.5, 0, 1 / 3),
    ([0, 1, 0, 1], [0, 1, 0, 1], 1, 1, 1),
    ([1, 0, 0, 1], [1, 0, 0, 1], 1, 1, 1),
    ([0, 1, 1, 0], [0, 1, 0, 0], 0.75, 0, 0.5),
    ([1, 0, 0, 0], [1, 0, 0, 1], 0.75, 0, 0.5),
]


def _binary(rng, n, L, p=0.3):
    return (rng.random((n, L)) < p).astype(int)


# ----------------------------------------------------------------- worked examples
def test_soft_confusion_paper_example():
    c = soft_confusion([1, 0, 1], [0.6, 0.4, 0.2])
    np.testing.assert_allclose([c.tp[0], c.fp[0], c.fn[0], c.tn[0]], [0.8, 0.4, 1.2, 0.6])


def test_soft_confusion_binary_counts_and_sum():
    rng = np.random.default_rng(1)
    T, Z = _binary(rng, 30, 7), rng.random((30, 7))
    c = soft_confusion(T, Z)
    np.testing.assert_allclose(c.tp + c.fp + c.fn + c.tn, 7)
    P = _binary(rng, 30, 7)
    c = soft_confusion(T, P)
    np.testing.assert_array_equal(c.tp, ((T == 1) & (P == 1)).sum(1))
    np.testing.assert_array_equal(c.fp, ((T == 0) & (P == 1)).sum(1))
    np.testing.assert_array_equal(c.fn, ((T == 1) & (P == 0)).sum(1))
    np.testing.assert_array_equal(c.tn, ((T == 0) & (P == 0)).sum(1))


def test_table1():
    Y = np.array([r[0] for r in TABLE1])
    T = np.array([r[1] for r in TABLE1])
    np.testing.assert_allclose(blended_similarity(T, Y, 1, 1, per_instance=True), [r[2] for r in TABLE1])
    np.testing.assert_allclose(blended_similarity(T, Y, 1, np.inf, per_instance=True), [r[3] for r in TABLE1])
    np.testing.assert_allclose(blended_similarity(T, Y, 0, 1, per_instance=True), [r[4] for r in TABLE1])
    assert round(blended_similarity(T, Y, 1, 1), 2) == 0.80
    assert round(blended_similarity(T, Y, 1, np.inf), 2) == 0.40
    assert round(blended_similarity(T, Y, 0, 1), 2) == 0.67


# ----------------------------------------------------------------- special cases = metrics
@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40), st.integers(1, 9), st.integers(0, 2**32 - 1), st.floats(0.05, 0.9))
@example(n=9, L=9, seed=9, p=0.25)  # empty truth and prediction at alpha = 1e-5: D once cancelled
def test_special_cases_equal_metrics(n, L, seed, p):
    rng = np.random.default_rng(seed)
    T, P = _binary(rng, n, L, p), _binary(rng, n, L, p)
    assert blended_similarity(T, P, 1, 1) == pytest.approx(1 - metrics.hamming_loss(T, P), abs=1e-12)
    assert blended_similarity(T, P, 0, 1) == pytest.approx(metrics.instance_jaccard(T, P), abs=1e-12)
    for a in (0.0, 1e-5, 0.3, 1.0):
        assert blended_similarity(T, P, a, np.inf) == pytest.approx(metrics.subset_accuracy(T, P), abs=1e-12)
    # alpha -> 0 approaches Jaccard (including the empty/empty convention s = 1)
    assert blended_similarity(T, P, 1e-12, 1) == pytest.approx(metrics.instance_jaccard(T, P), abs=1e-9)
    # beta -> inf approaches exact match on 0/1 predictions
    assert blended_similarity(T, P, 0.5, 1e6) == pytest.approx(metrics.subset_accuracy(T, P), abs=1e-9)


def test_empty_set_convention():
    assert blended_similarity([0, 0, 0], [0, 0, 0], 0.0, 1) == 1.0
    assert blended_similarity([0, 0, 0], [0, 0, 0], 1e-5, 7) == 1.0
    assert blended_similarity([0, 0, 0], [0, 1, 0], 0.0, 1) == 0.0


def test_monotone_in_alpha_and_beta():
    rng = np.random.default_rng(3)
    T, Z = _binary(rng, 50, 6), rng.random((50, 6))
    s_a = [blended_similarity(T, Z, a, 2, per_instance=True) for a in np.linspace(0, 1, 11)]
    assert np.all(np.diff(np.array(s_a), axis=0) >= -1e-12)
    s_b = [blended_similarity(T, Z, 0.4, b, per_instance=True) for b in (1, 2, 4, 8)]
    assert np.all(np.diff(np.array(s_b), axis=0) <= 1e-12)


# ----------------------------------------------------------------- gradient
@pytest.mark.parametrize("alpha", [0.0, 1e-5, 0.1, 0.5, 0.9, 1.0])
@pytest.mark.parametrize("beta", [1.0, 2.0, 3.5, 16.0, 128.0])
def test_gradient_matches_finite_differences(alpha, beta):
    rng = np.random.default_rng(int(alpha * 1000 + beta))
    K, M, L = 25, 4, 5
    X = rng.normal(size=(K, M))
    T = _binary(rng, K, L, 0.35)
    T[0] = 0  # an instance without labels (N = 0 when alpha = 0)
    W0, b0 = rng.normal(scale=0.6, size=(L, M)), rng.normal(scale=0.3, size=L)
    gamma = 0.013

    def unpack(x):
        return x[: L * M].reshape(L, M), x[L * M:]

    def f(x):
        W, b = unpack(x)
        return blended_objective(W, X, T, alpha, beta, gamma, intercept=b)[0]

    def g(x):
        W, b = unpack(x)
        gW, gb = blended_gradient(W, X, T, alpha, beta, gamma, intercept=b)
        return np.concatenate([gW.ravel(), gb])

    x0 = np.concatenate([W0.ravel(), b0])
    gnorm = np.linalg.norm(g(x0))
    assert check_grad(f, g, x0, epsilon=1e-7) <= 1e-6 * max(gnorm, 1e-3)
    # central differences, coordinate by coordinate
    h = 1e-6
    num = np.array([(f(x0 + h * e) - f(x0 - h * e)) / (2 * h) for e in np.eye(x0.size)])
    np.testing.assert_allclose(g(x0), num, rtol=1e-5, atol=1e-9)


def test_gradient_paper_eq10_form():
    """Our gradient equals the paper's eq. 10 written out literally (alpha > 0)."""
    rng = np.random.default_rng(7)
    K, M, L = 12, 3, 4
    X, T = rng.normal(size=(K, M)), _binary(rng, K, L, 0.5)
    W = rng.normal(size=(L, M))
    alpha, beta, gamma = 0.3, 4.0, 0.01
    Z = 1 / (1 + np.exp(-X @ W.T))
    P = Z**T * (1 - Z) ** (1 - T)
    a, b = T + alpha * (1 - T), (alpha - 1) * (1 - T)
    N, D = (P * a).sum(1), L + (P * b).sum(1)
    s = (N / D) ** beta
    per = beta * s[:, None] * P * (T - Z) * (a / N[:, None] - b / D[:, None])  # (K, L)
    paper = per.T @ X / K - gamma * W
    np.testing.assert_allclose(blended_gradient(W, X, T, alpha, beta, gamma), paper, rtol=1e-10)


def test_similarity_grad_wrt_z():
    rng = np.random.default_rng(9)
    T, Z = _binary(rng, 8, 5), rng.uniform(0.05, 0.95, (8, 5))
    g = blended_similarity_grad(T, Z, 0.3, 3.0)
    h = 1e-6
    for i in range(8):
        for j in range(5):
            E = np.zeros_like(Z)
            E[i, j] = h
            num = (blended_similarity(T, Z + E, 0.3, 3.0) - blended_similarity(T, Z - E, 0.3, 3.0)) / (2 * h)
            assert g[i, j] == pytest.approx(num, rel=1e-5, abs=1e-10)


def test_hamming_gradient_decouples_labels():
    """alpha = beta = 1: the gradient for label i depends only on w_i (Sec. 3.2)."""
    rng = np.random.default_rng(4)
    X, T = rng.normal(size=(20, 3)), _binary(rng, 20, 4)
    W = rng.normal(size=(4, 3))
    g1 = blended_gradient(W, X, T, 1.0, 1.0)
    W2 = W.copy()
    W2[1:] += rng.normal(size=(3, 3))
    np.testing.assert_allclose(blended_gradient(W2, X, T, 1.0, 1.0)[0], g1[0])
    Z = 1 / (1 + np.exp(-X @ W.T))
    np.testing.assert_allclose(g1, ((2 * T - 1) * Z * (1 - Z)).T @ X / (20 * 4))


# ----------------------------------------------------------------- bad input
@pytest.mark.parametrize("alpha", [-0.1, 1.01, np.nan])
def test_bad_alpha(alpha):
    with pytest.raises(ValueError, match="alpha"):
        blended_similarity([1, 0], [0.3, 0.2], alpha, 1)


@pytest.mark.parametrize("beta", [0.5, 0.0, -1.0, np.nan])
def test_bad_beta(beta):
    with pytest.raises(ValueError, match="beta"):
        blended_similarity([1, 0], [0.3, 0.2], 0.5, beta)
    with pytest.raises(ValueError, match="beta"):
        blended_gradient(np.zeros((2, 1)), [[1.0]], [[1, 0]], 0.5, beta)


def test_bad_beta_inf_for_gradient_and_types():
    with pytest.raises(ValueError, match="beta"):
        blended_gradient(np.zeros((2, 1)), [[1.0]], [[1, 0]], 0.5, np.inf)
    with pytest.raises(TypeError, match="alpha"):
        blended_similarity([1, 0], [0.3, 0.2], "1", 1)
    with pytest.raises(TypeError, match="beta"):
        blended_similarity([1, 0], [0.3, 0.2], 1, None)


@pytest.mark.parametrize("Z", [[1.2, 0.2], [-0.01, 0.5], [np.nan, 0.5]])
def test_bad_z(Z):
    with pytest.raises(ValueError, match="Z"):
        blended_similarity([1, 0], Z, 0.5, 1)


def test_bad_t_and_shapes():
    with pytest.raises(ValueError, match="T"):
        blended_similarity([2, 0], [0.3, 0.2], 0.5, 1)
    with pytest.raises(ValueError, match="same shape"):
        blended_similarity([1, 0, 1], [0.3, 0.2], 0.5, 1)
    with pytest.raises(ValueError, match="gamma"):
        blended_gradient(np.zeros((2, 1)), [[1.0]], [[1, 0]], 0.5, 1, -1)
    with pytest.raises(ValueError, match="W"):
        blended_gradient(np.zeros((3, 1)), [[1.0]], [[1, 0]], 0.5, 1)


# ----------------------------------------------------------------- estimator
def _toy(seed=0, n=80, M=6, L=4):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, M))
    W = rng.normal(size=(L, M))
    Y = (X @ W.T + rng.normal(scale=0.5, size=(n, L)) > 0.3).astype(int)
    return X, Y


def test_estimator_shapes_and_params():
    X, Y = _toy()
    clf = BlendedLinearClassifier(alpha=0.5, beta=2, gammas=(1e-4, 1e-2), cv=2)
    assert clf.get_params()["alpha"] == 0.5
    clf.fit(X, Y)
    assert clf.coef_.shape == (4, 6) and clf.intercept_.shape == (4,)
    assert clf.predict(X).shape == Y.shape and set(np.unique(clf.predict(X))) <= {0, 1}
    F = clf.decision_function(X)
    assert F.shape == Y.shape
    np.testing.assert_array_equal(clf.predict(X), (clf.predict_proba(X) >= 0.5).astype(int))
    np.testing.assert_array_equal(clf.predict(X), (F >= 0).astype(int))
    assert clf.gamma_ in (1e-4, 1e-2) and set(clf.cv_scores_) == {1e-4, 1e-2}
    # better than predicting nothing
    assert 1 - metrics.hamming_loss(Y, clf.predict(X)) > 1 - Y.mean()


def test_estimator_deterministic_and_sparse():
    X, Y = _toy(1)
    a = BlendedLinearClassifier(alpha=0.2, beta=4, gammas=(1e-3, 1e-2), random_state=5).fit(X, Y)
    b = BlendedLinearClassifier(alpha=0.2, beta=4, gammas=(1e-3, 1e-2), random_state=5).fit(X, Y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    s = BlendedLinearClassifier(alpha=0.2, beta=4, gammas=(1e-3, 1e-2), random_state=5).fit(sp.csr_matrix(X), Y)
    np.testing.assert_allclose(s.coef_, a.coef_, rtol=1e-6, atol=1e-8)
    np.testing.assert_array_equal(s.predict(sp.csr_matrix(X)), a.predict(X))


def test_estimator_hamming_matches_independent_fits():
    """alpha = beta = 1 decouples the labels: a joint fit equals per-label fits."""
    X, Y = _toy(2, L=3)
    joint = BlendedLinearClassifier(alpha=1, beta=1, gamma=1e-2, tol=1e-10, max_iter=2000).fit(X, Y)
    for j in range(3):
        one = BlendedLinearClassifier(alpha=1, beta=1, gamma=1e-2 * 3, tol=1e-10, max_iter=2000).fit(X, Y[:, [j]])
        # (1/L) scaling of the joint objective: gamma must be multiplied by L for one label
        np.testing.assert_allclose(one.coef_[0], joint.coef_[j], rtol=1e-4, atol=1e-5)


def test_estimator_bad_params():
    X, Y = _toy()
    for kw, err in [({"alpha": 2}, ValueError), ({"beta": 0.5}, ValueError), ({"gamma": -1}, ValueError),
                    ({"gamma": "auto"}, ValueError), ({"cv": 1}, ValueError), ({"random_state": None}, TypeError)]:
        with pytest.raises(err):
            BlendedLinearClassifier(**kw).fit(X, Y)
    with pytest.raises(ValueError, match="Y"):
        BlendedLinearClassifier(gamma=0.1).fit(X, Y * 2)
    with pytest.raises(AttributeError, match="not fitted"):
        BlendedLinearClassifier().predict(X)


def test_empty_sets_at_tiny_alpha_are_an_exact_match():
    """Both sets empty: s = alpha L / alpha L = 1 exactly, for every alpha > 0 and beta."""
    T = np.zeros((3, 9), dtype=int)
    for a in (1e-12, 1e-5, 0.3, 1.0):
        assert blended_similarity(T, T, a, 1) == 1.0
        assert blended_similarity(T, T, a, np.inf) == 1.0


# ----------------------------------------------------------------- the fast paths
def _objective_inline(W, b, X, T, alpha, beta, gamma):
    """Eq. 10 with every quantity of T recomputed at each evaluation (the plain form)."""
    Z = expit(np.asarray(X @ W.T) + b)
    P = np.where(T > 0, Z, 1.0 - Z)
    neg = 1.0 - T
    tn = (neg * P).sum(axis=1)
    fp = (neg * (1.0 - P)).sum(axis=1)
    num = (T * P).sum(axis=1) + alpha * tn
    den = T.sum(axis=1) + fp + alpha * tn
    r = np.clip(np.where(den > 0, num / np.where(den > 0, den, 1.0), 1.0), 0.0, 1.0)
    a, bb = T + alpha * (1.0 - T), (alpha - 1.0) * (1.0 - T)
    coef = np.where(den > 0, beta * r ** (beta - 1.0) / np.where(den > 0, den, 1.0), 0.0)
    dsdz = coef[:, None] * (a - bb * r[:, None]) * (2.0 * T - 1.0)
    G = dsdz * (Z * (1.0 - Z)) / T.shape[0]
    J = float((r**beta).mean()) - 0.5 * gamma * float(np.vdot(W, W))
    return J, np.asarray(X.T @ G).T - gamma * W, G.sum(axis=0)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize(("alpha", "beta"), [(1.0, 1.0), (0.0, 1.0), (0.3, 8.0), (1e-5, 128.0)])
def test_objective_with_the_truth_computed_once_gives_the_same_bits(sparse, alpha, beta):
    """A fit computes what the objective needs of T once (``_Truth``) instead of at each
    evaluation, and sums with ``np.add.reduce`` (what ``ndarray.sum`` calls).  The
    arithmetic is the same, in the same order, so the objective and its gradient equal
    the plain form to the last bit (``assert_array_equal``, no tolerance): a fit's path,
    and so every committed number, cannot move.  ``T`` has an empty and a full row, and
    alpha = 0 gives an instance whose D is 0."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 7))
    X[rng.random(X.shape) < 0.6] = 0.0
    T = _binary(rng, 40, 5).astype(float)
    T[0], T[1] = 0.0, 1.0
    W, b = rng.normal(scale=0.7, size=(5, 7)), rng.normal(size=5)
    X[:, 0], X[0, 0], W[:, 0] = 0.0, 1.0, -2000.0  # row 0: z = 0 exactly, TP = FP = FN = 0
    Xm = sp.csr_matrix(X) if sparse else X
    XT = Xm.T.tocsr() if sparse else None
    J, gW, gb = _objective(W, b, Xm, T, alpha, beta, 1e-3, XT=XT, truth=_Truth(T, alpha))
    Jp, gWp, gbp = _objective_inline(W, b, Xm, T, alpha, beta, 1e-3)
    assert not expit(np.asarray(Xm @ W.T) + b)[0].any()
    assert J == Jp
    np.testing.assert_array_equal(gW, gWp)
    np.testing.assert_array_equal(gb, gbp)
    assert _objective(W, b, Xm, T, alpha, beta, 1e-3, grad=False) == Jp
