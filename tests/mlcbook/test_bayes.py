"""Tests of mlcbook.bayes: enumeration with pruning equals brute force."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlcbook import bayes as B
from mlcbook import losses as L

TABLE1 = np.array([0.046, 0.003, 0.034, 0.048, 0.025, 0.052, 0.036, 0.050, 0.022, 0.011, 0.006,
                   0.059, 0.041, 0.023, 0.013, 0.012, 0.044, 0.023, 0.018, 0.011, 0.003, 0.022,
                   0.062, 0.054, 0.056, 0.059, 0.040, 0.022, 0.029, 0.013, 0.038, 0.025])


def all_vectors(K):
    return np.array(list(itertools.product([0, 1], repeat=K)), dtype=np.int8)


def brute(support, probs, lossfn, K):
    """Minimisers by evaluating a per-instance loss on every candidate."""
    cands = all_vectors(K)
    r = np.array([lossfn(support, np.repeat(c[None], len(support), 0)) @ probs for c in cands])
    return cands[r <= r.min() + 1e-12], r.min()


@st.composite
def distributions(draw, max_K=6):
    K = draw(st.integers(1, max_K))
    t = draw(st.integers(1, 10))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    sup = rng.integers(0, 2, (t, K))
    n_cons = draw(st.integers(0, K))  # labels on which the support agrees
    for j in rng.choice(K, n_cons, replace=False):
        sup[:, j] = rng.integers(0, 2)
    w = rng.integers(1, 4, t).astype(float)  # small integers: exact ties happen
    return sup, w / w.sum(), rng


@settings(max_examples=80, deadline=None)
@given(distributions())
def test_bayes_optimal_equals_brute_force(dist):
    sup, p, rng = dist
    K = sup.shape[1]
    k = int(rng.integers(1, K + 1))
    alpha = float(rng.uniform(1, 6))
    specs = [
        (("binomial", k), lambda Y, P: L.binomial_loss(Y, P, k, per_instance=True)),
        (("polynomial", alpha), lambda Y, P: L.polynomial_loss(Y, P, alpha, per_instance=True)),
        ("hamming", lambda Y, P: np.mean(Y != P, axis=1)),
        ("subset", lambda Y, P: np.any(Y != P, axis=1).astype(float)),
    ]
    if K <= 5:
        cap = L.from_moebius(_random_moebius(K, rng))
        specs.append((("choquet", cap), lambda Y, P: L.choquet_loss(Y, P, cap, per_instance=True)))
    for spec, fn in specs:
        want, rmin = brute(sup, p, fn, K)
        for prune in (True, False):
            got = B.bayes_optimal(sup, p, spec, prune=prune)
            assert math.isclose(got.risk, rmin, abs_tol=1e-12)
            np.testing.assert_array_equal(got.predictions, want)


def _random_moebius(K, rng):
    m = rng.random(1 << K) * (rng.random(1 << K) < 0.5)
    m[0] = 0
    m[-1] += 0.1
    return m / m.sum()


def test_pruning_keeps_ties_on_consensus_labels():
    # subset 0/1 with a uniform support over two vectors that agree on label 2:
    # every candidate that misses label 2 has risk 1, the two support vectors risk 1/2.
    sup = np.array([[0, 0, 1], [1, 1, 1]])
    got = B.bayes_optimal(sup, [0.5, 0.5], "subset")
    np.testing.assert_array_equal(got.predictions, sup)
    # a capacity that ignores label 2: mu(A) = |A ∩ {0, 1}| / 2.  With a single support point
    # every label is a consensus label, yet flipping label 2 costs nothing: both are minimisers.
    cap = np.array([0, 0.5, 0.5, 1.0, 0, 0.5, 0.5, 1.0])
    got = B.bayes_optimal([[1, 0, 1]], [1.0], ("choquet", cap))
    np.testing.assert_array_equal(got.predictions, [[1, 0, 0], [1, 0, 1]])
    assert got.risk == 0.0


def test_table1_of_the_paper():
    sup = all_vectors(5)
    want = {1: [1, 0, 0, 1, 0], 2: [0, 0, 1, 1, 1], 3: [0, 0, 1, 1, 1], 4: [1, 1, 0, 0, 0], 5: [1, 0, 1, 1, 0]}
    for k, pred in want.items():
        got = B.bayes_optimal(sup, TABLE1, ("binomial", k))
        np.testing.assert_array_equal(got.predictions, [pred])


def test_marginal_and_joint_mode_three_labels():
    sup = np.array([[0, 0, 0], [1, 1, 1], [0, 1, 1], [1, 0, 1], [1, 1, 0]])
    p = np.array([4, 3, 3, 3, 3]) / 16
    np.testing.assert_array_equal(B.bayes_optimal(sup, p, "hamming").predictions, [[1, 1, 1]])
    np.testing.assert_array_equal(B.bayes_optimal(sup, p, "subset").predictions, [[0, 0, 0]])


def test_risk_function():
    sup = all_vectors(5)
    r = B.risk([1, 0, 1, 1, 0], sup, TABLE1, ("binomial", 5))
    assert math.isclose(r, 1 - 0.062)
    rs = B.risk(sup, sup, TABLE1, "hamming")
    assert rs.shape == (32,)
    cap = L.counting_measure(L.family_v("binomial", 3, 5), 5)
    np.testing.assert_allclose(B.risk(sup, sup, TABLE1, ("choquet", cap)),
                               B.risk(sup, sup, TABLE1, ("binomial", 3)), atol=1e-12)
    fn = lambda Y, P: L.binomial_loss(Y, P, 3, per_instance=True)  # noqa: E731
    np.testing.assert_allclose(B.risk(sup, sup, TABLE1, fn), B.risk(sup, sup, TABLE1, ("binomial", 3)))
    w = L.owa_weights(L.family_v("polynomial", 2.0, 5), 5)
    np.testing.assert_allclose(B.risk(sup, sup, TABLE1, ("owa", w)),
                               B.risk(sup, sup, TABLE1, ("polynomial", 2.0)), atol=1e-12)
    np.testing.assert_allclose(B.risk(sup, sup, TABLE1, ("counts", L.error_count_losses("binomial", 2, 5))),
                               B.risk(sup, sup, TABLE1, ("binomial", 2)))


def test_callable_loss_and_duplicates():
    sup = np.array([[1, 0, 1], [1, 0, 1], [0, 1, 1]])
    p = np.array([0.3, 0.3, 0.4])
    fn = lambda Y, P: L.binomial_loss(Y, P, 2, per_instance=True)  # noqa: E731
    a = B.bayes_optimal(sup, p, fn)
    b = B.bayes_optimal(sup, p, ("binomial", 2))
    np.testing.assert_array_equal(a.predictions, b.predictions)
    assert math.isclose(a.risk, b.risk)
    np.testing.assert_array_equal(b.predictions, [[1, 0, 1]])


def _nan_where_all_wrong(Y, P):
    """Hamming loss, NaN where the prediction gets every label wrong."""
    h = np.mean(Y != P, axis=1)
    return np.where(h == 1, np.nan, h)


@pytest.mark.parametrize(
    "fn, err, match",
    [
        (lambda Y, P: np.full(len(Y), np.nan), ValueError, r"returned nan .*finite"),
        (_nan_where_all_wrong, ValueError, r"returned nan for the prediction \["),
        (lambda Y, P: np.full(len(Y), np.inf), ValueError, r"returned inf"),
        (lambda Y, P: np.mean(Y != P, axis=1) * (1 + 1j), TypeError, "real numbers.*complex"),
        (lambda Y, P: np.array(["0.5"] * len(Y)), TypeError, "real numbers"),
        (lambda Y, P: [None] * len(Y), TypeError, "real numbers"),
    ],
)
def test_a_callable_loss_that_returns_no_real_number_is_refused(fn, err, match):
    """Before: NaN losses gave no prediction at all and a NaN risk; complex losses lost
    their imaginary part with only a ComplexWarning."""
    with pytest.raises(err, match="^loss: .*" + match):
        B.bayes_optimal(SUP, [0.5, 0.5], fn)
    with pytest.raises(err, match="^loss: .*" + match):
        B.risk([[0, 0], [1, 1], [1, 0]], SUP, [0.5, 0.5], fn)


def test_a_callable_loss_may_return_booleans_or_integers():
    sup = np.array([[1, 0, 1], [0, 1, 1]])
    subset = B.bayes_optimal(sup, [0.4, 0.6], lambda Y, P: (Y != P).any(axis=1))
    assert subset.risk == pytest.approx(0.4) and subset.predictions.tolist() == [[0, 1, 1]]
    errors = B.bayes_optimal(sup, [0.4, 0.6], lambda Y, P: (Y != P).sum(axis=1))
    assert errors.risk == pytest.approx(0.8)  # 2 errors with probability 0.4


def test_large_problem_uses_transform_and_pruning():
    rng = np.random.default_rng(0)
    K, t = 30, 400
    sup = np.zeros((t, K), dtype=np.int8)
    sup[:, :12] = rng.integers(0, 2, (t, 12))  # 18 consensus labels
    p = rng.random(t)
    p /= p.sum()
    got = B.bayes_optimal(sup, p, ("binomial", 3))
    sub = B.bayes_optimal(sup[:, :12], p, ("binomial", 3))
    assert got.predictions.shape[0] >= 1
    assert np.all(got.predictions[:, 12:] == 0)
    # the risk is not comparable (K differs) but the free part coincides for k=1
    g1 = B.bayes_optimal(sup, p, "hamming")
    s1 = B.bayes_optimal(sup[:, :12], p, "hamming")
    np.testing.assert_array_equal(g1.predictions[:, :12], s1.predictions)
    assert sub.predictions.shape[1] == 12


def test_transform_path_matches_direct():
    rng = np.random.default_rng(5)
    K, t = 11, 300
    sup = rng.integers(0, 2, (t, K))
    p = rng.random(t)
    p /= p.sum()
    for spec in [("binomial", 4), ("polynomial", 2.5)]:
        got = B.bayes_optimal(sup, p, spec)
        r = B.risk(all_vectors(K), sup, p, spec)
        assert math.isclose(got.risk, r.min(), abs_tol=1e-12)
        np.testing.assert_array_equal(got.predictions, all_vectors(K)[r <= r.min() + 1e-12])


# ---------------------------------------------------------------------- bad input
SUP = np.array([[0, 1], [1, 1]])


@pytest.mark.parametrize("probs, err, msg", [
    ([0.5, 0.6], ValueError, "sum to 1"),
    ([1.2, -0.2], ValueError, "non-negative"),
    ([0.5, np.nan], ValueError, "NaN"),
    ([1.0], ValueError, "one entry per support row"),
    (["a", "b"], TypeError, "probs"),
])
def test_bad_probs(probs, err, msg):
    with pytest.raises(err, match=msg):
        B.bayes_optimal(SUP, probs, "hamming")
    with pytest.raises(err, match=msg):
        B.risk([0, 1], SUP, probs, "hamming")


@pytest.mark.parametrize("loss, err, msg", [
    ("cubic", ValueError, "loss must be"),
    (("binomial", 3), ValueError, "k must be"),
    (("polynomial", 0.5), ValueError, "alpha"),
    (("owa", [0.7, 0.7]), ValueError, "sum to 1"),
    (("counts", [0, 1]), ValueError, "K\\+1"),
    (("counts", [0, 0.8, 0.5]), ValueError, "non-decreasing"),
    (("choquet", np.array([0, 0.6, -0.1, 1.0])), ValueError, "monotone"),
    (("weird", 1), ValueError, "unknown loss"),
    (("binomial",), ValueError, "tuple"),
    (3.0, TypeError, "loss must be"),
])
def test_bad_loss(loss, err, msg):
    with pytest.raises(err, match=msg):
        B.bayes_optimal(SUP, [0.5, 0.5], loss)


def test_bad_support_and_limits():
    with pytest.raises(ValueError, match="support must be binary"):
        B.bayes_optimal([[0, 2]], [1.0], "hamming")
    with pytest.raises(ValueError, match="prediction has 3 labels"):
        B.risk([0, 1, 1], SUP, [0.5, 0.5], "hamming")
    rng = np.random.default_rng(0)
    K = B.MAX_BAYES_LABELS + 1
    sup = rng.integers(0, 2, (50, K))
    with pytest.raises(ValueError, match="MAX_BAYES_LABELS=22"):
        B.bayes_optimal(sup, np.full(50, 1 / 50), "hamming")
    fn = lambda Y, P: np.mean(Y != P, axis=1)  # noqa: E731
    with pytest.raises(ValueError, match="MAX_CALLABLE_LABELS"):
        B.bayes_optimal(rng.integers(0, 2, (3, 17)), np.full(3, 1 / 3), fn)
    with pytest.raises(ValueError, match="one loss per row"):
        B.bayes_optimal(SUP, [0.5, 0.5], lambda Y, P: np.zeros(1))
    with pytest.raises(ValueError, match="atol"):
        B.bayes_optimal(SUP, [0.5, 0.5], "hamming", atol=-1.0)
