"""The authors' released folds for Hüllermeier et al. (2022), read and verified.

Their ten train/test splits with seed 42 (``datasets/NAME.zip`` of their repository,
MEKA ARFF, at :data:`~mlcrepro.huellermeier2022.reference.COMMIT`), each zip verified by
its sha256 (:func:`~mlcrepro.huellermeier2022.reference.reference_file`):
:func:`reference_folds` reads them, :func:`reference_layout` reads only the files'
headers (the columns, nominal values and label count), and :func:`verify_folds` checks
that each split's rows are the rows of :func:`mlcbook.datasets.load_dataset`.
"""

from __future__ import annotations

import re
import tempfile
import zipfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from mlcbook.datasets import load_dataset
from mlcbook.datasets.arff import DatasetFormatError, ParsedARFF, parse_arff, read_arff_header
from mlcrepro.huellermeier2022.reference import (
    DATASETS,
    FOLD_DATASETS,
    N_SPLITS,
    SEED,
    reference_file,
)

__all__ = [
    "ReferenceSplit",
    "ReferenceFolds",
    "FoldsLayout",
    "FoldsMatch",
    "reference_folds",
    "reference_layout",
    "verify_folds",
]


@dataclass(frozen=True)
class ReferenceSplit:
    """One of the authors' train/test splits: the arrays of their files, in their row
    and column order (sparse files give CSR)."""

    split: int
    X_train: np.ndarray | sp.csr_matrix
    Y_train: np.ndarray
    X_test: np.ndarray | sp.csr_matrix
    Y_test: np.ndarray


@dataclass(frozen=True)
class ReferenceFolds:
    """The authors' ten splits of one dataset, as their files hold them.

    Attributes
    ----------
    dataset, dataset_key : str
        The book's name and the authors' name.
    splits : tuple of ReferenceSplit
        Splits 0..9 (files ``NAME_42_S_train/test.arff``).
    feature_names, label_names : tuple of str
        The authors' column names.
    nominal : dict of int -> tuple of str
        The nominal features of the authors' files: column (their feature order) ->
        value names (the arrays hold value indices 0, 1, ...).
    """

    dataset: str
    dataset_key: str
    splits: tuple[ReferenceSplit, ...]
    feature_names: tuple[str, ...]
    label_names: tuple[str, ...]
    nominal: dict[int, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class FoldsMatch:
    """How the authors' splits of a dataset match our copy (:func:`verify_folds`).

    Attributes
    ----------
    dataset : str
    n_rows : int
        Rows of our copy; every split's train and test files hold that many.
    shared_features : int
        The authors' features that our copy has too (by name).
    exact : bool
        Every split's train and test rows together are our rows, as a multiset, on all
        features and labels (columns aligned by name).  False where the feature sets
        differ (medical: the authors' MULAN copy has 1449 word features, ours 1909);
        there the label counts per row are compared instead.
    """

    dataset: str
    n_rows: int
    shared_features: int
    exact: bool


def _dataset_key(name: str) -> str:
    if not isinstance(name, str):
        raise TypeError(f"name must be a dataset name (str), got {type(name).__name__}")
    key = name.strip().lower()
    if key in FOLD_DATASETS:
        return FOLD_DATASETS[key]
    if key in FOLD_DATASETS.values():
        return key
    raise ValueError(
        f"name must be a dataset with released folds, one of "
        f"{', '.join(sorted(FOLD_DATASETS))} (or the authors' "
        f"{', '.join(sorted(FOLD_DATASETS.values()))}); got {name!r}"
    )


def _read_splits(key: str, download: bool | None) -> list[tuple[ParsedARFF, ParsedARFF]]:
    path, _ = reference_file(f"folds-{key}.zip", download=download)
    expected = {
        f"{key}_{SEED}_{s}_{part}.arff" for s in range(N_SPLITS) for part in ("train", "test")
    }
    with zipfile.ZipFile(path) as z:
        members = set(z.namelist())
        if members != expected:
            raise DatasetFormatError(
                f"{path.name}: expected the members {sorted(expected)[:2]}..., got "
                f"{sorted(members - expected)[:3]} extra, "
                f"{sorted(expected - members)[:3]} missing"
            )
        with tempfile.TemporaryDirectory(prefix="mlcbook-folds-") as tmp:
            z.extractall(tmp)
            out = []
            for s in range(N_SPLITS):
                tr, te = (
                    parse_arff(Path(tmp) / f"{key}_{SEED}_{s}_{part}.arff", meka=True)
                    for part in ("train", "test")
                )
                if (tr.feature_names, tr.label_names) != (
                    te.feature_names,
                    te.label_names,
                ):
                    raise DatasetFormatError(
                        f"{path.name}: split {s} train and test files have different attributes"
                    )
                out.append((tr, te))
    first = out[0][0]
    for tr, _ in out[1:]:
        if (tr.feature_names, tr.label_names) != (
            first.feature_names,
            first.label_names,
        ):
            raise DatasetFormatError(f"{path.name}: splits have different attributes")
    return out


_MEDICAL_LABEL = re.compile(r"Class-\d+-(.+)")


def _align_labels(theirs: list[str], ours: tuple[str, ...]) -> np.ndarray:
    """Our column of each of their labels: by name, else by medical's ICD-9 code.

    MULAN's medical names a label ``Class-0-593_70``; our copy ``593.70:Name``.
    """
    pos = {n: i for i, n in enumerate(ours)}
    if set(theirs) == set(pos):
        return np.array([pos[n] for n in theirs])
    codes = {n.split(":", 1)[0]: i for i, n in enumerate(ours)}
    idx = []
    for n in theirs:
        m = _MEDICAL_LABEL.fullmatch(n)
        code = m.group(1).replace("_", ".") if m else None
        if code not in codes:
            raise DatasetFormatError(
                f"label {n!r} of the authors' file has no counterpart in our copy"
            )
        idx.append(codes[code])
    if sorted(idx) != list(range(len(ours))):
        raise DatasetFormatError("the authors' labels do not map one-to-one onto ours")
    return np.array(idx)


def _dense(X) -> np.ndarray:
    return X.toarray() if sp.issparse(X) else np.asarray(X, dtype=float)


def reference_folds(name: str, *, download: bool | None = None) -> ReferenceFolds:
    """The authors' ten train/test splits of a dataset, read from their files.

    Only the authors' zip is read (its sha256 checked); :func:`verify_folds` checks
    that the splits are splits of our copy of the dataset.

    Parameters
    ----------
    name : str
        birds, emotions, enron, flags, genbase, llog or medical (the authors'
        ``enron-f`` and ``llog-f`` are accepted too).  scene, yeast and bibtex have no
        released folds.
    download : bool, optional
        Allow downloading the zip when no local copy exists.

    Returns
    -------
    ReferenceFolds

    Raises
    ------
    ValueError
        Unknown name (the message lists the choices), before any file is read.
    ChecksumError, DownloadError, DataNotFoundError, DatasetFormatError
        A corrupt or unavailable file, or train and test files that disagree.
    """
    key = _dataset_key(name)
    splits = _read_splits(key, download)
    first = splits[0][0]
    return ReferenceFolds(
        dataset=DATASETS[key][0],
        dataset_key=key,
        splits=tuple(
            ReferenceSplit(s, tr.X, tr.Y, te.X, te.Y) for s, (tr, te) in enumerate(splits)
        ),
        feature_names=tuple(first.feature_names),
        label_names=tuple(first.label_names),
        nominal=_nominal_by_column(first.feature_names, first.nominal),
    )


def _nominal_by_column(
    feature_names: list[str], nominal: dict[str, list[str]]
) -> dict[int, tuple[str, ...]]:
    """A parsed file's nominal features keyed by column (feature order) instead of name."""
    return {i: tuple(nominal[f]) for i, f in enumerate(feature_names) if f in nominal}


@dataclass(frozen=True)
class FoldsLayout:
    """The columns of the authors' split files of one dataset, without their rows.

    Attributes
    ----------
    feature_names, label_names : tuple of str
        The authors' column names (as :class:`ReferenceFolds` has them).
    nominal : dict of int -> tuple of str
        The nominal features, as :class:`ReferenceFolds` holds them.
    """

    feature_names: tuple[str, ...]
    label_names: tuple[str, ...]
    nominal: dict[int, tuple[str, ...]]


def reference_layout(name: str, *, download: bool | None = None) -> FoldsLayout:
    """The columns of the authors' splits of a dataset, read from the header of the
    first training file alone (the zip's sha256 checked).

    What a learner's configuration needs (names, labels, nominal categories), at a few
    milliseconds instead of the seconds :func:`reference_folds` takes to read all twenty
    files; :func:`reference_folds` checks that every file has the same columns.

    Parameters
    ----------
    name : str
        A dataset with released folds (as :func:`reference_folds`).
    download : bool, optional
        Allow downloading the zip when no local copy exists.

    Returns
    -------
    FoldsLayout
    """
    key = _dataset_key(name)
    path, _ = reference_file(f"folds-{key}.zip", download=download)
    member = f"{key}_{SEED}_0_train.arff"
    with zipfile.ZipFile(path) as z, tempfile.TemporaryDirectory(prefix="mlcbook-folds-") as tmp:
        if member not in z.namelist():
            raise DatasetFormatError(f"{path.name}: no member {member}")
        head = read_arff_header(z.extract(member, tmp), meka=True)
    return FoldsLayout(
        feature_names=tuple(head.feature_names),
        label_names=tuple(head.label_names),
        nominal=_nominal_by_column(head.feature_names, head.nominal),
    )


def verify_folds(folds: ReferenceFolds, *, download: bool | None = None) -> FoldsMatch:
    """Check that the authors' splits are splits of our copy (``load_dataset``).

    For every split, the train and test rows together must be the rows of our copy:
    as a multiset of (features, labels) rows where the feature sets agree (columns
    aligned by name; labels by name, or by medical's ICD-9 code), else as a multiset
    of label counts per row.

    Parameters
    ----------
    folds : ReferenceFolds
        From :func:`reference_folds`.
    download : bool, optional
        Allow downloading our copy of the dataset when no local copy exists.

    Returns
    -------
    FoldsMatch

    Raises
    ------
    DatasetFormatError
        A split whose rows are not the rows of our copy, or labels without a
        one-to-one counterpart.
    """
    if not isinstance(folds, ReferenceFolds):
        raise TypeError(f"folds must be a ReferenceFolds, got {type(folds).__name__}")
    X, Y, info = load_dataset(folds.dataset, download=download)
    label_index = _align_labels(list(folds.label_names), info.label_names)
    fpos = {n: i for i, n in enumerate(info.feature_names)}
    exact = all(n in fpos for n in folds.feature_names)
    if exact:
        columns = [fpos[n] for n in folds.feature_names]
        ours = _row_counts(_dense(X)[:, columns], np.asarray(Y)[:, label_index])
    else:
        ours = Counter(np.asarray(Y).sum(1).tolist())
    n = Y.shape[0]
    for s in folds.splits:
        if exact:
            got = _row_counts(_dense(s.X_train), s.Y_train) + _row_counts(
                _dense(s.X_test), s.Y_test
            )
        else:
            got = Counter(np.asarray(s.Y_train).sum(1).tolist()) + Counter(
                np.asarray(s.Y_test).sum(1).tolist()
            )
        if got != ours:
            raise DatasetFormatError(
                f"{folds.dataset_key} split {s.split}: its train and test rows are not the "
                f"{n} rows of our copy"
            )
    return FoldsMatch(folds.dataset, n, sum(f in fpos for f in folds.feature_names), exact)


def _row_counts(X: np.ndarray, Y: np.ndarray) -> Counter:
    A = np.ascontiguousarray(np.hstack([X, np.asarray(Y, dtype=float)]))
    A[np.isnan(A)] = np.inf  # NaN != NaN: give missing values one comparable code
    return Counter(row.tobytes() for row in A)
