"""Rebuilding committed tables from their cells: ``mlcrepro.reproduce``.

A toy experiment with a committed table in a temporary results folder: the cells are
computed once on a two-process local Dask cluster, their CPU seconds logged and added
to the staged table's provenance, a second run computes nothing, a lost cell alone is
recomputed, and the comparison with the committed table finds what was changed.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from mlcrepro import reproduce as R
from mlcrepro import results, runner
from mlcrepro.experiment import Experiment, by_column_value
from mlcrepro.reproduce import (
    CPU_LOG,
    LOCAL_CLUSTER_CONFIG,
    cluster,
    compare_tables,
    reproduce,
    write_tables,
)

pytestmark = pytest.mark.slow


def square_cell(dataset: str, fold: int, offset: float) -> pd.DataFrame:
    # a little CPU work, so that the measured CPU time is above zero
    total = float(np.sum(np.sqrt(np.arange(200_000, dtype=float) % (fold + 2))))
    return pd.DataFrame(
        {"dataset": [dataset], "fold": [fold], "value": [fold**2 + offset], "work": [total]}
    )


def toy_spec() -> runner.Spec:
    return runner.Spec(
        "toy",
        square_cell,
        {"dataset": ["a", "b"], "fold": range(3)},
        params={"offset": 0.5},
        table="toy",
    )


def toy_load() -> pd.DataFrame:
    return results.load_or_compute("toy", lambda: runner.table(toy_spec()), {"offset": 0.5})


def toy_experiment(**kw) -> Experiment:
    return Experiment("toy", load=toy_load, specs=lambda: [toy_spec()], **kw)


@pytest.fixture
def committed(tmp_path, monkeypatch):
    folder = tmp_path / "results"
    monkeypatch.setenv("MLCBOOK_RESULTS_DIR", str(folder))
    monkeypatch.setenv("MLCBOOK_RECOMPUTE", "toy")
    table = runner.table(toy_spec(), cache_dir=False)
    monkeypatch.setattr(runner, "table", lambda spec, **kw: table)
    toy_load()  # commits the table the direct way
    monkeypatch.undo()
    monkeypatch.setenv("MLCBOOK_RESULTS_DIR", str(folder))
    monkeypatch.delenv("MLCBOOK_RECOMPUTE", raising=False)
    return folder, table


def test_a_cold_run_rebuilds_the_table_and_records_cpu_time(committed, tmp_path, monkeypatch):
    folder, table = committed
    cache, staging = tmp_path / "cache", tmp_path / "staging"
    (report,) = reproduce([toy_experiment()], staging=staging, cache_dir=cache, n_workers=2)
    assert report.cells == 6 and report.cpu_seconds > 0
    assert report.comparison.within and report.comparison.largest == 0.0
    pd.testing.assert_frame_equal(results.committed_table("toy", folder=staging), table)
    meta = json.loads((staging / "toy.json").read_text())
    assert len(meta["cpu_seconds"]["cells"]) == 6
    assert meta["cpu_seconds"]["total"] == pytest.approx(report.cpu_seconds, abs=1e-2)
    # wall seconds per cell too, measured in the worker: the total is the cells' sum
    # (rounded to the milliseconds the provenance keeps)
    walls = meta["wall_seconds"]["cells"]
    assert sorted(walls) == sorted(meta["cpu_seconds"]["cells"]) and min(walls.values()) > 0
    assert meta["wall_seconds"]["total"] == pytest.approx(sum(walls.values()), abs=1e-6)
    assert report.cell_wall_seconds == meta["wall_seconds"]["total"]
    # the committed table itself is untouched until write_tables
    assert "cpu_seconds" not in json.loads((folder / "toy.json").read_text())

    # a second run resumes: nothing left to compute, nothing logged again
    log = (cache / CPU_LOG).read_text().splitlines()
    assert len(log) == 6
    started = []  # the workers each run starts: none when nothing is left
    real = R.cluster

    def counted(scheduler, n_workers):
        started.append(n_workers)
        return real(scheduler, n_workers)

    monkeypatch.setattr(R, "cluster", counted)
    reproduce([toy_experiment()], staging=staging, cache_dir=cache, n_workers=2)
    assert (cache / CPU_LOG).read_text().splitlines() == log
    # a cell lost (as by a kill before it was saved) is the only one computed again,
    # by one worker
    next(iter(sorted((cache / "toy").rglob("*.npz")))).unlink()
    reproduce([toy_experiment()], staging=staging, cache_dir=cache, n_workers=2)
    write_tables(["toy"], staging)
    assert started == [1]
    assert len((cache / CPU_LOG).read_text().splitlines()) == 7
    assert "cpu_seconds" in json.loads((folder / "toy.json").read_text())


def test_the_comparison_names_what_moved():
    exp = Experiment("toy", load=toy_load, tolerance={"value": 0.01}, volatile=("work",))
    a = pd.DataFrame({"d": ["x", "y"], "value": [1.0, 2.0], "work": [1.0, 9.0]})
    same = compare_tables(a, a.assign(work=[5.0, 5.0]), exp)  # timings are not compared
    assert same.within and same.largest == 0.0
    moved = compare_tables(a, a.assign(value=[1.0, 2.02]), exp)
    assert not moved.within and moved.column == "value"
    assert moved.largest == pytest.approx(0.02, abs=1e-12)
    assert compare_tables(a, a.iloc[:1], exp).problem == "1 rows instead of 2"
    nan = compare_tables(a, a.assign(value=[1.0, np.nan]), exp)
    assert not nan.within and "missing value on one side only" in nan.problem
    # a long table: each row's bound follows the quantity it holds
    long = pd.DataFrame({"measure": ["coverage", "loss"], "value": [10.0, 0.5]})
    per = Experiment(
        "toy",
        load=toy_load,
        tolerance={"value": by_column_value("measure", {"coverage": 1.0, "loss": 0.01})},
    )
    ok = compare_tables(long, long.assign(value=[10.8, 0.5]), per)
    assert ok.within and ok.largest == pytest.approx(0.8) and ok.bound == 1.0
    bad = compare_tables(long, long.assign(value=[10.8, 0.52]), per)
    assert not bad.within and bad.bound == 0.01 and bad.largest == pytest.approx(0.02)


def test_the_local_cluster_keeps_a_paused_worker_and_its_cells():
    # a run paused longer than dask's heartbeat deadline (5 minutes) had its workers
    # restarted, and a cell whose workers were restarted three times ended the run
    with cluster(n_workers=1) as client:
        ttl, allowed = client.run_on_scheduler(
            lambda dask_scheduler: (dask_scheduler.worker_ttl, dask_scheduler.allowed_failures)
        )
    assert ttl is None
    assert allowed == LOCAL_CLUSTER_CONFIG["distributed.scheduler.allowed-failures"] == 10
