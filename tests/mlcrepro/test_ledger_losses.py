"""The losses chapter's ledger module: its evidence against closed forms and brute force."""

import math
from itertools import product

import numpy as np
import pytest

from mlcrepro.huellermeier2022 import ledger_losses as LL

# identities of double-precision sums of at most a few thousand terms in [0, 1]
TOL = 1e-12


def test_printed_values_are_read_as_printed():
    assert LL.paper_value("Sec. 4.4, example 1", "learner A", "binomial k=3") == "0.488"
    assert LL.paper_value("Sec. 4.2 table", "uniform weights (Hamming)", "loss") == "0.30"
    with pytest.raises(ValueError, match="no printed value"):
        LL.paper_value("Sec. 4.4, example 1", "learner C", "binomial k=1")


def test_learner_profiles_match_the_closed_forms():
    prof = LL.learner_profiles(q=0.2, n_sim=20_000, seed=3)
    # A: a fixed k-set of labels is entirely right with probability 0.8**k
    np.testing.assert_allclose(prof["exact A"], [1 - 0.8**k for k in (1, 2, 3)], atol=TOL)
    np.testing.assert_allclose(prof["exact B"], 0.5, atol=TOL)
    # the simulation within 4 standard errors of the exact value (fails 6e-5 of the time)
    assert (abs(prof["simulated A"] - prof["exact A"]) <= 4 * prof["std. error A"]).all()
    assert abs(prof["simulated B"] - 0.5).max() < 4 * 0.5 / math.sqrt(20_000)


def test_table1_and_its_optima_by_brute_force():
    support, probs = LL.table1()
    assert support.shape == (32, 5) and abs(probs.sum() - 1) < 1e-9
    assert list(map(tuple, support)) == list(product([0, 1], repeat=5))
    opt = LL.table1_optima()
    # Hamming (k = 1): the marginal mode; subset 0/1 (k = 5): the most probable vector
    assert opt[1] == " ".join(str(int(b)) for b in (probs @ support > 0.5))
    assert opt[5] == " ".join(map(str, support[np.argmax(probs)]))
    # every k by brute force: expected loss of each candidate, error-count form
    for k in range(1, 6):
        m = (support[:, None, :] != support[None, :, :]).sum(axis=2)  # candidate x truth
        loss = 1 - np.vectorize(math.comb)(5 - m, k) / math.comb(5, k)
        best = support[np.argmin(loss @ probs)]
        assert opt[k] == " ".join(map(str, best))


def test_owa_printed_sum_is_v_of_m_over_K_not_the_loss():
    gap = LL.owa_printed_gap(K=6)
    m = np.arange(7)
    v = np.array([math.comb(j, 2) for j in m]) / math.comb(6, 2)  # binomial k = 2
    loss = 1 - np.array([math.comb(6 - j, 2) for j in m]) / math.comb(6, 2)
    np.testing.assert_allclose(gap.iloc[0], np.abs(v - loss), atol=TOL)
    assert gap.to_numpy().max() > 0.5  # the slip is no rounding matter


def test_identities_hold_to_rounding():
    assert (LL.orientation_gaps() < TOL).all()
    assert LL.moebius_gap() < TOL
    assert LL.binomial_moebius_gap() < TOL
    gaps = LL.polynomial_gaps()
    assert np.all(np.diff(gaps) <= 0) and gaps[-1] < 1e-4
    marg, preds = LL.three_label_example()
    np.testing.assert_allclose(marg, 9 / 16, atol=TOL)
    assert tuple(preds[1][0]) == (1, 1, 1) and tuple(preds[3][0]) == (0, 0, 0)


def test_the_ledger_carries_an_id_on_every_row():
    led = LL.losses_ledger()
    led.check()
    ids = [e.claim_ids for e in led.entries]
    assert all(ids) and len(led.entries) == 47
    assert ids[:5] == [("HU013",), ("HU014",), ("HU015",), ("EX001",), ("HU016",)]
    rows = {e.claim: e for e in led.entries}
    assert rows["learner A, binomial k=2 (exact)"].status == "differs"
    assert rows["learner A, binomial k=2 (simulation, n=10^6)"].cause is not None
    assert rows["learner A, binomial k=1 (exact)"].cause is None
    assert len(LL.verdict_table(led).frame) == 21
