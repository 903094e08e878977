"""``mlcrepro reproduce --plan``: what a run would compute, from what was measured.

Toy experiments in a temporary folder (no cluster: the cells are computed in this
process): the plan counts the cells already cached, takes each cell's CPU seconds from
the table's provenance or else from the cache's log (read here independently, from the
files), shares out the rest over the workers with the longest cell as a floor, and says
of a table never measured that it was not measured.  About a second in all.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from mlcrepro import cli, runner, timing
from mlcrepro._paths import results_dir
from mlcrepro.experiment import Experiment
from mlcrepro.plan import plan, plan_text
from mlcrepro.reproduce import compute_cells
from mlcrepro.timing import CPU_LOG, add_timing


def busy_cell(dataset: str, fold: int) -> pd.DataFrame:
    # a little CPU work, more for later folds, so that the cells' times differ
    work = float(np.sum(np.sqrt(np.arange(50_000 * (fold + 1), dtype=float))))
    return pd.DataFrame({"dataset": [dataset], "fold": [fold], "work": [work]})


def toy_spec(name: str = "toy") -> runner.Spec:
    return runner.Spec(name, busy_cell, {"dataset": ["a", "b"], "fold": range(3)})


def toy(name: str = "toy") -> Experiment:
    return Experiment(name, load=pd.DataFrame, specs=lambda: [toy_spec(name)])


def logged(cache) -> dict[str, float]:
    """key -> CPU seconds, read from the log file itself."""
    lines = (cache / CPU_LOG).read_text(encoding="utf-8").splitlines()
    return {e["key"]: e["cpu_seconds"] for e in map(json.loads, lines)}


@pytest.fixture
def measured(tmp_path):
    cache, results = tmp_path / "cells", tmp_path / "results"
    results.mkdir()
    compute_cells([toy_spec()], cache, n_jobs=1)
    paths = sorted((cache / "toy").rglob("*.npz"))
    assert len(paths) == 6 and len(logged(cache)) == 6
    return cache, results, paths


def test_the_plan_counts_cached_cells_and_adds_up_the_logged_seconds(measured):
    cache, results, paths = measured
    seconds = logged(cache)
    lost = [paths[1], paths[4]]  # two cells gone from the cache: to compute again
    for p in lost:
        p.unlink()
    (t, never), total = plan([toy(), toy("never")], cache, results=results)
    assert (t.cells, t.cached, t.measured, t.sources) == (6, 4, 6, ("cache log",))
    assert t.cpu_seconds == pytest.approx(sum(seconds.values()), rel=1e-12)
    todo = [seconds[p.stem] for p in lost]
    assert t.todo_cpu == pytest.approx(sum(todo), rel=1e-12) and t.longest == max(todo)
    assert t.todo_unmeasured == 0
    assert t.wall(2) == pytest.approx(max(sum(todo) / 2, max(todo)), rel=1e-12)
    assert t.wall(1) == pytest.approx(sum(todo), rel=1e-12)
    # a table whose cells were never computed: not measured, and no time is given
    assert (never.cells, never.cached, never.measured, never.todo_unmeasured) == (6, 0, 0, 6)
    assert (total.cells, total.cached, total.measured) == (12, 4, 6)
    text = plan_text([t, never], total, workers=2).splitlines()
    (row,) = [line for line in text if line.startswith("never")]
    assert "not measured" in row and "unknown (6 cells not measured)" in row
    (row,) = [line for line in text if line.startswith("all tables")]
    assert row.split()[2:4] == ["12", "4"] and "(6 cells not measured)" in row
    # a cold run's plan: nothing counts as cached, and nothing is removed
    (cold,), _ = plan([toy()], cache, fresh=True, results=results)
    assert cold.cached == 0
    assert cold.todo_cpu == pytest.approx(sum(seconds.values()), rel=1e-12)
    assert len(list((cache / "toy").rglob("*.npz"))) == 4
    # the quick tier's plan: only the declared sample, all of it computed afresh
    sampled = Experiment("toy", load=pd.DataFrame, specs=lambda: [toy_spec()], quick={"fold": 2})
    (q, none), _ = plan([sampled, toy("never")], cache, results=results, quick=True)
    fold2 = [seconds[p.stem] for p in paths if p.parent.name == "2"]
    assert (q.cells, q.cached, none.cells) == (2, 0, 0) and len(fold2) == 2
    assert q.todo_cpu == pytest.approx(sum(fold2), rel=1e-12) and q.longest == max(fold2)


def test_the_provenance_comes_first_and_a_shared_cell_counts_once(measured):
    cache, results, _ = measured
    # the provenance that a reproduction writes, with other numbers than the log's
    recorded = {("toy", f"{d}/{f}"): 10.0 + 3 * f + (d == "b") for d in "ab" for f in range(3)}
    (results / "toy.json").write_text("{}")
    add_timing(results / "toy.json", recorded, recorded)
    back = json.loads((results / "toy.json").read_text())["cpu_seconds"]["cells"]
    assert back == {f"{e}:{c}": s for (e, c), s in recorded.items()}
    (t, again), total = plan([toy(), toy()], cache, fresh=True, results=results)
    assert t.sources == ("provenance",) and t.measured == 6
    assert t.cpu_seconds == pytest.approx(sum(recorded.values()), rel=1e-12)
    assert t.longest == max(recorded.values()) == 17.0
    assert t.wall(6) == 17.0  # 81 s / 6 workers is less than the longest cell
    assert t.wall(4) == 81.0 / 4
    # the same table twice: its cells are counted once in the total
    assert again == t and (total.cells, total.todo_cpu) == (6, t.todo_cpu)


def test_the_command_prints_the_plan_and_refuses_bad_workers(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MLCBOOK_CACHE_DIR", str(tmp_path))
    assert cli.main(["reproduce", "--plan", "--workers", "2", "blended_lp"]) == 0
    out = capsys.readouterr().out.splitlines()
    (row,) = [line for line in out if line.startswith("blended_lp")]
    # its CPU seconds as the committed provenance records them, or "not measured"
    meta = json.loads((results_dir() / "blended_lp.json").read_text(encoding="utf-8"))
    said = "(provenance)" if "cpu_seconds" in meta else "not measured"
    assert row.split()[1:3] == ["5", "0"] and said in row
    assert "expected wall, 2 workers" in out[0]
    assert cli.main(["reproduce", "--plan", "--workers", "0"]) == 2
    assert "--workers must be >= 1" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())  # a plan writes nothing


def test_the_helpers_cpu_is_logged_apart_and_the_cells_logged_without_it_are_counted(tmp_path):
    # three cells logged as a worker logs them: one before the helper's time was logged
    # (a line without the field), one whose helper spent 4 of its 5 s, one without a helper
    spec, cache = toy_spec(), tmp_path / "cache"
    cache.mkdir()
    cells = list(runner.cells(spec))[:3]
    paths = [runner.cell_path(spec, c, cache) for c in cells]
    old = json.loads(timing.log_line(spec, cells[0], paths[0], 2.0, 9.0))
    del old["helper_cpu_seconds"]
    (cache / CPU_LOG).write_text(
        json.dumps(old) + "\n"
        + timing.log_line(spec, cells[1], paths[1], 5.0, 6.0, 4.0)
        + timing.log_line(spec, cells[2], paths[2], 1.0, 1.5, 0.0)
    )
    cpu = timing.cpu_seconds(cache, [spec])
    helper = timing.helper_cpu_seconds(cache, [spec])
    assert cpu == {("toy", str(c)): s for c, s in zip(cells, (2.0, 5.0, 1.0))}
    assert helper == {("toy", str(cells[1])): 4.0, ("toy", str(cells[2])): 0.0}
    meta = tmp_path / "toy.json"
    meta.write_text("{}")
    written = timing.add_timing(meta, cpu, timing.wall_seconds(cache, [spec]), helper)
    assert written["helper_cpu_seconds"] == {
        "total": 4.0, "cells": {f"toy:{cells[1]}": 4.0}, "cells_not_logged": 1}
    assert json.loads(meta.read_text())["helper_cpu_seconds"] == written["helper_cpu_seconds"]
