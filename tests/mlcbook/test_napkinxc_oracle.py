"""napkinXC itself as the oracle of the measures at k.

napkinXC is no dependency of the library: the ``test`` extra installs it (its wheels
cover CPython 3.11-3.13), and this file calls its own functions: P@k,
R@k, nDCG@k (whose normaliser is the ideal one, mlcbook's default, not ``"k"``),
PSP@k, PSnDCG@k, coverage@k and Jain et al.'s inverse propensities.  Scores without
ties (napkinXC breaks ties by its sort; mlcbook averages them).  1e-13: the same sums
of at most k discounts or inverse propensities in another order.
"""

from __future__ import annotations

import numpy as np
import pytest

import napkinxc.metrics as N
from mlcbook import extreme as X

TOL = 1e-13


@pytest.mark.parametrize("k", [1, 3, 5])
def test_measures_at_k_equal_napkinxc(k):
    rng = np.random.default_rng(k)
    n, K = 300, 25
    Y = (rng.random((n, K)) < 0.12).astype(int)
    Y[:, 0] = 1
    F = rng.random((n, K))
    inv = N.Jain_et_al_inverse_propensity(Y)
    p = X.jain_propensity(Y)
    np.testing.assert_allclose(1 / p, inv, rtol=1e-14)
    pairs = {
        "precision": (X.precision_at_k(Y, F, k), N.precision_at_k(Y, F, k)),
        "recall": (X.recall_at_k(Y, F, k), N.recall_at_k(Y, F, k)),
        "ndcg": (X.ndcg_at_k(Y, F, k), N.ndcg_at_k(Y, F, k)),
        "psprecision": (X.psprecision_at_k(Y, F, k, propensity=p),
                        N.psprecision_at_k(Y, F, inv, k)),
        "psndcg": (X.psndcg_at_k(Y, F, k, propensity=p), N.psndcg_at_k(Y, F, inv, k)),
        "coverage": (X.coverage_at_k(Y, F, k), N.coverage_at_k(Y, F, k)),
    }
    for name, (ours, theirs) in pairs.items():
        assert ours == pytest.approx(theirs[k - 1], abs=TOL), name
    # the "k" normaliser is not napkinXC's: rows with fewer than k labels differ
    if k > 1:
        assert abs(X.ndcg_at_k(Y, F, k, normalization="k") - N.ndcg_at_k(Y, F, k)[k - 1]) > 1e-3
