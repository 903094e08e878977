"""Names keep their meaning: every scikit-learn name of the registry gives scikit-learn's
value, defaults included, on an edge-case suite and on 1,000 random cases.

The scikit-learn names are the registered measures of ``convention="scikit-learn"``: its
scorer names (``accuracy``, ``{precision,recall,f1,jaccard}_{micro,macro,samples,
weighted}``, ``roc_auc``, ``average_precision``) and its metric names (``hamming_loss``,
``coverage_error``), and the ``neg_`` spelling of the losses.  For a scorer name both
sides are scorers called on the same fitted stand-in estimator (so scikit-learn's
defaults, ``zero_division="warn"`` included, are the ones its scorer uses); a metric
name is compared with the metric function.  An input that scikit-learn refuses (it
raises) is not compared, and the count of such cases is checked too: the suite must
compare far more than it skips.  Nor is a matrix with one label column: scikit-learn
reads it as a binary target, whose micro and macro averages run over the two classes 0
and 1 (a different problem from one label of a multi-label problem).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import metrics as skm
from sklearn.base import BaseEstimator, ClassifierMixin

from mlcbook import registry as R
from mlcbook.scorers import get_scorer

SK_NAMES = R.measure_names(convention="scikit-learn")
SCORER_NAMES = [n for n in SK_NAMES if R.get_measure(n).sklearn_scorer]
METRIC_FUNCTIONS = {  # the scikit-learn names that are metrics, not scorers
    "hamming_loss": skm.hamming_loss,
    "coverage_error": skm.coverage_error,
}
#: the same sums in another order (micro/weighted counts as floats, AUC by Mann-Whitney
#: against scikit-learn's trapezoids, AP's step sum reversed): a few units of 1e-16;
#: 1e-12 leaves room and still catches any difference of definition or default
TOL = 1e-12


def test_the_scikit_learn_names_are_the_ones_listed_here():
    assert set(SCORER_NAMES) <= set(skm.get_scorer_names())
    assert len(SCORER_NAMES) == 19
    assert set(SK_NAMES) == set(SCORER_NAMES) | set(METRIC_FUNCTIONS)


class Fixed(ClassifierMixin, BaseEstimator):
    """A fitted multi-label classifier whose outputs are given: ``predict`` returns ``P``,
    ``decision_function`` and ``predict_proba`` return ``F``."""

    def __init__(self, P=None, F=None):
        self.P, self.F = P, F

    def fit(self, X, Y):
        self.classes_ = [np.array([0, 1])] * np.shape(Y)[1]
        return self

    def predict(self, X):
        return self.P

    def decision_function(self, X):
        return self.F

    def predict_proba(self, X):
        return self.F


def _sk_value(name, Y, P, F, w):
    """scikit-learn's value, or None when scikit-learn refuses the input."""
    kw = {} if w is None else {"sample_weight": w}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if name in METRIC_FUNCTIONS:
                X = F if R.get_measure(name).inputs == "scores" else P
                return float(METRIC_FUNCTIONS[name](Y, X, **kw))
            model = Fixed(P, F).fit(np.zeros((Y.shape[0], 1)), Y)
            return float(skm.get_scorer(name)(model, np.zeros((Y.shape[0], 1)), Y, **kw))
    except (ValueError, TypeError, IndexError, ZeroDivisionError):
        return None


def _our_value(name, Y, P, F, w):
    kw = {} if w is None else {"sample_weight": w}
    model = Fixed(P, F).fit(np.zeros((Y.shape[0], 1)), Y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if name in METRIC_FUNCTIONS:
            X = F if R.get_measure(name).inputs == "scores" else P
            plain = R.get_measure(name).compute(Y, X, **kw)
            neg = -get_scorer(f"neg_{name}")(model, np.zeros((Y.shape[0], 1)), Y, **kw)
            assert plain == neg  # the neg_ scorer is minus the measure, exactly
            return plain
        return float(get_scorer(name)(model, np.zeros((Y.shape[0], 1)), Y, **kw))


def _same(a: float, b: float) -> bool:
    return (np.isnan(a) and np.isnan(b)) or abs(a - b) <= TOL


def _compare(Y, P, F, w=None) -> tuple[int, int]:
    """(compared, refused by scikit-learn) over every scikit-learn name."""
    compared = refused = 0
    if Y.shape[1] == 1:  # a binary target to scikit-learn, not a label matrix
        return 0, 0
    for name in SK_NAMES:
        want = _sk_value(name, Y, P, F, w)
        if want is None:
            refused += 1
            continue
        got = _our_value(name, Y, P, F, w)
        assert _same(got, want), (name, got, want, Y.tolist(), P.tolist(), F.tolist(), w)
        compared += 1
    return compared, refused


def _case(Y, P, F):
    return np.asarray(Y), np.asarray(P), np.asarray(F, dtype=float)


Z = np.zeros((4, 3), dtype=int)
ONE = np.ones((4, 3), dtype=int)
Y0 = np.array([[1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 0]])
P0 = np.array([[1, 0, 0], [0, 0, 0], [1, 0, 1], [0, 0, 0]])
F0 = np.array([[0.9, 0.1, 0.2], [0.3, 0.3, 0.3], [0.8, 0.4, 0.4], [0.1, 0.2, 0.0]])
EDGE = {
    "a label never true nor predicted": _case(Y0, P0, F0),
    "nothing true, nothing predicted": _case(Z, Z, F0),
    "nothing true, some predicted": _case(Z, P0, F0),
    "everything true and predicted": _case(ONE, ONE, F0),
    "everything true, nothing predicted": _case(ONE, Z, F0),
    "one instance": _case(Y0[:1], P0[:1], F0[:1]),
    "one instance, no label": _case(Z[:1], Z[:1], F0[:1]),
    "all scores tied": _case(Y0, P0, np.full((4, 3), 0.5)),
    "ties across labels and rows": _case(Y0, P0, np.round(F0, 0)),
    "negative scores": _case(Y0, P0, F0 - 5.0),
    "perfect ranking": _case(Y0, Y0, Y0 + 0.5 * F0),
    "reversed ranking": _case(Y0, 1 - Y0, -Y0 - 0.5 * F0),
    "many labels, two rows": _case(np.eye(2, 12, dtype=int), np.eye(2, 12, 1, dtype=int),
                                   np.linspace(0, 1, 24).reshape(2, 12)),
    "two label columns": _case(Y0[:, :2], P0[:, :2], F0[:, :2]),
    "boolean matrices": _case(Y0.astype(bool), P0.astype(bool), F0),
}
WEIGHTS = {
    "no weights": None,
    "integer weights": np.array([1.0, 2.0, 3.0, 1.0]),
    "a zero weight": np.array([1.0, 0.0, 2.0, 0.5]),
}


@pytest.mark.parametrize("weights", sorted(WEIGHTS))
@pytest.mark.parametrize("case", sorted(EDGE))
def test_edge_cases_equal_scikit_learn(case, weights):
    Y, P, F = EDGE[case]
    w = WEIGHTS[weights]
    if w is not None and len(w) != len(Y):
        w = np.resize(w, len(Y))
        w[0] = max(w[0], 1.0)  # a positive sum
    compared, refused = _compare(Y, P, F, w)
    assert compared + refused == len(SK_NAMES) and compared >= 1


def test_sparse_label_matrices_equal_scikit_learn():
    """scikit-learn's classification metrics take sparse label matrices; so do ours."""
    Y, P, F = EDGE["a label never true nor predicted"]
    for name in SK_NAMES:
        if R.get_measure(name).inputs == "scores":
            continue
        want = _sk_value(name, sp.csr_matrix(Y), sp.csr_matrix(P), F, None)
        assert want is not None
        assert _same(_our_value(name, sp.csr_matrix(Y), sp.csr_matrix(P), F, None), want), name


def random_case(rng: np.random.Generator):
    """A random problem: 1-25 instances, 2-7 labels, densities from empty to full,
    scores with or without ties, weights (with zeros) or none."""
    n, K = int(rng.integers(1, 26)), int(rng.integers(2, 8))
    dens_y, dens_p = rng.choice([0.0, 0.1, 0.3, 0.5, 0.9, 1.0], 2)
    Y = (rng.random((n, K)) < dens_y).astype(int)
    P = np.where(rng.random((n, K)) < 0.3, 1 - Y, Y) if rng.random() < 0.5 else (
        rng.random((n, K)) < dens_p
    ).astype(int)
    F = rng.normal(size=(n, K)) + Y
    if rng.random() < 0.4:
        F = np.round(F, 0)  # many ties
    w = None
    if rng.random() < 0.3:
        w = rng.integers(0, 4, n).astype(float)
        w[rng.integers(n)] += 1.0  # a positive sum
    return Y, P, F, w


def _metric(name):
    """scikit-learn's function of a name with the scorer's own keywords and sign (the
    scorer's path minus the estimator: 1,000 cases run in seconds, not minutes)."""
    if name in METRIC_FUNCTIONS:
        return METRIC_FUNCTIONS[name], {}, 1.0
    scorer = skm.get_scorer(name)
    return scorer._score_func, dict(scorer._kwargs), float(scorer._sign)


#: precision, recall and F1 of one averaging are the three outputs of one call of
#: ``precision_recall_fscore_support`` (the function each of their scorers calls, with
#: the scorer's keywords and ``beta=1``): one call instead of three per case
PRF = ("precision", "recall", "f1")
PRF_NAMES = {n for n in SK_NAMES if n.rsplit("_", 1)[0] in PRF}


def _sk_values(Y, X_of, theirs, sw):
    """scikit-learn's value of every name on one case (None: scikit-learn refuses it);
    ``X_of(name)`` is the name's input (scores or 0/1 predictions)."""
    values = {}
    for name in SK_NAMES:
        if name in values:
            continue
        fn, kw, sign = theirs[name]
        prf = name in PRF_NAMES
        names = [f"{m}_{name.rsplit('_', 1)[1]}" for m in PRF] if prf else [name]
        try:
            if prf:
                got = skm.precision_recall_fscore_support(Y, X_of(name), **kw, **sw)[:3]
            else:
                got = [fn(Y, X_of(name), **kw, **sw)]
            values.update({n: sign * float(v) for n, v in zip(names, got)})
        except (ValueError, TypeError, IndexError, ZeroDivisionError):
            values.update(dict.fromkeys(names))
    return values


def test_the_shortcut_is_the_scorer():
    """The random cases call scikit-learn's score function with its scorer's keywords
    (precision, recall and F1 of one averaging in one call): the same number as the
    scorer, checked on every edge case."""
    theirs = {name: _metric(name) for name in SK_NAMES}
    for case, (Y, P, F) in EDGE.items():
        if Y.shape[1] == 1:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            values = _sk_values(Y, lambda n: F if R.get_measure(n).inputs == "scores" else P,
                                theirs, {})
        for name in SK_NAMES:
            want = _sk_value(name, Y, P, F, None)
            assert (values[name] is None) == (want is None), (case, name)
            assert want is None or _same(values[name], want), (case, name)


def test_one_thousand_random_cases_equal_scikit_learn():
    rng = np.random.default_rng(20240531)
    theirs = {name: _metric(name) for name in SK_NAMES}
    compared = refused = 0
    for _ in range(1000):
        Y, P, F, w = random_case(rng)
        sw = {} if w is None else {"sample_weight": w}

        def x_of(name, P=P, F=F):
            return F if R.get_measure(name).inputs == "scores" else P

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            wanted = _sk_values(Y, x_of, theirs, sw)
            for name in SK_NAMES:
                spec, want = R.get_measure(name), wanted[name]
                if want is None:
                    refused += 1
                    continue
                got = spec.compute(Y, x_of(name), **sw)
                if name not in METRIC_FUNCTIONS:  # a scorer: the value with its sign
                    got *= 1.0 if spec.greater_is_better else -1.0
                assert _same(got, want), (name, got, want, Y.tolist(), P.tolist(), F.tolist(), w)
                compared += 1
    # every case compares the names scikit-learn accepts there (a release before 1.6
    # refuses roc_auc with a one-class label)
    assert compared + refused == 1000 * len(SK_NAMES)
    assert compared > 0.8 * 1000 * len(SK_NAMES), (compared, refused)
    print(f"1,000 random cases: {compared} values compared, {refused} refused by scikit-learn")
