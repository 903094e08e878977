"""Large label-set files stay sparse from reading to the loss profiles.

The sparse path (forced here by a cell limit of 0) must give what the dense path
gives on the same files; the EUR-Lex-size timing is in benchmarks/bench_cli.py.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from mlcbook.cli import evaluate_files
from mlcbook import _labelfiles as labelfiles
from mlcbook.intervals import bootstrap_interval


def _write_sets(path, rng, n, K):
    lines = []
    for _ in range(n):
        s = sorted(set(rng.integers(0, K, size=int(rng.integers(0, 6))).tolist()))
        lines.append(",".join(f"L{j}" for j in s) if s else "[]")
    path.write_text("\n".join(lines) + "\n")


def test_sparse_and_dense_label_sets_give_the_same_report(tmp_path, monkeypatch):
    rng = np.random.default_rng(0)
    _write_sets(tmp_path / "t.txt", rng, 300, 40)
    _write_sets(tmp_path / "p.txt", rng, 300, 40)
    dense = evaluate_files(str(tmp_path / "t.txt"), str(tmp_path / "p.txt"))
    monkeypatch.setattr(labelfiles, "SPARSE_CELLS", 0)
    t = labelfiles.read_label_file(tmp_path / "t.txt")
    p = labelfiles.read_label_file(tmp_path / "p.txt")
    Y, P, _ = labelfiles.align_label_files(t, p)
    assert sp.issparse(Y) and sp.issparse(P)
    sparse = evaluate_files(str(tmp_path / "t.txt"), str(tmp_path / "p.txt"))
    assert sparse["labels"] == dense["labels"]
    for (n1, v1), (n2, v2) in zip(sparse["measures"], dense["measures"]):
        # counts are integers either way; only the order of float sums may differ
        assert n1 == n2 and v1 == pytest.approx(v2, rel=1e-14, abs=1e-15)
    np.testing.assert_allclose([v for *_, v in sparse["profile"]],
                               [v for *_, v in dense["profile"]], rtol=1e-14, atol=1e-15)
    Yd, Pd = Y.toarray(), P.toarray()
    for name in ("macro_f1", "hamming_loss", "binomial_loss"):
        kw = {"k": 2} if name == "binomial_loss" else {}
        a = bootstrap_interval(name, Y, P, n_resamples=99, random_state=1, **kw)
        b = bootstrap_interval(name, Yd, Pd, n_resamples=99, random_state=1, **kw)
        assert (a.low, a.high) == pytest.approx((b.low, b.high), rel=1e-12)
