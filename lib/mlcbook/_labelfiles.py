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
import json
import math
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

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


class LabelFileError(ValueError):
    """A truth, prediction, score or label file is malformed or does not fit the others
    (message: file and line)."""

    def __init__(self, path: str | PathLike, line: int | None, message: str) -> None:
        where = f"{path}:{line}" if line is not None else f"{path}"
        super().__init__(f"{where}: {message}")
        self.path = str(path)
        self.line = line


class HeaderWarning(UserWarning):
    """A first line of integers ``0, 1, ..., K-1`` was read as pandas' column names
    where it could also be a row of values (``--header``/``--no-header`` decide)."""


class LabelsInferredWarning(UserWarning):
    """The labels were taken from the label sets seen in the files: a label that occurs
    in none of them is missing (give the labels to count it)."""


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


_SEPARATORS = ("\t", ",", ";")
#: Words read as a label's value in a 0/1 matrix (what pandas writes for booleans).
_BOOL_WORDS = {"true": 1.0, "false": 0.0, "yes": 1.0, "no": 0.0}


def _separator(path: Path, lines: list[str]) -> str | None:
    """The field separator (None: runs of whitespace).

    The suffix proposes one (a tab for ``.tsv``, a comma for ``.csv``); it is used if the
    first non-blank line holds it.  Otherwise a tab, comma or semicolon that occurs the
    same number of times on every non-blank line is the separator (a semicolon- or
    tab-separated ``.csv``), else the first of them found on the first line, else runs
    of whitespace.
    """
    rows = [ln for ln in lines if ln.strip()]
    first = rows[0] if rows else ""
    preferred = {".tsv": "\t", ".csv": ","}.get(path.suffix.lower())
    if preferred is not None and preferred in first:
        return preferred
    for sep in _SEPARATORS:
        counts = {ln.count(sep) for ln in rows[:1000]}
        if len(counts) == 1 and counts != {0}:
            return sep
    for sep in _SEPARATORS:
        if sep in first:
            return sep
    return preferred


def _strip_quotes(p: str) -> str:
    return p.strip().strip('"').strip("'").strip()


def _fields(line: str, sep: str | None) -> list[str]:
    parts = line.split(sep) if sep is not None else line.split()
    return [_strip_quotes(p) for p in parts]


def _is_number(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True


def _value(token: str, booleans: bool) -> float | None:
    """A field's number (``True``/``False``/``yes``/``no`` as 1/0 if ``booleans``)."""
    if booleans:
        v = _BOOL_WORDS.get(token.lower())
        if v is not None:
            return v
    try:
        return float(token)
    except ValueError:
        return None


def _data_lines(lines: list[str]) -> list[tuple[int, str]]:
    """Non-blank lines with their 1-based line numbers."""
    return [(i, ln) for i, ln in enumerate(lines, 1) if ln.strip()]


def _trailing_separator(rows: list[tuple[int, str]], sep: str | None) -> bool:
    """Every line ends with the separator (a spreadsheet's empty last column)."""
    return sep is not None and bool(rows) and all(ln.rstrip().endswith(sep) for _, ln in rows)


def _row_fields(line: str, sep: str | None, trailing: bool) -> list[str]:
    toks = _fields(line, sep)
    return toks[:-1] if trailing and toks and toks[-1] == "" else toks


def _looks_like_matrix(rows: list[tuple[int, str]], sep: str | None) -> bool:
    """Most fields after an optional header line are numbers (or true/false/yes/no).

    A majority, not all: one typo (``1,1,x``) must not turn a 0/1 matrix into label
    sets; it is reported at its line when the matrix is read.
    """
    trailing = _trailing_separator(rows, sep)
    toks = [_row_fields(ln, sep, trailing) for _, ln in rows[:2000]]
    if toks and not any(_value(t, True) is not None for t in toks[0]):
        toks = toks[1:]  # a header (label names; pandas leaves the index's name empty)
    values = sum(_value(t, True) is not None for row in toks for t in row)
    total = sum(len(row) for row in toks)
    return total > 0 and 2 * values > total


def _integer_header(fields: list[str]) -> bool:
    """The fields are ``0, 1, ..., K-1`` (K >= 2), maybe after an empty index name: the
    column names pandas writes for a frame without names (``DataFrame(Y).to_csv()``)."""
    names = fields[1:] if fields and fields[0] == "" else fields
    return len(names) >= 2 and names == [str(j) for j in range(len(names))]


def _read_matrix(
    path: Path,
    lines: list[str],
    what: str,
    *,
    booleans: bool = False,
    header: bool | None = None,
) -> tuple[np.ndarray, list[str] | None, list[int]]:
    """A real-valued matrix with an optional header (every field of line 1 non-numeric).

    A header whose first field is empty (what pandas writes for a frame with its index)
    marks the first column as a row index, which is dropped.  A separator ending every
    line (an empty last column) is dropped too.  With ``booleans``, ``True``/``False``
    and ``yes``/``no`` (any case) read as 1/0.

    Returns the matrix, the header (or None) and the line number of each row.
    """
    sep = _separator(path, lines)
    rows = _data_lines(lines)
    if not rows:
        raise LabelFileError(path, None, f"the file is empty: no {what} rows")
    trailing = _trailing_separator(rows, sep)
    given = header
    names: list[str] | None = None
    index_column = False
    first = _row_fields(rows[0][1], sep, trailing)
    names_line = not any(_value(t, booleans) is not None for t in first)
    if given is None and not names_line and _integer_header(first):
        names_line = True
        width = len(first) - (first[0] == "")
        if what == "score" or width == 2:  # the same line could be a row of values
            warnings.warn(
                f"{path}:{rows[0][0]}: the first line {rows[0][1].strip()!r} is read as "
                "the column names pandas writes (0, 1, ..., K-1), not as a row; give "
                "--no-header if it is a row",
                HeaderWarning,
                stacklevel=4,
            )
    if given is not None:
        names_line = given
    if names_line:
        if first[0] == "" and len(first) > 1:
            index_column = True  # pandas: DataFrame.to_csv() with the index
            first = first[1:]
        if any(t == "" for t in first):
            raise LabelFileError(
                path,
                rows[0][0],
                "the header has an empty label name "
                f"(column {first.index('') + 1 + index_column})",
            )
        if len(set(first)) != len(first):
            dup = next(t for t in first if first.count(t) > 1)
            raise LabelFileError(path, rows[0][0], f"the header repeats the label {dup!r}")
        names = first
        rows = rows[1:]
        if not rows:
            raise LabelFileError(path, None, f"the file has a header but no {what} rows")
    elif (
        given is None
        and len(rows) > 1
        and 2 * sum(t != "" and _value(t, booleans) is None for t in first) >= len(first)
    ):  # as many names as numbers: a broken header (fewer: a data row with a typo)
        bad = next(t for t in first if t != "" and _value(t, booleans) is None)
        raise LabelFileError(
            path,
            rows[0][0],
            f"the line mixes numbers and names (found {bad!r}): a header holds only "
            "label names, a data row only numbers",
        )
    width = len(names) if names is not None else len(_row_fields(rows[0][1], sep, trailing))
    skip = 1 if index_column else 0
    out = np.empty((len(rows), width))
    for r, (lineno, line) in enumerate(rows):
        toks = _row_fields(line, sep, trailing)[skip:]
        if len(toks) != width:
            raise LabelFileError(path, lineno, f"expected {width} values, found {len(toks)}")
        for c, tok in enumerate(toks):
            v = _value(tok, booleans)
            if v is None:
                shown = "an empty field" if tok == "" else f"{tok!r} is not a number"
                raise LabelFileError(path, lineno, f"column {c + 1 + skip}: {shown}")
            if not math.isfinite(v):
                raise LabelFileError(path, lineno, f"column {c + 1 + skip}: {tok!r} is not finite")
            out[r, c] = v
    return out, names, [lineno for lineno, _ in rows]


def _json_label(path: Path, lineno: int, x: object) -> str:
    if isinstance(x, bool) or not isinstance(x, (str, int, float)):
        raise LabelFileError(
            path, lineno, f"a label must be a string or a number, found {json.dumps(x)}"
        )
    return x if isinstance(x, str) else json.dumps(x)


def _json_document(path: Path, lines: list[str]) -> list | None:
    """The whole file as one JSON array of arrays (``[[1, 0], [0, 1]]``), else None."""
    text = "\n".join(lines).strip()
    if not text.startswith("[["):
        return None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        if text.count("\n") == 0 or exc.pos > len(lines[0]):
            raise LabelFileError(path, exc.lineno, f"not valid JSON: {exc.msg}") from None
        return None
    if not isinstance(doc, list) or not all(isinstance(r, list) for r in doc):
        raise LabelFileError(path, 1, "a JSON file must be an array of arrays (one per instance)")
    if not doc:
        raise LabelFileError(path, 1, "the JSON array holds no instance")
    return doc


def _json_is_matrix(doc: list) -> bool:
    """Every row the same length and every entry 0/1 (or true/false): a 0/1 matrix."""
    return len({len(r) for r in doc}) == 1 and all(
        (isinstance(v, bool) or (isinstance(v, (int, float)) and v in (0, 1)))
        for r in doc
        for v in r
    )


def _line_labels(path: Path, lineno: int, line: str, sep: str | None) -> list[str]:
    """The labels of one line of a label-set file."""
    s = line.strip()
    if s.startswith("{"):
        raise LabelFileError(
            path,
            lineno,
            f"a JSON object ({_shown(s)}): a label set is a JSON array "
            '(["cat", "dog"]) or labels separated by commas, one instance per line',
        )
    if s.startswith("[") or s.endswith("]"):
        if not (s.startswith("[") and s.endswith("]")) or s.count("[") != s.count("]"):
            raise LabelFileError(path, lineno, f"unbalanced brackets in {s!r}")
        try:
            items = json.loads(s)
        except json.JSONDecodeError as exc:
            inner = s[1:-1]
            if '"' in inner or "'" in inner:  # meant as JSON: its error, not a guess
                raise LabelFileError(
                    path, lineno, f"not valid JSON ({exc.msg}, column {exc.colno}): {s}"
                ) from None
            if "[" in inner or "]" in inner:
                raise LabelFileError(
                    path, lineno, f"nested brackets in {s!r}: one label set per line"
                ) from None
            items = [t for t in (_strip_quotes(x) for x in _split_plain(inner, ",")) if t]
        if not isinstance(items, list):  # pragma: no cover - '[...]' parses to a list
            raise LabelFileError(path, lineno, "expected a JSON array of labels")
        if any(isinstance(x, list) for x in items):
            raise LabelFileError(
                path,
                lineno,
                "a nested array: a JSON matrix must be the whole file ([[1, 0], [0, 1]])",
            )
        labels = [_json_label(path, lineno, x) if not isinstance(x, str) else x for x in items]
        if len(set(labels)) != len(labels) and set(labels) <= {"0", "1"}:
            raise LabelFileError(
                path,
                lineno,
                f"{s} repeats the labels 0/1: a row of a 0/1 matrix? Write the matrix "
                "as CSV or as one JSON array of rows",
            )
        return labels
    return [t for t in (_strip_quotes(x) for x in _split_plain(s, sep)) if t]


def _shown(s: str, width: int = 40) -> str:
    return s if len(s) <= width else s[: width - 3] + "..."


def _split_plain(s: str, sep: str | None) -> list[str]:
    if sep == ",":
        return next(csv.reader([s], skipinitialspace=True), [])
    return s.split()


#: The layouts of a label-set file: one per file (``labelsets``: found from the file).
SET_FORMATS = ("json", "comma", "space")


_QUOTED = re.compile(r'"[^"]*"|\'[^\']*\'')


def _line_format(line: str) -> str | None:
    """The layout one line of a label-set file is written in: ``'json'`` (bracketed),
    ``'comma'`` (a comma), ``'space'`` (two or more words without a comma), or None for
    a line that fits every layout (empty, ``[]`` or a single label)."""
    s = line.strip()
    if not s or s == "[]":
        return None
    if s.startswith(("[", "{")) or s.endswith("]"):
        return "json"
    s = _QUOTED.sub("x", s)  # a quoted label is one word: '"new york"' is one label
    if "," in s:
        return "comma"
    if len(s.split()) > 1:
        return "space"
    return None


_FORMAT_WORDS = {
    "json": "a JSON array",
    "comma": "labels separated by commas",
    "space": "labels separated by spaces",
}


def _set_format(path: Path, lines: list[str]) -> str:
    """The one layout of a label-set file, found from every line; lines written in two
    layouts are refused at the first line that disagrees with the first."""
    first: tuple[int, str] | None = None
    for lineno, line in enumerate(lines, 1):
        fmt = _line_format(line)
        if fmt is None:
            continue
        if first is None:
            first = (lineno, fmt)
        elif fmt != first[1]:
            raise LabelFileError(
                path,
                lineno,
                f"{_shown(line.strip())!r} is {_FORMAT_WORDS[fmt]} but line {first[0]} is "
                f"{_FORMAT_WORDS[first[1]]}: a label-set file is written in one layout. "
                "Give it with --format-in json|comma|space (comma: a label may hold a "
                "space; space: a label may hold a comma)",
            )
    return first[1] if first is not None else "space"


def _read_label_sets(path: Path, lines: list[str], fmt: str = "labelsets") -> list[list[str]]:
    """One label set per line, every line in one layout (``fmt``: ``'json'``,
    ``'comma'``, ``'space'``, or ``'labelsets'`` to find it from the whole file).  An
    empty line or ``[]`` is the empty set, at the end of the file too: the instances
    are the lines."""
    if not any(ln.strip() for ln in lines):
        raise LabelFileError(path, None, "the file is empty: no label sets")
    doc = _json_document(path, lines) if fmt in ("labelsets", "json") else None
    if doc is not None:
        return [list(dict.fromkeys(_json_label(path, 1, x) for x in row)) for row in doc]
    if fmt == "labelsets":
        fmt = _set_format(path, lines)
    if fmt == "json":
        for lineno, line in enumerate(lines, 1):
            s = line.strip()
            if s and not (s.startswith("[") or s.startswith("{")):
                raise LabelFileError(
                    path, lineno, f"{_shown(s)!r} is not a JSON array (--format-in json)"
                )
        return [
            list(dict.fromkeys(_line_labels(path, lineno, line, ","))) if line.strip() else []
            for lineno, line in enumerate(lines, 1)
        ]
    sep = "," if fmt == "comma" else None
    simple = all('"' not in ln and "'" not in ln for ln in lines)
    out: list[list[str]] = []
    for ln in lines:
        s = ln.strip()
        if not s or s == "[]":
            out.append([])
        elif simple or sep is None:
            out.append(list(dict.fromkeys(t for t in (x.strip() for x in s.split(sep)) if t)))
        else:
            out.append(
                list(
                    dict.fromkeys(t for t in (_strip_quotes(x) for x in _split_plain(s, sep)) if t)
                )
            )
    return out


def _binary(path: Path, A: np.ndarray, linenos: list[int]) -> np.ndarray:
    ok = (A == 0) | (A == 1)
    if not ok.all():
        r, c = map(int, np.argwhere(~ok)[0])
        raise LabelFileError(
            path,
            linenos[r],
            f"column {c + 1}: labels must be 0 or 1, found {A[r, c]:g} (a file of "
            "label "
            "names that are numbers is read as a matrix: use --format-in labelsets)",
        )
    return A.astype(np.int8)


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
        of ``_read_matrix``).

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
    if kind == "xc" or (kind in ("auto", "labelsets") and _is_xc(lines)):
        return _read_xc(path, lines)
    if kind == "auto":
        rows = _data_lines(lines)
        if not rows:
            raise LabelFileError(path, None, "the file is empty")
        doc = _json_document(path, lines)
        if doc is not None:
            kind = "matrix" if _json_is_matrix(doc) else "labelsets"
        elif rows[0][1].lstrip().startswith(("[", "{")):
            kind = "labelsets"  # a JSON object is refused there, with its line
        else:
            kind = "matrix" if _looks_like_matrix(rows, _separator(path, lines)) else "labelsets"
    if kind == "matrix":
        doc = _json_document(path, lines)
        if doc is not None:
            if not _json_is_matrix(doc):
                raise LabelFileError(
                    path, 1, "a JSON matrix must hold rows of equal length of 0/1 values"
                )
            A = np.array([[float(v) for v in r] for r in doc], dtype=np.float64)
            return LabelFile(str(path), "matrix", A.astype(np.int8), None, None)
        A, names, linenos = _read_matrix(path, lines, "label", booleans=True, header=header)
        return LabelFile(str(path), "matrix", _binary(path, A, linenos), None, names)
    return LabelFile(str(path), "labelsets", None, _read_label_sets(path, lines, kind), None)


_XC_HEADER = re.compile(r"^\s*(\d+)\s+(\d+)\s+(\d+)\s*$")


def _is_xc(lines: list[str]) -> bool:
    """The Extreme Classification Repository's layout: a first line ``n d K`` and
    instance lines ``l1,l2 f:v f:v ...`` (feature:value pairs after the labels)."""
    if not lines or not _XC_HEADER.match(lines[0]):
        return False
    return any(":" in ln for ln in lines[1:6])


def _read_xc(path: Path, lines: list[str]) -> LabelFile:
    """The labels of an Extreme Classification Repository file: header ``n d K``, then
    per instance its labels (integers in 0..K-1 separated by commas; none: the line
    starts with a feature) and its ``feature:value`` pairs, which are not read."""
    m = _XC_HEADER.match(lines[0]) if lines else None
    if m is None:
        raise LabelFileError(path, 1, "expected the header 'n d K' (instances, features, labels)")
    n, K = int(m.group(1)), int(m.group(3))
    body = lines[1:]
    if len(body) != n:
        raise LabelFileError(
            path, None, f"the header says {n} instances, the file has {len(body)}"
        )
    sets: list[list[str]] = []
    for lineno, line in enumerate(body, 2):
        first = line.split(None, 1)[0] if line.strip() else ""
        if not first or ":" in first:
            sets.append([])
            continue
        labs = [t for t in first.split(",") if t]
        for t in labs:
            if not t.isdigit() or int(t) >= K:
                raise LabelFileError(path, lineno, f"label {t!r} is not an integer in 0..{K - 1}")
        sets.append(list(dict.fromkeys(labs)))
    return LabelFile(str(path), "labelsets", None, sets, [str(j) for j in range(K)])


def is_sparse_score_file(path: str | PathLike) -> bool:
    """A score file of ``label:score`` pairs (one line per instance), not a matrix."""
    try:
        with open(path, encoding="utf-8-sig") as fh:
            for line in fh:
                if line.strip():
                    tok = line.replace(",", " ").split()[0]
                    name, sep, value = tok.rpartition(":")
                    return bool(sep) and bool(name) and _is_number(value)
    except (OSError, UnicodeDecodeError):
        return False
    return False


def read_sparse_scores(path: str | PathLike, labels: Sequence[str]) -> sp.csr_matrix:
    """A file of ``label:score`` pairs, one line per instance (separated by spaces or
    commas; an empty line scores nothing): the listed scores as a CSR matrix over
    ``labels``, read in one pass.  A top-k file of an extreme classifier is such a
    file; a label is named as in the truth (for the Extreme Classification
    Repository, its index)."""
    path = Path(path)
    index = {str(x): j for j, x in enumerate(labels)}
    indptr = [0]
    indices: list[int] = []
    data: list[float] = []
    try:
        fh = open(path, encoding="utf-8-sig")
    except OSError as exc:
        raise LabelFileError(path, None, f"cannot be read: {exc.strerror}") from None
    with fh:
        for lineno, line in enumerate(fh, 1):
            seen = set()
            for tok in line.replace(",", " ").split():
                name, sep, value = tok.rpartition(":")
                j = index.get(name)
                if not sep or j is None:
                    what = "not label:score" if not sep else f"{name!r} is not one of the labels"
                    raise LabelFileError(path, lineno, f"{tok!r}: {what}")
                try:
                    v = float(value)
                except ValueError:
                    raise LabelFileError(
                        path, lineno, f"{tok!r}: the score is not a number"
                    ) from None
                if not math.isfinite(v):
                    raise LabelFileError(path, lineno, f"{tok!r}: the score is not finite")
                if j in seen:
                    raise LabelFileError(path, lineno, f"the label {name!r} is scored twice")
                seen.add(j)
                indices.append(j)
                data.append(v)
            indptr.append(len(indices))
    return sp.csr_matrix(
        (np.asarray(data, dtype=np.float64), np.asarray(indices, dtype=np.int64), indptr),
        shape=(len(indptr) - 1, len(index)),
    )


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


def read_score_file(
    path: str | PathLike, *, header: bool | None = None
) -> tuple[np.ndarray, list[str] | None]:
    """A real-valued score matrix (CSV/TSV, optional header): ``(F, header)``.

    ``header``: whether the first line names the labels (None: the rule of the module
    docstring)."""
    path = Path(path)
    F, names, _ = _read_matrix(path, _read_lines(path), "score", header=header)
    return F, names


def read_label_names(source: str | PathLike) -> list[str]:
    """The labels, in their order, from a file: one label per line, or one line of
    labels separated by commas (a CSV header).  Empty and repeated names are refused.

    ``mlcbook evaluate --labels`` also takes the names themselves, ``--labels
    "cat,dog,bird"``, when no file of that name exists.
    """
    path = Path(source)
    lines = [ln for ln in _read_lines(path) if ln.strip()]
    if not lines:
        raise LabelFileError(path, None, "the file is empty: no label names")
    if len(lines) == 1:
        sep = "\t" if "\t" in lines[0] else ","
        names = [_strip_quotes(x) for x in next(csv.reader([lines[0]], delimiter=sep))]
        linenos = [1] * len(names)
    else:
        names = [_strip_quotes(x) for x in lines]
        linenos = [i for i, ln in enumerate(_read_lines(path), 1) if ln.strip()]
    return _check_names(path, names, linenos)


def _check_names(path: str | Path, names: list[str], linenos: list[int] | None = None):
    for i, name in enumerate(names):
        line = linenos[i] if linenos else None
        if not name:
            raise LabelFileError(path, line, f"label {i + 1} has an empty name")
        if name in names[:i]:
            raise LabelFileError(path, line, f"the label {name!r} is given twice")
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
    matrices = [f for f in (truth, pred) if f.Y is not None]
    if len(matrices) == 2 and truth.Y.shape[1] != pred.Y.shape[1]:  # type: ignore[union-attr]
        raise ValueError(
            f"{truth.path} has {truth.Y.shape[1]} label columns but "  # type: ignore[union-attr]
            f"{pred.path} has {pred.Y.shape[1]}"  # type: ignore[union-attr]
        )
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
                f"the header names {_few(f.labels)} but {source} are {_few(names)}",
            )
    if names is None:
        if len(matrices) == 2:
            names = [f"label_{j}" for j in range(matrices[0].Y.shape[1])]  # type: ignore[union-attr]
        elif matrices:
            m = matrices[0]
            other = pred if m is truth else truth
            raise LabelFileError(
                m.path,
                None,
                f"a 0/1 matrix without a header, while {other.path} holds label names: "
                "give the labels in the matrix's column order (--labels FILE) or a "
                "header line naming its columns",
            )
        else:
            names = inferred_labels([truth, pred])
    mats = []
    for f in (truth, pred):
        if f.Y is not None:
            if f.Y.shape[1] != len(names):
                raise ValueError(
                    f"{f.path} has {f.Y.shape[1]} label columns but there are "
                    f"{len(names)} labels: {_few(names)}"
                )
            mats.append(f.Y)
            continue
        sets = f.label_sets
        assert sets is not None  # no matrix: a label-set file
        mats.append(_binarise(f.path, sets, names, source if labels is not None else None))
    if any(sp.issparse(m) for m in mats):
        mats = [sp.csr_matrix(m) for m in mats]
    return mats[0], mats[1], names


def _few(names: Sequence[str], n: int = 6) -> str:
    shown = ", ".join(str(x) for x in names[:n])
    return shown + (f", ... ({len(names)} in all)" if len(names) > n else "")


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
                path, None, f"{F.shape[1]} score columns for {len(labels)} labels: {_few(labels)}"
            )
        return F
    header = list(header)
    if not named:
        if len(header) != len(labels):
            raise LabelFileError(
                path, 1, f"{len(header)} score columns for {len(labels)} label columns"
            )
        return F
    missing = [x for x in labels if x not in header]
    unknown = [x for x in header if x not in labels]
    if missing or unknown:
        raise LabelFileError(
            path,
            1,
            "the header does not name the labels: "
            + "; ".join(
                part
                for part in (
                    f"labels without a score column: {_few(missing)}" if missing else "",
                    f"columns of no label: {_few(unknown)}" if unknown else "",
                )
                if part
            ),
        )
    order = [header.index(x) for x in labels]
    return F[:, order]


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
            f"the label {lab!r} is not one of {source or 'the labels'}: {_few(names)}",
        ) from None
    n, K = len(sets), len(names)
    rows = np.repeat(np.arange(n), lengths)
    if n * K > SPARSE_CELLS:
        indptr = np.concatenate([[0], np.cumsum(lengths)])
        return sp.csr_matrix((np.ones(cols.size, dtype=np.int8), cols, indptr), shape=(n, K))
    Y = np.zeros((n, K), dtype=np.int8)
    Y[rows, cols] = 1
    return Y
