"""``mlcbook evaluate`` on a EUR-Lex-size label-set file: 100,000 instances, 4,000 labels;
and the command line's start-up.

Start-up: the median wall time of 15 runs (after one warm-up) of ``mlcbook --help`` and of
``mlcbook evaluate`` on two 3 x 3 CSV files, beside ``python -c pass`` and ``python -c
"import numpy, scipy.sparse"`` in the same run (the floor of a command that computes).

The files are generated in a temporary folder with a seed (about 3 MB each, ~4.3
labels per instance, skewed label frequencies), evaluated by the command line in a
subprocess (every measure and both loss profiles), and the wall and CPU times
printed.  Also timed: the binomial profile alone over k = 1..4,000 on the sparse
matrices, as a ratio to the one-pass limit ``np.mean(Y != P)`` on the dense ones.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import best_of
from sklearn import metrics as skm

from mlcbook import metrics as M
from mlcbook.losses import loss_profile

N, K = 100_000, 4000


def _label_sets(rng: np.random.Generator) -> tuple[list[list[int]], list[list[int]]]:
    pop = rng.zipf(1.3, size=10 * N) % K
    truth = []
    for s in rng.poisson(4.3, size=N) + 1:
        src = rng.integers(0, K, size=s) if rng.random() < 0.5 else rng.choice(pop, size=s)
        truth.append(sorted(set(src.tolist())))
    pred = [
        sorted(
            set(t[: max(1, len(t) - 1)])
            | set(rng.integers(0, K, size=rng.integers(0, 3)).tolist())
        )
        for t in truth
    ]
    return truth, pred


def _write(path: Path, sets: list[list[int]]) -> None:
    path.write_text(
        "\n".join(",".join(f"c{j:04d}" for j in s) if s else "[]" for s in sets) + "\n"
    )


def _csr(sets: list[list[int]]) -> sp.csr_matrix:
    lengths = np.array([len(s) for s in sets])
    indptr = np.concatenate([[0], np.cumsum(lengths)])
    cols = np.fromiter((j for s in sets for j in s), dtype=np.int64, count=int(lengths.sum()))
    return sp.csr_matrix((np.ones(cols.size, np.int8), cols, indptr), shape=(len(sets), K))


def _median_wall(cmd: list[str], runs: int = 15) -> float:
    env = dict(os.environ, MLCBOOK_PROGRESS="0")
    subprocess.run(cmd, capture_output=True, env=env, check=True)  # warm the file cache
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, capture_output=True, env=env, check=True)
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def startup() -> None:
    """Median wall time of the command line's start-up and of its floors."""
    script = str(Path(sys.executable).with_name("mlcbook"))
    with tempfile.TemporaryDirectory() as tmp:
        t, p = Path(tmp) / "t.csv", Path(tmp) / "p.csv"
        t.write_text("1,0,1\n0,1,0\n1,1,0\n")
        p.write_text("1,0,0\n0,1,1\n1,1,0\n")
        for label, cmd in (
            ("python -c pass", [sys.executable, "-c", "pass"]),
            (
                "python: import numpy, scipy.sparse",
                [sys.executable, "-c", "import numpy, scipy.sparse"],
            ),
            ("mlcbook --help", [script, "--help"]),
            ("mlcbook evaluate (3 x 3 CSV)", [script, "evaluate", str(t), str(p)]),
        ):
            print(f"start-up, {label:<36s} median of 15: {_median_wall(cmd):.3f} s")


def main() -> None:
    startup()
    rng = np.random.default_rng(20261125)
    truth, pred = _label_sets(rng)
    with tempfile.TemporaryDirectory() as tmp:
        t, p = Path(tmp) / "truth.txt", Path(tmp) / "pred.txt"
        _write(t, truth)
        _write(p, pred)
        env = dict(os.environ, MLCBOOK_PROGRESS="0")
        before = os.times()
        t0 = time.perf_counter()
        res = subprocess.run(
            [
                sys.executable,
                "-m",
                "mlcbook",
                "evaluate",
                str(t),
                str(p),
                "--format",
                "csv",
                "--profile",
                "full",
            ],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        wall = time.perf_counter() - t0
        after = os.times()
        cpu = (after.children_user - before.children_user) + (
            after.children_system - before.children_system
        )
        rows = res.stdout.count("\n")
        print(
            f"mlcbook evaluate, {N} x {K} label sets: wall {wall:.2f} s, CPU {cpu:.2f} s, "
            f"{rows} output lines"
        )
    Y, P = _csr(truth), _csr(pred)
    ks = list(range(1, K + 1))
    prof = best_of(lambda: loss_profile(Y, P, "binomial", ks), repeat=3)
    Yd, Pd = Y.toarray(), P.toarray()
    limit = best_of(lambda: np.mean(Yd != Pd), repeat=3)
    print(
        f"binomial profile k=1..{K}, sparse: {prof * 1e3:.1f} ms; one-pass limit "
        f"np.mean(Y != P) dense: {limit * 1e3:.1f} ms; ratio {prof / limit:.2f}x"
    )
    poly = best_of(lambda: loss_profile(Y, P, "polynomial", [1.0, 2.0, 4.0, 8.0]), repeat=3)
    print(f"polynomial profile (4 alphas), sparse: {poly * 1e3:.1f} ms; ratio {poly / limit:.2f}x")
    cases = [
        ("hamming_loss", lambda: M.hamming_loss(Y, P), lambda: skm.hamming_loss(Y, P)),
        (
            "micro_f1",
            lambda: M.f_measure(Y, P, 1.0, "micro"),
            lambda: skm.f1_score(Y, P, average="micro"),
        ),
        (
            "macro_f1",
            lambda: M.f_measure(Y, P, 1.0, "macro"),
            lambda: skm.f1_score(Y, P, average="macro", zero_division=1.0),
        ),
        (
            "instance_f1",
            lambda: M.f_measure(Y, P, 1.0, "instance"),
            lambda: skm.f1_score(Y, P, average="samples", zero_division=1.0),
        ),
        (
            "instance_jaccard",
            lambda: M.instance_jaccard(Y, P),
            lambda: skm.jaccard_score(Y, P, average="samples", zero_division=1.0),
        ),
    ]
    for name, ours, ref in cases:
        assert abs(ours() - ref()) < 1e-12, name  # the same value before timing
        a, b = best_of(ours, repeat=3), best_of(ref, repeat=3)
        print(
            f"{name:<14s} sparse K={K}: {a * 1e3:8.1f} ms, scikit-learn {b * 1e3:8.1f} ms "
            f"(ratio {a / b:.2f}x), one-pass limit ratio {a / limit:.2f}x"
        )


if __name__ == "__main__":
    main()
