"""The one runner of the long experiments: a declarative spec -> cells -> a tidy table.

A :class:`Spec` names an experiment, the axes it crosses (datasets x methods x
splits x parameters, in that order or any other) and the function that computes
one cell.  :func:`run` computes every cell that is not already in the cache, in
parallel through joblib (so ``joblib.parallel_config(backend="dask")`` runs the
cells on a Dask cluster unchanged), writes each one to the cache as it arrives,
and returns the results in the spec's order; :func:`table` concatenates them into
one tidy DataFrame, which :func:`mlcrepro.results.load_or_compute` commits with its
provenance.

Cache
-----
One format for every experiment: a cell's result (a DataFrame, an array, or a
mapping of arrays) is stored as one NumPy ``.npz`` file (no pickles), under
``<cache>/<experiment>/<coordinates...>/<key>.npz`` where ``key`` is
:func:`mlcrepro.results.config_hash` of the cell's specification: the experiment's
name, the cell's coordinates, the parameters passed to the cell function, the
spec's shared identity (``key``, e.g. package versions), the cell's own
identity (``cell_key``, e.g. the checksum of its dataset) and the identity of the
code the cell runs (:func:`mlcrepro.code_identity.code_hash` of ``compute`` and of
the spec's ``code(cell)``, e.g. the cell's estimators: their first-party source and
what it names, docstrings and comments left out).  A change to any of them gives a
new file, so a re-run computes only the cells whose specification or code changed
(an edited estimator with the same name and parameters is not served its old
results), and an interrupted run resumes where it stopped.

Code identity is part of the cache key only, not of a committed table's
specification (:func:`mlcrepro.results.load_or_compute`).  The code hash is of the
source as one interpreter parses it (``ast.dump`` differs between Python
versions), so in a committed specification it would make every table stale on
another Python; and any edit of code the cells reach -- a docstring-free refactor,
new input validation, a moved helper -- would force recomputing tables that took
hours (``dependence_authors``) without changing a number.  Whether a committed
table still follows from the code is what the recompute tests check (marked
``recompute``: e.g. every learner of ``dependence_authors`` on flags, recomputed and
compared with the committed rows); a deliberate change of results is a change of
the specification (a parameter, a version, a protocol text).  Files are written by
the calling process with ``mlcbook.files.atomic_write`` (unique temporary names that
name their owner, so two processes sharing a cache never see half a file, and the
temporary file of a killed run is removed by the next run at once).  Each entry holds
its own key and the cell's specification (canonical JSON), and is served only under
that key: another cell's entry copied, renamed or restored to this cell's file name is
discarded.  A table reads back exactly as it was computed -- values, dtypes (pandas'
nullable ones included), column names (integers stay integers) and index -- or it is
not stored (a ``TypeError`` names the column).  An entry that cannot be read, that
belongs to another cell, or that the spec's ``check`` rejects, is discarded with a
``RuntimeWarning`` and recomputed.

The cache folder is ``data/cache/experiments`` (git-ignored);
``MLCBOOK_EXPERIMENT_CACHE`` points elsewhere, and so does ``MLCBOOK_CACHE_DIR``
(for the whole ``data/cache``).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import os
import re
import warnings
import zipfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from joblib import Parallel, delayed

from mlcbook.files import atomic_write, remove_stale_temporaries
from mlcbook.progress import progress
from mlcrepro._paths import cache_dir as _cache_root
from mlcrepro.code_identity import code_hash
from mlcrepro.results import canonical, check_table_name, config_hash, recompute_requested
from mlcrepro.table_csv import NULLABLE_DTYPES, STRING_DTYPES, has_default_index

__all__ = [
    "Cell",
    "Spec",
    "cells",
    "cell_key",
    "cell_path",
    "cell_spec",
    "default_cache_dir",
    "run",
    "table",
]

_PART = re.compile(r"[^A-Za-z0-9._-]+")
#: version of the cache file layout, part of every key: 2 stores the entry's key and
#: cell specification, the tables' dtypes, column names and index (1 did not)
_FORMAT = 2


def default_cache_dir() -> Path:
    """``data/cache/experiments`` (git-ignored); ``MLCBOOK_EXPERIMENT_CACHE`` overrides."""
    env = os.environ.get("MLCBOOK_EXPERIMENT_CACHE")
    return Path(env) if env else _cache_root() / "experiments"


@dataclass(frozen=True)
class Cell:
    """One point of a spec's grid: its coordinates, in the order of the axes."""

    coords: tuple[tuple[str, Any], ...]

    def __getitem__(self, axis: str) -> Any:
        for name, value in self.coords:
            if name == axis:
                return value
        raise KeyError(axis)

    def as_dict(self) -> dict[str, Any]:
        """``axis -> value``."""
        return dict(self.coords)

    def __str__(self) -> str:
        return "/".join(f"{v}" for _, v in self.coords)


def _nothing(cell: Cell) -> dict:
    return {}


@dataclass(frozen=True)
class Spec:
    """A declarative experiment: ``axes`` crossed into cells, one ``compute`` per cell.

    Parameters
    ----------
    name : str
        The experiment's name (a file stem: its cache folder, part of every key).
    compute : callable
        Called as ``compute(**cell.as_dict(), **params, **inputs(cell))``; returns a
        DataFrame, an ndarray, or a mapping ``str -> ndarray``.  A module-level
        function, so that joblib's process and Dask backends can ship it.
    axes : mapping ``str -> sequence``
        The grid, crossed in the order given (the first axis varies slowest).
    params : mapping
        Keyword arguments of ``compute``, the same for every cell, and part of every
        cell's key (they must have a machine-independent form,
        :func:`mlcrepro.results.canonical`).
    key : mapping
        Further identity shared by all cells (package versions, protocol text);
        not passed to ``compute``.
    cell_key : callable ``Cell -> mapping``
        Identity of one cell beyond its coordinates (e.g. the checksum of its
        dataset or the full configuration of its learner); not passed to ``compute``.
    inputs : callable ``Cell -> mapping``
        Further keyword arguments of ``compute`` that are not identity (arrays,
        estimators); whatever they depend on must be in ``cell_key``, and the code
        they run in ``code``.
    code : callable ``Cell -> iterable``, optional
        Functions, classes or instances (e.g. the cell's estimators) whose code the
        cell runs beyond ``compute`` and what ``compute`` names; their code hash is
        part of the cell's key.
    include : callable ``Cell -> bool``, optional
        Keep only the cells for which it is true (a grid that is not a full product).
    cost : callable ``Cell -> float``, optional
        Cells to compute are started cheapest first (an interrupted run then
        leaves whole cheap parts in the cache).
    check : callable ``(Cell, result) -> None``, optional
        Raises ``ValueError`` for a result that does not belong to the cell (e.g. a
        wrong shape); a cached entry it rejects is recomputed.
    table : str or tuple of str, optional
        The committed table(s) this experiment makes.  When ``make reproduce`` /
        ``make table NAME=...`` recomputes one of them, cached cells are not trusted (the code
        may have changed under the same specification) unless ``MLCBOOK_RESUME=1``
        says the cache was filled by the same, interrupted recomputation.
    """

    name: str
    compute: Callable[..., Any]
    axes: Mapping[str, Sequence[Any]]
    params: Mapping[str, Any] = field(default_factory=dict)
    key: Mapping[str, Any] = field(default_factory=dict)
    cell_key: Callable[[Cell], Mapping[str, Any]] = _nothing
    inputs: Callable[[Cell], Mapping[str, Any]] = _nothing
    code: Callable[[Cell], Iterable[Any]] | None = None
    include: Callable[[Cell], bool] | None = None
    cost: Callable[[Cell], float] | None = None
    check: Callable[[Cell, Any], None] | None = None
    table: str | tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        check_table_name(self.name)
        for t in (self.table,) if isinstance(self.table, str) else (self.table or ()):
            check_table_name(t)
        if not callable(self.compute):
            raise TypeError(f"compute must be callable, got {type(self.compute).__name__}")
        if not isinstance(self.axes, Mapping) or not self.axes:
            raise ValueError(f"axes must be a non-empty mapping axis -> values, got {self.axes!r}")
        for axis, values in self.axes.items():
            if not isinstance(axis, str) or not axis.isidentifier():
                raise ValueError(f"axes keys must be identifiers, got {axis!r}")
            if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
                raise TypeError(f"axes[{axis!r}] must be a sequence of values, got {values!r}")
        for name in ("params", "key"):
            if not isinstance(getattr(self, name), Mapping):
                raise TypeError(
                    f"{name} must be a mapping, got {type(getattr(self, name)).__name__}"
                )
        clash = set(self.axes) & set(self.params)
        if clash:
            raise ValueError(f"params repeat the axes {sorted(clash)}")
        for name in ("cell_key", "inputs", "code", "include", "cost", "check"):
            f = getattr(self, name)
            if f is not None and not callable(f):
                raise TypeError(f"{name} must be callable, got {type(f).__name__}")
        # a machine-dependent parameter is refused here, before any work
        config_hash({"params": self.params, "key": self.key})


def cells(spec: Spec) -> list[Cell]:
    """The spec's cells: the product of its axes (first axis slowest), filtered."""
    names = list(spec.axes)
    out = [
        Cell(tuple(zip(names, values)))
        for values in itertools.product(*(list(spec.axes[a]) for a in names))
    ]
    return [c for c in out if spec.include(c)] if spec.include is not None else out


def cell_spec(spec: Spec, cell: Cell) -> dict[str, Any]:
    """Everything one cell's result depends on, in canonical form (the key's text)."""
    return canonical(
        {
            "experiment": spec.name,
            "format": _FORMAT,
            "cell": cell.as_dict(),
            "params": dict(spec.params),
            "key": dict(spec.key),
            "cell_key": dict(spec.cell_key(cell)),
            "code": code_hash(spec.compute, *(spec.code(cell) if spec.code else ())),
        }
    )


def cell_key(spec: Spec, cell: Cell) -> str:
    """The hash of everything one cell's result depends on (:func:`cell_spec`)."""
    return config_hash(cell_spec(spec, cell))


def cell_path(spec: Spec, cell: Cell, folder: str | Path) -> Path:
    """Where the cell's result is cached: ``folder/name/<coordinates>/<key>.npz``."""
    parts = [_PART.sub("_", str(v)).strip("._") or "_" for _, v in cell.coords]
    return Path(folder, spec.name, *parts, f"{cell_key(spec, cell)}.npz")


# --------------------------------------------------------------------------- the format
def _encode_values(prefix: str, values: pd.Series | pd.Index, what: str) -> dict[str, np.ndarray]:
    """One column (or index level) as NumPy arrays that ``np.load`` reads without
    pickles: ``prefix`` (the values), ``prefix + ':dtype'`` and, for pandas' nullable and
    string dtypes, ``prefix + ':na'`` (the mask of missing values)."""
    dtype = values.dtype
    name = str(dtype)
    out: dict[str, np.ndarray] = {f"{prefix}:dtype": np.array(name)}
    if isinstance(dtype, np.dtype) and dtype.kind in "biufcmM":
        out[prefix] = values.to_numpy()
        return out
    if isinstance(dtype, np.dtype) and dtype.kind == "O":
        a = values.to_numpy(dtype=object)
        if not all(isinstance(v, str) for v in a):
            raise TypeError(
                f"{what} holds values other than numbers and strings; the cache stores no pickles"
            )
        out[prefix] = a.astype(str)
        return out
    if name in NULLABLE_DTYPES or name in STRING_DTYPES:
        na = np.asarray(values.isna(), dtype=bool)
        arr = values.array
        if name in STRING_DTYPES:
            filled = np.array(["" if m else str(v) for v, m in zip(arr, na)], dtype=str)
        else:
            filled = arr.to_numpy(dtype=arr.dtype.numpy_dtype, na_value=0)
        out[prefix], out[f"{prefix}:na"] = filled, na
        return out
    raise TypeError(
        f"{what} has dtype {name}, which the cache does not store (numbers, booleans, "
        "dates, text and pandas' nullable numbers are stored)"
    )


def _decode_values(f: Any, prefix: str) -> Any:
    name = str(f[f"{prefix}:dtype"])
    values = f[prefix]
    if name == "object":
        return values.astype(object)
    if name in NULLABLE_DTYPES or name in STRING_DTYPES:
        arr = pd.array(values.astype(object) if name in STRING_DTYPES else values, dtype=name)
        na = f[f"{prefix}:na"]
        if na.any():
            arr[na] = pd.NA
        return arr
    return values


def _names(names: Sequence[Any], what: str) -> np.ndarray:
    """Column or index names as JSON (strings, integers and None keep their type)."""
    for n in names:
        if isinstance(n, bool) or not (n is None or isinstance(n, (str, int, np.integer))):
            raise TypeError(
                f"{what} {n!r} ({type(n).__name__}) is not a string or an integer; the "
                "cache stores no pickles"
            )
    return np.array(json.dumps([n if n is None or isinstance(n, str) else int(n) for n in names]))


def _encode(result: Any) -> dict[str, np.ndarray]:
    if isinstance(result, pd.DataFrame):
        out = {
            "__kind__": np.array("table"),
            "__columns__": _names(list(result.columns), "a column name"),
        }
        for i, col in enumerate(result.columns):
            out.update(_encode_values(f"c{i}", result.iloc[:, i], f"column {col!r}"))
        index = result.index
        if not has_default_index(result):
            out["__index__"] = _names(list(index.names), "an index name")
            for j in range(index.nlevels):
                level = index.get_level_values(j)
                out.update(_encode_values(f"i{j}", level, f"index level {j}"))
        return out
    if isinstance(result, np.ndarray):
        if result.dtype.hasobject:
            raise TypeError("a cell's array holds Python objects; the cache stores no pickles")
        return {"__kind__": np.array("array"), "value": result}
    if isinstance(result, Mapping):
        out = {"__kind__": np.array("arrays")}
        for k, v in result.items():
            if not isinstance(k, str):
                raise TypeError(f"a cell's mapping has the key {k!r}; keys must be strings")
            a = np.asarray(v)
            if a.dtype.hasobject:
                raise TypeError(
                    f"a cell's array {k!r} holds Python objects; the cache stores no pickles"
                )
            out[f"a:{k}"] = a
        return out
    raise TypeError(
        "a cell must return a DataFrame, an ndarray or a mapping of arrays, "
        f"got {type(result).__name__}"
    )


def _check_result(result: Any) -> None:
    if not isinstance(result, (pd.DataFrame, np.ndarray, Mapping)):
        raise TypeError(
            "a cell must return a DataFrame, an ndarray or a mapping of arrays, "
            f"got {type(result).__name__}"
        )


def _decode(f: Any) -> Any:
    kind = str(f["__kind__"])
    files = f.files if hasattr(f, "files") else list(f)
    if kind == "table":
        names = json.loads(str(f["__columns__"]))
        frame = pd.DataFrame({i: _decode_values(f, f"c{i}") for i in range(len(names))})
        frame.columns = pd.Index(names) if names else pd.RangeIndex(0)
        if "__index__" in files:
            levels = json.loads(str(f["__index__"]))
            arrays = [_decode_values(f, f"i{j}") for j in range(len(levels))]
            frame.index = (
                pd.Index(arrays[0], name=levels[0])
                if len(levels) == 1
                else pd.MultiIndex.from_arrays(arrays, names=levels)
            )
        return frame
    if kind == "array":
        return f["value"]
    if kind == "arrays":
        return {k[2:]: f[k] for k in files if k.startswith("a:")}
    raise ValueError(f"unknown cache entry kind {kind!r}")


def _same(result: Any, back: Any) -> str | None:
    """None if ``back`` is ``result`` exactly, else what differs."""
    if isinstance(result, pd.DataFrame):
        try:
            pd.testing.assert_frame_equal(back, result, check_exact=True)
        except AssertionError as err:
            return " ".join(str(err).split())
        return None
    if isinstance(result, np.ndarray):
        result = {"value": result}
        back = {"value": back}
    for k, v in result.items():
        a, b = np.asarray(v), back[k]
        if (
            a.dtype != b.dtype
            or a.shape != b.shape
            or not np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")
        ):
            return f"array {k!r} reads back as another array"
    return None


def save(path: Path, result: Any, spec: Mapping[str, Any] | None = None) -> None:
    """Write one cell's result to ``path`` atomically, with its key (the file name's
    stem) and, when given, the cell's specification (:func:`cell_spec`).

    Raises
    ------
    TypeError
        The result would not read back exactly (a dtype the cache does not store, an
        object array, a column name that is not a string or an integer); nothing is
        written.
    """
    arrays: dict[str, Any] = _encode(result)
    problem = _same(result, _decode(arrays))
    if problem is not None:
        raise TypeError(f"a cell's result would not read back from the cache: {problem}")
    arrays["__key__"] = np.array(path.stem)
    if spec is not None:
        arrays["__spec__"] = np.array(json.dumps(spec, sort_keys=True))
    with atomic_write(path, "wb") as fh:
        np.savez_compressed(fh, **arrays)


def _check_owner(f: Any, path: Path) -> None:
    """The entry was written for this file's key (and its specification hashes to it)."""
    files = f.files if hasattr(f, "files") else list(f)
    if "__key__" not in files:
        raise ValueError("it names no key (written by another version of the runner)")
    key = str(f["__key__"])
    if key != path.stem:
        raise ValueError(f"it belongs to another cell (key {key}, not {path.stem})")
    if "__spec__" in files and config_hash(json.loads(str(f["__spec__"]))) != key:
        raise ValueError("its specification does not hash to its key")


def load(path: Path, check: Callable[[Any], None] | None = None) -> Any | None:
    """A cached result, or None; an unreadable entry, one written for another key, or
    one ``check`` rejects is removed with a warning."""
    if not path.exists():
        return None
    if not os.access(path, os.R_OK):  # not corrupt: someone else's entry, left in place
        raise PermissionError(
            13,
            f"cannot read the cache entry {path} (permission denied); it is not removed. "
            "Use a cache folder of your own (cache_dir=..., MLCBOOK_CACHE) or fix its "
            "permissions",
        )
    try:
        with np.load(path, allow_pickle=False) as f:
            _check_owner(f, path)
            result = _decode(f)
        if check is not None:
            check(result)
        return result
    except (OSError, KeyError, ValueError, TypeError, EOFError, zipfile.BadZipFile) as err:
        warnings.warn(
            f"discarding the corrupt cache entry {path} ({err}); it is recomputed",
            RuntimeWarning,
            stacklevel=3,
        )
        with contextlib.suppress(OSError):
            path.unlink()
        return None


# --------------------------------------------------------------------------- running
def _call(compute: Callable[..., Any], kwargs: dict[str, Any]) -> Any:
    return compute(**kwargs)


def _folder(cache_dir: str | Path | bool | None) -> Path | None:
    if cache_dir is False:
        return None
    if cache_dir is None or cache_dir is True:
        return default_cache_dir()
    if isinstance(cache_dir, (str, os.PathLike)):
        return Path(cache_dir)
    raise TypeError(
        f"cache_dir must be a path, True/None (default folder) or False, got {cache_dir!r}"
    )


def _check_writable(folder: Path) -> None:
    """Raise OSError now if results cannot be written under ``folder``; remove the
    temporary files of writes that a killed run left there more than an hour ago."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with atomic_write(folder / ".write-test", "wb") as fh:
            fh.write(b"")
        (folder / ".write-test").unlink()
    except OSError as err:
        raise OSError(
            err.errno,
            f"the result cache {folder} is not writable ({err.strerror or err}); nothing "
            "was computed. Choose another folder (cache_dir=..., MLCBOOK_CACHE) or "
            "cache_dir=False",
        ) from err
    remove_stale_temporaries(folder)


def _trusted(spec: Spec, resume: bool | None) -> bool:
    if resume is not None:
        return bool(resume)
    names = (spec.table,) if isinstance(spec.table, str) else (spec.table or ())
    if not any(recompute_requested(t) for t in names):
        return True
    return os.environ.get("MLCBOOK_RESUME") == "1"


def iter_results(
    spec: Spec,
    *,
    n_jobs: int = 1,
    cache_dir: str | Path | bool | None = None,
    resume: bool | None = None,
    desc: str | None = None,
) -> Iterator[tuple[Cell, Any]]:
    """``(cell, result)`` for the cached cells, then for the others as they finish."""
    if not isinstance(spec, Spec):
        raise TypeError(f"spec must be a Spec, got {type(spec).__name__}")
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs == 0:
        raise ValueError(f"n_jobs must be a non-zero int (-1: all cores), got {n_jobs!r}")
    folder = _folder(cache_dir)
    read = folder is not None and _trusted(spec, resume)
    todo: list[tuple[Cell, Path | None]] = []
    check_cell, cost = spec.check, spec.cost
    for c in cells(spec):
        path = cell_path(spec, c, folder) if folder is not None else None
        check = None if check_cell is None else functools.partial(check_cell, c)
        got = load(path, check) if read and path is not None else None
        if got is not None:
            yield c, got
        else:
            todo.append((c, path))
    if not todo:
        return
    if folder is not None:  # before any work: a cache that cannot take the results
        _check_writable(folder / spec.name)
    if cost is not None:
        todo.sort(key=lambda cp: cost(cp[0]))  # stable: ties keep the spec's order
    jobs = (
        delayed(_call)(spec.compute, {**c.as_dict(), **spec.params, **spec.inputs(c)})
        for c, _ in todo
    )
    results = Parallel(n_jobs=int(n_jobs), return_as="generator")(jobs)
    for (c, path), result in progress(zip(todo, results), desc=desc or spec.name, total=len(todo)):
        _check_result(result)
        if check_cell is not None:
            check_cell(c, result)
        if path is not None:
            save(path, result, cell_spec(spec, c))
        yield c, result


def run(
    spec: Spec,
    *,
    n_jobs: int = 1,
    cache_dir: str | Path | bool | None = None,
    resume: bool | None = None,
    desc: str | None = None,
) -> dict[Cell, Any]:
    """Every cell's result, in the spec's order, computing only what the cache lacks.

    Parameters
    ----------
    spec : Spec
    n_jobs : int
        joblib workers for the cells to compute (the active
        ``joblib.parallel_config`` backend is used, e.g. ``"dask"``).
    cache_dir : path, True/None (the default folder) or False (no cache)
    resume : bool, optional
        Read the cache (default: yes, except while the spec's committed ``table`` is
        being recomputed without ``MLCBOOK_RESUME=1``).  Results are always written.
    desc : str, optional
        Label of the progress bar (default: the spec's name).

    Returns
    -------
    dict ``Cell -> result``
    """
    got = dict(iter_results(spec, n_jobs=n_jobs, cache_dir=cache_dir, resume=resume, desc=desc))
    return {c: got[c] for c in cells(spec)}


def table(spec: Spec, **kwargs: Any) -> pd.DataFrame:
    """:func:`run`, with the cells' DataFrames concatenated in the spec's order."""
    frames = list(run(spec, **kwargs).values())
    if not all(isinstance(f, pd.DataFrame) for f in frames):
        raise TypeError(f"the cells of {spec.name!r} do not all return DataFrames")
    return pd.concat(frames, ignore_index=True)
