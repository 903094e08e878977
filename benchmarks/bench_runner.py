"""Overhead of the experiment runner (mlcrepro.runner) over a plain loop.

The same cells are computed in this process by a ``for`` loop calling the cell
function directly, and by :func:`mlcrepro.runner.run` (building the
cells, hashing each cell's key, joblib with one worker, the progress bar, and,
with a cold cache, writing every result atomically as an ``.npz``).  The target is
a ratio of at most 1.1.  Two measures:

* best of interleaved rounds, runner against the plain loop (on a busy shared
  machine this carries the noise of two separate runs);
* the runner's wall time against the time spent inside the cell function during
  the same run (what the plain loop would cost): the overhead of that very run,
  free of the machine's load changing between runs.

1. The Sec. 5 study as the authors ran it: MEKA's BR and LC on Weka's J48, the
   authors' 10 folds of flags (20 cells).
2. Fig. 4: the kNN minimiser, 10 folds on scene (10 cells).
3. A warm cache against the cold run: what a resumed run costs.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import tempfile
import time
from itertools import count
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import best_of, ratio_line  # noqa: E402

from mlcrepro import runner  # noqa: E402
from mlcrepro.huellermeier2022.authors_study import study_spec  # noqa: E402
from mlcrepro.huellermeier2022.knn_fig4 import fig4_spec  # noqa: E402

TARGET = 1.1


class _Timed:
    """The cell function, timing itself (``n_jobs=1``: the calls run in this process)."""

    def __init__(self, compute):
        self.compute, self.seconds = compute, 0.0

    def __call__(self, **kw):
        t0 = time.perf_counter()
        try:
            return self.compute(**kw)
        finally:
            self.seconds += time.perf_counter() - t0


def inside(spec: runner.Spec, tmp: Path) -> float:
    """Best ratio, over three runs with a cold cache, of wall time to time inside cells."""
    best = float("inf")
    for i in range(3):
        timed = _Timed(spec.compute)
        t0 = time.perf_counter()
        runner.run(dataclasses.replace(spec, compute=timed), cache_dir=tmp / f"inside{i}")
        best = min(best, (time.perf_counter() - t0) / timed.seconds)
    return best


def plain(spec: runner.Spec) -> list:
    """The reference: the cell function over the same cells, in a for loop."""
    return [spec.compute(**c.as_dict(), **spec.params, **spec.inputs(c)) for c in runner.cells(spec)]


def compare(label: str, spec: runner.Spec, tmp: Path, rounds: int = 3) -> None:
    fresh = count()
    ref = cold = nocache = float("inf")
    for _ in range(rounds):  # interleaved, so that a busy machine slows all three alike
        ref = min(ref, best_of(lambda: plain(spec), repeat=1))
        cold = min(cold, best_of(lambda: runner.run(spec, cache_dir=tmp / str(next(fresh))), repeat=1))
        nocache = min(nocache, best_of(lambda: runner.run(spec, cache_dir=False), repeat=1))
    runner.run(spec, cache_dir=tmp / "warm")
    warm = best_of(lambda: runner.run(spec, cache_dir=tmp / "warm"), repeat=3)
    n = len(runner.cells(spec))
    print(ratio_line(f"{label}: runner, cold cache", cold, ref, f"plain loop ({n} cells)"))
    print(ratio_line(f"{label}: runner, no cache", nocache, ref, "plain loop"))
    print(ratio_line(f"{label}: runner, warm cache", warm, cold, "runner, cold cache"))
    same_run = inside(spec, tmp)
    print(f"{label}: runner wall time / time inside the cells, same run: {same_run:.3f}x")
    verdict = "within" if same_run <= TARGET else "ABOVE"
    print(f"{label}: overhead {same_run:.3f}x (cold cache), {verdict} the target {TARGET}x",
          flush=True)


def main() -> None:
    os.environ["MLCBOOK_PROGRESS"] = "0"
    study = study_spec(["flags"], ["BR-J48", "LP-J48"])
    with tempfile.TemporaryDirectory() as tmp:
        compare("study BR+LP (J48)", study, Path(tmp) / "study")
        compare("Fig. 4 kNN", fig4_spec(["scene"]), Path(tmp) / "knn")


if __name__ == "__main__":
    main()
