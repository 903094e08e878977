"""The files of ``mlcbook evaluate`` and ``compare`` read on one set of labels: the truth,
the predictions, their scores, and the propensities of ``--propensity FILE``.

The labels, in this order: ``--labels``; the header of a matrix file; for label-set
files, the header of a score file; else the label sets' labels in order of first
appearance, with a :class:`~mlcbook._labelfiles.LabelsInferredWarning` (a label in no
file is missing); matrices without a header have positional columns.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ._labelfiles import (
    LabelFile,
    LabelFileError,
    align_label_files,
    align_scores,
    inferred_labels,
    is_sparse_score_file,
    read_label_file,
    read_label_names,
    read_score_file,
    read_sparse_scores,
)
from ._textfiles import is_number, read_lines
from .extreme import JAIN_PARAMETERS, jain_propensity

__all__ = ["read_inputs", "read_propensity_file"]

#: A score matrix file read before the labels are settled: (scores, header or None).
_Read = tuple[np.ndarray, list[str] | None] | None


def _labels_option(labels: str | Sequence[str] | None) -> list[str] | None:
    """``--labels``: a file of names (one a line, or one comma-separated line), or the
    names themselves separated by commas."""
    if labels is None or not isinstance(labels, str):
        return None if labels is None else [str(x) for x in labels]
    if Path(labels).is_file():
        return read_label_names(labels)
    names = [x.strip() for x in labels.split(",")]
    if any(not x for x in names) or len(set(names)) != len(names):
        raise LabelFileError(
            "--labels",
            None,
            f"{labels!r} is not a file and not a list of distinct names separated by commas",
        )
    return names


def read_inputs(
    truth: str,
    preds: Sequence[str],
    *,
    scores: Sequence[str | None] = (),
    labels: str | Sequence[str] | None = None,
    input_format: str = "auto",
    xml: str | None = None,
    header: bool | None = None,
) -> tuple[Any, list[Any], list[np.ndarray | None], list[str], str]:
    """Read the truth, one or more prediction files and their score files on one set of
    labels (the order of the module docstring).

    A score file's header must name the labels (any order: its columns are put in the
    labels' order); a score file without a header is taken column by column only when
    the columns have an order (``--labels``, a matrix header, or positions), and refused
    when the labels were only named by label sets.

    Returns ``(Y, [P, ...], [F or None, ...], labels, where the labels come from)``.
    """
    t = read_label_file(truth, input_format, xml=xml, header=header)
    ps = [read_label_file(p, input_format, xml=xml, header=header) for p in preds]
    for f in ps:  # before any more work: each line (row) is one instance in every file
        if f.n_samples != t.n_samples:
            raise LabelFileError(
                f.path,
                None,
                f"{f.n_samples} rows but {t.path} has {t.n_samples}: each line (row) must "
                "be the same instance in both files (an empty line is an empty label set)",
            )
    listed = [s is not None and is_sparse_score_file(s) for s in scores]
    read: list[_Read] = [
        read_score_file(s, header=header) if s is not None and not lst else None
        for s, lst in zip(scores, listed)
    ]
    names, source, ordered, scores_header = _settle_labels(
        [t, *ps], _labels_option(labels), scores, read
    )
    Y: Any = None
    Ps: list[Any] = []
    out_labels: list[str] = []
    for p in ps:
        Y, P, out_labels = _aligned(t, p, names, source, scores_header)
        Ps.append(P)
    Fs = [
        _scores(path, r, lst, out_labels, t, named=names is not None, ordered=ordered)
        for path, r, lst in zip(scores, read, listed)
    ]
    return Y, Ps, Fs, out_labels, source


def _settle_labels(
    files: list[LabelFile],
    names: list[str] | None,
    scores: Sequence[str | None],
    read: list[_Read],
) -> tuple[list[str] | None, str, bool, str | None]:
    """The labels (None: the matrices' positions or the label sets', settled when the
    files are aligned), where they come from, whether header-less score columns have an
    order, and the score file whose header named them (label-set files only)."""
    if names is not None:
        return names, "--labels", True, None
    header_file = next((f for f in files if f.labels is not None), None)
    if header_file is not None:
        return list(header_file.labels or ()), f"the header of {header_file.path}", True, None
    if all(f.Y is not None for f in files):
        return None, "column positions (no header)", True, None
    if any(f.Y is not None for f in files):
        return None, "--labels", False, None  # a header-less matrix beside label sets
    named = [(p, r[1]) for p, r in zip(scores, read) if r is not None and r[1] is not None]
    if named:
        return list(named[0][1]), f"the header of {named[0][0]}", False, named[0][0]
    return inferred_labels(files), "the label sets, inferred", False, None


def _aligned(
    t: LabelFile, p: LabelFile, names: list[str] | None, source: str, scores_header: str | None
) -> tuple[Any, Any, list[str]]:
    """Truth and one prediction file on the labels; a score header that does not name
    the label sets' labels is the score file's error."""
    try:
        return align_label_files(t, p, names, source=source)
    except LabelFileError as exc:
        if scores_header is None:
            raise
        raise LabelFileError(
            scores_header,
            1,
            f"the header does not name the labels of the label-set files ({exc}); "
            "name them in the header, or give --labels",
        ) from None


def _scores(
    path: str | None,
    read: _Read,
    listed: bool,
    labels: list[str],
    truth: LabelFile,
    *,
    named: bool,
    ordered: bool,
) -> Any:
    """One score file on the labels of ``truth``: label:score lines by name; a matrix
    by its header, or by position when the columns have an order (None: no file)."""
    n = truth.n_samples
    if listed and path is not None:  # label:score lines: columns by name
        F = read_sparse_scores(path, labels)
        if F.shape[0] != n:
            raise LabelFileError(path, None, f"{F.shape[0]} rows of scores for {n} instances")
        return F
    if read is None or path is None:
        return None
    F, score_names = read
    if score_names is None and not ordered:
        raise LabelFileError(
            path,
            None,
            "the score file has no header, so nothing says which column is which "
            f"label of {truth.path}: add a header line naming the labels, or give "
            "--labels in the order of the score columns",
        )
    return align_scores(F, score_names, labels, path, named=named, n_samples=n)


def read_propensity_file(
    path: str,
    names: Sequence[str],
    jain: Sequence[float] | None,
    *,
    input_format: str = "auto",
    header: bool | None = None,
) -> tuple[np.ndarray, str]:
    """``--propensity FILE``: the propensities of the labels ``names`` and a note.

    The file holds either one propensity in (0, 1] per line, in the order of the labels
    (or ``label,propensity`` per line, any order, every label once), or the training
    labels (any layout of a truth file, on the same labels), whose frequencies give
    Jain et al.'s propensities (``jain`` = (A, B); None: 0.55, 1.5).
    """
    lines = [(i, ln.strip()) for i, ln in enumerate(read_lines(Path(path)), 1) if ln.strip()]
    if not lines:
        raise LabelFileError(path, None, "the file is empty: no propensities or labels")
    fields = [[f.strip() for f in ln.replace("\t", ",").split(",")] for _, ln in lines]
    if all(len(f) == 1 and is_number(f[0]) for f in fields):
        if len(lines) != len(names):
            raise LabelFileError(
                path, None, f"{len(lines)} propensities for {len(names)} labels: one per label"
            )
        return _checked(path, names, np.array([float(f[0]) for f in fields]))
    if all(len(f) == 2 and is_number(f[1]) for f in fields):
        return _checked(path, names, _named_propensities(path, names, lines, fields))
    return _training_propensities(path, names, jain, input_format, header)


def _named_propensities(
    path: str, names: Sequence[str], lines: list[tuple[int, str]], fields: list[list[str]]
) -> np.ndarray:
    """``label,propensity`` lines: every label once, in any order."""
    index = {str(x): j for j, x in enumerate(names)}
    p = np.full(len(names), np.nan)
    for (lineno, _), (name, value) in zip(lines, fields):
        if name not in index:
            raise LabelFileError(path, lineno, f"{name!r} is not one of the labels")
        if not np.isnan(p[index[name]]):
            raise LabelFileError(path, lineno, f"the label {name!r} is given twice")
        p[index[name]] = float(value)
    if np.isnan(p).any():
        missing = [str(names[j]) for j in np.flatnonzero(np.isnan(p))]
        raise LabelFileError(path, None, f"no propensity for the labels {missing[:6]}")
    return p


def _checked(path: str, names: Sequence[str], p: np.ndarray) -> tuple[np.ndarray, str]:
    bad = np.flatnonzero(~((p > 0.0) & (p <= 1.0)))
    if bad.size:
        raise LabelFileError(
            path,
            None,
            f"propensities must lie in (0, 1]; label {names[bad[0]]!r} has {p[bad[0]]}",
        )
    return p, f"the propensities of {path}"


def _training_propensities(
    path: str,
    names: Sequence[str],
    jain: Sequence[float] | None,
    input_format: str,
    header: bool | None,
) -> tuple[np.ndarray, str]:
    """Jain et al.'s propensities from the label frequencies of a training-label file."""
    train = read_label_file(path, input_format, header=header)
    if train.Y is not None:
        if train.labels is not None and list(train.labels) != [str(x) for x in names]:
            raise LabelFileError(
                path,
                1,
                "the header names other labels than the truth's: "
                f"{list(train.labels)[:6]} vs {list(names)[:6]}",
            )
        if train.Y.shape[1] != len(names):
            raise LabelFileError(
                path, None, f"{train.Y.shape[1]} label columns for {len(names)} labels"
            )
        Ytr: Any = train.Y
    else:
        Ytr, _, _ = align_label_files(
            train, train, [str(x) for x in names], source="the labels of the truth"
        )
    if Ytr.shape[0] < 3:
        raise LabelFileError(
            path, None, "Jain et al.'s propensities need at least 3 training instances"
        )
    a, b = JAIN_PARAMETERS["default"] if jain is None else jain
    note = (
        f"propensities of Jain et al. (2016) with A = {a:g}, B = {b:g} from the label "
        f"frequencies of {path} ({Ytr.shape[0]} training instances)"
    )
    return jain_propensity(Ytr, a, b), note
