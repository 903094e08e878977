"""Bad input to the reproduction ledger, by property tests (hypothesis): a chapter name
that would leave its folder is refused, the ledger never accepts NaN or inf as
reproduced, and its tolerances are finite and non-negative."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlcbook import _io
from mlcbook import _validation as v
from mlcrepro.ledger import Ledger, load_ledgers, unknown

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


# ============================================ malformed saved ledgers are refused
def _saved_frame():
    led = Ledger("chap", "P")
    led.number("a", "T1", paper="0.30", ours=0.3, claim_id="HU012")
    led.ordering("b", "Fig. 1", paper="A<B", rule="A<B", holds=True, robustness=(7, 10))
    return led.to_frame().assign(chapter="chap", paper_ref="P")


@pytest.mark.parametrize(
    "column, value, match",
    [
        # before: both were accepted, and "bogus" only showed up in check()
        ("status", "bogus", r"row 1 \('a'\): column 'status' must be one of"),
        ("claim", float("nan"), r"row 1: column 'claim' must be the claim's text, got nan"),
        ("claim", "  ", r"column 'claim' must be the claim's text"),
        ("kind", "vibes", r"column 'kind' must be one of"),
        ("cause", "bad luck", r"column 'cause' must be empty or one of"),
        ("tol", "half a unit", r"column 'tol' must be a number or empty"),
        ("hits", 2.5, r"column 'hits' must be a non-negative integer"),
        ("holds", "maybe", r"column 'holds' must be True, False or empty"),
    ],
)
def test_a_malformed_ledger_row_is_refused_with_its_column(column, value, match):
    frame = _saved_frame().astype(object)
    frame.loc[0, column] = value
    with pytest.raises(ValueError, match=match):
        Ledger.from_frame(frame, "chap", "P")


@pytest.mark.parametrize("column", ["status", "claim", "tol", "paper_ref"])
def test_a_saved_ledger_file_that_lacks_a_column_is_refused(tmp_path, column):
    """Before: load_ledgers read a file without 'status' (or any other column), and
    the pages built from it lost the rows' statuses without a word."""
    _saved_frame().drop(columns=column).to_csv(tmp_path / "chap.csv", index=False)
    with pytest.raises(ValueError, match=rf"chap.csv lacks the column '{column}'"):
        load_ledgers(tmp_path)


def test_a_saved_ledger_file_with_a_bogus_status_is_refused(tmp_path):
    frame = _saved_frame()
    frame.loc[1, "status"] = "bogus"
    frame.to_csv(tmp_path / "chap.csv", index=False)
    with pytest.raises(ValueError, match=r"chap.csv, row 2 \('b'\): column 'status'"):
        load_ledgers(tmp_path)


def test_a_well_formed_ledger_round_trips(tmp_path):
    frame = _saved_frame()
    frame.to_csv(tmp_path / "chap.csv", index=False)
    back = Ledger.from_frame(load_ledgers(tmp_path), "chap", "P")
    assert [e.status for e in back.entries] == list(frame["status"])
    assert back.entries[1].hits == 7 and back.entries[1].holds is True
    back.check()
    again = Ledger.from_frame(frame, "chap", "P")  # straight from to_frame: Int64 with NA
    assert again.entries[0].hits is None and again.entries[0].claim_ids == ("HU012",)


def test_a_killed_save_leaves_nothing_the_next_save_keeps(tmp_path):
    led = Ledger("chap", "P")
    led.number("a", "T1", paper="0.30", ours=0.3)
    host = _io._owner_tag().split("-")[0]
    dead = tmp_path / f".chap.csv.{host}-2147480000-.q1.tmp"  # its writer is gone
    dead.write_text("claim,sou")
    led.save(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chap.csv"]
