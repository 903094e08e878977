"""The port of demo.m's thresholds against the authors' MATLAB functions run by GNU Octave.

The reference outputs are the committed fixture ``tests/data/wu_zhou_thresholds_octave.json``
(inputs, outputs and provenance; made by ``python -m mlcrepro.wu_zhou2017.octave_fixtures``
with ``repro/octave/threshold_cases.m``).  No Octave is needed here.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mlcbook.learners import released_thresholds as rt

FIXTURE = Path(__file__).parents[1] / "data" / "wu_zhou_thresholds_octave.json"

# Scores computed here as X @ W (NumPy/BLAS) and in Octave differ in the last bit
# (measured: 4.4e-16); the cuts are midpoints of such scores.
SCORE_ATOL = 1e-12
# LIBSVM's epsilon-SVR in scikit-learn and LIBSVM 3.37 in Octave: measured difference
# 1.9e-15 on the fixture.  A different solver path would differ at the order of the
# stopping tolerance (1e-3), so 1e-12 separates "the same computation" from anything else.
SVR_ATOL = 1e-12


@pytest.fixture(scope="module")
def fixture():
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    inputs = {k: np.array(v, dtype=float) for k, v in data["inputs"].items()}
    outputs = {k: np.array(v, dtype=float) for k, v in data["outputs"].items()}
    return data["provenance"], inputs, outputs


def test_fixture_exercises_the_edge_cases(fixture):
    prov, I, _ = fixture
    assert prov["octave"] and prov["reference_sha256"]["limo/best_hloss_threshold.m"]
    F, Y = I["F"], I["Y"]
    assert Y[0].all() and not Y[1].any()  # a row with every label, one with none
    assert Y[:, 6].sum() == 1 and Y[:, 7].sum() == 29  # labels relevant once, all but once
    row = np.sort(F[2])
    assert np.any((np.diff(row) > 0) & (np.diff(row) <= 1e-8))  # a near-tie below 1e-8
    assert any(len(np.unique(F[i])) < F.shape[1] for i in range(F.shape[0]))  # exact ties


def test_row_and_column_cuts_equal_octave_exactly(fixture):
    _, I, O = fixture
    F, Y = I["F"], I["Y"]
    rows = [[*rt.best_hamming_cut(F[i], Y[i]), *rt.best_f1_cut(F[i], Y[i])] for i in range(30)]
    cols = [
        [*rt.best_hamming_cut(F[:, j], Y[:, j]), *rt.best_f1_cut(F[:, j], Y[:, j])]
        for j in range(8)
    ]
    # the same IEEE operations in the same order on the same numbers: equal to the bit
    np.testing.assert_array_equal(np.array(rows), O["row_cuts"])
    np.testing.assert_array_equal(np.array(cols), O["column_cuts"])
    np.testing.assert_array_equal(rt.column_cuts(F, Y, "macro-F1"), O["column_macro_F1"][0])
    np.testing.assert_array_equal(rt.column_cuts(F, Y, "micro-F1"), O["column_micro_F1"][0])
    np.testing.assert_array_equal(rt.column_cuts(F, Y, "hloss"), O["column_hloss"][0])
    np.testing.assert_array_equal(rt.row_cuts(F, Y, "hloss"), O["row_cuts"][:, 0])
    np.testing.assert_array_equal(rt.row_cuts(F, Y, "example-F1"), O["row_cuts"][:, 2])


def test_svr_row_threshold_and_predictions_equal_octave(fixture):
    _, I, O = fixture
    Xtr, Xte, W, Ytr = I["Xtr"], I["Xte"], I["W"], I["Ytr"]
    np.testing.assert_allclose(Xte @ W, O["predict_value"], rtol=0, atol=SCORE_ATOL)
    svr = rt.RowThresholdSVR("hloss").fit(Xtr @ W, Ytr, Xtr)
    np.testing.assert_allclose(svr.thresholds(Xtr), O["svr_train_t"][:, 0], rtol=0, atol=SVR_ATOL)
    np.testing.assert_allclose(svr.thresholds(Xte), O["svr_test_t"][:, 0], rtol=0, atol=SVR_ATOL)
    np.testing.assert_array_equal(svr.predict(Xte @ W, Xte), O["predict_row_svm"])
    svr_f1 = rt.RowThresholdSVR("example-F1").fit(Xtr @ W, Ytr, Xtr)
    np.testing.assert_allclose(
        svr_f1.thresholds(Xte), O["svr_f1_test_t"][:, 0], rtol=0, atol=SVR_ATOL
    )


@pytest.mark.parametrize(
    "metric, cuts, labels",
    [
        ("macro-F1", "linear_macro_F1", "predict_column_macro"),
        ("micro-F1", "linear_micro_F1", "predict_column_micro"),
    ],
)
def test_column_predictions_equal_octave(fixture, metric, cuts, labels):
    _, I, O = fixture
    t = rt.column_cuts(I["Xtr"] @ I["W"], I["Ytr"], metric)
    np.testing.assert_allclose(t, O[cuts][0], rtol=0, atol=SCORE_ATOL)
    np.testing.assert_array_equal(rt.predict_column(I["Xte"] @ I["W"], t), O[labels])


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="value and truth"):
        rt.best_f1_cut([1.0, 2.0], [1])
    with pytest.raises(ValueError, match="metric must be one of"):
        rt.column_cuts([[1.0]], [[1]], "f1")
    with pytest.raises(ValueError, match="metric must be one of"):
        rt.row_cuts([[1.0]], [[1]], "macro-F1")
    with pytest.raises(ValueError, match="thresholds must have one entry per label"):
        rt.predict_column([[1.0, 2.0]], [0.5])
    with pytest.raises(ValueError, match="X must be 2-D"):
        rt.RowThresholdSVR().fit([[1.0, 0.0]], [[1, 0]], [[1.0], [2.0]])
