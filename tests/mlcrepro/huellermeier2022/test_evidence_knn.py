"""Sec. 6 read: the pooled tables and their readings, and the three statements about the
minimiser against enumeration on toy neighbourhoods."""

import itertools

import numpy as np
import pytest

from mlcbook import losses as L
from mlcbook._io import read_csv_exact
from mlcbook.learners.knn import consensus_mask
from mlcrepro._paths import results_dir
from mlcrepro.huellermeier2022 import evidence_knn as E
from mlcrepro.huellermeier2022.experiments import KNN_DATASETS, KNN_PAPER, knn_tables
from mlcrepro.huellermeier2022.knn_fig4 import loss_matrix, neighbor_labels
from mlcrepro.tables import robustness, surrogate_readings


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


def test_readings_are_the_surrogate_readings_of_each_pooled_table():
    main = knn_tables()["hamming"]
    M = E.matrices(main)
    assert list(M) == list(KNN_DATASETS)
    for d in ("birds", "flags-12"):
        assert M[d].equals(loss_matrix(main[main.dataset == d]))
    r = E.readings(M)
    assert r.loc["birds", E.HAMMING_RANK] == surrogate_readings(M["birds"])[E.HAMMING_RANK]
    with pytest.raises(TypeError, match="Fig. 4 table"):
        E.matrices(main.drop(columns="dataset"))


def test_tied_mode_and_k_invariance_by_enumeration():
    N = _toy_neighbors()
    ties = E._tied_mode(N)
    P = E._predictions(N)
    K = N.shape[2]
    for q in range(len(N)):
        full = _brute_minimisers(N[q], K)  # k = K: subset 0/1
        assert ties[q] == (len(full) > 1)
        for k in range(1, K + 1):
            assert tuple(P[k - 1, q]) in _brute_minimisers(N[q], k)
    assert E.tied_mode_share(N) == ties.mean()
    assert E.k_invariant_share(N) == (P[:-1] == P[-1][None]).all(axis=2).mean()


def test_only_a_tied_mode_lets_the_tie_break_change_a_prediction():
    for seed in range(5):
        N = _toy_neighbors(seed, n=60, c=5, K=3)
        t = E.tie_effect(N)
        assert t.queries == 60 and t.tied == E._tied_mode(N).sum()
        assert 0 < t.changed <= t.tied  # a unique mode is the prediction under any tie-break


def test_consensus_exactness_counts_every_query_and_k():
    nb = {"a": _toy_neighbors(1), "b": _toy_neighbors(2, K=6)}
    x = E.consensus_exactness(nb, sample={"b": 10})
    assert x.same == x.total == 40 * 4 + 10 * 6
    assert x.queries == ("a all 40", "b 10 sampled queries")


@pytest.mark.parametrize(
    "bad, err",
    [
        ({}, TypeError),
        ([1], TypeError),
        ({"a": np.full((2, 3, 4), 2)}, ValueError),
        ({"a": np.zeros((2, 3))}, ValueError),
    ],
)
def test_bad_neighbors_are_refused(bad, err):
    with pytest.raises(err):
        E.consensus_exactness(bad)


def test_neighbor_labels_follow_the_committed_protocol():
    # the consensus reach of these neighbours is the committed knn_consensus row, which
    # consensus_summary computed under the Fig. 4 folds and features
    N = neighbor_labels("flags-12")
    committed = read_csv_exact(results_dir() / "knn_consensus.csv").set_index("dataset")
    row = committed.loc["flags-12"]
    assert N.shape == (194, 9, int(row["K"]))
    free = N.shape[2] - consensus_mask(N).sum(axis=1)
    # 1e-12: a mean of 194 small integers, summed in another order
    assert free.mean() == pytest.approx(row["mean_free"], abs=1e-12)
    assert int(free.max()) == row["max_free"]


def test_the_evidence_with_toy_neighbours():
    toy = {"toy": np.array([[[1, 0], [1, 1], [0, 0]], [[0, 0], [0, 1], [1, 1]]])}
    ev = E.knn_evidence(toy)
    assert ev.tied_modes == {"toy": 1.0}  # three distinct vectors: the mode is always tied
    # Hamming: the vector with the fewest summed errors, (1,0) and (0,1); lexicographic: (0,0)
    assert ev.ties == {"toy": E.TieEffect(queries=2, tied=2, changed=2)}
    assert ev.exactness.queries == ("toy all 2",)
    assert 0 <= ev.monotone_hits[0] <= ev.monotone_hits[1] == 200
    birds = ev.matrices["hamming"]["birds"]
    assert ev.birds_hamming_gap == birds.iloc[-1, 0] - birds.iloc[-1].min() >= 0


def test_monotone_hits_are_the_resampled_readings_of_every_paper_dataset():
    """The resamples at once equal :func:`mlcrepro.tables.robustness` over the same draws,
    each resample pooled by ``loss_matrix`` and read by ``surrogate_readings``, on the
    committed Hamming table (40 resamples of two seeds: about a second)."""
    t = knn_tables()["hamming"]
    t = t[t["dataset"].isin(list(KNN_PAPER))]

    def holds(part):
        return all(
            surrogate_readings(loss_matrix(part[part["dataset"] == d]))["best k non-decreasing"]
            for d in KNN_PAPER
        )

    for seed in (0, 1):
        assert E.monotone_hits(t, resamples=40, seed=seed) == robustness(
            t, holds, resamples=40, seed=seed
        )
    with pytest.raises(ValueError, match="each fold"):
        E.monotone_hits(t.iloc[1:], resamples=2)
