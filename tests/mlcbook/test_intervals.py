"""Bootstrap intervals and paired comparisons (mlcbook.intervals).

References: the measures of mlcbook.metrics/losses (the estimate), scipy.stats.bootstrap
(the interval, same data), a brute-force jackknife, and simulations from a model whose
true measure values are computed exactly by enumeration (coverage, null rejection).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import scipy.sparse as sp
from scipy import stats

from mlcbook import intervals as I
from mlcbook import losses as L
from mlcbook import metrics as M
from mlcbook import registry as R


def problem(seed=0, n=300, K=5, flip=0.25):
    rng = np.random.default_rng(seed)
    Y = rng.integers(0, 2, (n, K))
    P = np.where(rng.random((n, K)) < flip, 1 - Y, Y)
    F = rng.random((n, K)) + 0.3 * Y
    return Y, P, F


PARAMS = {
    "binomial_loss": {"k": 2},
    "polynomial_loss": {"alpha": 3.0},
    **{f"{m}_at_k": {"k": 2} for m in ("precision", "recall", "ndcg")},
}
#: parameters of the losses whose value depends on K (problem() has K = 5)
PARAMS_K5 = {
    "owa_loss": {"w": [0.4, 0.3, 0.15, 0.1, 0.05]},
    "choquet_loss": {"mu": L.subset_capacity(5)},
    "covering_loss": {"covering": [[0, 1], [2, 3, 4]]},
    **{f"ps{m}_at_k": {"k": 2, "propensity": [0.5, 0.4, 0.9, 0.2, 0.7]}
       for m in ("precision", "ndcg")},
}


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("name", I.INTERVAL_MEASURES)
def test_estimate_is_the_measure_and_inside_its_interval(name, weighted):
    """Every registered measure with an interval: the interval's estimate is the
    measure's own function (the registry's), the interval holds it."""
    Y, P, F = problem(1)
    w = np.random.default_rng(2).random(len(Y)) if weighted else None
    spec = R.get_measure(name)
    S = F if spec.inputs == "scores" else P
    params = {**PARAMS, **PARAMS_K5}.get(name, {})
    ci = I.bootstrap_interval(name, Y, S, sample_weight=w, n_resamples=499, random_state=0,
                              **params)
    ref = spec.compute(Y, S, sample_weight=w, **params)
    # mean measures: the same np.mean/np.average; ratios: float sums vs integer counts
    assert ci.estimate == pytest.approx(ref, rel=1e-13, abs=1e-15)
    assert ci.low <= ci.estimate <= ci.high and ci.low < ci.high
    assert 0 < ci.standard_error < ci.high - ci.low


@pytest.mark.parametrize("method", ["percentile", "BCa"])
@pytest.mark.parametrize("name", ["hamming_loss", "micro_f1", "example_based_f1"])
def test_interval_agrees_with_scipy_bootstrap(name, method):
    Y, P, _ = problem(3)
    tp, ny, np_ = (Y & P).sum(1), Y.sum(1), P.sum(1)
    prec = M.precision(Y, P, average="instance", per_instance=True)
    rec = M.recall(Y, P, average="instance", per_instance=True)
    data, stat = {
        "hamming_loss": ((M.hamming_loss(Y, P, per_instance=True),),
                         lambda v, axis=-1: v.mean(axis)),
        "micro_f1": ((tp, ny, np_), lambda a, b, c, axis=-1:
                     2 * a.sum(axis) / (b.sum(axis) + c.sum(axis))),
        "example_based_f1": ((prec, rec), lambda p, r, axis=-1:
                             stats.hmean([p.mean(axis), r.mean(axis)], axis=0)),
    }[name]
    ref = stats.bootstrap(data, stat, paired=True, vectorized=True, n_resamples=9999,
                          method=method, random_state=7)
    ci = I.bootstrap_interval(name, Y, P, method=method, n_resamples=9999, random_state=8)
    se = ref.standard_error
    assert ci.standard_error == pytest.approx(se, rel=0.05)  # 9999 resamples: ~1% MC error
    # each end point is a 2.5% quantile of 9999 resamples: Monte Carlo sd about 0.03 SE
    # per run, so two independent runs differ by far less than 0.25 SE (~6 sd)
    assert abs(ci.low - ref.confidence_interval.low) < 0.25 * se
    assert abs(ci.high - ref.confidence_interval.high) < 0.25 * se


def test_sparse_and_dense_give_the_same_interval():
    Y, P, _ = problem(4, K=8)
    for name in ("macro_f1", "micro_recall", "hamming_loss"):
        a = I.bootstrap_interval(name, Y, P, n_resamples=999, random_state=3)
        b = I.bootstrap_interval(name, sp.csr_matrix(Y), sp.csr_matrix(P), n_resamples=999,
                                 random_state=3)
        assert (a.low, a.high) == pytest.approx((b.low, b.high), rel=1e-12)


def test_jackknife_is_the_leave_one_out_measure():
    Y, P, _ = problem(5, n=40)
    for name in ("macro_f1", "example_based_f1", "instance_jaccard", "jaccard_weighted"):
        spec = R.get_measure(name)
        d = I._decompose(spec, Y, P, spec.check_params({}))
        total = d.stats.sum(axis=0)
        fast = I._jackknife(d.stats, total, d.finish)
        brute = [
            I._estimate(I._decompose(spec, np.delete(Y, i, 0), np.delete(P, i, 0),
                                     spec.check_params({})),
                        np.delete(d.stats, i, 0).sum(axis=0), None)
            for i in range(len(Y))
        ]
        np.testing.assert_allclose(fast, brute, rtol=1e-12)


def test_seeded_results_repeat_and_bad_arguments_are_refused():
    Y, P, _ = problem(6)
    a = I.bootstrap_interval("micro_f1", Y, P, n_resamples=199, random_state=5)
    assert a == I.bootstrap_interval("micro_f1", Y, P, n_resamples=199, random_state=5)
    with pytest.raises(ValueError, match="macro_auc has no bootstrap interval here: macro "
                       "AUC counts pairs of instances"):
        I.bootstrap_interval("macro_auc", Y, P)
    with pytest.raises(ValueError, match="confidence"):
        I.bootstrap_interval("micro_f1", Y, P, confidence=95)
    with pytest.raises(ValueError, match="method"):
        I.bootstrap_interval("micro_f1", Y, P, method="bca")
    with pytest.raises(TypeError, match="needs the parameter k"):
        I.bootstrap_interval("binomial_loss", Y, P)
    with pytest.raises(TypeError, match="takes no parameter 'k'"):
        I.bootstrap_interval("micro_f1", Y, P, k=2)
    with pytest.raises(ValueError, match="zero_division"):
        I.bootstrap_interval("micro_f1", Y, P, zero_division=3)
    with pytest.raises(ValueError, match="same shape"):
        I.paired_comparison("micro_f1", Y, P, P[:, :2])


# ------------------------------------------------------------------ simulations
# Model: K = 4 independent labels y_j ~ Bernoulli(p_j); the prediction flips label j
# with probability q_j.  True values by enumeration of the 2^K x 2^K outcomes.
PJ = np.array([0.3, 0.45, 0.5, 0.35])
QJ = np.array([0.1, 0.2, 0.15, 0.25])


def _true_values():
    K = len(PJ)
    e_tp = e_ny = e_np = 0.0
    binom2 = 0.0
    for y in itertools.product([0, 1], repeat=K):
        for flip in itertools.product([0, 1], repeat=K):
            pr = math.prod(p if a else 1 - p for p, a in zip(PJ, y))
            pr *= math.prod(q if f else 1 - q for q, f in zip(QJ, flip))
            p = [a ^ f for a, f in zip(y, flip)]
            tp = sum(a & b for a, b in zip(y, p))
            e_tp, e_ny, e_np = e_tp + pr * tp, e_ny + pr * sum(y), e_np + pr * sum(p)
            m = sum(flip)
            binom2 += pr * (1 - math.comb(K - m, 2) / math.comb(K, 2))
    tp_j = PJ * (1 - QJ)
    np_j = tp_j + (1 - PJ) * QJ
    return {
        "hamming_loss": float(QJ.mean()),
        "micro_f1": 2 * e_tp / (e_ny + e_np),
        "macro_f1": float(np.mean(2 * tp_j / (PJ + np_j))),
        "binomial_loss": binom2,
    }


def _draw(rng, n):
    Y = (rng.random((n, len(PJ))) < PJ).astype(np.int8)
    return Y, Y ^ (rng.random((n, len(PJ))) < QJ).astype(np.int8)


@pytest.mark.slow
@pytest.mark.parametrize("method", ["percentile", "BCa"])
def test_coverage_of_95_percent_intervals_on_simulated_data(method):
    """1,000 simulations of n = 300 instances; 399 resamples each.

    399 resamples suffice: with (B + 1) * alpha an integer (400 * 0.025 = 10) the
    finite number of resamples adds no coverage error of order 1/B (Hall 1986, Ann.
    Statist. 14:1453), it only makes each end point noisier, which the 1,000
    simulations average out.  The band 93-97% is the nominal 95% +- 2.9 binomial
    standard errors of a coverage estimated from 1,000 simulations (sd 0.69%).
    """
    truth = _true_values()
    rng = np.random.default_rng(20261125)
    hits = dict.fromkeys(truth, 0)
    sims = 1000
    for s in range(sims):
        Y, P = _draw(rng, 300)
        for name, true in truth.items():
            ci = I.bootstrap_interval(name, Y, P, n_resamples=399, method=method,
                                      random_state=s, **PARAMS.get(name, {}))
            hits[name] += ci.low <= true <= ci.high
    rates = {k: v / sims for k, v in hits.items()}
    print(method, rates)
    for name, rate in rates.items():
        assert 0.93 <= rate <= 0.97, (name, rate)


@pytest.mark.slow
def test_randomisation_test_rejects_5_percent_under_the_null():
    """Two systems drawn from one distribution (exchangeable on every instance):
    the randomisation test is exact for any number of swaps R when the p-value is
    (1 + #extreme) / (R + 1) (a Monte Carlo test; with (R + 1) * 0.05 = 20 an integer
    its level is exactly 5%), so R = 399 per simulation is enough."""
    rng = np.random.default_rng(11)
    sims = 1000
    rejected = dict.fromkeys(["micro_f1", "hamming_loss"], 0)
    for s in range(sims):
        Y, P = _draw(rng, 200)
        _, P2 = _draw(rng, 200)
        P2 = Y ^ (rng.random(Y.shape) < QJ).astype(np.int8)
        for name in rejected:
            c = I.paired_comparison(name, Y, P, P2, n_resamples=1, n_permutations=399,
                                    random_state=s)
            rejected[name] += c.p_value <= 0.05
    rates = {k: v / sims for k, v in rejected.items()}
    print(rates)
    for name, rate in rates.items():
        assert 0.03 <= rate <= 0.07, (name, rate)


def test_paired_comparison_finds_a_real_difference_and_its_interval_covers_it():
    rng = np.random.default_rng(12)
    Y = (rng.random((400, 4)) < PJ).astype(np.int8)
    good = Y ^ (rng.random(Y.shape) < 0.1).astype(np.int8)
    bad = Y ^ (rng.random(Y.shape) < 0.3).astype(np.int8)
    c = I.paired_comparison("hamming_loss", Y, good, bad, random_state=0, n_resamples=999,
                            n_permutations=999)
    assert c.difference == M.hamming_loss(Y, good) - M.hamming_loss(Y, bad)
    assert c.p_value == 1 / 1000  # no swap pattern comes near a difference of ~0.2
    assert c.low <= c.difference <= c.high < 0
    same = I.paired_comparison("micro_f1", Y, good, good, random_state=0, n_resamples=99,
                               n_permutations=99)
    assert same.difference == 0 and same.p_value == 1.0 and same.low == same.high == 0


@pytest.mark.parametrize("name", ["macro_f1", "instance_precision", "micro_recall",
                                  "instance_jaccard", "example_based_f1"])
def test_zero_division_nan_estimate_is_the_measure(name):
    Y, P, F = problem(9, n=60, K=4)
    Y[:, 3], P[:, 3] = 0, 0  # an undefined label
    Y[:5], P[:4] = 0, 0  # undefined rows
    ci = I.bootstrap_interval(name, Y, P, zero_division=np.nan, n_resamples=199,
                              random_state=0)
    fn = {"macro_f1": lambda: M.f_measure(Y, P, 1.0, "macro", zero_division=np.nan),
          "instance_precision": lambda: M.precision(Y, P, average="instance",
                                                    zero_division=np.nan),
          "micro_recall": lambda: M.recall(Y, P, average="micro", zero_division=np.nan),
          "instance_jaccard": lambda: M.instance_jaccard(Y, P, zero_division=np.nan),
          "example_based_f1": lambda: M.example_based_f_measure(Y, P,
                                                                zero_division=np.nan)}[name]
    assert ci.estimate == pytest.approx(fn(), rel=1e-13)
    assert ci.low < ci.estimate < ci.high
