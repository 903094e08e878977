"""Speed of the blended-metric learner (Park & Read 2018, Sec. 3-4).

1. The whole 88-setting alpha x beta grid of Sec. 4 on emotions (gamma by 3-fold CV once,
   warm start along beta): wall time, and time per fit.
2. One evaluation of the objective with its analytic gradient (eq. 10) as a ratio to one
   forward pass (objective only), on emotions and enron (sparse), for a few (alpha, beta).
3. Why L-BFGS-B runs with one BLAS thread: one fit with the default BLAS threads against
   one thread.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import best_of, ratio_line  # noqa: E402

import mlcbook.learners.blended as lb  # noqa: E402
from mlcbook.blended import _objective  # noqa: E402
from mlcbook.datasets import load_dataset  # noqa: E402
from mlcbook.learners.blended import _fit_lbfgs, _logistic_init  # noqa: E402
from mlcrepro.park_read2018.grid import GRID_ALPHAS, GRID_BETAS, blended_grid, split_and_scale  # noqa: E402


def _data(name):
    X, Y, _ = load_dataset(name)
    Xtr, Xte, Ytr, Yte = split_and_scale(X, Y, seed=0)
    return Xtr, Xte, Ytr, Yte


def grid_timing() -> None:
    Xtr, Xte, Ytr, Yte = _data("emotions")
    t0 = time.perf_counter()
    df = blended_grid(Xtr, Ytr, Xte, Yte, seed=0)
    wall = time.perf_counter() - t0
    n = len(df)
    print(f"emotions grid: {n} settings ({len(GRID_ALPHAS)} alpha x {len(GRID_BETAS)} beta), "
          f"train {Xtr.shape[0]} x {Xtr.shape[1]}, {Ytr.shape[1]} labels")
    print(f"  wall time {wall:8.2f} s  (incl. gamma CV and logistic start)")
    print(f"  per fit   {df['fit_seconds'].mean() * 1e3:8.1f} ms mean, "
          f"{df['fit_seconds'].median() * 1e3:.1f} ms median, {df['fit_seconds'].max() * 1e3:.1f} ms max; "
          f"L-BFGS iterations mean {df['n_iter'].mean():.0f}")
    first = df[df["beta"] == 1.0]["fit_seconds"].mean()
    rest = df[df["beta"] > 1.0]["fit_seconds"].mean()
    print(f"  beta = 1 (from logistic start) {first * 1e3:.1f} ms; beta > 1 (warm start) {rest * 1e3:.1f} ms")


def gradient_ratio() -> None:
    for name in ("emotions", "enron"):
        Xtr, _, Ytr, _ = _data(name)
        T = Ytr.astype(float)
        XT = Xtr.T.tocsr() if hasattr(Xtr, "tocsr") else None
        rng = np.random.default_rng(0)
        L, M = T.shape[1], Xtr.shape[1]
        W = np.ascontiguousarray(rng.normal(scale=0.05, size=(M, L))).T
        b = np.zeros(L)
        with threadpool_limits(limits=1, user_api="blas"):
            for alpha, beta in ((1.0, 1.0), (1e-5, 1.0), (0.5, 16.0)):
                fwd = best_of(lambda: _objective(W, b, Xtr, T, alpha, beta, 1e-4, grad=False), repeat=7, number=5)
                both = best_of(lambda: _objective(W, b, Xtr, T, alpha, beta, 1e-4, XT=XT), repeat=7, number=5)
                print(ratio_line(f"{name} a={alpha:g} b={beta:g} obj+grad", both, fwd, "objective only"))


def blas_threads() -> None:
    Xtr, _, Ytr, _ = _data("emotions")
    T = Ytr.astype(float)
    W0, b0 = _logistic_init(Xtr, T)

    one = best_of(lambda: _fit_lbfgs(Xtr, T, 0.5, 4.0, 1e-4, W0, b0, 200, 1e-6), repeat=3)
    orig = lb._one_blas_thread

    class _NoLimit:
        def __init__(self, *a, **k):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *a):
            return False

    lb._one_blas_thread = _NoLimit
    try:
        many = best_of(lambda: _fit_lbfgs(Xtr, T, 0.5, 4.0, 1e-4, W0, b0, 200, 1e-6), repeat=3)
    finally:
        lb._one_blas_thread = orig
    print(ratio_line("emotions fit, 1 BLAS thread", one, many, "default BLAS threads"))


def main() -> None:
    grid_timing()
    gradient_ratio()
    blas_threads()


if __name__ == "__main__":
    main()
