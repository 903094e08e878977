"""The authors' eleven measures (measure/*.m, run by GNU Octave) on fixed inputs.

``tests/data/wu_zhou_measures_octave.json`` holds the outputs of the authors'
``perform_measure.m`` on fixed random scores and edge cases (made by
``python -m mlcrepro.wu_zhou2017.octave_fixtures``; provenance inside).  On the cases
without tied scores and without rows whose labels are all relevant or all irrelevant,
the measures' definitions leave no choice, and :func:`mlcbook.metrics.all_measures`
with the authors' 0/0 = 0 must give the same numbers.  The other cases record the
authors' conventions for ties and degenerate rows; they are reference data here.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mlcbook.metrics import WU_ZHOU_MEASURES, all_measures

FIXTURE = Path(__file__).parents[1] / "data" / "wu_zhou_measures_octave.json"
# the fixture's key of each of our measure names (perform_measure.m's field names)
_FIELD = {k: k.replace("_f1", "_F1").replace("_auc", "_AUC") for k in WU_ZHOU_MEASURES}
# cases where every row has a relevant and an irrelevant label and no scores tie
_UNAMBIGUOUS = ("random", "empty_predictions", "labels_never_and_always")


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
