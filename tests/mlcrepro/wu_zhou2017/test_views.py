"""The Reproduce page's tables (mlcrepro.wu_zhou2017.views): what they show is the
evidence and the ledger's verdicts, in the shape of the book's tables."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from mlcrepro.display import BADGES
from mlcrepro.ledger import Ledger
from mlcrepro.wu_zhou2017 import views as V
from mlcrepro.wu_zhou2017.collect import evidence
from mlcrepro.wu_zhou2017.ledger_rows import ledgers


@pytest.fixture(scope="module")
def ev():
    return evidence()


@pytest.fixture(scope="module")
def ledger(ev) -> Ledger:
    return ledgers(ev)["limo"]


def test_a_ledger_comparison_shows_each_row_with_its_own_verdict(ledger):
    table = V.ledger_comparison(ledger, "Table B.3", ["measure", "learner"], where="CAL500")
    frame = table.frame
    rows = [e for e in ledger.entries if e.source == "Table B.3" and e.claim.endswith("CAL500")]
    assert len(frame) == len(rows) == 6 * 11
    # each badge, and where a row does not agree its cause's kind and its claim id
    assert list(frame["verdict"]) == [
        BADGES[e.status]
        if e.status in ("reproduced", "qualitative")
        else f"{BADGES[e.status]} ({e.cause.kind + ', ' if e.cause else ''}{e.claim_ids[0]})"
        for e in rows
    ]
    first = rows[0]  # Hamming loss of BR: ours and the paper's at three decimals
    assert frame.loc[0, "ours"] == f"{first.ours_value:.3f}"
    assert frame.loc[0, "paper"] == f"{first.paper_value:.3f}"
    # the tolerance a spread row is judged by: the paper's std plus half a printed unit
    assert float(frame.loc[0, "tol."]) == pytest.approx(first.spread + first.tol, rel=1e-2)
    with pytest.raises(ValueError, match="no numeric rows"):
        V.ledger_comparison(ledger, "Table B.3", ["measure"], where="corel5k")


def test_status_counts_count_every_b3_row_once(ledger):
    counts = V.status_counts(ledger, "Table B.3")
    assert int(counts.to_numpy().sum()) == 4 * 6 * 11
    assert list(counts.index) == ["BR", "ML-kNN", "GFM", "LIMO-inst", "LIMO-label", "LIMO"]


def test_claim_verdicts_name_the_ledgers_rows(ledger):
    t2 = V.claim_verdicts(ledger, "table2").frame
    assert len(t2) == 11 and t2.loc[0, "claim"] == "ranking loss"
    fig4 = V.claim_verdicts(ledger, "fig4").frame
    assert set(fig4["verdict"]) == {BADGES["reproduced"]}
    syn = V.claim_verdicts(ledger, "synthetic").frame
    assert len(syn) == 6 and syn["claim"].str.len().min() > 20  # the rows' own claims
    with pytest.raises(ValueError, match="group"):
        V.claim_verdicts(ledger, "table9")


def test_rank_comparison_shows_ours_and_the_papers_ranks(ev):
    frame = V.rank_comparison(ev).frame
    ours, paper = ev.average_ranks, ev.paper_average_ranks
    cell = frame.loc[0, "LIMO"]  # Hamming loss
    assert cell == f"{ours.loc['hamming_loss', 'LIMO']:.2f} ({paper.loc['hamming_loss', 'LIMO']:.2f})"


def test_passes_table_counts_the_brackets_by_hand(ev):
    frame = V.passes_table(ev).frame
    cmp = ev.epochs_comparison
    strict = sum(
        min(r["10 passes"], r["30 passes"]) <= r["paper"] <= max(r["10 passes"], r["30 passes"])
        for _, r in cmp.iterrows()
    )
    assert (frame["between"] == "yes").sum() == strict == int(cmp["between"].sum())
    assert (frame["within ±"] == "yes").sum() == int(cmp["bracketed"].sum())
    # the widened interval holds the strict one, and the printed-precision one between
    assert strict <= int(cmp["between, printed"].sum()) <= int(cmp["bracketed"].sum())


def test_reports_are_text_and_html(ev):
    report = V.baselines_report(ev)
    assert repr(report).count("\n") == 3 and report._repr_html_().startswith("<ul")
    assert V.account_summary(ev)._repr_html_().startswith("<p>")
    with pytest.raises(ValueError, match="text"):
        V.Report("")


def test_errata_list_the_paper_error_rows(ledger):
    errata = V.errata(ledger)
    wrong = [e for e in ledger.entries if e.cause is not None and e.cause.kind == "paper error"]
    assert len(errata.table) == len(wrong) >= 1
    # each erratum links its row of the ledger on this page (1-based, as the ledger shows)
    html = errata._repr_html_()
    rows = [i for i, e in enumerate(ledger.entries, 1) if e in wrong]
    assert all(f"href='#ledger-limo-{i}'" in html for i in rows)


def test_b3_figure_has_a_panel_per_measure(ev):
    fig = V.b3_figure(ev, "enron")
    try:
        titled = [ax.get_title() for ax in fig.axes if ax.get_title()]
        assert len(titled) == 11
    finally:
        plt.close(fig)
    with pytest.raises(ValueError, match="dataset"):
        V.b3_figure(ev, "corel5k")


def test_the_tables_fit_a_narrow_column(ev, ledger):
    """No table of the page has more than seven columns (the text column holds them)."""
    tables = [
        V.passes_table(ev), V.authors_table(ev), V.solvers_table(ev), V.sampling_table(ev),
        V.account_table(ev), V.hypothesis_fits(ev), V.rank_comparison(ev),
    ]
    assert all(isinstance(t.frame, pd.DataFrame) and t.frame.shape[1] <= 7 for t in tables)
