"""Committed result tables of long experiments: the book's data, with provenance.

A chapter whose experiment is too long for the test budget calls
:func:`load_or_compute` with the table's name, a function that computes it, and
its *specification* (everything the numbers depend on).  The committed table
``data/results/NAME.csv`` with its provenance ``NAME.json`` is the book's data:

* Normally the table is **loaded**, and only if the committed provenance was
  made from the same specification.  When it was not (the code now asks for
  another configuration) or the table is missing, :class:`StaleResultError` is
  raised at once, before any work, naming the table and the command that
  recomputes it.  Nothing is ever recomputed silently, and nothing is written.
* Only when recomputation is requested — ``make reproduce`` (``MLCBOOK_RECOMPUTE=1``)
  or ``make table NAME=...`` (``MLCBOOK_RECOMPUTE=NAME``) — is the table computed
  and written, atomically, with its provenance (specification, its key, package
  versions, Python, date, the chapter that made it, and the table's SHA-256, row
  count and column types).  The table is read back from the bytes about to be written
  and must equal the computed one exactly -- values, dtypes (nullable ``Int64`` with
  NA, ``float32``, ``boolean`` included), column names (integers stay integers) and
  index (a non-default index is stored as leading columns and restored) -- or nothing
  is written: an empty table, or one whose values would not read back (a None in a
  text column, a category, a date), is refused with the column named.  On load the CSV
  must have the recorded hash and rows (provenance written before hashes were recorded
  is accepted as it is), and is never a Git LFS pointer or a file with merge-conflict
  markers.  Temporary files that a killed writer left in the folder are removed (at
  once when their owner is seen to be dead, :func:`mlcbook.files.remove_stale_temporaries`).

The key of a specification is :func:`config_hash`: a hash of its canonical JSON
form (:func:`canonical`), which accepts only values whose text does not depend on
the machine — strings, integers, booleans, floats written as literals, grids
given by their specification (:class:`LogGrid`) — and refuses computed arrays,
NumPy floats, sets of mixed types and arbitrary objects, whose text may change
with the CPU, the NumPy build or the process.

Floats are written with 17 significant digits and read back with
exact parsing (``mlcbook.files.read_csv_exact``), so a loaded table equals the computed one
exactly.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import platform
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from mlcbook.datasets import get_spec
from mlcbook.files import (
    atomic_write,
    atomic_write_text,
    read_csv_exact,
    remove_stale_temporaries,
)
from mlcbook.profiles import LogGrid
from mlcrepro._paths import in_checkout, packaged_results, results_dir
from mlcrepro.table_csv import parse_table, table_record

__all__ = [
    "LogGrid",
    "StaleResultError",
    "canonical",
    "committed_table",
    "config_hash",
    "dataset_fingerprints",
    "load_or_compute",
    "package_versions",
    "provenance",
    "recompute_requested",
]

_PACKAGES = ("mlcbook", "numpy", "scipy", "pandas", "scikit-learn", "mlrl-boomer", "liac-arff")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


class StaleResultError(RuntimeError):
    """A committed result table is missing or was made from another specification."""


def canonical(config: Any, _where: str = "config") -> Any:
    """The machine-independent JSON form of a specification.

    Accepted: ``None``, ``bool``, ``int`` (NumPy integers too), finite Python
    ``float`` (written as its shortest round-trip decimal, the same on every
    machine for the same literal), ``str``, :class:`LogGrid` (its ``spec``),
    mappings with ``str`` keys, lists and tuples, and sets of strings or of
    integers (sorted).

    Raises
    ------
    TypeError
        For NumPy arrays and floats (computed values whose last bits depend on
        the machine), sets of other things, and any other object; the message
        names where in the configuration the value sits.
    ValueError
        For NaN and infinite floats.
    """
    if config is None or isinstance(config, (bool, str)):
        return config
    if isinstance(config, np.bool_):
        return bool(config)
    if isinstance(config, (int, np.integer)):
        return int(config)
    if isinstance(config, float) and not isinstance(config, np.floating):
        if not math.isfinite(config):
            raise ValueError(f"{_where} must be finite, got {config!r}")
        return config
    if isinstance(config, LogGrid):
        return config.spec
    if isinstance(config, Mapping):
        out = {}
        for k, v in config.items():
            if not isinstance(k, str):
                raise TypeError(
                    f"{_where} has a key {k!r} of type {type(k).__name__}; keys must be str"
                )
            out[k] = canonical(v, f"{_where}[{k!r}]")
        return out
    if isinstance(config, (list, tuple)):
        return [canonical(v, f"{_where}[{i}]") for i, v in enumerate(config)]
    if isinstance(config, (set, frozenset)):
        if all(isinstance(v, str) for v in config) or all(
            isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in config
        ):
            return sorted(canonical(v, _where) for v in config)
        raise TypeError(f"{_where} is a set of mixed or unsortable values; give a list instead")
    if isinstance(config, (np.ndarray, np.floating)):
        raise TypeError(
            f"{_where} is a computed NumPy value ({type(config).__name__}), whose last bits may "
            "differ between machines; give the grid by its specification (LogGrid, or a list of "
            "decimal literals) instead"
        )
    raise TypeError(
        f"{_where} is a {type(config).__name__}, which has no machine-independent text form; "
        "describe it with strings, numbers, lists and dicts"
    )


def config_hash(config: Any) -> str:
    """A short hash of :func:`canonical` ``(config)``: the same on every machine and run."""
    text = json.dumps(canonical(config), sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def dataset_fingerprints(names: Sequence[str]) -> dict[str, dict[str, str]]:
    """``name -> {file: sha256}`` of the registry files behind each named dataset.

    Part of an experiment's specification: a changed data file changes the key.
    """
    return {str(n): dict(sorted(get_spec(n).sha256.items())) for n in names}


def _requested() -> tuple[bool, frozenset[str]]:
    value = os.environ.get("MLCBOOK_RECOMPUTE", "").strip()
    if value in ("", "0"):
        return False, frozenset()
    if value in ("1", "all"):
        return True, frozenset()
    return False, frozenset(v.strip() for v in value.split(",") if v.strip())


def recompute_requested(name: str | None = None) -> bool:
    """Whether the table ``name`` is to be recomputed.

    ``MLCBOOK_RECOMPUTE=1`` (``make reproduce``) asks for every table;
    ``MLCBOOK_RECOMPUTE=a,b`` (``make table NAME=a``) for the named ones.
    """
    everything, names = _requested()
    return everything or (name is not None and name in names)


def _machine() -> dict:
    """The platform and the SIMD features NumPy uses here (they decide last bits)."""
    try:
        from numpy._core._multiarray_umath import __cpu_features__
    except ImportError:  # NumPy < 2
        from numpy.core._multiarray_umath import __cpu_features__  # type: ignore[no-redef]
    features: dict[str, bool] = __cpu_features__
    wanted = ("SSE42", "AVX", "F16C", "FMA3", "AVX2", "AVX512F", "AVX512_SKX")
    return {
        "platform": platform.platform(),
        "numpy_simd": [f for f in wanted if features.get(f)],
        "openblas_coretype": os.environ.get("OPENBLAS_CORETYPE") or None,
    }


def package_versions(packages: Sequence[str]) -> dict[str, str | None]:
    """The installed version of each package, ``None`` for one that is not installed."""
    versions: dict[str, str | None] = {}
    for pkg in packages:
        try:
            versions[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            versions[pkg] = None
    return versions


def provenance(config: Any) -> dict:
    """Specification, its key, package versions, Python, machine, date, the making chapter."""
    versions = package_versions(_PACKAGES)
    return {
        "config": canonical(config),
        "config_hash": config_hash(config),
        "chapter": os.environ.get("MLCBOOK_CHAPTER") or None,
        "versions": versions,
        "python": platform.python_version(),
        "machine": _machine(),
        "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def check_table_name(name: Any) -> str:
    """A table name is a plain file stem: letters, digits, ``_ . -``, no path."""
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {type(name).__name__}")
    if not _NAME.match(name):
        raise ValueError(
            f"name must be a file stem of letters, digits, '_', '.', '-' (not starting with "
            f"'.' or '-'), got {name!r}"
        )
    return name


def _changed_keys(saved: Any, wanted: Any) -> list[str]:
    if not isinstance(saved, dict) or not isinstance(wanted, dict):
        return ["(whole configuration)"]
    keys = sorted(set(saved) | set(wanted))
    return [k for k in keys if saved.get(k, "<absent>") != wanted.get(k, "<absent>")]


def _how_to_recompute(name: str) -> str:
    return (
        f"recompute it with `make table NAME={name}` (or `make reproduce` for every table), "
        "then commit data/results/"
    )


def _installed(folder: Path) -> bool:
    """Whether ``folder`` is the copy of the committed tables an installed wheel carries
    (its reader is a student, not the book's maintainer)."""
    return not in_checkout() and folder == packaged_results()


def _wheel_name() -> str:
    try:
        release = metadata.version("mlcbook-repro")
    except metadata.PackageNotFoundError:  # pragma: no cover - mlcrepro without metadata
        release = "VERSION"
    return f"mlcbook_repro-{release}-py3-none-any.whl"


def _table_problem(csv: Path, name: str, problem: str) -> StaleResultError:
    """The error for a committed table that cannot be used: in the checkout it names the
    file and how the maintainer recomputes it; in an installed copy it names the table and
    what the reader installs (the wheel from the site's page "Get the code")."""
    if _installed(csv.parent):
        return StaleResultError(
            f"the book's result table {name!r} {problem} in this installation of the "
            f"reproduction (mlcrepro). Install the reproduction's wheel {_wheel_name()} "
            'from the book\'s page "Get the code" (`pip install --force-reinstall '
            f"{_wheel_name()}` in the folder where you saved it): it carries the book's "
            "result tables."
        )
    return StaleResultError(f"the committed table {csv} {problem}; " + _how_to_recompute(name))


def load_or_compute(
    name: str,
    compute: Callable[[], pd.DataFrame],
    config: Any,
    *,
    folder: str | Path | None = None,
) -> pd.DataFrame:
    """Load the committed table ``NAME``; compute it only when asked to.

    Parameters
    ----------
    name : str
        File stem under ``data/results/`` (no path separators).
    compute : callable
        Returns the table (a DataFrame); called only when recomputation is
        requested (:func:`recompute_requested`).
    config : specification
        Everything the result depends on (see :func:`canonical`); its key must
        equal the committed one.
    folder : path, optional
        Where the table lives (default ``data/results``).

    Raises
    ------
    StaleResultError
        The table is missing, or its provenance has another key — raised before
        any work, with the command that recomputes it.  Nothing is written.
    """
    name = check_table_name(name)
    if not callable(compute):
        raise TypeError(f"compute must be callable, got {type(compute).__name__}")
    key = config_hash(config)  # refuses a machine-dependent specification before any work
    folder = Path(folder) if folder is not None else results_dir()
    csv, meta = folder / f"{name}.csv", folder / f"{name}.json"
    installed = _installed(folder)
    if installed and recompute_requested(name):
        raise StaleResultError(
            f"recomputing the result table {name!r} needs the book's source (the source "
            'archive on the book\'s page "Get the code"), not the installed wheel, whose '
            "tables are read only"
        )
    if not installed:
        remove_stale_temporaries(folder, recursive=False)  # what a killed write left
    if recompute_requested(name):
        table = compute()
        if not isinstance(table, pd.DataFrame):
            raise TypeError(f"compute must return a pandas DataFrame, got {type(table).__name__}")
        data, record = table_record(name, table)  # checked before anything is written
        meta_obj = provenance(config)
        meta_obj["table"] = record
        text = json.dumps(meta_obj, indent=2, sort_keys=True, ensure_ascii=False)
        # provenance first: it names the CSV's hash, so a failure between the two
        # writes leaves a pair that fails to load instead of one that loads wrongly
        atomic_write_text(meta, text + "\n")
        with atomic_write(csv, "wb") as fh:
            fh.write(data)
        return _read_table(csv, record)
    if not csv.exists() or not meta.exists():
        if installed:
            raise _table_problem(csv, name, "is missing")
        raise StaleResultError(
            f"the result table {csv} (with {meta.name}) is missing; " + _how_to_recompute(name)
        )
    try:
        saved = json.loads(meta.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        if installed:
            raise _table_problem(csv, name, f"has an unreadable provenance ({err})") from err
        raise StaleResultError(f"cannot read {meta}: {err}; " + _how_to_recompute(name)) from err
    if not isinstance(saved, dict) or saved.get("config_hash") != key:
        changed = _changed_keys(
            saved.get("config") if isinstance(saved, dict) else None, canonical(config)
        )
        raise StaleResultError(
            f"the committed table {csv} was made from another configuration than this code "
            f"asks for (differing entries: {', '.join(changed) or 'none; the key scheme'}). "
            "It is not recomputed silently: " + _how_to_recompute(name)
        )
    committed: Any = saved.get("table")
    _check_bytes(csv, committed, name)
    if committed is None:  # provenance written before tables were hashed: as read then
        return read_csv_exact(csv)
    return _read_table(csv, committed)


def committed_table(name: str, *, folder: str | Path | None = None) -> pd.DataFrame:
    """The committed result table ``NAME``, read as it was written, by name alone.

    What a Learn chapter reads to draw a paper's figure from the reproduction's numbers:
    the table is checked against the hash its provenance records (a truncated, edited or
    conflicted file fails), but not against the configuration that made it: that check,
    and any recomputation, belong to the paper's Reproduce page
    (:func:`load_or_compute`).

    Parameters
    ----------
    name : str
        File stem under ``data/results/`` (no path separators).
    folder : path, optional
        Where the table lives (default: ``data/results`` in the book's checkout; the copy
        the reproduction's wheel carries, found by name, when installed from the wheel).

    Raises
    ------
    StaleResultError
        The table or its provenance is missing or does not match its recorded hash (in an
        installed copy, the message says which wheel to install).

    Examples
    --------
    >>> table = committed_table("knn_fig4")
    >>> sorted(table["dataset"].unique())[:2]
    ['birds', 'emotions']
    """
    name = check_table_name(name)
    folder = Path(folder) if folder is not None else results_dir()
    csv, meta = folder / f"{name}.csv", folder / f"{name}.json"
    if not csv.exists() or not meta.exists():
        if _installed(folder):
            raise _table_problem(csv, name, "is missing")
        raise StaleResultError(
            f"the result table {csv} (with {meta.name}) is missing; " + _how_to_recompute(name)
        )
    try:
        saved = json.loads(meta.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        if _installed(folder):
            raise _table_problem(csv, name, f"has an unreadable provenance ({err})") from err
        raise StaleResultError(f"cannot read {meta}: {err}; " + _how_to_recompute(name)) from err
    record = saved.get("table") if isinstance(saved, dict) else None
    _check_bytes(csv, record, name)
    if not isinstance(record, dict):
        return read_csv_exact(csv)
    return _read_table(csv, record)


# ------------------------------------------------------------------ table integrity
_LFS = b"version https://git-lfs.github.com/spec/"
_CONFLICT = re.compile(rb"^(<<<<<<<|=======|>>>>>>>)( |$)", re.MULTILINE)


def _check_bytes(csv: Path, record: Any, name: str) -> None:
    """The committed CSV is the one its provenance describes (hash), and in any case
    not a Git LFS pointer or a file with merge-conflict markers."""
    data = csv.read_bytes()
    problem = None
    if data.startswith(_LFS):
        problem = "is a Git LFS pointer, not the table (run `git lfs pull`)"
    elif _CONFLICT.search(data):
        problem = "holds merge-conflict markers"
    elif isinstance(record, dict) and "sha256" in record:
        digest = hashlib.sha256(data).hexdigest()
        if digest != record["sha256"]:
            problem = (
                f"differs from the table its provenance describes (sha256 {digest[:12]}... "
                f"instead of {str(record['sha256'])[:12]}...: truncated, edited or only "
                "half rewritten)"
            )
    if problem is not None:
        raise _table_problem(csv, name, problem)


def _read_table(csv: Path, record: dict) -> pd.DataFrame:
    table = parse_table(csv, record)
    if "rows" in record and table.shape[0] != record["rows"]:
        raise _table_problem(
            csv, csv.stem, f"has {table.shape[0]} rows, its provenance {record['rows']}"
        )
    return table
