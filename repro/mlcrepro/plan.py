"""What ``mlcrepro reproduce`` would compute, and how long it would take, before it runs.

``mlcrepro reproduce --plan [--workers N] [NAME ...]`` prints, per table: its cells, how
many are in the reproduction's cache already, their CPU seconds as measured, and the
expected wall time of the rest on ``N`` workers; then the same for all tables together
(a cell shared by two tables counted once).  A measurement comes from the table's
provenance (what the last reproduction that wrote it recorded,
:func:`mlcrepro.timing.add_timing`), else from the cache's log of cells
(:data:`mlcrepro.timing.CPU_LOG`); a cell measured nowhere is said to be, and its time is
never guessed.  The expected wall time is the measured CPU seconds of the cells still to
compute shared out over the workers, and at least the longest of them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from mlcrepro._paths import results_dir
from mlcrepro.experiment import Cells, Experiment
from mlcrepro.runner import cell_path, cells
from mlcrepro.timing import log_entries

__all__ = ["TablePlan", "plan", "plan_text"]


def _cells(n: int) -> str:
    return f"{n} cell" if n == 1 else f"{n} cells"


@dataclass(frozen=True)
class TablePlan:
    """What a reproduction of one table (or of all: ``name`` ``"all tables"``, each cell
    counted once) would compute, from what has been measured before anything runs.

    ``cpu_seconds`` sums the measured CPU seconds of the ``measured`` cells (of all
    ``cells``); ``todo_cpu`` those of the cells not in the cache, of which
    ``todo_unmeasured`` have no measurement; ``longest`` is the longest measured cell
    still to compute; ``sources`` where the measurements come from (``"provenance"``,
    ``"cache log"``).
    """

    name: str
    cells: int
    cached: int
    measured: int
    cpu_seconds: float
    todo_cpu: float
    todo_unmeasured: int
    longest: float
    sources: tuple[str, ...] = ()

    def wall(self, workers: int) -> float:
        """The expected wall seconds of the cells still to compute on ``workers``
        workers: their measured CPU seconds shared out, at least the longest cell.

        >>> TablePlan("t", 4, 1, 4, 10.0, 9.0, 0, 5.0).wall(2)
        5.0
        >>> TablePlan("t", 4, 1, 4, 10.0, 9.0, 0, 2.0).wall(2)
        4.5
        """
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ValueError(f"workers must be an int >= 1, got {workers!r}")
        return max(self.todo_cpu / workers, self.longest)


def _provenance_seconds(name: str, folder: Path) -> dict[str, float]:
    """``"experiment:cell" -> CPU seconds`` that the provenance of table ``name`` records
    ({} when it records none)."""
    try:
        record = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    spent = record.get("cpu_seconds") if isinstance(record, dict) else None
    per_cell = spent.get("cells") if isinstance(spent, dict) else None
    return {str(k): float(v) for k, v in per_cell.items()} if isinstance(per_cell, dict) else {}


def _summarise(name: str, cells_: Mapping[Path, tuple[bool, float | None, str]]) -> TablePlan:
    todo = [(cpu, src) for cached, cpu, src in cells_.values() if not cached]
    measured = [cpu for _, cpu, _ in cells_.values() if cpu is not None]
    todo_measured = [cpu for cpu, _ in todo if cpu is not None]
    sources = tuple(sorted({src for _, cpu, src in cells_.values() if cpu is not None}))
    return TablePlan(
        name,
        cells=len(cells_),
        cached=sum(cached for cached, _, _ in cells_.values()),
        measured=len(measured),
        cpu_seconds=float(sum(measured)),
        todo_cpu=float(sum(todo_measured)),
        todo_unmeasured=len(todo) - len(todo_measured),
        longest=float(max(todo_measured, default=0.0)),
        sources=sources,
    )


def plan(
    experiments: Sequence[Experiment],
    cache_dir: str | Path,
    *,
    fresh: bool = False,
    results: str | Path | None = None,
    quick: bool = False,
) -> tuple[list[TablePlan], TablePlan]:
    """What :func:`reproduce` would compute, before anything runs.

    For each table, its cells, how many are in ``cache_dir`` already (a file under the
    cell's current key; with ``fresh`` none, as after ``--fresh``), and each cell's CPU
    seconds as measured: from the table's provenance (``cpu_seconds`` of the last
    reproduction that wrote it), else from the cells' log in ``cache_dir`` (its current
    key, else the last entry of the same experiment and cell: last measured under other
    code).  A cell measured nowhere is counted as not measured, never guessed.  Nothing
    is computed or written.

    Parameters
    ----------
    experiments : sequence of Experiment
    cache_dir : path
        The reproduction's cache of cells (with its log, :data:`CPU_LOG`).
    fresh : bool
        Plan a cold run: no cell counts as cached (the cache is not touched).
    results : path, optional
        The committed tables' folder (default ``data/results``).
    quick : bool
        Plan the quick tier instead (:mod:`mlcrepro.quick`): only each table's declared
        sample of cells (``quick`` of its Experiment; none for a table without one), all
        computed afresh (none counts as cached).

    Returns
    -------
    (list of TablePlan, TablePlan)
        One per table, in the order given, and the total over all of them, each cell
        counted once (tables can share cells).
    """
    cache = Path(cache_dir)
    folder = Path(results) if results is not None else results_dir()
    by_key: dict[str, float] = {}
    by_name: dict[tuple[str, str], float] = {}
    for entry in log_entries(cache):
        if entry.get("cpu_seconds") is None:
            continue
        by_key[str(entry.get("key"))] = float(entry["cpu_seconds"])
        by_name[(str(entry.get("experiment")), str(entry.get("cell")))] = float(
            entry["cpu_seconds"]
        )
    everything: dict[Path, tuple[bool, float | None, str]] = {}
    tables = []
    for e in experiments:
        recorded = _provenance_seconds(e.name, folder)
        mine: dict[Path, tuple[bool, float | None, str]] = {}
        for spec in e.specs():
            for c in cells(spec):
                if quick and (e.quick is None or not Cells(e.name, e.quick).selects(c)):
                    continue
                path = cell_path(spec, c, cache)
                name = f"{spec.name}:{c}"
                cached = not (fresh or quick) and path.exists()
                if name in recorded:
                    mine[path] = (cached, recorded[name], "provenance")
                elif path.stem in by_key:
                    mine[path] = (cached, by_key[path.stem], "cache log")
                elif (spec.name, str(c)) in by_name:
                    mine[path] = (cached, by_name[(spec.name, str(c))], "cache log")
                else:
                    mine[path] = (cached, None, "")
        tables.append(_summarise(e.name, mine))
        for path, value in mine.items():
            if path not in everything or everything[path][1] is None:
                everything[path] = value
    return tables, _summarise("all tables", everything)


def _seconds(s: float) -> str:
    return f"{s:,.0f} s" if s >= 100 else f"{s:.1f} s"


def plan_text(tables: Sequence[TablePlan], total: TablePlan, workers: int) -> str:
    """The plan as a plain-text table: per table its cells, those cached, the measured
    CPU seconds and the expected wall time of the rest on ``workers`` workers.

    >>> t = TablePlan("toy", 6, 2, 6, 12.0, 8.0, 0, 3.0, ("cache log",))
    >>> print(plan_text([t], t, 2).splitlines()[2])
    toy            6       2  12.0 s (cache log)  4.0 s
    """
    rows = [("table", "cells", "cached", "CPU measured", f"expected wall, {workers} workers")]
    for t in (*tables, total):
        if not t.cells:
            measured, wall = "no cells of its own", "-"
        else:
            if not t.measured:
                measured = "not measured"
            else:
                part = "" if t.measured == t.cells else f", {t.measured} of {t.cells} cells"
                measured = f"{_seconds(t.cpu_seconds)} ({', '.join(t.sources)}{part})"
            todo = t.cells - t.cached
            if not todo:
                wall = "0 s (all cached)"
            elif t.todo_unmeasured == todo:
                wall = f"unknown ({_cells(todo)} not measured)"
            elif t.todo_unmeasured:
                wall = f">= {_seconds(t.wall(workers))} ({_cells(t.todo_unmeasured)} not measured)"
            else:
                wall = _seconds(t.wall(workers))
        rows.append((t.name, str(t.cells), str(t.cached), measured, wall))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = []
    for i, r in enumerate(rows):
        if i == len(rows) - 1:
            lines.append("-" * (sum(widths) + 8 + len(rows[0][4])))
        lines.append(
            f"{r[0]:<{widths[0]}}  {r[1]:>{widths[1]}}  {r[2]:>{widths[2]}}  "
            f"{r[3]:<{widths[3]}}  {r[4]}".rstrip()
        )
        if i == 0:
            lines.append("-" * len(lines[0]))
    return "\n".join(lines) + "\n"
