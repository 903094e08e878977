"""The quick tier, ``mlcrepro reproduce --quick``: a declared sample of cells, judged.

Two toy tables committed to a temporary folder, one of them committed from another
configuration than its spec now computes (its values moved by 0.1); one quick run on a
one-process local cluster (about 4 s): exactly the sampled cells are computed, each
table's verdict compares them with the committed rows of the same keys, the moved
table is outside its tolerance by the amount it moved, and the CPU seconds are those
the cells' log records.  And every committed table with cells of its own declares a
sample that fixes one dataset and one seed, fold, split or replication (0.4 s).
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

from mlcrepro import results, runner
from mlcrepro.experiment import Cells, Experiment
from mlcrepro.quick import quick, quick_markdown
from mlcrepro.reproduce import EXPERIMENTS
from mlcrepro.timing import CPU_LOG

pytestmark = pytest.mark.slow


def offset_cell(dataset: str, fold: int, offset: float) -> pd.DataFrame:
    return pd.DataFrame({"dataset": [dataset], "fold": [fold], "value": [fold**2 + offset]})


def spec(name: str, offset: float) -> runner.Spec:
    return runner.Spec(
        name, offset_cell, {"dataset": ["a", "b"], "fold": range(3)}, {"offset": offset}
    )


def experiment(name: str, offset: float, **kw) -> Experiment:
    return Experiment(
        name,
        load=pd.DataFrame,
        specs=lambda: [spec(name, offset)],
        tolerance={"value": 0.01},
        **kw,
    )


@pytest.fixture
def committed(tmp_path, monkeypatch):
    folder = tmp_path / "results"
    monkeypatch.setenv("MLCBOOK_RESULTS_DIR", str(folder))
    monkeypatch.setenv("MLCBOOK_CACHE_DIR", str(tmp_path / "cache"))
    for name in ("toy", "toy_moved"):  # both committed with offset 0.5
        with monkeypatch.context() as m:
            m.setenv("MLCBOOK_RECOMPUTE", name)
            table = runner.table(spec(name, 0.5), cache_dir=False)
            results.load_or_compute(name, lambda t=table: t, {"offset": 0.5})
    return folder


def test_the_quick_tier_recomputes_the_sample_and_judges_it(committed, tmp_path):
    cache = tmp_path / "cells"
    exps = [
        experiment("toy", 0.5, quick={"fold": 1}),
        experiment("toy_moved", 0.6, quick={"dataset": "b", "fold": (0, 2)}),
        Experiment("made_of_others", load=pd.DataFrame),
    ]
    same, moved, none = quick(exps, cache_dir=cache, n_workers=1)
    # exactly the sampled cells were computed, each once
    files = sorted(p.relative_to(cache).parts[:3] for p in cache.rglob("*.npz"))
    assert files == [
        ("toy", "a", "1"),
        ("toy", "b", "1"),
        ("toy_moved", "b", "0"),
        ("toy_moved", "b", "2"),
    ]
    log = [json.loads(line) for line in (cache / CPU_LOG).read_text().splitlines()]
    assert len(log) == 4
    assert (same.cells, same.rows, same.sample) == (2, 2, "fold = 1")
    assert same.comparison.within and same.comparison.largest == 0.0
    assert same.cpu_seconds == pytest.approx(
        sum(e["cpu_seconds"] for e in log if e["experiment"] == "toy"), rel=1e-12
    )
    assert same.wall_seconds == pytest.approx(
        sum(e["wall_seconds"] for e in log if e["experiment"] == "toy"), rel=1e-12
    )
    # the moved table: 0.1 off (offset 0.6 against 0.5), beyond its 0.01
    assert (moved.cells, moved.rows, moved.sample) == (2, 2, "dataset = b, fold = 0/2")
    assert not moved.comparison.within and moved.comparison.column == "value"
    assert moved.comparison.largest == pytest.approx(0.1, abs=1e-12)
    assert none.comparison is None and none.cells == 0
    assert same.not_compared == moved.not_compared == ()  # the cells return every column
    text = quick_markdown([same, moved, none], wall_seconds=60.0, machine="toy")
    assert "1 of 2 sampled tables within tolerance" in text
    (row,) = [line for line in text.splitlines() if line.startswith("| toy_moved ")]
    assert "**outside**" in row and "dataset = b, fold = 0/2" in row


def test_a_table_with_cells_must_declare_its_sample(committed, tmp_path):
    with pytest.raises(ValueError, match=r"\['toy'\] declare no sample"):
        quick([experiment("toy", 0.5)], cache_dir=tmp_path / "cells")
    assert not (tmp_path / "cells").exists()  # refused before any work


#: the axes a quick sample fixes to one value wherever a table has several
SAMPLED_AXES = ("dataset", "seed", "fold", "split", "replication")


def test_every_committed_table_declares_one_dataset_and_one_seed_or_fold():
    for e in EXPERIMENTS:
        specs = list(e.specs())
        if not specs:
            assert e.quick is None, e.name
            continue
        assert e.quick is not None, f"{e.name} declares no quick sample"
        for s in specs:
            chosen = [c for c in runner.cells(s) if Cells(e.name, e.quick).selects(c)]
            assert chosen, f"{e.name}: its sample {e.quick} selects no cell"
            for axis in SAMPLED_AXES:
                if axis in s.axes and len(list(s.axes[axis])) > 1:
                    assert len({c[axis] for c in chosen}) == 1, (e.name, axis)
