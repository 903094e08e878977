"""What the Reproduce page shows: every verdict a ledger row's status, every number with
fixed decimals, every row of a ledger counted once."""

import numpy as np
import pytest

from mlcrepro.display import BADGES
from mlcrepro.huellermeier2022 import views as V
from mlcrepro.huellermeier2022.collect import evidence
from mlcrepro.huellermeier2022.evidence_dependence import CLAIMS, FAMILIES, SCENE, Sec53
from mlcrepro.huellermeier2022.evidence_losses import losses_evidence
from mlcrepro.huellermeier2022.ledger_rows import ledgers
from mlcrepro.ledger import Ledger, load_ledgers


@pytest.fixture(scope="module")
def losses():
    return ledgers({"losses": losses_evidence()})["losses"]


@pytest.fixture(scope="module")
def built():
    """The paper's ledgers built from its evidence: rows that carry what they are about."""
    return ledgers(evidence())


def _saved(name):
    """The committed ledger, rebuilt (its rows as saved, statuses re-derived)."""
    rows = load_ledgers()
    return Ledger.from_frame(rows[rows["chapter"] == name].reset_index(drop=True), name)


def _verdict(e):
    """A row's verdict as a table shows it: its badge, and where it does not agree (✘, ±)
    its cause's kind and claim id, the link to its ledger row."""
    if e.status in ("reproduced", "qualitative"):
        return BADGES[e.status]
    cause = f"{e.cause.kind}, " if e.cause else ""
    return f"{BADGES[e.status]} ({cause}{e.claim_ids[0]})"


def test_numbers_show_ours_the_paper_and_the_verdict_of_the_row(losses):
    t = V.numbers(losses, {"HU021": "learner A, k = 2", "EX003": "the same, simulated"})
    f = t.frame
    assert f["claim"].tolist() == ["learner A, k = 2", "the same, simulated"]
    assert f["ours"].tolist() == ["0.360", "0.360"] and f["paper"].tolist() == ["0.320"] * 2
    assert f["difference"].tolist() == ["0.040", "0.040"]
    # a verdict that differs names its row's cause (the paper's 0.32, Sec. 4.4) and id
    kinds = {i: e.cause.kind for e in losses.entries for i in e.claim_ids if e.cause}
    assert kinds["HU021"] == "paper error"
    assert f["verdict"].tolist() == [
        f"{BADGES['differs']} ({kinds[i]}, {i})" for i in ("HU021", "EX003")
    ]
    assert "href='#HU021'" in t._repr_html_() and "href='#EX003'" in t._repr_html_()
    # the exact row is judged to half a printed unit, the simulated one to 4 std. errors
    assert f["tol."].iloc[0] == "0.005" and float(f["tol."].iloc[1]) < 0.005
    with pytest.raises(ValueError, match="not a number"):
        V.numbers(losses, {"HU002": "a prediction"})
    with pytest.raises(ValueError, match="no ledger row carries"):
        V.numbers(losses, {"HU999": "nothing"})


def test_outcome_has_one_line_per_ledger_in_the_papers_order(losses):
    ledgers = {name: _saved(name) for name in ("losses", "datasets", "dependence", "knn")}
    text = V.outcome(ledgers)
    lines = text.splitlines()
    assert [line.split("**")[1].rstrip(".") for line in lines] == list(V.TITLES.values())
    assert "Of the **47** ledger rows" in lines[0]
    with pytest.raises(TypeError, match="ledgers must map"):
        V.outcome({"knn": ledgers["knn"]})


def test_released_counts_every_comparison_row_once(built):
    dep = built["dependence"]
    t = V.released(dep).frame
    rows = [e for e in dep.entries if e.source == "released profiles"]
    assert len(t) == len(rows) == 126
    assert t["verdict"].tolist() == [_verdict(e) for e in rows]
    assert not t["difference"].str.contains("e-|e\\+|−0.0000$", regex=True).any()
    tol = [(e.tol or 0) + (e.spread or 0) for e in rows]
    # a row within our spread lies within the tolerance shown, one that differs beyond it
    diff = np.abs([e.ours_value - e.paper_value for e in rows])
    for d, s, e in zip(diff, tol, rows):
        assert (d <= s + 1e-12) == (e.status != "differs"), e.claim


def test_claim_counts_and_exceptions(built):
    keys = [(c, f) for c in [SCENE, *(c.name for c in CLAIMS)] for f in FAMILIES]
    every = "BOOMER-K below BOOMER-1 everywhere (all points below y=1)"
    lp = "LP worse than BOOMER-K in absolute terms (LP/BOOMER-K > 1 for all k)"
    where = {(c, f): ("ours", "theirs") for c in (every, lp) for f in FAMILIES}
    ev = Sec53(
        dict.fromkeys(keys, 5), dict.fromkeys(keys, 6), dict.fromkeys(keys, (7, 200)), {}, where
    )
    dep = built["dependence"]
    t = V.claim_counts(ev, dep).frame
    assert len(t) == 1 + len(CLAIMS) and set(V.CLAIM_WORDS) == {SCENE, *(c.name for c in CLAIMS)}
    assert t["binomial"].iloc[1] == "5 / 6" and t["resamples"].iloc[1] == "7 · 7"
    # the verdict is the ledger rows': both families the same badge here
    rows = {e.claim: e for e in dep.entries}
    row = t[t["claim"] == V.CLAIM_WORDS[every]]
    first = rows[f"{every} (binomial)"]
    assert first.status == "differs"
    assert row["verdict"].item() == _verdict(first)  # with its cause and link
    assert V.claim_exceptions(ev).shape == (4, 2)


def test_verdict_tables_refuse_another_ledger(losses, built):
    with pytest.raises(TypeError, match="the 'knn' Ledger"):
        V.knn_verdicts(losses)
    assert len(V.losses_verdicts(losses).frame) == len(V.LOSSES_VERDICTS) == 13
    with pytest.raises(ValueError, match="not from its saved file"):
        V.table2_verdicts(_saved("datasets"))  # the saved rows do not hold what they are about
    d = built["datasets"]
    t = V.table2_verdicts(d).frame
    assert t["numbers reproduced"].tolist() == ["5 of 5"] * 9
    assert t.loc[t["dataset (paper)"] == "Flags", "ours"].item() == "flags-12"
