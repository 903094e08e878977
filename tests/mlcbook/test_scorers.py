"""mlcbook's measures and losses as scikit-learn scorers.

Every scorer value is compared with the measure computed directly on the
estimator's output (same arithmetic: exact equality, sign flipped for losses);
``cross_validate`` and ``GridSearchCV`` are checked against a hand-written loop
over the same folds.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.metrics import get_scorer as sk_get_scorer
from sklearn.model_selection import GridSearchCV, KFold, cross_validate
from sklearn.tree import DecisionTreeClassifier

from mlcbook import losses as L
from mlcbook import metrics as M
from mlcbook import registry as R
from mlcbook.learners import LIMO, LabelPowerset, MLkNN, RAkEL
from mlcbook.scorers import (
    DEFAULT_THRESHOLDS,
    LOSSES,
    SCORE_BASED,
    get_scorer,
    scorer_names,
    scoring,
)


def data(seed=0, n=60, d=6, K=4):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    Y = (X @ rng.normal(size=(d, K)) + rng.normal(size=(n, K)) > 0.3).astype(int)
    Y[0], Y[1] = 1, 0
    return X, Y


PARAMS = {  # the losses' required parameters (K = 4)
    "binomial_loss": {"k": 2},
    "polynomial_loss": {"alpha": 3.0},
    "owa_loss": {"w": [0.4, 0.3, 0.2, 0.1]},
    "choquet_loss": {"mu": L.subset_capacity(4)},
    "covering_loss": {"covering": [[0, 1], [2, 3]]},
    **{f"{m}_at_k": {"k": 2} for m in ("precision", "recall", "ndcg", "coverage")},
    **{f"ps{m}_at_k": {"k": 2, "propensity": [0.5, 0.4, 0.9, 0.2]}
       for m in ("precision", "ndcg")},
}


def test_scorer_names_are_the_registry_and_the_constants_follow_it():
    assert scorer_names() == sorted(R.measure_names())
    assert SCORE_BASED == set(R.measure_names(inputs="scores"))
    assert LOSSES == {s.name for s in R.measure_specs() if not s.greater_is_better}


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
def test_every_scorer_equals_its_measure_with_the_sign_of_scikit_learn():
    X, Y = data()
    mlknn = MLkNN(k=5).fit(X, Y)
    P, F = mlknn.predict(X), mlknn.decision_function(X)
    for spec in R.measure_specs():
        out = F if spec.inputs == "scores" else P
        sign = 1.0 if spec.greater_is_better else -1.0
        params = PARAMS.get(spec.name, {})
        want = sign * spec.compute(Y, out, **params)
        assert get_scorer(spec.name, **params)(mlknn, X, Y) == want, spec.name
        if not spec.greater_is_better:  # scikit-learn's spelling of a loss's scorer
            assert get_scorer(f"neg_{spec.name}", **params)(mlknn, X, Y) == want


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
def test_scorers_agree_with_scikit_learns_own_where_it_has_one():
    X, Y = data(1)
    lp = LabelPowerset(DecisionTreeClassifier(max_depth=3, random_state=0)).fit(X, Y)
    names = R.measure_names(convention="scikit-learn")
    sk_names = [n for n in names if R.get_measure(n).sklearn_scorer]
    assert len(sk_names) == 19  # accuracy, 4 x {precision, recall, f1, jaccard}, 2 ranking
    for name in sk_names:
        # the same counts and divisions (ranking: the same per-label sums); 1e-12
        # covers a different order of summation
        assert get_scorer(name)(lp, X, Y) == pytest.approx(
            sk_get_scorer(name)(lp, X, Y), abs=1e-12
        ), name


def test_cross_validate_with_three_mlcbook_scorers_on_lp_rakel_and_mlknn():
    """The issue's demonstration; values recomputed fold by fold by hand."""
    X, Y = data(2, n=90)
    sc = scoring("hamming_loss", "f1_macro", "ranking_loss")
    cv = KFold(3, shuffle=True, random_state=0)
    models = {
        "LP": LabelPowerset(DecisionTreeClassifier(random_state=0)),
        "RAkEL": RAkEL(k=2, m=4, random_state=0),
        "MLkNN": MLkNN(k=5),
    }
    for label, model in models.items():
        res = cross_validate(model, X, Y, cv=cv, scoring=sc, error_score="raise")
        print(
            label,
            {
                k: np.round(v, 4).tolist()
                for k, v in res.items()
                if k.startswith("test_")
            },
        )
        for f, (tr, te) in enumerate(cv.split(X)):
            m = clone(model).fit(X[tr], Y[tr])
            P = m.predict(X[te])
            F = (
                m.decision_function(X[te])
                if hasattr(m, "decision_function")
                else m.predict_proba(X[te])
            )
            assert res["test_hamming_loss"][f] == -M.hamming_loss(Y[te], P)
            # scikit-learn's name: its 0/0 = 0
            assert res["test_f1_macro"][f] == M.f_measure(
                Y[te], P, 1.0, "macro", zero_division=0.0
            )
            assert res["test_ranking_loss"][f] == -M.ranking_loss(Y[te], F)


def test_grid_search_picks_the_parameter_with_the_best_scorer_value():
    X, Y = data(3, n=90)
    cv = KFold(3, shuffle=True, random_state=1)
    grid = GridSearchCV(
        MLkNN(),
        {"k": [1, 3, 7]},
        cv=cv,
        scoring=get_scorer("binomial_loss", k=2),
        error_score="raise",
    )
    grid.fit(X, Y)
    means = []
    for k in (1, 3, 7):
        vals = [
            -L.binomial_loss(Y[te], MLkNN(k=k).fit(X[tr], Y[tr]).predict(X[te]), 2)
            for tr, te in cv.split(X)
        ]
        means.append(np.mean(vals))
    np.testing.assert_allclose(
        grid.cv_results_["mean_test_score"], means, rtol=0, atol=1e-15
    )  # np.mean of the same three floats
    assert grid.best_params_["k"] == (1, 3, 7)[int(np.argmax(means))]


def test_scores_binarised_at_a_documented_threshold():
    X, Y = data(4)
    mlknn = MLkNN(k=5).fit(X, Y)
    Pr = mlknn.predict_proba(X)
    limo = LIMO(n_iter=400, random_state=0).fit(X, Y)
    D = limo.decision_function(X)
    assert DEFAULT_THRESHOLDS == {"predict_proba": 0.5, "decision_function": 0.0}
    s = get_scorer("hamming_loss", response_method="predict_proba")
    assert s(mlknn, X, Y) == -M.hamming_loss(Y, (Pr > 0.5).astype(int))
    s = get_scorer("micro_f1", response_method="decision_function", threshold=0.25)
    assert s(limo, X, Y) == M.f_measure(Y, (D > 0.25).astype(int), 1.0, "micro")
    s = get_scorer("hamming_loss", response_method="decision_function")
    assert s(limo, X, Y) == -M.hamming_loss(Y, (D > 0).astype(int))
    # the soft losses take the scores themselves
    s = get_scorer(
        "polynomial_loss", alpha=2.0, response_method="predict_proba", threshold=None
    )
    assert s(mlknn, X, Y) == -L.polynomial_loss(Y, Pr, 2.0)
    s = get_scorer(
        "binomial_loss", k=2, response_method="decision_function", threshold=None
    )
    assert s(limo, X, Y) == pytest.approx(
        -L.binomial_loss(Y, 1.0 / (1.0 + np.exp(-D)), 2), abs=1e-12
    )  # expit vs exp


_PLAIN = [s.name for s in R.measure_specs() if not s.required_params]


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), name=st.sampled_from(_PLAIN))
def test_hypothesis_sample_weight_reaches_the_measure(seed, name):
    X, Y = data(seed % 1000)
    w = np.random.default_rng(seed).integers(0, 4, len(Y)).astype(float)
    w[0] = 1.0
    m = MLkNN(k=3).fit(X, Y)
    spec = R.get_measure(name)
    out = m.predict(X) if spec.inputs == "predictions" else m.decision_function(X)
    sign = 1.0 if spec.greater_is_better else -1.0
    # repeated rows are the independent reference for integer weights
    Yr, Or = np.repeat(Y, w.astype(int), axis=0), np.repeat(out, w.astype(int), axis=0)
    assert get_scorer(name)(m, X, Y, sample_weight=w) == pytest.approx(
        sign * spec.compute(Yr, Or), abs=1e-12, nan_ok=True
    )  # weighted vs repeated: order of sums


def test_bad_requests_are_refused():
    with pytest.raises(ValueError, match="unknown scorer 'hamming'"):
        get_scorer("hamming")
    with pytest.raises(TypeError, match="needs the parameter k="):
        get_scorer("binomial_loss")
    with pytest.raises(ValueError, match="takes no threshold"):
        get_scorer("ranking_loss", threshold=0.5)
    with pytest.raises(ValueError, match="response_method must be one of"):
        get_scorer("ranking_loss", response_method="predict")
    with pytest.raises(ValueError, match="threshold needs response_method"):
        get_scorer("hamming_loss", threshold=0.5)
    with pytest.raises(ValueError, match="needs binary predictions"):
        get_scorer("hamming_loss", response_method="predict_proba", threshold=None)
    with pytest.raises(ValueError, match="threshold must be finite"):
        get_scorer(
            "hamming_loss", response_method="predict_proba", threshold=float("nan")
        )
    with pytest.raises(TypeError, match="name must be a scorer name"):
        get_scorer(3)
    with pytest.raises(ValueError, match="at least one"):
        scoring()
