"""Margins, effectiveness (Wu & Zhou 2017, Defs 1-5), Table 2, and the committed tables."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlcbook.datasets import make_limo_synthetic
from mlcbook.margins import (
    effective_scores,
    instance_wise_margins,
    is_double_effective,
    is_instance_wise_effective,
    is_label_wise_effective,
    label_wise_margins,
    random_label_matrix,
    table2_check,
    threshold_with_errors,
)
from mlcbook.metrics import all_measures


# ---------------------------------------------------------------- hand-made cases
def test_margins_by_hand():
    Y = [[1, 0, 1],
         [0, 1, 0],
         [1, 1, 1]]
    F = [[0.9, 0.2, 0.5],
         [0.3, 0.4, 0.1],
         [0.0, 0.0, 0.0]]
    # row 0: min(0.9, 0.5) - 0.2; row 1: 0.4 - max(0.3, 0.1); row 2 has no irrelevant label
    np.testing.assert_allclose(label_wise_margins(Y, F), [0.3, 0.1, np.inf])
    # label 0: min(0.9, 0.0) - 0.3; label 1: min(0.4, 0.0) - 0.2; label 2: min(0.5, 0.0) - 0.1
    np.testing.assert_allclose(instance_wise_margins(Y, F), [-0.3, -0.2, -0.1])
    assert is_label_wise_effective(Y, F)
    assert not is_instance_wise_effective(Y, F)
    assert not is_double_effective(Y, F)


def test_double_effective_and_ties():
    Y = [[1, 0], [0, 1]]
    assert is_double_effective(Y, [[2.0, 0.0], [-1.0, 1.0]])
    # a tie between a relevant and an irrelevant score is a zero margin: not effective
    assert label_wise_margins(Y, [[1.0, 1.0], [0.0, 1.0]])[0] == 0.0
    assert not is_label_wise_effective(Y, [[1.0, 1.0], [0.0, 1.0]])


def test_margins_validate_input():
    with pytest.raises(ValueError, match="same shape"):
        label_wise_margins([[1, 0]], [[0.1, 0.2, 0.3]])
    with pytest.raises(ValueError, match="binary"):
        instance_wise_margins([[2, 0]], [[0.1, 0.2]])


def test_margins_agree_with_pairwise_definition():
    rng = np.random.default_rng(0)
    Y = random_label_matrix(15, 5, 0.4, 1)
    F = rng.normal(size=Y.shape)
    lw = [min(F[i, u] - F[i, v] for u in range(5) for v in range(5) if Y[i, u] and not Y[i, v])
          for i in range(15)]
    iw = [min(F[a, j] - F[b, j] for a in range(15) for b in range(15) if Y[a, j] and not Y[b, j])
          for j in range(5)]
    np.testing.assert_allclose(label_wise_margins(Y, F), lw)
    np.testing.assert_allclose(instance_wise_margins(Y, F), iw)


# ---------------------------------------------------------------- Theorems 1-2
label_matrices = st.builds(
    lambda m, l, d, s: random_label_matrix(m, l, d, s),
    st.integers(12, 30), st.integers(2, 6), st.floats(0.2, 0.7), st.integers(0, 2**31),
)


@settings(max_examples=60, deadline=None)
@given(Y=label_matrices, seed=st.integers(0, 2**31))
def test_label_wise_effective_optimises_theorem1_measures(Y, seed):
    F = effective_scores(Y, "label-wise", seed)
    assert is_label_wise_effective(Y, F)
    v = all_measures(Y, F, Y)
    assert v["ranking_loss"] == 0.0
    assert v["one_error"] == 0.0
    assert v["coverage"] == pytest.approx(np.mean(Y.sum(axis=1) - 1))
    assert v["label_ranking_average_precision"] == pytest.approx(1.0)
    assert v["instance_auc"] == pytest.approx(1.0)


@settings(max_examples=60, deadline=None)
@given(Y=label_matrices, seed=st.integers(0, 2**31))
def test_instance_wise_effective_optimises_macro_auc(Y, seed):
    F = effective_scores(Y, "inst-wise", seed)
    assert is_instance_wise_effective(Y, F)
    assert all_measures(Y, F, Y)["macro_auc"] == pytest.approx(1.0)


@settings(max_examples=30, deadline=None)
@given(Y=label_matrices, seed=st.integers(0, 2**31))
def test_double_construction_is_double_effective(Y, seed):
    assert is_double_effective(Y, effective_scores(Y, "double", seed))


def test_threshold_errors_are_one_sided_and_counted():
    Y = random_label_matrix(40, 6, 0.4, 3)
    F = effective_scores(Y, "label-wise", 4)
    H = threshold_with_errors(F, Y, "t(x)", 5)
    E = H != Y
    assert (E.sum(axis=1) == 1).all()
    # each row errs only by a false negative or only by a false positive
    assert not ((E & (Y == 1)).any(axis=1) & (E & (Y == 0)).any(axis=1)).any()
    Hz = threshold_with_errors(F, Y, "t(x)", 5, errors=0)
    np.testing.assert_array_equal(Hz, Y)


def test_table2_pattern():
    _, Y = make_limo_synthetic(120, 1)
    got = table2_check([Y, random_label_matrix(80, 6, 0.3, 1)], n_draws=4)
    lw = {"hamming_loss", "ranking_loss", "one_error", "coverage",
          "label_ranking_average_precision",          "instance_f1", "micro_f1", "instance_auc"}
    iw = {"hamming_loss", "macro_f1", "micro_f1", "macro_auc"}
    for meas in got.index:
        assert got.loc[meas, "label-wise"] == (meas in lw), meas
        assert got.loc[meas, "inst-wise"] == (meas in iw), meas
        assert got.loc[meas, "double"] == (meas != "micro_auc"), meas
