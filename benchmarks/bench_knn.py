"""Speed of LossMinimizingKNN (Hüllermeier et al. 2022, Sec. 6) and reach of the consensus rule.

1. yeast (K = 14), 10-fold CV, predictions for all 14 surrogate binomial k from one neighbour
   search per fold: wall and CPU time (target <= 10 s on the 2-core machine).
2. The exact search with the consensus rule against the same vectorised search without it
   (all 2**K candidates) on 200 yeast queries: ratio.
3. Per dataset: the fraction of (query, label) pairs fixed by the consensus rule (c = 9
   neighbours, 10-fold CV), the mean and largest number of free labels, and the mean number
   of candidates searched per query against 2**K.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from sklearn.model_selection import KFold

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import best_of, ratio_line  # noqa: E402

from mlcbook.datasets import load_dataset  # noqa: E402
from mlcrepro.huellermeier2022.knn_fig4 import consensus_summary
from mlcbook.learners.knn import (  # noqa: E402
    LossMinimizingKNN,
    l1_preprocessor,
    minimize_summed_loss,
)
from mlcbook.losses import error_count_losses  # noqa: E402

DATASETS = ("birds", "emotions", "flags", "scene", "yeast")
TARGET_S = 10.0


def _load(name: str):
    X, Y, info = load_dataset(name)
    X = X.toarray() if hasattr(X, "toarray") else np.asarray(X, dtype=float)
    nominal = {info.feature_names.index(f): len(c) for f, c in info.nominal.items()}
    return X, np.asarray(Y), nominal


def _cv_neighbours(X, Y, nominal, seed=0):
    """Neighbour label vectors of every instance (out of fold), fold by fold."""
    for tr, te in KFold(10, shuffle=True, random_state=seed).split(X):
        prep = l1_preprocessor(X.shape[1], nominal).fit(X[tr])
        est = LossMinimizingKNN().fit(prep.transform(X[tr]), Y[tr])
        yield est.neighbor_labels(prep.transform(X[te]))


def main() -> None:
    X, Y, nominal = _load("yeast")
    K = Y.shape[1]
    T = np.vstack([error_count_losses("binomial", k, K) for k in range(1, K + 1)])

    w0, c0 = time.perf_counter(), time.process_time()
    t_search = 0.0
    for N in _cv_neighbours(X, Y, nominal):
        t = time.perf_counter()
        P = minimize_summed_loss(N, T)
        t_search += time.perf_counter() - t
        assert P.shape == (K, N.shape[0], K)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    print(f"yeast 10-fold CV, all {K} surrogate k: wall {wall:6.2f} s, CPU {cpu:6.2f} s "
          f"(search {t_search:5.2f} s; target <= {TARGET_S:.0f} s: "
          f"{'met' if wall <= TARGET_S else 'NOT met'})")

    N = next(_cv_neighbours(X, Y, nominal))[:200]
    t_pruned = best_of(lambda: minimize_summed_loss(N, T), repeat=3)
    t_full = best_of(lambda: minimize_summed_loss(N, T, prune=False), repeat=1)
    assert np.array_equal(minimize_summed_loss(N, T), minimize_summed_loss(N, T, prune=False))
    print(ratio_line("yeast 200 queries x 14 k, pruned", t_pruned, t_full, "all 2**14 candidates"))

    reach = consensus_summary(DATASETS)
    print(f"{'dataset':<9s} {'K':>3s} {'fixed':>7s} {'mean free':>10s} {'max free':>9s} "
          f"{'mean 2**f':>10s} {'2**K':>8s}")
    for r in reach.itertuples():
        print(f"{r.dataset:<9s} {r.K:3d} {r.fixed_fraction:7.1%} {r.mean_free:10.2f} "
              f"{r.max_free:9d} {r.mean_candidates:10.1f} {r.all_candidates:8d}")

if __name__ == "__main__":
    main()
