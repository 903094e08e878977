"""Tests of mlcbook.losses against definitions, brute force and scikit-learn."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import hamming_loss as sk_hamming

from mlcbook import losses as L
from mlcbook.plots import plot_choquet_staircase, plot_error_count_losses, plot_loss_profiles

SETTINGS = settings(max_examples=60, deadline=None)


# ------------------------------------------------------------------ strategies / helpers
def random_capacity(K: int, rng: np.random.Generator) -> np.ndarray:
    """A random normalised monotone capacity (from a non-negative Moebius mass, then a random
    monotone perturbation by taking the running max over subsets)."""
    m = rng.random(1 << K) * (rng.random(1 << K) < 0.6)
    m[0] = 0.0
    mu = L.from_moebius(m / m.sum() if m.sum() > 0 else np.eye(1 << K)[-1], check=False)
    # a non-belief (some negative Moebius mass) but still monotone capacity:
    noise = rng.random(1 << K) * 0.3
    mu = mu + noise
    for i in range(K):  # make monotone by cumulative max along each bit
        v = mu.reshape(-1, 2, 1 << i)
        v[:, 1, :] = np.maximum(v[:, 1, :], v[:, 0, :])
    mu = (mu - mu[0]) / (mu[-1] - mu[0])
    return mu


@st.composite
def problems(draw, max_K=6, max_n=8, soft=True):
    K = draw(st.integers(1, max_K))
    n = draw(st.integers(1, max_n))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    Y = rng.integers(0, 2, (n, K))
    if soft and draw(st.booleans()):
        S = rng.random((n, K))
        S[rng.random((n, K)) < 0.2] = 0.5  # ties in the errors
    else:
        S = rng.integers(0, 2, (n, K))
    return Y, S, rng


def brute_choquet(u: np.ndarray, mu: np.ndarray) -> float:
    """Choquet integral as the integral over thresholds of mu({u >= t})."""
    levels = np.unique(np.concatenate([[0.0], u]))
    total = 0.0
    for lo, hi in zip(levels[:-1], levels[1:]):
        mask = sum(1 << i for i in range(u.size) if u[i] >= hi)
        total += (hi - lo) * mu[mask]
    return total


# --------------------------------------------------------------------- Choquet / Moebius
@SETTINGS
@given(problems())
def test_moebius_form_equals_sorted_form(prob):
    Y, S, rng = prob
    mu = random_capacity(Y.shape[1], rng)
    a = L.choquet_loss(Y, S, mu, per_instance=True)
    b = L.choquet_loss_moebius(Y, S, L.moebius(mu), per_instance=True)
    np.testing.assert_allclose(a, b, atol=1e-12)


@SETTINGS
@given(problems(max_K=5))
def test_choquet_equals_threshold_integral(prob):
    Y, S, rng = prob
    mu = random_capacity(Y.shape[1], rng)
    U = 1 - np.abs(Y - S)
    got = L.choquet_integral(U, mu)
    want = [brute_choquet(u, mu) for u in U]
    np.testing.assert_allclose(got, want, atol=1e-12)
    np.testing.assert_allclose(L.choquet_loss(Y, S, mu, per_instance=True), 1 - np.asarray(want), atol=1e-12)


@pytest.mark.parametrize("K", [1, 2, 3, 5, 8])
def test_moebius_roundtrip_and_definition(K):
    rng = np.random.default_rng(K)
    mu = random_capacity(K, rng)
    m = L.moebius(mu)
    np.testing.assert_allclose(L.from_moebius(m), mu, atol=1e-12)
    if K <= 5:  # eq. 11 literally
        for A in range(1 << K):
            s = sum((-1) ** (bin(A).count("1") - bin(B).count("1")) * mu[B]
                    for B in range(1 << K) if B & A == B)
            assert math.isclose(m[A], s, abs_tol=1e-12)
    assert math.isclose(m.sum(), 1.0)


def test_capacity_representations_agree():
    K = 3
    rng = np.random.default_rng(0)
    mu = random_capacity(K, rng)
    mapping = {frozenset(i for i in range(K) if a >> i & 1): mu[a] for a in range(1, 1 << K)}
    fn = lambda A: mu[sum(1 << i for i in A)]  # noqa: E731
    Y = rng.integers(0, 2, (6, K))
    S = rng.random((6, K))
    a = L.choquet_loss(Y, S, mu)
    assert math.isclose(a, L.choquet_loss(Y, S, mapping))
    assert math.isclose(a, L.choquet_loss(Y, S, fn))


def test_binary_choquet_is_one_minus_mu_of_correct_set():
    K = 4
    mu = random_capacity(K, np.random.default_rng(3))
    for y, c in itertools.product(itertools.product([0, 1], repeat=K), repeat=2):
        right = sum(1 << i for i in range(K) if y[i] == c[i])
        assert math.isclose(L.choquet_loss(y, c, mu), 1 - mu[right], abs_tol=1e-12)


# --------------------------------------------------------------------- OWA / counting
@SETTINGS
@given(problems(), st.integers(0, 3))
def test_owa_equals_choquet_with_counting_measure(prob, which):
    Y, S, rng = prob
    K = Y.shape[1]
    v = np.concatenate([[0.0], np.sort(rng.random(K - 1)), [1.0]])
    if which == 1:
        v = np.sqrt(np.arange(K + 1) / K)  # concave
    w = L.owa_weights(v, K)
    assert w.shape == (K,) and math.isclose(w.sum(), 1.0)
    a = L.owa_loss(Y, S, w, per_instance=True)
    b = L.choquet_loss(Y, S, L.counting_measure(v, K), per_instance=True)
    np.testing.assert_allclose(a, b, atol=1e-12)


def test_owa_weights_from_callable_and_order():
    w = L.owa_weights(lambda x: x**2, 4)
    # w_i = v((K-i+1)/K) - v((K-i)/K): w_1 belongs to the largest error
    np.testing.assert_allclose(w, [1 - 9 / 16, 9 / 16 - 4 / 16, 4 / 16 - 1 / 16, 1 / 16])
    y = [0, 0, 0, 0]
    s = [0.9, 0.0, 0.0, 0.0]  # one large error: gets w_1
    assert math.isclose(L.owa_loss(y, s, w), 0.9 * w[0])


def test_paper_worked_table():
    y = np.array([0, 1, 1, 0, 0, 0])
    s = np.array([0.2, 0.3, 0.9, 0.1, 0.4, 0.3])
    assert round(L.binomial_loss(y, s, 1), 2) == 0.30
    assert round(L.binomial_loss(y, s, 6), 2) == 0.70
    assert round(L.binomial_loss(y, s, 2), 2) == 0.43
    np.testing.assert_allclose(L.owa_weights(L.family_v("binomial", 2, 6), 6) * 15, [5, 4, 3, 2, 1, 0])


# ------------------------------------------------------------------ Hamming / subset 0/1
@SETTINGS
@given(problems(max_K=8, max_n=20, soft=False))
def test_k1_and_alpha1_are_hamming(prob):
    Y, P, _ = prob
    ref = sk_hamming(Y, P)
    assert math.isclose(L.binomial_loss(Y, P, 1), ref, abs_tol=1e-12)
    assert math.isclose(L.polynomial_loss(Y, P, 1.0), ref, abs_tol=1e-12)
    assert math.isclose(L.choquet_loss(Y, P, L.hamming_capacity(Y.shape[1])), ref, abs_tol=1e-12)


@SETTINGS
@given(problems(max_K=8, max_n=20))
def test_soft_k1_is_mean_absolute_error_and_kK_is_max_error(prob):
    Y, S, _ = prob
    K = Y.shape[1]
    E = np.abs(Y - S)
    assert math.isclose(L.binomial_loss(Y, S, 1), E.mean(), abs_tol=1e-12)
    assert math.isclose(L.binomial_loss(Y, S, K), E.max(axis=1).mean(), abs_tol=1e-12)
    assert math.isclose(L.choquet_loss(Y, S, L.subset_capacity(K)), E.max(axis=1).mean(), abs_tol=1e-12)
    assert math.isclose(L.polynomial_loss(Y, S, math.inf), E.max(axis=1).mean(), abs_tol=1e-12)


@SETTINGS
@given(problems(max_K=8, max_n=20, soft=False))
def test_kK_is_subset_zero_one(prob):
    Y, P, _ = prob
    ref = float(np.mean(np.any(Y != P, axis=1)))
    assert math.isclose(L.binomial_loss(Y, P, Y.shape[1]), ref, abs_tol=1e-12)


def test_polynomial_tends_to_subset_zero_one():
    rng = np.random.default_rng(0)
    Y = rng.integers(0, 2, (200, 6))
    S = rng.random((200, 6))
    ref = L.binomial_loss(Y, S, 6)
    gaps = [abs(L.polynomial_loss(Y, S, a) - ref) for a in (1, 4, 16, 64, 256, 4096)]
    assert all(g2 <= g1 + 1e-12 for g1, g2 in zip(gaps, gaps[1:]))
    assert gaps[-1] < 1e-3


# ------------------------------------------------------------------ properties
@SETTINGS
@given(problems(max_K=7, max_n=10))
def test_losses_in_unit_interval_and_permutation_symmetric(prob):
    Y, S, rng = prob
    K = Y.shape[1]
    perm = rng.permutation(K)
    for fam, params in (("binomial", range(1, K + 1)), ("polynomial", [1.0, 1.5, 3.0, 10.0])):
        prof = L.loss_profile(Y, S, fam, list(params), per_instance=True)
        assert prof.min() >= 0 and prof.max() <= 1
        prof_p = L.loss_profile(Y[:, perm], S[:, perm], fam, list(params), per_instance=True)
        np.testing.assert_allclose(prof, prof_p, atol=1e-12)


@SETTINGS
@given(problems(max_K=8, max_n=10, soft=False))
def test_binary_nondecreasing_in_k_and_alpha(prob):
    Y, P, _ = prob
    K = Y.shape[1]
    prof = L.loss_profile(Y, P, "binomial", range(1, K + 1), per_instance=True)
    assert np.all(np.diff(prof, axis=1) >= -1e-12)
    prof = L.loss_profile(Y, P, "polynomial", [1, 1.5, 2, 5, 20, math.inf], per_instance=True)
    assert np.all(np.diff(prof, axis=1) >= -1e-12)


@SETTINGS
@given(problems(max_K=7, max_n=10))
def test_profile_equals_single_calls(prob):
    Y, S, _ = prob
    K = Y.shape[1]
    prof = L.loss_profile(Y, S, "binomial", range(1, K + 1))
    np.testing.assert_allclose(prof, [L.binomial_loss(Y, S, k) for k in range(1, K + 1)], atol=1e-12)
    alphas = [1.0, 2.0, 7.5]
    prof = L.loss_profile(Y, S, "polynomial", alphas)
    np.testing.assert_allclose(prof, [L.polynomial_loss(Y, S, a) for a in alphas], atol=1e-12)


@pytest.mark.parametrize("family,params", [("binomial", [1, 2, 3, 5]), ("polynomial", [1.0, 2.0, 3.3])])
def test_error_count_losses_match_loss_of_binary_predictions(family, params):
    K = 5
    for prm in params:
        table = L.error_count_losses(family, prm, K)
        assert table.shape == (K + 1,) and table[0] == 0 and table[-1] == 1
        assert np.all(np.diff(table) >= 0)
        y = np.zeros(K, dtype=int)
        for m in range(K + 1):
            p = np.r_[np.ones(m, int), np.zeros(K - m, int)]
            got = L.loss_profile(y, p, family, [prm])[0]
            assert math.isclose(got, table[m], abs_tol=1e-12)


def test_binomial_is_fraction_of_wrong_k_subsets():
    rng = np.random.default_rng(1)
    K = 6
    Y = rng.integers(0, 2, (30, K))
    P = rng.integers(0, 2, (30, K))
    for k in range(1, K + 1):
        subs = list(itertools.combinations(range(K), k))
        want = np.mean([[np.any(Y[i, list(T)] != P[i, list(T)]) for T in subs] for i in range(30)])
        assert math.isclose(L.binomial_loss(Y, P, k), want, abs_tol=1e-12)


def test_binomial_moebius_mass():
    K, k = 5, 3
    mu = L.counting_measure(L.family_v("binomial", k, K), K)
    m = L.moebius(mu)
    sizes = L.popcount(np.arange(1 << K))
    np.testing.assert_allclose(m[sizes == k], 1 / math.comb(K, k))
    np.testing.assert_allclose(m[sizes != k], 0, atol=1e-12)


def test_covering_loss_equals_choquet():
    rng = np.random.default_rng(2)
    K = 5
    Y = rng.integers(0, 2, (20, K))
    S = rng.random((20, K))
    cover = [(0, 1), (1, 2, 3), (4,), (0, 4)]
    assert math.isclose(L.covering_loss(Y, S, cover), L.choquet_loss(Y, S, L.covering_capacity(cover, K)))
    P = rng.integers(0, 2, (20, K))
    want = np.mean([[np.any(P[i, list(T)] != Y[i, list(T)]) for T in cover] for i in range(20)])
    assert math.isclose(L.covering_loss(Y, P, cover), want)


def test_input_types():
    Y = np.array([[1, 0, 1], [0, 0, 1]])
    P = np.array([[1, 1, 1], [0, 0, 0]])
    ref = L.binomial_loss(Y, P, 2)
    assert math.isclose(L.binomial_loss(Y.astype(bool), P.astype(bool), 2), ref)
    assert math.isclose(L.binomial_loss(Y.astype(float), P.astype(float), 2), ref)
    assert math.isclose(L.binomial_loss(sp.csr_matrix(Y), sp.csr_matrix(P), 2), ref)
    assert math.isclose(L.binomial_loss(Y.tolist(), P.tolist(), 2), ref)
    assert L.binomial_loss(Y[0], P[0], 2, per_instance=True).shape == (1,)


def test_large_K_counting_losses_work():
    rng = np.random.default_rng(0)
    Y = rng.integers(0, 2, (10, 200))
    P = rng.integers(0, 2, (10, 200))
    assert math.isclose(L.binomial_loss(Y, P, 1), sk_hamming(Y, P))
    assert 0 <= L.binomial_loss(Y, P, 100) <= 1


# ---------------------------------------------------------------------- bad input
Y3 = np.array([[1, 0, 1]])
S3 = np.array([[0.2, 0.5, 0.9]])


@pytest.mark.parametrize("mu, msg", [
    (np.array([0.1, .2, .3, .4, .5, .6, .7, 1.0]), "normalised"),
    (np.array([0, .2, .3, .4, .5, .6, .7, 0.9]), "normalised"),
    (np.array([0, .5, .3, .2, .5, .6, .7, 1.0]), "monotone"),
    (np.array([0, .5, .3, np.nan, .5, .6, .7, 1.0]), "NaN"),
    (np.zeros(7), "2\\*\\*K"),
    (np.zeros(4), "K=3"),
    (np.zeros((2, 4)), "1-D"),
])
def test_bad_capacity(mu, msg):
    with pytest.raises(ValueError, match=msg):
        L.choquet_loss(Y3, S3, mu)


def test_bad_capacity_mapping_and_callable():
    with pytest.raises(ValueError, match="no value"):
        L.choquet_loss(Y3, S3, {frozenset({0}): 0.1, frozenset({0, 1, 2}): 1.0})
    with pytest.raises(ValueError, match="label index"):
        L.check_capacity({frozenset({5}): 0.1}, 3)
    with pytest.raises(ValueError, match="monotone"):
        L.choquet_loss(Y3, S3, lambda A: 1.0 if len(A) in (1, 3) else 0.0)
    with pytest.raises(TypeError, match="mu"):
        L.choquet_loss(Y3, S3, "hamming")
    with pytest.raises(ValueError, match="K is needed"):
        L.check_capacity({frozenset(): 0})
    with pytest.raises(ValueError, match="monotone"):
        L.from_moebius(np.array([0, 0.9, -0.2, 0.3]))


def test_too_many_labels_to_enumerate():
    K = L.MAX_CAPACITY_LABELS + 1
    with pytest.raises(ValueError, match="MAX_CAPACITY_LABELS=20"):
        L.counting_measure(lambda x: x, K)
    with pytest.raises(ValueError, match="MAX_CAPACITY_LABELS"):
        L.choquet_loss(np.zeros((1, K), int), np.zeros((1, K)), lambda A: 0.0)
    with pytest.raises(ValueError, match="MAX_CAPACITY_LABELS"):
        L.subset_capacity(K)


@pytest.mark.parametrize("k", [0, 4, -1])
def test_bad_k(k):
    with pytest.raises(ValueError, match="k must be"):
        L.binomial_loss(Y3, S3, k)
    with pytest.raises(ValueError, match="k must be"):
        L.error_count_losses("binomial", k, 3)


@pytest.mark.parametrize("k", [1.5, "2", None, True])
def test_k_wrong_type(k):
    with pytest.raises(TypeError, match="k must be"):
        L.binomial_loss(Y3, S3, k)


@pytest.mark.parametrize("alpha", [0.5, 0.0, -2.0, math.nan, -math.inf])
def test_bad_alpha(alpha):
    with pytest.raises(ValueError, match="alpha"):
        L.polynomial_loss(Y3, S3, alpha)
    with pytest.raises(ValueError, match="alpha"):
        L.loss_profile(Y3, S3, "polynomial", [2.0, alpha])


def test_bad_family_and_params():
    with pytest.raises(ValueError, match="family"):
        L.loss_profile(Y3, S3, "cubic", [1])
    with pytest.raises(TypeError, match="family"):
        L.error_count_losses(None, 1, 3)
    with pytest.raises(ValueError, match="params"):
        L.loss_profile(Y3, S3, "binomial", [])
    with pytest.raises(TypeError, match="params"):
        L.loss_profile(Y3, S3, "binomial", "12")
    with pytest.raises(ValueError, match="K must be"):
        L.error_count_losses("binomial", 1, 0)


@pytest.mark.parametrize("S, err, msg", [
    (np.array([[0.2, 1.5, 0.9]]), ValueError, r"S must lie in \[0, 1\]"),
    (np.array([[0.2, -0.1, 0.9]]), ValueError, r"S must lie in \[0, 1\]"),
    (np.array([[0.2, np.nan, 0.9]]), ValueError, "NaN"),
    (np.array([[0, 2, 1]]), ValueError, r"S must lie in \[0, 1\]"),
    (np.array([[0.2, 0.9]]), ValueError, "same shape"),
    (np.array([["a", "b", "c"]]), TypeError, "S must"),
])
def test_bad_scores(S, err, msg):
    for fn in (lambda: L.binomial_loss(Y3, S, 2), lambda: L.polynomial_loss(Y3, S, 2.0),
               lambda: L.owa_loss(Y3, S, [1 / 3] * 3), lambda: L.choquet_loss(Y3, S, L.hamming_capacity(3)),
               lambda: L.loss_profile(Y3, S, "binomial", [1, 2]), lambda: L.covering_loss(Y3, S, [(0, 1)]),
               lambda: L.choquet_loss_moebius(Y3, S, L.moebius(L.hamming_capacity(3)))):
        with pytest.raises(err, match=msg):
            fn()


@pytest.mark.parametrize("Y, msg", [
    (np.array([[1, 2, 0]]), "Y must be binary"),
    (np.array([[1, 0.5, 0]]), "Y must be binary"),
    (np.array([[1, -1, 0]]), "Y must be binary"),
])
def test_bad_labels(Y, msg):
    with pytest.raises(ValueError, match=msg):
        L.binomial_loss(Y, S3, 1)


def test_bad_weights_and_v():
    with pytest.raises(ValueError, match="sum to 1"):
        L.owa_loss(Y3, S3, [0.5, 0.5, 0.5])
    with pytest.raises(ValueError, match="non-negative"):
        L.owa_loss(Y3, S3, [1.5, -0.5, 0.0])
    with pytest.raises(ValueError, match="shape"):
        L.owa_loss(Y3, S3, [0.5, 0.5])
    with pytest.raises(ValueError, match="non-decreasing"):
        L.owa_weights([0, 0.6, 0.4, 1], 3)
    with pytest.raises(ValueError, match="v\\(0\\) = 0"):
        L.counting_measure([0.1, 0.5, 1], 2)
    with pytest.raises(ValueError, match="K\\+1"):
        L.owa_weights([0, 1], 3)
    with pytest.raises(TypeError, match="v must"):
        L.owa_weights("x", 3)


def test_bad_covering_and_integral_input():
    with pytest.raises(ValueError, match="empty"):
        L.covering_loss(Y3, S3, [()])
    with pytest.raises(ValueError, match="at least one"):
        L.covering_loss(Y3, S3, [])
    with pytest.raises(ValueError, match="label index"):
        L.covering_capacity([(0, 7)], 3)
    with pytest.raises(ValueError, match="non-negative"):
        L.choquet_integral([[-0.1, 0.5, 0.2]], L.hamming_capacity(3))


# ---------------------------------------------------------------------- figures
def test_plots_smoke():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ax = plot_choquet_staircase([0.8, 0.3, 0.9], L.counting_measure(L.family_v("binomial", 2, 3), 3))
    assert "0.467" in ax.get_title()  # 0.3*1 + 0.5*(1/3) + 0.1*0
    ax = plot_error_count_losses(6, {"binomial": [2, 3], "polynomial": [2.0]})
    assert len(ax.get_lines()) == 5
    ax = plot_loss_profiles([1, 2, 3], {"A": [0.2, 0.36, 0.488], "B": [0.5] * 3})
    assert len(ax.get_lines()) == 2
    with pytest.raises(ValueError, match="monotone"):
        plot_choquet_staircase([0.1, 0.2], np.array([0, 0.6, -0.1, 1.0]))
    plt.close("all")


def test_owa_loss_of_sparse_binary_predictions_stays_sparse():
    """0/1 sparse truth and predictions: only the error counts per row are needed
    (the loss is the sum of the m largest weights).  Equal to the dense computation;
    and at K = 10**6 labels, where a dense copy (10**9 cells) would not fit, it runs."""
    rng = np.random.default_rng(0)
    Y = (rng.random((50, 6)) < 0.4).astype(int)
    P = (rng.random((50, 6)) < 0.4).astype(int)
    w = L.owa_weights(lambda t: t**2, 6)
    sw = rng.random(50)
    Ys, Ps = sp.csr_matrix(Y), sp.csr_matrix(P)
    assert L.owa_loss(Ys, Ps, w) == L.owa_loss(Y, P, w)
    assert L.owa_loss(Ys, Ps, w, sample_weight=sw) == L.owa_loss(Y, P, w, sample_weight=sw)
    np.testing.assert_array_equal(L.owa_loss(Ys, Ps, w, per_instance=True),
                                  L.owa_loss(Y, P, w, per_instance=True))
    n, K = 1000, 10**6
    cols = np.sort(rng.choice(K, size=(n, 3), replace=True), axis=1)
    Yb = sp.csr_matrix((np.ones(3 * n), cols.ravel(), np.arange(0, 3 * n + 1, 3)),
                       shape=(n, K))
    Yb.sum_duplicates()
    Yb.data[:] = 1
    wk = np.full(K, 1.0 / K)  # uniform weights: the Hamming loss
    assert L.owa_loss(Yb, Yb, wk) == 0.0
    assert L.owa_loss(Yb, sp.csr_matrix((n, K)), wk) == pytest.approx(Yb.nnz / (n * K), rel=1e-12)
