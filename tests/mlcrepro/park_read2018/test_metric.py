"""Park & Read's metric checked against the library (mlcrepro.park_read2018.metric) and
the readings of Figs. 1-2 on toy grids (mlcrepro.park_read2018.findings): each against
an independent computation, its power to see a difference, and its refusal of bad input."""

import itertools
import math

import numpy as np
import pandas as pd
import pytest

from mlcbook.blended import blended_similarity
from mlcrepro.evidence_common import IDENTITY_TOL
from mlcrepro.park_read2018 import findings as bf
from mlcrepro.park_read2018 import metric


def test_vector_form_and_gradient():
    assert metric.vector_form_gap(n=50) < IDENTITY_TOL
    at_11, others = metric.independent_gradient(n=30)
    assert at_11 < IDENTITY_TOL
    # the check can see a dependence: at the other settings the cross terms are not 0
    assert others > 1e-4
    rng = np.random.default_rng(0)
    T, Z = rng.integers(0, 2, (30, 5)), rng.uniform(0.05, 0.85, (30, 5))
    assert metric.cross_terms(T, Z, 0.5, 2.0, 0.1) > 1e-4


@pytest.mark.parametrize(
    "kw, err",
    [({"n": 0}, ValueError), ({"seed": -1}, ValueError), ({"n": 2.5}, TypeError),
     ({"seed": True}, TypeError)],
)
def test_metric_checks_refuse_bad_input(kw, err):
    with pytest.raises(err):
        metric.vector_form_gap(**kw)
    with pytest.raises(err):
        metric.independent_gradient(**kw)


def test_eq8_as_printed_misses_and_as_meant_hits():
    eq8 = metric.eq8_increment()
    # the meant increment is s(alpha + delta) itself (1e-12: rounding of sums of 5 terms)
    assert eq8.iloc[1] < 1e-12
    assert eq8.iloc[0] > 0.01  # the printed one is another quantity
    # by hand for one instance: t = [1 0], z = [0.5 0.5], alpha = 0.3, delta = 0.2
    p, a, b = np.array([0.5, 0.5]), np.array([1.0, 0.3]), np.array([0.0, -0.7])
    meant = (p @ a + 0.2 * 0.5) / (2 + p @ b + 0.2 * 0.5)
    assert meant == pytest.approx(blended_similarity([1, 0], [0.5, 0.5], 0.5, 1), abs=1e-15)


def test_gradient_errors_are_small_and_cover_the_grid():
    errors = metric.gradient_errors()
    assert len(errors) == 12 * 8  # alpha = 0 and the 11 alphas of the grid, 8 betas
    assert max(errors) < 1e-5


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
    parts = bf.diagonal_reading(g)
    assert [(d, h) for d, h, _, _ in parts] == [
        ("emotions", "train"), ("emotions", "test"), ("slashdot", "train"), ("slashdot", "test")
    ]
    assert all(on > off for _, _, on, off in parts)
    lift = bf.slashdot_test_corner(g)
    (ct, mt), (cs, ms) = lift["test"], lift["train"]
    assert (ct, mt, cs, ms) == pytest.approx((0.6, 0.4, 0.9, 0.4))  # +0.2 test, +0.5 train
    rhos = bf.exact_vs_jaccard(g)
    assert all(rho == pytest.approx(1.0) for _, _, rho, _ in rhos)
    flat = bf.diagonal_reading(_grid(lambda d, a, b, col: 0.5))
    assert not any(on > off for _, _, on, off in flat)  # no diagonal: the reading differs


def test_grid_readings_refuse_bad_grids():
    g = _grid(lambda d, a, b, col: 0.5)
    with pytest.raises(TypeError):
        bf.diagonal_reading(g.to_dict())
    with pytest.raises(ValueError, match="lacks"):
        bf.diagonal_reading(g.drop(columns="test_jaccard"))
    with pytest.raises(ValueError, match="one row per"):
        bf.diagonal_reading(pd.concat([g, g]))
    with pytest.raises(ValueError, match="slashdot"):
        bf.slashdot_test_corner(g[g["dataset"] == "emotions"])
    with pytest.raises(ValueError, match="slashdot"):
        bf.sweet_spot(g[g["dataset"] == "emotions"])
