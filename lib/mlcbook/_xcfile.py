"""The readers of extreme-classification files: the Extreme Classification Repository's
truth files (``n d K`` header, ``l1,l2 f:v ...`` lines) and score files of
``label:score`` pairs (top-k or sparse scores), each read in one streaming pass."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from os import PathLike
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from ._textfiles import LabelFile, LabelFileError, is_number

__all__ = ["is_xc", "read_xc", "is_sparse_score_file", "read_sparse_scores"]


_XC_HEADER = re.compile(r"^\s*(\d+)\s+(\d+)\s+(\d+)\s*$")


def is_xc(lines: list[str]) -> bool:
    """The Extreme Classification Repository's layout: a first line ``n d K`` and
    instance lines ``l1,l2 f:v f:v ...`` (feature:value pairs after the labels)."""
    if not lines or not _XC_HEADER.match(lines[0]):
        return False
    return any(":" in ln for ln in lines[1:6])


def read_xc(path: Path, lines: list[str]) -> LabelFile:
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
    firsts = [line.split(None, 1)[0] if line.strip() else "" for line in body]
    sets = [
        list(dict.fromkeys(t for t in first.split(",") if t)) if first and ":" not in first else []
        for first in firsts
    ]
    names = [str(j) for j in range(K)]
    if not set(names).issuperset(lab for s in sets for lab in s):
        for lineno, labs in enumerate(sets, 2):  # the first label that is not one, by line
            for t in labs:
                if not t.isdigit() or int(t) >= K:
                    raise LabelFileError(
                        path, lineno, f"label {t!r} is not an integer in 0..{K - 1}"
                    )
    return LabelFile(str(path), "labelsets", None, sets, names)


def is_sparse_score_file(path: str | PathLike) -> bool:
    """A score file of ``label:score`` pairs (one line per instance), not a matrix."""
    try:
        with open(path, encoding="utf-8-sig") as fh:
            for line in fh:
                if line.strip():
                    tok = line.replace(",", " ").split()[0]
                    name, sep, value = tok.rpartition(":")
                    return bool(sep) and bool(name) and is_number(value)
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
    try:
        with open(path, encoding="utf-8-sig") as fh:
            text = fh.read()
    except OSError as exc:
        raise LabelFileError(path, None, f"cannot be read: {exc.strerror}") from None
    lines = text.split("\n") if text else []
    if text.endswith("\n"):
        lines.pop()  # the last line's end, not an empty line after it
    parts = [
        _fast_scores(chunk, index) or _scores(path, start + 1, chunk, index)
        for start in range(0, len(lines), _CHUNK)
        for chunk in [lines[start : start + _CHUNK]]
    ]
    counts = np.concatenate([c for c, _, _ in parts]) if parts else np.zeros(0, np.int64)
    return sp.csr_matrix(
        (
            np.concatenate([v for _, _, v in parts]) if parts else np.zeros(0),
            np.concatenate([j for _, j, _ in parts]) if parts else np.zeros(0, np.int64),
            np.concatenate([[0], np.cumsum(counts)]),
        ),
        shape=(len(lines), len(index)),
    )


#: Lines of a score file read at a time (the memory of one chunk's tokens).
_CHUNK = 1 << 14
#: Two colons in one token.
_TWO_COLONS = re.compile(r":[^\s,:]*:")

_Scores = tuple[np.ndarray, np.ndarray, np.ndarray]


def _fast_scores(lines: list[str], index: dict[str, int]) -> _Scores | None:
    """(pairs per line, columns, scores) of lines whose every token is ``label:score``
    with one colon, a known label, a finite score and no label twice on a line, read by
    whole-chunk splits and NumPy; None otherwise (:func:`_scores` says where)."""
    text = "\n".join(lines)
    counts = np.fromiter((ln.count(":") for ln in lines), np.int64, len(lines))
    n_pairs = int(counts.sum())
    # no token with two colons and as many tokens as colons: one colon in every token
    if _TWO_COLONS.search(text) or len(text.replace(",", " ").split()) != n_pairs:
        return None
    flat = text.replace(",", " ").replace(":", " ").split()
    if len(flat) != 2 * n_pairs:
        return None  # an empty label or score
    try:
        cols = np.fromiter(map(index.__getitem__, flat[0::2]), np.int64, n_pairs)
        values = np.array(flat[1::2], dtype=np.float64)
    except (KeyError, ValueError):
        return None
    key = np.repeat(np.arange(len(lines)), counts) * max(len(index), 1) + cols
    key.sort()
    if not np.isfinite(values).all() or (key[1:] == key[:-1]).any():
        return None
    return counts, cols, values


def _scores(path: Path, first: int, lines: list[str], index: dict[str, int]) -> _Scores:
    """The lines read token by token (``first``: the file's line number of the first):
    the first bad token is named by its line."""
    counts: list[int] = []
    indices: list[int] = []
    data: list[float] = []
    for lineno, line in enumerate(lines, first):
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
                raise LabelFileError(path, lineno, f"{tok!r}: the score is not a number") from None
            if not math.isfinite(v):
                raise LabelFileError(path, lineno, f"{tok!r}: the score is not finite")
            if j in seen:
                raise LabelFileError(path, lineno, f"the label {name!r} is scored twice")
            seen.add(j)
            indices.append(j)
            data.append(v)
        counts.append(len(seen))
    return (
        np.asarray(counts, dtype=np.int64),
        np.asarray(indices, dtype=np.int64),
        np.asarray(data, dtype=np.float64),
    )
