"""Speed of the learner study through the runner (mlcrepro.runner) on emotions
(593 x 72, K = 6), the authors' ten folds.

1. Cold run of MEKA's BR and LC on Weka's J48 (cache in a temporary folder) against the
   same fits and predictions done by a plain loop over the same splits and estimators:
   the runner's overhead (keys, cache writes, evaluation of every k and the authors'
   55 alphas) should be small.
2. The same study again from the warm cache, as a ratio to the cold run.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import best_of, ratio_line  # noqa: E402

from mlcbook.losses import binomial_loss  # noqa: E402
from mlcbook.profiles import evaluate_predictions  # noqa: E402
from mlcrepro.huellermeier2022.authors_study import (  # noqa: E402
    as_run,
    members,
    run_authors_study,
    study_data,
)

DATASET = "emotions"
LEARNERS = ["BR-J48", "LP-J48"]


def plain() -> None:
    """The same fits and predictions, in a for loop, without the runner."""
    data = study_data(DATASET)
    for learner in LEARNERS:
        for split in range(10):
            Xtr, Ytr, Xte, _, _ = as_run(learner, data, split)
            for _, est, fit in members(learner, DATASET):
                clone(est).fit(Xtr, Ytr, **fit).predict(Xte)


def main() -> None:
    os.environ["MLCBOOK_PROGRESS"] = "0"
    plain()  # load the folds and start Weka's J48 server once, outside the timings
    with tempfile.TemporaryDirectory() as tmp:
        counter = iter(range(10**6))

        def cold_run():
            return run_authors_study([DATASET], LEARNERS, cache_dir=Path(tmp) / str(next(counter)))

        cold = best_of(cold_run, repeat=2)
        ref = best_of(plain, repeat=2)
        print(ratio_line("runner, cold cache (BR+LP, J48)", cold, ref, "plain loop, same fits"),
              flush=True)
        run_authors_study([DATASET], LEARNERS, cache_dir=Path(tmp) / "warm")
        warm = best_of(lambda: run_authors_study([DATASET], LEARNERS,
                                                 cache_dir=Path(tmp) / "warm"), repeat=3)
        print(ratio_line("runner, warm cache", warm, cold, "runner, cold cache"), flush=True)

    Y = study_data(DATASET).splits[0][3]
    rng = np.random.default_rng(0)
    P = (rng.random(Y.shape) < 0.3).astype(np.int8)
    ours = best_of(lambda: evaluate_predictions(Y, P), repeat=5)
    loop = best_of(lambda: [binomial_loss(Y, P, k) for k in range(1, Y.shape[1] + 1)], repeat=5)
    print(ratio_line("evaluate (all k + 25 alphas)", ours, loop, "binomial_loss per k"), flush=True)


if __name__ == "__main__":
    main()
