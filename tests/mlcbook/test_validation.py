"""Shared input validation: clear TypeError/ValueError naming the argument."""

import numpy as np
import pytest
import scipy.sparse as sp

from mlcbook import _validation as v


def test_label_matrix_accepts_bool_int_float_and_1d():
    Y = v.check_label_matrix([1, 0, 1], "Y")
    assert Y.shape == (1, 3) and Y.dtype == np.int8
    assert v.check_label_matrix(np.array([[True, False]]), "Y").tolist() == [[1, 0]]
    assert v.check_label_matrix(np.array([[1.0, 0.0]]), "Y").tolist() == [[1, 0]]


def test_label_matrix_sparse_kept_or_densified():
    S = sp.csr_matrix(np.array([[1, 0], [0, 1]]))
    out = v.check_label_matrix(S, "Y")
    assert sp.issparse(out) and out.toarray().tolist() == [[1, 0], [0, 1]]
    assert isinstance(v.check_label_matrix(S, "Y", allow_sparse=False), np.ndarray)


@pytest.mark.parametrize(
    "bad, exc, msg",
    [
        ([[0, 2]], ValueError, "P must be binary"),
        ([[0.5, 1]], ValueError, "P must be binary"),
        ([[np.nan, 1]], ValueError, "P must be binary"),
        (np.zeros((2, 2, 2)), ValueError, "P must be 1-D or 2-D"),
        ("abc", TypeError, "P must be an array-like"),
        (None, TypeError, "P must be an array-like"),
        ([["a", "b"]], TypeError, "P must hold numbers"),
        (np.zeros((3, 0)), ValueError, "at least one label"),
        (np.zeros((0, 3)), ValueError, "at least one row"),
        (sp.csr_matrix(np.array([[0, 3]])), ValueError, "P must be binary"),
    ],
)
def test_label_matrix_rejects(bad, exc, msg):
    with pytest.raises(exc, match=msg):
        v.check_label_matrix(bad, "P")


def test_score_matrix():
    S = v.check_score_matrix([[0.2, 0.9]], "S", unit_interval=True)
    assert S.dtype == np.float64
    with pytest.raises(ValueError, match=r"S must lie in \[0, 1\]"):
        v.check_score_matrix([[0.2, 1.1]], "S", unit_interval=True)
    with pytest.raises(ValueError, match="NaN"):
        v.check_score_matrix([[np.nan, 0.1]], "S")
    with pytest.raises(ValueError, match="NaN"):
        v.check_score_matrix([[np.inf, 0.1]], "F")
    assert v.check_score_matrix(sp.csr_matrix([[0.5, 0]]), "F").tolist() == [[0.5, 0.0]]


def test_same_shape_average_ints_reals():
    with pytest.raises(ValueError, match="Y and P must have the same shape"):
        v.check_same_shape(np.zeros((2, 3)), np.zeros((2, 4)), "Y", "P")
    assert v.check_average("micro", ("micro", "macro")) == "micro"
    with pytest.raises(ValueError, match="average must be one of"):
        v.check_average("weighted", ("micro", "macro"))
    with pytest.raises(TypeError, match="average must be one of"):
        v.check_average(None, ("micro",))
    assert v.check_positive_int(np.int64(3), "k", high=5) == 3
    with pytest.raises(ValueError, match=r"k must be an integer in \[1, 5\]"):
        v.check_positive_int(6, "k", high=5)
    with pytest.raises(TypeError, match="k must be an integer"):
        v.check_positive_int(2.0, "k")
    with pytest.raises(TypeError, match="k must be an integer"):
        v.check_positive_int(True, "k")
    assert v.check_real(2, "alpha", low=1) == 2.0
    with pytest.raises(ValueError, match="alpha must be >= 1"):
        v.check_real(0.5, "alpha", low=1)
    with pytest.raises(ValueError, match="beta must be > 0"):
        v.check_real(0.0, "beta", low=0, low_inclusive=False)
    with pytest.raises(ValueError, match="must be finite"):
        v.check_real(float("nan"), "beta")
    with pytest.raises(TypeError, match="beta must be a real number"):
        v.check_real("1", "beta")
