"""A real cluster with faults: ``mlcrepro reproduce`` through ``dask scheduler`` and two
``dask worker`` processes, started with the README's commands.

The table is a toy one (:mod:`tests.mlcrepro.cluster_client`): ten cells that sleep
0.1 s and return a sum of squares, each computation logged (started, finished, by which
process) by the worker that runs it (:mod:`tests.mlcrepro.cluster_toy`).  Its committed
copy is the closed form ``n (n + 1) (2 n + 1) / 6``, computed here.

1. **A lost worker.**  Three cells into the table, one worker's nanny and worker process
   (as a machine that goes down) are killed with SIGKILL while a cell runs on it
   (the worker is stopped while its log is read, so the cell is certainly unfinished);
   the scheduler gives that cell to the other worker, and the run finishes with every
   cell equal to the closed form, within tolerance in the run's report.
2. **A killed client.**  A second run from an empty cache (``--fresh``), on the one
   worker left, is killed with SIGKILL once three of its cells are in the cache, and
   started again: no cell that was in the cache is computed again, every other cell is
   computed, each in a worker process, and the table is the closed form.  The counts are
   printed (``-s``).

Every process is killed (SIGKILL, with its descendants) when the test ends, pass or fail,
and dies with the test's process however that ends (``PR_SET_PDEATHSIG``; a worker
process ends with its nanny); the temporary folder is removed; each wait has a timeout
whose failure message names what was awaited and ends with the processes' outputs and
the cells' log.  Its cost is mostly imports: three clients importing the reproduction
(1.7 CPU-s each), two workers importing the cells' timing for their first cell, the
scheduler's and workers' own start; about 8 CPU-s and 1.5 s of sleeping cells in all.
"""

from __future__ import annotations

import collections
import signal
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from mlcrepro import results
from tests.mlcrepro import cluster_client as toy
from tests.mlcrepro.cluster_processes import Cluster
from tests.mlcrepro.cluster_toy import LOG

pytestmark = pytest.mark.slow



def expected_table() -> pd.DataFrame:
    """The toy table in closed form: ``sum(k**2 for k <= n) = n (n+1) (2n+1) / 6``."""
    rows = [(d, f, f + 10 * len(d)) for d in toy.DATASETS for f in toy.FOLDS]
    return pd.DataFrame(
        {
            "dataset": [d for d, _, _ in rows],
            "fold": [f for _, f, _ in rows],
            "value": [float(n * (n + 1) * (2 * n + 1) // 6) for _, _, n in rows],
        }
    )


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    """A scheduler and two workers, as the README's recipe starts them, whose cells log
    into the cluster's folder, with the reproduction's cache and results there too."""
    c = Cluster(logs=(LOG,))
    c.env.update(
        {
            "CLUSTER_TOY_LOG": str(c.folder),
            "MLCBOOK_CACHE_DIR": str(c.folder / "cache"),
            "MLCBOOK_RESULTS_DIR": str(c.folder / "results"),
        }
    )
    try:
        c.start_scheduler()
        c.start_worker("worker-a")
        c.start_worker("worker-b")
        yield c
    finally:
        c.close()


def computations(folder: Path) -> list[tuple[str, str, int, float]]:
    """``(event, cell, pid, time)`` of every line of the cells' log, in order."""
    path = folder / LOG
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        event, cell, pid, when = line.split()
        out.append((event, cell, int(pid), float(when)))
    return out


def cached_cells(cache: Path) -> set[str]:
    """The cells in the reproduction's cache, as ``dataset/fold``."""
    return {"/".join(p.parent.relative_to(cache).parts) for p in cache.rglob("*.npz")}


def running_cells(log: list[tuple[str, str, int, float]], pid: int) -> list[str]:
    """The cells process ``pid`` started and has not finished."""
    counts = collections.Counter((e, x) for e, x, p, _ in log if p == pid)
    return [x for (e, x), n in counts.items() if e == "started" and n > counts["finished", x]]


def kill_a_busy_worker(c: Cluster) -> tuple[int, str]:
    """Once three cells are finished, SIGKILL a worker (nanny and worker process) in the
    middle of a cell; return the worker process's id and that cell.

    Each worker is stopped (SIGSTOP, waited for until every one of its processes is
    stopped) while its log is read, so the cell it was computing is still unfinished when
    the SIGKILL lands; an idle one is let go on (SIGCONT).  (A
    worker process also ends at once when its nanny dies.)"""
    victim: list[tuple[int, str]] = []

    def busy_worker_killed() -> bool:
        if sum(e == "finished" for e, *_ in computations(c.folder)) < 3:
            return False
        for name in ("worker-a", "worker-b"):
            c.stop(name)
            log = computations(c.folder)  # final for this worker while it is stopped
            pids = {p.pid for p in c.members(name)}
            busy = [(p, x) for p in pids for x in running_cells(log, p)]
            if busy:
                c.kill(name)
                victim.append(busy[0])
                return True
            c.signal(name, signal.SIGCONT)
        return False

    c.wait_for("a worker busy with a cell, three cells into the table", busy_worker_killed)
    return victim[0]


def run_toy(c: Cluster, name: str, *options: str) -> None:
    """``mlcrepro reproduce cluster_toy`` through the cluster, as the process ``name``."""
    c.reproduce(name, toy.NAME, *options, module="tests.mlcrepro.cluster_client")


def staged_table(c: Cluster) -> pd.DataFrame:
    return results.committed_table(toy.NAME, folder=c.folder / "cache/reproduce/staging")


def test_a_lost_worker_and_a_killed_client_lose_and_repeat_nothing(cluster, monkeypatch):
    c = cluster
    expected = expected_table()
    # the committed table: the closed form, written into the cluster's results folder
    monkeypatch.setenv("MLCBOOK_RESULTS_DIR", c.env["MLCBOOK_RESULTS_DIR"])
    monkeypatch.setenv("MLCBOOK_RECOMPUTE", toy.NAME)
    results.load_or_compute(toy.NAME, lambda: expected, toy.CONFIG)
    monkeypatch.delenv("MLCBOOK_RECOMPUTE")
    cells = {f"{d}/{f}" for d in toy.DATASETS for f in toy.FOLDS}
    cache = c.folder / "cache/reproduce/cells" / toy.NAME

    # 1. a worker lost in the middle of the table
    run_toy(c, "client-1")
    lost_pid, lost_cell = kill_a_busy_worker(c)
    c.finish("client-1", "the run that lost a worker")
    log = computations(c.folder)
    assert ("finished", lost_cell) not in {(e, x) for e, x, p, _ in log if p == lost_pid}
    redone = {p for e, x, p, _ in log if e == "finished" and x == lost_cell}
    assert redone and lost_pid not in redone, "the lost worker's cell was computed elsewhere"
    done_by = {x: p for e, x, p, _ in log if e == "finished"}
    assert set(done_by) == cells
    pd.testing.assert_frame_equal(staged_table(c), expected, check_exact=True)
    out = (c.folder / "client-1.out").read_text()
    assert f"| {toy.NAME} | {len(cells)} |" in out and "within tolerance" in out

    # 2. the client killed in the middle of a second run, from an empty cache
    start = len(computations(c.folder))
    run_toy(c, "client-2", "--fresh")

    def three_new_cells_cached() -> bool:  # computed after --fresh emptied the cache
        new = sum(e == "finished" for e, *_ in computations(c.folder)[start:])
        return new >= 3 and len(cached_cells(cache)) >= 3

    c.wait_for("three cells of the second run in the cache", three_new_cells_cached)
    c.kill("client-2")
    kept = cached_cells(cache)  # only the client writes the cache: this is final
    survivors = {p.pid for name in ("worker-a", "worker-b") for p in c.members(name)}

    def workers_idle() -> bool:  # the killed client's cells still running are done
        log = computations(c.folder)
        counts = collections.Counter((e, p) for e, _, p, _ in log if p in survivors)
        return all(counts["started", p] == counts["finished", p] for p in survivors)

    c.wait_for("the workers to finish the killed client's cells", workers_idle)
    before = collections.Counter(x for e, x, _, _ in computations(c.folder) if e == "started")
    run_toy(c, "client-3")
    c.finish("client-3", "the run started again after the client was killed")
    log = computations(c.folder)
    after = collections.Counter(x for e, x, _, _ in log if e == "started")
    again = {x for x in kept if after[x] > before[x]}
    computed = {x for x in cells if after[x] > before[x]}
    print(
        f"cells {len(cells)}; lost worker's cell {lost_cell} redone by another worker; "
        f"in the cache at the client's kill {len(kept)}, of them computed again {len(again)}; "
        f"computed after the restart {len(computed)}"
    )
    clients = {c.procs[f"client-{i}"].pid for i in (1, 2, 3)}
    assert not clients & {p for _, _, p, _ in log}, "a cell ran in the client, not a worker"
    assert not again, f"cells in the cache computed again: {sorted(again)}"
    assert computed == cells - kept
    assert cached_cells(cache) == cells
    pd.testing.assert_frame_equal(staged_table(c), expected, check_exact=True)
