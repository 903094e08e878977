"""What researchers reach for: per-label values (scikit-learn's ``average=None``),
``mlcbook evaluate --per-label``, ``mlcbook --version`` and nDCG@k for k > K."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import metrics as skm

import mlcbook
from mlcbook import metrics as M
from mlcbook.extreme import ndcg_at_k

from .cli_run import run_in_process as run

#: the same counts divided in another order: equal to the last bit in practice; 1e-15
#: allows one rounding
TOL = 1e-15


def _data(seed=7, n=50, K=6):
    rng = np.random.default_rng(seed)
    Y = (rng.random((n, K)) < 0.35).astype(int)
    Y[0], Y[1] = 1, 0
    P = (rng.random((n, K)) < 0.35).astype(int)
    P[:, -1] = 0  # a label never predicted: zero division for its precision
    F = np.round(Y * 0.4 + rng.random((n, K)), 1)  # ties
    return Y, P, F


@pytest.mark.parametrize("ours, theirs", [(M.precision, skm.precision_score),
                                          (M.recall, skm.recall_score),
                                          (M.f_measure, skm.f1_score)])
@pytest.mark.parametrize("zd", [0.0, 1.0])
def test_per_label_values_are_scikit_learn_average_none(ours, theirs, zd):
    Y, P, _ = _data()
    got = ours(Y, P, average=None, zero_division=zd)
    want = theirs(Y, P, average=None, zero_division=zd)
    assert got.shape == (Y.shape[1],)
    np.testing.assert_allclose(got, want, rtol=0, atol=TOL)
    # their mean is the macro average; sparse input gives the same values
    assert np.mean(got) == pytest.approx(ours(Y, P, average="macro", zero_division=zd), abs=TOL)
    np.testing.assert_array_equal(
        ours(sp.csr_matrix(Y), sp.csr_matrix(P), average=None, zero_division=zd), got)


def test_per_label_auc_is_scikit_learn_average_none():
    Y, _, F = _data()
    got = M.auc(Y, F, average=None)
    np.testing.assert_allclose(got, skm.roc_auc_score(Y, F, average=None), rtol=0, atol=1e-12)
    assert np.nanmean(got) == pytest.approx(M.auc(Y, F, average="macro"), abs=1e-15)
    with pytest.raises(ValueError, match="per_instance=True needs average='instance'"):
        M.auc(Y, F, average=None, per_instance=True)


def test_cli_per_label_table(tmp_path):
    Y, P, F = _data()
    names = [f"L{j}" for j in range(Y.shape[1])]
    for file, A, fmt in (("t.csv", Y, "%d"), ("p.csv", P, "%d"), ("s.csv", F, "%.1f")):
        np.savetxt(tmp_path / file, A, fmt=fmt, delimiter=",", header=",".join(names),
                   comments="")
    r = run("evaluate", "t.csv", "p.csv", "--scores", "s.csv", "--per-label", "--profile",
            "none", "--measures", "macro_f1", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)["per_label"]
    assert list(got) == names
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = {
            "support": Y.sum(axis=0),
            "precision": skm.precision_score(Y, P, average=None, zero_division=1.0),
            "recall": skm.recall_score(Y, P, average=None, zero_division=1.0),
            "f1": skm.f1_score(Y, P, average=None, zero_division=1.0),
            "auc": skm.roc_auc_score(Y, F, average=None),
        }
    for m, values in want.items():
        assert [got[n][m] for n in names] == pytest.approx(list(values), abs=1e-12), m
    # text and CSV carry the same table
    r = run("evaluate", "t.csv", "p.csv", "--per-label", "--profile", "none", "--measures",
            "macro_f1", "--format", "csv", cwd=tmp_path)
    rows = [ln.split(",") for ln in r.stdout.splitlines() if ln.startswith("per_label,f1,")]
    assert [float(x[3]) for x in rows] == pytest.approx(list(want["f1"]), abs=1e-15)
    r = run("evaluate", "t.csv", "p.csv", "--per-label", "--profile", "none", cwd=tmp_path)
    assert "per label" in r.stdout and "L5" in r.stdout.split("per label")[1]


def test_version():
    r = run("--version")
    assert r.returncode == 0 and r.stdout.strip() == f"mlcbook {mlcbook.__version__}"


@pytest.mark.parametrize("k", [6, 7, 10, 100])
def test_ndcg_beyond_the_number_of_labels_is_scikit_learn(k):
    Y, _, F = _data()
    Y = Y[Y.sum(axis=1) > 0]
    F = F[: len(Y)]
    assert ndcg_at_k(Y, F, k) == pytest.approx(skm.ndcg_score(Y, F, k=k), abs=1e-14)
    assert ndcg_at_k(Y, F, k) == ndcg_at_k(Y, F, Y.shape[1])  # all K labels ranked
