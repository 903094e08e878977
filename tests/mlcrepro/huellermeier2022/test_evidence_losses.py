"""Secs. 3-4 recomputed: each number against a closed form or brute force, each identity
against its definition, and its power to see a broken identity."""

import math
from itertools import product

import numpy as np
import pytest

from mlcbook import losses as L
from mlcrepro.huellermeier2022 import evidence_losses as E
from mlcrepro.huellermeier2022.printed import table1

# identities of double-precision sums of at most a few thousand terms in [0, 1]
TOL = 1e-12


def test_learner_profiles_match_the_closed_forms():
    prof = E.learner_profiles(q=0.2, n_sim=20_000, seed=3)
    # A: a fixed k-set of labels is entirely right with probability 0.8**k
    np.testing.assert_allclose(prof["exact A"], [1 - 0.8**k for k in (1, 2, 3)], atol=TOL)
    np.testing.assert_allclose(prof["exact B"], 0.5, atol=TOL)
    # the simulation within 4 standard errors of the exact value (fails 6e-5 of the time)
    assert (abs(prof["simulated A"] - prof["exact A"]) <= 4 * prof["std. error A"]).all()
    assert abs(prof["simulated B"] - 0.5).max() < 4 * 0.5 / math.sqrt(20_000)


def test_table1_optima_by_brute_force():
    support, probs = table1()
    opt = E.table1_optima()
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
    gap = E.owa_printed_gap(K=6)
    m = np.arange(7)
    v = np.array([math.comb(j, 2) for j in m]) / math.comb(6, 2)  # binomial k = 2
    loss = 1 - np.array([math.comb(6 - j, 2) for j in m]) / math.comb(6, 2)
    np.testing.assert_allclose(gap.iloc[0], np.abs(v - loss), atol=TOL)
    assert gap.to_numpy().max() > 0.5  # the slip is no rounding matter


def test_identities_hold_to_rounding():
    assert (E.orientation_gaps() < TOL).all()
    assert E.moebius_gap() < TOL
    assert E.binomial_moebius_gap() < TOL
    gaps = E.polynomial_gaps()
    assert np.all(np.diff(gaps) <= 0) and gaps[-1] < 1e-4
    marg, preds = E.three_label_example()
    np.testing.assert_allclose(marg, 9 / 16, atol=TOL)
    assert tuple(preds[1][0]) == (1, 1, 1) and tuple(preds[3][0]) == (0, 0, 0)
    assert E.moebius_pair_gap(trials=3) < TOL
    assert E.additive_choquet_gap(n=20) < TOL
    assert E.owa_counting_gap(n=20) < TOL
    assert max(E.family_special_case_gaps(n=30)) < TOL


def test_a_broken_identity_is_seen(monkeypatch):
    orig = L.from_moebius
    monkeypatch.setattr(E.L, "from_moebius", lambda m: orig(m) * 1.001)
    assert E.moebius_pair_gap(trials=1) > 1e-4


def test_random_capacity_is_a_capacity():
    rng = np.random.default_rng(0)
    for K in range(1, 7):
        mu = E.random_capacity(K, rng)
        L.check_capacity(mu, tol=0.0)  # normalised and monotone (raises otherwise)


def test_bayes_modes_by_enumeration():
    # brute force for one distribution: the risk of every candidate, by its definition
    rng = np.random.default_rng(5)
    support = np.array(list(product([0, 1], repeat=4)))[rng.choice(16, 7, replace=False)]
    p = rng.dirichlet(np.ones(7))
    cands = np.array(list(product([0, 1], repeat=4)))
    ham = [(p * (c != support).mean(axis=1)).sum() for c in cands]
    sub = [(p * (c != support).any(axis=1)).sum() for c in cands]
    assert np.array_equal(cands[np.argmin(ham)], (p @ support > 0.5).astype(int))
    assert np.array_equal(cands[np.argmin(sub)], support[np.argmax(p)])
    assert E.bayes_modes(trials=3, K_min=3, K_max=4) == (6, 6)
    with pytest.raises(ValueError, match="K_min must be <= K_max"):
        E.bayes_modes(K_min=5, K_max=4)


def test_additive_choquet_by_its_definition():
    # the Choquet integral by sorting (Sec. 3.3), written out for one instance
    w = np.array([0.5, 0.3, 0.2])
    bits = (np.arange(8)[:, None] >> np.arange(3)) & 1
    mu = bits @ w
    u = np.array([0.9, 0.2, 0.6])
    order = np.argsort(u)
    c, prev = 0.0, 0.0
    for i, j in enumerate(order):
        rest = sum(1 << int(k) for k in order[i:])
        c += (u[j] - prev) * mu[rest]
        prev = u[j]
    assert c == pytest.approx(u @ w, abs=1e-12)  # eq. 12: additive -> weighted mean


def test_worked_errors_and_profile_ordering_by_closed_forms():
    assert E.worked_errors() == "0.2, 0.7, 0.1, 0.1, 0.4, 0.3"
    a, b, ratio = E.profile_ordering()
    # A: 1 - 0.8^k for k = 1, 2 and 1 - 0.8^3 = 0.488; B: half of the instances all wrong
    np.testing.assert_allclose(a, [0.2, 0.36, 0.488], atol=TOL)
    np.testing.assert_allclose(b, 0.5, atol=TOL)
    np.testing.assert_allclose(ratio, a / 0.5, atol=TOL)
    with pytest.raises(ValueError, match="q must be"):
        E.profile_ordering(q=1.5)


def test_the_evidence_holds_every_part_once():
    ev = E.losses_evidence()
    assert ev.owa_weights_15 == "0,1,2,3,4,5"
    # the worked example: Hamming = mean error, subset = largest error (Sec. 4.2 table)
    assert ev.owa_losses[1] == pytest.approx(np.abs(E.Y6 - E.S6).mean(), abs=TOL)
    assert ev.owa_losses[6] == pytest.approx(np.abs(E.Y6 - E.S6).max(), abs=TOL)
    assert ev.table1_sum == pytest.approx(1.0, abs=1e-9)
    assert ev.bayes_modes == (100, 100)  # 25 distributions for each K = 3..6
    with pytest.raises(AttributeError):
        ev.moebius_gap = 1.0  # frozen
    assert sorted(ev.table1_optima) == [1, 2, 3, 4, 5]
