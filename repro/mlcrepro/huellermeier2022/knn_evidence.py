"""Hüllermeier et al. (2022), Sec. 6: the nearest-neighbour minimiser on every query of Fig. 4.

:func:`fig4_neighbor_labels` gives, for one dataset, the label vectors of the ``c``
nearest training instances of every test instance of the Fig. 4 cross-validation
(:func:`mlcrepro.huellermeier2022.knn_fig4.neighbor_labels`: the folds, features and neighbours of
:func:`mlcrepro.huellermeier2022.knn_fig4.fig4_table`).  The
three functions below read the paper's statements about the minimiser on them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from mlcbook._validation import Int, Seed, validate_params
from mlcbook.learners.knn import minimize_summed_loss
from mlcbook.losses import error_count_losses
from mlcrepro.evidence_common import check_ledger
from mlcrepro.huellermeier2022.knn_fig4 import neighbor_labels
from mlcrepro.ledger import Cause, Entry, Ledger

__all__ = [
    "fig4_neighbor_labels",
    "add_consensus_exactness",
    "add_k_invariance",
    "add_tied_modes",
]


@validate_params(n_splits=Int(2, 100), seed=Seed(), n_neighbors=Int(1, 1000))
def fig4_neighbor_labels(
    name: str, *, n_splits: int = 10, seed: int = 0, n_neighbors: int = 9
) -> np.ndarray:
    """Neighbour label vectors of every query of the Fig. 4 protocol on dataset ``name``.

    Returns
    -------
    ndarray of int8, shape (n_instances, n_neighbors, K)
        The folds in order, each fold's test instances in order.
    """
    return neighbor_labels(name, n_splits=n_splits, seed=seed, n_neighbors=n_neighbors)


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


def add_consensus_exactness(
    led: Ledger,
    neighbors: Mapping[str, np.ndarray],
    *,
    sample: Mapping[str, int] | None = None,
    seed: int = 0,
    claim_id: str | list[str] = "",
) -> Entry:
    """Sec. 6: fixing the labels all neighbours agree on is exact.

    For every query of ``neighbors`` (dataset -> neighbour labels) and every surrogate
    binomial k = 1..K, the pruned minimiser of eq. 19 against the brute-force one
    (all ``2**K`` candidates; tie-break 'hamming' in both).  ``sample`` limits a
    dataset to that many seeded queries (the brute force costs ``2**K`` per query:
    2**19 for birds); the note says which.

    Parameters
    ----------
    led : mlcrepro.ledger.Ledger
        The chapter's ledger; the rows are appended to it.
    neighbors : mapping of str to ndarray of shape (n_queries, c, K)
        Per dataset, the 0/1 neighbour label vectors (:func:`fig4_neighbor_labels`).
    sample : mapping of str to int, optional
        Datasets to check on that many seeded queries only.
    seed : int
        Seed of those samples.
    claim_id : str or list of str
        The inventory id(s) of the claim the row checks (:class:`mlcrepro.ledger.Ledger`).

    Returns
    -------
    Entry
        The row added.
    """
    led = check_ledger(led)
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
    return led.exact(
        "consensus rule exact: the pruned minimiser is the brute-force one for every "
        "query and surrogate k",
        "Sec. 6",
        paper=f"{total} of {total} (query, k)",
        ours=f"{same} of {total} (query, k)",
        note="queries: " + "; ".join(parts),
        claim_id=claim_id,
    )


_PARAMETERS = """Parameters
    ----------
    led : mlcrepro.ledger.Ledger
        The chapter's ledger; the rows are appended to it.
    neighbors : mapping of str to ndarray of shape (n_queries, c, K)
        Per dataset, the 0/1 neighbour label vectors (:func:`fig4_neighbor_labels`).
    cause : mlcrepro.ledger.Cause, optional
        The chapter's cause, given to the row only if it differs (required then).
    claim_id : str or list of str
        The inventory id(s) of the claim the row checks (:class:`mlcrepro.ledger.Ledger`).

    Returns
    -------
    Entry
        The row added."""


def _often_row(
    led: Ledger,
    neighbors: Mapping[str, np.ndarray],
    share: Callable[[np.ndarray], float],
    least: float,
    least_words: str,
    *,
    claim: str,
    paper: str,
    measured: str,
    cause: Cause | None,
    claim_id: str | list[str],
) -> Entry:
    """A qualitative row "X is often so": ``share`` of each dataset's queries is at least
    ``least`` (``least_words`` in the row) on most datasets (more than half); ``measured``
    names the share."""
    led = check_ledger(led)
    neighbors = _check_neighbors(neighbors)
    shares = {name: float(share(N)) for name, N in neighbors.items()}
    often = sum(v >= least for v in shares.values())
    agrees = often > len(shares) / 2
    return led.qualitative(
        claim,
        "Sec. 6",
        paper=paper,
        evidence=f"{measured}: "
        + ", ".join(f"{d} {v:.2f}" for d, v in shares.items())
        + f"; at least {least_words} on {often} of {len(shares)}",
        agrees=agrees,
        cause=None if agrees else cause,
        claim_id=claim_id,
    )


def _k_invariant_share(N: np.ndarray) -> float:
    """Share of (query, k < K) pairs whose prediction is the query's one at k = K."""
    P = _predictions(N)
    return float((P[:-1] == P[-1][np.newaxis]).all(axis=2).mean())


def add_k_invariance(
    led: Ledger,
    neighbors: Mapping[str, np.ndarray],
    cause: Cause | None = None,
    *,
    claim_id: str | list[str] = "",
) -> Entry:
    """Sec. 6: the minimiser for a surrogate k < K is often the one for k = K.

    Per dataset: the share of (query, k < K) pairs whose prediction equals the
    query's prediction at k = K.  "Often" is read as at least half of the pairs, on
    most datasets.  ``cause`` goes to the row only if it differs.

    {parameters}
    """
    return _often_row(
        led,
        neighbors,
        _k_invariant_share,
        0.5,
        "half",
        claim="the minimiser for k < K is often the one for k = K",
        paper="the loss minimiser often does not change with k",
        measured="share of (query, k < K) with the k = K prediction",
        cause=cause,
        claim_id=claim_id,
    )


def _tied_mode(N: np.ndarray) -> np.ndarray:
    """Per query: is the most frequent neighbour label vector not unique?"""
    codes = N.astype(np.int64) @ (np.int64(1) << np.arange(N.shape[2], dtype=np.int64))
    out = np.empty(len(N), dtype=bool)
    for q, row in enumerate(codes):
        counts = np.unique(row, return_counts=True)[1]
        out[q] = (counts == counts.max()).sum() > 1
    return out


def add_tied_modes(
    led: Ledger,
    neighbors: Mapping[str, np.ndarray],
    cause: Cause | None = None,
    *,
    claim_id: str | list[str] = "",
) -> Entry:
    """Sec. 6: for k = K the risk minimiser (the neighbours' mode) is often not unique.

    Per dataset: the share of queries whose ``c`` neighbour label vectors have more
    than one most frequent vector (then every one of them minimises the summed subset
    0/1 loss).  "Often" is read as at least one query in five, on most datasets.

    {parameters}
    """
    return _often_row(
        led,
        neighbors,
        lambda N: _tied_mode(N).mean(),
        0.2,
        "0.2",
        claim="for k = K the mode of the neighbours' label vectors is often not unique",
        paper="for k = K the risk minimiser is often not unique",
        measured="share of queries with a tied mode",
        cause=cause,
        claim_id=claim_id,
    )


for _adder in (add_k_invariance, add_tied_modes):
    _adder.__doc__ = (_adder.__doc__ or "").format(parameters=_PARAMETERS)
