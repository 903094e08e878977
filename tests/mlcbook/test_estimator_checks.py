"""scikit-learn's common estimator checks, in multi-label mode, for every learner.

Every estimator declares itself multi-output only and multi-label (tags), so
scikit-learn runs its checks with a 0/1 label *column* as ``y`` and adds its
multi-label checks.  Each check either passes or is listed below with the
reason it cannot apply -- as scikit-learn lists the checks that do not apply to
an estimator (``expected_failed_checks``).  The test is strict both ways: a
check that fails without being listed fails the test, and so does a listed
check that passes (the list never goes stale).

Most of the listed checks feed data outside the multi-label contract: a 1-D
``y`` (mlcbook reads a 1-D ``Y`` as the labels of *one* instance), class values
other than 0/1, or single-output shapes.
"""

from __future__ import annotations

import inspect
import warnings

import pytest
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.estimator_checks import check_estimator

from mlcbook.learners import (
    GFM,
    LIMO,
    BlendedLinearClassifier,
    InstanceThreshold,
    LabelPowerset,
    LabelThreshold,
    LossMinimizingKNN,
    MLkNN,
    RAkEL,
    TunedThresholdMultiLabelCV,
)

# ------------------------------------------------------------------ reasons
Y_VALUES = (
    "the check's target takes values other than 0/1 (e.g. {1, 2} or strings); the "
    "estimator takes Y as a 0/1 indicator matrix and refuses other values with a "
    "ValueError/TypeError naming Y"
)
ONE_D = (
    "the check passes a 1-D y of n_samples values; mlcbook reads a 1-D Y as the "
    "labels of one instance (DESIGN.md), so fit says that X and Y differ in rows"
)
PRED_SHAPE = (
    "asserts single-output predictions of shape (n_samples,); a multi-output-only "
    "estimator predicts (n_samples, n_labels)"
)
PROBA_SHAPE = (
    "expects a binary classifier's predict_proba of shape (n_samples, 2); a "
    "multi-label predict_proba has shape (n_samples, n_labels)"
)
CLASSES_ARRAY = (
    "indexes classes_ as one array (classes_[decision > 0]); the multi-label "
    "convention used here, as by ClassifierChain and MultiOutputClassifier, is a "
    "list of per-label arrays [0, 1]"
)
INT8 = (
    "design choice, not an inapplicable check: predictions are int8 0/1 matrices (8x "
    "less memory on the benchmark data) while the check wants y's dtype (int64); the "
    "values are equal"
)
PROBA_OPEN = (
    "the probabilities are empirical estimates that are exactly 0 or 1 where tree "
    "leaves are pure or all neighbours agree; the check wants 0 < p < 1 strictly"
)
GFM_ROUND = (
    "GFM predicts the F1-optimal label set (Waegeman et al. 2014), by design not "
    "the rounding of its marginal probabilities"
)
DECISION_IS_PROBA = (
    "MLkNN's decision_function is its posterior P(y_j = 1 | x) (threshold "
    "0.5, not 0), and classes_ is a list of per-label arrays; the check "
    "wants decision > 0 to give predict through classes_[...]"
)
THRESHOLD_F = (
    "fit(F, Y) thresholds a score matrix F of Y's own shape (one column of "
    "scores per label); the checks' X has a different number of columns than "
    "their y, whose values are not always 0/1"
)
INSTANCE_FIT = (
    "fit(F, Y, X) and predict(F, X) take the scores and the features; the "
    "checks call fit(X, y) and predict(X)"
)

MULTILABEL_COMMON = {
    "check_estimators_dtypes": Y_VALUES,
    "check_classifier_data_not_an_array": Y_VALUES,
    "check_classifiers_classes": Y_VALUES,
    "check_fit2d_1feature": Y_VALUES,
    "check_classifiers_one_label": ONE_D,
    "check_classifier_not_supporting_multiclass": ONE_D,
    "check_classifiers_train": PRED_SHAPE,
}

#: (estimator as checked, {check name: reason it cannot apply})
CASES = [
    (
        LabelPowerset(DecisionTreeClassifier(random_state=0)),
        {
            **MULTILABEL_COMMON,
            "check_estimator_sparse_array": PROBA_SHAPE,
            "check_estimator_sparse_matrix": PROBA_SHAPE,
            "check_classifiers_multilabel_output_format_predict_proba": PROBA_OPEN,
        },
    ),
    (
        RAkEL(k=2, m=3, random_state=0),
        {
            **MULTILABEL_COMMON,
            "check_classifier_multioutput": CLASSES_ARRAY,
        },
    ),
    (
        MLkNN(k=3),
        {
            **MULTILABEL_COMMON,
            "check_estimator_sparse_array": PROBA_SHAPE,
            "check_estimator_sparse_matrix": PROBA_SHAPE,
            "check_classifier_multioutput": DECISION_IS_PROBA,
            "check_classifiers_multilabel_output_format_predict": INT8,
            "check_decision_proba_consistency": ONE_D,
        },
    ),
    (
        GFM(k=3),
        {
            **MULTILABEL_COMMON,
            "check_estimator_sparse_array": PROBA_SHAPE,
            "check_estimator_sparse_matrix": PROBA_SHAPE,
            "check_classifier_multioutput": GFM_ROUND,
            "check_classifiers_multilabel_output_format_predict": INT8,
            "check_classifiers_multilabel_output_format_predict_proba": PROBA_OPEN,
        },
    ),
    (
        LIMO(n_iter=200, random_state=0),
        {
            **MULTILABEL_COMMON,
            "check_classifier_multioutput": CLASSES_ARRAY,
            "check_classifiers_multilabel_output_format_predict": INT8,
        },
    ),
    (
        BlendedLinearClassifier(gamma=1e-3, max_iter=30),
        {
            **MULTILABEL_COMMON,
            "check_estimator_sparse_array": PROBA_SHAPE,
            "check_estimator_sparse_matrix": PROBA_SHAPE,
            "check_classifier_multioutput": CLASSES_ARRAY,
            "check_classifiers_multilabel_output_format_predict": INT8,
            "check_decision_proba_consistency": ONE_D,
        },
    ),
    (
        TunedThresholdMultiLabelCV(MLkNN(k=3), cv=2, thresholds=10),
        {
            **MULTILABEL_COMMON,
            "check_classifier_multioutput": CLASSES_ARRAY,
            "check_classifiers_multilabel_output_format_predict": INT8,
        },
    ),
    (
        LossMinimizingKNN(n_neighbors=3),
        {
            **MULTILABEL_COMMON,
            "check_classifiers_multilabel_output_format_predict": INT8,
        },
    ),
    (
        LabelThreshold(),
        {
            name: THRESHOLD_F
            for name in (
                "check_fit_score_takes_y",
                "check_estimators_overwrite_params",
                "check_dont_overwrite_parameters",
                "check_estimators_fit_returns_self",
                "check_readonly_memmap_input",
                "check_n_features_in_after_fitting",
                "check_positive_only_tag_during_fit",
                "check_estimators_dtypes",
                "check_dtype_object",
                "check_pipeline_consistency",
                "check_estimators_nan_inf",
                "check_estimators_pickle",
                "check_f_contiguous_array_estimator",
                "check_methods_sample_order_invariance",
                "check_methods_subset_invariance",
                "check_fit2d_1sample",
                "check_fit2d_1feature",
                "check_dict_unchanged",
                "check_fit_idempotent",
                "check_fit_check_is_fitted",
                "check_n_features_in",
                "check_fit2d_predict1d",
            )
        },
    ),
    (
        InstanceThreshold(),
        {
            name: INSTANCE_FIT
            for name in (
                "check_fit_score_takes_y",
                "check_estimators_overwrite_params",
                "check_dont_overwrite_parameters",
                "check_estimators_fit_returns_self",
                "check_readonly_memmap_input",
                "check_estimators_unfitted",
                "check_n_features_in_after_fitting",
                "check_positive_only_tag_during_fit",
                "check_estimators_dtypes",
                "check_complex_data",
                "check_dtype_object",
                "check_estimators_empty_data_messages",
                "check_pipeline_consistency",
                "check_estimators_nan_inf",
                "check_estimator_sparse_tag",
                "check_estimator_sparse_array",
                "check_estimator_sparse_matrix",
                "check_estimators_pickle",
                "check_f_contiguous_array_estimator",
                "check_methods_sample_order_invariance",
                "check_methods_subset_invariance",
                "check_fit2d_1sample",
                "check_fit2d_1feature",
                "check_dict_unchanged",
                "check_fit_idempotent",
                "check_fit_check_is_fitted",
                "check_n_features_in",
                "check_fit1d",
                "check_fit2d_predict1d",
                "check_requires_y_none",
            )
        },
    ),
]


def _check_name(check) -> str:
    f = getattr(check, "func", check)  # functools.partial around the check
    return getattr(f, "__name__", str(f))


def run_common_checks(estimator) -> list[tuple[str, str, BaseException | None]]:
    """(check name, 'passed'/'failed'/'skipped', exception) for every common check."""
    results = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if (
            "callback" in inspect.signature(check_estimator).parameters
        ):  # sklearn >= 1.6

            def collect(**kw):
                results.append((kw["check_name"], kw["status"], kw.get("exception")))

            check_estimator(estimator, on_fail=None, on_skip=None, callback=collect)
        else:  # pragma: no cover - scikit-learn 1.4, 1.5
            for est, check in check_estimator(estimator, generate_only=True):
                try:
                    check(est)
                    results.append((_check_name(check), "passed", None))
                except pytest.skip.Exception as exc:
                    results.append((_check_name(check), "skipped", exc))
                except Exception as exc:  # noqa: BLE001 - every failure is collected
                    name = _check_name(check)
                    skip = type(exc).__name__ == "SkipTest"
                    results.append((name, "skipped" if skip else "failed", exc))
    return results


def summary(estimator, expected: dict[str, str]) -> dict[str, int]:
    """Counts of passed / not applicable / skipped checks (for the report)."""
    res = run_common_checks(estimator)
    return {
        "passed": sum(s == "passed" for _, s, _ in res),
        "not applicable": sum(s == "failed" and n in expected for n, s, _ in res),
        "skipped by scikit-learn": sum(s == "skipped" for _, s, _ in res),
        "unexpected failures": sum(
            s == "failed" and n not in expected for n, s, _ in res
        ),
    }


@pytest.mark.parametrize(
    "estimator, expected",
    CASES,
    ids=lambda c: type(c).__name__ if not isinstance(c, dict) else "",
)
def test_common_checks_pass_or_are_listed_with_a_reason(estimator, expected):
    results = run_common_checks(estimator)
    ran = {name for name, _, _ in results}
    failed = {name for name, status, _ in results if status == "failed"}
    unexpected = {
        (n, f"{type(e).__name__}: {e}"[:300])
        for n, s, e in results
        if s == "failed" and n not in expected
    }
    assert not unexpected, (
        f"checks failing without a listed reason: {sorted(unexpected)}"
    )
    # a listed check must fail on every run of it (no stale entries)
    stale = sorted(n for n in expected if n in ran and n not in failed)
    assert not stale, f"listed as not applicable but passing: {stale}"
    n_passed = sum(status == "passed" for _, status, _ in results)
    # the fit-free checks pass for every estimator (11 in scikit-learn 1.7's suite, 10 in 1.9's)
    assert n_passed >= 10


def test_reasons_are_given_for_every_listed_check():
    for estimator, expected in CASES:
        for name, reason in expected.items():
            assert name.startswith("check_") and len(reason) > 40, (estimator, name)


if __name__ == "__main__":  # print the per-estimator counts of the report
    for est, exp in CASES:
        print(f"{type(est).__name__:<24s}", summary(est, exp))
