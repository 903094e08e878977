"""The registry's BOOMER learners are the validating Boomer2021 wrapper, and that
changes neither a prediction nor the committed learner study's key."""

from __future__ import annotations

import json

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone

from mlcbook.learners import Boomer2021, make_boomer, make_learner
from mlcbook.learners.registry import learner_config
from mlcrepro._paths import results_dir
from mlcrepro.huellermeier2022 import authors_study as A
from mlcrepro.results import config_hash

pytestmark = pytest.mark.boomer

VARIANTS = {"BOOMER-1-2021": "BOOMER-1", "BOOMER-K-2021": "BOOMER-K"}


@pytest.mark.parametrize("learner", list(VARIANTS))
def test_wrapper_predicts_bit_for_bit_what_raw_boomer_predicts_on_flags(learner):
    """The study's flags folds 0-1 at the full 2021 configuration (1,000 rules), with
    the nominal features declared: the registry's wrapper and mlrl-boomer's own
    estimator give identical 0/1 matrices (exact: integer outputs)."""
    data = A.study_data("flags")
    ((_, est, fit),) = A.members(learner, "flags")
    assert isinstance(est, Boomer2021) and fit["nominal_feature_indices"]
    for split in (0, 1):
        Xtr, Ytr, Xte, _, _ = A.as_run(learner, data, split)
        raw = make_boomer(VARIANTS[learner], 0).fit(Xtr, Ytr, **fit).predict(Xte)
        raw = raw.toarray() if sp.issparse(raw) else np.asarray(raw)
        got = clone(est).fit(Xtr, Ytr, **fit).predict(Xte)
        assert got.dtype == np.int8 and got.shape == raw.shape
        np.testing.assert_array_equal(got, raw)
        assert 0 < got.sum() < got.size  # not a degenerate all-0 or all-1 prediction


@pytest.mark.parametrize("variant", ["BOOMER-1", "BOOMER-K"])
def test_sparse_features_are_passed_as_they_are(variant):
    """medical, enron and llog reach BOOMER as CSR matrices: the wrapper takes them
    and predicts what BOOMER predicts on the same CSR input."""
    rng = np.random.default_rng(0)
    X = sp.random(80, 30, density=0.1, format="csr", random_state=1, dtype=np.float64)
    X.data = np.round(X.data * 4)  # word counts
    Y = (rng.random((80, 4)) < 0.3).astype(np.int8)
    Y[:, 0] = (X[:, 0].toarray().ravel() > 0) | (X[:, 1].toarray().ravel() > 0)
    raw = make_boomer(variant, 2, max_rules=40).fit(X[:60], Y[:60]).predict(X[60:])
    raw = raw.toarray() if sp.issparse(raw) else np.asarray(raw)
    got = Boomer2021(variant, 2, {"max_rules": 40}).fit(X[:60], Y[:60]).predict(X[60:])
    np.testing.assert_array_equal(got, raw)


def test_the_key_describes_the_model_the_wrapper_fits():
    for learner, variant in VARIANTS.items():
        for rs in (0, 4):
            assert learner_config(make_learner(learner, rs)) == learner_config(
                make_boomer(variant, rs)
            )
    # so the committed study's specification is unchanged by the wrapper
    meta = json.loads((results_dir() / "dependence_authors.json").read_text())
    assert config_hash(A.authors_study_config()) == meta["config_hash"] == "202dd424f40d5336"
