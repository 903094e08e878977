"""The dependence-aware losses with decision scores, thresholds and instance weights.

References are computed independently: the threshold option against the loss of
the explicitly binarised scores, ``scores="decision"`` against the loss of
``1 / (1 + exp(-s))`` written out here, weights against ``np.average`` of the
per-instance losses and against repeated rows.

Tolerance 1e-12 absolute: the same losses (each in [0, 1]) are averaged in a
different order or through a weighted histogram instead of a mean, over at
most a few hundred terms: rounding below n * 2**-52.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlcbook import losses as L

TOL = 1e-12  # see the module docstring


def _losses(K: int):
    """(name, call(Y, S, **kw)) for every loss of the module."""
    mu = L.counting_measure(lambda x: x**2, K) if K <= 8 else None
    w = L.owa_weights(lambda x: x**3, K)
    out = [
        ("owa", lambda Y, S, **kw: L.owa_loss(Y, S, w, **kw)),
        ("polynomial", lambda Y, S, **kw: L.polynomial_loss(Y, S, 2.5, **kw)),
        ("binomial", lambda Y, S, **kw: L.binomial_loss(Y, S, min(2, K), **kw)),
        (
            "profile",
            lambda Y, S, **kw: L.loss_profile(Y, S, "binomial", range(1, K + 1), **kw),
        ),
        (
            "covering",
            lambda Y, S, **kw: L.covering_loss(Y, S, [[0], list(range(K))], **kw),
        ),
    ]
    if mu is not None:
        out += [
            ("choquet", lambda Y, S, **kw: L.choquet_loss(Y, S, mu, **kw)),
            (
                "moebius",
                lambda Y, S, **kw: L.choquet_loss_moebius(Y, S, L.moebius(mu), **kw),
            ),
        ]
    return out


def _problem(seed: int, n: int = 12, K: int = 4):
    rng = np.random.default_rng(seed)
    Y = (rng.random((n, K)) < 0.4).astype(int)
    D = rng.normal(scale=2.0, size=(n, K))  # decision scores, mostly outside [0, 1]
    return Y, D


@pytest.mark.parametrize("seed", range(8))
def test_threshold_equals_the_loss_of_the_binarised_scores(seed):
    Y, D = _problem(seed)
    for t in (-0.5, 0.0, 0.3):
        P = (D > t).astype(int)
        for name, fn in _losses(Y.shape[1]):
            np.testing.assert_allclose(
                fn(Y, D, threshold=t), fn(Y, P), atol=TOL, rtol=0, err_msg=name
            )
    # a score equal to the threshold is not predicted (strictly above)
    assert L.binomial_loss([[1, 0]], [[0.5, 0.5]], 1, threshold=0.5) == 0.5


@pytest.mark.parametrize("seed", range(8))
def test_decision_scores_go_through_the_logistic_function(seed):
    Y, D = _problem(seed)
    S = 1.0 / (1.0 + np.exp(-D))
    for name, fn in _losses(Y.shape[1]):
        np.testing.assert_allclose(
            fn(Y, D, scores="decision"), fn(Y, S), atol=TOL, rtol=0, err_msg=name
        )


def test_decision_scores_are_refused_without_an_option():
    Y, D = _problem(0)
    with pytest.raises(ValueError, match=r"S must lie in \[0, 1\]"):
        L.polynomial_loss(Y, D, 2.0)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(1, 15),
    K=st.integers(1, 6),
    soft=st.booleans(),
)
def test_hypothesis_integer_weights_equal_repeated_rows(seed, n, K, soft):
    rng = np.random.default_rng(seed)
    Y = (rng.random((n, K)) < 0.5).astype(int)
    S = rng.random((n, K)) if soft else (rng.random((n, K)) < 0.5).astype(int)
    reps = rng.integers(0, 4, n)
    reps[0] = max(reps[0], 1)
    Yr, Sr = np.repeat(Y, reps, axis=0), np.repeat(S, reps, axis=0)
    for name, fn in _losses(K):
        np.testing.assert_allclose(
            fn(Y, S, sample_weight=reps), fn(Yr, Sr), atol=TOL, rtol=0, err_msg=name
        )
        per = fn(Y, S, per_instance=True)
        np.testing.assert_allclose(
            fn(Y, S, sample_weight=reps),
            np.average(per, weights=reps, axis=0),
            atol=TOL,
            rtol=0,
            err_msg=name,
        )


def test_bad_options():
    Y, D = _problem(1)
    S = 1.0 / (1.0 + np.exp(-D))
    with pytest.raises(ValueError, match="scores must be one of"):
        L.binomial_loss(Y, S, 1, scores="logit")
    with pytest.raises(ValueError, match="threshold must be finite"):
        L.binomial_loss(Y, S, 1, threshold=np.nan)
    with pytest.raises(TypeError, match="threshold must be a real number"):
        L.binomial_loss(Y, S, 1, threshold="0.5")
    with pytest.raises(ValueError, match="S must not contain NaN"):
        L.owa_loss(Y, np.where(D > 0, np.inf, D), np.full(4, 0.25), scores="decision")
    with pytest.raises(ValueError, match=r"sample_weight must have shape \(12,\)"):
        L.polynomial_loss(Y, S, 2.0, sample_weight=np.ones(3))
    with pytest.raises(ValueError, match="sample_weight must be non-negative"):
        L.loss_profile(Y, S, "binomial", [1, 2], sample_weight=-np.ones(12))
    with pytest.raises(TypeError, match="per_instance must be True or False"):
        L.choquet_loss(Y, S, L.hamming_capacity(4), per_instance="no")
