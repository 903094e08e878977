"""BOOMER-1/BOOMER-K are the 2021 defaults (Boomer 0.2.0-0.5.0) on mlrl-boomer 0.12.3.

The expected values are typed here from the 2021 sources (``python/args.py``
``add_boosting_learner_arguments`` and ``boosting_learners.py`` of mrapp-ke/Boomer at
0.5.0; see mlcbook.learners.boomer), not read from the module under test.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from mlcbook.learners import boomer as boomer_module
from mlcbook.learners import make_learner

pytestmark = pytest.mark.boomer

COMMON_2021 = {
    "max_rules": 1000,  # --max-rules 1000 (default rule included)
    "shrinkage": 0.3,  # --shrinkage 0.3
    "l2_regularization_weight": 1.0,  # --l2-regularization-weight 1.0
    "instance_sampling": "with-replacement",  # bagging, sample size 1.0
    "feature_sampling": "without-replacement",  # random-feature-selection, log2(F-1)+1
    "feature_binning": "none",  # exact thresholds
    "label_binning": "none",  # no label binning (0.5.0: None)
    "rule_pruning": "none",  # --pruning None
    "global_pruning": "none",  # --early-stopping None
    "default_rule": "true",  # always learned (boosting_learners.py:316)
    "rule_induction": "top-down-greedy{max_head_refinements=0}",  # CLI -1: unlimited
    "random_state": 1,  # --random-state 1
}
VARIANT_2021 = {
    "BOOMER-1": {
        "loss": "logistic-decomposable",
        "head_type": "single",
        "binary_predictor": "output-wise",
    },
    "BOOMER-K": {
        "loss": "logistic-non-decomposable",
        "head_type": "complete",
        "binary_predictor": "example-wise",
    },
}


@pytest.mark.parametrize("name", ["BOOMER-1", "BOOMER-K"])
def test_registry_parameters_are_the_documented_2021_ones(name):
    wrapper = make_learner(f"{name}-2021", 0)  # validating Boomer2021, no options
    assert wrapper.get_params() == {"variant": name, "random_state": 0, "options": None}
    params = wrapper._described_as().get_params()  # the mlrl-boomer model it fits
    expected = {**COMMON_2021, **VARIANT_2021[name]}
    assert {k: params[k] for k in expected} == expected
    # nothing else is set: every other parameter is left to the package (None)
    assert {k for k, v in params.items() if v is not None} == set(expected)


def test_every_parameter_set_is_in_the_docstring_table():
    doc = boomer_module.__doc__
    for key, value in {**COMMON_2021, "random_state": 1}.items():
        text = f'{key}="{value}"' if isinstance(value, str) else f"{key}={value}"
        assert f"``{text}``" in doc, text
    assert dict(boomer_module.BOOMER_2021) == {
        k: v for k, v in COMMON_2021.items() if k != "random_state"
    }
    for name in (
        "instance sampling",
        "label binning",
        "head refinements",
        "default rule",
    ):
        assert name in doc  # the four defaults that differ between 2021 and 0.12.3


def test_the_2021_configuration_is_accepted_and_learns(monkeypatch):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 6))
    Y = (X[:, :3] > 0).astype(int)
    for name in ("BOOMER-1-2021", "BOOMER-K-2021"):
        est = make_learner(name, 0).set_params(options={"max_rules": 30})
        P = est.fit(X, Y).predict(X)
        # 30 rules on a separable toy: far better than predicting the majority per label
        assert np.mean(P != Y) < 0.5 * np.mean(Y != (Y.mean(0) > 0.5)), name


def _kept_brute_force(A, drop):
    """Weka RemoveUseless -M100 by definition: a column stays if two rows differ."""
    n, d = len(A), len(A[0])
    return [
        j
        for j in range(d)
        if j not in drop and any(A[i][j] != A[0][j] for i in range(n))
    ]


@settings(max_examples=200, deadline=None)
@given(
    A=hnp.arrays(
        np.int8,
        hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=8),
        elements=st.integers(0, 2),
    ),
    data=st.data(),
)
def test_useless_features_removed_matches_the_definition(A, data):
    drop = tuple(
        data.draw(st.sets(st.integers(0, A.shape[1] - 1), max_size=A.shape[1]))
    )
    got = boomer_module.useless_features_removed(A, drop)
    assert got.tolist() == _kept_brute_force(A.tolist(), set(drop))


@pytest.mark.parametrize(
    "X,drop,match",
    [
        (np.zeros(3), (), "2-D"),
        (np.zeros((0, 3)), (), "non-empty"),
        (np.array([[1.0, np.nan]]), (), "NaN"),
        (np.zeros((2, 3)), (3,), "drop"),
        (np.zeros((2, 3)), (-1,), "drop"),
        ([["a", "b"]], (), "numeric"),
    ],
)
def test_useless_features_removed_rejects_bad_input(X, drop, match):
    with pytest.raises(ValueError, match=match):
        boomer_module.useless_features_removed(X, drop)
