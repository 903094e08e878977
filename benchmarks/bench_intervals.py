"""Bootstrap intervals and paired comparisons: 10,000 resamples of n = 10**4, K = 50.

Printed: seconds per call of :func:`mlcbook.intervals.bootstrap_interval` (BCa and
percentile) and :func:`~mlcbook.intervals.paired_comparison` (10,000 resamples and
10,000 swaps), and, as the reference, ``scipy.stats.bootstrap`` on the same
per-instance Hamming losses (one statistic, 10,000 resamples, BCa).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import best_of

from mlcbook import intervals as I
from mlcbook import metrics as M

N, K, B = 10**4, 50, 10_000


def main() -> None:
    rng = np.random.default_rng(0)
    Y = (rng.random((N, K)) < 0.2).astype(np.int8)
    P = Y ^ (rng.random((N, K)) < 0.1).astype(np.int8)
    P2 = Y ^ (rng.random((N, K)) < 0.12).astype(np.int8)
    v = M.hamming_loss(Y, P, per_instance=True)
    ref = best_of(
        lambda: stats.bootstrap((v,), np.mean, n_resamples=B, method="BCa", random_state=0),
        repeat=1,
    )
    print(f"scipy.stats.bootstrap, hamming_loss, BCa       {ref:7.2f} s")
    for name in ("hamming_loss", "micro_f1", "macro_f1", "example_based_f1", "binomial_loss"):
        kw = {"k": 2} if name == "binomial_loss" else {}
        for method in ("BCa", "percentile"):
            t = best_of(
                lambda name=name, method=method, kw=kw: I.bootstrap_interval(
                    name, Y, P, n_resamples=B, method=method, random_state=0, **kw
                ),
                repeat=1,
            )
            print(
                f"bootstrap_interval {name:<18s} {method:<10s} {t:7.2f} s  ({t / ref:.2f}x scipy)"
            )
    for name in ("hamming_loss", "macro_f1"):
        t = best_of(
            lambda name=name: I.paired_comparison(
                name, Y, P, P2, n_resamples=B, n_permutations=B, random_state=0
            ),
            repeat=1,
        )
        print(f"paired_comparison  {name:<18s} BCa+swaps  {t:7.2f} s")


if __name__ == "__main__":
    main()
