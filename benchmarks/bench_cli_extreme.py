"""``mlcbook evaluate`` on an extreme-classification problem: 100,000 instances, 20,000
labels, top-10 scores, through the command line, as a ratio to the Python API on the
same matrices; and a dense score file of 500 instances x 20,000 labels.

The files are generated with a seed in a temporary folder: the truth in the Extreme
Classification Repository's layout (``n d K`` header, ``l1,l2 f:v`` lines; Zipf-like
label frequencies, about 4 labels an instance), the predictions as label sets (each
instance's top 3), the scores as ``label:score`` lines (top 10), and the same truth
as the training labels of ``--propensity``.  The command line runs in a subprocess
(P@k, nDCG@k and PSP@k at k = 1, 3, 5) that reports its own CPU time and peak memory
(maximum resident set); its wall time and the load average are printed beside the CPU
time of the Python API computing the same nine values from the in-memory matrices (a
CSR truth and a TopK) in this process; the ratio is of CPU times (the wall time of a
shared machine varies with the other processes: on an idle machine it is the CPU
time).  The goal: at most 10 s and 1 GB for the command line.

The dense case: truth and predictions as 0/1 CSV matrices and the scores as a CSV
matrix with six decimals (each with a header naming the labels), evaluated with the
default report (its ranking measures included, no loss profile); the values of four
measures are compared with :mod:`mlcbook.metrics` on the in-memory matrices.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import best_cpu

from mlcbook import extreme as X
from mlcbook import metrics as M
from mlcbook.topk import TopK

N, K, TOP, KS = 100_000, 20_000, 10, (1, 3, 5)
MEASURES = "precision_at_k,ndcg_at_k,psprecision_at_k"


def _problem(rng: np.random.Generator):
    pop = (rng.zipf(1.2, size=20 * N) - 1) % K
    lengths = rng.poisson(3.0, size=N) + 1
    sets = [np.unique(pop[rng.integers(0, pop.size, size=s)]) for s in lengths]
    idx = np.empty((N, TOP), dtype=np.int64)
    for i, s in enumerate(sets):  # some true labels among random candidates
        cand = np.unique(np.concatenate([s[: rng.integers(0, len(s) + 1)],
                                         rng.integers(0, K, size=2 * TOP)]))
        idx[i] = rng.permutation(cand)[:TOP]
    S = np.round(rng.random((N, TOP)), 4) + 1.0
    order = np.argsort(-S, axis=1)
    idx, S = np.take_along_axis(idx, order, 1), np.take_along_axis(S, order, 1)
    Y = sp.csr_matrix(
        (np.ones(sum(len(s) for s in sets), dtype=np.int8), np.concatenate(sets),
         np.concatenate([[0], np.cumsum([len(s) for s in sets])])), shape=(N, K))
    return sets, idx, S, Y


def _write(tmp: Path, sets, idx, S) -> None:
    with open(tmp / "truth.txt", "w") as fh:
        fh.write(f"{N} 1 {K}\n")
        fh.writelines(",".join(map(str, s)) + " 0:1\n" for s in sets)
    with open(tmp / "pred.txt", "w") as fh:
        fh.writelines(",".join(map(str, r[:3])) + "\n" for r in idx)
    with open(tmp / "scores.txt", "w") as fh:
        fh.writelines(
            " ".join(f"{j}:{v:.4f}" for j, v in zip(r, sv)) + "\n" for r, sv in zip(idx, S)
        )


def _api(Y, T) -> dict[str, float]:
    p = X.jain_propensity(Y)
    out = {}
    for k in KS:
        out[f"precision_at_{k}"] = X.precision_at_k(Y, T, k)
        out[f"ndcg_at_{k}"] = X.ndcg_at_k(Y, T, k)
        out[f"psprecision_at_{k}"] = X.psprecision_at_k(Y, T, k, propensity=p)
    return out


#: Runs the command line in this interpreter and reports, on the last line of standard
#: error, its CPU seconds and peak resident memory (KiB): the child's own figures.
_LAUNCH = (
    "import json, resource, sys\n"
    "from mlcbook.cli import main\n"
    "status = main(sys.argv[1:])\n"
    "r = resource.getrusage(resource.RUSAGE_SELF)\n"
    "print(json.dumps([r.ru_utime + r.ru_stime, r.ru_maxrss]), file=sys.stderr)\n"
    "sys.exit(status)\n"
)


def _command_line(args: list[str], cwd: Path) -> tuple[dict, float, float, float]:
    """(the JSON report, wall s, CPU s, peak MB) of ``mlcbook ARGS`` in a subprocess."""
    t0 = time.perf_counter()
    run = subprocess.run([sys.executable, "-c", _LAUNCH, *args], cwd=cwd, capture_output=True,
                         text=True, env=dict(os.environ, MLCBOOK_PROGRESS="0"), check=False)
    wall = time.perf_counter() - t0
    if run.returncode != 0:
        raise SystemExit(run.stderr)
    cpu, peak = json.loads(run.stderr.strip().splitlines()[-1])
    return json.loads(run.stdout), wall, cpu, peak / 1024


def _load() -> str:
    return "load average " + ", ".join(f"{x:.1f}" for x in os.getloadavg())


def extreme() -> None:
    rng = np.random.default_rng(2036)
    sets, idx, S, Y = _problem(rng)
    T = TopK(idx, S, K)
    api = best_cpu(lambda: _api(Y, T), repeat=3)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        _write(tmp, sets, idx, S)
        sizes = {f.name: f.stat().st_size / 2**20 for f in tmp.iterdir()}
        args = ["evaluate", "truth.txt", "pred.txt", "--scores", "scores.txt", "--k",
                ",".join(map(str, KS)), "--measures", MEASURES, "--propensity", "truth.txt",
                "--format-in", "labelsets", "--profile", "none", "--format", "json"]
        out, wall, cpu, peak = _command_line(args, tmp)
    got = out["measures"]
    want = _api(Y, T)
    worst = max(abs(got[m] - want[m]) for m in want)
    print(f"{N} instances, {K} labels, top-{TOP} scores; files "
          + ", ".join(f"{n} {mb:.1f} MB" for n, mb in sorted(sizes.items())))
    print(f"command line: wall {wall:.2f} s ({_load()}), CPU {cpu:.2f} s, peak {peak:.0f} MB "
          f"(goal: <= 10 s, <= 1 GB)")
    print(f"Python API on the same matrices: CPU {api:.3f} s; command line / API (CPU) = "
          f"{cpu / api:.1f} (the command line starts Python and reads and parses three "
          "files)")
    print(f"largest difference of the 9 values from the API: {worst:.1e}")


N_DENSE, K_DENSE = 500, 20_000


def dense() -> None:
    rng = np.random.default_rng(2037)
    Yd = (rng.random((N_DENSE, K_DENSE)) < 0.001).astype(np.int8)
    Yd[np.arange(N_DENSE), rng.integers(0, K_DENSE, N_DENSE)] = 1  # a label each
    Pd = (rng.random((N_DENSE, K_DENSE)) < 0.001).astype(np.int8)
    Sd = np.round(rng.random((N_DENSE, K_DENSE)), 6)
    head = ",".join(f"L{j}" for j in range(K_DENSE))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for name, A, fmt in (("t.csv", Yd, "%d"), ("p.csv", Pd, "%d"), ("s.csv", Sd, "%.6f")):
            np.savetxt(tmp / name, A, fmt=fmt, delimiter=",", header=head, comments="")
        mb = sum(f.stat().st_size for f in tmp.iterdir()) / 2**20
        out, wall, cpu, peak = _command_line(
            ["evaluate", "t.csv", "p.csv", "--scores", "s.csv", "--profile", "none",
             "--format", "json"], tmp)
    got = out["measures"]
    want = {"hamming_loss": M.hamming_loss(Yd, Pd), "ranking_loss": M.ranking_loss(Yd, Sd),
            "coverage": M.coverage(Yd, Sd), "one_error": M.one_error(Yd, Sd)}
    worst = max(abs(got[m] - v) for m, v in want.items())
    print(f"dense scores: {N_DENSE} instances x {K_DENSE} labels, three CSV files "
          f"({mb:.0f} MB), the report's {len(got)} measures: wall {wall:.2f} s ({_load()}), "
          f"CPU {cpu:.2f} s, peak {peak:.0f} MB; largest difference of {len(want)} values "
          f"from mlcbook.metrics: {worst:.1e}")


def main() -> None:
    extreme()
    dense()
