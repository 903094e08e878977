"""The study on the authors' folds (mlcrepro.huellermeier2022.authors_study)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mlcbook.learners._weka import WekaError
from mlcbook.profiles import evaluate_predictions
from mlcrepro import runner
from mlcrepro._paths import results_dir
from mlcrepro.huellermeier2022 import authors_study as A
from mlcrepro.huellermeier2022 import folds, reference
from mlcrepro.results import canonical, config_hash


def test_flags_is_run_with_twelve_labels_and_scored_on_seven():
    data = A.study_data("flags")
    Xtr, Ytr, Xte, Yte = data.splits[0]
    assert data.folds == "authors" and len(data.splits) == 10
    assert Xtr.shape[1] == 14 and Ytr.shape[1] == 12 and Yte.shape[1] == 12
    assert data.scored_from == 5 and data.n_labels == 12
    # landmass, zone, language, religion are nominal in the authors' file
    assert {c: len(v) for c, v in data.nominal.items()} == {0: 6, 1: 4, 4: 10, 5: 8}
    # the 7 scored columns are the authors' label columns, untouched
    np.testing.assert_array_equal(
        Yte[:, 5:], folds.reference_folds("flags").splits[0].Y_test
    )


def test_seeded_datasets_use_the_study_folds():
    data = A.study_data("scene")
    assert data.folds == "cv_folds(seed=0)" and data.scored_from == 0
    assert sum(s[3].shape[0] for s in data.splits) == 2407  # a partition of scene


def test_rakel_order_is_the_experimenters_hashset_order():
    # java.util.HashSet<Integer> of 16 buckets: key k goes to bucket k & 15, and a
    # bucket keeps insertion order.  Enron (L = 53): ks 1..5, 26, 52 -> buckets
    # 1, 2, 3, 4, 5, 10, 4: so 52 follows 4 (same bucket, inserted later).
    assert A.rakel_order(53) == [(1, 53), (2, 52), (3, 51), (4, 50), (52, 2), (5, 49), (26, 28)]
    # flags as run (L = 12): ks 1..6, 11, all in their own buckets
    assert [k for k, _ in A.rakel_order(12)] == [1, 2, 3, 4, 5, 6, 11]
    # emotions (L = 6): L // 2 = 3 and L - 1 = 5 are already in 1..5
    assert A.rakel_order(6) == [(1, 6), (2, 5), (3, 4), (4, 3), (5, 2)]




def test_a_failure_ends_the_fold_for_the_later_members(monkeypatch):
    # The experimenter ran all ks of a fold in one job: a failure at one k leaves the
    # later ks of that fold unfinished, and the earlier ones stand.
    class Member:
        def __init__(self, fail=False):
            self.fail = fail

        def get_params(self, deep=False):
            return {"fail": self.fail}

        def set_params(self, **p):
            self.__dict__.update(p)
            return self

        def fit(self, X, Y):
            if self.fail:
                raise WekaError("Cannot handle unary class!")
            self.K = Y.shape[1]
            return self

        def predict(self, X):
            return np.ones((X.shape[0], self.K), dtype=int)

    runs = (("a", Member(), {}), ("b", Member(fail=True), {}), ("c", Member(), {}))
    monkeypatch.setattr(A, "members", lambda learner, dataset: runs)
    out = A.authors_cell("flags", "RAkEL-J48", 0)
    assert tuple(out.columns) == A.COLUMNS and set(out["learner"]) == {"a"}
    # member a predicted all ones: its losses are those of an all-ones prediction
    Yte = A.study_data("flags").splits[0][3][:, 5:]
    want = evaluate_predictions(Yte, np.ones_like(Yte), reference.ALPHAS)
    np.testing.assert_array_equal(out["loss"], want["loss"])
    assert (out["K"] == 7).all() and (out["n_test"] == Yte.shape[0]).all()


def test_another_error_is_not_taken_for_a_failed_fold(monkeypatch):
    class Broken:
        def get_params(self, deep=False):
            return {}

        def fit(self, X, Y):
            raise WekaError("server died")

    monkeypatch.setattr(A, "members", lambda learner, dataset: (("x", Broken(), {}),))
    with pytest.raises(WekaError, match="server died"):
        A.authors_cell("flags", "BR-J48", 0)


@pytest.mark.parametrize("output", [0.5, 2, -1])
def test_a_prediction_that_is_not_0_or_1_is_refused_not_thresholded(monkeypatch, output):
    class Scorer:
        def get_params(self, deep=False):
            return {}

        def fit(self, X, Y):
            self.K = Y.shape[1]
            return self

        def predict(self, X):
            return np.full((X.shape[0], self.K), output)

    monkeypatch.setattr(A, "members", lambda learner, dataset: (("x", Scorer(), {}),))
    with pytest.raises(ValueError, match="other than 0 and 1"):
        A.authors_cell("flags", "BR-J48", 0)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"datasets": ["iris"]}, "dataset must be one of"),
        ({"learners": ["BR"]}, "learners must be among"),
        ({"splits": [10]}, "splits must be in 0..9"),
    ],
)
def test_bad_arguments_fail_before_any_work(kwargs, match, tmp_path):
    with pytest.raises(ValueError, match=match):
        A.run_authors_study(**kwargs, cache_dir=tmp_path)
    assert not any(tmp_path.iterdir())


def test_dataset_must_be_a_string():
    with pytest.raises(TypeError, match="dataset must be a str"):
        A.study_data(3)


def test_omitted_pairs_leave_the_spec_and_enter_the_key():
    """A partial study (``omit``) runs without the named pairs and says so in its key,
    so its table can never pass for the full one."""
    pair = ("flags", "RAkEL-J48")
    spec = A.study_spec(["flags"], ["BR-J48", "RAkEL-J48"], splits=[0, 1], omit=[pair])
    assert {c["learner"] for c in runner.cells(spec)} == {"BR-J48"}
    full = A.authors_study_config(["flags"], ["BR-J48", "RAkEL-J48"])
    part = A.authors_study_config(["flags"], ["BR-J48", "RAkEL-J48"], omit=[pair])
    assert full["omitted"] == [] and part["omitted"] == [list(pair)]
    assert "RAkEL-J48" not in part["learners"]["flags"]
    assert config_hash(full) != config_hash(part)


@pytest.mark.boomer  # the study's BOOMER members are built (mlrl-boomer checked)
def test_boomer_reads_the_flags_file_as_it_is():
    # BOOMER ran in its own testbed, which reads the file's 7 labels: the 5 symbol
    # attributes that MEKA's L = 12 made labels are features again, in the file's order.
    data = A.study_data("flags")
    Xtr, Ytr, Xte, Yte, first = A.as_run("BOOMER-1-2021", data, 3)
    split = folds.reference_folds("flags").splits[3]
    assert first == 0 and Ytr.shape[1] == 7 and Xtr.shape[1] == 19
    np.testing.assert_array_equal(Xtr, split.X_train)
    np.testing.assert_array_equal(Yte, split.Y_test)
    # ... and declared nominal as in the file (the testbed's own flags copy does the same)
    est = A.members("BOOMER-1-2021", "flags")[0]
    assert est[2] == {"nominal_feature_indices": [0, 1, 4, 5, 14, 15, 16, 17, 18]}
    # MEKA's learners see the experimenter's 12 labels, 5 of them not scored
    assert A.as_run("BR-J48", data, 3)[4] == 5
    # elsewhere the view is the same for every learner
    emo = A.study_data("emotions")
    assert A.as_run("BOOMER-K-2021", emo, 0)[1] is emo.splits[0][1]
    # the two views of flags are built once, in study_data: as_run only picks one
    assert A.as_run("BOOMER-1-2021", data, 3)[0] is data.file_splits[3][0]




@pytest.mark.boomer  # the key describes every learner, BOOMER's model included
def test_the_config_hashes_to_the_committed_tables_key():
    """``authors_study_config()`` is the committed table's key: same hash, same dict."""
    meta = json.loads((results_dir() / "dependence_authors.json").read_text())
    cfg = A.authors_study_config()
    assert config_hash(cfg) == meta["config_hash"]
    assert canonical(cfg) == meta["config"]


@pytest.mark.parametrize("dataset", A.DATASETS)
def test_the_layout_from_the_headers_is_the_layout_of_the_data(dataset):
    """The configuration reads the authors' file headers alone (study_layout); what it
    reads equals what the twenty files, read whole, give (study_data)."""
    lay, data = A.study_layout(dataset), A.study_data(dataset)
    assert lay.nominal == data.nominal and lay.file_nominal == data.file_nominal
    assert (lay.n_labels, lay.scored_from) == (data.n_labels, data.scored_from)
    for learner in A.LEARNERS:
        assert lay.as_is(learner) == data.as_is(learner), learner
