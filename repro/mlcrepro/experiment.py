"""A committed result table and how it is rebuilt: the record each paper folder lists.

Every paper folder's ``experiments`` module lists its committed tables as
:class:`Experiment` records (``EXPERIMENTS``): the function that reads the table, the
runner specs whose cells make it, and how far a recomputed number may move from the
committed one.  ``make reproduce`` (:mod:`mlcrepro.reproduce`) rebuilds them all from
these records, and ``mlcrepro check ID --recompute`` the cells behind one ledger row.

A tolerance is one of

* a number: the largest absolute difference of every float column;
* a mapping ``column -> number`` (a column it does not name must be equal);
* a :class:`Tolerance`: a function of the committed table and a column giving each
  row's bound (for a long table whose rows hold different quantities, or a relative
  bound), with the sentence that justifies it.

The bounds themselves are measured and justified in :mod:`mlcrepro.tolerances`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from mlcrepro.results import check_table_name
from mlcrepro.runner import Cell, Spec

__all__ = ["Experiment", "Cells", "Tolerance", "relative", "by_column_value"]


@dataclass(frozen=True)
class Tolerance:
    """Per-row bounds of one column: ``bounds(committed, column) -> array``."""

    bounds: Callable[[pd.DataFrame, str], np.ndarray]
    why: str

    def __call__(self, committed: pd.DataFrame, column: str) -> np.ndarray:
        out = np.broadcast_to(
            np.asarray(self.bounds(committed, column), dtype=float), (len(committed),)
        )
        if not np.all(out >= 0):
            raise ValueError(f"tolerance bounds of {column!r} must be >= 0")
        return out


def relative(rtol: float, *, floor: float = 0.0) -> Tolerance:
    """Each value may move by ``rtol`` times its size (at least ``floor``).

    >>> t = relative(1e-9)
    >>> t(pd.DataFrame({"loss": [0.5, 2.0]}), "loss").tolist()
    [5e-10, 2e-09]
    """
    return Tolerance(
        lambda table, col: np.maximum(rtol * np.abs(table[col].to_numpy(dtype=float)), floor),
        f"relative {rtol:g}",
    )


def by_column_value(
    key: str, bounds: Mapping[str, float], *, default: float | None = None
) -> Tolerance:
    """The bound of a row is ``bounds[row[key]]`` (e.g. per measure of a long table).

    >>> t = by_column_value("measure", {"coverage": 3.7, "one_error": 0.093})
    >>> t(pd.DataFrame({"measure": ["coverage", "one_error"]}), "value").tolist()
    [3.7, 0.093]
    """

    def rows(table: pd.DataFrame, col: str) -> np.ndarray:
        names = table[key].astype(str)
        missing = sorted(set(names) - set(bounds)) if default is None else []
        if missing:
            raise ValueError(f"no tolerance for {key} {missing}")
        return np.array([bounds.get(n, default) for n in names], dtype=float)

    return Tolerance(rows, f"per {key}")


def _no_specs() -> tuple[Spec, ...]:
    return ()


ToleranceLike = float | Mapping[str, float] | Tolerance | Mapping[str, Tolerance | float]


@dataclass(frozen=True)
class Experiment:
    """A committed result table and how it is rebuilt.

    Parameters
    ----------
    name : str
        The table's file stem in ``data/results``.
    load : callable
        The function that reads the table through
        :func:`mlcrepro.results.load_or_compute` (not memoised: it is called again with
        the table's recomputation requested).
    specs : callable, optional
        The runner specs whose cells the table is made of; computed first, all tables'
        cells together.  A table made from other committed tables, or in seconds, has
        none.
    tolerance : number, mapping or Tolerance
        How far a recomputed number may move from the committed one (see the module).
    volatile : tuple of str
        Columns not compared: timings (CPU or wall seconds) and an optimiser's internals
        (iteration counts, how many inner fits converged), which :mod:`.tolerances`
        leaves out of every comparison.
    requires : tuple of str
        What a machine needs beyond the locked Python environment (``"java"``,
        ``"octave"``).
    after : tuple of str
        Tables that must be rebuilt before this one (it reads them).
    keys : tuple of str, optional
        The columns that say which row is which (a cell's coordinates and what tells
        its rows apart); default every column that is not a float and not volatile.
        ``mlcrepro check ID --recompute`` puts a recomputed cell's rows in the place of
        the committed rows with the same keys.
    quick : mapping, optional
        The table's sample for the quick tier (``mlcrepro reproduce --quick``,
        :mod:`mlcrepro.quick`): axis -> value (or tuple of values), selecting the cells
        of ``specs`` that are recomputed and compared with the committed rows.  One
        dataset and one seed, fold, split or replication, whichever axes the table has,
        chosen as the cheapest; every value of the other axes.  ``{}`` samples every
        cell (a table of one cell); a table without cells of its own has none.
    outside : callable, optional
        For a table whose numbers come from work outside the runner's cells (the
        authors' code under GNU Octave): returns what that work was, and its CPU and
        wall seconds, which the rebuild's report names beside the table.
    software : callable, optional
        For a table whose cells run other people's software: the software that does a
        cell's work, from the cell's name as the cells' log writes it (its coordinates
        joined by ``/``); the rebuild's report gives each one's share of the CPU seconds.

    Examples
    --------
    >>> e = Experiment("demo", load=lambda: pd.DataFrame(), tolerance={"v": 0.01})
    >>> e.bounds(pd.DataFrame({"v": [1.0, 2.0], "w": [0.0, 0.0]}), "w").tolist()
    [0.0, 0.0]
    """

    name: str
    load: Callable[[], pd.DataFrame]
    specs: Callable[[], Sequence[Spec]] = _no_specs
    tolerance: ToleranceLike = 0.0
    volatile: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    after: tuple[str, ...] = ()
    keys: tuple[str, ...] | None = None
    quick: Mapping[str, Any] | None = None
    outside: Callable[[], tuple[str, float, float]] | None = None
    software: Callable[[str], str] | None = None

    def __post_init__(self) -> None:
        check_table_name(self.name)
        if self.quick is not None and (
            not isinstance(self.quick, Mapping) or not all(isinstance(a, str) for a in self.quick)
        ):
            raise TypeError(f"quick must be a mapping axis -> value(s), got {self.quick!r}")
        for name in ("outside", "software"):
            value = getattr(self, name)
            if value is not None and not callable(value):
                raise TypeError(f"{name} must be callable, got {value!r}")
        for name in ("load", "specs"):
            if not callable(getattr(self, name)):
                raise TypeError(f"{name} must be callable, got {getattr(self, name)!r}")
        tols = (
            list(self.tolerance.values())
            if isinstance(self.tolerance, Mapping)
            else [self.tolerance]
        )
        for t in tols:
            if isinstance(t, Tolerance):
                continue
            if isinstance(t, bool) or not isinstance(t, (int, float)) or not t >= 0:
                raise ValueError(
                    f"tolerance must be a number >= 0, a Tolerance or a mapping of them, got {t!r}"
                )
        if self.keys is not None and (
            not isinstance(self.keys, tuple) or not all(isinstance(k, str) for k in self.keys)
        ):
            raise TypeError(f"keys must be a tuple of column names, got {self.keys!r}")
        for name in ("volatile", "requires", "after"):
            value = getattr(self, name)
            if not isinstance(value, tuple) or not all(isinstance(v, str) for v in value):
                raise TypeError(f"{name} must be a tuple of strings, got {value!r}")

    def bounds(self, committed: pd.DataFrame, column: str) -> np.ndarray:
        """Each row's bound for ``column`` of the committed table."""
        tol = self.tolerance
        if isinstance(tol, Mapping):
            tol = tol.get(column, 0.0)
        if isinstance(tol, Tolerance):
            return tol(committed, column)
        return np.full(len(committed), float(tol))

    def key_columns(self, table: pd.DataFrame) -> list[str]:
        """The columns of ``table`` that identify a row (see ``keys``)."""
        if self.keys is not None:
            missing = [k for k in self.keys if k not in table.columns]
            if missing:
                raise ValueError(f"{self.name}: the key columns {missing} are not in the table")
            return list(self.keys)
        return [
            c
            for c in table.columns
            if c not in self.volatile and not pd.api.types.is_float_dtype(table[c])
        ]


@dataclass(frozen=True)
class Cells:
    """The cells of one committed table behind a ledger row: those whose coordinates
    match ``where`` (an axis -> a value, or a tuple of values; an axis not named takes
    every value).

    >>> from mlcrepro.runner import Cell
    >>> sel = Cells("limo_benchmark", {"dataset": "bibtex", "method": ("LIMO", "BR")})
    >>> sel.selects(Cell((("dataset", "bibtex"), ("replication", 3), ("method", "BR"))))
    True
    >>> sel.selects(Cell((("dataset", "enron"), ("replication", 3), ("method", "BR"))))
    False
    """

    table: str
    where: Mapping[str, Any]

    def __post_init__(self) -> None:
        check_table_name(self.table)
        if not isinstance(self.where, Mapping):
            raise TypeError(f"where must be a mapping axis -> value(s), got {self.where!r}")

    def selects(self, cell: Cell) -> bool:
        coords = cell.as_dict()
        for axis, want in self.where.items():
            if axis not in coords:
                raise ValueError(f"{self.table}: its cells have no axis {axis!r}")
            values = want if isinstance(want, tuple) else (want,)
            if coords[axis] not in values:
                return False
        return True
