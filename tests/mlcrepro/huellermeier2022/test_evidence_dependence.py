"""Sec. 5 counted: the rules of the Sec. 5.3 claims on toy curves, the points where an
"every" claim fails, the two curve properties, and the profiles pooled once."""

import numpy as np
import pandas as pd
import pytest

from mlcbook.profiles import pooled_profiles
from mlcrepro.huellermeier2022 import evidence_dependence as D
from mlcrepro.huellermeier2022.experiments import dependence_table
from mlcrepro.huellermeier2022.resampled_profiles import resampled_profiles

CURVES = {  # learner -> loss at k = 1, 2, 3 (the same on both datasets)
    "BR": [0.10, 0.20, 0.30],
    "LP": [0.15, 0.20, 0.25],  # LP/BR: 1.5 -> 0.83, falls, ends below 1
    "CC": [0.10, 0.19, 0.27],  # CC/BR: 1.0 -> 0.9, falls
    "PCT": [0.10, 0.20, 0.31],  # PCT/BR barely moves, PCT/LP moves a lot
    "RAkEL-k2": [0.10, 0.20, 0.30],
    "RAkEL-k5": [0.12, 0.20, 0.24],  # k5/k2 falls
    "BOOMER-1": [0.10, 0.20, 0.30],
    "BOOMER-K": [0.09, 0.17, 0.24],  # below BOOMER-1 everywhere, ratio falls
}


def _toy_pooled(families=("binomial",)):
    """Two datasets, three parameters; every learner's curve given by hand."""
    rows = [
        {"dataset": d, "learner": learner, "family": fam, "param": k + 1, "K": 3,
         "loss": loss}
        for fam in families
        for d in ("scene", "emotions")
        for learner, losses in CURVES.items()
        for k, loss in enumerate(losses)
    ]
    return pd.DataFrame(rows)


def _toy_named(folds=4):
    """Per-fold losses whose pooled profile is the toy curves (every fold equal)."""
    base = _toy_pooled(("binomial", "polynomial"))
    return pd.concat([base.assign(fold=f, n_test=10) for f in range(folds)], ignore_index=True)


def test_holding_counts_the_datasets_on_which_each_rule_holds():
    n = D.holding(_toy_pooled(), "binomial")
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
        D.SCENE: 1,  # BR 0.10 < LP 0.15 at k = 1, LP 0.25 < BR 0.30 at k = 3
    }
    assert n == by_hand
    # LP made worse everywhere: it never catches up, and the scene reading fails
    worse = _toy_pooled()
    worse.loc[worse["learner"] == "LP", "loss"] *= 2
    n = D.holding(worse, "binomial")
    assert n[D.SCENE] == 0
    assert n["LP beats BR at subset 0/1 (late crossing of y=1)"] == 0
    with pytest.raises(ValueError, match="family must be one of"):
        D.holding(_toy_pooled(), "poly")


def _toy_sec53(ours=9, authors=9, n_of=None, where=None):
    keys = [(c, f) for c in [D.SCENE, *(c.name for c in D.CLAIMS)] for f in D.FAMILIES]
    counts = {k: (1 if k[0] == D.SCENE else ours) for k in keys}
    theirs = {k: (1 if k[0] == D.SCENE else authors) for k in keys}
    return D.Sec53(counts, theirs, dict.fromkeys(keys, (150, 200)), n_of or {}, where or {})


def test_the_rule_needs_most_datasets_all_for_every_claims_and_scene_alone():
    ev = _toy_sec53()
    assert ev.needed("CC improves over BR with increasing k (CC/BR falls)") == 5  # 9 // 2 + 1
    assert ev.needed("BOOMER-K below BOOMER-1 everywhere (all points below y=1)") == 9
    assert ev.needed(D.SCENE) == 1
    few = _toy_sec53(n_of={"X": 7})
    assert few.over("X") == 7 and few.over(D.SCENE) == 9
    assert not _toy_sec53(ours=4).holds("CC improves over BR with increasing k (CC/BR falls)",
                                        "binomial")


EVERY = "BOOMER-K below BOOMER-1 everywhere (all points below y=1)"


def _boomer_pooled(ratios, family="binomial"):
    """Datasets with BOOMER-1 at 0.1 everywhere and BOOMER-K at 0.1 * ratio."""
    rows = []
    for d, rs in ratios.items():
        for k, r in enumerate(rs, 1):
            for learner, loss in (("BOOMER-1", 0.1), ("BOOMER-K", 0.1 * r)):
                rows.append({"dataset": d, "family": family, "param": float(k),
                             "learner": learner, "loss": loss})
    return pd.DataFrame(rows)


def test_exceptions_list_every_failing_point_by_hand():
    pooled = _boomer_pooled({"a": [0.9, 0.8, 0.7], "b": [1.5, 0.9, 1.2]})
    got = D.exceptions(pooled, EVERY, "binomial")
    assert got[["dataset", "param"]].to_records(index=False).tolist() == [("b", 1.0), ("b", 3.0)]
    assert got["ratio"].tolist() == pytest.approx([1.5, 1.2])
    assert got["hamming_end"].tolist() == [True, False]  # k = 1 is the smallest parameter
    assert D.exceptions(_boomer_pooled({"a": [0.9, 0.8]}), EVERY, "binomial").empty
    assert D.exceptions_text(
        D.exceptions(_boomer_pooled({"a": [0.9]}), EVERY, "binomial"), "binomial"
    ) == "nowhere"
    with pytest.raises(ValueError, match="every"):
        D.exceptions(pooled, "CC improves over BR with increasing k (CC/BR falls)", "binomial")


def test_count_claims_counts_ours_and_theirs_with_the_robustness_of_ours():
    named = _toy_named()
    pooled = pooled_profiles(named)
    worse = pooled.copy()
    worse.loc[worse["learner"] == "LP", "loss"] *= 2  # the authors' LP never catches up
    profiles = resampled_profiles(named, resamples=5, seed=1)
    pd.testing.assert_frame_equal(profiles.pooled, pooled)  # pooled once, there
    ev = D.count_claims(profiles, worse)
    claim = "LP beats BR at subset 0/1 (late crossing of y=1)"
    assert ev.ours[claim, "binomial"] == 2 and ev.authors[claim, "binomial"] == 0
    # every fold is the same, so every resample gives the same verdicts as the whole
    assert ev.hits[claim, "binomial"] == (0, 5)  # 2 of 9 needed 5: fails on every resample
    assert ev.where[EVERY, "binomial"] == ("nowhere", "nowhere")
    with pytest.raises(TypeError, match="profiles must be"):
        D.count_claims(named, worse)
    with pytest.raises(TypeError, match="theirs must be"):
        D.count_claims(profiles, None)


def test_curve_properties_on_toy_curves():
    pooled = _toy_pooled()
    assert D.curve_steps(pooled).all()
    down = pooled.copy()
    down.loc[(down.learner == "BR") & (down.param == 3), "loss"] = 0.05
    steps = D.curve_steps(down)
    assert int((~steps).sum()) == 2  # BR on both datasets steps down at k = 3
    # alpha = 1000 against k = K: the gap is |0.30 - 0.2996| for BR, largest 4e-4 here
    poly = pooled[pooled.param == 3].assign(family="polynomial", param=1000.0)
    poly.loc[poly.learner == "BR", "loss"] -= 4e-4
    assert D.alpha_gap(pd.concat([pooled, poly])) == pytest.approx(4e-4, abs=1e-15)


def test_the_evidence_pools_the_committed_study_once():
    # a slice of the committed table keeps the test short; the page uses all of it
    table = dependence_table()
    part = table[table["dataset"].isin(["flags", "scene"])]
    ev = D.dependence_evidence(part, resamples=2)
    pd.testing.assert_frame_equal(ev.pooled, pooled_profiles(ev.named))
    assert set(ev.summary["dataset"]) == {"flags", "scene"}
    assert np.isfinite(ev.alpha_gap) and ev.steps.all()
