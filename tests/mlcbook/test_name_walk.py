"""One name, one number: every public name of every surface that scikit-learn also uses
gives scikit-learn's number.

The surfaces: the functions of :mod:`mlcbook.metrics`, the keys of
:func:`mlcbook.metrics.all_measures` (Table 1 and ``measures="all"``), the scorers of
:mod:`mlcbook.scorers` and the command line (``mlcbook evaluate --measures``, which
reads the same matrices back from files).  A name is scikit-learn's when
``sklearn.metrics`` has a function of that name or ``sklearn.metrics.get_scorer_names()``
lists it.  scikit-learn's number is its function called on the same arguments, or its
scorer's function with the scorer's own arguments.  Where scikit-learn refuses the
multi-label input (it raises: ``precision`` is a binary scorer, ``auc`` takes a curve's
points), there is no number to disagree with; those names are counted apart.

The old spellings ``mlcbook.metrics.jaccard_score`` and ``average_precision`` warn
(FutureWarning, naming the new name) and keep their old number for old code; they are
asserted as the full list of differences, so a new one fails.  Table 1's "average
precision" (Wu & Zhou's name of the label-ranking average precision) is the key
``label_ranking_average_precision`` of ``all_measures``; its old key ``average_precision``
raises a ``KeyError`` that names the new one.  Beyond scikit-learn's names, every name
that two surfaces share gives one number on both (Table 1, ``measures="all"``,
``measures=[name]`` and the registry's spec).
"""

from __future__ import annotations

import inspect
import json
import warnings

import numpy as np
import pytest
from sklearn import metrics as skm
from sklearn.base import BaseEstimator, ClassifierMixin

from mlcbook import metrics as M
from mlcbook import registry as R
from mlcbook.cli import evaluate_files
from mlcbook.scorers import get_scorer

from .cli_run import run_in_process as run

SK_NAMES = set(dir(skm)) | set(skm.get_scorer_names())
#: the sums of one definition in two orders: a few units of 1e-16; 1e-12 catches any
#: difference of definition or default
TOL = 1e-12
OLD_SPELLINGS = {"jaccard_score": "instance_jaccard",
                 "average_precision": "label_ranking_average_precision"}
#: (surface, name) pairs allowed to differ from scikit-learn: none
KNOWN: set[tuple[str, str]] = set()


def _data():
    rng = np.random.default_rng(2036)
    n, K = 80, 5
    Y = (rng.random((n, K)) < 0.4).astype(int)
    Y[0], Y[1] = 1, 0  # every label has both classes
    F = np.round(Y * 0.3 + rng.random((n, K)), 2)  # ties: two decimals
    P = (F > 0.6).astype(int)
    return Y, F, P


def _sklearn(name, Y, X):
    """scikit-learn's number for ``name`` on (Y, X), or None if it refuses the input."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            if name in skm.get_scorer_names():
                sc = skm.get_scorer(name)
                return float(sc._score_func(Y, X, **sc._kwargs))
            return float(getattr(skm, name)(Y, X))
        except (ValueError, TypeError):
            return None


def _walk():
    Y, F, P = _data()
    rows = []  # (surface, name, ours, scikit-learn's or None)
    for name in M.__all__:
        fn = getattr(M, name)
        if name not in SK_NAMES or not callable(fn) or name == "all_measures":
            continue
        second = list(inspect.signature(fn).parameters)[1]
        X = F if second == "F" else P
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rows.append(("metrics", name, float(fn(Y, X)), _sklearn(name, Y, X)))
    for name, v in M.all_measures(Y, F, P).items():
        if name in SK_NAMES:
            X = F if R.get_measure(name).inputs == "scores" else P
            rows.append(("all_measures", name, v, _sklearn(name, Y, X)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        every = M.all_measures(Y, F, P, measures="all")
    for name, v in every.items():
        if name in SK_NAMES:
            X = F if R.get_measure(name).inputs == "scores" else P
            rows.append(("all_measures(measures='all')", name, v, _sklearn(name, Y, X)))
    for name in R.measure_names():
        if name not in SK_NAMES:
            continue
        spec = R.get_measure(name)
        X = F if spec.inputs == "scores" else P
        est = _Fixed(P, F)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ours = float(get_scorer(name)(est, None, Y))
        sign = -1.0 if not spec.greater_is_better else 1.0
        rows.append(("scorers", name, sign * ours, _sklearn(name, Y, X)))
    return rows


class _Fixed(ClassifierMixin, BaseEstimator):
    """A fitted stand-in whose predict/decision_function return the given matrices (an
    estimator by scikit-learn's contract: its scorers read the estimator's tags)."""

    def __init__(self, P, F):
        self.P, self.F = P, F
        self.classes_ = [np.array([0, 1])] * P.shape[1]

    def predict(self, X):
        return self.P

    def decision_function(self, X):
        return self.F

    def fit(self, X, Y):
        return self


def test_every_scikit_learn_name_gives_scikit_learn_number():
    rows = _walk()
    compared = [r for r in rows if r[3] is not None]
    refused = {(s, n) for s, n, _, sk in rows if sk is None}
    differ = {(s, n) for s, n, ours, sk in compared if abs(ours - sk) > TOL}
    old = {("metrics", n) for n in OLD_SPELLINGS}
    assert differ - old == KNOWN, sorted(differ - old)
    # the names compared on each surface: 46 in all
    per_surface = {s: sum(r[0] == s for r in compared) for s, *_ in compared}
    assert per_surface == {"metrics": 2, "all_measures": 1,
                           "all_measures(measures='all')": 21, "scorers": 21}
    # scikit-learn refuses these multi-label inputs: the binary scorers' names and auc
    assert refused <= {("metrics", "precision"), ("metrics", "recall"),
                       ("metrics", "auc"), ("metrics", "jaccard_score")}, refused


@pytest.mark.parametrize("old, new", sorted(OLD_SPELLINGS.items()))
def test_old_spellings_warn_and_name_the_new_one(old, new, monkeypatch):
    Y, F, P = _data()
    X = F if new.startswith("label_ranking") else P
    monkeypatch.setattr(M, "_WARNED", set())
    with pytest.warns(FutureWarning, match=f"{old} is renamed {new}") as got:
        v = getattr(M, old)(Y, X)
    assert len(got) == 1
    assert v == getattr(M, new)(Y, X)  # the old number, for old code
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # once per process: the second call is silent
        getattr(M, old)(Y, X)
    # the number the issue saw differ: scikit-learn's average_precision is another one
    if old == "average_precision":
        assert abs(v - _sklearn("average_precision", Y, F)) > 0.01


def test_command_line_names_are_scikit_learn(tmp_path):
    """``mlcbook evaluate --measures`` with every registered scikit-learn name, on the
    matrices written as files: scikit-learn's numbers."""
    Y, F, P = _data()
    names = [f"L{j}" for j in range(Y.shape[1])]
    for file, A, fmt in (("t.csv", Y, "%d"), ("p.csv", P, "%d"), ("s.csv", F, "%.2f")):
        np.savetxt(tmp_path / file, A, fmt=fmt, delimiter=",", header=",".join(names),
                   comments="")
    sk = [n for n in R.measure_names() if n in SK_NAMES]
    r = run("evaluate", "t.csv", "p.csv", "--scores", "s.csv", "--measures", ",".join(sk),
            "--profile", "none", "--format", "json",
            cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)["measures"]
    assert len(got) == len(sk) == 21
    for name in sk:
        X = F if R.get_measure(name).inputs == "scores" else P
        want = _sklearn(name, Y, X)
        assert want is not None and abs(got[name] - want) <= TOL, name


def test_one_name_one_number_across_the_surfaces():
    """Every key of ``all_measures`` (Table 1 and ``measures="all"``) gives the number
    that ``all_measures(measures=[key])`` and the registry's spec give: the issue's case
    was Table 1's ``average_precision`` (label-ranking average precision, 0.852 there)
    against ``measures=["average_precision"]`` (scikit-learn's, 0.610)."""
    Y, F, P = _data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table1 = M.all_measures(Y, F, P)
        every = M.all_measures(Y, F, P, measures="all")
        checked = 0
        for source in (table1, every):
            for name, v in source.items():
                alone = M.all_measures(Y, F, P, measures=[name])[name]
                spec = R.get_measure(name)
                direct = spec.compute(Y, F if spec.inputs == "scores" else P)
                # the same function on the same input: equal up to the order of sums
                assert alone == pytest.approx(v, abs=TOL, nan_ok=True), name
                assert direct == pytest.approx(v, abs=TOL, nan_ok=True), name
                checked += 1
    # measures="all": the 52 registered less the 11 that need a parameter (k, w, ...)
    assert checked == len(table1) + len(every) == 11 + 41
    # Table 1's "average precision" is the registry's label-ranking one, not scikit-learn's
    lrap = table1["label_ranking_average_precision"]
    assert lrap == pytest.approx(skm.label_ranking_average_precision_score(Y, F), abs=TOL)
    assert abs(lrap - _sklearn("average_precision", Y, F)) > 0.01
    with pytest.raises(KeyError, match="label_ranking_average_precision"):
        table1["average_precision"]
