"""Extreme-classification files on the command line: the Extreme Classification
Repository's truth (``n d K`` header, ``l1,l2 f:v ...`` lines) and top-k score files of
``label:score`` pairs, read into sparse matrices and scored as the Python API scores
the same matrices."""

from __future__ import annotations

import json

import numpy as np
import pytest
import scipy.sparse as sp

from mlcbook import extreme as X
from mlcbook import metrics as M
from mlcbook._labelfiles import LabelFileError, read_label_file, read_sparse_scores
from mlcbook.topk import TopK

from .cli_run import run_in_process as run


def write_problem(tmp_path, n=300, K=500, k=10, seed=0):
    rng = np.random.default_rng(seed)
    sets = [sorted(rng.choice(K, size=rng.integers(0, 6), replace=False).tolist())
            for _ in range(n)]
    lines = [f"{n} 7 {K}"]
    for s in sets:
        feats = " ".join(f"{f}:{v:.3f}" for f, v in zip(range(3), rng.random(3)))
        lines.append(",".join(map(str, s)) + (" " if s else "") + feats)
    (tmp_path / "train.txt").write_text("\n".join(lines) + "\n")  # (same layout)
    (tmp_path / "test.txt").write_text("\n".join(lines) + "\n")
    idx = np.array([rng.choice(K, size=k, replace=False) for _ in range(n)])
    for i, s in enumerate(sets):  # some hits
        if s:
            idx[i, 0] = s[0] if s[0] not in idx[i, 1:] else idx[i, 0]
    S = np.round(rng.random((n, k)) + 0.01, 4)
    (tmp_path / "scores.txt").write_text(
        "".join(" ".join(f"{j}:{v}" for j, v in zip(r, sv)) + "\n" for r, sv in zip(idx, S)))
    top = [[str(j) for j in r[:2]] for r in idx]
    (tmp_path / "pred.txt").write_text("".join(",".join(t) + "\n" for t in top))
    Y = sp.csr_matrix((np.ones(sum(map(len, sets))), np.concatenate([s for s in sets] or [[]]),
                       np.cumsum([0] + [len(s) for s in sets])), shape=(n, K))
    return Y, TopK(idx, S, K), top


def test_extreme_files_equal_the_python_api(tmp_path):
    Y, T, top = write_problem(tmp_path)
    f = read_label_file(tmp_path / "test.txt")
    assert f.labels == [str(j) for j in range(500)] and f.n_samples == 300
    r = run("evaluate", "test.txt", "pred.txt", "--scores", "scores.txt", "--k", "1,3,5",
            "--measures", "precision_at_k,ndcg_at_k,psprecision_at_k,ranking_loss",
            "--propensity", "train.txt", "--profile", "none", "--format", "json",
            "--format-in", "labelsets",  # pred.txt: label sets of integers, not a matrix
            cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)["measures"]
    p = X.jain_propensity(Y)
    for k in (1, 3, 5):
        assert got[f"precision_at_{k}"] == pytest.approx(X.precision_at_k(Y, T, k), abs=1e-15)
        assert got[f"ndcg_at_{k}"] == pytest.approx(X.ndcg_at_k(Y, T, k), abs=1e-15)
        assert got[f"psprecision_at_{k}"] == pytest.approx(
            X.psprecision_at_k(Y, T, k, propensity=p), abs=1e-14)
    assert got["ranking_loss"] == pytest.approx(M.ranking_loss(Y, T), abs=1e-15)


def test_sparse_score_file_errors(tmp_path):
    (tmp_path / "s.txt").write_text("a:0.5 b:0.2\nc:0.1 a:x\n")
    with pytest.raises(LabelFileError, match=r"s\.txt:2: 'c:0\.1': 'c' is not one of"):
        read_sparse_scores(tmp_path / "s.txt", ["a", "b"])
    (tmp_path / "s.txt").write_text("a:0.5 b:0.2\nb:0.1 a:x\n")
    with pytest.raises(LabelFileError, match=r"s\.txt:2: 'a:x': the score is not a number"):
        read_sparse_scores(tmp_path / "s.txt", ["a", "b"])
    (tmp_path / "s.txt").write_text("a:0.5 a:0.2\n")
    with pytest.raises(LabelFileError, match="scored twice"):
        read_sparse_scores(tmp_path / "s.txt", ["a", "b"])
    (tmp_path / "t.txt").write_text("2 3 4\n0,9 0:1\n1 2:1\n")
    with pytest.raises(LabelFileError, match=r"t\.txt:2: label '9' is not an integer in 0\.\.3"):
        read_label_file(tmp_path / "t.txt")
