"""What the readers of a user's label files share: their errors and warnings, what a
file holds (:class:`LabelFile`), and the reading of a text file and of its fields.

Imports neither pandas nor scikit-learn (``mlcbook evaluate`` starts fast).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path

import numpy as np

__all__ = [
    "LabelFileError",
    "HeaderWarning",
    "LabelsInferredWarning",
    "LabelFile",
    "read_lines",
    "strip_quotes",
    "is_number",
    "shown",
    "few",
    "json_label",
    "json_document",
]


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


def read_lines(path: Path) -> list[str]:
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


def strip_quotes(p: str) -> str:
    return p.strip().strip('"').strip("'").strip()


def is_number(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True


def shown(s: str, width: int = 40) -> str:
    return s if len(s) <= width else s[: width - 3] + "..."


def few(names: Sequence[str], n: int = 6) -> str:
    shown = ", ".join(str(x) for x in names[:n])
    return shown + (f", ... ({len(names)} in all)" if len(names) > n else "")


def json_label(path: Path, lineno: int, x: object) -> str:
    if isinstance(x, bool) or not isinstance(x, (str, int, float)):
        raise LabelFileError(
            path, lineno, f"a label must be a string or a number, found {json.dumps(x)}"
        )
    return x if isinstance(x, str) else json.dumps(x)


def json_document(path: Path, lines: list[str]) -> list | None:
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
