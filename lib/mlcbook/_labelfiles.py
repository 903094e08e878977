"""Reading a user's truth, prediction and score files (for ``mlcbook evaluate``).

Three layouts are read, chosen by ``kind`` (``'auto'`` decides from the file):

``matrix``
    A CSV/TSV (or whitespace-separated) 0/1 matrix, one instance per line, one label per
    column, with or without a header line of label names.  The first line is the
    header when none of its fields is a number, or when it is ``0,1,...,K-1`` (K >= 2:
    the column names ``DataFrame(Y).to_csv()`` writes; where that line could also be a
    row, two labels or a score file, a ``HeaderWarning`` says so); ``header=``
    (``--header``/``--no-header``) decides instead.  ``True``/``False`` and
    ``yes``/``no`` (any case) read as 1/0, so a boolean pandas frame written by
    ``DataFrame.to_csv`` is read as it means (an empty first header field marks pandas'
    index column, which is dropped).  The separator: the suffix's (a tab for ``.tsv``, a
    comma for ``.csv``) if the first line holds it, else a tab, comma or semicolon that
    occurs equally often on every line, else runs of whitespace.  A separator that ends
    every line (an empty last column) is ignored.  A whole file that is one JSON array
    of 0/1 rows (``[[1, 0, 1], [0, 1, 0]]``) is a matrix too.
``labelsets``
    One instance per line, every line in one layout: JSON arrays (``["new york",
    "paris"]``, Hivemall's notation; ``[cat, bird]`` without quotes too), labels
    separated by commas (quotes protect a comma inside a label; the Hivemall guide's
    ``cat, bird``) or labels separated by whitespace.  The layout is found from every
    line (a line with one label fits all three) and a file whose lines are written in
    two layouts is refused at the first line that disagrees; ``kind='json'``,
    ``'comma'`` or ``'space'`` (``--format-in``) gives it.  An empty line or ``[]`` is
    the empty set, anywhere in the file, the last lines included: the instances are the
    lines.  A whole file that is one JSON array of arrays of names is read as label
    sets.  A line that is a JSON object (``{"labels": [...]}``)
    and a bracketed line that is not valid JSON (``["cat", "dog]``) are refused.
``arff``
    A multi-label ARFF file read by :func:`mlcbook.datasets.parse_arff`: the MEKA
    layout (``-C n`` in ``@relation``) or, with ``xml=``, the MULAN layout.

``auto`` reads ``.arff`` as ARFF; a file whose first line is a JSON array as label sets
(or a matrix, if the whole file is one array of 0/1 rows); a text file is a matrix when
most fields after an optional header are numbers (or true/false/yes/no), and a list of
label sets otherwise.  So a single typo does not turn a matrix into label sets: it is
reported at its line.

Every malformed line is reported as ``FILE:LINE: what is wrong`` through
:class:`LabelFileError` (a :class:`ValueError`).

The labels (columns) come, in this order, from the caller (``labels=``, ``mlcbook
evaluate --labels``), a header line of a matrix file, the header of the score file,
or else the label sets themselves: then a label that occurs in neither file is missing,
which :func:`align_label_files` says in a :class:`LabelsInferredWarning`.  Labels keep
the order they are given or first appear in; nothing is sorted (a string sort puts
``L10`` before ``L2``).  A score file's header is checked against the labels
(:func:`align_scores`): other names are refused, the same names in another order pair
each column with its label.

This module imports neither pandas nor scikit-learn (``mlcbook evaluate`` starts fast);
ARFF files are read by :mod:`mlcbook.datasets.arff`, imported when one is met.
"""

from __future__ import annotations

import csv
import importlib
import warnings
from collections.abc import Sequence
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from ._matrixfile import is_matrix_file, read_matrix_file, read_score_file
from ._setfile import SET_FORMATS, read_label_sets
from ._textfiles import (
    HeaderWarning,
    LabelFile,
    LabelFileError,
    LabelsInferredWarning,
    few,
    read_lines,
    strip_quotes,
)
from ._xcfile import is_sparse_score_file, is_xc, read_sparse_scores, read_xc

__all__ = [
    "KINDS",
    "LabelFile",
    "LabelFileError",
    "LabelsInferredWarning",
    "HeaderWarning",
    "SET_FORMATS",
    "is_sparse_score_file",
    "read_sparse_scores",
    "read_label_file",
    "read_score_file",
    "read_label_names",
    "inferred_labels",
    "align_label_files",
    "align_scores",
]


KINDS = ("auto", "matrix", "labelsets", "json", "comma", "space", "xc", "arff")


def read_label_file(
    path: str | PathLike,
    kind: str = "auto",
    *,
    xml: str | PathLike | None = None,
    header: bool | None = None,
) -> LabelFile:
    """Read a truth or prediction file (see the module docstring for the layouts).

    Parameters
    ----------
    path : path-like
    kind : {'auto', 'matrix', 'labelsets', 'json', 'comma', 'space', 'arff'}
        ``'labelsets'`` finds the layout of a label-set file from all its lines;
        ``'json'``, ``'comma'`` and ``'space'`` give it.
    xml : path-like, optional
        MULAN label file for an ARFF without MEKA's ``-C n``.
    header : bool, optional
        Whether the first line of a matrix file names the labels (None: by the rule
        of ``read_matrix``).

    Returns
    -------
    LabelFile

    Raises
    ------
    LabelFileError
        Malformed file (the message names the file and, where there is one, the line).
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    path = Path(path)
    if kind == "arff" or (kind == "auto" and path.suffix.lower() == ".arff"):
        return _read_arff(path, xml)
    lines = read_lines(path)
    if kind == "xc" or (kind in ("auto", "labelsets") and is_xc(lines)):
        return read_xc(path, lines)
    if kind == "auto":
        kind = "matrix" if is_matrix_file(path, lines) else "labelsets"
    if kind == "matrix":
        return read_matrix_file(path, lines, header)
    return LabelFile(str(path), "labelsets", None, read_label_sets(path, lines, kind), None)


def _read_arff(path: Path, xml: str | PathLike | None) -> LabelFile:
    if not path.is_file():
        raise LabelFileError(path, None, "no such file")
    # imported here: the ARFF reader needs pandas and liac-arff, which a CSV or
    # label-set file does not (the command line starts without them)
    arff = importlib.import_module("mlcbook.datasets.arff")
    parse_arff, read_mulan_labels = arff.parse_arff, arff.read_mulan_labels
    DatasetFormatError = arff.DatasetFormatError
    try:
        if xml is not None:
            p = parse_arff(path, label_names=read_mulan_labels(xml))
        else:
            p = parse_arff(path, meka=True)
    except FileNotFoundError as exc:
        raise LabelFileError(exc.filename or xml or path, None, "no such file") from None
    except LabelFileError:
        raise
    except DatasetFormatError as exc:
        hint = (
            "" if xml is not None else " (a MULAN ARFF file needs its label file: --xml FILE.xml)"
        )
        msg = str(exc)
        msg = msg[len(f"{path}: ") :] if msg.startswith(f"{path}: ") else msg
        raise LabelFileError(path, None, f"{msg}{hint}") from None
    return LabelFile(str(path), "arff", p.Y.astype(np.int8), None, list(p.label_names))


def read_label_names(source: str | PathLike) -> list[str]:
    """The labels, in their order, from a file: one label per line, or one line of
    labels separated by commas (a CSV header).  Empty and repeated names are refused.

    ``mlcbook evaluate --labels`` also takes the names themselves, ``--labels
    "cat,dog,bird"``, when no file of that name exists.
    """
    path = Path(source)
    lines = [ln for ln in read_lines(path) if ln.strip()]
    if not lines:
        raise LabelFileError(path, None, "the file is empty: no label names")
    if len(lines) == 1:
        sep = "\t" if "\t" in lines[0] else ","
        names = [strip_quotes(x) for x in next(csv.reader([lines[0]], delimiter=sep))]
        linenos = [1] * len(names)
    else:
        names = [strip_quotes(x) for x in lines]
        linenos = [i for i, ln in enumerate(read_lines(path), 1) if ln.strip()]
    return _check_names(path, names, linenos)


def _check_names(path: str | Path, names: list[str], linenos: list[int] | None = None):
    """``names`` if none is empty or repeated, else the error at the first that is (a
    set of the names seen: 20,000 names take 2 ms, not the seconds of a list search)."""
    seen: set[str] = set()
    for i, name in enumerate(names):
        line = linenos[i] if linenos else None
        if not name:
            raise LabelFileError(path, line, f"label {i + 1} has an empty name")
        if name in seen:
            raise LabelFileError(path, line, f"the label {name!r} is given twice")
        seen.add(name)
    return names


def inferred_labels(files: Sequence[LabelFile]) -> list[str]:
    """The labels seen in the label-set files, in order of first appearance (in the
    order of ``files``), with a :class:`LabelsInferredWarning`: a label that occurs in
    none of them is missing."""
    seen = list(
        dict.fromkeys(
            lab for f in files if f.label_sets is not None for s in f.label_sets for lab in s
        )
    )
    paths = " and ".join(f.path for f in files if f.label_sets is not None)
    if not seen:
        raise ValueError(f"no label occurs in {paths}")
    warnings.warn(
        f"the labels were inferred from the label sets of {paths}: "
        f"{len(seen)} labels seen, in order of first appearance; a label that occurs in "
        "neither file is missing, which changes every average over labels (Hamming "
        "loss, macro measures). Give the labels (--labels FILE, or a header line) to "
        "fix them.",
        LabelsInferredWarning,
        stacklevel=3,
    )
    return seen


def align_label_files(
    truth: LabelFile,
    pred: LabelFile,
    labels: Sequence[str] | None = None,
    *,
    source: str = "the labels given",
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Truth and prediction as two 0/1 matrices over the same label columns.

    The labels are ``labels`` if given, else a header of a matrix file (both files'
    headers must then agree), else those of the label-set files in order of first
    appearance, with a :class:`LabelsInferredWarning` (a label in neither file is
    missing).  Matrices keep their columns: they must have as many as there are labels
    and, with a header, the same names in the same order.  A label-set file needs
    names for the columns: a label-set file paired with a matrix without a header is
    refused unless ``labels`` are given (the matrix's column order).  Nothing is
    sorted.  ``source`` says where ``labels`` come from, for the messages (e.g.
    ``"the header of scores.csv"``).

    Returns
    -------
    Y, P : ndarray of int8 (n_samples, n_labels), or CSR matrices of int8 when label
        sets span more than ``SPARSE_CELLS`` = 2**24 cells (memory: the labels only)
    labels : list of str
    """
    _check_pair(truth, pred)
    names = _column_names(truth, pred, labels, source)
    mats = []
    for f in (truth, pred):
        if f.Y is not None:
            if f.Y.shape[1] != len(names):
                raise ValueError(
                    f"{f.path} has {f.Y.shape[1]} label columns but there are "
                    f"{len(names)} labels: {few(names)}"
                )
            mats.append(f.Y)
            continue
        sets = f.label_sets
        assert sets is not None  # no matrix: a label-set file
        mats.append(_binarise(f.path, sets, names, source if labels is not None else None))
    if any(sp.issparse(m) for m in mats):
        mats = [sp.csr_matrix(m) for m in mats]
    return mats[0], mats[1], names


def _check_pair(truth: LabelFile, pred: LabelFile) -> None:
    """The same rows; matrices' headers and widths equal."""
    if truth.n_samples != pred.n_samples:
        raise ValueError(
            f"{truth.path} has {truth.n_samples} instances but {pred.path} has "
            f"{pred.n_samples}; each line (row) must be the same instance in both files"
        )
    if (
        truth.labels is not None
        and pred.labels is not None
        and list(truth.labels) != list(pred.labels)
    ):
        raise ValueError(
            f"the label names of {truth.path} and {pred.path} differ: "
            f"{truth.labels} vs {pred.labels}"
        )
    if truth.Y is not None and pred.Y is not None and truth.Y.shape[1] != pred.Y.shape[1]:
        raise ValueError(
            f"{truth.path} has {truth.Y.shape[1]} label columns but "
            f"{pred.path} has {pred.Y.shape[1]}"
        )


def _column_names(
    truth: LabelFile, pred: LabelFile, labels: Sequence[str] | None, source: str
) -> list[str]:
    """The labels of the columns: those given, else a header, else positions (two
    matrices) or the label sets' (refused for a header-less matrix beside label sets)."""
    names = list(labels) if labels is not None else None
    if names is not None:
        _check_names("labels", names)
    for f in (truth, pred):
        if f.labels is None:
            continue
        if names is None:
            names = list(f.labels)
        elif list(f.labels) != names:
            raise LabelFileError(
                f.path,
                1,
                f"the header names {few(f.labels)} but {source} are {few(names)}",
            )
    if names is not None:
        return names
    matrices = [f for f in (truth, pred) if f.Y is not None]
    if len(matrices) == 2:
        return [f"label_{j}" for j in range(matrices[0].Y.shape[1])]  # type: ignore[union-attr]
    if matrices:
        m = matrices[0]
        other = pred if m is truth else truth
        raise LabelFileError(
            m.path,
            None,
            f"a 0/1 matrix without a header, while {other.path} holds label names: "
            "give the labels in the matrix's column order (--labels FILE) or a "
            "header line naming its columns",
        )
    return inferred_labels([truth, pred])


def align_scores(
    F: np.ndarray,
    header: Sequence[str] | None,
    labels: Sequence[str],
    path: str | PathLike,
    *,
    named: bool,
    n_samples: int,
) -> np.ndarray:
    """The score matrix with its columns in the order of ``labels``.

    ``header`` (the score file's first line, or None) is checked against ``labels``:
    other names are refused (``FILE:1``); the same names in another order put each
    column under its label.  Without a header the columns are taken in the order of
    ``labels`` if ``named`` is false (the labels are column positions of matrix files)
    or the labels were given in the scores' column order; a header-less score file
    paired with label names that were only inferred from label sets is refused,
    since nothing says which column is which label.

    Parameters
    ----------
    named : bool
        True when ``labels`` are names that the scores must be matched with (from label
        sets, a header or the caller), False when they are positions (``label_j``).
    n_samples : int
        Rows the scores must have.
    """
    if F.shape[0] != n_samples:
        raise LabelFileError(path, None, f"{F.shape[0]} rows of scores for {n_samples} instances")
    if header is None:
        if F.shape[1] != len(labels):
            raise LabelFileError(
                path, None, f"{F.shape[1]} score columns for {len(labels)} labels: {few(labels)}"
            )
        return F
    header = list(header)
    if not named:
        if len(header) != len(labels):
            raise LabelFileError(
                path, 1, f"{len(header)} score columns for {len(labels)} label columns"
            )
        return F
    column = {x: j for j, x in enumerate(header)}  # a header names each label once
    known = set(labels)
    missing = [x for x in labels if x not in column]
    unknown = [x for x in header if x not in known]
    if missing or unknown:
        raise LabelFileError(
            path,
            1,
            "the header does not name the labels: "
            + "; ".join(
                part
                for part in (
                    f"labels without a score column: {few(missing)}" if missing else "",
                    f"columns of no label: {few(unknown)}" if unknown else "",
                )
                if part
            ),
        )
    order = [column[x] for x in labels]
    return F if order == list(range(len(order))) else F[:, order]


#: Above this many cells a label-set file becomes a sparse (CSR) matrix.
SPARSE_CELLS = 1 << 24


def _binarise(path: str, sets: list[list[str]], names: list[str], source: str | None) -> Any:
    """Label sets as a 0/1 matrix over ``names``: dense int8, or CSR when large."""
    index = {lab: j for j, lab in enumerate(names)}
    lengths = np.fromiter((len(s) for s in sets), dtype=np.int64, count=len(sets))
    try:
        cols = np.fromiter(
            (index[lab] for s in sets for lab in s), dtype=np.int64, count=int(lengths.sum())
        )
    except KeyError as exc:
        lab = exc.args[0]
        i = next(i for i, s in enumerate(sets) if lab in s and lab not in index)
        raise LabelFileError(
            path,
            i + 1,
            f"the label {lab!r} is not one of {source or 'the labels'}: {few(names)}",
        ) from None
    n, K = len(sets), len(names)
    rows = np.repeat(np.arange(n), lengths)
    if n * K > SPARSE_CELLS:
        indptr = np.concatenate([[0], np.cumsum(lengths)])
        return sp.csr_matrix((np.ones(cols.size, dtype=np.int8), cols, indptr), shape=(n, K))
    Y = np.zeros((n, K), dtype=np.int8)
    Y[rows, cols] = 1
    return Y
