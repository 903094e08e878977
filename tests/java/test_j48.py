"""Weka's J48 from Python (mlcbook.learners.j48): against Weka itself and by hand.

The reference is Weka 3.6.14's own command line (``java weka.classifiers.trees.J48
-t train -T test -p 0 -distribution``) on ARFF files that Python never rewrites
(only splits by whole data lines), and, for the hand-checkable cases, entropy
arithmetic done here.  ``make unit`` installs Weka first (``make weka``).
"""

from __future__ import annotations

import math
import pickle
import subprocess
import zipfile
from pathlib import Path

import arff as liac_arff
import numpy as np
import pytest
from mlcrepro.huellermeier2022 import reference
from mlcbook.datasets import load_dataset
from mlcbook.datasets.arff import parse_arff
from mlcbook.learners import J48Classifier, make_learner
from mlcbook.learners._weka import WekaNotFoundError, server, weka_jar

EXAMPLES = weka_jar().parents[1] / "doc" / "weka" / "examples"


# ---------------------------------------------------------------- helpers
def split_arff(path: Path, tmp: Path) -> tuple[Path, Path]:
    """Even data lines -> train, odd -> test; the header is copied byte for byte."""
    lines = path.read_text().splitlines()
    at = next(i for i, r in enumerate(lines) if r.strip().lower() == "@data")
    head = "\n".join(lines[:at]) + "\n"
    rows = [r for r in lines[at + 1:] if r.strip() and not r.lstrip().startswith("%")]
    out = []
    for part, sel in (("train", rows[0::2]), ("test", rows[1::2])):
        p = tmp / f"{path.stem}-{part}.arff"
        p.write_text(head + "@data\n" + "\n".join(sel) + "\n")
        out.append(p)
    return out[0], out[1]


def read_single_label(path: Path) -> tuple[np.ndarray, np.ndarray, dict[int, int]]:
    """X (NaN = missing), class index codes and the nominal features, by liac-arff."""
    with open(path) as f:
        data = liac_arff.load(f, encode_nominal=True)
    A = np.array([[np.nan if v is None else v for v in row] for row in data["data"]],
                 dtype=float)
    nominal = {i: len(t) for i, (_, t) in enumerate(data["attributes"][:-1])
               if isinstance(t, list)}
    return A[:, :-1], A[:, -1], nominal


def weka_cli(train: Path, test: Path, options: list[str], class_index: str = "last"):
    """Weka's own predictions: class indices and printed (3-decimal) distributions."""
    res = subprocess.run(
        ["java", "-cp", str(weka_jar()), "weka.classifiers.trees.J48", *options,
         "-t", str(train), "-T", str(test), "-c", class_index, "-p", "0",
         "-distribution"],
        capture_output=True, text=True, check=True)
    pred, dist = [], []
    lines = res.stdout.split("=== Predictions on test data ===")[1].splitlines()
    for line in lines:
        f = line.split()
        if not f or not f[0].isdigit():
            continue
        pred.append(int(f[2].split(":")[0]) - 1)
        dist.append([float(v.lstrip("*")) for v in f[-1].split(",")])
    return np.array(pred), np.array(dist)


# ---------------------------------------------------------------- by hand
def test_a_clean_threshold_split_by_hand():
    # Six points, classes 0 0 0 1 1 1: one split, leaves of 3 and 3 with no error.
    # Weka sets the threshold to the largest training value below the cut: 3.
    X = np.array([[1.0], [2.0], [3.0], [4.0], [5.0], [6.0]])
    y = np.array([0, 0, 0, 1, 1, 1])
    clf = J48Classifier().fit(X, y)
    tree = clf.weka_tree()
    assert "x0 <= 3: 0 (3.0)" in tree and "x0 > 3: 1 (3.0)" in tree
    np.testing.assert_array_equal(clf.predict([[3.0], [3.5], [0.0]]), [0, 1, 0])
    np.testing.assert_array_equal(clf.predict_proba([[3.0], [9.0]]), [[1, 0], [0, 1]])


WEATHER = """\
sunny hot high FALSE no
sunny hot high TRUE no
overcast hot high FALSE yes
rainy mild high FALSE yes
rainy cool normal FALSE yes
rainy cool normal TRUE no
overcast cool normal TRUE yes
sunny mild high FALSE no
sunny cool normal FALSE yes
rainy mild normal FALSE yes
sunny mild normal TRUE yes
overcast mild high TRUE yes
overcast hot normal FALSE yes
rainy mild high TRUE no"""


def _entropy(counts) -> float:
    n = sum(counts)
    return -sum(c / n * math.log2(c / n) for c in counts if c)


def test_weather_tree_matches_the_gain_ratio_computed_by_hand():
    # Quinlan's weather data (Weka's weather.nominal.arff): C4.5 picks the attribute
    # of largest gain ratio among those of at least average gain; computed here.
    rows = [r.split() for r in WEATHER.splitlines()]
    cats = [sorted({r[i] for r in rows}) for i in range(5)]
    X = np.array([[cats[i].index(r[i]) for i in range(4)] for r in rows], dtype=float)
    y = np.array([r[4] for r in rows])
    base = _entropy([sum(y == c) for c in ("no", "yes")])
    gains, ratios = [], []
    for i in range(4):
        parts = [y[X[:, i] == v] for v in range(len(cats[i]))]
        rest = sum(len(p) / len(y) * _entropy([sum(p == "no"), sum(p == "yes")])
                   for p in parts)
        gains.append(base - rest)
        ratios.append((base - rest) / _entropy([len(p) for p in parts]))
    avg = sum(gains) / 4
    root = max((r, i) for i, r in enumerate(ratios) if gains[i] >= avg - 1e-3)[1]
    assert root == 0  # outlook
    clf = J48Classifier(nominal={i: len(cats[i]) for i in range(4)}).fit(X, y)
    tree = clf.weka_tree()
    # outlook's branches in category order (overcast, rainy, sunny): overcast is pure
    # yes (4), rainy splits on windy, sunny on humidity -- the textbook tree.  Weka
    # names the classes by their index in classes_ = [no, yes].
    assert tree.splitlines()[3] == "x0 = 0: 1 (4.0)"
    assert "|   x3 = 1: 0 (2.0)" in tree  # rainy and windy: no
    assert "|   x2 = 0: 0 (3.0)" in tree  # sunny and humidity high: no
    np.testing.assert_array_equal(clf.predict(X), y)  # the tree has no training error


# ---------------------------------------------------------------- against Weka itself
OPTIONS = {  # parameters -> Weka's command-line options
    "defaults": ({}, []),
    "unpruned": ({"unpruned": True}, ["-U"]),
    "binary": ({"binary_splits": True, "min_num_obj": 5}, ["-B", "-M", "5"]),
    "cf": ({"confidence_factor": 0.1, "subtree_raising": False}, ["-C", "0.1", "-S"]),
    "rep": ({"reduced_error_pruning": True, "num_folds": 4, "seed": 7},
            ["-R", "-N", "4", "-Q", "7"]),
    "laplace": ({"use_laplace": True}, ["-A"]),
}


@pytest.mark.parametrize("name", ["weather.nominal", "vote", "diabetes", "iris"])
@pytest.mark.parametrize("option", list(OPTIONS))
def test_predictions_equal_weka_command_line(tmp_path, name, option):
    params, cli = OPTIONS[option]
    train, test = split_arff(EXAMPLES / f"{name}.arff", tmp_path)
    Xtr, ytr, nominal = read_single_label(train)
    Xte, _, _ = read_single_label(test)
    with open(train) as f:  # the class attribute's declared values, in order
        n_classes = len(liac_arff.load(f)["attributes"][-1][1])
    clf = J48Classifier(nominal=nominal, classes=list(range(n_classes)), **params)
    clf.fit(Xtr, ytr.astype(int))
    pred, dist = weka_cli(train, test, cli)
    np.testing.assert_array_equal(clf.predict(Xte), pred)
    # Weka prints the distribution with 3 decimals: equal up to half a unit of that.
    np.testing.assert_allclose(clf.predict_proba(Xte), dist, atol=5e-4 + 1e-12)


@pytest.mark.parametrize(
    ("name", "labels"), [("flags", [0, 3, 6]), ("emotions", [0, 5])])
def test_one_label_of_the_authors_meka_file_equals_weka(tmp_path, name, labels):
    # MEKA's BR gives J48 the features and one label: here Weka's Remove filter cuts
    # the other labels from the authors' own split-0 files.
    path, _ = reference.reference_file(f"folds-{name}.zip")
    files = {}
    with zipfile.ZipFile(path) as z:
        for part in ("train", "test"):
            files[part] = tmp_path / f"{part}.arff"
            files[part].write_bytes(z.read(f"{name}_42_0_{part}.arff"))
    tr, te = (parse_arff(files[p], meka=True) for p in ("train", "test"))
    d, L = len(tr.feature_names), len(tr.label_names)
    nominal = {i: len(tr.nominal[f]) for i, f in enumerate(tr.feature_names)
               if f in tr.nominal}
    for j in labels:
        keep = {}
        for part in ("train", "test"):
            others = ",".join(str(d + 1 + k) for k in range(L) if k != j)
            keep[part] = tmp_path / f"{part}-{j}.arff"
            subprocess.run(["java", "-cp", str(weka_jar()),
                            "weka.filters.unsupervised.attribute.Remove", "-R", others,
                            "-i", str(files[part]), "-o", str(keep[part])], check=True)
        pred, dist = weka_cli(keep["train"], keep["test"], [])
        clf = J48Classifier(nominal=nominal, classes=[0, 1]).fit(tr.X, tr.Y[:, j])
        np.testing.assert_array_equal(clf.predict(te.X), pred)
        np.testing.assert_allclose(clf.predict_proba(te.X), dist, atol=5e-4 + 1e-12)


# ---------------------------------------------------------------- the estimator
def test_registry_j48_is_weka_default():
    # The authors call `new J48()`: Weka's defaults, -C 0.25 -M 2 (J48 -h of 3.6.14).
    for name in ("BR-J48", "CC-J48", "LP-J48"):
        est = make_learner(name, 0)
        j48 = est.get_params()["estimator"]
        assert isinstance(j48, J48Classifier)
        assert j48.weka_options() == "-C 0.25 -M 2"
        assert j48.get_params() == J48Classifier().get_params()
    assert J48Classifier().get_params() == {
        "confidence_factor": 0.25, "min_num_obj": 2, "unpruned": False,
        "reduced_error_pruning": False, "num_folds": 3, "binary_splits": False,
        "subtree_raising": True, "use_laplace": False, "seed": 1, "nominal": None,
        "classes": None}


def test_fitted_model_survives_pickling_and_a_new_server():
    X = np.arange(12, dtype=float).reshape(-1, 1)
    y = np.array([0] * 6 + [1] * 6)
    clf = J48Classifier().fit(X, y)
    copy = pickle.loads(pickle.dumps(clf))
    server().close()  # the next request starts a new Java process
    np.testing.assert_array_equal(copy.predict(X), y)
    np.testing.assert_array_equal(clf.predict(X), y)


def test_a_matrix_crosses_once_and_a_repeated_fit_is_the_first_model(monkeypatch):
    # BR's labels share one X: it is sent once; the same fit again returns the first
    # model without a request; a matrix the server dropped is sent again.  The trees are
    # the ones fitted on their own (each checked against Weka's command line above).
    X, Y, _ = load_dataset("emotions")
    X = X[:200]
    srv = server()
    sent = []
    send = srv._send
    monkeypatch.setattr(srv, "_send", lambda *c: (sent.append(c[0][:1]), send(*c))[1])
    models = [J48Classifier(classes=[0, 1]).fit(X, Y[:200, j]) for j in range(3)]
    assert sent.count(b"D") == 1 and sent.count(b"F") == 3
    again = J48Classifier(classes=[0, 1]).fit(X, Y[:200, 0])
    assert again.model_ == models[0].model_ and again._model_id == models[0]._model_id
    assert sent.count(b"F") == 3
    for key in srv._data:  # ids the server never gave: as if it had dropped them
        srv._data[key] = -1
    models.append(J48Classifier(classes=[0, 1]).fit(X, Y[:200, 3]))
    assert sent.count(b"D") == 2 and sent.count(b"F") == 5  # refused, data sent, fitted
    server().close()  # a new Java process: nothing sent or fitted before
    for j, m in enumerate(models):
        alone = J48Classifier(classes=[0, 1]).fit(X, Y[:200, j])
        assert alone.model_ == m.model_
        np.testing.assert_array_equal(m.predict_proba(X), alone.predict_proba(X))


def test_bad_input_is_refused_before_java_runs():
    X, y = np.eye(4), np.array([0, 1, 0, 1])
    with pytest.raises(ValueError, match="confidence_factor"):
        J48Classifier(confidence_factor=1.5).fit(X, y)
    with pytest.raises(ValueError, match="min_num_obj"):
        J48Classifier(min_num_obj=0).fit(X, y)
    with pytest.raises(TypeError, match="unpruned"):
        J48Classifier(unpruned="yes").fit(X, y)
    with pytest.raises(ValueError, match="exclude"):
        J48Classifier(unpruned=True, reduced_error_pruning=True).fit(X, y)
    with pytest.raises(ValueError, match="nominal column 0"):
        J48Classifier(nominal={0: 1}).fit(X, y)  # value 1 outside categories {0}
    with pytest.raises(ValueError, match="nominal"):
        J48Classifier(nominal={7: 2}).fit(X, y)
    with pytest.raises(ValueError, match="not in classes"):
        J48Classifier(classes=[0]).fit(X, y)
    with pytest.raises(ValueError, match="y must be 1-D"):
        J48Classifier().fit(X, y[:3])


def test_missing_jar_names_make_weka(monkeypatch, tmp_path):
    monkeypatch.setenv("MLCBOOK_WEKA_JAR", str(tmp_path / "none.jar"))
    with pytest.raises(WekaNotFoundError, match="make weka"):
        weka_jar()
