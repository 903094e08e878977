"""Theorems 3-5 of Wu & Zhou (2017) evaluated numerically (mlcrepro.wu_zhou2017.bounds)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlcrepro.wu_zhou2017 import bounds as B
from mlcbook import margins as MG
from mlcbook.metrics import f_measure


def _one_sided_f1(P, e, missed):
    """F1 of one row with P relevant of P + 20 entries and e one-sided errors."""
    y = np.zeros((1, P + 20), dtype=int)
    y[0, :P] = 1
    h = y.copy()
    if missed:
        h[0, :e] = 0
    else:
        h[0, P:P + e] = 1
    return float(f_measure(y, h, average="instance"))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8)), min_size=1, max_size=6))
def test_bound_is_the_worse_one_sided_f1(units):
    """The bound equals the mean of the worse realisable one-sided F1 (brute force)."""
    worst = []
    for P, e in units:
        vals = [_one_sided_f1(P, e, missed=False)]
        if e <= P:
            vals.append(_one_sided_f1(P, e, missed=True))
        worst.append(min(vals))
    P, e = zip(*units)
    # both sides are ratios of small integers: 1e-12 absorbs float division order
    assert B.f1_error_bound(P, e) == pytest.approx(np.mean(worst), abs=1e-12)


@pytest.mark.parametrize("errors", [1, 2])
def test_theorems_4_and_5_hold_where_the_proof_is_valid(errors):
    Y = MG.random_label_matrix(50, 7, 0.35, seed=4)
    d = B.threshold_bound_draws(Y, errors=errors, n_draws=15, seed=1)
    valid = d[d.measure != "micro-F1"]
    assert valid.holds.all()
    ham = d[d.measure == "Hamming loss"]
    # errors are counted from H itself, so the Hamming bound is met with equality
    np.testing.assert_allclose(ham.value, ham.bound, rtol=0, atol=1e-15)


def test_micro_f1_breaks_theorem_4_bound():
    c = B.micro_f1_counterexample()
    assert MG.is_label_wise_effective(c["Y"], c["F"])
    assert list(c["errors"]) == [10, 0]
    assert c["bound"] == pytest.approx(0.5, abs=1e-15)  # (0 + 1) / 2
    assert c["instance_f1"] == pytest.approx(0.5, abs=1e-15)  # the bound is tight
    assert c["micro_f1"] == pytest.approx(1 / 6, abs=1e-15)  # 2 tp / (|Y| + |H|)
    assert c["micro_f1"] < c["bound"]


@pytest.mark.parametrize("a, n", [(0.1, 10), (0.3, 3), (0.05, 40)])
def test_inequality2_exact_values_match_monte_carlo(a, n):
    exact = B.inequality2(a, n)
    mc = B.inequality2_monte_carlo(a, n, draws=200_000, seed=7)
    # binomial standard error <= sqrt(0.25 / 2e5) = 0.0011; 0.005 is > 4 of them
    assert mc["p_c_gt_b"] == pytest.approx(exact["p_c_gt_b"], abs=0.005)
    assert mc["p_event"] == pytest.approx(exact["p_event"], abs=0.005)


def test_inequality2_holds_but_its_equality_step_does_not():
    for a in np.linspace(0.01, 0.99, 25):
        for n in (1, 2, 5, 20, 100):
            v = B.inequality2(float(a), n)
            assert v["p_c_gt_b"] >= v["paper_rhs"]  # the inequality itself holds
            assert v["p_event"] < v["paper_rhs"]  # (1 - a) < (1 - a/2) for a > 0


def test_bad_input():
    with pytest.raises(ValueError, match="n_pos and errors"):
        B.f1_error_bound([1, 2], [0])
    with pytest.raises(ValueError, match=">= 0"):
        B.f1_error_bound([-1], [0])
    with pytest.raises(ValueError, match="a"):
        B.inequality2(1.5, 3)
    with pytest.raises(ValueError, match="errors"):
        B.threshold_bound_draws(np.eye(3, dtype=int), errors=-1)
