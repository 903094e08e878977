"""Where the command line's labels come from, and a score file's header checked against
them: label-set files with fourteen labels L0-L13 and a score file give the values of the
same data as matrices, or a refusal naming the file and line.

The data are built so that the ranking loss is known in closed form: every instance has
4 relevant labels of 14 (40 relevant-irrelevant pairs) placed 1st, 3rd, 5th and 8th in
its ranking, so 0 + 1 + 2 + 4 = 7 irrelevant labels score above a relevant one: a
ranking loss of 7/40 = 0.175 on every instance.  L13 is relevant and predicted nowhere,
so labels inferred from the label sets miss it.  Pairing the score columns with the
label names sorted as strings (L0, L1, L10, L11, L12, L13, L2, ...) gives another number.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mlcbook import metrics as M
from mlcbook.cli import evaluate_files

from .cli_run import run_in_process as run

NAMES = [f"L{j}" for j in range(14)]
RELEVANT = [  # four of L0-L12 per instance (L13 never)
    [0, 10, 3, 12],
    [11, 2, 7, 1],
    [12, 10, 11, 5],
    [4, 9, 2, 10],
    [6, 1, 12, 8],
    [3, 11, 0, 9],
    [7, 5, 12, 2],
    [10, 8, 6, 4],
]  # eight instances: the mean of eight equal floats is that float, exactly
PLACES = [0, 2, 4, 7]  # ranking positions (0 = top) of the relevant labels


def problem():
    n, K = len(RELEVANT), len(NAMES)
    Y = np.zeros((n, K), dtype=int)
    F = np.zeros((n, K))
    rng = np.random.default_rng(0)
    for i, rel in enumerate(RELEVANT):
        Y[i, rel] = 1
        others = rng.permutation([j for j in range(K) if j not in rel])
        order = np.empty(K, dtype=int)  # order[position] = label
        order[PLACES] = rel
        order[[p for p in range(K) if p not in PLACES]] = others
        F[i, order] = (K - np.arange(K)) / K  # distinct scores, descending by position
    P = (F >= 10 / 14).astype(int)  # the top five labels of each instance
    P[:, 13] = 0
    return Y, P, F


def write(tmp: Path, Y, P, F, *, header=NAMES, name="scores.csv") -> dict[str, Path]:
    def sets(A):
        return "".join(json.dumps([NAMES[j] for j in np.flatnonzero(r)]) + "\n" for r in A)

    (tmp / "truth.jsonl").write_text(sets(Y))
    (tmp / "pred.jsonl").write_text(sets(P))
    lines = [",".join(header)] if header is not None else []
    lines += [",".join(repr(float(v)) for v in row) for row in F]
    (tmp / name).write_text("\n".join(lines) + "\n")
    for f, A in (("truth.csv", Y), ("pred.csv", P)):
        rows = [",".join(NAMES)] + [",".join(map(str, r)) for r in A]
        (tmp / f).write_text("\n".join(rows) + "\n")
    return {k: tmp / k for k in ("truth.jsonl", "pred.jsonl", name, "truth.csv", "pred.csv")}


def test_the_data_have_ranking_loss_7_40_and_a_string_sort_would_break_it():
    Y, P, F = problem()
    per = M.ranking_loss(Y, F, per_instance=True)
    np.testing.assert_array_equal(per, np.full(len(Y), 7 / 40))  # exact: 7 of 40 pairs
    assert M.ranking_loss(Y, F) == 0.175  # the mean of equal floats is the float
    wrong = [NAMES.index(x) for x in sorted(NAMES)]  # L0, L1, L10, ...: the old pairing
    assert M.ranking_loss(Y[:, wrong], F) != pytest.approx(0.175, abs=0.01)


def test_label_sets_and_a_score_header_give_the_values_of_the_matrices(tmp_path):
    Y, P, F = problem()
    f = write(tmp_path, Y, P, F)
    sets = evaluate_files(str(f["truth.jsonl"]), str(f["pred.jsonl"]), scores=str(f["scores.csv"]))
    mats = evaluate_files(str(f["truth.csv"]), str(f["pred.csv"]), scores=str(f["scores.csv"]))
    assert sets["labels"] == NAMES and sets["labels_from"] == f"the header of {f['scores.csv']}"
    got = dict(sets["measures"])
    assert got["ranking_loss"] == 0.175
    assert got["hamming_loss"] == M.hamming_loss(Y, P)  # K = 14, L13 counted
    assert sets["measures"] == mats["measures"] and sets["profile"] == mats["profile"]
    out = run("evaluate", f["truth.jsonl"], f["pred.jsonl"], "--scores", f["scores.csv"])
    assert out.returncode == 0 and "ranking_loss                     0.175\n" in out.stdout


def test_a_header_in_another_order_pairs_each_column_with_its_label(tmp_path):
    Y, P, F = problem()
    perm = np.random.default_rng(1).permutation(len(NAMES))
    f = write(tmp_path, Y, P, F[:, perm], header=[NAMES[j] for j in perm])
    res = evaluate_files(str(f["truth.jsonl"]), str(f["pred.jsonl"]), scores=str(f["scores.csv"]))
    assert dict(res["measures"])["ranking_loss"] == 0.175
    # the header's order is the report's order: the columns are the file's
    assert res["labels"] == [NAMES[j] for j in perm]


def test_a_header_that_does_not_name_the_labels_is_refused_with_file_and_line(tmp_path):
    Y, P, F = problem()
    f = write(tmp_path, Y, P, F, header=[f"x{j}" for j in range(14)])
    res = run("evaluate", f["truth.jsonl"], f["pred.jsonl"], "--scores", f["scores.csv"])
    assert res.returncode == 2 and res.stdout == ""
    assert f"{f['scores.csv']}:1: the header does not name the labels" in res.stderr
    # with the labels given, the same header is checked against them
    res = run("evaluate", f["truth.jsonl"], f["pred.jsonl"], "--scores", f["scores.csv"],
              "--labels", ",".join(NAMES))
    assert res.returncode == 2
    assert f"{f['scores.csv']}:1: the header does not name the labels" in res.stderr
    assert "labels without a score column: L0, L1" in res.stderr


def test_a_score_file_without_header_needs_the_labels_in_its_column_order(tmp_path):
    Y, P, F = problem()
    f = write(tmp_path, Y, P, F, header=None)
    res = run("evaluate", f["truth.jsonl"], f["pred.jsonl"], "--scores", f["scores.csv"])
    assert res.returncode == 2
    assert "the score file has no header, so nothing says which column is which" in res.stderr
    (tmp_path / "labels.txt").write_text("\n".join(NAMES) + "\n")
    got = evaluate_files(str(f["truth.jsonl"]), str(f["pred.jsonl"]), scores=str(f["scores.csv"]),
                         labels=str(tmp_path / "labels.txt"))
    assert dict(got["measures"])["ranking_loss"] == 0.175 and got["labels_from"] == "--labels"


def test_labels_inferred_from_label_sets_miss_a_label_and_say_so(tmp_path):
    Y, P, F = problem()
    f = write(tmp_path, Y, P, F)
    with pytest.warns(UserWarning, match="labels were inferred from the label sets"):
        got = evaluate_files(str(f["truth.jsonl"]), str(f["pred.jsonl"]))
    assert got["n_labels"] == 13 and "L13" not in got["labels"]
    # in order of first appearance, not sorted
    assert got["labels"][:4] == ["L0", "L3", "L10", "L12"]  # a string sort: L0, L10, L12
    assert dict(got["measures"])["hamming_loss"] == M.hamming_loss(Y[:, :13], P[:, :13])
    # given, every label counts: Hamming loss over the 14 labels, as the matrices give
    given = evaluate_files(str(f["truth.jsonl"]), str(f["pred.jsonl"]), labels=NAMES)
    assert dict(given["measures"])["hamming_loss"] == M.hamming_loss(Y, P)
    res = run("evaluate", f["truth.jsonl"], f["pred.jsonl"])
    assert res.returncode == 0 and "mlcbook: warning: the labels were inferred" in res.stderr


def test_given_labels_must_agree_with_a_header_and_name_a_matrix_without_one(tmp_path):
    Y, P, F = problem()
    f = write(tmp_path, Y, P, F)
    res = run("evaluate", f["truth.csv"], f["pred.csv"], "--labels", ",".join(NAMES[::-1]))
    assert res.returncode == 2 and f"{f['truth.csv']}:1: the header names L0" in res.stderr
    (tmp_path / "bare.csv").write_text("\n".join(",".join(map(str, r)) for r in Y) + "\n")
    res = run("evaluate", tmp_path / "bare.csv", f["pred.jsonl"])
    assert res.returncode == 2 and "a 0/1 matrix without a header" in res.stderr
    got = evaluate_files(str(tmp_path / "bare.csv"), str(f["pred.jsonl"]), labels=NAMES)
    assert dict(got["measures"])["hamming_loss"] == M.hamming_loss(Y, P)
    res = run("evaluate", f["truth.csv"], f["pred.csv"], "--labels", "L0,L0")
    assert res.returncode == 2 and "not a file and not a list of distinct names" in res.stderr
