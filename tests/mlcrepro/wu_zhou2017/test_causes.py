"""The causes of the LIMO ledger's differing rows (mlcrepro.wu_zhou2017.causes)."""

from __future__ import annotations

import pandas as pd

from mlcrepro.ledger import Ledger, tested
from mlcrepro.wu_zhou2017 import causes as C


def test_a_shared_cause_stays_only_on_the_rows_that_differ():
    # the folder passes its shared cause to every Table B.1-B.3 row; the ledger's rule
    # (cause_where_differs) keeps it only where the row's status is differs
    c = tested("x", ref="y")
    led = Ledger("limo_demo", "Wu & Zhou (2017)")
    within_half_unit = led.number("a", "Table B.1", paper="0.27", ours=0.2704, cause=c)
    outside = led.number("b", "Table B.1", paper="0.27", ours=0.28, cause=c)
    within_spread = led.spread("c", "Table B.3", paper="0.27", spread="0.011", ours=0.28,
                               cause=c)
    beyond_spread = led.spread("d", "Table B.3", paper="0.27", spread="0.011", ours=0.29,
                               cause=c)
    assert (within_half_unit.status, within_half_unit.cause) == ("reproduced", None)
    assert (outside.status, outside.cause) == ("differs", c)
    assert (within_spread.status, within_spread.cause) == ("within spread", None)
    assert (beyond_spread.status, beyond_spread.cause) == ("differs", c)
    led.check()


def test_b3_cause_prefers_a_cells_own_cause():
    causes = C.make_causes()
    own = tested("one cell", ref="here")
    cause_of = C.b3_cause(causes, cells={("cal500", "LIMO", "macro_f1"): own})
    assert cause_of("cal500", "LIMO", "macro_f1") is own
    assert cause_of("enron", "LIMO", "macro_f1") is causes["f1_threshold"]
    assert cause_of("bibtex", "LIMO", "macro_f1") is causes["f1_untested"]
    assert cause_of("bibtex", "LIMO", "coverage") is causes["limo_other"]
    assert cause_of("medical", "GFM", "coverage") is causes["gfm"]


def _passes(paper: float, ten: float, thirty: float, std: str = "0.008") -> tuple:
    """One bibtex cell of an epochs comparison, with Table B.3's printed row for it."""
    half = 0.0005  # half a unit of a three-decimal printed value
    lo, hi = sorted((ten, thirty))
    cmp = pd.DataFrame(
        [{"dataset": "bibtex", "method": "LIMO", "measure": "one_error", "paper": paper,
          "10 passes": ten, "30 passes": thirty,
          "within std, 10": abs(ten - paper) <= float(std) + half,
          "within std, 30": abs(thirty - paper) <= float(std) + half,
          "between": lo <= paper <= hi, "between, printed": lo - half <= paper <= hi + half,
          "bracketed": lo - float(std) - half <= paper <= hi + float(std) + half}]
    ).set_index(["dataset", "method", "measure"])
    printed = pd.DataFrame([{"dataset": "bibtex", "method": "LIMO", "measure": "one_error",
                             "mean": f"{paper:.3f}", "std": std}])
    return cmp, printed


def test_a_cell_the_passes_bracket_keeps_the_shared_cause():
    assert C.passes_cell_causes(*_passes(0.400, 0.410, 0.390)) == {}
    # within half a printed unit of the 30-pass value counts as bracketed (0.3996 -> .400)
    assert C.passes_cell_causes(*_passes(0.400, 0.410, 0.4004)) == {}


def test_a_cell_beyond_both_runs_gets_its_own_cause():
    key = ("bibtex", "LIMO", "one_error")
    # within the paper's std after 30 passes, the paper's value below both runs
    cause = C.passes_cell_causes(*_passes(0.390, 0.410, 0.395))[key]
    assert cause.kind == "underspecified" and "lies below both runs" in cause.text
    assert "0.4100 after 10 passes to 0.3950 after 30, towards" in cause.text
    # not within it: the gap is not settled by the passes
    cause = C.passes_cell_causes(*_passes(0.390, 0.410, 0.405))[key]
    assert cause.kind == "unknown" and "but not within its std" in cause.text
    # more passes moving away from the paper are said to
    cause = C.passes_cell_causes(*_passes(0.390, 0.405, 0.410))[key]
    assert "away from the paper's 0.390 ± 0.008" in cause.text
