"""``mlcbook evaluate --propensity FILE``: PSP@k and PSnDCG@k with the training labels'
propensities (or given ones), not those of the test truth."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mlcbook import extreme as X

from .cli_run import run_in_process as run


def _write(tmp_path, seed=36):
    rng = np.random.default_rng(seed)
    K, n, n_train = 40, 200, 600
    freq = rng.random(K) ** 3  # a long tail of rare labels
    Ytr = (rng.random((n_train, K)) < freq).astype(int)
    Y = (rng.random((n, K)) < freq[::-1]).astype(int)  # other frequencies at test time
    F = np.round(Y * 0.5 + rng.random((n, K)), 3)
    P = (F > 0.8).astype(int)
    names = [f"L{j}" for j in range(K)]
    for file, A, fmt in (("t.csv", Y, "%d"), ("p.csv", P, "%d"), ("s.csv", F, "%.3f"),
                         ("train.csv", Ytr, "%d")):
        np.savetxt(tmp_path / file, A, fmt=fmt, delimiter=",", header=",".join(names),
                   comments="")
    return Y, F, Ytr, names


def _psp(tmp_path, *extra):
    r = run("evaluate", "t.csv", "p.csv", "--scores", "s.csv", "--k", "1,3", "--measures",
            "psprecision_at_k", "--profile", "none", "--format", "json", *extra,
            cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    return out["measures"], out.get("notes", [])


def test_training_labels_give_the_propensities(tmp_path):
    Y, F, Ytr, _ = _write(tmp_path)
    got, notes = _psp(tmp_path, "--propensity", "train.csv")
    p_train = X.jain_propensity(Ytr)
    for k in (1, 3):
        want = X.psprecision_at_k(Y, F, k, propensity=p_train)
        assert got[f"psprecision_at_{k}"] == pytest.approx(want, abs=1e-15)
    assert any("train.csv (600 training instances)" in n for n in notes)
    before, _ = _psp(tmp_path)  # the test truth's own frequencies
    assert before["psprecision_at_1"] == pytest.approx(
        X.psprecision_at_k(Y, F, 1, propensity=X.jain_propensity(Y)), abs=1e-15)
    assert abs(before["psprecision_at_1"] - got["psprecision_at_1"]) > 0.01


def test_a_file_of_propensities(tmp_path):
    Y, F, Ytr, names = _write(tmp_path)
    p = np.linspace(0.05, 1.0, len(names))
    (tmp_path / "p.txt").write_text("".join(f"{float(v)!r}\n" for v in p))
    got, _ = _psp(tmp_path, "--propensity", "p.txt")
    assert got["psprecision_at_3"] == pytest.approx(
        X.psprecision_at_k(Y, F, 3, propensity=p), abs=1e-15)
    # label,propensity lines in another order: the same values
    (tmp_path / "named.csv").write_text(
        "".join(f"{n},{float(v)!r}\n" for n, v in reversed(list(zip(names, p)))))
    again, _ = _psp(tmp_path, "--propensity", "named.csv")
    assert again == got


@pytest.mark.parametrize("text, message", [
    ("0.5\n0.5\n", "2 propensities for 40 labels"),
    ("L0,0.5\nL99,0.5\n", "named.txt:2: 'L99' is not one of the labels"),
    ("".join("1.5\n" for _ in range(40)), "propensities must lie in (0, 1]"),
])
def test_bad_propensity_files_are_refused(tmp_path, text, message):
    _write(tmp_path)
    (tmp_path / "named.txt").write_text(text)
    r = run("evaluate", "t.csv", "p.csv", "--scores", "s.csv", "--k", "1", "--propensity",
            "named.txt", cwd=tmp_path)
    assert r.returncode == 2 and message in r.stderr, r.stderr
