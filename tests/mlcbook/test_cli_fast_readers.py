"""The one-pass readers of big files give what the field-by-field readers give, and a bad
field is still reported at its file and line after the fast reader refuses it.

A matrix or dense score file of numbers is read by NumPy's C parser; a label:score file
by whole-chunk splits (16,384 lines a chunk).  Each case is compared with the reader
that goes field by field (the slow path, called directly), or with the numbers that were
written.
"""

from __future__ import annotations

import numpy as np
import pytest

from mlcbook._labelfiles import (
    LabelFileError,
    align_label_files,
    align_scores,
    read_label_file,
    read_score_file,
    read_sparse_scores,
)
from mlcbook._matrixfile import _values
from mlcbook._textfiles import LabelFile
from mlcbook._xcfile import _CHUNK


def _matrix(rng, n=40, K=7):
    return np.round(rng.random((n, K)), 6)


@pytest.mark.parametrize(
    "sep, suffix, index, trailing",
    [(",", ".csv", False, False), ("\t", ".tsv", False, False), (";", ".csv", False, False),
     (" ", ".txt", False, False), (",", ".csv", True, False), (",", ".csv", False, True)],
)
def test_a_score_matrix_read_in_one_pass_equals_the_numbers_written(tmp_path, sep, suffix,
                                                                     index, trailing):
    rng = np.random.default_rng(1)
    S = _matrix(rng)
    names = [f"L{j}" for j in range(S.shape[1])]
    lines = [sep.join(([""] if index else []) + names) + (sep if trailing else "")]
    lines += [sep.join(([str(i)] if index else []) + [f"{v:.6f}" for v in row])
              + (sep if trailing else "") for i, row in enumerate(S)]
    path = tmp_path / f"s{suffix}"
    path.write_text("\n".join(lines) + "\n")
    F, header = read_score_file(path)
    assert header == names
    # the file holds S to 6 decimals, written and read back exactly: equality
    np.testing.assert_array_equal(F, S)


def test_the_fast_and_the_field_by_field_readers_agree(tmp_path):
    rng = np.random.default_rng(2)
    S = rng.normal(size=(30, 11)) * 10.0 ** rng.integers(-8, 8, size=(30, 11))
    rows = [(i + 2, ",".join(repr(float(v)) for v in row)) for i, row in enumerate(S)]
    path = tmp_path / "s.csv"
    path.write_text("\n".join(["a,b,c,d,e,f,g,h,i,j,k"] + [r for _, r in rows]) + "\n")
    F, _ = read_score_file(path)
    slow = _values(path, rows, ",", False, 11, 0, False)
    np.testing.assert_array_equal(F, slow)  # both are the shortest-repr floats read back
    np.testing.assert_array_equal(F, S)


@pytest.mark.parametrize(
    "cell, message",
    [("x", "column 13: 'x' is not a number"), ("", "column 13: an empty field"),
     ("nan", "column 13: 'nan' is not finite"), ("1e999", "column 13: '1e999' is not finite")],
)
def test_a_bad_cell_deep_in_a_big_file_is_named_by_line_and_column(tmp_path, cell, message):
    rng = np.random.default_rng(3)
    S = _matrix(rng, n=300, K=50)
    lines = [",".join(f"L{j}" for j in range(50))]
    lines += [",".join(f"{v:.6f}" for v in row) for row in S]
    fields = lines[257].split(",")
    fields[12] = cell  # line 258 of the file (the header is line 1), column 13
    lines[257] = ",".join(fields)
    path = tmp_path / "s.csv"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LabelFileError, match=rf"s\.csv:258: {message}"):
        read_score_file(path)


def test_a_short_row_and_booleans_and_quotes(tmp_path):
    path = tmp_path / "y.csv"
    path.write_text("a,b,c\n1,0,1\n0,1\n")
    with pytest.raises(LabelFileError, match=r"y\.csv:3: expected 3 values, found 2"):
        read_label_file(path)
    # what the C parser refuses but the rules read: true/false and quoted numbers
    path.write_text('a,b,c\nTrue,False,true\n"0","1","0"\n')
    np.testing.assert_array_equal(read_label_file(path).Y, [[1, 0, 1], [0, 1, 0]])


def test_a_big_0_1_matrix_is_found_to_be_a_matrix_and_read(tmp_path):
    rng = np.random.default_rng(4)
    Y = (rng.random((2500, 30)) < 0.2).astype(np.int8)  # more rows than the 2,000 sampled
    path = tmp_path / "y.csv"
    np.savetxt(path, Y, fmt="%d", delimiter=",", header=",".join(f"c{j}" for j in range(30)),
               comments="")
    f = read_label_file(path)
    assert f.kind == "matrix" and f.labels == [f"c{j}" for j in range(30)]
    np.testing.assert_array_equal(f.Y, Y)


def _score_lines(rng, n, labels, top=5):
    out, want = [], np.zeros((n, len(labels)))
    for i in range(n):
        js = rng.choice(len(labels), size=rng.integers(0, top + 1), replace=False)
        vals = [f"{v:.4f}" for v in rng.random(js.size) + 0.5]
        want[i, js] = [float(v) for v in vals]
        sep = "," if i % 3 == 0 else " "
        out.append(sep.join(f"{labels[j]}:{v}" for j, v in zip(js, vals)))
    return out, want


def test_label_score_lines_over_several_chunks_equal_the_scores_written(tmp_path):
    rng = np.random.default_rng(5)
    labels = [str(j) for j in range(300)]
    n = _CHUNK + 1500  # two chunks
    lines, want = _score_lines(rng, n, labels)
    path = tmp_path / "s.txt"
    path.write_text("\n".join(lines) + "\n")
    F = read_sparse_scores(path, labels)
    assert F.shape == (n, 300)
    np.testing.assert_array_equal(F.toarray(), want)  # float() of the text written
    assert F.nnz == int((want != 0).sum())


@pytest.mark.parametrize(
    "token, message",
    [("7", r"'7': not label:score"), ("999:0.5", r"'999' is not one of the labels"),
     ("3:x", r"'3:x': the score is not a number"), ("3:inf", r"the score is not finite"),
     ("3:0.5 3:0.2", r"the label '3' is scored twice")],
)
def test_a_bad_token_in_a_later_chunk_is_named_by_its_line(tmp_path, token, message):
    rng = np.random.default_rng(6)
    labels = [str(j) for j in range(300)]
    lines, _ = _score_lines(rng, _CHUNK + 900, labels)
    bad = _CHUNK + 400  # 0-based: line bad + 1 of the file
    lines[bad] = "1:0.9 " + token
    path = tmp_path / "s.txt"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LabelFileError, match=rf"s\.txt:{bad + 1}: .*{message}"):
        read_sparse_scores(path, labels)


def test_a_label_with_a_colon_and_an_empty_last_line(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text("a:b:0.5 c:0.25\n\nc:1\n")  # the label 'a:b'; line 2 scores nothing
    F = read_sparse_scores(path, ["a:b", "c"])
    np.testing.assert_array_equal(F.toarray(), [[0.5, 0.25], [0, 0], [0, 1.0]])
    path.write_text("")
    assert read_sparse_scores(path, ["a:b", "c"]).shape == (0, 2)


def test_many_labels_repeated_name_and_reordered_score_header():
    K = 20_000
    names = [f"L{j}" for j in range(K)]
    sets = [[names[3], names[K - 1]], [names[17]]]
    t = LabelFile("t", "labelsets", None, sets, None)
    with pytest.raises(LabelFileError, match=r"the label 'L5' is given twice"):
        align_label_files(t, t, names + ["L5"])
    Y, _, got = align_label_files(t, t, names)
    assert got == names and Y.sum() == 3 and Y[0, K - 1] == 1
    F = np.arange(2 * K, dtype=float).reshape(2, K)
    order = np.random.default_rng(7).permutation(K)
    G = align_scores(F[:, order], [names[j] for j in order], names, "s.csv", named=True,
                     n_samples=2)
    np.testing.assert_array_equal(G, F)  # each column back under its label
    with pytest.raises(LabelFileError, match=r"labels without a score column: L0"):
        align_scores(F[:, 1:], names[1:], names, "s.csv", named=True, n_samples=2)
