"""Reading a user's truth, prediction and score files (for ``mlcbook evaluate``).

Three layouts are read, chosen by ``kind`` (``'auto'`` decides from the file):

``matrix``
    A CSV/TSV (or whitespace-separated) 0/1 matrix, one instance per line, one label per
    column, with or without a header line of label names.  The separator is a tab for
    ``.tsv``, a comma for ``.csv``; otherwise a tab, comma or semicolon if the first
    line holds one, else runs of whitespace.
``labelsets``
    One instance per line, its labels separated by commas and/or spaces, as in the
    Hivemall guide's example (``cat, bird``); the Hivemall/JSON array notation
    ``["cat", "bird"]`` is read too.  An empty line or ``[]`` is the empty set; empty
    lines at the very end of the file are ignored (write ``[]`` for a final empty set).
``arff``
    A multi-label ARFF file read by :func:`mlcbook.datasets.parse_arff`: the MEKA
    layout (``-C n`` in ``@relation``) or, with ``xml=``, the MULAN layout.

``auto`` reads ``.arff`` as ARFF; a text file is a matrix when every field of every line
after an optional header is a number, and a list of label sets otherwise.

Every malformed line is reported as ``FILE:LINE: what is wrong`` through
:class:`LabelFileError` (a :class:`ValueError`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path

import numpy as np

from .arff import DatasetFormatError, parse_arff, read_mulan_labels

__all__ = [
    "KINDS",
    "LabelFile",
    "LabelFileError",
    "read_label_file",
    "read_score_file",
    "align_label_files",
]

KINDS = ("auto", "matrix", "labelsets", "arff")


class LabelFileError(DatasetFormatError):
    """A truth, prediction or score file is malformed (message: file and line)."""

    def __init__(self, path: str | PathLike, line: int | None, message: str) -> None:
        where = f"{path}:{line}" if line is not None else f"{path}"
        super().__init__(f"{where}: {message}")
        self.path = str(path)
        self.line = line


@dataclass
class LabelFile:
    """What :func:`read_label_file` found.

    ``kind`` is ``'matrix'``, ``'labelsets'`` or ``'arff'``; ``Y`` the 0/1 matrix
    (``None`` for label sets, whose columns are known only once truth and prediction are
    put together by :func:`align_label_files`); ``label_sets`` the sets (label-set
    files only); ``labels`` the column names (header, ARFF names) or ``None``.
    """

    path: str
    kind: str
    Y: np.ndarray | None
    label_sets: list[list[str]] | None
    labels: list[str] | None

    @property
    def n_samples(self) -> int:
        if self.Y is not None:
            return int(self.Y.shape[0])
        assert self.label_sets is not None  # a file holds a matrix or label sets
        return len(self.label_sets)


def _read_lines(path: Path) -> list[str]:
    if not path.exists():
        raise LabelFileError(path, None, "no such file")
    if not path.is_file():
        raise LabelFileError(path, None, "not a file")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LabelFileError(
            path, None, f"not a UTF-8 text file ({exc.reason} at byte {exc.start})"
        ) from None
    except OSError as exc:
        raise LabelFileError(path, None, f"cannot be read: {exc.strerror}") from None
    return text.splitlines()


def _separator(path: Path, lines: list[str]) -> str | None:
    """The field separator (None: runs of whitespace)."""
    suffix = path.suffix.lower()
    if suffix == ".tsv":
        return "\t"
    if suffix == ".csv":
        return ","
    first = next((ln for ln in lines if ln.strip()), "")
    for sep in ("\t", ",", ";"):
        if sep in first:
            return sep
    return None


def _fields(line: str, sep: str | None) -> list[str]:
    parts = line.split(sep) if sep is not None else line.split()
    return [p.strip().strip('"').strip("'").strip() for p in parts]


def _is_number(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True


def _data_lines(lines: list[str]) -> list[tuple[int, str]]:
    """Non-blank lines with their 1-based line numbers."""
    return [(i, ln) for i, ln in enumerate(lines, 1) if ln.strip()]


def _looks_like_matrix(rows: list[tuple[int, str]], sep: str | None) -> bool:
    body = rows[1:] if rows and not all(_is_number(t) for t in _fields(rows[0][1], sep)) else rows
    return bool(body) and all(all(_is_number(t) for t in _fields(ln, sep)) for _, ln in body)


def _read_matrix(
    path: Path, lines: list[str], what: str
) -> tuple[np.ndarray, list[str] | None, list[int]]:
    """A real-valued matrix with an optional header (every field of line 1 non-numeric).

    Returns the matrix, the header (or None) and the line number of each row.
    """
    sep = _separator(path, lines)
    rows = _data_lines(lines)
    if not rows:
        raise LabelFileError(path, None, f"the file is empty: no {what} rows")
    header = None
    first = _fields(rows[0][1], sep)
    if not all(_is_number(t) for t in first):
        if any(_is_number(t) for t in first) or any(t == "" for t in first):
            bad = next(t for t in first if _is_number(t) or t == "")
            raise LabelFileError(
                path,
                rows[0][0],
                f"the line mixes numbers and names (found {bad!r}): a header holds "
                "only "
                "label names, a data row only numbers",
            )
        if len(set(first)) != len(first):
            dup = next(t for t in first if first.count(t) > 1)
            raise LabelFileError(path, rows[0][0], f"the header repeats the label {dup!r}")
        header = first
        rows = rows[1:]
        if not rows:
            raise LabelFileError(path, None, f"the file has a header but no {what} rows")
    width = len(header) if header is not None else len(_fields(rows[0][1], sep))
    out = np.empty((len(rows), width))
    for r, (lineno, line) in enumerate(rows):
        toks = _fields(line, sep)
        if len(toks) != width:
            raise LabelFileError(path, lineno, f"expected {width} values, found {len(toks)}")
        for c, tok in enumerate(toks):
            try:
                v = float(tok)
            except ValueError:
                raise LabelFileError(
                    path, lineno, f"column {c + 1}: {tok!r} is not a number"
                ) from None
            if not math.isfinite(v):
                raise LabelFileError(path, lineno, f"column {c + 1}: {tok!r} is not finite")
            out[r, c] = v
    return out, header, [lineno for lineno, _ in rows]


_BRACKETS = re.compile(r"^\[(.*)\]$")
_LABEL_SPLIT = re.compile(r"[,\s]+")


def _read_label_sets(path: Path, lines: list[str]) -> list[list[str]]:
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    if not lines:
        raise LabelFileError(path, None, "the file is empty: no label sets")
    sets = []
    for lineno, line in enumerate(lines, 1):
        s = line.strip()
        m = _BRACKETS.match(s)
        if m:
            s = m.group(1)
        elif "[" in s or "]" in s:
            raise LabelFileError(path, lineno, f"unbalanced brackets in {line.strip()!r}")
        labels = []
        for tok in _LABEL_SPLIT.split(s.strip()):
            tok = tok.strip().strip('"').strip("'")
            if tok:
                labels.append(tok)
        sets.append(list(dict.fromkeys(labels)))
    return sets


def _binary(path: Path, A: np.ndarray, linenos: list[int]) -> np.ndarray:
    ok = (A == 0) | (A == 1)
    if not ok.all():
        r, c = map(int, np.argwhere(~ok)[0])
        raise LabelFileError(
            path,
            linenos[r],
            f"column {c + 1}: labels must be 0 or 1, found {A[r, c]:g} (a file of "
            "label "
            "names that are numbers is read as a matrix: use --input-format labelsets)",
        )
    return A.astype(np.int8)


def read_label_file(
    path: str | PathLike, kind: str = "auto", *, xml: str | PathLike | None = None
) -> LabelFile:
    """Read a truth or prediction file (see the module docstring for the layouts).

    Parameters
    ----------
    path : path-like
    kind : {'auto', 'matrix', 'labelsets', 'arff'}
    xml : path-like, optional
        MULAN label file for an ARFF without MEKA's ``-C n``.

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
    lines = _read_lines(path)
    if kind == "auto":
        rows = _data_lines(lines)
        if not rows:
            raise LabelFileError(path, None, "the file is empty")
        kind = "matrix" if _looks_like_matrix(rows, _separator(path, lines)) else "labelsets"
    if kind == "matrix":
        A, header, linenos = _read_matrix(path, lines, "label")
        return LabelFile(str(path), "matrix", _binary(path, A, linenos), None, header)
    return LabelFile(str(path), "labelsets", None, _read_label_sets(path, lines), None)


def _read_arff(path: Path, xml: str | PathLike | None) -> LabelFile:
    if not path.is_file():
        raise LabelFileError(path, None, "no such file")
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


def read_score_file(path: str | PathLike) -> tuple[np.ndarray, list[str] | None]:
    """A real-valued score matrix (CSV/TSV, optional header): ``(F, header)``."""
    path = Path(path)
    F, header, _ = _read_matrix(path, _read_lines(path), "score")
    return F, header


def align_label_files(
    truth: LabelFile, pred: LabelFile, labels: Sequence[str] | None = None
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Truth and prediction as two 0/1 matrices over the same label columns.

    Label sets are binarised over the sorted union of the labels of both files (or
    ``labels``); matrices must have the same width and, if both have headers, the same
    label names in the same order.  A label-set file paired with a matrix is put on the
    matrix's columns: the header's names, or without a header the sorted label names.

    Returns
    -------
    Y, P : ndarray of int8 (n_samples, n_labels)
    labels : list of str
    """
    if truth.n_samples != pred.n_samples:
        raise ValueError(
            f"{truth.path} has {truth.n_samples} instances but {pred.path} has "
            f"{pred.n_samples}; each line (row) must be the same instance in both files"
        )
    names = list(labels) if labels is not None else None
    for f in (truth, pred):
        if names is None and f.labels is not None:
            names = list(f.labels)
    if truth.Y is not None and pred.Y is not None:
        if truth.Y.shape[1] != pred.Y.shape[1]:
            raise ValueError(
                f"{truth.path} has {truth.Y.shape[1]} label columns but "
                f"{pred.path} has "
                f"{pred.Y.shape[1]}"
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
        K = truth.Y.shape[1]
        if names is None:
            names = [f"label_{j}" for j in range(K)]
        elif len(names) != K:
            raise ValueError(f"{len(names)} label names given for {K} label columns")
        return truth.Y, pred.Y, names
    if names is None:
        union = {
            lab
            for f in (truth, pred)
            if f.label_sets is not None
            for s in f.label_sets
            for lab in s
        }
        if not union:
            raise ValueError(f"no label occurs in {truth.path} or {pred.path}")
        names = sorted(union)
    mats = []
    for f in (truth, pred):
        if f.Y is not None:
            if f.Y.shape[1] != len(names):
                raise ValueError(
                    f"{f.path} has {f.Y.shape[1]} label columns but there are "
                    f"{len(names)} labels: {names}"
                )
            mats.append(f.Y)
            continue
        index = {lab: j for j, lab in enumerate(names)}
        sets = f.label_sets
        assert sets is not None  # no matrix: a label-set file
        Y = np.zeros((len(sets), len(names)), dtype=np.int8)
        for i, s in enumerate(sets):
            for lab in s:
                if lab not in index:
                    raise LabelFileError(
                        f.path,
                        i + 1,
                        f"unknown label {lab!r}; the labels are {names}",
                    )
                Y[i, index[lab]] = 1
        mats.append(Y)
    return mats[0], mats[1], names
