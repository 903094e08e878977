"""What each cell of a reproduction cost: its CPU and wall seconds, logged and recorded.

Every cell that :func:`mlcrepro.reproduce.compute_cells` computes is timed where it runs
(:func:`timed`): the CPU seconds of the worker process and of the child processes it
waited for (``resource.getrusage``), and the wall seconds around the cell's function.
Each finished cell appends one line to the cache folder's log (:data:`CPU_LOG`), and
when a table is assembled its cells' seconds go into its provenance
(:func:`add_timing`: ``cpu_seconds`` and ``wall_seconds``, each a ``total`` and the
``cells``, and the helper's part ``helper_cpu_seconds``).  ``mlcrepro reproduce
--plan`` (:mod:`mlcrepro.plan`) reads both back before anything runs.

A long-lived helper process, Weka's JVM server (one per worker, started by the first
J48 fit and kept), is not a child the worker waits for, so ``getrusage`` does not see
it: :func:`timed` adds what the server spent during the cell
(:func:`mlcbook.learners.weka_server_cpu_seconds`) and logs that part apart as
``helper_cpu_seconds``.  Lines logged before it was counted lack that field, and their
CPU seconds leave the server out.
"""

from __future__ import annotations

import json
import resource
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from mlcbook.files import atomic_write_text
from mlcbook.learners import weka_server_cpu_seconds
from mlcrepro.runner import Cell, Spec, cell_path, cells

__all__ = [
    "CPU_LOG",
    "add_timing",
    "by_software",
    "cpu_seconds",
    "helper_cpu_seconds",
    "log_entries",
    "log_line",
    "process_cpu_seconds",
    "timed",
    "wall_seconds",
]

#: the file, in the reproduction's cache folder, where each computed cell's CPU and wall
#: seconds are appended (one JSON object a line: experiment, cell, key, cpu_seconds,
#: wall_seconds, helper_cpu_seconds; lines written before wall time, or the helper's CPU
#: time, was recorded lack them)
CPU_LOG = "cpu_seconds.jsonl"


def process_cpu_seconds(*, helper: bool = False) -> float:
    """CPU seconds (user and system) of this process and of the children it waited for;
    with ``helper``, plus those of Weka's JVM server, which is no waited-for child
    (:func:`mlcbook.learners.weka_server_cpu_seconds`).  A difference of two readings is
    what the code between them cost.

    >>> a = process_cpu_seconds(helper=True)
    >>> _ = sum(range(10**5))
    >>> process_cpu_seconds(helper=True) >= a
    True
    """
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    own = me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime
    return own + (weka_server_cpu_seconds() if helper else 0.0)


def timed(
    i: int, compute: Callable[..., Any], kwargs: dict[str, Any]
) -> tuple[int, Any, float, float, float]:
    """``(i, result, CPU seconds, wall seconds, helper CPU seconds)`` of one cell,
    measured where it runs; the CPU seconds include the helper's (Weka's JVM server).

    >>> i, result, cpu, wall, helper = timed(3, lambda n: sum(range(n)), {"n": 10})
    >>> i, result, cpu >= helper == 0.0, wall >= 0
    (3, 45, True, True)
    """
    start, wall, server = process_cpu_seconds(), time.perf_counter(), weka_server_cpu_seconds()
    result = compute(**kwargs)
    # a server started during the cell had spent nothing before it
    helper = max(weka_server_cpu_seconds() - server, 0.0)
    cpu = process_cpu_seconds() - start + helper
    return i, result, cpu, time.perf_counter() - wall, helper


def log_line(
    spec: Spec, cell: Cell, path: Path, cpu: float, wall: float, helper: float = 0.0
) -> str:
    """The log's line of one finished cell (JSON, with its newline).

    >>> from mlcrepro.runner import Cell
    >>> spec = Spec("toy", lambda fold: None, {"fold": [0]})
    >>> line = log_line(spec, Cell((("fold", 0),)), Path("k.npz"), 1.5, 2.0, 0.5)
    >>> line[:62]
    '{"experiment": "toy", "cell": "0", "key": "k", "cpu_seconds": '
    >>> line[62:]
    '1.5, "wall_seconds": 2.0, "helper_cpu_seconds": 0.5}\\n'
    """
    entry = {
        "experiment": spec.name,
        "cell": str(cell),
        "key": path.stem,
        "cpu_seconds": cpu,
        "wall_seconds": wall,
        "helper_cpu_seconds": helper,
    }
    return json.dumps(entry) + "\n"


def log_entries(cache_dir: str | Path) -> Iterator[dict[str, Any]]:
    """The entries of the cells' log in ``cache_dir`` (:data:`CPU_LOG`), oldest first;
    a line cut short by a kill is skipped."""
    log = Path(cache_dir) / CPU_LOG
    if not log.exists():
        return
    for line in log.read_text(encoding="utf-8").splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue  # a line cut short by a kill
        if isinstance(entry, dict):
            yield entry


def _logged(
    what: str,
    cache_dir: str | Path,
    specs: Sequence[Spec],
    select: Callable[[Spec, Cell], bool] | None,
) -> dict[tuple[str, str], float]:
    wanted = {
        cell_path(s, c, Path(cache_dir)).stem: (s.name, str(c))
        for s in specs
        for c in cells(s)
        if select is None or select(s, c)
    }
    out: dict[tuple[str, str], float] = {}
    for entry in log_entries(cache_dir):
        if entry.get("key") in wanted and entry.get(what) is not None:
            out[wanted[entry["key"]]] = float(entry[what])
    return out


def cpu_seconds(
    cache_dir: str | Path,
    specs: Sequence[Spec],
    select: Callable[[Spec, Cell], bool] | None = None,
) -> dict[tuple[str, str], float]:
    """``(experiment, cell) -> CPU seconds`` of the (selected) cells of ``specs`` as logged
    (the last entry of a cell's current key counts)."""
    return _logged("cpu_seconds", cache_dir, specs, select)


def wall_seconds(
    cache_dir: str | Path,
    specs: Sequence[Spec],
    select: Callable[[Spec, Cell], bool] | None = None,
) -> dict[tuple[str, str], float]:
    """``(experiment, cell) -> wall seconds`` of the (selected) cells of ``specs`` as
    logged, measured in the worker around the cell's function (cells logged before wall
    time was recorded have none)."""
    return _logged("wall_seconds", cache_dir, specs, select)


def helper_cpu_seconds(
    cache_dir: str | Path,
    specs: Sequence[Spec],
    select: Callable[[Spec, Cell], bool] | None = None,
) -> dict[tuple[str, str], float]:
    """``(experiment, cell) -> CPU seconds`` of the helper (Weka's JVM server) within the
    cell's CPU seconds, as logged (cells logged before it was recorded have none)."""
    return _logged("helper_cpu_seconds", cache_dir, specs, select)


def add_timing(
    meta: Path,
    cpu: Mapping[tuple[str, str], float],
    wall: Mapping[tuple[str, str], float],
    helper: Mapping[tuple[str, str], float] | None = None,
) -> dict[str, Any]:
    """Write the cells' CPU and wall seconds into the provenance ``meta``.

    ``cpu_seconds`` and ``wall_seconds``: each a ``total`` and the ``cells``
    (``"experiment:cell"`` -> seconds, to the millisecond; the total is the sum of those).
    ``helper_cpu_seconds``, where ``helper`` is given: the part of the CPU seconds the
    helper spent (``total``; ``cells``: those where it spent any) and ``cells_not_logged``,
    the cells of ``cpu`` logged before the helper's time was (their CPU seconds leave it
    out).  Returns what was written: the figures a report gives.
    """
    record = json.loads(meta.read_text(encoding="utf-8"))
    for name, spent in (("cpu_seconds", cpu), ("wall_seconds", wall)):
        per_cell = {f"{exp}:{cell}": round(s, 3) for (exp, cell), s in sorted(spent.items())}
        record[name] = {"total": round(float(sum(per_cell.values())), 3), "cells": per_cell}
    if helper is not None:
        used = {f"{e}:{c}": round(s, 3) for (e, c), s in sorted(helper.items()) if s > 0}
        record["helper_cpu_seconds"] = {
            "total": round(float(sum(used.values())), 3),
            "cells": used,
            "cells_not_logged": sum(1 for k in cpu if k not in helper),
        }
    atomic_write_text(
        meta, json.dumps(record, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    )
    names = ("cpu_seconds", "wall_seconds", "helper_cpu_seconds")
    return {k: record[k] for k in names if k in record}


def by_software(
    spent: Mapping[tuple[str, str], float], software: Callable[[str], str]
) -> tuple[tuple[str, float], ...]:
    """The CPU seconds of the cells (``(experiment, cell) -> seconds``) added up by the
    software that did each cell's work (``software(cell)``), largest first.

    >>> by_software({("s", "a/BOOMER/0"): 3.0, ("s", "a/J48/0"): 1.0, ("s", "a/J48/1"): 4.5},
    ...             lambda cell: cell.split("/")[1])
    (('J48', 5.5), ('BOOMER', 3.0))
    """
    totals: dict[str, float] = {}
    for (_, cell), seconds in spent.items():
        name = software(cell)
        totals[name] = totals.get(name, 0.0) + float(seconds)
    return tuple(sorted(((k, round(v, 3)) for k, v in totals.items()), key=lambda kv: -kv[1]))
