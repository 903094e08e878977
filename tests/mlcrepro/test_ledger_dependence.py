"""The dependence chapter's ledger module: its rules on toy curves, its ids in book/_claims."""

import csv

import numpy as np
import pandas as pd
import pytest

from mlcrepro._paths import project_root
from mlcrepro.huellermeier2022 import authors_compare as ac
from mlcrepro.huellermeier2022 import ledger_dependence as LD
from mlcrepro.huellermeier2022.authors_study import DATASETS
from mlcrepro.ledger import Ledger

CLAIMS_DIR = project_root() / "book" / "_claims"


def _csv(name):
    with open(CLAIMS_DIR / name, newline="") as fh:
        return list(csv.DictReader(fh))


def test_comparison_ids_name_the_rows_extra_csv_lists_for_them():
    # independent of the formula: the extra line carrying each id, read with csv
    extra = {r["id"]: r["ledger"] for r in _csv("extra.csv")}
    seen = set()
    for d in DATASETS:
        for learner in ac.MAIN_LEARNERS:
            for end, what in (("hamming", "Hamming loss"), ("subset01", "subset 0/1 loss")):
                i = LD.comparison_id(d, learner, end)
                assert extra[i] == f"dependence:{what} of {learner} on {d}"
                seen.add(i)
    assert len(seen) == 2 * len(DATASETS) * len(ac.MAIN_LEARNERS)
    with pytest.raises(ValueError, match="end must be one of"):
        LD.comparison_id("flags", "BR", "ranking")
    with pytest.raises(ValueError, match="no comparison row"):
        LD.comparison_id("flags", "RAkEL-k2", "hamming")


def test_claim_ids_point_at_the_claims_the_rows_check():
    inventory = {r["id"]: r for r in _csv("huellermeier-2022.csv")}
    extra = {r["id"]: r["ledger"] for r in _csv("extra.csv")}
    for c in LD.CLAIMS:
        for fam, i in zip(LD.FAMILIES, c.ids):
            ref = f"dependence:{c.name} ({fam})"
            if i.startswith("HU"):
                assert inventory[i]["kind"] == "ordering"
                assert ref in inventory[i]["ledger"], (i, ref)
            else:
                assert extra[i] == ref


def _toy_pooled():
    """Two datasets, three binomial parameters; every learner's curve given by hand."""
    curves = {  # learner -> loss at k = 1, 2, 3 (the same on both datasets)
        "BR": [0.10, 0.20, 0.30],
        "LP": [0.15, 0.20, 0.25],  # LP/BR: 1.5 -> 0.83, falls, ends below 1
        "CC": [0.10, 0.19, 0.27],  # CC/BR: 1.0 -> 0.9, falls
        "PCT": [0.10, 0.20, 0.31],  # PCT/BR barely moves, PCT/LP moves a lot
        "RAkEL-k2": [0.10, 0.20, 0.30],
        "RAkEL-k5": [0.12, 0.20, 0.24],  # k5/k2 falls
        "BOOMER-1": [0.10, 0.20, 0.30],
        "BOOMER-K": [0.09, 0.17, 0.24],  # below BOOMER-1 everywhere, ratio falls
    }
    rows = [
        {
            "dataset": d,
            "learner": learner,
            "family": "binomial",
            "param": k + 1,
            "K": 3,
            "loss": loss,
        }
        for d in ("scene", "emotions")
        for learner, losses in curves.items()
        for k, loss in enumerate(losses)
    ]
    return pd.DataFrame(rows)


def test_holding_counts_the_datasets_on_which_each_rule_holds():
    n = LD.holding(_toy_pooled(), "binomial")
    by_hand = {
        "BR ahead of LP at Hamming loss (LP/BR > 1 at k=1)": 2,
        "LP catches up with BR as k grows (LP/BR falls from k=1 to k=K)": 2,
        "LP beats BR at subset 0/1 (late crossing of y=1)": 2,
        "CC improves over BR with increasing k (CC/BR falls)": 2,
        # LP/CC at K: 0.25/0.27 = 0.926 > LP/BR 0.25/0.30 = 0.833
        "LP's advantage at subset 0/1 is smaller against CC than against BR": 2,
        # |log(1.033/1)| = 0.033 < |log(1.24/0.667)| = 0.62
        "PCT closer to BR than to LP in dependence-awareness (flatter PCT/BR curve)": 2,
        "RAkEL k=5 gains on k=2 as k grows (m = L-k+1)": 2,
        "BOOMER-K below BOOMER-1 everywhere (all points below y=1)": 2,
        "BOOMER-K's advantage grows with k (BOOMER-K/BOOMER-1 falls)": 2,
        # LP/BOOMER-K = 1.67, 1.18, 1.04: above 1 everywhere, and falling
        "LP worse than BOOMER-K in absolute terms (LP/BOOMER-K > 1 for all k)": 2,
        "LP's dependence-awareness more pronounced than BOOMER-K's (LP/BOOMER-K falls)": 2,
        LD.SCENE: 1,  # BR 0.10 < LP 0.15 at k = 1, LP 0.25 < BR 0.30 at k = 3
    }
    assert n == by_hand
    # LP made worse everywhere: it never catches up, and the scene reading fails
    worse = _toy_pooled()
    worse.loc[worse["learner"] == "LP", "loss"] *= 2
    n = LD.holding(worse, "binomial")
    assert n[LD.SCENE] == 0
    assert n["LP beats BR at subset 0/1 (late crossing of y=1)"] == 0
    with pytest.raises(ValueError, match="family must be one of"):
        LD.holding(_toy_pooled(), "poly")


def _toy_evidence(ours=9, authors=9):
    keys = [(c, f) for c in [LD.SCENE, *(c.name for c in LD.CLAIMS)] for f in LD.FAMILIES]
    counts = {k: (1 if k[0] == LD.SCENE else ours) for k in keys}
    theirs = {k: (1 if k[0] == LD.SCENE else authors) for k in keys}
    return LD.Sec53(counts, theirs, dict.fromkeys(keys, (150, 200)), {})


def test_the_rule_needs_most_datasets_all_for_every_claims_and_scene_alone():
    ev = _toy_evidence()
    assert ev.needed("CC improves over BR with increasing k (CC/BR falls)") == 5  # 9 // 2 + 1
    assert ev.needed("BOOMER-K below BOOMER-1 everywhere (all points below y=1)") == 9
    assert ev.needed(LD.SCENE) == 1
    few = LD.Sec53(ev.ours, ev.authors, ev.hits, {"X": 7})
    assert few.over("X") == 7 and few.over(LD.SCENE) == 9


def test_a_failing_claim_is_tested_if_it_fails_on_the_authors_too_else_unknown():
    claim = "CC improves over BR with increasing k (CC/BR falls)"
    both = _toy_evidence(ours=4, authors=3)
    assert not both.holds(claim, "binomial")
    assert both.cause(claim, "binomial").kind == "tested"
    only_ours = _toy_evidence(ours=4, authors=8)
    assert only_ours.cause(claim, "binomial").kind == "unknown"


EVERY = "BOOMER-K below BOOMER-1 everywhere (all points below y=1)"


def _boomer_pooled(ratios, family="binomial"):
    """Two datasets, BOOMER-1 at 0.1 everywhere and BOOMER-K at 0.1 * ratio."""
    rows = []
    for d, rs in ratios.items():
        for k, r in enumerate(rs, 1):
            rows.append(
                {
                    "dataset": d,
                    "family": family,
                    "param": float(k),
                    "learner": "BOOMER-1",
                    "loss": 0.1,
                }
            )
            rows.append(
                {
                    "dataset": d,
                    "family": family,
                    "param": float(k),
                    "learner": "BOOMER-K",
                    "loss": 0.1 * r,
                }
            )
    return pd.DataFrame(rows)


def test_exceptions_list_every_failing_point_by_hand():
    pooled = _boomer_pooled({"a": [0.9, 0.8, 0.7], "b": [1.5, 0.9, 1.2]})
    got = LD.exceptions(pooled, EVERY, "binomial")
    assert got[["dataset", "param"]].to_records(index=False).tolist() == [("b", 1.0), ("b", 3.0)]
    assert got["ratio"].tolist() == pytest.approx([1.5, 1.2])
    assert got["hamming_end"].tolist() == [True, False]  # k = 1 is the smallest parameter
    assert LD.exceptions(_boomer_pooled({"a": [0.9, 0.8]}), EVERY, "binomial").empty
    assert (
        LD.exceptions_text(
            LD.exceptions(_boomer_pooled({"a": [0.9]}), EVERY, "binomial"), "binomial"
        )
        == "nowhere"
    )
    with pytest.raises(ValueError, match="every"):
        LD.exceptions(pooled, "CC improves over BR with increasing k (CC/BR falls)", "binomial")


def test_an_every_claim_false_on_the_authors_profiles_is_a_paper_error_with_its_points():
    ev = _toy_evidence(ours=6, authors=8)
    where = {(EVERY, "binomial"): ("ours here", "enron at k = 1 (ratio as far as 1.00024)")}
    ev = LD.Sec53(ev.ours, ev.authors, ev.hits, {}, where)
    cause = ev.cause(EVERY, "binomial")
    assert cause.kind == "paper error"
    assert "enron at k = 1 (ratio as far as 1.00024)" in cause.text
    assert "ours here" in cause.text
    # without the points the count rule still applies
    assert _toy_evidence(ours=6, authors=8).cause(EVERY, "binomial").kind == "tested"


def test_pair_causes_follow_the_known_reasons():
    assert LD.pair_cause("yeast", "BOOMER-1", 10, 10) is LD.SEEDED_CAUSE
    assert LD.pair_cause("genbase", "BOOMER-K", 10, 10) is LD.GENBASE_CAUSE
    assert LD.pair_cause("enron", "BOOMER-1", 9, 9) is LD.HEAD_CAUSE
    assert LD.pair_cause("enron", "BOOMER-K", 9, 9) is LD.BOOMER_CAUSE
    assert LD.pair_cause("birds", "EPCT", 10, 9) is LD.EPCT_CAUSE
    assert LD.pair_cause("birds", "PCT", 10, 9) is LD.FOLDS_CAUSE
    assert LD.pair_cause("birds", "PCT", 10, 10) is LD.OTHER_CAUSE


def _summary():
    """One comparison pair that agrees exactly and one far outside its tolerance."""
    return pd.DataFrame(
        {
            "dataset": ["flags", "birds"],
            "learner": ["BR", "BOOMER-1"],
            "K": [7, 19],
            "our_folds": [10, 10],
            "their_folds": [10, 10],
            "hamming_ours": [0.25, 0.05],
            "hamming_theirs": [0.25, 0.05],
            "hamming_diff": [0.0, 0.0],
            "hamming_tol": [0.01, np.nan],
            "subset01_ours": [0.8, 0.5],
            "subset01_theirs": [0.8, 0.6],
            "subset01_diff": [0.0, -0.1],
            "subset01_tol": [0.02, 0.01],
            "within": [True, False],
        }
    )


def test_comparison_rows_carry_a_cause_only_when_they_differ():
    led = Ledger("dependence", "Hüllermeier et al. (2022)")
    LD._add_comparison(led, _summary())
    assert [e.claim for e in led.entries] == [
        "Hamming loss of BR on flags",
        "subset 0/1 loss of BR on flags",
        "Hamming loss of BOOMER-1 on birds",
        "subset 0/1 loss of BOOMER-1 on birds",
    ]
    assert [e.status for e in led.entries] == ["reproduced"] * 3 + ["differs"]
    assert [e.cause for e in led.entries[:3]] == [None] * 3
    assert led.entries[3].cause is LD.BOOMER_CAUSE
    # flags: first dataset, BR first learner; birds: third dataset, BOOMER-1 sixth learner
    ids = [("EX023",), ("EX024",), ("EX061",), ("EX062",)]
    assert [e.claim_ids for e in led.entries] == ids
    led.check()


def test_the_tables_have_one_row_per_claim():
    ev = _toy_evidence()
    table = LD.sec53_table(ev)
    assert list(table.index) == [LD.SCENE, *(c.name for c in LD.CLAIMS)]
    assert table.loc[LD.SCENE, "binomial"] == "1 / 1"
    assert table.loc[LD.CLAIMS[0].name, "robust"] == "150 · 150"
    with pytest.raises(TypeError, match="ev must be the Sec53"):
        LD.dependence_ledger(pd.DataFrame(), {}, pd.DataFrame())
