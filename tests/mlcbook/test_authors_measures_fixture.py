"""The authors' eleven measures (measure/*.m, run by GNU Octave) on fixed inputs.

``tests/data/wu_zhou_measures_octave.json`` holds the outputs of the authors'
``perform_measure.m`` on fixed random scores and edge cases (made by
``python -m mlcrepro.wu_zhou2017.octave_fixtures``; provenance inside).  On the cases
without tied scores and without rows whose labels are all relevant or all irrelevant,
the measures' definitions leave no choice, and :func:`mlcbook.metrics.all_measures`
with the authors' 0/0 = 0 must give the same numbers.  The other five cases exercise
the authors' conventions (ties ranked by sort position, rows with all or no labels left
out of ranking loss and average precision, coverage -1 without a relevant label, F1 of an
empty label or instance 0, a single instance): there ``convention="wu_zhou"`` must give
Octave's numbers, measure by measure and through :func:`all_measures`.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mlcbook import metrics
from mlcbook.metrics import WU_ZHOU_MEASURES, all_measures

FIXTURE = Path(__file__).parents[1] / "data" / "wu_zhou_measures_octave.json"
# the fixture's key of each of our measure names (perform_measure.m's field names)
_FIELD = {
    k: {"label_ranking_average_precision": "average_precision"}.get(k, k)
    .replace("_f1", "_F1")
    .replace("_auc", "_AUC")
    for k in WU_ZHOU_MEASURES
}
# cases where every row has a relevant and an irrelevant label and no scores tie
_UNAMBIGUOUS = ("random", "empty_predictions", "labels_never_and_always")
# cases where a convention decides the value
_CONVENTION = (
    "rows_all_and_none",
    "ties",
    "nothing_predicted",
    "every_row_all_or_none",
    "single_instance",
)


def _inputs(case):
    Y, F, P = (np.array(case["inputs"][k]) for k in ("y_true", "v_pred", "y_pred"))
    return Y.astype(int), F, P.astype(int)


def _single_measures(Y, F, P):
    """Each measure through its own function, in the authors' conventions."""
    wz = {"convention": "wu_zhou"}
    return {
        "hamming_loss": metrics.hamming_loss(Y, P),
        "ranking_loss": metrics.ranking_loss(Y, F, **wz),
        "one_error": metrics.one_error(Y, F),
        "coverage": metrics.coverage(Y, F, **wz),
        "label_ranking_average_precision": metrics.label_ranking_average_precision(Y, F, **wz),
        "macro_f1": metrics.f_measure(Y, P, average="macro", zero_division=0.0),
        "instance_f1": metrics.f_measure(Y, P, average="instance", zero_division=0.0),
        "micro_f1": metrics.f_measure(Y, P, average="micro", zero_division=0.0),
        "macro_auc": metrics.auc(Y, F, "macro", **wz),
        "instance_auc": metrics.auc(Y, F, "instance", **wz),
        "micro_auc": metrics.auc(Y, F, "micro", **wz),
    }


@pytest.fixture(scope="module")
def cases():
    return json.loads(FIXTURE.read_text(encoding="utf-8"))["cases"]


def test_every_case_says_what_it_exercises_and_has_eleven_outputs(cases):
    assert len(cases) >= 8
    for case in cases.values():
        assert case["exercises"]
        assert set(case["outputs"]) == set(_FIELD.values())


@pytest.mark.parametrize("name", _UNAMBIGUOUS)
def test_unambiguous_cases_equal_our_measures(cases, name):
    c = cases[name]
    Y, F, P = (np.array(c["inputs"][k]) for k in ("y_true", "v_pred", "y_pred"))
    assert all(0 < r.sum() < r.size for r in Y)  # no row with all or no labels
    assert all(len(np.unique(r)) == r.size for r in F)  # no tied scores in a row
    assert len(np.unique(F)) == F.size  # nor anywhere (micro-AUC)
    ours = all_measures(Y.astype(int), F, P.astype(int), zero_division=0.0)
    for key, field in _FIELD.items():
        # the same sums in another order: rounding only
        assert ours[key] == pytest.approx(c["outputs"][field], rel=1e-12, abs=1e-12), key


def test_the_convention_cases_exercise_what_they_say(cases):
    Y, F, P = _inputs(cases["rows_all_and_none"])
    assert Y[0].all() and not Y[1].any()
    Y, F, P = _inputs(cases["ties"])
    assert any(len(np.unique(r)) < r.size for r in F) and len(np.unique(F[2])) == 1
    Y, F, P = _inputs(cases["nothing_predicted"])
    assert not P.any()
    Y, F, P = _inputs(cases["every_row_all_or_none"])
    assert all(r.all() or not r.any() for r in Y)
    assert _inputs(cases["single_instance"])[0].shape[0] == 1
    # and they do move the values: the default convention differs from Octave's
    moved = 0
    for name in _CONVENTION:
        ours = all_measures(*_inputs(cases[name]), zero_division=1.0)
        out = cases[name]["outputs"]
        moved += any(not np.isclose(ours[k], out[f], equal_nan=True) for k, f in _FIELD.items())
    assert moved == len(_CONVENTION)


@pytest.mark.parametrize("name", _UNAMBIGUOUS + _CONVENTION)
def test_wu_zhou_convention_equals_the_authors_measures(cases, name):
    Y, F, P = _inputs(cases[name])
    expected = {k: float(cases[name]["outputs"][f]) for k, f in _FIELD.items()}
    together = all_measures(Y, F, P, convention="wu_zhou")
    single = _single_measures(Y, F, P)
    assert list(together) == list(WU_ZHOU_MEASURES)
    for key in WU_ZHOU_MEASURES:
        # NaN where the authors' code divides by zero rows (every row all or none);
        # otherwise ratios of small counts summed in another order: 1e-12 is rounding
        assert together[key] == pytest.approx(expected[key], rel=1e-12, abs=1e-12, nan_ok=True), (
            key
        )
        assert single[key] == pytest.approx(expected[key], rel=1e-12, abs=1e-12, nan_ok=True), key


def test_wu_zhou_defaults_to_the_authors_zero_division():
    # row 1 and label 1 have no true and no predicted label: F1 0/0
    Y = np.array([[1, 0], [0, 0]])
    P = Y.copy()
    F = np.array([[0.9, 0.1], [0.2, 0.3]])
    wz = all_measures(Y, F, P, convention="wu_zhou")
    assert (wz["instance_f1"], wz["macro_f1"], wz["micro_f1"]) == (0.5, 0.5, 1.0)
    ours = all_measures(Y, F, P, convention="wu_zhou", zero_division=1.0)
    assert (ours["instance_f1"], ours["macro_f1"]) == (1.0, 1.0)
    assert all_measures(Y, F, P)["instance_f1"] == 1.0  # mlcbook's default


def test_unknown_convention_is_refused():
    with pytest.raises(ValueError, match="convention"):
        all_measures([[0, 1]], [[0.1, 0.2]], [[0, 1]], convention="matlab")
