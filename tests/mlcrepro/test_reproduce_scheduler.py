"""``make reproduce DASK_SCHEDULER=tcp://host:8786``: cells sent to a running cluster.

A scheduler and two worker processes are started here as a cluster's operator would
(``dask scheduler``, ``dask worker``), and a slice of a committed table -- Fig. 4's
experiment on flags, ten folds -- is computed through the scheduler's address.  The
result equals the committed rows (the minimiser's predictions are integers, its losses
closed forms of them: equal to the last bits the CPU's summation order changes), and
the cells ran in the worker processes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from distributed import Client

from mlcrepro import runner
from mlcrepro.huellermeier2022.knn_fig4 import fig4_spec
from mlcrepro.reproduce import CPU_LOG, cluster, compute_cells
from mlcrepro.results import committed_table
from mlcrepro.tolerances import CLOSED_FORM_RTOL
from tests.mlcrepro.child_processes import die_with_parent

pytestmark = pytest.mark.slow


def _start(args: list[str], log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        args,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
        preexec_fn=die_with_parent,  # gone with the test, even one killed outright
    )


@pytest.fixture
def scheduler(tmp_path):
    dask = str(Path(sys.executable).with_name("dask"))
    file = tmp_path / "scheduler.json"
    procs = [
        _start(
            [
                dask,
                "scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--no-dashboard",
                "--scheduler-file",
                str(file),
            ],
            tmp_path / "scheduler.log",
        )
    ]
    try:
        for _ in range(300):
            if file.exists() and file.stat().st_size:
                break
            time.sleep(0.1)
        address = json.loads(file.read_text())["address"]
        for i in range(2):
            procs.append(
                _start(
                    [
                        dask,
                        "worker",
                        address,
                        "--nworkers",
                        "1",
                        "--nthreads",
                        "1",
                        "--no-dashboard",
                        "--name",
                        f"w{i}",
                    ],
                    tmp_path / f"worker{i}.log",
                )
            )
        with Client(address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=60)
        yield address
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


def test_a_slice_through_the_scheduler_gives_the_committed_rows(scheduler, tmp_path, monkeypatch):
    monkeypatch.delenv("MLCBOOK_RECOMPUTE", raising=False)
    spec = fig4_spec(["flags"])
    cache = tmp_path / "cache"
    with cluster(scheduler) as client:
        workers = client.run(os.getpid)
        spent = compute_cells([spec], cache)
    assert len(workers) == 2 and os.getpid() not in workers.values()
    assert len(spent) == 10 and all(s > 0 for s in spent.values())
    assert len((cache / CPU_LOG).read_text().splitlines()) == 10
    # read back from the cache, no cluster; the committed table keeps no n_free column
    got = runner.table(spec, cache_dir=cache).drop(columns="n_free")
    committed = committed_table("knn_fig4")
    want = committed[committed["dataset"] == "flags"].reset_index(drop=True)
    # the predictions are integers and equal; the losses are means of them, whose last
    # bits follow the CPU's summation order (mlcrepro/tolerances.py, CLOSED_FORM_RTOL)
    pd.testing.assert_frame_equal(got, want, check_exact=False, rtol=CLOSED_FORM_RTOL, atol=0)
