"""The command line's intervals, comparisons, digits, beta and output errors.

Values are checked against the library called directly (mlcbook.intervals,
mlcbook.metrics) on the matrices written to the files, and F-beta against
scikit-learn's fbeta_score.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import fbeta_score

from mlcbook import intervals as I
from mlcbook.cli import compare_files, evaluate_files, main

from .cli_run import run_in_process as run


def _files(tmp_path: Path, seed: int = 0, n: int = 120, K: int = 4):
    rng = np.random.default_rng(seed)
    Y = rng.integers(0, 2, (n, K))
    A = np.where(rng.random((n, K)) < 0.15, 1 - Y, Y)
    B = np.where(rng.random((n, K)) < 0.3, 1 - Y, Y)
    paths = {}
    for name, M in (("y", Y), ("a", A), ("b", B)):
        paths[name] = tmp_path / f"{name}.csv"
        np.savetxt(paths[name], M, fmt="%d", delimiter=",")
    return Y, A, B, {k: str(v) for k, v in paths.items()}


def test_evaluate_ci_equals_the_library_interval(tmp_path):
    Y, A, _, f = _files(tmp_path)
    ci = {"level": 0.9, "resamples": 499, "method": "percentile", "seed": 3}
    res = evaluate_files(f["y"], f["a"], ci=ci)
    got = {n: (lo, hi) for n, lo, hi in res["intervals"]}
    for name in ("hamming_loss", "macro_f1", "example_based_f1"):
        ref = I.bootstrap_interval(name, Y, A, confidence=0.9, n_resamples=499,
                                   method="percentile", random_state=3)
        assert got[name] == (ref.low, ref.high)
    out = json.loads(run("evaluate", f["y"], f["a"], "--ci", "0.9", "--resamples", "499",
                         "--ci-method", "percentile", "--seed", "3", "--format",
                         "json").stdout)
    assert out["intervals"]["macro_f1"] == {"low": got["macro_f1"][0],
                                            "high": got["macro_f1"][1]}


def test_compare_equals_the_library_comparison(tmp_path):
    Y, A, B, f = _files(tmp_path, 1)
    ci = {"level": 0.95, "resamples": 299, "permutations": 299, "method": "BCa", "seed": 5}
    res = compare_files(f["y"], f["a"], f["b"], ci=ci)
    rows = {r[0]: r[1:] for r in res["rows"]}
    ref = I.paired_comparison("micro_f1", Y, A, B, n_resamples=299, n_permutations=299,
                              random_state=5, zero_division=1.0)
    assert rows["micro_f1"] == (ref.estimate_a, ref.estimate_b, ref.difference, ref.low,
                                ref.high, ref.p_value)
    text = run("compare", f["y"], f["a"], f["b"], "--resamples", "299", "--permutations",
               "299", "--seed", "5")
    assert text.returncode == 0, text.stderr
    line = next(ln for ln in text.stdout.splitlines() if ln.startswith("micro_f1 "))
    assert line.split()[1:4] == [f"{ref.estimate_a:.4g}", f"{ref.estimate_b:.4g}",
                                 f"{ref.difference:.4g}"]


def test_beta_and_digits(tmp_path):
    Y, A, _, f = _files(tmp_path, 2)
    res = dict(evaluate_files(f["y"], f["a"], beta=2.0)["measures"])
    for avg, sk in (("micro", "micro"), ("macro", "macro"), ("instance", "samples")):
        assert res[f"{avg}_f2"] == pytest.approx(fbeta_score(Y, A, beta=2.0, average=sk,
                                                             zero_division=1.0),
                                                 abs=1e-15)
    out = run("evaluate", f["y"], f["a"], "--beta", "2", "--digits", "3").stdout
    assert f"micro_f2              {res['micro_f2']:.3g}\n" in out
    csv_out = run("evaluate", f["y"], f["a"], "--beta", "2", "--format", "csv").stdout
    assert f"measure,micro_f2,,{res['micro_f2']!r}\n" in csv_out  # csv: in full
    for bad in (["--beta", "0"], ["--digits", "0"], ["--ci", "95"], ["--resamples", "x"]):
        r = run("evaluate", f["y"], f["a"], *bad)
        assert r.returncode == 2 and "Traceback" not in r.stderr, bad


def test_output_errors_are_reported(tmp_path):
    _, _, _, f = _files(tmp_path, 3)
    if os.path.exists("/dev/full"):
        with open("/dev/full", "w") as full:
            r = subprocess.run([sys.executable, "-m", "mlcbook", "evaluate", f["y"], f["a"]],
                               stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
        assert r.returncode == 1 and "cannot write the output" in r.stderr
        assert "Traceback" not in r.stderr
    r = subprocess.run(
        [sys.executable, "-c",
         "import os, sys; os.close(1); sys.stdout = None\n"
         "from mlcbook.cli import main; sys.exit(main(sys.argv[1:]))",
         "evaluate", f["y"], f["a"]],
        stderr=subprocess.PIPE, text=True, timeout=120,
    )
    assert r.returncode == 1 and "standard output is closed" in r.stderr


def test_main_in_process_returns_2_on_a_typo(tmp_path, capsys):
    _, _, _, f = _files(tmp_path, 4)
    Path(f["a"]).write_text(Path(f["a"]).read_text().replace("1", "l", 1))
    assert main(["evaluate", f["y"], f["a"]]) == 2
    err = capsys.readouterr().err
    assert "a.csv:1: column" in err and "is not a number" in err
