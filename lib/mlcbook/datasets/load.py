"""``load_dataset``: registry + verified files + ARFF parsing + a parsed-array cache."""

from __future__ import annotations

import hashlib
import json
import warnings
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from .._io import atomic_write
from .._validation import Flag, validate_params
from .arff import DatasetFormatError, ParsedARFF, parse_arff, read_mulan_labels
from .fetch import cache_dir, cache_write_error, fetch_file, sweep_stale_temporaries
from .registry import DatasetSpec, DatasetUnavailableError, get_spec

__all__ = ["load_dataset", "DatasetInfo", "PARSER_VERSION"]

#: Bumped whenever parsing changes, so that stale parsed caches are not reused.
PARSER_VERSION = "2"


@dataclass(frozen=True)
class DatasetInfo:
    """What :func:`load_dataset` knows about the arrays it returns.

    Attributes
    ----------
    name, subset : str
        Registry name and the subset loaded (``'all'``, ``'train'``, ``'test'``).
    feature_names, label_names : tuple of str
        Column names of ``X`` and ``Y`` (ARFF-unescaped).
    nominal : dict
        ``feature name -> categories`` for nominal features (encoded ordinally: the index
        of the value in this list).
    sparse : bool
        True if ``X`` is a ``scipy.sparse.csr_matrix``.
    files : tuple of str
        The ARFF files (and the XML label file) the arrays come from.
    sha256 : dict
        ``file -> sha256`` (verified).
    source : dict
        ``file -> where it was read from`` (``cache``, ``mirror:<path>``,
        ``download:<url>``) or ``parsed-cache:<npz>`` when the arrays came from the
        parsed cache.
    home, url, citation, note : str
        The dataset's public page, download base, BibTeX key, and known anomalies.
    """

    name: str
    subset: str
    feature_names: tuple[str, ...]
    label_names: tuple[str, ...]
    nominal: dict[str, tuple[str, ...]]
    sparse: bool
    files: tuple[str, ...]
    sha256: dict[str, str]
    source: dict[str, str]
    home: str
    url: str
    citation: str
    note: str = ""
    n_samples: int = 0

    @property
    def n_features(self) -> int:
        return len(self.feature_names)

    @property
    def n_labels(self) -> int:
        return len(self.label_names)

    def as_dict(self) -> dict[str, Any]:
        """A plain dict (JSON-serialisable)."""
        return asdict(self)


# ---------------------------------------------------------------- parsed cache (.npz)
def _parsed_key(spec: DatasetSpec, arff_file: str) -> str:
    parts = [PARSER_VERSION, spec.label_layout, arff_file, spec.sha256[arff_file]]
    if spec.label_layout == "xml":
        parts.append(spec.sha256[spec.xml])
    parts += list(spec.extra_labels)
    parts += [f"{a}->{b}" for a, b in spec.repairs.get(arff_file, ())]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:24]


def _npz_path(spec: DatasetSpec, arff_file: str) -> Path:
    stem = arff_file.rsplit(".", 1)[0]
    return cache_dir() / "parsed" / f"{stem}-{_parsed_key(spec, arff_file)}.npz"


def _save_npz(path: Path, p: ParsedARFF) -> None:
    arrays: dict[str, np.ndarray] = {
        "Y": p.Y,
        "feature_names": np.array(p.feature_names, dtype=str),
        "label_names": np.array(p.label_names, dtype=str),
        "meta": np.array(json.dumps({"nominal": p.nominal, "relation": p.relation})),
    }
    if sp.issparse(p.X):
        X = sp.csr_matrix(p.X)
        arrays.update(
            X_data=X.data,
            X_indices=X.indices,
            X_indptr=X.indptr,
            X_shape=np.array(X.shape, dtype=np.int64),
        )
    else:
        arrays["X"] = p.X
    what = f"the parsed arrays {path.name} (or pass cache=False)"
    try:
        sweep_stale_temporaries(path.parent)
        with atomic_write(path, "wb") as f:  # unique temp file, removed on any exit
            np.savez(f, **arrays)  # type: ignore[arg-type]  # numpy's stub types allow_pickle
    except OSError as exc:
        raise cache_write_error(exc, what) from exc


def _read_npz(path: Path) -> ParsedARFF:
    """Read a parsed cache entry and check that its arrays fit together."""
    with np.load(path, allow_pickle=False) as z:
        meta = json.loads(str(z["meta"]))
        feature_names = [str(s) for s in z["feature_names"]]
        label_names = [str(s) for s in z["label_names"]]
        Y = z["Y"]
        if "X" in z.files:
            X = z["X"]
        else:
            X = sp.csr_matrix(
                (z["X_data"], z["X_indices"], z["X_indptr"]),
                shape=tuple(int(v) for v in z["X_shape"]),
            )
            X.check_format(full_check=True)
    if Y.ndim != 2 or X.ndim != 2 or X.shape[0] != Y.shape[0]:
        raise ValueError(f"inconsistent shapes X {X.shape}, Y {Y.shape}")
    if X.shape[1] != len(feature_names) or Y.shape[1] != len(label_names):
        raise ValueError("names do not match the array widths")
    if Y.dtype.kind not in "biu" or not np.isin(Y, (0, 1)).all():
        raise ValueError("labels are not 0/1 integers")
    return ParsedARFF(
        X=X,
        Y=Y,
        feature_names=feature_names,
        label_names=label_names,
        nominal=meta["nominal"],
        relation=meta["relation"],
    )


def _load_npz(path: Path) -> ParsedARFF | None:
    """A parsed cache entry, or None (with a warning) after discarding a corrupt one."""
    try:
        return _read_npz(path)
    except Exception as exc:  # empty, truncated, altered: whatever the damage, rebuild
        warnings.warn(
            f"discarding the corrupt parsed-cache entry {path} "
            f"({type(exc).__name__}: {exc}); the ARFF file is parsed again",
            RuntimeWarning,
            stacklevel=3,
        )
        try:
            path.unlink()
        except OSError:
            pass
        return None


# ---------------------------------------------------------------- loading
def _fetch(spec: DatasetSpec, filename: str, download: bool | None, sources: dict) -> Path:
    path, src = fetch_file(filename, spec.sha256[filename], spec.url + filename, download=download)
    sources[filename] = src
    return path


def _load_one(
    spec: DatasetSpec, arff_file: str, *, download: bool | None, cache: bool, sources: dict
) -> ParsedARFF:
    npz = _npz_path(spec, arff_file)
    if cache and npz.is_file():
        p = _load_npz(npz)
        if p is not None:
            sources[arff_file] = f"parsed-cache:{npz}"
            return p
    if spec.label_layout == "xml":
        assert spec.xml is not None  # the registry gives every xml-layout dataset its file
        labels = read_mulan_labels(_fetch(spec, spec.xml, download, sources))
        labels += list(spec.extra_labels)
        p = parse_arff(
            _fetch(spec, arff_file, download, sources),
            label_names=labels,
            repairs=spec.repairs.get(arff_file, ()),
        )
    else:
        p = parse_arff(
            _fetch(spec, arff_file, download, sources),
            meka=True,
            repairs=spec.repairs.get(arff_file, ()),
        )
    if p.Y.shape[1] != spec.n_labels:
        raise DatasetFormatError(
            f"{arff_file}: found {p.Y.shape[1]} labels, the registry says {spec.n_labels}"
        )
    if cache:
        _save_npz(npz, p)
    return p


def _rows(p: ParsedARFF, r: tuple[int, int] | None) -> ParsedARFF:
    if r is None:
        return p
    start, stop = r
    if stop > p.Y.shape[0]:
        raise DatasetFormatError(f"row range {r} exceeds the file's {p.Y.shape[0]} rows")
    return ParsedARFF(
        X=p.X[start:stop],
        Y=p.Y[start:stop],
        feature_names=p.feature_names,
        label_names=p.label_names,
        nominal=p.nominal,
        relation=p.relation,
    )


def _stack(parts: list[ParsedARFF]) -> tuple[Any, np.ndarray]:
    first = parts[0]
    for q in parts[1:]:
        if q.feature_names != first.feature_names or q.label_names != first.label_names:
            raise DatasetFormatError("train and test files have different attributes")
    if first.sparse:
        X = sp.vstack([q.X for q in parts], format="csr")
    else:
        X = np.vstack([q.X for q in parts])
    return X, np.vstack([q.Y for q in parts])


@validate_params(download=Flag(allow_none=True), cache=Flag())
def load_dataset(
    name: str, subset: str = "all", *, download: bool | None = None, cache: bool = True
):
    """Load a registered multi-label benchmark dataset.

    Parameters
    ----------
    name : str
        A registered name (see :func:`mlcbook.datasets.list_datasets`), case-insensitive.
    subset : {'all', 'train', 'test'}
        ``'train'``/``'test'``: the MULAN split files where they exist; ``'all'``: the full
        file, or the union train + test (rows in that order) when there is no full file
        (scene).
    download : bool, optional
        Allow downloading from the public home when neither cache nor mirror has a file;
        default: allowed unless ``MLCBOOK_DATA_DOWNLOAD=0``.
    cache : bool
        Use (and fill) the parsed-array cache ``data/cache/parsed/*.npz`` keyed by the
        files' sha256.

    Returns
    -------
    X : ndarray of float64 (n_samples, n_features) or scipy.sparse.csr_matrix
        Features; sparse ARFF files stay sparse.  Nominal features are ordinal codes.
    Y : ndarray of int64 (n_samples, n_labels)
        0/1 labels.
    info : DatasetInfo
        Names, nominal categories and provenance.

    Raises
    ------
    UnknownDatasetError
        Unknown name (the message lists the known ones).
    DatasetUnavailableError
        Registered but no data file is known (corel5k).
    ChecksumError, DownloadError, DataNotFoundError, DatasetFormatError
        See :mod:`mlcbook.datasets.fetch` and :mod:`mlcbook.datasets.arff`.

    Examples
    --------
    >>> X, Y, info = load_dataset("emotions")
    >>> X.shape, Y.shape, info.label_names[0]
    ((593, 72), (593, 6), 'amazed-suprised')
    """
    spec = get_spec(name)
    if not isinstance(subset, str):
        raise TypeError(f"subset must be a str, got {type(subset).__name__}")
    if not spec.available:
        raise DatasetUnavailableError(
            f"dataset {spec.name!r} is registered but unavailable: {spec.note}"
        )
    pieces = spec.parts_for(subset)
    files = tuple(dict.fromkeys(f for f, _ in pieces))
    sources: dict[str, str] = {}
    loaded = {
        f: _load_one(spec, f, download=download, cache=cache, sources=sources) for f in files
    }
    parts = [_rows(loaded[f], r) for f, r in pieces]
    if len(parts) == 1:
        X, Y = parts[0].X, parts[0].Y
    else:
        X, Y = _stack(parts)
    used: tuple[str, ...] = tuple(files) + (
        (spec.xml,) if spec.label_layout == "xml" and spec.xml is not None else ()
    )
    info = DatasetInfo(
        name=spec.name,
        subset=subset,
        feature_names=tuple(parts[0].feature_names),
        label_names=tuple(parts[0].label_names),
        nominal={k: tuple(v) for k, v in parts[0].nominal.items()},
        sparse=sp.issparse(X),
        files=used,
        sha256={f: spec.sha256[f] for f in used},
        source=sources,
        home=spec.home,
        url=spec.url,
        citation=spec.citation,
        note=spec.note,
        n_samples=Y.shape[0],
    )
    return X, Y, info
