"""``make reproduce DASK_SCHEDULER=tcp://host:8786``: cells sent to a running cluster.

A scheduler and two worker processes are started here as a cluster's operator would
(``dask scheduler``, ``dask worker``), and a slice of a committed table -- Fig. 4's
experiment on flags, ten folds -- is computed through the scheduler's address.  The
result equals the committed rows (the minimiser's predictions are integers, its losses
closed forms of them: equal to the last bits the CPU's summation order changes), and
the cells ran in the worker processes.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pandas as pd
import pytest
from distributed import Client

from mlcrepro import runner
from mlcrepro.huellermeier2022.knn_fig4 import fig4_spec
from mlcrepro.reproduce import CPU_LOG, cluster, compute_cells
from mlcrepro.results import committed_table
from mlcrepro.tolerances import CLOSED_FORM_RTOL
from tests.mlcrepro.cluster_processes import Cluster

pytestmark = pytest.mark.slow


@pytest.fixture
def scheduler() -> Iterator[str]:
    """A scheduler and two workers, as the README's recipe starts them: its address."""
    c = Cluster()
    try:
        c.start_scheduler()
        c.start_worker("w0")
        c.start_worker("w1")
        with Client(c.address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=60)
        yield c.address
    finally:
        c.close()


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
