"""Bad input to the reproduction ledger, by property tests (hypothesis): a chapter name
that would leave its folder is refused, the ledger never accepts NaN or inf as
reproduced, and its tolerances are finite and non-negative."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlcbook import _validation as v
from mlcrepro.ledger import Ledger, unknown

from ..mlcbook.test_robustness import SAFE_FOLDER_PROBES

non_finite = st.sampled_from(
    [float("nan"), float("inf"), -float("inf"), np.float64("nan")]
)


# =================================================================== 6. the ledger
@settings(max_examples=60, deadline=None)
@given(
    bad=st.sampled_from(
        [
            float("nan"),
            float("inf"),
            -float("inf"),
            np.float64("nan"),
            np.array(np.inf),
            "nan",
            "inf",
            "-Infinity",
            "NaN",
        ]
    ),
    where=st.sampled_from(["ours", "paper"]),
)
def test_ledger_never_accepts_nan_or_inf_as_reproduced(bad, where):
    led = Ledger("chap", "P")
    kw = {"paper": "0.5", "ours": 0.5, where: bad}
    numeric_ours = where == "ours" and not isinstance(bad, str)
    if not numeric_ours:  # a paper value must be a printed number, ours a number
        with pytest.raises((TypeError, ValueError)):
            led.number("x", "Table 1", **kw)
        assert led.entries == []
        return
    with pytest.raises(ValueError, match="give its cause"):  # never reproduced
        led.number("x", "Table 1", **kw)
    e = led.number("x", "Table 1", cause=unknown("the run diverged"), **kw)
    assert e.status == "differs" and led.problems() == []


def test_ledger_check_catches_a_reproduced_nan_read_back():
    frame = pd.DataFrame(
        [
            {
                "claim": "x",
                "source": "T1",
                "paper": "0.5",
                "ours": "nan",
                "status": "reproduced",
                "kind": "number",
                "note": "",
                "tol": 0.05,
                "paper_value": 0.5,
                "ours_value": float("nan"),
            }
        ]
    )
    led = Ledger.from_frame(frame, "chap", "P")
    with pytest.raises(AssertionError, match="NaN or infinite"):
        led.check()


@settings(max_examples=40, deadline=None)
@given(tol=non_finite | st.floats(max_value=-1e-300, min_value=-1e300))
def test_ledger_tolerance_must_be_finite_and_non_negative(tol):
    with pytest.raises(ValueError, match="tol"):
        Ledger("chap").number("x", "T1", paper="0.5", ours=0.5, tol=tol)


@settings(max_examples=200, deadline=None)
@given(name=st.text(max_size=20) | st.sampled_from(SAFE_FOLDER_PROBES))
def test_a_name_either_is_refused_or_stays_in_its_folder(tmp_path_factory, name):
    folder = tmp_path_factory.mktemp("ledgers")
    try:
        led = Ledger(name, "P")
        led.number("x", "Table 1", paper="0.5", ours=0.5)
        target = led.save(folder)
    except (TypeError, ValueError):
        assert not v._NAME.fullmatch(name)
        assert list(folder.iterdir()) == []
        return
    assert target.resolve().parent == folder.resolve() and target.name == f"{name}.csv"
    assert [p.name for p in folder.iterdir()] == [f"{name}.csv"]


@pytest.mark.parametrize("name", SAFE_FOLDER_PROBES)
def test_path_names_refused_as_chapter_names(name, tmp_path):
    with pytest.raises(ValueError, match="chapter"):
        Ledger(name).save(tmp_path)
    assert list(tmp_path.iterdir()) == []
