"""Three statements of Hüllermeier et al. (2022), Sec. 6, read on every query of Fig. 4.

One job: from the neighbours' label vectors of every query of Fig. 4's protocol
(:func:`mlcrepro.huellermeier2022.knn_fig4.neighbor_labels`), read per dataset how
often the consensus rule agrees with brute force (:func:`consensus_exactness`), how
often the minimiser for k < K is the one for k = K (:func:`k_invariant_share`), how
often the mode at k = K is tied (:func:`tied_mode_share`) and how much the tie-break
decides there (:func:`tie_effect`); and make them the committed table ``knn_queries``,
one runner cell per dataset (:func:`queries_spec`), keyed by the protocol and the
sha256 the registry records for the datasets' files, so that the evidence reads the
table and opens no file.

The brute-force check draws a seeded sample of the queries where ``2**K`` is large
(:data:`SAMPLE`); one generator serves the datasets in :data:`QUERY_DATASETS`' order,
so a dataset's cell first replays the draws of the sampled datasets before it (their
query counts are their instances: the folds cover every instance once).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from mlcbook.datasets import load_dataset
from mlcbook.learners import minimize_summed_loss
from mlcbook.losses import error_count_losses
from mlcrepro.huellermeier2022.knn_fig4 import fig4_config, neighbor_labels
from mlcrepro.runner import Spec

__all__ = [
    "QUERIES_TABLE",
    "QUERY_DATASETS",
    "SAMPLE",
    "QUERY_COLUMNS",
    "Exactness",
    "TieEffect",
    "consensus_exactness",
    "k_invariant_share",
    "tied_mode_share",
    "tie_effect",
    "query_statistics",
    "exactness_of",
    "queries_cell",
    "queries_config",
    "queries_spec",
]

#: the committed table of the statements read on every query
QUERIES_TABLE = "knn_queries"
#: the paper's datasets of Fig. 4 (flags-12: Table 2's flags), in the table's order
QUERY_DATASETS = ("birds", "emotions", "flags-12", "scene", "yeast")
#: the consensus check's queries: all, except a seeded sample where 2**K is large
SAMPLE = {"birds": 20, "yeast": 300}
#: the seed of that sample
SAMPLE_SEED = 0
#: the table's columns: per dataset its queries, those checked against brute force, the
#: (query, k) pairs that agree of those checked, the two shares, tied modes and changes
QUERY_COLUMNS = (
    "dataset",
    "queries",
    "checked",
    "same",
    "total",
    "k_invariant",
    "tied_modes",
    "tied",
    "changed",
)


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


def _draw(name: str, n: int, sample: Mapping[str, int], rng: np.random.Generator) -> np.ndarray:
    """The queries of ``name`` checked: all, or ``sample[name]`` drawn from ``rng``."""
    if name in sample and sample[name] < n:
        return np.sort(rng.choice(n, size=int(sample[name]), replace=False))
    return np.arange(n)


def _checked(name: str, N: np.ndarray, rows: np.ndarray) -> tuple[int, int, str]:
    """(same, total, which queries) of the brute-force check on the queries ``rows``."""
    text = f"{name} {len(rows)} sampled queries" if len(rows) < len(N) else f"{name} all {len(N)}"
    eq = (_predictions(N[rows]) == _predictions(N[rows], prune=False)).all(axis=2)
    return int(eq.sum()), eq.size, text


def consensus_exactness(
    neighbors: Mapping[str, np.ndarray],
    *,
    sample: Mapping[str, int] | None = None,
    seed: int = SAMPLE_SEED,
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
        s, t, text = _checked(name, N, _draw(name, len(N), sample, rng))
        same, total = same + s, total + t
        parts.append(text)
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


def _row(name: str, N: np.ndarray, rows: np.ndarray) -> dict[str, Any]:
    same, total, _ = _checked(name, N, rows)
    t = tie_effect(N)
    return {
        "dataset": name,
        "queries": len(N),
        "checked": len(rows),
        "same": same,
        "total": total,
        "k_invariant": k_invariant_share(N),
        "tied_modes": tied_mode_share(N),
        "tied": t.tied,
        "changed": t.changed,
    }


def query_statistics(
    neighbors: Mapping[str, np.ndarray],
    *,
    sample: Mapping[str, int] | None = None,
    seed: int = SAMPLE_SEED,
) -> pd.DataFrame:
    """The table's rows of the neighbour label vectors ``neighbors`` (dataset -> array
    (n_queries, c, K)), one per dataset in their order, columns :data:`QUERY_COLUMNS`:
    the brute-force check of :func:`consensus_exactness` (``checked`` queries, ``same``
    of ``total`` pairs), :func:`k_invariant_share`, :func:`tied_mode_share` and
    :func:`tie_effect`'s ``tied`` and ``changed``.

    >>> N = np.array([[[1, 0], [1, 1], [0, 0]], [[1, 1], [1, 1], [0, 0]]])
    >>> query_statistics({"toy": N})[["queries", "same", "total", "tied_modes"]].values.tolist()
    [[2.0, 4.0, 4.0, 0.5]]
    """
    neighbors = _check_neighbors(neighbors)
    sample = dict(sample or {})
    rng = np.random.default_rng(seed)
    rows = [_row(name, N, _draw(name, len(N), sample, rng)) for name, N in neighbors.items()]
    return pd.DataFrame(rows, columns=list(QUERY_COLUMNS))


def exactness_of(table: pd.DataFrame) -> Exactness:
    """:class:`Exactness` summed over the rows of a :func:`query_statistics` table.

    >>> t = pd.DataFrame({"dataset": ["a", "b"], "queries": [5, 40], "checked": [5, 10],
    ...                   "same": [10, 60], "total": [10, 60]})
    >>> exactness_of(t)
    Exactness(same=70, total=70, queries=('a all 5', 'b 10 sampled queries'))
    """
    missing = {"dataset", "queries", "checked", "same", "total"} - set(table.columns)
    if missing:
        raise ValueError(f"table lacks the columns {sorted(missing)}")
    parts = tuple(
        f"{d} {c} sampled queries" if c < q else f"{d} all {q}"
        for d, q, c in zip(table["dataset"], table["queries"], table["checked"])
    )
    return Exactness(int(table["same"].sum()), int(table["total"].sum()), parts)


def _instances(dataset: str) -> int:
    return int(load_dataset(dataset)[1].shape[0])


def _generator_at(
    dataset: str,
    datasets: Sequence[str],
    sample: Mapping[str, int],
    seed: int,
    queries: Callable[[str], int],
) -> np.random.Generator:
    """The generator :func:`query_statistics` draws ``dataset``'s sample from: seeded
    with ``seed``, advanced by the draws of the datasets before it in ``datasets``
    (``queries(name)``: a dataset's number of queries)."""
    rng = np.random.default_rng(seed)
    for before in datasets[: list(datasets).index(dataset)]:
        if before in sample:
            _draw(before, queries(before), sample, rng)
    return rng


def queries_cell(
    dataset: str,
    *,
    datasets: Sequence[str],
    sample: Mapping[str, int],
    sample_seed: int,
    n_splits: int,
    seed: int,
    n_neighbors: int,
) -> pd.DataFrame:
    """One dataset's row of the table: :func:`query_statistics` of its neighbours under
    Fig. 4's protocol, the generator first advanced by the draws of the sampled datasets
    before it in ``datasets`` (as :func:`consensus_exactness` draws over all of them)."""
    if dataset not in datasets:
        raise ValueError(f"dataset must be one of {list(datasets)}, got {dataset!r}")
    rng = _generator_at(dataset, datasets, sample, sample_seed, _instances)
    N = neighbor_labels(dataset, n_splits=n_splits, seed=seed, n_neighbors=n_neighbors)
    N = _check_neighbors({dataset: N})[dataset]
    return pd.DataFrame([_row(dataset, N, _draw(dataset, len(N), sample, rng))])


def queries_config(datasets: Sequence[str] = QUERY_DATASETS) -> dict:
    """The specification of the table: Fig. 4's protocol and data key
    (:func:`~mlcrepro.huellermeier2022.knn_fig4.fig4_config`, which reads no file) and
    the brute-force sample.

    >>> queries_config()["sample"]
    {'birds': 20, 'yeast': 300}
    """
    config = fig4_config(datasets)
    config["experiment"] = "Hüllermeier et al. (2022) Sec. 6: statements read on every query"
    config["statements"] = "consensus exactness, k-invariance, tied modes, tie-break effect"
    config["sample"] = dict(SAMPLE)
    config["sample_seed"] = SAMPLE_SEED
    return config


def queries_spec(datasets: Sequence[str] = QUERY_DATASETS) -> Spec:
    """The table as a runner spec: one cell per dataset, parameters from
    :func:`queries_config`, each cell keyed by its dataset's files' sha256 (and those of
    the datasets whose draws it replays)."""
    config = queries_config(datasets)
    names = ("n_splits", "seed", "n_neighbors", "sample", "sample_seed")
    params = {"datasets": list(datasets), **{k: config[k] for k in names}}
    order = list(datasets)
    return Spec(
        QUERIES_TABLE,
        queries_cell,
        {"dataset": order},
        params=params,
        key={k: v for k, v in config.items() if k not in (*params, "data")},
        cell_key=lambda c: {
            "data": {d: config["data"][d] for d in order[: order.index(c["dataset"]) + 1]}
        },
    )
