"""The reproduction ledger: statuses follow from numbers, and saved ledgers stay consistent."""

import math

import pandas as pd
import pytest

from mlcbook.ledger import STATUSES, Ledger, load_ledgers, within_tolerance
from mlcbook._paths import project_root


def test_numeric_row_within_printed_precision_is_reproduced():
    led = Ledger("t", "P")
    e = led.add("x", "Table 1", paper="0.43", ours=3 / 7)  # 0.42857 rounds to 0.43
    assert e.status == "reproduced"
    assert e.tol == pytest.approx(0.005)
    assert e.ours == "0.4286"  # paper's two decimals + 2
    led.check()


def test_numeric_row_outside_precision_needs_note_and_differs():
    led = Ledger("t", "P")
    with pytest.raises(ValueError, match="note"):
        led.add("x", "Table 1", paper="0.43", ours=0.44)
    e = led.add("x", "Table 1", paper="0.43", ours=0.44, note="the paper rounds wrongly")
    assert e.status == "differs"
    led.check()


def test_boundary_of_tolerance_is_inclusive():
    led = Ledger("t")
    assert led.add("x", "s", paper="0.5", ours=0.55).status == "reproduced"
    assert led.add("y", "s", paper="12", ours=12.4999).status == "reproduced"
    assert led.add("z", "s", paper="12", ours=12.6, note="n").status == "differs"


def test_reproduced_claim_outside_tolerance_is_caught_by_check():
    led = Ledger("t")
    led.add("x", "s", paper="1.00", ours=1.2, status="reproduced")
    with pytest.raises(AssertionError, match="exceeds tol"):
        led.check()
    assert len(led.problems()) == 1


def test_explicit_tolerance_overrides_precision():
    led = Ledger("t")
    e = led.add("x", "s", paper="0.70", ours=0.72, tol=0.05)
    assert e.status == "reproduced" and e.tol == 0.05


def test_non_numeric_rows_need_a_status():
    led = Ledger("t")
    with pytest.raises(ValueError, match="status is required"):
        led.add("claim", "Sec. 5", paper="BR beats LP", ours="BR beats LP on 9/9")
    e = led.add("claim", "Sec. 5", paper="BR beats LP", ours="9/9", status="qualitative")
    assert e.within_tolerance() is None
    with pytest.raises(ValueError, match="status must be one of"):
        led.add("c", "s", paper=None, ours="x", status="maybe")
    with pytest.raises(ValueError, match="note"):
        led.add("c", "s", paper=None, ours="x", status="differs")


def test_counts_frame_html_and_repr():
    led = Ledger("t", "Paper (2000)")
    led.add("a", "T1", paper="0.1", ours=0.1)
    led.add("b & <c>", "T2", paper=None, ours="seen", status="qualitative")
    assert led.counts() == {"reproduced": 1, "qualitative": 1, "differs": 0}
    df = led.to_frame()
    assert list(df["status"]) == ["reproduced", "qualitative"]
    html = led._repr_html_()
    assert "b &amp; &lt;c&gt;" in html and "1 reproduced" in html
    assert "[qualitative] b & <c>" in repr(led)


def test_save_and_load_roundtrip(tmp_path):
    led = Ledger("chap", "P")
    led.add("a", "T1", paper="0.30", ours=0.3)
    led.add("b", "T1", paper="0.70", ours=0.7)
    path = led.save(tmp_path)
    assert path.name == "chap.csv" and not list(tmp_path.glob("*.tmp"))
    back = load_ledgers(tmp_path)
    assert list(back["claim"]) == ["a", "b"]
    assert set(back["chapter"]) == {"chap"}
    assert back["ours_value"].tolist() == [0.3, 0.7]


def test_load_ledgers_of_empty_folder(tmp_path):
    assert load_ledgers(tmp_path).empty


def test_every_committed_ledger_is_consistent():
    """The chapters' saved ledgers: every 'reproduced' number is within its tolerance."""
    folder = project_root() / "book" / "_ledgers"
    table = load_ledgers(folder)
    assert set(table["status"]) <= set(STATUSES)
    for _, row in table.iterrows():
        if row["status"] == "differs":
            assert row["note"], f"{row['chapter']}: {row['claim']!r} differs without a reason"
        if row["status"] == "reproduced" and row["tol"] != "" and row["paper_value"] != "":
            paper, ours, tol = float(row["paper_value"]), float(row["ours_value"]), float(row["tol"])
            assert math.isfinite(ours)
            assert within_tolerance(paper, ours, tol), (row["chapter"], row["claim"])


def test_from_frame_rebuilds_the_same_ledger(tmp_path):
    led = Ledger("chap", "P")
    led.add("a", "T1", paper="0.30", ours=0.3)
    led.add("b", "Sec. 2", paper=None, ours="seen", status="qualitative")
    led.add("c", "T2", paper="0.5", ours=0.7, note="why")
    led.save(tmp_path)
    back = Ledger.from_frame(load_ledgers(tmp_path), "chap", "P")
    assert back.counts() == led.counts()
    assert back._repr_html_() == led._repr_html_()
    back.check()
