"""The four ledgers: rows written from the evidence, each with the ids of the claims it
checks, a cause only where it differs, and the saved ledgers where the evidence is real."""

import csv

import numpy as np
import pandas as pd
import pytest

from mlcrepro._paths import project_root
from mlcrepro.claims import parse_refs
from mlcrepro.huellermeier2022 import PAPER
from mlcrepro.huellermeier2022 import authors_compare as ac
from mlcrepro.huellermeier2022 import causes as C
from mlcrepro.huellermeier2022.authors_study import DATASETS
from mlcrepro.huellermeier2022.collect import Evidence
from mlcrepro.huellermeier2022.evidence_datasets import (
    DatasetsEvidence,
    datasets_evidence,
    empty_prediction_hamming,
    table2_keys,
)
from mlcrepro.huellermeier2022.evidence_dependence import (
    CLAIMS,
    FAMILIES,
    SCENE,
    DependenceEvidence,
    Sec53,
    curve_steps,
)
from mlcrepro.huellermeier2022.evidence_knn import knn_evidence
from mlcrepro.huellermeier2022.evidence_losses import losses_evidence
from mlcrepro.huellermeier2022.knn_queries import SAMPLE, query_statistics
from mlcrepro.huellermeier2022.ledger_dependence import comparison_id
from mlcrepro.huellermeier2022.ledger_rows import ledgers
from mlcrepro.huellermeier2022.printed import NAMES, table2
from mlcrepro.ledger import Ledger

from ..ledger_checks import assert_is_the_saved_ledger

CLAIMS_DIR = project_root() / "book" / "_claims"


def _csv(name):
    with open(CLAIMS_DIR / name, newline="") as fh:
        return list(csv.DictReader(fh))


def _ledger_of(name, part):
    """One ledger built from its part of the evidence alone."""
    return ledgers({name: part})[name]


def _assert_ids_name_their_rows(led):
    """Each id of a row names that row: in the paper's inventory (HU) or in extra.csv (EX)."""
    refs = {r["id"]: r["ledger"] for r in _csv("huellermeier2022.csv") + _csv("extra.csv")}
    for e in led.entries:
        assert e.claim_ids, e.claim
        for i in e.claim_ids:
            assert (led.chapter, e.claim) in parse_refs(refs[i]), (i, e.claim)


# ------------------------------------------------------------------------- losses
@pytest.fixture(scope="module")
def losses():
    return _ledger_of("losses", losses_evidence())


def test_the_losses_ledger_is_the_saved_one(losses):
    assert_is_the_saved_ledger(losses, "losses", 47)
    _assert_ids_name_their_rows(losses)
    ids = [e.claim_ids for e in losses.entries]
    assert ids[:5] == [("HU013",), ("HU014",), ("HU015",), ("EX001",), ("HU016",)]
    rows = {e.claim: e for e in losses.entries}
    assert rows["learner A, binomial k=2 (exact)"].cause is C.PAIR_PROBABILITY
    assert rows["learner A, binomial k=2 (simulation, n=10^6)"].cause is C.PAIR_PROBABILITY
    assert rows["learner A, binomial k=1 (exact)"].cause is None


# ----------------------------------------------------------------------- datasets
def _stats():
    """Statistics equal to the printed table; MULAN's flags with its own 7 labels."""
    t = table2()
    rows = {k: t.loc[n].astype(float) for n, k in zip(NAMES, table2_keys())}
    rows["flags"] = rows["flags-12"].copy()
    rows["flags"]["labels"] = 7.0
    stats = pd.DataFrame(rows).T
    for col in ("instances", "labels", "distinct_combinations"):
        stats[col] = stats[col].astype(int)
    return stats


def _datasets(stats):
    return DatasetsEvidence(stats, 978, empty_prediction_hamming(stats.loc[table2_keys()]))


def test_datasets_rows_compare_the_printed_table_with_the_statistics():
    led = _ledger_of("datasets", _datasets(_stats()))
    led.check()
    status = {e.claim: e.status for e in led.entries}
    assert status["Yeast: cardinality"] == status["Birds: instances"] == "reproduced"
    assert status["labels of Flags as distributed by MULAN (flags.xml)"] == "differs"
    assert status["instances in the Medical file"] == "reproduced"  # 978 given here
    assert "the label density, cardinality / K" in led.entries[-1].note
    assert [e.claim_ids for e in led.entries[:2]] == [("HU038",), ("HU039",)]
    assert led.entries[-1].claim_ids == ("HU083",)
    assert len(led.entries) == 48


def test_a_table_2_number_that_differs_without_a_known_cause_stops_the_ledger():
    stats = _stats()
    stats.loc["yeast", "cardinality"] = 4.30  # printed 4.24
    with pytest.raises(ValueError, match=r"Yeast: cardinality.*give its cause"):
        _ledger_of("datasets", _datasets(stats))


def test_the_datasets_ledger_is_the_saved_one():
    led = _ledger_of("datasets", datasets_evidence())
    assert_is_the_saved_ledger(led, "datasets", 48)
    _assert_ids_name_their_rows(led)


# --------------------------------------------------------------------- dependence
def test_comparison_ids_name_the_rows_extra_csv_lists_for_them():
    # independent of the formula: the extra line carrying each id, read with csv
    extra = {r["id"]: r["ledger"] for r in _csv("extra.csv")}
    seen = set()
    for d in DATASETS:
        for learner in ac.MAIN_LEARNERS:
            for end, what in (("hamming", "Hamming loss"), ("subset01", "subset 0/1 loss")):
                i = comparison_id(d, learner, end)
                assert extra[i] == f"dependence:{what} of {learner} on {d}"
                seen.add(i)
    assert len(seen) == 2 * len(DATASETS) * len(ac.MAIN_LEARNERS)
    with pytest.raises(ValueError, match="end must be one of"):
        comparison_id("flags", "BR", "ranking")
    with pytest.raises(ValueError, match="no comparison row"):
        comparison_id("flags", "RAkEL-k2", "hamming")


def test_claim_ids_point_at_the_claims_the_rows_check():
    inventory = {r["id"]: r for r in _csv("huellermeier2022.csv")}
    extra = {r["id"]: r["ledger"] for r in _csv("extra.csv")}
    for c in CLAIMS:
        for fam, i in zip(FAMILIES, c.ids):
            ref = f"dependence:{c.name} ({fam})"
            if i.startswith("HU"):
                assert inventory[i]["kind"] == "ordering"
                assert ref in inventory[i]["ledger"], (i, ref)
            else:
                assert extra[i] == ref


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
    full = _ledger_of("dependence", _toy_dependence(summary=_summary()))
    led = Ledger("dependence", "Hüllermeier et al. (2022)")
    led.entries = [e for e in full.entries if e.source == "released profiles"]
    assert [e.claim for e in led.entries] == [
        "Hamming loss of BR on flags",
        "subset 0/1 loss of BR on flags",
        "Hamming loss of BOOMER-1 on birds",
        "subset 0/1 loss of BOOMER-1 on birds",
    ]
    assert [e.status for e in led.entries] == ["reproduced"] * 3 + ["differs"]
    assert [e.cause for e in led.entries[:3]] == [None] * 3
    assert led.entries[3].cause is C.BOOMER_CAUSE
    # flags: first dataset, BR first learner; birds: third dataset, BOOMER-1 sixth learner
    ids = [("EX023",), ("EX024",), ("EX061",), ("EX062",)]
    assert [e.claim_ids for e in led.entries] == ids
    # what each row is about, as data: the pair and the end of the profile
    assert [e.about for e in led.entries[1:3]] == [
        {"dataset": "flags", "learner": "BR", "loss": "subset01"},
        {"dataset": "birds", "learner": "BOOMER-1", "loss": "hamming"},
    ]
    led.check()


def _toy_dependence(ours=9, authors=9, hits=190, summary=None):
    """Scene only: BR ahead at k = 1, LP at k = 2, on both families; claims by count."""
    pooled = pd.DataFrame(
        [
            {
                "dataset": "scene",
                "learner": learner,
                "family": fam,
                "param": p,
                "K": 2,
                "loss": loss,
            }
            for fam in FAMILIES
            for learner, losses in {"BR": [0.1, 0.4], "LP": [0.2, 0.3]}.items()
            for p, loss in zip((1.0, 2.0), losses)
        ]
    )
    keys = [(c, f) for c in [SCENE, *(c.name for c in CLAIMS)] for f in FAMILIES]
    sec53 = Sec53(
        {k: (1 if k[0] == SCENE else ours) for k in keys},
        {k: (1 if k[0] == SCENE else authors) for k in keys},
        dict.fromkeys(keys, (hits, 200)),
        {},
    )
    return DependenceEvidence(
        table=pd.DataFrame(),
        named=pd.DataFrame(),
        pooled=pooled,
        theirs=pd.DataFrame(),
        sec53=sec53,
        steps=curve_steps(pooled),
        alpha_gap=1e-5,
        comparison=pd.DataFrame(),
        summary=_summary().iloc[:1] if summary is None else summary,
    )


def test_dependence_rows_follow_the_counts_and_their_rules():
    led = _ledger_of("dependence", _toy_dependence())
    led.check()
    n = 2 * (1 + len(CLAIMS))
    assert [e.claim_ids for e in led.entries[:2]] == [("HU088",), ("EX013",)]
    assert all(e.holds for e in led.entries[:n])  # 9 of 9 on every claim
    assert led.entries[0].note == "Hamming BR 0.100 vs LP 0.200; last BR 0.400 vs LP 0.300"
    assert [e.claim_ids for e in led.entries[n : n + 2]] == [("HU087",), ("HU089",)]
    assert len(led.entries) == n + 2 + 2 + 2  # curves, one comparison pair, setup
    assert all(e.note == "" for e in led.entries[2:n])  # robust: no note needed
    # a reading that holds on fewer than 80% of the resamples says what judged it
    fragile = _ledger_of("dependence", _toy_dependence(ours=5, hits=150)).entries[2]
    assert fragile.status == "fragile"
    assert "holds on 5 of the 9 datasets, just the 5 the rule needs" in fragile.note
    assert "on 150 of 200 bootstrap resamples" in fragile.note and "160" in fragile.note
    failing = _ledger_of("dependence", _toy_dependence(ours=4, authors=3))
    cc = [e for e in failing.entries if e.claim.startswith("CC improves")]
    assert [e.cause.kind for e in cc] == ["tested", "tested"]


# ---------------------------------------------------------------------------- kNN
@pytest.fixture(scope="module")
def knn_toy():
    # every query's three neighbours are distinct label vectors: the mode is always tied,
    # and the minimiser for k < K is the per-label majority against the tied k = K choice
    # (named as the two datasets whose ties the tie-break cause counts)
    toy = np.array([[[1, 0], [1, 1], [0, 0]], [[0, 0], [0, 1], [1, 1]]])
    return knn_evidence(query_statistics({"birds": toy, "flags-12": toy[:1]}, sample=SAMPLE))


def test_knn_rows_follow_the_readings_and_carry_their_ids(knn_toy):
    ev = knn_toy
    led = _ledger_of("knn", ev)
    led.check()
    o = ev.readings["hamming"]
    paper = ["birds", "emotions", "flags-12", "scene", "yeast"]
    assert led.entries[0].holds == bool(o.loc[paper, "best k non-decreasing"].all())
    assert (led.entries[0].hits, led.entries[0].trials) == ev.monotone_hits
    assert (led.entries[3].cause is None) == led.entries[3].holds
    assert [e.claim_ids for e in led.entries] == [
        ("HU103",),
        ("HU104",),
        ("HU105",),
        ("HU106",),
        ("HU107",),
        ("EX011",),
        ("EX012",),
        ("HU108",),
        ("HU109",),
        ("HU110",),
        ("HU111",),
    ]
    assert "birds all 2; flags-12 all 1" in led.entries[8].note  # the toy neighbours
    assert led.entries[10].ours.startswith("share of queries with a tied mode: birds 1.00")
    assert "birds 2, flags-12 1 queries" in led.entries[9].note  # what each share reads
    assert "birds 2 of 2, flags-12 1 of 1" in led.entries[10].note  # tied modes, counted
    # the tie-break cause counts the ties it decides (both toy queries change: see
    # test_evidence_knn), and names the ranks of the committed tables
    assert "on birds for 2 of 2 queries" in led.entries[4].cause.text
    assert "13, 17 and 1 of 19 on birds" in led.entries[4].cause.text
    # the first seven rows read only the committed tables: they are the saved rows
    saved = pd.read_csv(project_root() / "book" / "_ledgers" / "knn.csv", keep_default_na=False)
    assert [e.ours for e in led.entries[:8]] == saved["ours"].tolist()[:8]


# ------------------------------------------------------------------------ ledgers()
def test_ledgers_are_keyed_as_the_papers_record(knn_toy):
    with pytest.raises(TypeError, match="Evidence"):
        ledgers(object())
    with pytest.raises(TypeError, match="mapping of ledger names"):
        ledgers({"tables": knn_toy})
    with pytest.raises(TypeError, match=r"ev\['knn'\] must be a KnnEvidence"):
        ledgers({"knn": knn_toy.readings})
    ev = Evidence(losses_evidence(), datasets_evidence(), _toy_dependence(), knn_toy)
    built = ledgers(ev)
    assert list(built) == list(PAPER.ledgers)
    assert [led.chapter for led in built.values()] == list(PAPER.ledgers)
    with pytest.raises(TypeError, match="knn must be a KnnEvidence"):
        Evidence(ev.losses, ev.datasets, ev.dependence, ev.losses)
