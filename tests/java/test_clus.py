"""PCT/EPCT: CLUS driven from Python (mlcbook.learners.clus).

The references are CLUS itself, run by hand on the authors' unmodified files
(tests/clus_reference.py), the output of the authors' own 2011 Clus.jar pinned in
tests/data/clus_flags_split0.json (provenance inside), and the authors' released
profiles.  The jar is PyPI's ``pyclus`` 1.0.2 (in the book's environment); Java comes
with ``make weka``, a prerequisite of ``make unit``.
"""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError

from mlcbook.datasets.arff import parse_arff
from mlcbook.datasets.fetch import ChecksumError, sha256_of
from mlcbook.learners import ClusPCT, make_learner
from mlcbook.learners import clus as clus_module
from mlcbook.learners.clus import PYCLUS_JAR_SHA256, clus_jar, java_executable, pyclus_jar
from mlcbook.losses import loss_profile
from mlcrepro.huellermeier2022.folds import reference_folds
from mlcrepro.huellermeier2022.reference import ALPHAS, load_reference_results, reference_file

from .clus_reference import FIXTURE, run_clus_on_authors_files


@pytest.fixture(scope="module")
def flags0(tmp_path_factory):
    """The authors' flags split 0 as parse_arff reads it, and its nominal features."""
    zip_path, _ = reference_file("folds-flags.zip")
    d = tmp_path_factory.mktemp("flags")
    with zipfile.ZipFile(zip_path) as z:
        z.extract("flags_42_0_train.arff", d)
        z.extract("flags_42_0_test.arff", d)
    tr = parse_arff(d / "flags_42_0_train.arff", meka=True)
    te = parse_arff(d / "flags_42_0_test.arff", meka=True)
    nominal = {
        i: tr.nominal[n] for i, n in enumerate(tr.feature_names) if n in tr.nominal
    }
    return zip_path, tr, te, nominal


def test_the_jar_is_the_registered_pyclus_build():
    assert sha256_of(pyclus_jar()) == PYCLUS_JAR_SHA256
    with zipfile.ZipFile(pyclus_jar()) as z:
        assert "si/ijs/kt/clus/Clus.class" in z.namelist()  # CLUS's later package


def test_a_jar_with_another_checksum_is_refused(monkeypatch):
    path = str(pyclus_jar())
    # jar= takes only the authors' 2011 jar: the PyPI one has another checksum
    fitted = ClusPCT(jar=path).fit(np.eye(3), np.eye(3, dtype=int))
    with pytest.raises(ValueError, match="authors' Clus.jar"):
        fitted.predict(np.eye(3))
    monkeypatch.setattr(clus_module, "sha256_of", lambda path: "0" * 64)
    with pytest.raises(ChecksumError, match="expected"):
        pyclus_jar()


def test_a_corrupt_local_copy_of_the_authors_jar_is_refused_and_not_stored(
    tmp_path, monkeypatch
):
    # clus_jar() obtains the authors' 2011 jar for ClusPCT(jar=...) and the fixture
    bad = tmp_path / "Clus.jar"
    bad.write_bytes(b"not the jar")
    monkeypatch.setenv("MLCBOOK_DATA", str(tmp_path / "cache"))
    monkeypatch.setenv("MLCBOOK_CLUS_JAR", str(bad))
    with pytest.raises(ChecksumError):
        clus_jar(download=False)
    assert not (tmp_path / "cache" / "Clus.jar").exists()


def test_pct_scores_equal_the_authors_jar_and_clus_by_hand(flags0):
    """The PyPI jar's single tree gives the 2011 jar's numbers on the authors' flags
    split 0 (pinned fixture), and CLUS run by hand on the authors' own files."""
    zip_path, tr, te, nominal = flags0
    by_hand = np.array(
        run_clus_on_authors_files(java_executable(), pyclus_jar(), zip_path, False)
    )
    ours = ClusPCT(nominal_features=nominal).fit(tr.X, tr.Y).predict_scores(te.X)
    # both sides divide the same two count values in float64: equal to the last bit
    np.testing.assert_array_equal(ours, by_hand)
    pinned = np.array(json.loads(FIXTURE.read_text())["PCT"])
    np.testing.assert_array_equal(ours, pinned)
    # the authors' rule: relevant iff score >= 0.5 (jaicore ArrayUtil, x >= threshold)
    np.testing.assert_array_equal(
        ClusPCT(nominal_features=nominal).fit(tr.X, tr.Y).predict(te.X),
        (pinned >= 0.5).astype(int),
    )


def test_the_forest_counts_votes_of_ten_trees_and_the_tree_a_leaf_frequency(flags0):
    _, tr, te, nominal = flags0
    forest = (
        ClusPCT(ensemble=True, nominal_features=nominal)
        .fit(tr.X, tr.Y)
        .predict_scores(te.X)
    )
    np.testing.assert_array_equal(forest * 10, np.round(forest * 10))  # votes / 10
    assert forest.min() >= 0 and forest.max() <= 1
    tree = ClusPCT(nominal_features=nominal).fit(tr.X, tr.Y).predict_scores(te.X)
    # a pruned leaf predicts one vector for all rows reaching it: few distinct rows
    assert 1 <= len(np.unique(tree, axis=0)) < len(te.X)


def test_registry_entries_are_clus_at_its_defaults():
    pct, epct = make_learner("PCT-CLUS", 0), make_learner("EPCT-CLUS", 0)
    assert isinstance(pct, ClusPCT) and isinstance(epct, ClusPCT)
    assert pct.get_params() == {
        "ensemble": False,
        "nominal_features": None,
        "random_seed": 0,
        "java_options": (),
        "jar": None,
    }
    assert epct.get_params() == {
        "ensemble": True,
        "nominal_features": None,
        "random_seed": 0,
        "java_options": (),
        "jar": None,
    }


def test_ties_count_as_relevant_and_empty_leaves_as_irrelevant(tmp_path):
    # K = 2; single tree: K true, K classes, 2K counts, model, then the same pruned
    header = "@RELATION p\n\n@DATA\n"
    row = '1,0, 1,0, 3.0,1.0,0.0,4.0, "1", 1,0, 1.0,1.0,0.0,0.0, "2"\n'.replace(" ", "")
    (tmp_path / "t.arff").write_text(header + row)
    s = clus_module._read_predictions(tmp_path / "t.arff", 1, 2, ensemble=False)
    np.testing.assert_array_equal(s, [[0.5, 0.0]])  # 1/(1+1); 0/0 -> 0
    row = '1,0, 1,0, 5.0,5.0,4.0,6.0, "0+0"\n'.replace(" ", "")
    (tmp_path / "f.arff").write_text(header + row)
    np.testing.assert_array_equal(
        clus_module._read_predictions(tmp_path / "f.arff", 1, 2, ensemble=True),
        [[0.5, 0.4]],
    )


def test_numbers_are_written_as_weka_prints_them():
    # Weka's Instance.toString: at most six digits after the decimal point
    assert [
        clus_module._number(v) for v in (0.1234567, 2150.0, -1e-7, 0.5, np.nan, -3.25)
    ] == ["0.123457", "2150", "0", "0.5", "?", "-3.25"]


def test_the_data_file_prints_each_value_as_weka_does(tmp_path):
    # The writer prints each distinct number once and spreads the strings; here every
    # cell is printed on its own by _number (checked above) and the file assembled by
    # hand: equal byte for byte, NaN, -0.0, repeats, nominal columns and labels included.
    rng = np.random.default_rng(0)
    X = rng.choice([0.0, 1.0, -0.0, 0.1234567, -1e-7, 2150.0, np.nan, 3.5], size=(40, 5))
    X[:, 2] = rng.integers(0, 3, size=40)
    X[5, 2] = np.nan
    Y = rng.integers(0, 2, size=(40, 3))
    nominal = {2: ["a", "b c", "d"]}
    clus_module._write_arff(tmp_path / "w.arff", X, Y, nominal)
    head = ["@relation mlcbook", "", "@attribute a0 numeric", "@attribute a1 numeric",
            "@attribute a2 {a,'b c',d}", "@attribute a3 numeric", "@attribute a4 numeric",
            "@attribute y0 {0,1}", "@attribute y1 {0,1}", "@attribute y2 {0,1}", "",
            "@data"]
    names = ["a", "'b c'", "d"]
    rows = [
        ",".join(
            [names[int(v)] if j == 2 and not np.isnan(v) else "?" if j == 2
             else clus_module._number(v) for j, v in enumerate(x)]
            + [str(int(b)) for b in y]
        )
        for x, y in zip(X, Y)
    ]
    assert (tmp_path / "w.arff").read_bytes() == ("\n".join(head + rows) + "\n").encode()


def test_bad_input_is_refused_before_java_runs(flags0, monkeypatch):
    _, tr, te, nominal = flags0
    monkeypatch.setattr(clus_module, "java_executable", lambda: pytest.fail("java ran"))
    with pytest.raises(NotFittedError):
        ClusPCT().predict(te.X)
    with pytest.raises(ValueError, match="Y"):
        ClusPCT().fit(tr.X, tr.Y * 2)
    with pytest.raises(ValueError, match="rows"):
        ClusPCT().fit(tr.X[:-1], tr.Y)
    with pytest.raises(TypeError, match="ensemble"):
        ClusPCT(ensemble="yes").fit(tr.X, tr.Y)
    with pytest.raises(ValueError, match="random_seed"):
        ClusPCT(random_seed=-1).fit(tr.X, tr.Y)
    with pytest.raises(ValueError, match="nominal_features"):
        ClusPCT(nominal_features={0: ["a"]}).fit(tr.X, tr.Y)  # landmass has 6 values
    with pytest.raises(ValueError, match="beyond"):
        ClusPCT(nominal_features={99: ["a"]}).fit(tr.X, tr.Y)
    with pytest.raises(ValueError, match="finite"):
        ClusPCT().fit(np.full_like(tr.X, np.inf), tr.Y)
    fitted = ClusPCT(nominal_features=nominal).fit(tr.X, tr.Y)
    with pytest.raises(ValueError, match="features"):
        fitted.predict(te.X[:, :5])


def test_missing_java_names_the_make_target(monkeypatch):
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", "")
    with pytest.raises(RuntimeError, match="make weka"):
        java_executable()


@pytest.mark.slow
def test_pct_reproduces_the_authors_released_emotions_profile():
    """PCT (PyPI jar) on the authors' emotions folds reproduces their released profiles.

    The authors' PCT pooled 8 of 10 folds (which ones is not recorded); the pooled
    binomial (k = 1..6) and polynomial profiles of our folds 0, 1, 3-7 and 9 equal
    theirs (found by searching the subsets of eight folds with the 2011 jar,
    notes/clus-boomer-agreement.csv).  Their values went through Java doubles and a
    text file: equal up to 1e-12.
    """

    splits = [s for s in reference_folds("emotions").splits if s.split not in (2, 8)]
    Y = np.vstack([s.Y_test for s in splits])
    P = np.vstack([ClusPCT().fit(s.X_train, s.Y_train).predict(s.X_test) for s in splits])
    ref = load_reference_results()
    ref = ref[(ref.dataset == "emotions") & (ref.learner == "PCT")]
    assert set(ref.folds) == {8}
    for family, params in (
        ("binomial", np.arange(1, 7)),
        ("polynomial", np.asarray(ALPHAS)),
    ):
        theirs = ref[ref.family == family].loss.to_numpy()
        np.testing.assert_allclose(
            loss_profile(Y, P, family, params), theirs, rtol=0, atol=1e-12
        )
