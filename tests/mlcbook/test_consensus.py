"""The shared consensus rule and tie tolerance (mlcbook._consensus): both bounds of TIE_TOL."""

import itertools
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlcbook._consensus import TIE_TOL, consensus_mask, tied
from mlcbook.bayes import bayes_optimal
from mlcbook.learners.knn import _quantize, minimize_summed_loss
from mlcbook.losses import error_count_losses


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5), st.integers(1, 6), st.integers(1, 6), st.integers(0, 2**32 - 1))
def test_consensus_mask_is_brute_force_agreement(n, c, K, seed):
    N = (np.random.default_rng(seed).random((n, c, K)) < 0.5).astype(np.int8)
    expected = np.array([[len(set(N[q, :, j])) == 1 for j in range(K)] for q in range(n)])
    np.testing.assert_array_equal(consensus_mask(N, axis=1), expected)
    # the support form of bayes (t, K): one "query"
    np.testing.assert_array_equal(consensus_mask(N[0], axis=0), expected[0])


def test_consensus_mask_refuses_no_voters():
    with pytest.raises(ValueError, match="labels"):
        consensus_mask(np.zeros((3, 0, 4)), axis=1)


def test_tied_is_relative_to_the_scale():
    assert tied(1.0 + 0.5e-12 * 9, 1.0, scale=9)
    assert not tied(1.0 + 2e-12 * 9, 1.0, scale=9)
    assert tied(0.3 + 1e-13, 0.3) and not tied(0.3 + 1e-11, 0.3)


@pytest.mark.parametrize("K", [3, 6, 14, 19])
@pytest.mark.parametrize("c", [3, 9, 27])
def test_mathematically_tied_sums_are_tied(K, c):
    """Lower bound: sums equal in exact arithmetic (same total error count spread
    differently over the neighbours, Hamming loss) differ in floating point only by
    rounding, which stays below TIE_TOL * scale after the library's quantisation."""
    L = error_count_losses("binomial", 1, K)  # m / K, computed as 1 - (K - m)/K
    T = _quantize(np.asarray(L, dtype=float)[None], c)[0]
    scale = c * np.abs(T).max()
    worst = 0.0
    for total in range(0, c * K + 1, max(1, c * K // 7)):
        # every way of splitting `total` errors over c neighbours gives total / K
        sums = {float(T[list(ms)].sum())
                for ms in itertools.islice(itertools.combinations_with_replacement(range(K + 1), c), 4000)
                if sum(ms) == total}
        if sums:
            worst = max(worst, max(sums) - min(sums))
    assert worst <= TIE_TOL * scale, (worst, TIE_TOL * scale)


@pytest.mark.parametrize("K", [6, 14, 19])
def test_real_differences_of_our_losses_exceed_the_tolerance(K):
    """Upper bound: the binomial loss values are multiples of 1 / C(K, k); the smallest
    non-zero difference of two sums of them, 1 / C(K, k) (K <= 19 in Fig. 4), is far
    above TIE_TOL * c."""
    c = 27
    for k in range(1, K + 1):
        L = np.asarray(error_count_losses("binomial", k, K), dtype=float)
        units = L * comb(K, k)
        np.testing.assert_allclose(units, np.round(units), atol=1e-6)  # multiples of 1/C(K,k)
        assert 1.0 / comb(K, k) > 1e5 * TIE_TOL * c  # five orders of magnitude apart


def test_bayes_and_knn_use_the_same_rule():
    """A neighbour set is the uniform distribution over its neighbours: the summed loss
    is c times the risk, so the two minimisers must find the same minimum and, among
    tied candidates, knn's pick must be one of Bayes' minimisers."""
    rng = np.random.default_rng(3)
    for _ in range(40):
        c, K = int(rng.integers(1, 8)), int(rng.integers(1, 6))
        N = (rng.random((1, c, K)) < 0.5).astype(np.int8)
        k = int(rng.integers(1, K + 1))
        pred = minimize_summed_loss(N, error_count_losses("binomial", k, K))[0]
        best = bayes_optimal(N[0], np.full(c, 1.0 / c), ("binomial", k))
        assert any((pred == row).all() for row in best.predictions)
