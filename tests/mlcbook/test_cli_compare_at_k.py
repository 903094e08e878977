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


def test_compare_with_the_training_labels_propensities(tmp_path):
    """``compare --propensity FILE``: PSP@k of both systems with the training labels'
    propensities (as ``evaluate --propensity``), not the test truth's."""
    rng = np.random.default_rng(12)
    n, K = 80, 10
    freq = rng.random(K) ** 2
    Y = (rng.random((n, K)) < freq[::-1]).astype(int)  # other frequencies at test time
    Ytr = (rng.random((300, K)) < freq).astype(int)
    Fa = np.round(Y * 0.4 + rng.random((n, K)), 3)
    Fb = np.round(rng.random((n, K)), 3)
    names = [f"L{j}" for j in range(K)]
    for file, A, fmt in (("t.csv", Y, "%d"), ("a.csv", (Fa > 0.7).astype(int), "%d"),
                         ("b.csv", (Fb > 0.7).astype(int), "%d"), ("sa.csv", Fa, "%.3f"),
                         ("sb.csv", Fb, "%.3f"), ("train.csv", Ytr, "%d")):
        np.savetxt(tmp_path / file, A, fmt=fmt, delimiter=",", header=",".join(names),
                   comments="")
    args = ["compare", "t.csv", "a.csv", "b.csv", "--scores-a", "sa.csv", "--scores-b",
            "sb.csv", "--measures", "psprecision_at_k", "--resamples", "99",
            "--permutations", "99", "--format", "json"]
    r = run(*args, "--k", "1,2", "--propensity", "train.csv", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    p_train, p_test = X.jain_propensity(Ytr), X.jain_propensity(Y)
    for k in (1, 2):
        row = out["comparison"][f"psprecision_at_{k}"]
        for system, F in (("a", Fa), ("b", Fb)):
            assert row[system] == pytest.approx(
                X.psprecision_at_k(Y, F, k, propensity=p_train), abs=1e-15)
            assert row[system] != pytest.approx(  # the truth's would differ
                X.psprecision_at_k(Y, F, k, propensity=p_test), abs=1e-6)
    assert any("train.csv (300 training instances)" in note for note in out["notes"])
    r = run(*args, "--param", "k=1", "--propensity", "train.csv", cwd=tmp_path)
    assert r.returncode == 2 and "--propensity" in r.stderr and "--k" in r.stderr
