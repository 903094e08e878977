"""mlcrepro: each function's numbers against an independent computation, its
rows' statuses, its power to see a difference, and its refusal of bad input."""

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm

from mlcbook import metrics as M
from mlcrepro.park_read2018 import evidence as PR
from mlcrepro.wu_zhou2017 import evidence as WZ
from mlcrepro.zhang_zhou2014 import evidence as ZZ
from mlcrepro.ledger import Ledger, unknown


def _led():
    return Ledger("demo", "A. Author (2020)")


# ------------------------------------------------------------------ Zhang & Zhou
def _by_sets(Y, P):
    """The five example-based measures of Zhang & Zhou, Sec. 2.2.2, with Python sets."""
    rows = [({j for j in np.flatnonzero(y)}, {j for j in np.flatnonzero(p)}) for y, p in zip(Y, P)]
    q, n = Y.shape[1], len(rows)
    div = lambda a, b: 1.0 if b == 0 else a / b  # noqa: E731  (zero_division = 1)
    return {
        "subset accuracy": sum(a == b for a, b in rows) / n,
        "Hamming loss": sum(len(a ^ b) / q for a, b in rows) / n,
        "Accuracy_exam": sum(div(len(a & b), len(a | b)) for a, b in rows) / n,
        "Precision_exam": sum(div(len(a & b), len(b)) for a, b in rows) / n,
        "Recall_exam": sum(div(len(a & b), len(a)) for a, b in rows) / n,
    }


def test_example_based_definitions_agree_with_a_set_computation_and_sklearn():
    Y, P = ZZ.random_label_pair(60, 5, seed=3)
    assert (Y.sum(axis=1) == 0).any() and (P.sum(axis=1) == 0).any()  # empty sets drawn
    ref = _by_sets(Y, P)
    # 1e-12: sums of 60 terms <= 1 in double precision
    assert M.subset_accuracy(Y, P) == pytest.approx(ref["subset accuracy"], abs=1e-12)
    assert skm.hamming_loss(Y, P) == pytest.approx(ref["Hamming loss"], abs=1e-12)
    assert M.jaccard_score(Y, P) == pytest.approx(ref["Accuracy_exam"], abs=1e-12)
    assert M.precision(Y, P, average="instance") == pytest.approx(ref["Precision_exam"], abs=1e-12)
    assert M.recall(Y, P, average="instance") == pytest.approx(ref["Recall_exam"], abs=1e-12)
    led = _led()
    rows = ZZ.add_example_based_definitions(led, seed=1, draws=5)
    assert [r.status for r in rows] == ["reproduced"] * 5
    assert all(r.source.startswith("Zhang & Zhou, Sec. 2.2.2, ") for r in rows)
    led.check()


def test_example_based_definitions_see_a_wrong_measure(monkeypatch):
    monkeypatch.setattr(ZZ.M, "hamming_loss", lambda Y, P: 0.5)
    with pytest.raises(ValueError, match="differs"):  # a difference needs its cause
        ZZ.add_example_based_definitions(_led(), draws=2)


def test_f_beta_combination_by_hand():
    Y, P = ZZ.random_label_pair(200, 6, seed=0)
    ref = _by_sets(Y, P)
    p, r = ref["Precision_exam"], ref["Recall_exam"]
    # the F of the averages (Zhang & Zhou's formula) computed from the set counts
    assert M.example_based_f_measure(Y, P, 2.0) == pytest.approx(
        5 * p * r / (4 * p + r), abs=1e-12
    )
    rows = ZZ.add_f_beta_combination(_led())
    assert [e.status for e in rows] == ["reproduced", "reproduced"]
    assert "another quantity" in rows[1].note


def test_subset_accuracy_strictness_holds_and_follows_accuracy_to_the_q():
    led = _led()
    e = ZZ.add_subset_accuracy_strictness(led, qs=(1, 4, 16), n=4000, resamples=5)
    assert e.status == "reproduced" and (e.hits, e.trials) == (5, 5)
    # the printed subset accuracies lie within 4 standard errors of accuracy**q
    for q, shown in zip((1, 4, 16), e.ours.split("(")[1].split(";")[0].split(", ")):
        value = float(shown.split(": ")[1])
        se = math.sqrt(0.9**q * (1 - 0.9**q) / 4000)
        assert abs(value - 0.9**q) <= 4 * se + 5e-4  # + half a printed unit


@pytest.mark.parametrize(
    "kw, err",
    [
        ({"accuracy": 1.0}, ValueError),
        ({"qs": (4, 2)}, ValueError),
        ({"qs": (1,)}, ValueError),
        ({"seed": -1}, ValueError),
        ({"n": 2.5}, TypeError),
    ],
)
def test_subset_accuracy_strictness_refuses_bad_input(kw, err):
    with pytest.raises(err):
        ZZ.add_subset_accuracy_strictness(_led(), **kw)


def test_every_function_refuses_a_ledger_that_is_not_one():
    for f in (
        ZZ.add_example_based_definitions,
        WZ.add_one_error_definition,
        PR.add_vector_form,
    ):
        with pytest.raises(TypeError, match="led must be"):
            f(object())


# ------------------------------------------------------------------ Wu & Zhou
def test_one_error_row_and_its_power(monkeypatch):
    e = WZ.add_one_error_definition(_led(), draws=4)
    assert e.status == "reproduced" and e.source == "Wu & Zhou, Table 1"
    orig = M.one_error
    monkeypatch.setattr(WZ.M, "one_error", lambda Y, F: 1.0 - orig(Y, F))
    with pytest.raises(ValueError, match="differs"):
        WZ.add_one_error_definition(_led(), draws=4)


TOY = {"m": [("0.100", "0.00"), ("0.200", "1.00"), ("0.150", "0.50")]}


def test_rescaling_ranges_by_hand():
    t = WZ.rescaling_ranges(TOY, ["a", "b", "c"], lower_is_better=())
    mid = t.iloc[2]
    # corners of [0.1495, 0.1505] x [0.0995, 0.1005] x [0.1995, 0.2005]
    assert mid["low"] == pytest.approx((0.1495 - 0.1005) / (0.2005 - 0.1005), abs=1e-12)
    assert mid["high"] == pytest.approx((0.1505 - 0.0995) / (0.1995 - 0.0995), abs=1e-12)
    assert t["consistent"].all()
    # the same printed values read as lower-is-better: the column printed 1 is worse
    assert not WZ.rescaling_ranges(TOY, ["a", "b", "c"], lower_is_better={"m"})["consistent"].all()


def test_rescaling_consistency_rows():
    e = WZ.add_rescaling_consistency(_led(), TOY, ["a", "b", "c"], "Table B.9", lower_is_better=())
    assert (e.status, e.paper, e.ours) == ("reproduced", "3 of 3 cells", "3 of 3 cells")
    bad = {"m": [("0.100", "0.00"), ("0.200", "1.00"), ("0.150", "0.80")]}
    e = WZ.add_rescaling_consistency(_led(), bad, ["a", "b", "c"], "Table B.9", lower_is_better=())
    assert e.status == "differs" and e.cause.kind == "paper error"
    assert "m c: printed 0.80, possible 0.490-0.510" in e.cause.text
    tie = {"m": [("0.992", "0.00"), ("0.992", "1.00"), ("0.992", "0.58")]}
    e = WZ.add_rescaling_consistency(_led(), tie, ["a", "b", "c"], "Table B.9", lower_is_better=())
    assert e.status == "reproduced" and e.note.startswith("1 cells are not decided")


@pytest.mark.parametrize(
    "paper, cols, err",
    [
        ({"m": [("0.1", "1.00"), ("0.2", "1.00")]}, ["a", "b"], ValueError),
        ({"m": [("0.1", "0.00"), ("0.2", "1.00")]}, ["a"], ValueError),
        ([("0.1", "0.00")], ["a"], TypeError),
        ({}, [], TypeError),
    ],
)
def test_rescaling_refuses_bad_tables(paper, cols, err):
    with pytest.raises(err):
        WZ.rescaling_ranges(paper, cols)


# ------------------------------------------------------------------ Park & Read
def test_vector_form_and_gradient():
    led = _led()
    assert PR.add_vector_form(led, n=50).status == "reproduced"
    e = PR.add_independent_gradient(led, n=30)
    assert e.status == "reproduced"
    # the check can see a dependence: at alpha = 0.5, beta = 2 the cross terms are not 0
    rng = np.random.default_rng(0)
    T, Z = rng.integers(0, 2, (30, 5)), rng.uniform(0.05, 0.85, (30, 5))
    assert PR._cross_terms(T, Z, 0.5, 2.0, 0.1) > 1e-4


def _grid(f):
    """A toy grid over the paper's alphas and betas with values f(dataset, alpha, beta, col)."""
    alphas = [1e-5] + [round(0.1 * i, 1) for i in range(1, 11)]
    betas = [2.0**j for j in range(8)]
    rows = []
    for d in ("emotions", "slashdot"):
        for a, b in itertools.product(alphas, betas):
            row = {"dataset": d, "alpha": a, "beta": b}
            for col in ("train_jaccard", "test_jaccard", "train_exact", "test_exact"):
                row[col] = f(d, a, b, col)
            rows.append(row)
    return pd.DataFrame(rows)


def test_grid_readings_on_toy_grids():
    # Jaccard high on the diagonal and in the corner; Exact the same shape
    def diag(d, a, b, col):
        on = round(math.log2(b) * 10 / 7) == round(a * 10) or (a < 0.05 and b == 1)
        corner = 0.3 if (a < 0.05 and b == 1 and col.startswith("train")) else 0.0
        return (0.6 if on else 0.4) + corner

    g = _grid(diag)
    led = _led()
    assert PR.add_diagonal_reading(led, g).status == "qualitative"
    assert PR.add_slashdot_test_corner(led, g).status == "qualitative"  # +0.2 test, +0.5 train
    assert PR.add_exact_resembles_jaccard(led, g).status == "qualitative"
    flat = _grid(lambda d, a, b, col: 0.5)
    with pytest.raises(ValueError, match="differs"):  # no diagonal: needs a cause
        PR.add_diagonal_reading(_led(), flat)
    e = PR.add_diagonal_reading(_led(), flat, unknown("a toy grid has no diagonal"))
    assert e.status == "differs" and e.cause.kind == "unknown"


def test_grid_readings_refuse_bad_grids():
    g = _grid(lambda d, a, b, col: 0.5)
    with pytest.raises(TypeError):
        PR.add_diagonal_reading(_led(), g.to_dict())
    with pytest.raises(ValueError, match="lacks"):
        PR.add_diagonal_reading(_led(), g.drop(columns="test_jaccard"))
    with pytest.raises(ValueError, match="one row per"):
        PR.add_diagonal_reading(_led(), pd.concat([g, g]))
    with pytest.raises(ValueError, match="slashdot"):
        PR.add_slashdot_test_corner(_led(), g[g["dataset"] == "emotions"])
    with pytest.raises(TypeError, match="cause"):
        PR.add_diagonal_reading(_led(), g, cause="no reason")
