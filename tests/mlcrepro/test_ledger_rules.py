"""The ledger's rules (mlcrepro.ledger.rules): a cause is kept only where the row differs.

The status rules themselves (number, spread, exact, ordering, qualitative) are tested
row by row in test_ledger.py; here the one rule for causes, on a row that is reproduced
and one that differs, through the rule itself, through the adders and on a row read back.
"""

import pandas as pd
import pytest

from mlcrepro.ledger import STATUSES, Ledger, cause_where_differs, tested, unknown
from mlcrepro.ledger.rules import Entry, row_problems

CAUSE = tested("the paper's grid stops at 1e-2", ref="the grid section")


def test_the_rule_keeps_a_cause_only_where_the_row_differs():
    assert cause_where_differs("differs", CAUSE) is CAUSE
    for status in STATUSES:
        if status != "differs":
            assert cause_where_differs(status, CAUSE) is None, status
            assert cause_where_differs(status, None) is None, status


def test_the_rule_refuses_a_difference_without_a_cause_and_a_cause_of_another_type():
    with pytest.raises(ValueError, match="row 'x' differs: give its cause"):
        cause_where_differs("differs", None, "row 'x'")
    with pytest.raises(TypeError, match="cause must be made"):
        cause_where_differs("reproduced", "the optimiser")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="status must be one of"):
        cause_where_differs("close enough", CAUSE)


def test_a_reproduced_row_given_a_cause_keeps_none_and_a_differing_row_keeps_it():
    led = Ledger("chap", "P")
    # |0.43 - 3/7| = 0.0014 <= 0.005, half a unit of the printed 0.43: reproduced
    agrees = led.number("a", "T1", paper="0.43", ours=3 / 7, cause=CAUSE, note="a remark")
    # |0.43 - 0.44| = 0.01 > 0.005: differs
    differs = led.number("b", "T1", paper="0.43", ours=0.44, cause=CAUSE)
    assert (agrees.status, agrees.cause, agrees.explanation) == ("reproduced", None, "a remark")
    assert (differs.status, differs.cause) == ("differs", CAUSE)
    frame = led.to_frame()
    assert frame["cause"].tolist() == ["", "tested"]
    assert frame["note"].tolist() == ["a remark", CAUSE.text]
    assert led.cause_counts()["tested"] == 1 and led.problems() == []


@pytest.mark.parametrize("kind", ["ordering", "qualitative"])
def test_the_rule_holds_for_every_kind_that_takes_a_judgement(kind):
    led = Ledger("chap", "P")
    for holds in (True, False):
        if kind == "ordering":
            e = led.ordering("o", "Fig. 1", paper="A<B", rule="A<B", holds=holds, cause=CAUSE)
        else:
            e = led.qualitative("q", "Sec. 2", paper="p", evidence="e", agrees=holds,
                                cause=CAUSE)
        assert (e.cause is CAUSE) == (e.status == "differs") == (not holds)


def test_a_stored_row_that_agrees_but_carries_a_cause_is_a_problem():
    row = Entry("a", "T1", "0.43", "0.4286", "reproduced", cause=CAUSE, tol=0.005,
                paper_value=0.43, ours_value=3 / 7)
    assert row_problems(row) == ["reproduced but carries a cause (tested)"]
    frame = Ledger("chap", "P").to_frame()
    saved = pd.concat([frame, pd.DataFrame([{
        "claim": "a", "source": "T1", "paper": "0.43", "ours": "0.4286",
        "status": "reproduced", "kind": "number", "cause": "unknown", "note": "why",
        "tol": 0.005, "paper_value": 0.43, "ours_value": 3 / 7}])], ignore_index=True)
    with pytest.raises(AssertionError, match="reproduced but carries a cause"):
        Ledger.from_frame(saved, "chap", "P").check()


def test_a_differing_row_read_back_without_its_cause_is_a_problem():
    row = Entry("b", "T1", "0.43", "0.4400", "differs", tol=0.005, paper_value=0.43,
                ours_value=0.44)
    assert row_problems(row) == ["differs without a cause"]
    row.cause = unknown("not known")
    assert row_problems(row) == []


def test_a_cause_made_by_a_function_is_made_only_for_a_row_that_differs():
    made = []

    def grid_cause():
        made.append(1)
        return CAUSE

    led = Ledger("chap", "P")
    # 3/7 within half a unit of 0.43: the function is never called
    assert led.number("a", "T1", paper="0.43", ours=3 / 7, cause=grid_cause).cause is None
    assert made == []
    assert led.number("b", "T1", paper="0.43", ours=0.44, cause=grid_cause).cause is CAUSE
    assert made == [1]
    with pytest.raises(TypeError, match="returned 'the grid', not a Cause"):
        led.number("c", "T1", paper="0.43", ours=0.45, cause=lambda: "the grid")
