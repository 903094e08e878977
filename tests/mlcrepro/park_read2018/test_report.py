"""The Reproduce page's tables and sentences (mlcrepro.park_read2018.report): each against
the evidence and the ledger it shows, computed here independently."""

from __future__ import annotations

import pandas as pd
import pytest

from mlcrepro.ledger import Ledger
from mlcrepro.park_read2018 import evidence, ledgers
from mlcrepro.park_read2018 import causes as pc
from mlcrepro.park_read2018 import findings as bf
from mlcrepro.park_read2018 import report
from mlcrepro.park_read2018.tables import paper_pairs


@pytest.fixture(scope="module")
def ev():
    return evidence()


@pytest.fixture(scope="module")
def ledger(ev) -> Ledger:
    return ledgers(ev)["blended"]


def _shown(table) -> pd.DataFrame:
    return table.frame


def test_worked_examples_are_the_ledgers_numeric_rows(ledger):
    shown = _shown(report.worked_examples(ledger))
    frame = ledger.to_frame()
    rows = frame[frame["source"].isin(["Table 1", "Sec. 2.2"])]
    numeric = rows[pd.to_numeric(rows["ours"], errors="coerce").notna()]
    assert len(shown) == len(numeric) == 11  # 3 means, 4 + 4 counts; the totals are text
    assert (shown["verdict"] == "✔ reproduced").all()
    assert shown["paper"].tolist()[:3] == ["0.80", "0.40", "0.67"]


@pytest.mark.parametrize("measure, n", [("jaccard", 14), ("hamming", 19), ("exact", 30)])
def test_printed_numbers_show_the_ledgers_values_and_statuses(ev, ledger, measure, n):
    shown = _shown(report.printed_numbers(ev, measure, ledger=ledger))
    assert len(shown) == n
    frame = ledger.to_frame().set_index("claim_ids")
    rows = ev.numbers[ev.numbers["measure"] == measure]
    statuses = [frame.loc[i, "status"] for i in rows["id"]]
    assert [v.split(" (")[0].split(" ", 1)[1] for v in shown["verdict"]] == statuses
    # a row that differs names its cause's kind and links its ledger row by claim id
    causes = [frame.loc[i, "cause"] for i in rows["id"]]
    ends = [v.split(" (", 1)[1] if " (" in v else "" for v in shown["verdict"]]
    assert ends == [
        f"{c}, {i})" if s == "differs" else ("" if s == "reproduced" else f"{i})")
        for s, c, i in zip(statuses, causes, rows["id"])
    ]
    assert shown["ours"].tolist() == [f"{v:.3f}" for v in rows["ours"]]


def test_printed_numbers_of_a_reading_follow_the_printed_precision(ev):
    shown = _shown(report.printed_numbers(ev, "exact", reading="lbfgs"))
    pairs = paper_pairs(ev.grids["lbfgs"]).query("measure == 'exact'")
    # the number rule at three printed decimals: reproduced iff within half a unit
    # a number that differs links the ledger row of its printed number (by its id)
    want = [
        "✔ reproduced" if abs(float(p) - o) <= 5e-4 + 1e-12 else f"✘ differs ({i})"
        for p, o, i in zip(pairs["paper"], pairs["ours"], pairs["id"])
    ]
    assert shown["verdict"].tolist() == want
    with pytest.raises(ValueError, match="either"):
        report.printed_numbers(ev, "exact")
    with pytest.raises(ValueError, match="reading"):
        report.printed_numbers(ev, "exact", reading="sgd")
    with pytest.raises(ValueError, match="measure"):
        report.printed_numbers(ev, "f1", reading="lbfgs")
    with pytest.raises(TypeError, match="Evidence"):
        report.fit_table(ev.fit)


def test_fit_tables_are_the_evidences_fit(ev):
    t = report.fit_table(ev)
    assert t["all"].tolist() == ev.fit["mean |Δ| all"].round(3).tolist()
    per = report.per_setting_fit(ev)
    assert len(per) == 4 and (per["numbers"] == 38).all()  # Emotions, Scene, Yeast


def test_gamma_choices_count_the_eleven_alphas(ev):
    g = report.gamma_choices(ev)
    for text in g.iloc[:, 0]:
        assert sum(int(part.split(" × ")[1]) for part in text.split(", ")) == 11


def test_page_values_quote_the_evidence_and_the_ledger(ev, ledger):
    v = report.page_values(ev, ledger)
    frame = ledger.to_frame()
    assert v["pr-rows"] == len(frame) == 123
    assert v["pr-differ"] == (frame["status"] == "differs").sum()
    assert v["pr-headline-wins"] == bf.headline_wins(ev.headline)
    assert v["pr-chosen"] == report.READING_WORDS[ev.chosen]
    assert v["pr-penalty-1"].startswith("On 8 of the 10 (dataset, base) pairs at β = 1")
    assert v["pr-literal-stopped"] == (ev.literal["status"] == "stopped").sum()
    for label in ("1", "2", "3", "4", "5", "7", "8"):
        assert v[f"pr-hyp-{label}"].startswith("It ")
    assert "pr-hyp-6" not in v  # not computed: material unavailable


def test_penalty_sentence_names_every_base_once(ev):
    m = ev.penalty_match
    text = bf.penalty_sentence(m, 1.0)
    at1 = m[m["setting"].str.endswith(", 1)")]
    ok = at1[at1["distance"] <= pc.PENALTY_FIT]
    # every gamma of a base within the bound is named, each on its own line
    for g in ok["best gamma"].unique():
        assert f"* γ = {g:g}:" in text
    assert text.count("* γ =") == ok["best gamma"].nunique()
    with pytest.raises(ValueError, match="beta = 3"):
        bf.penalty_sentence(m, 3.0)


def test_small_tables_show_text_without_scientific_notation(ev):
    for table in (report.hypotheses_table(ev), report.enron_swap_table(ev),
                  report.literal_table(ev), report.family_shares(ev)):
        cells = table.astype(str).to_numpy().ravel()
        assert not any("e-" in c or c in ("nan", "<NA>") for c in cells)
