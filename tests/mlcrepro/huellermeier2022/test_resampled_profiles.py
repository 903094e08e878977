"""The Sec. 5.3 claims on all bootstrap resamples at once equal the reference path: each
resample pooled by pandas (``pooled_profiles``) and read by ``holding``, through
``robustness``'s own draws."""

import numpy as np
import pandas as pd
import pytest

from mlcbook.profiles import pooled_profiles
from mlcrepro.huellermeier2022 import evidence_dependence as D
from mlcrepro.huellermeier2022.experiments import dependence_table
from mlcrepro.huellermeier2022.names import paper_names
from mlcrepro.huellermeier2022.resampled_profiles import KEYS, resampled_profiles
from mlcrepro.tables import robustness


def _reference(named, sec53, resamples, seed):
    """robustness over pandas-pooled resamples, keeping each resample's profile and counts."""
    pooled, counts = [], []

    def holds(t):
        p = pooled_profiles(t)
        pooled.append(p)
        counts.append({(c, f): n for f in D.FAMILIES for c, n in D.holding(p, f).items()})
        return D.verdicts(p, sec53.needed)

    hits = robustness(named, holds, resamples=resamples, seed=seed)
    return hits, pooled, counts


def _check(named, resamples, seed):
    fast = resampled_profiles(named, resamples=resamples, seed=seed)
    pd.testing.assert_frame_equal(fast.pooled, pooled_profiles(named))
    sec53 = D.count_claims(fast, fast.pooled)
    hits, ref_pooled, ref_counts = _reference(named, sec53, resamples, seed)
    assert list(sec53.hits.items()) == list(hits.items())  # same claims, order, counts
    counts = {
        (c, f): n for f in D.FAMILIES for c, n in D.holding_resampled(fast, f).items()
    }
    for r in range(resamples):
        assert {key: int(n[r]) for key, n in counts.items()} == ref_counts[r]
        mine = fast.points[KEYS].assign(loss=fast.loss[r]).dropna(subset=["loss"])
        both = mine.merge(ref_pooled[r], on=KEYS, how="outer", suffixes=("", "_ref"))
        assert len(both) == len(mine) == len(ref_pooled[r])  # the same points drawn
        # the same sums in the same order (pandas' Kahan-compensated groupby sum): to the
        # bit, which the claims need (genbase's curves start and end at equal ratios)
        assert (both["loss"].to_numpy() == both["loss_ref"].to_numpy()).all()
    return fast


@pytest.fixture(scope="module")
def named():
    return paper_names(dependence_table())


@pytest.mark.parametrize("seed", [0, 5, 17])
def test_all_resamples_at_once_equal_the_reference_on_the_committed_study(named, seed):
    _check(named, resamples=3, seed=seed)


def _toy_named(seed=0, folds=3):
    """Eight learners on two datasets with losses that vary by fold; RAkEL-k5 ran on one
    fold of emotions only, so some resamples have no point of its curve there."""
    rng = np.random.default_rng(seed)
    learners = ["BR", "LP", "CC", "PCT", "RAkEL-k2", "RAkEL-k5", "BOOMER-1", "BOOMER-K"]
    rows = [
        {"dataset": d, "K": 3, "learner": learner, "family": fam, "param": float(k),
         "fold": f, "n_test": int(rng.integers(5, 15)), "loss": k * rng.uniform(0.05, 0.2)}
        for d in ("scene", "emotions")
        for fam in D.FAMILIES
        for learner in learners
        for f in range(folds)
        for k in (1, 2, 3)
        if not (d == "emotions" and learner == "RAkEL-k5" and f > 0)
    ]
    return pd.DataFrame(rows)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_curve_missing_from_a_resample_counts_as_in_the_reference(seed):
    fast = _check(_toy_named(seed), resamples=12, seed=seed)
    emotions = fast.datasets.index("emotions")
    missing = np.isnan(fast.curves("RAkEL-k5", "binomial")[:, emotions, 0])
    assert missing.any() and not missing.all()  # both cases occur among the resamples
