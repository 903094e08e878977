"""Speed of LIMO (Wu & Zhou 2017, Algorithm 1) on bibtex.

1. Training time on a 70 % split of bibtex (sparse, 1836 features, 159 labels) for the
   iteration budget of the authors' code (the paper gives none): T = 10 passes of
   m * round(label cardinality) iterations, each with one label-wise and one
   instance-wise triplet.
2. The cost of one iteration as a ratio to one *dense* step on the weight matrix -- a
   single ``S += W`` over all l x d weights, which is what every iteration would pay if
   the averaged iterate were accumulated the textbook way instead of lazily.
3. For scale: the number of pairs in one full (batch) gradient of Eq. (3).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import best_of, ratio_line  # noqa: E402

from mlcbook.datasets import load_dataset  # noqa: E402
from mlcbook.learners import LIMO  # noqa: E402
from mlcrepro.wu_zhou2017.benchmark import split_indices


def main() -> None:
    from sklearn.preprocessing import MaxAbsScaler

    X, Y, _ = load_dataset("bibtex")
    tr, _ = split_indices(X.shape[0], 0)
    Xtr = MaxAbsScaler().fit_transform(X[tr]).tocsr()
    Ytr = np.asarray(Y[tr], dtype=np.int8)
    m, d = Xtr.shape
    l = Ytr.shape[1]
    model = LIMO(1.0, 1.0, eta=0.01, random_state=0)
    t0 = time.perf_counter()
    model.fit(Xtr, Ytr, fit_threshold=False)
    total = time.perf_counter() - t0
    T = model.n_iter_
    print(f"bibtex train split: m={m}, d={d}, l={l}, nnz/row={Xtr.nnz / m:.1f}")
    print(f"LIMO (lambda1=lambda2=1, eta=0.01): T={T} iterations in {total:.2f} s "
          f"({total / T * 1e6:.1f} us per iteration; {model.n_updates_[0]} label-wise and "
          f"{model.n_updates_[1]} instance-wise updates)")
    W = np.random.default_rng(0).normal(size=(l, d))
    S = np.zeros_like(W)

    def dense_step():
        np.add(S, W, out=S)

    ref = best_of(dense_step, repeat=5, number=20)
    print(ratio_line("LIMO iteration (lazy average)", total / T, ref, "one dense l x d step"))
    n1 = int((Ytr.sum(1) * (l - Ytr.sum(1))).sum())
    n2 = int((Ytr.sum(0) * (m - Ytr.sum(0))).sum())
    print(f"one full gradient of Eq. (3) sums {n1:,} label-wise and {n2:,} instance-wise pairs "
          f"({(n1 + n2) / T:.0f}x the triplets of the whole SGD run)")


if __name__ == "__main__":
    main()
