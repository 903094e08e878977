"""The measure registry's own API: specs are checked when declared, parameters when
used, names resolve (deprecated ones with a warning), and a temporary registration
leaves no trace."""

from __future__ import annotations

import numpy as np
import pytest

from mlcbook import metrics as M
from mlcbook import registry as R
from mlcbook.metrics import WU_ZHOU_MEASURES
from mlcbook.registry import MeasureSpec, Param


def _fpr(Y, P, *, sample_weight=None):
    Y, P = np.asarray(Y), np.asarray(P)
    return float(np.average(((P == 1) & (Y == 0)).mean(axis=1), weights=sample_weight))


def test_a_spec_is_checked_when_it_is_declared():
    ok = {"function": _fpr, "kind": "classification", "inputs": "predictions"}
    with pytest.raises(ValueError, match="kind must be one of"):
        MeasureSpec("x", **{**ok, "kind": "other"}, greater_is_better=False)
    with pytest.raises(ValueError, match="inputs must be one of"):
        MeasureSpec("x", **{**ok, "inputs": "labels"}, greater_is_better=False)
    with pytest.raises(ValueError, match="lower-case"):
        MeasureSpec("F1", **ok, greater_is_better=True)
    with pytest.raises(TypeError, match="greater_is_better"):
        MeasureSpec("x", **ok, greater_is_better=1)
    with pytest.raises(TypeError, match="callable"):
        MeasureSpec("x", function=3, kind="loss", inputs="scores", greater_is_better=True)
    with pytest.raises(ValueError, match="declared twice"):
        MeasureSpec("x", **ok, greater_is_better=True, params=(Param("a", 1), Param("a", 2)))


def test_parameters_are_checked_filled_and_unknown_ones_refused():
    spec = R.get_measure("macro_f1")
    assert spec.check_params({}) == {"beta": 1.0, "zero_division": 1.0}
    with pytest.raises(TypeError, match="takes no parameter 'average'"):
        spec.check_params({"average": "micro"})
    with pytest.raises(ValueError, match="beta"):
        spec.check_params({"beta": -1})
    with pytest.raises(TypeError, match="needs the parameter k="):
        R.get_measure("binomial_loss").check_params({})
    assert spec.display_name({"beta": 2.0}) == "macro_f2"
    assert R.get_measure("binomial_loss").display_name({"k": 3}) == "binomial_loss[k=3]"


def test_names_resolve_and_deprecated_names_warn_with_the_new_name():
    assert R.get_measure("f1_samples").convention == "scikit-learn"
    with pytest.warns(FutureWarning, match="'instance_f1'"):
        spec, fixed = R.resolve("f1_instance")
    assert spec.name == "instance_f1" and fixed == {}
    with pytest.raises(ValueError, match="did you mean f1_macro"):
        R.get_measure("f1_makro")
    with pytest.raises(TypeError, match="measure name"):
        R.get_measure(3)


def test_a_temporary_registration_is_seen_and_then_gone():
    spec = MeasureSpec(
        "toy_false_positive_rate", _fpr, "classification", "predictions", False
    )
    before = R.measure_names()
    with R.registered(spec):
        assert R.measure_names()[-1] == "toy_false_positive_rate"
        with pytest.raises(ValueError, match="registered already"):
            R.register(spec)
    assert R.measure_names() == before


def test_the_wu_zhou_group_is_table_1_in_order():
    members = R.group("wu_zhou")
    assert members == WU_ZHOU_MEASURES
    assert members[4] == "label_ranking_average_precision"  # Table 1's "average precision"
    assert all(m in R.measure_names() for m in members)
    # the direction is the registry's: the losses and errors of Table 1
    assert M.LOWER_IS_BETTER == {"hamming_loss", "ranking_loss", "one_error", "coverage"}


def test_the_eleven_have_distinct_titles_and_the_others_none():
    """The display names of Wu & Zhou's Table 1 are the registry's (``title``), one home."""
    titles = [R.get_measure(m).title for m in R.group("wu_zhou")]
    assert all(titles) and len(set(titles)) == 11
    assert R.get_measure("label_ranking_average_precision").title == "average precision"
    assert R.get_measure("average_precision").title == ""  # scikit-learn's: not titled
