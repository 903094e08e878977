"""mlcrepro: each function's numbers against an independent computation, its
rows' statuses, its power to see a difference, and its refusal of bad input."""

import itertools

import numpy as np
import pytest

from mlcbook import losses as L
from mlcbook import metrics as M
from mlcrepro.huellermeier2022 import evidence as H
from mlcrepro.ledger import Ledger, unknown


def _led():
    return Ledger("demo", "A. Author (2020)")


def test_every_function_refuses_a_ledger_that_is_not_one():
    for f in (
        H.add_moebius_pair,
        H.add_worked_errors,
    ):
        with pytest.raises(TypeError, match="led must be"):
            f(object())


# ------------------------------------------------------------------ Hüllermeier et al.
def test_random_capacity_is_a_capacity():
    rng = np.random.default_rng(0)
    for K in range(1, 7):
        mu = H.random_capacity(K, rng)
        L.check_capacity(mu, tol=0.0)  # normalised and monotone (raises otherwise)


def test_bayes_modes_by_enumeration():
    # brute force for one distribution: the risk of every candidate, by its definition
    rng = np.random.default_rng(5)
    support = np.array(list(itertools.product([0, 1], repeat=4)))[rng.choice(16, 7, replace=False)]
    p = rng.dirichlet(np.ones(7))
    cands = np.array(list(itertools.product([0, 1], repeat=4)))
    ham = [(p * (c != support).mean(axis=1)).sum() for c in cands]
    sub = [(p * (c != support).any(axis=1)).sum() for c in cands]
    assert np.array_equal(cands[np.argmin(ham)], (p @ support > 0.5).astype(int))
    assert np.array_equal(cands[np.argmin(sub)], support[np.argmax(p)])
    e = H.add_bayes_modes(_led(), trials=3, K_min=3, K_max=4)
    assert (e.status, e.ours) == ("reproduced", "6 of 6 distributions")


def test_identity_rows_are_reproduced_and_see_a_broken_identity(monkeypatch):
    led = _led()
    rows = [
        H.add_moebius_pair(led, trials=3),
        H.add_additive_choquet(led, n=20),
        H.add_owa_counting(led, n=20),
        *H.add_family_special_cases(led, n=30),
    ]
    assert [r.status for r in rows] == ["reproduced"] * 5
    assert all(r.tol == 1e-12 and r.paper == "0" for r in rows)
    led.check()
    orig = L.from_moebius
    monkeypatch.setattr(H.L, "from_moebius", lambda m: orig(m) * 1.001)
    with pytest.raises(ValueError, match="differs"):
        H.add_moebius_pair(_led(), trials=1)


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


def test_worked_errors_and_profile():
    led = _led()
    assert H.add_worked_errors(led).status == "reproduced"
    e = H.add_profile_ordering(led)
    # closed forms: A's binomial loss 1 - (1-q)^k for k = 1, 2 and the paper's 0.488 for k = 3
    assert "0.200, 0.360, 0.488" in e.ours and e.status == "reproduced"
    assert 1 - 0.8**2 == pytest.approx(0.36)
    with pytest.raises(ValueError, match="q must be"):
        H.add_profile_ordering(led, q=1.5)


def test_empty_prediction_hamming_is_the_density():
    from mlcbook.datasets import dataset_statistics

    rng = np.random.default_rng(2)
    Ys = {
        "a": (rng.random((40, 10)) < 0.05).astype(int),
        "b": (rng.random((40, 4)) < 0.3).astype(int),
        "c": (rng.random((40, 20)) < 0.02).astype(int),
    }
    stats = dataset_statistics(Ys)
    e = H.add_empty_prediction_hamming(_led(), stats)
    for name, Y in Ys.items():
        assert f"{name} {M.hamming_loss(Y, np.zeros_like(Y)):.3f}" in e.ours
    assert e.status == "qualitative"  # a, c below 0.1: most of three
    with pytest.raises(ValueError, match="cardinality"):
        H.add_empty_prediction_hamming(_led(), stats.drop(columns="cardinality"))
    with pytest.raises(TypeError):
        H.add_empty_prediction_hamming(_led(), {"a": 1})


# ------------------------------------------------------------------ Sec. 6 (knn)
from mlcrepro.huellermeier2022 import knn_evidence as KNN


def _toy_neighbors(seed=0, n=40, c=5, K=4):
    rng = np.random.default_rng(seed)
    return (rng.random((n, c, K)) < 0.4).astype(np.int8)


def _brute_minimisers(N, k):
    """All minimisers of the summed binomial-k loss over {0,1}^K, by enumeration."""
    K = N.shape[1]
    cands = np.array(list(itertools.product([0, 1], repeat=K)))
    loss = L.error_count_losses("binomial", k, K)
    totals = [sum(loss[int((c != y).sum())] for y in N) for c in cands]
    best = min(totals)
    return {tuple(c) for c, t in zip(cands, totals) if t <= best + 1e-12}


def test_tied_mode_and_k_invariance_by_enumeration():
    N = _toy_neighbors()
    ties = KNN._tied_mode(N)
    P = KNN._predictions(N)
    K = N.shape[2]
    for q in range(len(N)):
        full = _brute_minimisers(N[q], K)  # k = K: subset 0/1
        assert ties[q] == (len(full) > 1)
        for k in range(1, K + 1):
            assert tuple(P[k - 1, q]) in _brute_minimisers(N[q], k)
    led = _led()
    e = KNN.add_tied_modes(led, {"toy": N}, unknown("toy"))
    assert f"toy {ties.mean():.2f}" in e.ours
    same = (P[:-1] == P[-1][None]).all(axis=2).mean()
    e = KNN.add_k_invariance(led, {"toy": N}, unknown("toy"))
    assert f"toy {same:.2f}" in e.ours


def test_consensus_exactness_rows():
    nb = {"a": _toy_neighbors(1), "b": _toy_neighbors(2, K=6)}
    e = KNN.add_consensus_exactness(_led(), nb, sample={"b": 10})
    assert e.status == "reproduced"
    assert e.paper == f"{40 * 4 + 10 * 6} of {40 * 4 + 10 * 6} (query, k)"
    assert "b 10 sampled queries" in e.note


@pytest.mark.parametrize(
    "bad, err",
    [
        ({}, TypeError),
        ([1], TypeError),
        ({"a": np.full((2, 3, 4), 2)}, ValueError),
        ({"a": np.zeros((2, 3))}, ValueError),
    ],
)
def test_knn_readings_refuse_bad_neighbors(bad, err):
    with pytest.raises(err):
        KNN.add_tied_modes(_led(), bad)


def test_fig4_neighbor_labels_follow_the_committed_protocol():
    # the consensus reach of these neighbours is the committed knn_consensus row, which
    # consensus_summary computed under the Fig. 4 folds and features
    from mlcbook._io import read_csv_exact
    from mlcbook.learners.knn import consensus_mask
    from mlcrepro._paths import results_dir

    N = KNN.fig4_neighbor_labels("flags-12")
    committed = read_csv_exact(results_dir() / "knn_consensus.csv").set_index("dataset")
    row = committed.loc["flags-12"]
    assert N.shape == (194, 9, int(row["K"]))
    free = N.shape[2] - consensus_mask(N).sum(axis=1)
    # 1e-12: a mean of 194 small integers, summed in another order
    assert free.mean() == pytest.approx(row["mean_free"], abs=1e-12)
    assert int(free.max()) == row["max_free"]
    with pytest.raises(ValueError):
        KNN.fig4_neighbor_labels("flags-12", n_splits=1)
