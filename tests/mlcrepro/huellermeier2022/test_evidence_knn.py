"""Sec. 6 read: the pooled tables and their readings, and the statements read on every
query (:mod:`mlcrepro.huellermeier2022.knn_queries`, tested there) as the evidence
takes them from their table."""

import numpy as np
import pytest

from mlcrepro.huellermeier2022 import evidence_knn as E
from mlcrepro.huellermeier2022 import knn_queries as Q
from mlcrepro.huellermeier2022.experiments import KNN_DATASETS, KNN_PAPER, knn_tables
from mlcrepro.huellermeier2022.knn_fig4 import loss_matrix
from mlcrepro.tables import robustness, surrogate_readings


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


def test_the_evidence_with_toy_neighbours():
    toy = {"toy": np.array([[[1, 0], [1, 1], [0, 0]], [[0, 0], [0, 1], [1, 1]]])}
    ev = E.knn_evidence(Q.query_statistics(toy))
    assert ev.tied_modes == {"toy": 1.0}  # three distinct vectors: the mode is always tied
    # Hamming: the vector with the fewest summed errors, (1,0) and (0,1); lexicographic: (0,0)
    assert ev.ties == {"toy": Q.TieEffect(queries=2, tied=2, changed=2)}
    assert ev.exactness == Q.consensus_exactness(toy)
    assert ev.exactness.queries == ("toy all 2",)
    with pytest.raises(TypeError, match="columns"):
        E.knn_evidence(Q.query_statistics(toy).drop(columns="tied"))
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
