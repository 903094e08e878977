"""Rebuild every committed result table from scratch, and say how far it moved.

``make reproduce`` (``mlcrepro reproduce``) recomputes the committed tables of
``data/results`` through the one runner:

1. **Cells.** The cells of every table's runner specs (:class:`Experiment`) are computed
   in one pass under one progress display (cells done of total, time left), on a
   dask.distributed cluster: the one at ``scheduler`` (``DASK_SCHEDULER``) when given,
   else a ``LocalCluster`` of the machine's cores.  Each cell goes to the reproduction's
   own cache (``data/cache/reproduce`` unless ``cache_dir`` says otherwise) as it
   finishes, with the CPU and wall seconds it used (:mod:`mlcrepro.timing`), so a run
   that is killed resumes where it stopped.
2. **Tables.** Each table is then assembled from those cells by its own code (the
   function that reads it, :func:`mlcrepro.results.load_or_compute`, asked to recompute
   it), into a staging copy of ``data/results``; its provenance gains the CPU and wall
   seconds of its cells (``cpu_seconds``, ``wall_seconds``).
3. **Report.** Each recomputed table is compared with the committed one: the largest
   absolute difference of its numbers (timing columns aside) against the table's
   tolerance, and whether its text and integer columns are equal.
   :func:`report_markdown` writes it.

The staged tables replace the committed ones only through :func:`write_tables`.

CPU seconds are those of the worker process that computed the cell and of the child
processes it waited for (``resource.getrusage``); a long-lived helper process
(Weka's JVM server) is not counted here, which is why the learner study's cells also
record their own CPU time in their rows.  ``mlcrepro reproduce --plan``
(:mod:`mlcrepro.plan`) says what a run would compute, and ``--quick``
(:mod:`mlcrepro.quick`) recomputes a declared sample of every table's cells.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from joblib import Parallel, delayed

from mlcbook.progress import progress
from mlcrepro._paths import cache_dir as _cache_root
from mlcrepro._paths import results_dir
from mlcrepro.experiment import Experiment
from mlcrepro.papers import experiments as paper_experiments
from mlcrepro.results import committed_table
from mlcrepro.runner import Cell, Spec, cell_path, cell_spec, cells, load, save
from mlcrepro.timing import (
    CPU_LOG,
    add_timing,
    by_software,
    cpu_seconds,
    helper_cpu_seconds,
    log_line,
    timed,
    wall_seconds,
)

__all__ = [
    "Comparison",
    "CPU_LOG",
    "EXPERIMENTS",
    "LOCAL_CLUSTER_CONFIG",
    "local_workers",
    "as_finished",
    "cluster",
    "environment",
    "experiments",
    "compute_cells",
    "compare_tables",
    "reproduce",
    "write_tables",
]

#: every committed table of the book, paper by paper (the folders' ``EXPERIMENTS``)
EXPERIMENTS: tuple[Experiment, ...] = paper_experiments()


def experiments(names: Sequence[str] = ()) -> list[Experiment]:
    """The experiments of the committed tables ``names`` (all when empty), checked
    before any work: an unknown name is refused with the known ones."""
    if isinstance(names, str):
        names = [names]
    known = {e.name: e for e in EXPERIMENTS}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"no committed table is called {unknown}; the tables: {sorted(known)}")
    return [known[n] for n in names] if names else list(EXPERIMENTS)


# --------------------------------------------------------------------------- the cluster
@contextlib.contextmanager
def cluster(scheduler: str | None = None, n_workers: int | None = None) -> Iterator[Any]:
    """Run the cells (:func:`as_finished`) and joblib's work on a dask.distributed cluster
    inside the ``with`` block.

    Parameters
    ----------
    scheduler : str, optional
        The address of a running scheduler (``"tcp://host:8786"``); default the
        environment variable ``DASK_SCHEDULER``, and without it a ``LocalCluster`` of
        ``n_workers`` worker processes (default: the machine's cores), one thread each.
    n_workers : int, optional
        Worker processes of the local cluster.

    Yields
    ------
    distributed.Client
    """
    import dask
    import joblib
    from distributed import Client, LocalCluster

    address = scheduler or os.environ.get("DASK_SCHEDULER") or None
    if address is not None and (not isinstance(address, str) or "://" not in address):
        raise ValueError(
            f"scheduler must be an address such as 'tcp://host:8786', got {address!r}"
        )
    with contextlib.ExitStack() as stack:
        if address is None:
            # a run paused for a while (SIGSTOP, a suspended machine) keeps its workers and
            # their cells: no restart for missed heartbeats (a worker that dies closes its
            # connection, which the scheduler sees at once), and a cell is given up only
            # after 10 workers died running it (LOCAL_CLUSTER_CONFIG)
            stack.enter_context(dask.config.set(LOCAL_CLUSTER_CONFIG))
            workers = n_workers or os.cpu_count() or 1
            local = stack.enter_context(
                LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                )
            )
            client = stack.enter_context(Client(local))
        else:
            client = stack.enter_context(Client(address, timeout="30s"))
        stack.enter_context(joblib.parallel_config(backend="dask"))
        _CLIENTS.append(client)
        try:
            yield client
        finally:
            _CLIENTS.remove(client)


def local_workers(n_workers: int | None, cells: int) -> int:
    """Worker processes of a local cluster for ``cells`` cells: ``n_workers`` (default
    the machine's cores), no more than the cells.

    >>> local_workers(4, 1), local_workers(2, 10)
    (1, 2)
    """
    return max(1, min(n_workers or os.cpu_count() or 1, cells))


#: dask's settings for the local cluster of :func:`cluster`: no heartbeat deadline, and
#: a cell given up after this many workers died running it (dask's default is 3)
LOCAL_CLUSTER_CONFIG = {
    "distributed.scheduler.worker-ttl": None,
    "distributed.scheduler.allowed-failures": 10,
}

#: the clients of the :func:`cluster` blocks the program is in, the innermost last
_CLIENTS: list[Any] = []


def as_finished(jobs: Iterator[Any], n_jobs: int = -1) -> Iterator[Any]:
    """The results of joblib ``delayed`` calls, each as soon as it is computed.

    Inside :func:`cluster` each call is a dask task on the cluster's workers (twice as
    many in flight as they have threads): a lost worker's tasks go to the others, and a
    cluster of one worker thread is used too (joblib's dask backend would run every
    call in this process).  Elsewhere joblib's active backend runs them (``n_jobs``).

    >>> sorted(as_finished((delayed(pow)(2, k) for k in range(4)), n_jobs=1))
    [1, 2, 4, 8]
    """
    if not _CLIENTS:
        yield from Parallel(n_jobs=n_jobs, return_as="generator_unordered")(jobs)
        return
    from distributed import as_completed

    client = _CLIENTS[-1]
    running = as_completed()

    def fill() -> None:
        limit = 2 * max(1, sum(client.nthreads().values()))
        while running.count() < limit:
            job = next(jobs, None)
            if job is None:
                return
            f, args, kwargs = job
            running.add(client.submit(f, *args, pure=False, **kwargs))

    fill()
    for task in running:
        result = task.result()
        fill()
        yield result


# --------------------------------------------------------------------------- the cells
def compute_cells(
    specs: Sequence[Spec],
    cache_dir: str | Path,
    *,
    n_jobs: int = -1,
    desc: str = "cells",
    select: Callable[[Spec, Cell], bool] | None = None,
    workers: Callable[[int], contextlib.AbstractContextManager[Any]] | None = None,
) -> dict[tuple[str, str], float]:
    """Compute every cell of ``specs`` that ``cache_dir`` lacks, under one progress bar.

    ``select``, when given, keeps only the cells for which it is true.  ``workers``,
    when given, is entered around the computation only when some cell is left, with
    the number of those cells (``lambda n: cluster(scheduler, local_workers(k, n))``):
    a resumed run with nothing left starts no worker.

    Cells run through :func:`as_finished` (dask tasks on the workers inside
    :func:`cluster`, else joblib's active backend); each result is saved by this process
    as it arrives, and its CPU seconds appended to ``cache_dir/cpu_seconds.jsonl``.

    Returns
    -------
    dict
        ``(experiment, cell) -> CPU seconds`` of every cell of ``specs`` that the log
        knows (this run's and earlier runs' into the same folder).
    """
    folder = Path(cache_dir)
    folder.mkdir(parents=True, exist_ok=True)
    todo: list[tuple[Spec, Cell, Path]] = []
    seen: set[Path] = set()
    for spec in specs:
        for c in cells(spec):
            if select is not None and not select(spec, c):
                continue
            path = cell_path(spec, c, folder)
            if path in seen:
                continue
            seen.add(path)
            check = None if spec.check is None else (lambda r, s=spec, c=c: s.check(c, r))
            if load(path, check) is None:
                todo.append((spec, c, path))
    log = folder / CPU_LOG
    if todo:
        with workers(len(todo)) if workers is not None else contextlib.nullcontext():
            _compute(todo, log, n_jobs, desc)
    return cpu_seconds(folder, specs, select)


def _compute(todo: Sequence[tuple[Spec, Cell, Path]], log: Path, n_jobs: int, desc: str) -> None:
    """Compute ``todo``'s cells, saving each result and logging its times as it arrives."""
    jobs = (
        delayed(timed)(i, s.compute, {**c.as_dict(), **s.params, **s.inputs(c)})
        for i, (s, c, _) in enumerate(todo)
    )
    # results as they finish, so that each is saved (and a kill loses little)
    results = as_finished(jobs, n_jobs)
    with log.open("a", encoding="utf-8") as fh:
        for i, result, cpu, wall, helper in progress(results, desc=desc, total=len(todo)):
            s, c, path = todo[i]
            if s.check is not None:
                s.check(c, result)
            # the time first: a kill between the two recomputes the cell and logs
            # it again, and the last line of a cell is the one read
            fh.write(log_line(s, c, path, cpu, wall, helper))
            fh.flush()
            save(path, result, cell_spec(s, c))


# --------------------------------------------------------------------------- comparing
@dataclass(frozen=True)
class Comparison:
    """How a recomputed table compares with the committed one."""

    name: str
    rows: int
    largest: float
    column: str
    bound: float
    within: bool
    problem: str = ""
    volatile: tuple[str, ...] = field(default_factory=tuple)

    #: no committed table to compare with: the table is new (``make table`` made it)
    new: bool = False

    @classmethod
    def refused(cls, name: str, rows: int, problem: str, column: str = "") -> Comparison:
        """A table that cannot be within tolerance: ``problem`` says why."""
        return cls(name, rows, np.inf, column, 0.0, False, problem)

    @classmethod
    def first(cls, name: str, rows: int) -> Comparison:
        """A table with nothing committed to compare with (its first computation)."""
        return cls(name, rows, 0.0, "", 0.0, True, new=True)


def _shape_problem(committed: pd.DataFrame, recomputed: pd.DataFrame) -> str:
    """Why two tables cannot be compared cell by cell ('' when they can)."""
    if list(committed.columns) != list(recomputed.columns):
        return f"columns differ: {list(committed.columns)} vs {list(recomputed.columns)}"
    if len(committed) != len(recomputed):
        return f"{len(recomputed)} rows instead of {len(committed)}"
    return ""


def _numeric(column: pd.Series) -> bool:
    """An integer or float column (not boolean)."""
    return pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column)


def compare_tables(
    committed: pd.DataFrame, recomputed: pd.DataFrame, experiment: Experiment
) -> Comparison:
    """Compare a recomputed table with the committed one, cell by cell.

    Text, integer and boolean columns must be equal; float columns (or an integer column
    whose other side is float: a whole number read back from a file) may differ by the
    experiment's tolerance of each row
    (:meth:`~mlcrepro.experiment.Experiment.bounds`); ``volatile`` columns are not
    compared.  The tables must have the same columns and rows in the same order
    (a table is its cells' rows in the spec's order).  ``largest`` is the largest
    difference, or where the tolerance is exceeded the difference that exceeds it most,
    with its row's ``bound``.

    Examples
    --------
    >>> exp = Experiment("t", load=lambda: pd.DataFrame(), tolerance=0.01)
    >>> a = pd.DataFrame({"d": ["x", "y"], "v": [0.5, 0.25]})
    >>> c = compare_tables(a, a.assign(v=[0.505, 0.25]), exp)
    >>> round(c.largest, 6), c.column, c.within
    (0.005, 'v', True)
    >>> compare_tables(a, a.assign(d=["x", "z"]), exp).problem
    "column 'd' differs in 1 of 2 rows (first: row 1, 'y' -> 'z')"
    >>> b = pd.DataFrame({"k": [1, 2], "v": [0.5, 0.25], "w": [0.0, 0.0]})
    >>> c = compare_tables(b, b.assign(k=[1.0, 2.0], v=[0.5, 0.2], w=[0.009, 0.0]), exp)
    >>> c.within, c.column, round(c.largest, 6)
    (False, 'v', 0.05)
    """
    name = experiment.name
    volatile = tuple(c for c in experiment.volatile if c in committed.columns)
    problem = _shape_problem(committed, recomputed)
    if problem:
        return Comparison.refused(name, len(recomputed), problem)
    largest, where, bound, within = 0.0, "", 0.0, True
    worst_excess = -np.inf
    for col in committed.columns:
        if col in volatile:
            continue
        a, b = committed[col], recomputed[col]
        floats = pd.api.types.is_float_dtype(a) or pd.api.types.is_float_dtype(b)
        if _numeric(a) and _numeric(b) and floats:
            x, y = a.to_numpy(dtype=float), b.to_numpy(dtype=float)
            same_nan = np.isnan(x) == np.isnan(y)
            if not same_nan.all():
                i = int(np.flatnonzero(~same_nan)[0])
                return Comparison(
                    name,
                    len(b),
                    np.inf,
                    str(col),
                    0.0,
                    False,
                    f"column {col!r}: a missing value on one side only (row {i})",
                )
            if not len(x):
                continue
            diff = np.abs(np.where(np.isnan(x), 0.0, x - y))
            bounds = experiment.bounds(committed, str(col))
            i = int(np.argmax(diff))
            if within and (diff[i] > largest or not where):  # outside: the worst excess
                largest, where, bound = float(diff[i]), str(col), float(bounds[i])
            excess = diff - bounds
            if excess.max() > 0:
                within = False
                if excess.max() > worst_excess:
                    j = int(np.argmax(excess))
                    worst_excess = float(excess.max())
                    largest, where, bound = float(diff[j]), str(col), float(bounds[j])
        else:
            differ = a.astype(str).to_numpy() != b.astype(str).to_numpy()
            if differ.any():
                i = int(np.flatnonzero(differ)[0])
                return Comparison.refused(
                    name,
                    len(b),
                    f"column {col!r} differs in {int(differ.sum())} of {len(b)} rows "
                    f"(first: row {i}, {a.iloc[i]!r} -> {b.iloc[i]!r})",
                    column=str(col),
                )
    return Comparison(name, len(recomputed), largest, where, bound, within, "", volatile)


# --------------------------------------------------------------------------- reproducing
@contextlib.contextmanager
def environment(**values: str) -> Iterator[None]:
    """Set environment variables inside the ``with`` block, and restore them after.

    >>> import os
    >>> with environment(MLCBOOK_PROGRESS="0"):
    ...     os.environ["MLCBOOK_PROGRESS"]
    '0'
    """
    old = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _order(experiments: Sequence[Experiment]) -> list[Experiment]:
    by_name = {e.name: e for e in experiments}
    done: list[Experiment] = []
    placed: set[str] = set()

    def place(e: Experiment, path: tuple[str, ...]) -> None:
        if e.name in placed:
            return
        if e.name in path:
            raise ValueError(f"the tables {' -> '.join((*path, e.name))} read each other")
        for before in e.after:
            if before in by_name:
                place(by_name[before], (*path, e.name))
        placed.add(e.name)
        done.append(e)

    for e in experiments:
        place(e, ())
    return done


@dataclass(frozen=True)
class TableReport:
    """One table of a reproduction: its cells, their CPU time, and its comparison.

    ``wall_seconds`` is the time the table took to assemble from its cells;
    ``cell_wall_seconds`` the cells' own wall seconds added up, None when some cell's
    were not recorded (a cell logged before wall time was).  ``helper_not_logged``
    counts the cells, of a table whose cells use a helper process (Weka's JVM server),
    logged before the helper's CPU time was: their CPU seconds leave it out.
    ``helper_cpu_seconds`` is the part of ``cpu_seconds`` that the helper spent (the
    J48 fits in Weka's code, not ours).  ``cpu_by_software``: the CPU seconds of the
    cells by the software that did their work (``Experiment.software``), largest first.
    ``outside`` is what the table's numbers come from outside the runner's cells, with
    its CPU and wall seconds (``Experiment.outside``; empty and 0.0 for most tables).
    """

    name: str
    cells: int
    cpu_seconds: float
    comparison: Comparison
    wall_seconds: float
    cell_wall_seconds: float | None = None
    helper_not_logged: int = 0
    helper_cpu_seconds: float = 0.0
    cpu_by_software: tuple[tuple[str, float], ...] = ()
    outside: str = ""
    outside_cpu_seconds: float = 0.0
    outside_wall_seconds: float = 0.0


def _rebuilt(e: Experiment, staging: Path, cache: Path, committed_dir: Path) -> TableReport:
    """Assemble ``e``'s table from its cached cells into ``staging``, time it, and compare
    it with the committed table."""
    start = time.perf_counter()
    with environment(
        MLCBOOK_RECOMPUTE=e.name,
        MLCBOOK_RESUME="1",
        MLCBOOK_RESULTS_DIR=str(staging),
        MLCBOOK_EXPERIMENT_CACHE=str(cache),
        MLCBOOK_PROGRESS="0",
    ):
        recomputed = e.load()
    wall = time.perf_counter() - start
    timing = add_timing(
        staging / f"{e.name}.json",
        cpu_seconds(cache, e.specs()),
        wall_seconds(cache, e.specs()),
        helper_cpu_seconds(cache, e.specs()),
    )
    helper = timing["helper_cpu_seconds"]
    # per cell as the provenance records it: "experiment:cell" -> seconds
    spent = {
        (exp, cell): s
        for key, s in timing["cpu_seconds"]["cells"].items()
        for exp, cell in [key.split(":", 1)]
    }
    first = not (committed_dir / f"{e.name}.csv").exists()
    outside = e.outside() if e.outside is not None else ("", 0.0, 0.0)
    return TableReport(
        e.name,
        len(timing["cpu_seconds"]["cells"]),
        float(timing["cpu_seconds"]["total"]),
        Comparison.first(e.name, len(recomputed))
        if first
        else compare_tables(committed_table(e.name, folder=committed_dir), recomputed, e),
        wall,
        float(timing["wall_seconds"]["total"])
        if len(timing["wall_seconds"]["cells"]) == len(timing["cpu_seconds"]["cells"])
        else None,
        helper["cells_not_logged"] if helper["total"] > 0 else 0,
        float(helper["total"]),
        by_software(spent, e.software) if e.software is not None else (),
        *outside,
    )


def reproduce(
    experiments: Sequence[Experiment],
    *,
    staging: str | Path,
    cache_dir: str | Path | None = None,
    scheduler: str | None = None,
    n_workers: int | None = None,
) -> list[TableReport]:
    """Recompute ``experiments`` from their cells and compare each with its committed table.

    Parameters
    ----------
    experiments : sequence of Experiment
    staging : path
        Where the recomputed tables are written (a copy of ``data/results`` is made
        there first, so that a table read by another is found).
    cache_dir : path, optional
        The cells' cache (default ``data/cache/reproduce``); a killed run resumes from it.
    scheduler : str, optional
        A dask.distributed scheduler's address (default ``DASK_SCHEDULER``, else a local
        cluster of ``n_workers`` processes).
    n_workers : int, optional

    Returns
    -------
    list of TableReport, in the order the tables were rebuilt.
    """
    exps = _order(list(experiments))
    cache = Path(cache_dir) if cache_dir is not None else _cache_root() / "reproduce"
    staging = Path(staging)
    committed_dir = results_dir()
    staging.mkdir(parents=True, exist_ok=True)
    for path in committed_dir.glob("*"):
        if path.suffix in (".csv", ".json") and not (staging / path.name).exists():
            shutil.copy2(path, staging / path.name)
    specs = [s for e in exps for s in e.specs()]
    with environment(MLCBOOK_PROGRESS="1"):
        compute_cells(
            specs,
            cache,
            desc=f"reproduce: {len(exps)} tables",
            workers=lambda left: cluster(scheduler, local_workers(n_workers, left)),
        )
    return [_rebuilt(e, staging, cache, committed_dir) for e in exps]


def write_tables(names: Sequence[str], staging: str | Path) -> None:
    """Replace the committed tables ``names`` (rows and provenance) with the recomputed
    ones in ``staging``.

    ``mlcrepro reproduce --write`` calls it after the ledgers' changes have been put
    down to the tables that make them (:func:`mlcrepro.rebuild_attribution.attribute`
    compares the recomputed tables with the committed ones, which must still be there).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as old, tempfile.TemporaryDirectory() as new:
    ...     for folder, rows in ((old, "v\\n1\\n"), (new, "v\\n2\\n")):
    ...         _ = (Path(folder) / "toy.csv").write_text(rows)
    ...         _ = (Path(folder) / "toy.json").write_text("{}")
    ...     with environment(MLCBOOK_RESULTS_DIR=old):
    ...         write_tables(["toy"], new)
    ...     print((Path(old) / "toy.csv").read_text().split())
    ['v', '2']
    """
    committed_dir = results_dir()
    for name in names:
        for suffix in (".csv", ".json"):
            shutil.copy2(Path(staging) / f"{name}{suffix}", committed_dir / f"{name}{suffix}")
