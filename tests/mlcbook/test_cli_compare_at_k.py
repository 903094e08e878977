"""``mlcbook compare --k``: the at-k measures of two score files, each at every cut-off,
with their paired interval and test; the values are those of mlcbook.extreme."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mlcbook import extreme as X

from .cli_run import run_in_process as run


def test_compare_at_k(tmp_path):
    rng = np.random.default_rng(11)
    n, K = 60, 8
    Y = (rng.random((n, K)) < 0.3).astype(int)
    Y[0] = 1
    Fa = np.round(Y * 0.4 + rng.random((n, K)), 3)
    Fb = np.round(rng.random((n, K)), 3)
    names = [f"L{j}" for j in range(K)]
    for file, A, fmt in (("t.csv", Y, "%d"), ("a.csv", (Fa > 0.7).astype(int), "%d"),
                         ("b.csv", (Fb > 0.7).astype(int), "%d"), ("sa.csv", Fa, "%.3f"),
                         ("sb.csv", Fb, "%.3f")):
        np.savetxt(tmp_path / file, A, fmt=fmt, delimiter=",", header=",".join(names),
                   comments="")
    r = run("compare", "t.csv", "a.csv", "b.csv", "--scores-a", "sa.csv", "--scores-b",
            "sb.csv", "--k", "1,3", "--measures", "precision_at_k,psprecision_at_k",
            "--resamples", "199", "--permutations", "199", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)["comparison"]
    p = X.jain_propensity(Y)
    for k in (1, 3):
        row = got[f"precision_at_{k}"]
        assert row["a"] == pytest.approx(X.precision_at_k(Y, Fa, k), abs=1e-15)
        assert row["b"] == pytest.approx(X.precision_at_k(Y, Fb, k), abs=1e-15)
        assert row["low"] <= row["difference"] <= row["high"]
        assert got[f"psprecision_at_{k}"]["a"] == pytest.approx(
            X.psprecision_at_k(Y, Fa, k, propensity=p), abs=1e-15)
    r = run("compare", "t.csv", "a.csv", "b.csv", "--k", "1", cwd=tmp_path)
    assert r.returncode == 2 and "--scores-a and --scores-b" in r.stderr
