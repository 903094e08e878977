"""The chapters' short verdict tables (mlcrepro.display) and the collapsed ledger."""

import pandas as pd
import pytest

from mlcrepro.display import BADGES, compact_table, verdicts
from mlcrepro.ledger import Ledger, paper_error


def _ledger():
    led = Ledger("demo", "A. Author (2020)")
    led.number("mean loss", "Table 1", paper="0.43", ours=3 / 7, claim_id="HU001")
    led.number("other loss", "Table 1", paper="0.30", ours=0.36, claim_id="HU002",
               cause=paper_error("0.30 is a typo for 0.36"))
    led.ordering("A before B", "Fig. 1", paper="A is better", rule="A < B on 4 of 5",
                 holds=True, robustness=(180, 200), claim_id=["HU003", "HU004"])
    led.qualitative("reading", "Sec. 2", paper="often", evidence="0.8 of the cases",
                    agrees=True, claim_id="EX001")
    return led


def test_verdicts_pick_rows_by_claim_id_in_the_given_order():
    t = verdicts(_ledger(), {"HU004": "ordering", "HU001": "mean", "HU002": "other",
                             "EX001": "reading"})
    assert list(t.frame.columns) == ["claim", "paper", "ours", "verdict"]
    assert t.frame.values.tolist() == [
        ["ordering", "A is better", "holds (180/200)", BADGES["reproduced"]],
        ["mean", "0.43", "0.4286", BADGES["reproduced"]],
        # a row that differs names its cause kind and claim id (linked to its ledger row)
        ["other", "0.30", "0.3600", BADGES["differs"] + " (paper error, HU002)"],
        ["reading", "often", "agrees", BADGES["qualitative"]],
    ]
    with pytest.raises(ValueError, match=r"no ledger row carries the claim ids \['HU009'\]"):
        verdicts(_ledger(), {"HU009": "missing"})
    with pytest.raises(TypeError, match="labels must be"):
        verdicts(_ledger(), {})


def test_compact_tables_show_no_index_and_keep_a_verdict_on_one_line():
    html = compact_table(pd.DataFrame({"verdict": [BADGES["differs"]]}, index=[7]))._repr_html_()
    assert "✘&nbsp;differs" in html and "<th>7</th>" not in html
    assert "text-align: left" in html


def test_the_collapsed_ledger_holds_the_whole_table_and_its_counts():
    led = _ledger()
    c = led.collapsed("All rows")
    # the summary line says what is inside and how much, counted from the ledger
    assert c._repr_html_().startswith(
        "<details class='ledger-chapter collapsed-section'><summary>All rows: 4 rows "
        "(2 reproduced, 1 qualitative, 1 differs)"
    )
    assert led._repr_html_() in c._repr_html_()
    assert "2 reproduced, 1 qualitative, 1 differs" in repr(c)  # zero counts left out
    with pytest.raises(ValueError, match="title"):
        led.collapsed("")
