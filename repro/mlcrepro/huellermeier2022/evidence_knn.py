"""The evidence of the kNN ledger: Hüllermeier et al. (2022), Sec. 6 (Fig. 4).

One job: from the committed Fig. 4 tables (one per tie-break) and the consensus summary
(:mod:`mlcrepro.huellermeier2022.experiments`), and from the neighbours of every query of
the same protocol (:func:`mlcrepro.huellermeier2022.knn_fig4.neighbor_labels`), compute
everything the kNN ledger reads (:func:`knn_evidence`): each dataset's pooled
surrogate-by-target table and what the paper reads off it
(:func:`mlcrepro.tables.surrogate_readings`), the first observation's robustness over
bootstrap resamples of the folds, and three statements about the minimiser read on every
query (the consensus rule against brute force, how often the minimiser for k < K is the
one for k = K, how often the mode at k = K is tied).  Nothing here writes a ledger row.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from mlcbook.learners import minimize_summed_loss
from mlcbook.losses import error_count_losses
from mlcbook.profiles import pooled_mean_draws
from mlcrepro.huellermeier2022.experiments import (
    KNN_DATASETS,
    KNN_PAPER,
    TIE_BREAKS,
    knn_consensus,
    knn_tables,
)
from mlcrepro.huellermeier2022.knn_fig4 import loss_matrix, neighbor_labels
from mlcrepro.tables import best_surrogates, bootstrap_draws, surrogate_readings

__all__ = [
    "HAMMING_RANK",
    "SUBSET_RANK",
    "SUBSET_ROWS",
    "SAMPLE",
    "matrices",
    "readings",
    "monotone_hits",
    "consensus_exactness",
    "k_invariant_share",
    "tied_mode_share",
    "Exactness",
    "TieEffect",
    "tie_effect",
    "KnnEvidence",
    "knn_evidence",
]

HAMMING_RANK = "Hamming surrogate rank at target K (1 = worst)"
SUBSET_RANK = "subset 0/1 surrogate rank at target K (1 = worst)"
SUBSET_ROWS = "rows where subset 0/1 surrogate is worst"
#: the consensus check's queries: all, except a seeded sample where 2**K is large
SAMPLE = {"birds": 20, "yeast": 300}


def matrices(table: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Per dataset of ``table``: its pooled surrogate-by-target loss table (``loss_matrix``)."""
    if not isinstance(table, pd.DataFrame) or "dataset" not in table.columns:
        raise TypeError("table must be a Fig. 4 table with a column 'dataset'")
    return {d: loss_matrix(table[table["dataset"] == d]) for d in table["dataset"].unique()}


def readings(Md: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """:func:`mlcrepro.tables.surrogate_readings` of every dataset: one row per dataset."""
    rows = {d: surrogate_readings(L) for d, L in Md.items()}
    return pd.DataFrame(rows).T.infer_objects()


def monotone_hits(
    table: pd.DataFrame,
    *,
    resamples: int = 200,
    seed: int = 0,
    datasets: Sequence[str] = KNN_PAPER,
) -> tuple[int, int]:
    """How often the first observation holds on bootstrap resamples of the folds.

    The first observation (Sec. 6): on every one of the paper's datasets the best
    surrogate ``k`` never falls as the target ``k`` grows (``best k non-decreasing`` of
    :func:`mlcrepro.tables.surrogate_readings`, ties to the smaller ``k``, read with
    :func:`~mlcrepro.tables.best_surrogates`).  The
    resamples are those of :func:`mlcrepro.tables.robustness` with ``by="fold"``: the
    same :func:`~mlcrepro.tables.bootstrap_draws` of the sorted folds, a drawn fold
    bringing its rows of every dataset.  Each resample's pooled table is
    ``sum(loss * n_test) / sum(n_test)`` over the drawn folds (as
    :func:`~mlcrepro.huellermeier2022.knn_fig4.loss_matrix`), for all resamples at once
    (:func:`mlcbook.profiles.pooled_mean_draws`).

    Parameters
    ----------
    table : DataFrame
        A Fig. 4 table (:func:`~mlcrepro.huellermeier2022.knn_fig4.fig4_table`): the
        columns ``dataset``, ``fold``, ``n_test``, ``surrogate_k``, ``target_k``, ``loss``.
    resamples : int
        Number of bootstrap resamples of the folds.
    seed : int
        Seed of the draws.
    datasets : sequence of str
        The datasets on which the observation must hold (default: the paper's five).

    Returns
    -------
    (int, int)
        ``(hits, resamples)``.

    Examples
    --------
    >>> rows = [("toy", f, 10, s, t, 0.1 * abs(s - t) + 0.01 * f)
    ...         for f in range(3) for s in (1, 2) for t in (1, 2)]
    >>> table = pd.DataFrame(rows, columns=["dataset", "fold", "n_test", "surrogate_k",
    ...                                     "target_k", "loss"])
    >>> monotone_hits(table, resamples=5, datasets=["toy"])
    (5, 5)
    """
    folds = np.sort(table["fold"].unique())
    draws = bootstrap_draws(len(folds), resamples, seed)
    holds = np.ones(resamples, dtype=bool)
    for name in datasets:
        t = table[table["dataset"] == name]
        K = int(t["target_k"].max())
        at = (np.searchsorted(folds, t["fold"]), (t["target_k"] - 1) * K + t["surrogate_k"] - 1)
        value, weight = np.full((2, len(folds), K * K), np.nan)
        value[at], weight[at] = t["loss"].to_numpy(float), t["n_test"].to_numpy(float)
        if np.isnan(value).any() or len(t) != value.size:
            raise ValueError(f"table must hold each fold, target and surrogate k of {name!r} once")
        pooled = pooled_mean_draws(value, weight, draws).reshape(resamples, K, K)
        best = best_surrogates(pooled)  # ties (within TIE_TOL) to the smaller k
        holds &= (np.diff(best, axis=1) >= 0).all(axis=1)
    return int(holds.sum()), resamples


def _check_neighbors(neighbors: Any) -> dict[str, np.ndarray]:
    if not isinstance(neighbors, Mapping) or not neighbors:
        raise TypeError("neighbors must be a non-empty mapping dataset -> (n, c, K) array")
    out = {}
    for name, N in neighbors.items():
        N = np.asarray(N)
        if N.ndim != 3 or not ((N == 0) | (N == 1)).all():
            raise ValueError(f"neighbors[{name!r}] must be a 0/1 array (n, c, K), got {N.shape}")
        out[str(name)] = N.astype(np.int8)
    return out


def _tables(K: int) -> np.ndarray:
    return np.vstack([error_count_losses("binomial", k, K) for k in range(1, K + 1)])


def _predictions(N: np.ndarray, prune: bool = True) -> np.ndarray:
    """Minimisers for every surrogate binomial k = 1..K, shape (K, n, K)."""
    return minimize_summed_loss(N, _tables(N.shape[2]), prune=prune, max_free_labels=20)


@dataclass(frozen=True)
class Exactness:
    """The consensus rule against brute force: ``same`` of ``total`` (query, k) agree;
    ``queries`` says, per dataset, which queries were checked."""

    same: int
    total: int
    queries: tuple[str, ...]


def consensus_exactness(
    neighbors: Mapping[str, np.ndarray],
    *,
    sample: Mapping[str, int] | None = None,
    seed: int = 0,
) -> Exactness:
    """Sec. 6: fixing the labels all neighbours agree on is exact.

    For every query of ``neighbors`` (dataset -> neighbour labels) and every surrogate
    binomial k = 1..K, the pruned minimiser of eq. 19 against the brute-force one
    (all ``2**K`` candidates; tie-break 'hamming' in both).  ``sample`` limits a
    dataset to that many seeded queries (the brute force costs ``2**K`` per query:
    2**19 for birds).

    Examples
    --------
    >>> N = np.array([[[1, 0], [1, 1], [0, 0]]])
    >>> consensus_exactness({"toy": N})
    Exactness(same=2, total=2, queries=('toy all 1',))
    """
    neighbors = _check_neighbors(neighbors)
    sample = dict(sample or {})
    rng = np.random.default_rng(seed)
    same = total = 0
    parts = []
    for name, N in neighbors.items():
        if name in sample and sample[name] < len(N):
            N = N[np.sort(rng.choice(len(N), size=int(sample[name]), replace=False))]
            parts.append(f"{name} {len(N)} sampled queries")
        else:
            parts.append(f"{name} all {len(N)}")
        eq = (_predictions(N) == _predictions(N, prune=False)).all(axis=2)
        same += int(eq.sum())
        total += eq.size
    return Exactness(same, total, tuple(parts))


def k_invariant_share(N: np.ndarray) -> float:
    """Share of (query, k < K) pairs whose prediction is the query's one at k = K.

    Below, the first query's per-label majority (1, 1, 1) is no neighbour's vector and
    its tied modes go to (0, 1, 1); the second query's mode is its majority.

    >>> N = np.array([[[1, 1, 0], [1, 0, 1], [0, 1, 1]], [[1, 1, 0], [1, 1, 0], [0, 0, 0]]])
    >>> k_invariant_share(N)
    0.5
    """
    P = _predictions(_check_neighbors({"N": N})["N"])
    return float((P[:-1] == P[-1][np.newaxis]).all(axis=2).mean())


def _tied_mode(N: np.ndarray) -> np.ndarray:
    """Per query: is the most frequent neighbour label vector not unique?"""
    codes = N.astype(np.int64) @ (np.int64(1) << np.arange(N.shape[2], dtype=np.int64))
    out = np.empty(len(N), dtype=bool)
    for q, row in enumerate(codes):
        counts = np.unique(row, return_counts=True)[1]
        out[q] = (counts == counts.max()).sum() > 1
    return out


@dataclass(frozen=True)
class TieEffect:
    """How much the tie-break decides at k = K on one dataset: of ``queries``, those whose
    neighbours' most frequent label vector is not unique (``tied``), and those whose
    k = K prediction the lexicographic tie-break changes against the Hamming one
    (``changed``; a subset of the tied ones)."""

    queries: int
    tied: int
    changed: int


def tie_effect(N: np.ndarray) -> TieEffect:
    """:class:`TieEffect` of the neighbour label vectors ``N`` (n_queries, c, K).

    >>> N = np.array([[[1, 1, 0], [1, 0, 1], [0, 1, 1]], [[1, 1, 0], [1, 1, 0], [0, 0, 0]]])
    >>> tie_effect(N)
    TieEffect(queries=2, tied=1, changed=0)
    """
    N = _check_neighbors({"N": N})["N"]
    K = N.shape[2]
    subset = np.asarray(error_count_losses("binomial", K, K))[np.newaxis]  # k = K
    P = {
        tb: minimize_summed_loss(N, subset, tie_break=tb, max_free_labels=20)[0]
        for tb in ("hamming", "lexicographic")
    }
    changed = (P["hamming"] != P["lexicographic"]).any(axis=1)
    return TieEffect(len(N), int(_tied_mode(N).sum()), int(changed.sum()))


def tied_mode_share(N: np.ndarray) -> float:
    """Share of queries whose neighbour label vectors have more than one most frequent one.

    Then every one of them minimises the summed subset 0/1 loss (eq. 19 at k = K).

    >>> N = np.array([[[1, 0], [1, 1], [0, 0]], [[1, 1], [1, 1], [0, 0]]])
    >>> tied_mode_share(N)
    0.5
    """
    return float(_tied_mode(_check_neighbors({"N": N})["N"]).mean())


@dataclass(frozen=True)
class KnnEvidence:
    """What the kNN ledger reads.

    ``tables``: the Fig. 4 table of each tie-break; ``reach``: the consensus summary;
    ``matrices``/``readings``: per tie-break, each dataset's pooled table
    (:func:`matrices`) and its readings (:func:`readings`); ``monotone_hits``: on how
    many of 200 bootstrap resamples of the folds the best surrogate is non-decreasing
    on all of :data:`~mlcrepro.huellermeier2022.experiments.KNN_PAPER`;
    ``birds_hamming_gap``: how far the Hamming surrogate is above the best at the
    subset 0/1 target on birds; ``exactness``, ``k_invariant``, ``tied_modes``: the
    three statements read on every query of the paper's datasets; ``ties``: per dataset,
    how much the tie-break decides at k = K (:func:`tie_effect`).
    """

    tables: dict[str, pd.DataFrame]
    reach: pd.DataFrame
    matrices: dict[str, dict[str, pd.DataFrame]]
    readings: dict[str, pd.DataFrame]
    monotone_hits: tuple[int, int]
    birds_hamming_gap: float
    exactness: Exactness
    k_invariant: dict[str, float]
    tied_modes: dict[str, float]
    ties: dict[str, TieEffect]


def knn_evidence(
    neighbors: Mapping[str, np.ndarray] | None = None, *, seed: int = 0
) -> KnnEvidence:
    """Everything the kNN ledger reads, from the committed tables (about half a minute).

    Parameters
    ----------
    neighbors : mapping of str to ndarray, optional
        The neighbour label vectors of every query of the paper's datasets
        (:func:`mlcrepro.huellermeier2022.knn_fig4.neighbor_labels`); computed when
        not given.
    seed : int
        Seed of the 200 bootstrap resamples of the first observation's robustness.
    """
    tables = knn_tables()
    if set(tables) != set(TIE_BREAKS) or list(tables["hamming"]["dataset"].unique()) != list(
        KNN_DATASETS
    ):
        raise ValueError(f"the Fig. 4 tables must hold {KNN_DATASETS} for {TIE_BREAKS}")
    Ms = {tb: matrices(t) for tb, t in tables.items()}
    main = tables["hamming"]
    hits = monotone_hits(main[main["dataset"].isin(list(KNN_PAPER))], resamples=200, seed=seed)
    birds = Ms["hamming"]["birds"]
    if neighbors is None:
        neighbors = {d: neighbor_labels(d) for d in KNN_PAPER}
    neighbors = _check_neighbors(neighbors)
    return KnnEvidence(
        tables=tables,
        reach=knn_consensus(),
        matrices=Ms,
        readings={tb: readings(Ms[tb]) for tb in TIE_BREAKS},
        monotone_hits=hits,
        birds_hamming_gap=float(birds.iloc[-1, 0] - birds.iloc[-1].min()),
        exactness=consensus_exactness(neighbors, sample=SAMPLE),
        k_invariant={d: k_invariant_share(N) for d, N in neighbors.items()},
        tied_modes={d: tied_mode_share(N) for d, N in neighbors.items()},
        ties={d: tie_effect(N) for d, N in neighbors.items()},
    )
