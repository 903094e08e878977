"""Speed of the paired-CV runner (mlcrepro.runner) on emotions (593 x 72, K = 6).

1. Cold 10-fold CV of BR and LP (cache in a temporary folder) against the same fits
   done by a plain loop over ``KFold`` with scikit-learn alone: the runner's overhead
   (hashing, cache writes, evaluation of all k and 25 alphas) should be small.
2. The same study again from the warm cache, as a ratio to the cold run: only the
   evaluation remains.
3. Evaluation alone: one ``loss_profile`` per family for every cell, against a loop of
   ``binomial_loss`` calls, one per k.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import KFold

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import best_of, ratio_line  # noqa: E402

from mlcbook.datasets import load_dataset  # noqa: E402
from mlcbook.profiles import evaluate_predictions
from mlcrepro.huellermeier2022.study import run_study
from mlcbook.learners import make_learner  # noqa: E402
from mlcbook.losses import binomial_loss  # noqa: E402

LEARNERS = ["BR", "LP"]


def main() -> None:
    os.environ["MLCBOOK_PROGRESS"] = "0"
    X, Y, _ = load_dataset("emotions")
    data = {"emotions": (X, Y)}

    def plain():
        for name in LEARNERS:
            est = make_learner(name, 0)
            for tr, te in KFold(10, shuffle=True, random_state=0).split(X):
                clone(est).fit(X[tr], Y[tr]).predict(X[te])

    with tempfile.TemporaryDirectory() as tmp:
        counter = iter(range(10**6))
        cold = best_of(lambda: run_study(data, LEARNERS, cache_dir=Path(tmp) / str(next(counter))), repeat=2)
        ref = best_of(plain, repeat=2)
        print(ratio_line("runner, cold cache (BR+LP)", cold, ref, "KFold loop, sklearn only"), flush=True)
        run_study(data, LEARNERS, cache_dir=Path(tmp) / "warm")
        warm = best_of(lambda: run_study(data, LEARNERS, cache_dir=Path(tmp) / "warm"), repeat=3)
        print(ratio_line("runner, warm cache", warm, cold, "runner, cold cache"), flush=True)

    rng = np.random.default_rng(0)
    P = (rng.random(Y.shape) < 0.3).astype(np.int8)
    ours = best_of(lambda: evaluate_predictions(Y, P), repeat=5)
    loop = best_of(lambda: [binomial_loss(Y, P, k) for k in range(1, Y.shape[1] + 1)], repeat=5)
    print(ratio_line("evaluate (all k + 25 alphas)", ours, loop, "binomial_loss per k"), flush=True)


if __name__ == "__main__":
    main()
