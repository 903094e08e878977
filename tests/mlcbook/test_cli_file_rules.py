"""Files read by declared rules: the cases a researcher met on their own files.

Each test writes the file as a researcher would, runs ``mlcbook evaluate`` and compares
with the measure computed here from the matrices that were written (numpy, not the
reader).  Each also computes what the previous reader gave (a row dropped, a header read
as an instance, a space-separated file split at commas) to show that the number it
printed was another one.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest

from mlcbook._labelfiles import HeaderWarning, LabelFileError, read_label_file
from mlcbook.cli import evaluate_files

from .cli_run import run_in_process as run


def _sets(Y: np.ndarray, names: list[str]) -> list[list[str]]:
    return [[names[j] for j in np.flatnonzero(row)] for row in Y]


def _write_sets(path, sets, sep=", "):
    path.write_text("".join(sep.join(s) + "\n" for s in sets))


def _subset_accuracy(Y, P):
    return float(np.mean(np.all(Y == P, axis=1)))


def test_trailing_empty_sets_are_rows(tmp_path):
    """980 rows whose last is empty in both files: 980 instances, not 979."""
    rng = np.random.default_rng(36)
    n, K = 980, 6
    names = [f"L{j}" for j in range(K)]
    Y = (rng.random((n, K)) < 0.25).astype(np.int8)
    P = np.where(rng.random((n, K)) < 0.8, Y, 1 - Y).astype(np.int8)
    Y[-1] = 0
    P[-1] = 0  # both empty: the last instance is predicted right
    _write_sets(tmp_path / "truth.txt", _sets(Y, names))
    _write_sets(tmp_path / "pred.txt", _sets(P, names))
    assert (tmp_path / "truth.txt").read_text().endswith("\n\n")  # the empty last line
    res = evaluate_files(
        str(tmp_path / "truth.txt"),
        str(tmp_path / "pred.txt"),
        labels=names,
        measures=["subset_accuracy"],
        profile="none",
    )
    assert res["n_samples"] == n
    value = dict(res["measures"])["subset_accuracy"]
    assert value == _subset_accuracy(Y, P)  # the same mean of 0/1 over 980 rows
    before = _subset_accuracy(Y[:-1], P[:-1])  # the old reader dropped the last line
    assert abs(value - before) > 5e-4  # 0.2551 now; 0.2543 before (this seed)


def test_row_counts_differ_refused_before_work(tmp_path):
    (tmp_path / "truth.txt").write_text("a, b\nb\n\n")
    (tmp_path / "pred.txt").write_text("a, b\nb\n")
    r = run("evaluate", "truth.txt", "pred.txt", "--labels", "a,b", cwd=tmp_path)
    assert r.returncode == 2
    assert "pred.txt: 2 rows but truth.txt has 3" in r.stderr


def test_one_comma_does_not_switch_the_file(tmp_path):
    """A space-separated file with one comma: refused at that line, not read with
    commas everywhere; --format-in space reads the comma as part of a label."""
    (tmp_path / "truth.txt").write_text("cat dog\nbird\ncat bird\n")
    (tmp_path / "pred.txt").write_text("cat dog\nbird\ncat,bird fish\n")
    r = run("evaluate", "truth.txt", "pred.txt", "--labels", "cat,dog,bird", cwd=tmp_path)
    assert r.returncode == 2
    assert "pred.txt:3:" in r.stderr and "line 1 is labels separated by spaces" in r.stderr
    # before: every line was split at commas, so line 1 became the one label "cat dog"
    with pytest.raises(LabelFileError, match=r"pred\.txt:3:"):
        read_label_file(tmp_path / "pred.txt")
    f = read_label_file(tmp_path / "pred.txt", "space")
    assert f.label_sets == [["cat", "dog"], ["bird"], ["cat,bird", "fish"]]
    f = read_label_file(tmp_path / "pred.txt", "comma")
    assert f.label_sets == [["cat dog"], ["bird"], ["cat", "bird fish"]]


def test_json_and_plain_lines_refused(tmp_path):
    (tmp_path / "t.txt").write_text('["a", "b"]\na, b\n')
    with pytest.raises(LabelFileError, match=r"t\.txt:2: .*line 1 is a JSON array"):
        read_label_file(tmp_path / "t.txt")


def test_empty_set_anywhere(tmp_path):
    (tmp_path / "t.txt").write_text("a b\n\n[]\nb\n\n")
    f = read_label_file(tmp_path / "t.txt")
    assert f.label_sets == [["a", "b"], [], [], ["b"], []]


def _hamming(Y, P):
    return float(np.mean(Y != P))


def test_pandas_integer_header(tmp_path):
    """``DataFrame(Y).to_csv(index=False)`` with 2 labels writes the line ``0,1``."""
    Y = np.array([[1, 0], [0, 1], [1, 1], [0, 0]])
    P = np.array([[1, 0], [1, 1], [1, 0], [0, 0]])
    pd.DataFrame(Y).to_csv(tmp_path / "truth.csv", index=False)
    pd.DataFrame(P).to_csv(tmp_path / "pred.csv", index=False)
    assert (tmp_path / "truth.csv").read_text().startswith("0,1\n")
    with pytest.warns(HeaderWarning, match="--no-header"):  # 0,1 could be a row
        res = evaluate_files(
            str(tmp_path / "truth.csv"),
            str(tmp_path / "pred.csv"),
            measures=["hamming_loss"],
            profile="none",
        )
    assert res["n_samples"] == 4 and res["labels"] == ["0", "1"]
    value = dict(res["measures"])["hamming_loss"]
    assert value == _hamming(Y, P) == 0.25
    header_row = np.array([[0, 1]])  # before: the header line read as an instance
    before = _hamming(np.vstack([header_row, Y]), np.vstack([header_row, P]))
    assert before == 0.2  # 2 errors in 10 cells, against 2 in 8
    # --no-header: the line is a row (the warning's way out), as numpy would write it
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = evaluate_files(
            str(tmp_path / "truth.csv"),
            str(tmp_path / "pred.csv"),
            measures=["hamming_loss"],
            profile="none",
            header=False,
        )
    assert res["n_samples"] == 5 and dict(res["measures"])["hamming_loss"] == before


def test_pandas_integer_header_three_labels_and_index(tmp_path):
    """``0,1,2`` cannot be a 0/1 row: read as the header without a warning; a frame
    written with its index (``,0,1,2``) loses the index column."""
    rng = np.random.default_rng(3)
    Y = (rng.random((40, 3)) < 0.5).astype(int)
    P = (rng.random((40, 3)) < 0.5).astype(int)
    pd.DataFrame(Y).to_csv(tmp_path / "truth.csv", index=False)
    pd.DataFrame(P).to_csv(tmp_path / "pred.csv")  # with the index
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = evaluate_files(
            str(tmp_path / "truth.csv"),
            str(tmp_path / "pred.csv"),
            measures=["hamming_loss"],
            profile="none",
        )
    assert res["n_samples"] == 40
    assert dict(res["measures"])["hamming_loss"] == _hamming(Y, P)


def test_header_option(tmp_path):
    (tmp_path / "t.csv").write_text("1,0\n0,1\n")
    assert read_label_file(tmp_path / "t.csv").Y.shape == (2, 2)
    f = read_label_file(tmp_path / "t.csv", header=True)
    assert f.labels == ["1", "0"] and f.Y.tolist() == [[0, 1]]
    r = run(
        "evaluate",
        "t.csv",
        "t.csv",
        "--header",
        "--measures",
        "hamming_loss",
        "--profile",
        "none",
        "--format",
        "json",
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["n_samples"] == 1
