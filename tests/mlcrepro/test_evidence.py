"""mlcrepro: each function's numbers against an independent computation, its
rows' statuses, its power to see a difference, and its refusal of bad input."""

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm

from mlcbook import losses as L
from mlcbook import metrics as M
from mlcrepro.huellermeier2022 import evidence as H
from mlcrepro.park_read2018 import evidence as PR
from mlcrepro.zhang_zhou2014 import evidence as ZZ
from mlcrepro.ledger import Ledger, unknown


def _led():
    return Ledger("demo", "A. Author (2020)")


# ------------------------------------------------------------------ Zhang & Zhou
def _by_sets(Y, P):
    """The five example-based measures of Zhang & Zhou, Sec. 2.2.2, with Python sets."""
    rows = [({j for j in np.flatnonzero(y)}, {j for j in np.flatnonzero(p)}) for y, p in zip(Y, P)]
    q, n = Y.shape[1], len(rows)
    div = lambda a, b: 1.0 if b == 0 else a / b  # noqa: E731  (zero_division = 1)
    return {
        "subset accuracy": sum(a == b for a, b in rows) / n,
        "Hamming loss": sum(len(a ^ b) / q for a, b in rows) / n,
        "Accuracy_exam": sum(div(len(a & b), len(a | b)) for a, b in rows) / n,
        "Precision_exam": sum(div(len(a & b), len(b)) for a, b in rows) / n,
        "Recall_exam": sum(div(len(a & b), len(a)) for a, b in rows) / n,
    }


def test_example_based_definitions_agree_with_a_set_computation_and_sklearn():
    Y, P = ZZ.random_label_pair(60, 5, seed=3)
    assert (Y.sum(axis=1) == 0).any() and (P.sum(axis=1) == 0).any()  # empty sets drawn
    ref = _by_sets(Y, P)
    # 1e-12: sums of 60 terms <= 1 in double precision
    assert M.subset_accuracy(Y, P) == pytest.approx(ref["subset accuracy"], abs=1e-12)
    assert skm.hamming_loss(Y, P) == pytest.approx(ref["Hamming loss"], abs=1e-12)
    assert M.jaccard_score(Y, P) == pytest.approx(ref["Accuracy_exam"], abs=1e-12)
    assert M.precision(Y, P, average="instance") == pytest.approx(ref["Precision_exam"], abs=1e-12)
    assert M.recall(Y, P, average="instance") == pytest.approx(ref["Recall_exam"], abs=1e-12)
    led = _led()
    rows = ZZ.add_example_based_definitions(led, seed=1, draws=5)
    assert [r.status for r in rows] == ["reproduced"] * 5
    assert all(r.source.startswith("Zhang & Zhou, Sec. 2.2.2, ") for r in rows)
    led.check()


def test_example_based_definitions_see_a_wrong_measure(monkeypatch):
    monkeypatch.setattr(ZZ.M, "hamming_loss", lambda Y, P: 0.5)
    with pytest.raises(ValueError, match="differs"):  # a difference needs its cause
        ZZ.add_example_based_definitions(_led(), draws=2)


def test_f_beta_combination_by_hand():
    Y, P = ZZ.random_label_pair(200, 6, seed=0)
    ref = _by_sets(Y, P)
    p, r = ref["Precision_exam"], ref["Recall_exam"]
    # the F of the averages (Zhang & Zhou's formula) computed from the set counts
    assert M.example_based_f_measure(Y, P, 2.0) == pytest.approx(
        5 * p * r / (4 * p + r), abs=1e-12
    )
    rows = ZZ.add_f_beta_combination(_led())
    assert [e.status for e in rows] == ["reproduced", "reproduced"]
    assert "another quantity" in rows[1].note


def test_subset_accuracy_strictness_holds_and_follows_accuracy_to_the_q():
    led = _led()
    e = ZZ.add_subset_accuracy_strictness(led, qs=(1, 4, 16), n=4000, resamples=5)
    assert e.status == "reproduced" and (e.hits, e.trials) == (5, 5)
    # the printed subset accuracies lie within 4 standard errors of accuracy**q
    for q, shown in zip((1, 4, 16), e.ours.split("(")[1].split(";")[0].split(", ")):
        value = float(shown.split(": ")[1])
        se = math.sqrt(0.9**q * (1 - 0.9**q) / 4000)
        assert abs(value - 0.9**q) <= 4 * se + 5e-4  # + half a printed unit


@pytest.mark.parametrize(
    "kw, err",
    [
        ({"accuracy": 1.0}, ValueError),
        ({"qs": (4, 2)}, ValueError),
        ({"qs": (1,)}, ValueError),
        ({"seed": -1}, ValueError),
        ({"n": 2.5}, TypeError),
    ],
)
def test_subset_accuracy_strictness_refuses_bad_input(kw, err):
    with pytest.raises(err):
        ZZ.add_subset_accuracy_strictness(_led(), **kw)


def test_every_function_refuses_a_ledger_that_is_not_one():
    for f in (
        ZZ.add_example_based_definitions,
        H.add_moebius_pair,
        H.add_worked_errors,
        PR.add_vector_form,
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


# ------------------------------------------------------------------ Park & Read
def test_vector_form_and_gradient():
    led = _led()
    assert PR.add_vector_form(led, n=50).status == "reproduced"
    e = PR.add_independent_gradient(led, n=30)
    assert e.status == "reproduced"
    # the check can see a dependence: at alpha = 0.5, beta = 2 the cross terms are not 0
    rng = np.random.default_rng(0)
    T, Z = rng.integers(0, 2, (30, 5)), rng.uniform(0.05, 0.85, (30, 5))
    assert PR._cross_terms(T, Z, 0.5, 2.0, 0.1) > 1e-4


def _grid(f):
    """A toy grid over the paper's alphas and betas with values f(dataset, alpha, beta, col)."""
    alphas = [1e-5] + [round(0.1 * i, 1) for i in range(1, 11)]
    betas = [2.0**j for j in range(8)]
    rows = []
    for d in ("emotions", "slashdot"):
        for a, b in itertools.product(alphas, betas):
            row = {"dataset": d, "alpha": a, "beta": b}
            for col in ("train_jaccard", "test_jaccard", "train_exact", "test_exact"):
                row[col] = f(d, a, b, col)
            rows.append(row)
    return pd.DataFrame(rows)


def test_grid_readings_on_toy_grids():
    # Jaccard high on the diagonal and in the corner; Exact the same shape
    def diag(d, a, b, col):
        on = round(math.log2(b) * 10 / 7) == round(a * 10) or (a < 0.05 and b == 1)
        corner = 0.3 if (a < 0.05 and b == 1 and col.startswith("train")) else 0.0
        return (0.6 if on else 0.4) + corner

    g = _grid(diag)
    led = _led()
    assert PR.add_diagonal_reading(led, g).status == "qualitative"
    assert PR.add_slashdot_test_corner(led, g).status == "qualitative"  # +0.2 test, +0.5 train
    assert PR.add_exact_resembles_jaccard(led, g).status == "qualitative"
    flat = _grid(lambda d, a, b, col: 0.5)
    with pytest.raises(ValueError, match="differs"):  # no diagonal: needs a cause
        PR.add_diagonal_reading(_led(), flat)
    e = PR.add_diagonal_reading(_led(), flat, unknown("a toy grid has no diagonal"))
    assert e.status == "differs" and e.cause.kind == "unknown"


def test_grid_readings_refuse_bad_grids():
    g = _grid(lambda d, a, b, col: 0.5)
    with pytest.raises(TypeError):
        PR.add_diagonal_reading(_led(), g.to_dict())
    with pytest.raises(ValueError, match="lacks"):
        PR.add_diagonal_reading(_led(), g.drop(columns="test_jaccard"))
    with pytest.raises(ValueError, match="one row per"):
        PR.add_diagonal_reading(_led(), pd.concat([g, g]))
    with pytest.raises(ValueError, match="slashdot"):
        PR.add_slashdot_test_corner(_led(), g[g["dataset"] == "emotions"])
    with pytest.raises(TypeError, match="cause"):
        PR.add_diagonal_reading(_led(), g, cause="no reason")


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
    from mlcrepro._paths import results_dir
    from mlcbook.learners.knn import consensus_mask

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
