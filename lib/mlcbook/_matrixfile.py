"""The reader of 0/1 matrices and score matrices: CSV/TSV or whitespace-separated, with
or without a header line of label names (the rules: :mod:`mlcbook._labelfiles`).

A file of numbers alone is read in one pass by NumPy's C parser; a file that parser
refuses (a typo, a quoted or boolean field, a ragged row) is read field by field,
which names the first bad field's line and column or reads what the fast parser
cannot (``True``/``False``, quotes).
"""

from __future__ import annotations

import math
import warnings
from os import PathLike
from pathlib import Path

import numpy as np

from ._textfiles import (
    HeaderWarning,
    LabelFile,
    LabelFileError,
    json_document,
    read_lines,
    strip_quotes,
)

__all__ = [
    "is_matrix_file",
    "read_matrix_file",
    "separator",
    "data_lines",
    "looks_like_matrix",
    "read_matrix",
    "json_is_matrix",
    "binary01",
    "read_score_file",
]


_SEPARATORS = ("\t", ",", ";")


#: Words read as a label's value in a 0/1 matrix (what pandas writes for booleans).
_BOOL_WORDS = {"true": 1.0, "false": 0.0, "yes": 1.0, "no": 0.0}


def separator(path: Path, lines: list[str]) -> str | None:
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


def _fields(line: str, sep: str | None) -> list[str]:
    parts = line.split(sep) if sep is not None else line.split()
    return [strip_quotes(p) for p in parts]


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


def data_lines(lines: list[str]) -> list[tuple[int, str]]:
    """Non-blank lines with their 1-based line numbers."""
    return [(i, ln) for i, ln in enumerate(lines, 1) if ln.strip()]


def _trailing_separator(rows: list[tuple[int, str]], sep: str | None) -> bool:
    """Every line ends with the separator (a spreadsheet's empty last column)."""
    return sep is not None and bool(rows) and all(ln.rstrip().endswith(sep) for _, ln in rows)


def _row_fields(line: str, sep: str | None, trailing: bool) -> list[str]:
    toks = _fields(line, sep)
    return toks[:-1] if trailing and toks and toks[-1] == "" else toks


def looks_like_matrix(rows: list[tuple[int, str]], sep: str | None) -> bool:
    """Most fields after an optional header line are numbers (or true/false/yes/no).

    A majority, not all: one typo (``1,1,x``) must not turn a 0/1 matrix into label
    sets; it is reported at its line when the matrix is read.
    """
    trailing = _trailing_separator(rows, sep)
    sample = rows[:2000]
    if sample and not any(
        _value(t, True) is not None for t in _row_fields(sample[0][1], sep, trailing)
    ):
        sample = sample[1:]  # a header (label names; pandas leaves the index's name empty)
    if sample and _numbers(sample, sep, trailing) is not None:
        return True  # every field a number, found in one pass
    toks = [_row_fields(ln, sep, trailing) for _, ln in sample]
    values = sum(_value(t, True) is not None for row in toks for t in row)
    total = sum(len(row) for row in toks)
    return total > 0 and 2 * values > total


def _integer_header(fields: list[str]) -> bool:
    """The fields are ``0, 1, ..., K-1`` (K >= 2), maybe after an empty index name: the
    column names pandas writes for a frame without names (``DataFrame(Y).to_csv()``)."""
    names = fields[1:] if fields and fields[0] == "" else fields
    return len(names) >= 2 and names == [str(j) for j in range(len(names))]


def read_matrix(
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
    sep = separator(path, lines)
    rows = data_lines(lines)
    if not rows:
        raise LabelFileError(path, None, f"the file is empty: no {what} rows")
    trailing = _trailing_separator(rows, sep)
    names, skip, rows = _header(path, rows, sep, trailing, what, booleans, header)
    width = len(names) if names is not None else len(_row_fields(rows[0][1], sep, trailing))
    out = _fast_values(rows, sep, trailing, width, skip)
    if out is None:
        out = _values(path, rows, sep, trailing, width, skip, booleans)
    return out, names, [lineno for lineno, _ in rows]


def _header(
    path: Path,
    rows: list[tuple[int, str]],
    sep: str | None,
    trailing: bool,
    what: str,
    booleans: bool,
    header: bool | None,
) -> tuple[list[str] | None, int, list[tuple[int, str]]]:
    """The label names of the first line if it is a header (else None), the number of
    leading index columns (1: pandas' index, 0: none) and the data rows."""
    first = _row_fields(rows[0][1], sep, trailing)
    names_line = not any(_value(t, booleans) is not None for t in first)
    if header is None and not names_line and _integer_header(first):
        names_line = True
        width = len(first) - (first[0] == "")
        if what == "score" or width == 2:  # the same line could be a row of values
            warnings.warn(
                f"{path}:{rows[0][0]}: the first line {rows[0][1].strip()!r} is read as "
                "the column names pandas writes (0, 1, ..., K-1), not as a row; give "
                "--no-header if it is a row",
                HeaderWarning,
                stacklevel=5,
            )
    if header is not None:
        names_line = header
    if not names_line:
        if (
            header is None
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
        return None, 0, rows
    index_column = first[0] == "" and len(first) > 1  # pandas: to_csv() with the index
    if index_column:
        first = first[1:]
    if any(t == "" for t in first):
        raise LabelFileError(
            path,
            rows[0][0],
            f"the header has an empty label name (column {first.index('') + 1 + index_column})",
        )
    if len(set(first)) != len(first):
        dup = next(t for t in first if first.count(t) > 1)
        raise LabelFileError(path, rows[0][0], f"the header repeats the label {dup!r}")
    if len(rows) == 1:
        raise LabelFileError(path, None, f"the file has a header but no {what} rows")
    return first, int(index_column), rows[1:]


def _fast_values(
    rows: list[tuple[int, str]], sep: str | None, trailing: bool, width: int, skip: int
) -> np.ndarray | None:
    """The matrix read in one pass by NumPy's C parser, or None when that parser
    refuses a field or a row's length, or a value is not finite (the field-by-field
    reader then says where, or reads what NumPy does not: quotes, true/false)."""
    A = _numbers(rows, sep, trailing)
    if A is None or A.shape != (len(rows), width + skip) or not np.isfinite(A).all():
        return None
    return A[:, skip:] if skip else A


def _numbers(rows: list[tuple[int, str]], sep: str | None, trailing: bool) -> np.ndarray | None:
    """The rows as numbers by NumPy's C parser (rows of equal length), else None."""
    text = (ln.rstrip()[:-1] if trailing else ln for _, ln in rows)
    try:
        return np.loadtxt(text, delimiter=sep, comments=None, ndmin=2, dtype=np.float64)
    except ValueError:
        return None


def _values(
    path: Path,
    rows: list[tuple[int, str]],
    sep: str | None,
    trailing: bool,
    width: int,
    skip: int,
    booleans: bool,
) -> np.ndarray:
    """The matrix read field by field: the first bad field is named by line and column."""
    out = np.empty((len(rows), width))
    for r, (lineno, line) in enumerate(rows):
        toks = _row_fields(line, sep, trailing)[skip:]
        if len(toks) != width:
            raise LabelFileError(path, lineno, f"expected {width} values, found {len(toks)}")
        for c, tok in enumerate(toks):
            v = _value(tok, booleans)
            if v is None:
                what = "an empty field" if tok == "" else f"{tok!r} is not a number"
                raise LabelFileError(path, lineno, f"column {c + 1 + skip}: {what}")
            if not math.isfinite(v):
                raise LabelFileError(path, lineno, f"column {c + 1 + skip}: {tok!r} is not finite")
            out[r, c] = v
    return out


def json_is_matrix(doc: list) -> bool:
    """Every row the same length and every entry 0/1 (or true/false): a 0/1 matrix."""
    return len({len(r) for r in doc}) == 1 and all(
        (isinstance(v, bool) or (isinstance(v, (int, float)) and v in (0, 1)))
        for r in doc
        for v in r
    )


def binary01(path: Path, A: np.ndarray, linenos: list[int]) -> np.ndarray:
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


def read_score_file(
    path: str | PathLike, *, header: bool | None = None
) -> tuple[np.ndarray, list[str] | None]:
    """A real-valued score matrix (CSV/TSV, optional header): ``(F, header)``.

    ``header``: whether the first line names the labels (None: the rule of the module
    docstring)."""
    path = Path(path)
    F, names, _ = read_matrix(path, read_lines(path), "score", header=header)
    return F, names


def is_matrix_file(path: Path, lines: list[str]) -> bool:
    """``--format-in auto``: a whole-file JSON array of 0/1 rows, or a text file whose
    fields after an optional header are mostly numbers, is a matrix; a file whose first
    line is a JSON array (or object), or of words, holds label sets."""
    rows = data_lines(lines)
    if not rows:
        raise LabelFileError(path, None, "the file is empty")
    doc = json_document(path, lines)
    if doc is not None:
        return json_is_matrix(doc)
    if rows[0][1].lstrip().startswith(("[", "{")):
        return False  # a JSON object is refused with the label sets, at its line
    return looks_like_matrix(rows, separator(path, lines))


def read_matrix_file(path: Path, lines: list[str], header: bool | None) -> LabelFile:
    """A truth or prediction file that is a 0/1 matrix: one JSON array of rows, or
    CSV/TSV with an optional header (``True``/``False``, ``yes``/``no`` read as 1/0)."""
    doc = json_document(path, lines)
    if doc is not None:
        if not json_is_matrix(doc):
            raise LabelFileError(
                path, 1, "a JSON matrix must hold rows of equal length of 0/1 values"
            )
        A = np.array([[float(v) for v in r] for r in doc], dtype=np.float64)
        return LabelFile(str(path), "matrix", A.astype(np.int8), None, None)
    A, names, linenos = read_matrix(path, lines, "label", booleans=True, header=header)
    return LabelFile(str(path), "matrix", binary01(path, A, linenos), None, names)
