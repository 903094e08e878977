"""A bad-input harness: malformed or unusual input, one parametrised case each.

Each case either gives the value computed independently from the matrix the file
means (NumPy on the intended 0/1 matrices) or fails with a ValueError/TypeError that
names the file and line (files) or the argument (functions) -- never a silent wrong
answer, a crash of another kind or a hang.
"""

from __future__ import annotations

import numpy as np
import pytest

from mlcbook import learners
from mlcbook.cli import evaluate_files
from mlcbook.datasets.labelfiles import LabelFileError
from mlcbook.learners import Boomer2021, MLkNN, make_boomer
from mlcbook.losses import loss_profile
from mlcbook.metrics import f_measure
from mlcbook.scorers import get_scorer, scorer_names

Y3 = np.array([[1, 0, 1], [0, 0, 1], [1, 1, 0]])
P3 = np.array([[0, 0, 1], [0, 1, 1], [1, 1, 1]])  # hamming loss 3/9


def _bool_text(A, words=("True", "False"), header=True, index=False):
    head = ([",a,b,c"] if index else ["a,b,c"]) if header else []
    rows = [
        (f"{i}," if index else "") + ",".join(words[0] if v else words[1] for v in r)
        for i, r in enumerate(A.tolist())
    ]
    return "\n".join(head + rows) + "\n"


def _csv(A, sep=",", end=""):
    return "\n".join(sep.join(map(str, r)) + end for r in A.tolist()) + "\n"


# name: (truth file name, truth text, pred file name, pred text) -> read as Y3, P3
READ_AS_MATRIX = {
    "pandas bool frame": ("t.csv", _bool_text(Y3), "p.csv", _bool_text(P3)),
    "pandas bool frame with index": (
        "t.csv",
        _bool_text(Y3, index=True),
        "p.csv",
        _bool_text(P3, index=True),
    ),
    "yes/no": ("t.csv", _bool_text(Y3, ("yes", "no")), "p.csv", _bool_text(P3, ("YES", "No"))),
    "true/false without header": (
        "t.txt",
        _bool_text(Y3, ("true", "false"), header=False),
        "p.txt",
        _csv(P3),
    ),
    "semicolon .csv": ("t.csv", _csv(Y3, ";"), "p.csv", _csv(P3, ";")),
    "tab .csv": ("t.csv", _csv(Y3, "\t"), "p.csv", _csv(P3)),
    "trailing comma": ("t.csv", _csv(Y3, ",", ","), "p.csv", _csv(P3)),
    "JSON matrix": (
        "t.json",
        "[[1, 0, 1], [0, 0, 1], [1, 1, 0]]\n",
        "p.json",
        "[[0, 0, 1],\n [0, 1, 1],\n [1, 1, 1]]\n",
    ),
}


@pytest.mark.parametrize("case", sorted(READ_AS_MATRIX))
def test_files_read_as_the_matrix_they_hold(tmp_path, case):
    tn, tt, pn, pt = READ_AS_MATRIX[case]
    (tmp_path / tn).write_text(tt)
    (tmp_path / pn).write_text(pt)
    res = evaluate_files(str(tmp_path / tn), str(tmp_path / pn))
    assert (res["n_samples"], res["n_labels"]) == Y3.shape
    got = dict(res["measures"])
    assert got["hamming_loss"] == float(np.mean(Y3 != P3)) == pytest.approx(1 / 3)
    assert got["subset_accuracy"] == float(np.mean((Y3 == P3).all(axis=1)))


def test_json_label_sets_are_parsed_not_split(tmp_path):
    (tmp_path / "t.txt").write_text('["new york", "paris"]\n["paris"]\n["a, b"]\n')
    (tmp_path / "p.txt").write_text('["new york"]\n["paris", "new york"]\n["a, b"]\n')
    res = evaluate_files(str(tmp_path / "t.txt"), str(tmp_path / "p.txt"))
    assert res["labels"] == ["new york", "paris", "a, b"]  # first appearance
    Y = np.array([[1, 1, 0], [0, 1, 0], [0, 0, 1]])
    P = np.array([[1, 0, 0], [1, 1, 0], [0, 0, 1]])
    assert dict(res["measures"])["hamming_loss"] == float(np.mean(Y != P))


def test_plain_label_sets_split_on_commas_keep_spaces(tmp_path):
    (tmp_path / "t.txt").write_text("new york, paris\nparis\n")
    (tmp_path / "p.txt").write_text('"new york"\nparis, "new york"\n')
    res = evaluate_files(str(tmp_path / "t.txt"), str(tmp_path / "p.txt"))
    assert res["labels"] == ["new york", "paris"]
    assert dict(res["measures"])["hamming_loss"] == 0.5


# name: (file name, text, message); the other file is a valid 2 x 3 matrix
MALFORMED = {
    "one typo": ("t.csv", "1,0,1\n1,1,x\n", "t.csv:2: column 3: 'x' is not a number"),
    "typo on the only line": ("t.csv", "1,1,x\n", "t.csv:1: column 3: 'x' is not a number"),
    "typo in a semicolon .csv": ("t.csv", "1;0;1\n0;1;?\n", "t.csv:2: column 3: '?'"),
    "empty field": ("t.csv", "1,,1\n0,1,1\n", "t.csv:1: column 2: an empty field"),
    "bool typo": ("t.csv", "a,b,c\nTrue,False,True\nTrue,Flase,True\n", "t.csv:3: column 2"),
    "nested JSON line": ("t.txt", '["a"]\n[["b"]]\n', "t.txt:2: a nested array"),
    "JSON 0/1 rows per line": ("t.txt", "[1, 0, 1]\n[0, 1, 0]\n", "t.txt:1: [1, 0, 1] repeats"),
    "bad JSON document": ("t.json", "[[1, 0, 1], [0, 1\n", "t.json:1: not valid JSON"),
    "JSON label object": ("t.txt", '["a", {"b": 1}]\n', "t.txt:1: a label must be a string"),
    # JSON Lines of objects are not label sets (no key is read): refused at their line
    "JSON Lines objects": ("t.jsonl", '{"labels": ["a"]}\n{"labels": []}\n',
                           "t.jsonl:1: a JSON object"),
    "an object on line 2": ("t.txt", '["a"]\n{"labels": ["b"]}\n', "t.txt:2: a JSON object"),
    "unterminated string": ("t.txt", '["cat", "dog]\n["cat"]\n',
                            "t.txt:1: not valid JSON (Unterminated string"),
    "unterminated, last line": ("t.txt", '["cat"]\n["cat", "dog]\n', "t.txt:2: not valid JSON"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_files_name_file_and_line(tmp_path, case):
    name, text, message = MALFORMED[case]
    (tmp_path / name).write_text(text)
    (tmp_path / "p.csv").write_text("1,0,1\n0,1,0\n")
    with pytest.raises(LabelFileError) as info:
        evaluate_files(str(tmp_path / name), str(tmp_path / "p.csv"))
    assert message in str(info.value)


# ------------------------------------------------------------------ BOOMER's boundary
def _boomer_data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 4))
    Y = (rng.random((30, 3)) < 0.4).astype(int)
    return X, Y


BAD_BOOMER_Y = {
    "fewer rows": (lambda Y: Y[:20], ValueError, "same number of rows"),
    "values 0/2": (lambda Y: 2 * Y, ValueError, "binary"),
    "values -1/1": (lambda Y: 2 * Y - 1, ValueError, "binary"),
    "NaN": (lambda Y: np.where(Y == 1, np.nan, 0.0), ValueError, "binary"),
    "strings": (lambda Y: Y.astype(str), TypeError, "numbers"),
}


@pytest.mark.boomer
@pytest.mark.parametrize("case", sorted(BAD_BOOMER_Y))
def test_boomer_refuses_a_bad_label_matrix(case):
    X, Y = _boomer_data()
    make, exc, message = BAD_BOOMER_Y[case]
    with pytest.raises(exc, match=message):
        Boomer2021(options={"max_rules": 3}).fit(X, make(Y))


@pytest.mark.boomer
def test_boomer_wrapper_predicts_what_make_boomer_predicts_and_checks_fitting():
    from sklearn.exceptions import NotFittedError

    X, Y = _boomer_data()
    with pytest.raises(NotFittedError):
        Boomer2021().predict(X)
    model = Boomer2021("BOOMER-K", 3, {"max_rules": 5}).fit(X, Y)
    ref = make_boomer("BOOMER-K", 3, max_rules=5).fit(X, Y).predict(X)
    np.testing.assert_array_equal(model.predict(X), ref)
    with pytest.raises(ValueError, match="features"):
        model.predict(X[:, :3])


# ------------------------------------------------------------------ many labels
def test_binomial_profile_of_many_labels_is_exact_and_fast():
    import math
    import time
    from fractions import Fraction

    K, n = 300, 40  # above the exact-integer limit: the product recurrence
    rng = np.random.default_rng(1)
    Y = rng.integers(0, 2, (n, K))
    P = Y.copy()
    for i in range(n):  # error counts spread over 0..K
        P[i, rng.choice(K, size=int(rng.integers(0, K + 1)), replace=False)] ^= 1
    ks = [1, 2, 5, 50, 150, 299, 300]
    m = (Y != P).sum(axis=1)
    exact = [
        float(sum(1 - Fraction(math.comb(K - int(e), k), math.comb(K, k)) for e in m) / n)
        for k in ks
    ]
    # 1e-13: a product of at most K = 300 correctly rounded factors is within ~300 ulps
    np.testing.assert_allclose(loss_profile(Y, P, "binomial", ks), exact, rtol=1e-13)
    Y = rng.integers(0, 2, (50, 4000))
    P = rng.integers(0, 2, (50, 4000))
    t = time.perf_counter()
    prof = loss_profile(Y, P, "binomial", list(range(1, 4001)))
    # the K**3 construction took minutes here; O(d K) takes ~0.01 s (100x margin)
    assert time.perf_counter() - t < 2.0
    assert prof[0] == pytest.approx(np.mean(Y != P), rel=1e-12) and prof[-1] == 1.0
    assert np.all(np.diff(prof) >= -1e-12)  # non-decreasing in k


# ------------------------------------------------------------------ huge features
@pytest.mark.parametrize("name", ["GFM", "MLkNN", "LossMinimizingKNN"])
@pytest.mark.parametrize("scale", [1e200, 2.0**700, -1e300])
def test_neighbour_learners_take_huge_features(name, scale):
    import warnings

    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 5))
    Y = (rng.random((40, 3)) < 0.4).astype(int)
    cls = getattr(learners, name)
    ref = cls().fit(X, Y).predict(X)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # no overflow on the way
        got = cls().fit(X * scale, Y).predict(X * scale)
    # nearest neighbours do not change when every distance is scaled alike; the data
    # are continuous, so no tie is near enough for the rounding of X * 1e200 to matter
    np.testing.assert_array_equal(got, ref)


# ------------------------------------------------------------------ scorers
_SCORER_PARAMS = {
    "binomial_loss": {"k": 2},
    "polynomial_loss": {"alpha": 2.0},
    "owa_loss": {"w": [0.4, 0.3, 0.2, 0.1]},
    "choquet_loss": {"mu": [0.0] * 15 + [1.0]},
    "covering_loss": {"covering": [[0, 1], [2, 3]]},
    **{f"{m}_at_k": {"k": 2} for m in ("precision", "recall", "ndcg", "coverage")},
    **{f"ps{m}_at_k": {"k": 2, "propensity": [0.5, 0.4, 0.9, 0.2]}
       for m in ("precision", "ndcg")},
}


def test_every_scorer_pickles_and_scores_the_same_after():
    import pickle

    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 5))
    Y = (rng.random((40, 4)) < 0.4).astype(int)
    Y[0], Y[1] = 1, 0
    model = MLkNN(k=3).fit(X, Y)
    for name in scorer_names():
        s = get_scorer(name, **_SCORER_PARAMS.get(name, {}))
        back = pickle.loads(pickle.dumps(s))
        assert back(model, X, Y) == s(model, X, Y), name
    s = get_scorer("f1_micro", response_method="predict_proba", threshold=0.3)
    assert pickle.loads(pickle.dumps(s))(model, X, Y) == s(model, X, Y)


def test_grid_search_with_a_scorer_runs_in_worker_processes():
    from sklearn.model_selection import GridSearchCV

    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, 4))
    Y = (X[:, :3] + 0.5 * rng.normal(size=(60, 3)) > 0).astype(int)
    gs = GridSearchCV(MLkNN(), {"k": [3, 7]}, scoring=get_scorer("f1_macro"), cv=3, n_jobs=2).fit(
        X, Y
    )
    assert np.isfinite(gs.cv_results_["mean_test_score"]).all()
    # the refitted best model's in-sample score, by the measure directly
    assert gs.score(X, Y) == f_measure(Y, gs.predict(X), 1.0, "macro")


BAD_SCORER_PARAMS = [
    ("binomial_loss", {"k": 0}, ValueError, "k must be"),
    ("binomial_loss", {"k": 2.5}, TypeError, "k must be an integer"),
    ("polynomial_loss", {"alpha": 0.5}, ValueError, "alpha must be >= 1"),
    ("macro_f1", {"beta": -1}, ValueError, "beta must be > 0"),
    ("f1_macro", {"beta": 2}, TypeError, "f1_macro takes no parameter 'beta'"),
    ("micro_f1", {"zero_division": 2}, ValueError, "zero_division"),
    ("instance_jaccard", {"zero_division": "ignore"}, TypeError, "zero_division"),
    ("neg_f1_macro", {}, ValueError, "is not a loss"),
    ("f1_macro", {"bogus": 1}, TypeError, "takes no parameter 'bogus'"),
    ("f1_macro", {"average": "micro"}, TypeError, "takes no parameter 'average'"),
    ("hamming_loss", {"per_instance": True}, TypeError, "takes no parameter"),
]


@pytest.mark.parametrize("name,params,exc,message", BAD_SCORER_PARAMS)
def test_get_scorer_refuses_impossible_parameters_up_front(name, params, exc, message):
    with pytest.raises(exc, match=message):
        get_scorer(name, **params)
