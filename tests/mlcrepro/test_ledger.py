"""The reproduction ledger: statuses are derived by rule, and saved ledgers stay consistent."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mlcrepro._paths import project_root
from mlcrepro.ledger import (
    ORDERING_ROBUSTNESS,
    STATUSES,
    Cause,
    Ledger,
    derive_status,
    load_ledgers,
    material_unavailable,
    paper_error,
    tested,
    underspecified,
    unknown,
    within_tolerance,
)

CAUSE = tested("found by a test", ref="tests/test_ledger.py")


# ------------------------------------------------------------------ number
def test_number_within_printed_precision_is_reproduced():
    led = Ledger("t", "P")
    e = led.number("x", "Table 1", paper="0.43", ours=3 / 7)  # 0.42857 rounds to 0.43
    assert (e.status, e.kind) == ("reproduced", "number")
    assert e.tol == pytest.approx(0.005)
    assert e.ours == "0.4286"  # paper's two decimals + 2
    led.check()


def test_number_outside_precision_differs_and_needs_a_cause():
    led = Ledger("t", "P")
    with pytest.raises(ValueError, match="give its cause"):
        led.number("x", "Table 1", paper="0.43", ours=0.44)
    assert led.entries == []  # nothing half-added
    e = led.number("x", "Table 1", paper="0.43", ours=0.44, cause=CAUSE)
    assert e.status == "differs" and e.explanation.startswith("tested: found by a test")
    led.check()


def test_boundary_of_tolerance_is_inclusive():
    led = Ledger("t")
    assert led.number("x", "s", paper="0.5", ours=0.55).status == "reproduced"
    assert led.number("y", "s", paper="12", ours=12.4999).status == "reproduced"
    assert led.number("z", "s", paper="12", ours=12.6, cause=CAUSE).status == "differs"


def test_explicit_tolerance_overrides_precision():
    e = Ledger("t").number("x", "s", paper="0.70", ours=0.72, tol=0.05)
    assert e.status == "reproduced" and e.tol == 0.05


def test_number_refuses_an_unprinted_paper_value_and_non_numbers():
    led = Ledger("t")
    with pytest.raises(ValueError, match="as printed"):
        led.number("x", "s", paper="about half", ours=0.5)
    with pytest.raises(TypeError, match="ours must be a number"):
        led.number("x", "s", paper="0.5", ours="0.5")
    with pytest.raises(ValueError, match="tol"):
        led.number("x", "s", paper=0.5, ours=0.5)  # a float has no printed precision
    assert led.number("x", "s", paper=0.5, ours=0.5, tol=0.0).status == "reproduced"


@pytest.mark.parametrize("bad", [math.nan, math.inf, np.float64("nan")])
def test_non_finite_ours_never_passes(bad):
    led = Ledger("t")
    with pytest.raises(ValueError, match="give its cause"):
        led.number("x", "s", paper="0.5", ours=bad)
    assert led.number("x", "s", paper="0.5", ours=bad, cause=CAUSE).status == "differs"


@given(paper=st.integers(0, 999), delta=st.integers(-20, 20))
def test_number_status_is_the_printed_precision_rule(paper, delta):
    # paper printed with 3 decimals; ours off by delta ten-thousandths: within 0.0005 iff
    # |delta| <= 5 (exact integer arithmetic decides the expected status)
    text = f"{paper / 1000:.3f}"
    ours = paper / 1000 + delta / 10000
    e = Ledger("t").number("x", "s", paper=text, ours=ours, cause=CAUSE)
    assert e.status == ("reproduced" if abs(delta) <= 5 else "differs")


# ------------------------------------------------------------------ spread
def test_spread_has_three_outcomes():
    led = Ledger("t")
    kw = dict(paper="0.217", spread="0.012")
    assert led.spread("a", "B.3", ours=0.2174, **kw).status == "reproduced"
    assert led.spread("b", "B.3", ours=0.2295, **kw).status == "within spread"  # 0.0125 off
    assert led.spread("c", "B.3", ours=0.2296, cause=CAUSE, **kw).status == "differs"
    assert led.entries[1].paper == "0.217 ± 0.012"
    assert led.counts() == {"reproduced": 1, "within spread": 1, "within our spread": 0,
                            "qualitative": 0, "fragile": 0, "differs": 1}
    with pytest.raises(ValueError, match="spread"):
        led.spread("d", "B.3", paper="0.2", spread=-0.1, ours=0.2)


def test_our_spread_is_named_apart_from_the_papers():
    led = Ledger("t")
    kw = dict(paper="0.217", spread=0.012, spread_of="ours")
    e = led.spread("b", "released", ours=0.2295, **kw)  # 0.0125 off: inside 0.012 + 0.0005
    assert e.status == "within our spread"
    assert e.paper == "0.217"  # the paper column holds the paper's value only
    assert e.spread == 0.012  # ours is kept in its own column
    assert led.spread("c", "released", ours=0.2296, cause=CAUSE, **kw).status == "differs"
    with pytest.raises(ValueError, match="spread_of"):
        led.spread("d", "s", paper="0.2", spread=0.1, ours=0.2, spread_of="theirs")
    again = Ledger.from_frame(led.to_frame(), "t")
    assert [x.spread_of for x in again.entries] == ["ours", "ours"]
    again.check()


def test_an_ordering_that_most_resamples_do_not_support_is_fragile():
    led = Ledger("t")
    n = 200
    edge = int(ORDERING_ROBUSTNESS * n)  # the stated threshold, exactly: still reproduced
    kw = dict(paper="A beats B", rule="A < B on most datasets", holds=True, over="resamples")
    assert led.ordering("a", "s", robustness=(edge, n), **kw).status == "reproduced"
    assert led.ordering("b", "s", robustness=(edge - 1, n), **kw).status == "fragile"
    assert led.ordering("c", "s", **kw).status == "reproduced"  # no resamples: point only
    kw["holds"] = False
    assert led.ordering("d", "s", robustness=(n, n), cause=CAUSE, **kw).status == "differs"
    assert Ledger.from_frame(led.to_frame(), "t").entries[1].status == "fragile"


def test_material_unavailable_is_its_own_cause():
    led = Ledger("t")
    c = material_unavailable("Figure 1 is not in our copy of the paper")
    e = led.number("x", "Fig. 1", paper="0.5", ours=0.7, cause=c)
    assert e.status == "differs" and e.cause.kind == "material unavailable"
    assert led.cause_counts()["material unavailable"] == 1


# ------------------------------------------------------- exact, ordering, qualitative
def test_exact_compares_integers_and_texts():
    led = Ledger("t")
    assert led.exact("TP", "Sec. 2.2", paper=1, ours=np.int64(1)).status == "reproduced"
    assert led.exact("pattern", "Table 2", paper="✓✗", ours="✓✗").status == "reproduced"
    assert led.exact("n", "s", paper=1, ours=2.0, cause=CAUSE).status == "differs"


def test_ordering_records_rule_and_robustness():
    led = Ledger("t")
    e = led.ordering("BR < LP", "Fig. 1", paper="BR beats LP", rule="BR < LP on 5 of 6",
                     holds=True, robustness=(9, 10))
    assert e.status == "reproduced" and e.ours.endswith("(on 9 of 10 folds)")
    assert (e.hits, e.trials) == (9, 10)
    with pytest.raises(ValueError, match="robustness"):
        led.ordering("c", "s", paper="p", rule="r", holds=True, robustness=(3, 2))
    with pytest.raises(TypeError, match="holds"):
        led.ordering("c", "s", paper="p", rule="r", holds="yes")
    with pytest.raises(ValueError, match="give its cause"):
        led.ordering("c", "s", paper="p", rule="r", holds=False)


def test_qualitative_needs_evidence():
    led = Ledger("t")
    assert led.qualitative("c", "s", paper="p", evidence="seen", agrees=True).status == \
        "qualitative"
    with pytest.raises(ValueError, match="evidence"):
        led.qualitative("c", "s", paper="p", evidence=" ", agrees=True)
    assert led.qualitative("d", "s", paper="p", evidence="not seen", agrees=False,
                           cause=CAUSE).status == "differs"


# ------------------------------------------------------------------ causes
def test_causes_are_validated():
    assert paper_error("eq. 3 has a sign error").kind == "paper error"
    assert underspecified("the stopping rule").kind == "underspecified"
    assert unknown("none of three hypotheses moved it").kind == "unknown"
    with pytest.raises(ValueError, match="point at the computation"):
        tested("it is the optimiser", ref="")
    with pytest.raises(ValueError, match="kind"):
        Cause("guess", "x")
    with pytest.raises(ValueError, match="text"):
        unknown("")
    with pytest.raises(TypeError, match="cause must be made"):
        Ledger("t").number("x", "s", paper="0.4", ours=0.5, cause="the optimiser")


# --------------------------------------------------------------- checking
def test_check_derives_every_status_again():
    led = Ledger("t")
    led.number("x", "s", paper="1.00", ours=1.2, cause=CAUSE)
    led.entries[0].status = "reproduced"  # tampered: the evidence says otherwise
    with pytest.raises(AssertionError, match="its evidence gives 'differs'"):
        led.check()
    led.entries[0].status = "differs"
    led.entries[0].cause = None
    assert led.problems() == ["row 1 'x': differs without a cause"]


def test_derive_status_refuses_unknown_kinds():
    with pytest.raises(ValueError, match="kind"):
        derive_status("vibes")
    with pytest.raises(ValueError, match="finite paper value"):
        derive_status("number", paper_value=None, ours_value=1.0, tol=0.1)


def test_every_committed_ledger_is_consistent():
    """Every chapter's saved ledger: each status is the one its stored evidence gives."""
    table = load_ledgers(project_root() / "book" / "_ledgers")
    assert set(table["status"]) <= set(STATUSES)
    for chapter, rows in table.groupby("chapter"):
        Ledger.from_frame(rows, chapter).check()
    for _, row in table.iterrows():
        if row["status"] == "reproduced" and row["tol"] != "" and row["paper_value"] != "":
            paper, ours = float(row["paper_value"]), float(row["ours_value"])
            assert within_tolerance(paper, ours, float(row["tol"])), row["claim"]
