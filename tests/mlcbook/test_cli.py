"""The command line on files written to ``tmp_path``: ``main(ARGS)`` in this process
(what ``python -m mlcbook ARGS`` runs, see cli_run.py), and as a user runs it, the
``mlcbook`` console script and ``python -m mlcbook`` in a subprocess, which must print
and exit as main() does.

Expected values are computed independently: the Hivemall example's counts by set
operations in Python, the measures by scikit-learn, the loss profiles by their closed
forms (eqs. 17-18 of Hüllermeier et al. 2022) from per-row error counts.
"""

from __future__ import annotations

import csv
import io
import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

from mlcbook import datasets as ds
from mlcbook.cli import evaluate_files
from mlcbook.metrics import binarize

from .cli_run import SCRIPT, run_process
from .cli_run import run_in_process as run

# The Hivemall user guide's example (book/measures.md): tags of seven blog posts.
TRUTH = [
    ["cat", "bird"],
    ["cat", "dog"],
    ["cat"],
    ["bird"],
    ["bird", "cat"],
    ["cat", "dog"],
    ["dog", "bird"],
]
PRED = [
    ["cat", "dog"],
    ["cat", "bird"],
    [],
    ["bird"],
    ["bird", "cat"],
    ["cat", "dog", "bird"],
    ["dog"],
]


def write_sets(path: Path, sets, style: str) -> Path:
    lines = []
    for s in sets:
        if style == "hivemall":
            lines.append("[" + ", ".join(f'"{x}"' for x in s) + "]")
        else:
            lines.append(", ".join(s) if s else "[]")
    path.write_text("\n".join(lines) + "\n")
    return path


def write_matrix(path: Path, A, sep: str = ",", header=None, fmt: str = "{:d}") -> Path:
    rows = [sep.join(header)] if header is not None else []
    rows += [sep.join(fmt.format(v) for v in row) for row in np.asarray(A).tolist()]
    path.write_text("\n".join(rows) + "\n")
    return path


# ------------------------------------------------------------------ Hivemall example
@pytest.mark.parametrize("style", ["plain", "hivemall"])
def test_hivemall_example_micro_f1(tmp_path, style):
    t = write_sets(tmp_path / "truth.txt", TRUTH, "plain")
    p = write_sets(tmp_path / "pred.txt", PRED, style)
    res = run("evaluate", t, p, "--format", "json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    tp = sum(len(set(a) & set(b)) for a, b in zip(TRUTH, PRED))
    fn = sum(len(set(a) - set(b)) for a, b in zip(TRUTH, PRED))
    fp = sum(len(set(b) - set(a)) for a, b in zip(TRUTH, PRED))
    assert (tp, fn, fp) == (8, 4, 3)
    # exact: the correctly rounded 2tp / (2tp + fn + fp) = 16/23, the value the Hivemall
    # guide prints (0.6956521739130435)
    assert out["measures"]["micro_f1"] == float(Fraction(2 * tp, 2 * tp + fn + fp))
    assert repr(out["measures"]["micro_f1"]) == "0.6956521739130435"
    # the labels seen, in order of first appearance (never sorted), and a warning that
    # they were inferred from the label sets
    assert out["labels"] == ["cat", "bird", "dog"] and out["n_samples"] == 7
    assert "mlcbook: warning: the labels were inferred from the label sets" in res.stderr
    text = run("evaluate", t, p)  # 4 significant digits for reading; --digits for more
    assert text.returncode == 0 and "micro_f1              0.6957\n" in text.stdout
    text = run("evaluate", t, p, "--digits", "17")
    assert "micro_f1              0.69565217391304346\n" in text.stdout


def test_console_script_and_module_agree(tmp_path):
    assert SCRIPT.is_file(), "pip install -e . installs the mlcbook console script"
    t = write_sets(tmp_path / "truth.txt", TRUTH, "plain")
    p = write_sets(tmp_path / "pred.txt", PRED, "plain")
    a = run_process("evaluate", t, p, "--format", "csv", script=True)
    b = run_process("evaluate", t, p, "--format", "csv")
    c = run("evaluate", t, p, "--format", "csv")
    assert a.returncode == b.returncode == c.returncode == 0
    assert a.stdout == b.stdout == c.stdout


def test_the_process_prints_and_exits_as_main_does(tmp_path):
    """A usage error (argparse) and a malformed file (main's own status 2): the process
    and main() in this process give the same status, output and message."""
    (tmp_path / "t.csv").write_text("1,0\n0,2\n")
    for args in (["evaluate", "a", "b", "--zero-division", "2"],
                 ["evaluate", "t.csv", "t.csv"]):
        proc, here = run_process(*args, cwd=tmp_path), run(*args, cwd=tmp_path)
        assert proc.returncode == here.returncode == 2, args
        assert proc.stdout == here.stdout == "", args
        assert proc.stderr == here.stderr and ": error: " in proc.stderr, args


# ------------------------------------------------------------------ values
def _random_problem(seed: int, n: int = 40, K: int = 5):
    rng = np.random.default_rng(seed)
    Y = rng.integers(0, 2, (n, K))
    Y[0], Y[1] = 1 - Y[1], Y[1]  # every label has a positive and a negative instance
    Y[:, 0] = np.r_[1, 0, Y[2:, 0]]
    empty = ~Y.any(
        axis=1
    )  # coverage: scikit-learn's = ours + 1 only for rows with a label
    Y[empty, 1] = 1
    P = np.where(rng.random((n, K)) < 0.25, 1 - Y, Y)
    F = np.round(Y + rng.normal(0, 0.8, (n, K)), 6)
    return Y, P, F


def _closed_form_profiles(Y, P, ks, alphas):
    """Binomial eq. (18) and polynomial eq. (17) losses from the error counts."""
    K = Y.shape[1]
    m = (Y != P).sum(axis=1)
    binom = [
        np.mean([1 - math.comb(K - int(e), k) / math.comb(K, k) for e in m]) for k in ks
    ]
    poly = [np.mean([1 - ((K - int(e)) / K) ** a for e in m]) for a in alphas]
    return binom, poly


def test_every_measure_against_scikit_learn(tmp_path):
    Y, P, F = _random_problem(0)
    t = write_matrix(tmp_path / "y.csv", Y)
    p = write_matrix(tmp_path / "p.tsv", P, sep="\t")
    s = write_matrix(tmp_path / "f.csv", F, fmt="{!r}")
    res = run("evaluate", t, p, "--scores", s, "--format", "json", "--measures", "all")
    assert res.returncode == 0, res.stderr
    got = json.loads(res.stdout)["measures"]
    ref = {
        "hamming_loss": skm.hamming_loss(Y, P),
        "subset_accuracy": skm.accuracy_score(Y, P),
        "accuracy": skm.accuracy_score(Y, P),
        "subset_zero_one_loss": 1 - skm.accuracy_score(Y, P),
        "instance_jaccard": skm.jaccard_score(Y, P, average="samples", zero_division=1.0),
        "ranking_loss": skm.label_ranking_loss(Y, F),
        "coverage": skm.coverage_error(Y, F)
        - 1,  # Wu & Zhou count from 0 (metrics doc)
        "coverage_error": skm.coverage_error(Y, F),
        "label_ranking_average_precision": skm.label_ranking_average_precision_score(Y, F),
        "average_precision": skm.average_precision_score(Y, F),
        "roc_auc": skm.roc_auc_score(Y, F),
        "macro_auc": skm.roc_auc_score(Y, F, average="macro"),
        "micro_auc": skm.roc_auc_score(Y, F, average="micro"),
    }
    for what, fn in (("precision", skm.precision_score), ("recall", skm.recall_score),
                     ("f1", skm.f1_score), ("jaccard", skm.jaccard_score)):
        for avg in ("micro", "macro", "samples", "weighted"):  # scikit-learn's defaults
            ref[f"{what}_{avg}"] = fn(Y, P, average=avg)
    for avg, sk_avg in (
        ("micro", "micro"),
        ("macro", "macro"),
        ("instance", "samples"),
    ):
        ref[f"{avg}_precision"] = skm.precision_score(
            Y, P, average=sk_avg, zero_division=1.0
        )
        ref[f"{avg}_recall"] = skm.recall_score(Y, P, average=sk_avg, zero_division=1.0)
        ref[f"{avg}_f1"] = skm.f1_score(Y, P, average=sk_avg, zero_division=1.0)
    one_error = np.mean([Y[i, np.argmax(F[i])] == 0 for i in range(len(Y))])
    ref["one_error"] = one_error
    for name, value in ref.items():
        # rtol 1e-12: the same quantity summed in another order (means of ratios)
        assert got[name] == pytest.approx(value, rel=1e-12, abs=1e-15), name
    assert {"instance_auc", "example_based_f1"} <= set(got)


def test_profiles_match_closed_forms_and_formats_agree(tmp_path):
    Y, P, _ = _random_problem(1, n=30, K=6)
    t = write_matrix(tmp_path / "y.csv", Y, header=[f"L{j}" for j in range(6)])
    p = write_matrix(tmp_path / "p.csv", P, header=[f"L{j}" for j in range(6)])
    js = json.loads(run("evaluate", t, p, "--format", "json").stdout)
    prof = js["profile"]
    assert prof["binomial"]["param"] == [1, 2, 3, 4, 5, 6]
    binom, poly = _closed_form_profiles(Y, P, range(1, 7), prof["polynomial"]["param"])
    # 1e-12: the library sums a histogram of error counts, the reference a mean of terms
    np.testing.assert_allclose(prof["binomial"]["loss"], binom, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(prof["polynomial"]["loss"], poly, rtol=1e-12, atol=1e-15)
    assert js["labels"] == [f"L{j}" for j in range(6)]
    # CSV and Markdown carry the same numbers, printed in full
    rows = list(
        csv.DictReader(io.StringIO(run("evaluate", t, p, "--format", "csv").stdout))
    )
    csv_meas = {r["name"]: float(r["value"]) for r in rows if r["table"] == "measure"}
    assert csv_meas == js["measures"]
    csv_binom = [float(r["value"]) for r in rows if r["name"] == "binomial_loss"]
    assert csv_binom == prof["binomial"]["loss"]
    md = run("evaluate", t, p, "--format", "markdown").stdout
    assert f"| micro_f1 | {js['measures']['micro_f1']:.4g} |" in md


def test_label_files_in_every_layout_give_the_same_result(tmp_path):
    A, labels = binarize(TRUTH)
    B, _ = binarize(PRED, labels)
    ref = evaluate_files(
        str(write_sets(tmp_path / "t.txt", TRUTH, "plain")),
        str(write_sets(tmp_path / "p.txt", PRED, "hivemall")),
    )
    layouts = {
        "csv+header": (
            write_matrix(tmp_path / "t.csv", A, header=labels),
            write_matrix(tmp_path / "p.csv", B, header=labels),
        ),
        "tsv": (
            write_matrix(tmp_path / "t.tsv", A, sep="\t"),
            write_matrix(tmp_path / "p.tsv", B, sep="\t"),
        ),
        "spaces": (
            write_matrix(tmp_path / "t.dat", A, sep=" "),
            write_matrix(tmp_path / "p.dat", B, sep="  "),
        ),
    }
    for name, (t, p) in layouts.items():
        got = evaluate_files(str(t), str(p))
        assert got["measures"] == ref["measures"], name
    # MEKA ARFF: the labels are the first -C attributes
    for f, M in (("t.arff", A), ("p.arff", B)):
        head = ["@relation 'hivemall: -C 3'"] + [
            f"@attribute {x} {{0,1}}" for x in labels
        ]
        head += ["@attribute x numeric", "@data"]
        body = [",".join(map(str, r)) + ",0.5" for r in M.tolist()]
        (tmp_path / f).write_text("\n".join(head + body) + "\n")
    got = evaluate_files(str(tmp_path / "t.arff"), str(tmp_path / "p.arff"))
    assert got["measures"] == ref["measures"] and got["labels"] == labels


def test_plot_is_written(tmp_path):
    t = write_sets(tmp_path / "truth.txt", TRUTH, "plain")
    p = write_sets(tmp_path / "pred.txt", PRED, "plain")
    res = run("evaluate", t, p, "--plot", tmp_path / "profile.png")
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "profile.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ------------------------------------------------------------------ bad input
BAD = {
    # name: (truth text, pred text, extra args, expected message)
    "ragged row": (
        "1,0,1\n0,1\n",
        "1,0,1\n0,1,1\n",
        [],
        "t.csv:2: expected 3 values, found 2",
    ),
    "non-binary": (
        "1,0,1\n0,2,1\n",
        "1,0,1\n0,1,1\n",
        [],
        "t.csv:2: column 2: labels must be 0 or 1",
    ),
    "empty": ("", "1,0\n", [], "t.csv: the file is empty"),
    "header only": (
        "a,b\n",
        "1,0\n",
        ["--input-format", "matrix"],
        "t.csv: the file has a header but no label rows",
    ),
    "mixed header": (
        "a,1\n1,0\n",
        "1,0\n1,0\n",
        [],
        "t.csv:1: the line mixes numbers and names",
    ),
    "duplicate header": (
        "a,a\n1,0\n",
        "1,0\n",
        [],
        "t.csv:1: the header repeats the label 'a'",
    ),
    "rows differ": ("1,0\n0,1\n", "1,0\n", [], "p.csv: 1 rows but t.csv has 2"),
    "widths differ": (
        "1,0\n0,1\n",
        "1,0,0\n0,1,0\n",
        [],
        "t.csv has 2 label columns but p.csv has 3",
    ),
    "bad score": (
        "1,0\n0,1\n",
        "1,0\n0,1\n",
        ["--scores", "s.csv"],
        "s.csv:2: column 1: 'x' is not a number",
    ),
    "nan score": (
        "1,0\n0,1\n",
        "1,0\n0,1\n",
        ["--scores", "n.csv"],
        "n.csv:1: column 2: 'nan' is not finite",
    ),
    "score shape": (
        "1,0\n0,1\n",
        "1,0\n0,1\n",
        ["--scores", "w.csv"],
        "w.csv: 3 score columns for 2 labels",
    ),
    "missing file": (None, "1,0\n", [], "t.csv: no such file"),
    "unbalanced": (
        "[cat, dog\n",
        "cat\n",
        ["--input-format", "labelsets"],
        "t.csv:1: unbalanced brackets",
    ),
    "bad plot name": (
        "1,0\n",
        "1,0\n",
        ["--plot", "out.jpg"],
        "--plot out.jpg: the file name must end in",
    ),
    "bad arff": (
        "@relation x\n@attribute a {0,1}\n@data\n1\n",
        "1\n",
        ["--input-format", "arff"],
        "no usable MEKA '-C n' option",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_malformed_input_exits_2_with_file_and_line(tmp_path, case):
    truth, pred, extra, message = BAD[case]
    if truth is not None:
        (tmp_path / "t.csv").write_text(truth)
    (tmp_path / "p.csv").write_text(pred)
    (tmp_path / "s.csv").write_text("0.1,0.2\nx,0.3\n")
    (tmp_path / "n.csv").write_text("0.1,nan\n0.5,0.3\n")
    (tmp_path / "w.csv").write_text("0.1,0.2,0.3\n0.5,0.3,0.1\n")
    res = run("evaluate", "t.csv", "p.csv", *extra, cwd=tmp_path)
    assert res.returncode == 2, (res.stdout, res.stderr)
    assert message in res.stderr and "Traceback" not in res.stderr
    assert res.stdout == ""


def test_plot_path_checked_before_reading_files(tmp_path):
    (tmp_path / "t.csv").write_text("1,0\n0,2\n")  # malformed, but never read
    res = run("evaluate", "t.csv", "t.csv", "--plot", "nowhere/p.png", cwd=tmp_path)
    assert res.returncode == 2 and "the folder nowhere does not exist" in res.stderr


def test_usage_errors_exit_2(tmp_path):
    for args in (
        [],
        ["evaluate"],
        ["evaluate", "a", "b", "--format", "xml"],
        ["evaluate", "a", "b", "--zero-division", "2"],
        ["datasets", "fetch"],
        ["datasets", "stats", "../x"],
        ["datasets", "stats", "no-such-set"],
    ):
        res = run(*args, cwd=tmp_path)
        assert res.returncode == 2, args
        assert "Traceback" not in res.stderr and res.stderr.strip(), args


# ------------------------------------------------------------------ datasets
def test_datasets_list_fetch_stats(tmp_path):
    if ds.mirror_dir() is None or not (ds.mirror_dir() / "flags.arff").is_file():
        pytest.fail(
            "needs the local dataset mirror (../shared/datasets or MLCBOOK_DATA_MIRROR)"
        )
    env = {"MLCBOOK_DATA": str(tmp_path / "cache"), "MLCBOOK_DATA_DOWNLOAD": "0"}
    listed = json.loads(run("datasets", "list", "--format", "json", env=env).stdout)
    assert [r["name"] for r in listed] == ds.list_datasets()
    fetched = run("datasets", "fetch", "flags", env=env)
    assert fetched.returncode == 0, fetched.stderr
    assert "194 instances, 19 features, 7 labels" in fetched.stdout
    assert (tmp_path / "cache" / "flags.arff").is_file()
    stats = json.loads(
        run("datasets", "stats", "flags", "--format", "json", env=env).stdout
    )
    _, Y, _ = ds.load_dataset("flags", download=False, cache=False)
    assert stats[0]["instances"] == str(Y.shape[0])
    assert float(stats[0]["cardinality"]) == Y.sum() / Y.shape[0]
    # registered but unavailable: not an input error, status 1
    res = run("datasets", "fetch", "corel5k", env=env)
    assert res.returncode == 1 and "unavailable" in res.stderr


# ------------------------------------------------------------------ properties
@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 12), K=st.integers(1, 6), seed=st.integers(0, 2**32 - 1))
def test_matrix_files_read_back_exactly(tmp_path_factory, n, K, seed):
    """Any 0/1 matrix written as CSV is read back and scored like the in-memory one."""
    rng = np.random.default_rng(seed)
    Y = rng.integers(0, 2, (n, K))
    P = rng.integers(0, 2, (n, K))
    d = tmp_path_factory.mktemp("m")
    # a first row 0,1 (K = 2) is also pandas' header of two unnamed columns: the stated
    # rule reads it as the header (with a warning) unless --no-header says it is a row
    ambiguous = K == 2 and ([0, 1] in (Y[0].tolist(), P[0].tolist()))
    got = evaluate_files(
        str(write_matrix(d / "y.csv", Y)),
        str(write_matrix(d / "p.csv", P)),
        header=False if ambiguous else None,
    )
    assert got["n_samples"] == n and got["n_labels"] == K
    assert got["measures"][0] == ("hamming_loss", float(np.mean(Y != P)))
    binom, _ = _closed_form_profiles(Y, P, [K], [])
    # 1e-12: histogram sum vs mean of terms
    assert got["profile"][K - 1][2] == pytest.approx(binom[0], rel=1e-12, abs=1e-15)
