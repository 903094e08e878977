"""A slice of a real experiment through the runner on a real Dask cluster.

Fig. 4's experiment (:mod:`mlcrepro.huellermeier2022.knn_fig4`) on flags, ten folds,
runs on a ``distributed.LocalCluster`` of two worker processes under
``joblib.parallel_config(backend="dask")``, and gives the very table of the default
backend.  The cell cache is written by the calling process only: every file in the
cache folder is one that the client's :func:`mlcrepro.runner.save` wrote.
"""

from __future__ import annotations

import os

import joblib
import pandas as pd
import pytest
from distributed import Client, LocalCluster, get_task_stream

from mlcrepro import runner
from mlcrepro.huellermeier2022.knn_fig4 import fig4_spec

pytestmark = pytest.mark.slow


def test_a_real_experiment_on_two_dask_worker_processes(tmp_path, monkeypatch):
    monkeypatch.delenv("MLCBOOK_RECOMPUTE", raising=False)
    spec = fig4_spec(["flags"])
    expected = runner.table(spec, cache_dir=False)  # the default backend, in this process

    written: list[tuple[int, str]] = []
    save = runner.save

    def recording_save(path, result, *spec):
        written.append((os.getpid(), str(path)))
        save(path, result, *spec)

    monkeypatch.setattr(runner, "save", recording_save)
    cache = tmp_path / "cache"
    with (
        LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                     dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        workers = client.run(os.getpid)  # address -> pid of each worker process
        with get_task_stream(client) as stream, joblib.parallel_config(backend="dask"):
            got = runner.table(spec, n_jobs=2, cache_dir=cache)
    pd.testing.assert_frame_equal(got, expected, check_exact=True)

    assert len(workers) == 2 and os.getpid() not in workers.values()
    ran_on = {task["worker"] for task in stream.data}
    assert ran_on and ran_on <= set(workers)  # the cells ran in the worker processes
    on_disk = sorted(str(p) for p in cache.rglob("*") if p.is_file())
    assert len(on_disk) == len(runner.cells(spec)) == 10
    assert sorted(p for _, p in written) == on_disk  # each file is one the client saved
    assert {pid for pid, _ in written} == {os.getpid()}
    # and read back from that cache, without a cluster, the table is the same
    pd.testing.assert_frame_equal(runner.table(spec, cache_dir=cache), expected, check_exact=True)
