"""Each measurement of the measures ledger against an independent computation: Python
sets, fractions by hand, closed forms; its power to see a wrong measure; bad input."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import numpy as np
import pytest
from sklearn import metrics as skm

from mlcbook import metrics as M
from mlcrepro import hivemall
from mlcrepro import zhang_zhou2014 as zz
from mlcrepro.zhang_zhou2014 import measurements as m
from mlcrepro.zhang_zhou2014.problems import EDGE_SCORES, EDGE_TRUTH, draws, random_label_pair


def _by_sets(Y, P):
    """The five example-based measures of Zhang & Zhou, Sec. 2.2.2, with Python sets."""
    rows = [(set(np.flatnonzero(y)), set(np.flatnonzero(p))) for y, p in zip(Y, P)]
    q, n = Y.shape[1], len(rows)
    div = lambda a, b: 1.0 if b == 0 else a / b  # noqa: E731  (zero_division = 1)
    return {
        "subset accuracy": sum(a == b for a, b in rows) / n,
        "Hamming loss": sum(len(a ^ b) / q for a, b in rows) / n,
        "Accuracy_exam": sum(div(len(a & b), len(a | b)) for a, b in rows) / n,
        "Precision_exam": sum(div(len(a & b), len(b)) for a, b in rows) / n,
        "Recall_exam": sum(div(len(a & b), len(a)) for a, b in rows) / n,
    }


def test_example_based_definitions_agree_with_a_set_computation():
    Y, P = random_label_pair(60, 5, seed=3)
    assert (Y.sum(axis=1) == 0).any() and (P.sum(axis=1) == 0).any()  # empty sets drawn
    ref = _by_sets(Y, P)
    # 1e-12: sums of 60 terms <= 1 in double precision
    assert M.subset_accuracy(Y, P) == pytest.approx(ref["subset accuracy"], abs=1e-12)
    assert skm.hamming_loss(Y, P) == pytest.approx(ref["Hamming loss"], abs=1e-12)
    assert M.instance_jaccard(Y, P) == pytest.approx(ref["Accuracy_exam"], abs=1e-12)
    assert M.precision(Y, P, average="instance") == pytest.approx(ref["Precision_exam"], abs=1e-12)
    assert M.recall(Y, P, average="instance") == pytest.approx(ref["Recall_exam"], abs=1e-12)
    gaps = m.definition_gaps(seed=1, draws=5)
    assert set(gaps) == set(m.DEFINITIONS) and max(gaps.values()) < 1e-12


def test_a_wrong_measure_makes_its_row_differ(monkeypatch):
    # the evidence is computed once per process: compute it (and Hivemall's) with the
    # true measures before one is replaced, or every later test would read the wrong one
    evidence, guests = zz.evidence(), [hivemall.rows(hivemall.evidence())]
    monkeypatch.setattr(m.M, "hamming_loss", lambda Y, P: 0.5)
    gaps = m.definition_gaps(draws=2)
    assert gaps["Hamming loss"] > 0.1
    ev = dataclasses.replace(evidence, definition_gaps=gaps)
    with pytest.raises(ValueError, match="differs"):  # a difference needs its cause
        zz.ledgers(ev, guests=guests)


def test_f_beta_combination_by_hand():
    Y, P = random_label_pair(200, 6, seed=0)
    ref = _by_sets(Y, P)
    p, r = ref["Precision_exam"], ref["Recall_exam"]
    # the F of the averages (Zhang & Zhou's formula) computed from the set counts
    assert M.example_based_f_measure(Y, P, 2.0) == pytest.approx(
        5 * p * r / (4 * p + r), abs=1e-12
    )
    fb = m.f_beta_combination()
    assert fb["gap"] < 1e-12 and fb["harmonic"] < 1e-12
    # the mean of per-instance F1, from the sets, lies visibly away from it
    per = [
        2 * len(a & b) / (len(a) + len(b)) if a or b else 1.0
        for a, b in ((set(np.flatnonzero(y)), set(np.flatnonzero(q))) for y, q in zip(Y, P))
    ]
    assert fb["other"] == pytest.approx(abs(2 * p * r / (p + r) - np.mean(per)), abs=1e-12)
    assert fb["other"] > 0.01


def test_subset_accuracy_follows_accuracy_to_the_q():
    s = m.subset_strictness(qs=(1, 4, 16), n=4000, resamples=5)
    assert s.holds and (s.hits, s.resamples) == (5, 5)
    for q, value in zip(s.qs, s.subset_accuracy):
        se = math.sqrt(0.9**q * (1 - 0.9**q) / 4000)
        assert abs(value - 0.9**q) <= 4 * se  # 4 binomial standard errors
    for h in s.hamming_loss:  # the Hamming loss stays near 1 - accuracy
        assert abs(h - 0.1) <= 4 * math.sqrt(0.09 / 4000)


@pytest.mark.parametrize(
    "kw", [{"accuracy": 1.0}, {"accuracy": 0.0}, {"qs": (4, 2)}, {"qs": (1,)}, {"qs": (0, 1)}]
)
def test_subset_strictness_refuses_bad_input(kw):
    with pytest.raises(ValueError, match=r"accuracy|qs"):
        m.subset_strictness(**kw)


@pytest.mark.parametrize(
    "args, kw, name",
    [((0, 3), {}, "n"), ((3, 2.5), {}, "K"), ((3, 3), {"density": 1.5}, "density")],
)
def test_random_label_pair_refuses_bad_input(args, kw, name):
    with pytest.raises(ValueError, match=name):
        random_label_pair(*args, **kw)


def test_one_error_gap_and_its_power(monkeypatch):
    assert m.one_error_gap(draws=4) == 0.0  # a count of whole instances: exact
    orig = M.one_error
    monkeypatch.setattr(m.M, "one_error", lambda Y, F: 1.0 - orig(Y, F))
    assert m.one_error_gap(draws=4) > 0.1


def test_park_read_table1_by_hand():
    t = m.park_read_table1()
    # x1: y = [1 0 1 0], t = [1 0 0 1]: 2 of 4 right, not exact, Jaccard 1/3
    assert t.loc["x1"].tolist() == pytest.approx([0.5, 0.0, 1 / 3], abs=1e-12)
    # the means over the whole matrices: 16/20, 2/5 and (1/3 + 1 + 1 + 1/2 + 1/2)/5
    mean = Fraction(1, 3) + 1 + 1 + Fraction(1, 2) + Fraction(1, 2)
    assert t.loc["mean"].tolist() == pytest.approx([0.8, 0.4, float(mean / 5)], abs=1e-12)


def test_single_label_and_effective_coverage_by_their_definitions():
    d = draws()
    one = m.single_label(d.y_class, d.p_class, 20)
    # each wrong class makes two wrong entries of 20: the identity holds to rounding
    assert one["hamming_loss"] == pytest.approx(one["claimed"], abs=1e-15)
    assert one["error_rate"] == pytest.approx(0.3 * 19 / 20, abs=0.03)  # 30% redrawn
    eff = m.effective_coverage(d.Y, d.F_eff)
    assert eff["coverage"] == pytest.approx(eff["theorem"], abs=1e-12)
    assert eff["ranking_loss"] == 0.0 and eff["average_precision"] == 1.0


def test_auc_ge_counts_ties_as_correct():
    assert m.auc_ge(np.array([1, 0]), np.array([0.3, 0.3])) == 1.0
    assert m.auc_ge(np.array([1, 0, 0]), np.array([0.1, 0.2, 0.0])) == 0.5


def test_edge_cases_and_constant_scorer_by_hand():
    e = m.edge_cases()
    # coverage: ranks of the worst relevant label minus one, 0 for the empty instance:
    # (0 + 3 + 3 + 2) / 4; scikit-learn's coverage_error - 1 charges the empty one -1
    assert e.loc["coverage (sklearn: coverage_error - 1)"].tolist() == [2.0, 1.75]
    assert np.isnan(e.loc["instance-AUC", "scikit-learn"])  # no pairs on two instances
    # ours over the last two: tied 2x2 -> 1/2, ordinary 3 of 4 pairs right
    assert e.loc["instance-AUC", "mlcbook"] == pytest.approx((0.5 + 0.75) / 2, abs=1e-15)
    c = m.constant_scorer()
    assert (c["literal"], c["ours"], c["coverage"]) == (1.0, 0.5, 2.25)  # (0+3+3+3)/4
    assert EDGE_TRUTH.flags.writeable is False and EDGE_SCORES.flags.writeable is False
