"""The reader of label-set files: one instance a line, every line in one layout (JSON
arrays, labels separated by commas, or by whitespace; the rules:
:mod:`mlcbook._labelfiles`)."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from ._textfiles import LabelFileError, json_document, json_label, shown, strip_quotes

__all__ = ["SET_FORMATS", "read_label_sets"]


def _line_labels(path: Path, lineno: int, line: str, sep: str | None) -> list[str]:
    """The labels of one line of a label-set file."""
    s = line.strip()
    if s.startswith("{"):
        raise LabelFileError(
            path,
            lineno,
            f"a JSON object ({shown(s)}): a label set is a JSON array "
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
            items = [t for t in (strip_quotes(x) for x in _split_plain(inner, ",")) if t]
        if not isinstance(items, list):  # pragma: no cover - '[...]' parses to a list
            raise LabelFileError(path, lineno, "expected a JSON array of labels")
        if any(isinstance(x, list) for x in items):
            raise LabelFileError(
                path,
                lineno,
                "a nested array: a JSON matrix must be the whole file ([[1, 0], [0, 1]])",
            )
        labels = [json_label(path, lineno, x) if not isinstance(x, str) else x for x in items]
        if len(set(labels)) != len(labels) and set(labels) <= {"0", "1"}:
            raise LabelFileError(
                path,
                lineno,
                f"{s} repeats the labels 0/1: a row of a 0/1 matrix? Write the matrix "
                "as CSV or as one JSON array of rows",
            )
        return labels
    return [t for t in (strip_quotes(x) for x in _split_plain(s, sep)) if t]


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
                f"{shown(line.strip())!r} is {_FORMAT_WORDS[fmt]} but line {first[0]} is "
                f"{_FORMAT_WORDS[first[1]]}: a label-set file is written in one layout. "
                "Give it with --format-in json|comma|space (comma: a label may hold a "
                "space; space: a label may hold a comma)",
            )
    return first[1] if first is not None else "space"


def read_label_sets(path: Path, lines: list[str], fmt: str = "labelsets") -> list[list[str]]:
    """One label set per line, every line in one layout (``fmt``: ``'json'``,
    ``'comma'``, ``'space'``, or ``'labelsets'`` to find it from the whole file).  An
    empty line or ``[]`` is the empty set, at the end of the file too: the instances
    are the lines."""
    if not any(ln.strip() for ln in lines):
        raise LabelFileError(path, None, "the file is empty: no label sets")
    doc = json_document(path, lines) if fmt in ("labelsets", "json") else None
    if doc is not None:
        return [list(dict.fromkeys(json_label(path, 1, x) for x in row)) for row in doc]
    if fmt == "labelsets":
        fmt = _set_format(path, lines)
    if fmt == "json":
        for lineno, line in enumerate(lines, 1):
            s = line.strip()
            if s and not (s.startswith("[") or s.startswith("{")):
                raise LabelFileError(
                    path, lineno, f"{shown(s)!r} is not a JSON array (--format-in json)"
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
                    dict.fromkeys(t for t in (strip_quotes(x) for x in _split_plain(s, sep)) if t)
                )
            )
    return out
