"""The authors' study on flags with its Java learners (Weka's J48 in MEKA, CLUS)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from mlcbook._io import read_csv_exact
from mlcbook.profiles import pooled_profiles
from mlcrepro._paths import results_dir
from mlcrepro.huellermeier2022 import authors_study as A
from mlcrepro.huellermeier2022 import reference
from mlcrepro.huellermeier2022.names import paper_name
from mlcrepro.results import canonical
from mlcrepro.tolerances import BOOMER_K_POOLED_ATOL, CLOSED_FORM_RTOL


def test_flags_j48_learners_equal_the_authors_released_profiles():
    # The released flags profiles (binomial k = 1..7 and the 55 polynomial alphas) are
    # pooled means of 0/1 errors over the same 194 x 7 test entries: equal up to float
    # rounding of the sums (1e-12).
    t = A.run_authors_study(
        ["flags"], ["BR-J48", "CC-J48", "LP-J48", "RAkEL-J48"], cache_dir=False
    )
    ours = pooled_profiles(t)
    ref = reference.load_reference_results()
    ref = ref[ref.dataset == "flags"]
    assert set(ours.learner) == {
        "BR-J48", "CC-J48", "LP-J48", *(f"RAkEL-J48-k{k}-m{m}" for k, m in A.rakel_order(12))
    }
    for learner, g in ours.groupby("learner"):
        theirs = ref[ref.learner == paper_name(learner)]
        for family in ("binomial", "polynomial"):
            a = g[g.family == family].sort_values("param")
            b = theirs[theirs.family == family].sort_values("param")
            np.testing.assert_array_equal(a.param.to_numpy(), b.param.to_numpy())
            np.testing.assert_allclose(a.loss, b.loss, rtol=0, atol=1e-12, err_msg=learner)
    assert (t.groupby("learner").fold.nunique() == 10).all()
    assert (t.cpu_seconds >= 0).all()


@pytest.mark.slow
@pytest.mark.recompute
@pytest.mark.boomer  # the study includes BOOMER-1 and BOOMER-K
def test_committed_table_recomputes_on_flags():
    """Every learner on flags against the committed ``dependence_authors``.

    J48 and CLUS (Java) and BOOMER-1 give integer predictions equal on every CPU tried:
    identifying columns equal exactly, losses (closed forms of the predictions) within
    ``CLOSED_FORM_RTOL`` on splits 0-2; the alphas are the authors' literals (exact).
    BOOMER-K is not machine-independent (``BOOMER_K_POOLED_ATOL``): its pooled profile
    over all ten folds is compared within that measured bound.  CPU time is a
    measurement, not compared.
    """
    csv = results_dir() / "dependence_authors.csv"
    meta = csv.with_suffix(".json")
    assert csv.exists() and meta.exists(), "the study's table is committed with the chapter"
    saved = json.loads(meta.read_text())["config"]
    assert saved == canonical(A.authors_study_config()), "stale: make table NAME=dependence_authors"
    committed = read_csv_exact(csv)
    flags = committed[committed.dataset == "flags"]
    exact = [m for m in A.LEARNERS if m != "BOOMER-K-2021"]
    part = flags[(flags.fold <= 2) & (flags.learner != "BOOMER-K-2021")]
    part = part.reset_index(drop=True)
    got = A.run_authors_study(["flags"], exact, splits=[0, 1, 2], cache_dir=False)
    keys = ["dataset", "folds", "K", "learner", "fold", "n_test", "family", "param"]
    assert len(got) == len(part) > 0
    pd.testing.assert_frame_equal(got[keys], part[keys], check_exact=True)
    np.testing.assert_allclose(got["loss"], part["loss"], rtol=CLOSED_FORM_RTOL, atol=0)
    k_got = pooled_profiles(A.run_authors_study(["flags"], ["BOOMER-K-2021"], cache_dir=False))
    k_committed = pooled_profiles(flags[flags.learner == "BOOMER-K-2021"])
    pd.testing.assert_frame_equal(k_got[["family", "param"]], k_committed[["family", "param"]])
    np.testing.assert_allclose(k_got["loss"], k_committed["loss"], rtol=0,
                               atol=BOOMER_K_POOLED_ATOL)


@pytest.mark.recompute
def test_committed_table_recomputes_on_emotions_split_0():
    """MEKA's four learners on J48 and CLUS's tree on a second dataset, split 0.

    A J48 fit sends its features once per matrix and repeats no identical fit, and CLUS's
    data files are written with each distinct number printed once: the rows must be the
    committed ones (identifying columns exactly, losses within ``CLOSED_FORM_RTOL`` as in
    the flags test above).  The forest shares the tree's data files (checked byte for byte
    in ``tests/java/test_clus.py``) and BOOMER runs no code of ours, so neither is refitted.
    """
    committed = read_csv_exact(results_dir() / "dependence_authors.csv")
    learners = ["BR-J48", "CC-J48", "LP-J48", "RAkEL-J48", "PCT-CLUS"]
    got = pd.concat([A.authors_cell("emotions", m, 0) for m in learners], ignore_index=True)
    family = committed.learner.str.replace(r"-k\d+-m\d+$", "", regex=True)
    part = committed[
        (committed.dataset == "emotions") & (committed.fold == 0) & family.isin(learners)
    ].reset_index(drop=True)
    keys = ["dataset", "folds", "K", "learner", "fold", "n_test", "family", "param"]
    assert len(got) == len(part) == 9 * 61  # RAkEL's 5 ks and 4 learners x (6 k + 55 alphas)
    pd.testing.assert_frame_equal(got[keys], part[keys], check_exact=True)
    np.testing.assert_allclose(got["loss"], part["loss"], rtol=CLOSED_FORM_RTOL, atol=0)
