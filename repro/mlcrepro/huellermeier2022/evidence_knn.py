"""The evidence of the kNN ledger: Hüllermeier et al. (2022), Sec. 6 (Fig. 4).

One job: from the committed Fig. 4 tables (one per tie-break), the consensus summary
and the statements read on every query of the same protocol
(:mod:`mlcrepro.huellermeier2022.experiments`; the last made by
:mod:`~mlcrepro.huellermeier2022.knn_queries`), compute everything the kNN ledger reads
(:func:`knn_evidence`): each dataset's pooled surrogate-by-target table and what the
paper reads off it (:func:`mlcrepro.tables.surrogate_readings`), the first
observation's robustness over bootstrap resamples of the folds, and three statements
about the minimiser read on every query (the consensus rule against brute force, how
often the minimiser for k < K is the one for k = K, how often the mode at k = K is
tied).  Nothing here writes a ledger row, and nothing here opens a data file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from mlcbook.profiles import pooled_mean_draws
from mlcrepro.huellermeier2022.experiments import (
    KNN_DATASETS,
    KNN_PAPER,
    TIE_BREAKS,
    knn_consensus,
    knn_queries,
    knn_tables,
    labelled_fig4,
)
from mlcrepro.huellermeier2022.knn_fig4 import loss_matrix
from mlcrepro.huellermeier2022.knn_queries import QUERY_COLUMNS, Exactness, TieEffect, exactness_of
from mlcrepro.tables import best_surrogates, bootstrap_draws, surrogate_readings

__all__ = [
    "HAMMING_RANK",
    "SUBSET_RANK",
    "SUBSET_ROWS",
    "matrices",
    "readings",
    "monotone_hits",
    "KnnEvidence",
    "knn_evidence",
]

HAMMING_RANK = "Hamming surrogate rank at target K (1 = worst)"
SUBSET_RANK = "subset 0/1 surrogate rank at target K (1 = worst)"
SUBSET_ROWS = "rows where subset 0/1 surrogate is worst"


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


@dataclass(frozen=True)
class KnnEvidence:
    """What the kNN ledger reads.

    ``tables``: the Fig. 4 table of each tie-break; ``reach``: the consensus summary;
    ``matrices``/``readings``: per tie-break, each dataset's pooled table
    (:func:`matrices`) and its readings (:func:`readings`); ``monotone_hits``: on how
    many of 200 bootstrap resamples of the folds the best surrogate is non-decreasing
    on all of :data:`~mlcrepro.huellermeier2022.experiments.KNN_PAPER`;
    ``birds_hamming_gap``: how far the Hamming surrogate is above the best at the
    subset 0/1 target on birds; ``birds_labelled``: the readings of Fig. 4 on birds'
    instances with a relevant label (the table
    :data:`~mlcrepro.huellermeier2022.experiments.LABELLED_TABLE`), with their number
    ``instances``, of ``birds_instances`` in all; ``exactness``, ``k_invariant``,
    ``tied_modes``: the three statements read on every query of the paper's datasets;
    ``ties``: per dataset, how much the tie-break decides at k = K
    (:func:`~mlcrepro.huellermeier2022.knn_queries.tie_effect`).
    """

    tables: dict[str, pd.DataFrame]
    reach: pd.DataFrame
    matrices: dict[str, dict[str, pd.DataFrame]]
    readings: dict[str, pd.DataFrame]
    monotone_hits: tuple[int, int]
    birds_hamming_gap: float
    birds_labelled: pd.Series
    birds_instances: int
    exactness: Exactness
    k_invariant: dict[str, float]
    tied_modes: dict[str, float]
    ties: dict[str, TieEffect]


def _statements(queries: pd.DataFrame) -> dict:
    """The three statements and the tie-break's effect, per dataset, from a
    :func:`~mlcrepro.huellermeier2022.knn_queries.query_statistics` table."""
    if not isinstance(queries, pd.DataFrame) or list(queries.columns) != list(QUERY_COLUMNS):
        raise TypeError(f"queries must be a table with the columns {list(QUERY_COLUMNS)}")
    rows = list(queries.itertuples(index=False))
    return {
        "exactness": exactness_of(queries),
        "k_invariant": {r.dataset: float(r.k_invariant) for r in rows},
        "tied_modes": {r.dataset: float(r.tied_modes) for r in rows},
        "ties": {r.dataset: TieEffect(int(r.queries), int(r.tied), int(r.changed)) for r in rows},
    }


def _labelled_readings(table: pd.DataFrame) -> pd.Series:
    """:func:`~mlcrepro.tables.surrogate_readings` of a one-dataset Fig. 4 table, with
    ``instances``: its test instances over the folds (each instance once)."""
    r = surrogate_readings(loss_matrix(table)).copy()
    r["instances"] = int(table.drop_duplicates("fold")["n_test"].sum())
    return r


def knn_evidence(queries: pd.DataFrame | None = None, *, seed: int = 0) -> KnnEvidence:
    """Everything the kNN ledger reads, from the committed tables (a few seconds).

    Parameters
    ----------
    queries : pandas.DataFrame, optional
        The statements read on every query of the paper's datasets, one row per dataset
        (:func:`mlcrepro.huellermeier2022.knn_queries.query_statistics`); default the
        committed table (:func:`~mlcrepro.huellermeier2022.experiments.knn_queries`).
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
    return KnnEvidence(
        tables=tables,
        reach=knn_consensus(),
        matrices=Ms,
        readings={tb: readings(Ms[tb]) for tb in TIE_BREAKS},
        monotone_hits=hits,
        birds_hamming_gap=float(birds.iloc[-1, 0] - birds.iloc[-1].min()),
        birds_labelled=_labelled_readings(labelled_fig4()),
        birds_instances=int(
            main[main["dataset"] == "birds"].drop_duplicates("fold")["n_test"].sum()
        ),
        **_statements(knn_queries() if queries is None else queries),
    )
