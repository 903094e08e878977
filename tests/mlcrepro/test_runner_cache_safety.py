"""The runner's cache: unreadable entries, unwritable folders, killed writes."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from mlcrepro import runner
from mlcrepro.results import config_hash
from mlcrepro.runner import Spec, cell_path, cells, run

CALLS: list[int] = []


def double(x):
    CALLS.append(x)
    return np.array([2.0 * x])


def _spec():
    return Spec("safety", double, {"x": [1, 2, 3]})


@pytest.fixture(autouse=True)
def _clean(monkeypatch):
    CALLS.clear()
    monkeypatch.delenv("MLCBOOK_RECOMPUTE", raising=False)


def test_an_unreadable_entry_is_reported_not_deleted(tmp_path, monkeypatch):
    s = _spec()
    run(s, cache_dir=tmp_path)
    path = cell_path(s, cells(s)[0], tmp_path)
    real = os.access
    # another user's file: not readable by us (root reads everything, so simulated)
    monkeypatch.setattr(runner.os, "access", lambda p, m: False if p == path else real(p, m))
    with pytest.raises(PermissionError, match="permission denied"):
        run(s, cache_dir=tmp_path)
    assert path.exists()


def test_an_unwritable_cache_fails_before_any_computation(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(OSError, match="not writable.*nothing was computed"):
        run(_spec(), cache_dir=blocker / "cache")
    assert CALLS == []


def test_temporaries_of_killed_writes_are_removed_when_old(tmp_path):
    s = _spec()
    folder = tmp_path / s.name
    folder.mkdir(parents=True)
    old = folder / ".x=1.abc.npz.k3j2.tmp"
    fresh = folder / ".x=2.abc.npz.z9q1.tmp"  # may belong to a writer still running
    for p in (old, fresh):
        p.write_bytes(b"partial")
    hour_ago = time.time() - 7200
    os.utime(old, (hour_ago, hour_ago))
    got = run(s, cache_dir=tmp_path)
    assert [float(v[0]) for v in got.values()] == [2.0, 4.0, 6.0]
    assert not old.exists() and fresh.exists()


def test_a_killed_run_leaves_nothing_the_next_run_keeps(tmp_path):
    """A real run is killed (SIGKILL) while it writes a cell; the next run, a moment
    later, removes its temporary file at once (its owner is dead) and computes the cell."""
    code = (
        "import sys, time\n"
        "import numpy as np\n"
        "from mlcrepro import runner\n"
        "def slow_write(fh, **arrays):\n"
        "    fh.write(b'PK half an entry'); fh.flush()\n"
        "    print('writing', flush=True); time.sleep(600)\n"
        "runner.np.savez_compressed = slow_write\n"
        "from tests.mlcrepro.test_runner_cache_safety import _spec\n"
        "runner.run(_spec(), cache_dir=sys.argv[1])\n"
    )
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(tmp_path)], stdout=subprocess.PIPE, text=True, cwd=root
    )
    try:
        assert proc.stdout.readline().strip() == "writing"
    finally:
        proc.kill()
        proc.wait(60)
    (left,) = tmp_path.rglob(".*.tmp")
    assert f"-{proc.pid}-" in left.name  # it names its owner, now dead
    got = run(_spec(), cache_dir=tmp_path)
    assert [float(v[0]) for v in got.values()] == [2.0, 4.0, 6.0]
    assert not list(tmp_path.rglob(".*.tmp"))


# ------------------------------------------------------------------ exact round trips
def frame_cell(x):
    """A cell whose table has what a CSV or a naive cache loses."""
    CALLS.append(x)
    t = pd.DataFrame(
        {
            "name": ["a", "b", "c"],
            0: np.array([x, 2.0, 3.0], dtype=np.float32),
            1: pd.array([x, None, 7], dtype="Int64"),
            "ok": pd.array([True, None, False], dtype="boolean"),
            "s": pd.array(["u", None, ""], dtype="string"),
            "when": pd.to_datetime(["2020-01-01", "2021-06-30", "1999-12-31"]),
            "whole": [1.0, 2.0, 3.0],
        },
        index=pd.MultiIndex.from_tuples([("p", 2), ("p", 0), ("q", 1)], names=["d", None]),
    )
    return t.iloc[[2, 0, 1]]


def test_a_cached_table_reads_back_as_it_was_computed(tmp_path):
    """Before: the index was dropped, 0 and 1 came back as the names "0" and "1", and the
    Int64 column with NA could not be stored."""
    s = Spec("frames", frame_cell, {"x": [1, 5]})
    first = run(s, cache_dir=tmp_path)
    CALLS.clear()
    again = run(s, cache_dir=tmp_path)
    assert CALLS == []
    for c in cells(s):
        pd.testing.assert_frame_equal(again[c], frame_cell(c["x"]), check_exact=True)
        pd.testing.assert_frame_equal(first[c], again[c], check_exact=True)


@pytest.mark.parametrize(
    "result, match",
    [
        (pd.DataFrame({"c": pd.Categorical(["a", "b"])}), "column 'c' has dtype category"),
        (pd.DataFrame({"o": ["a", 3]}), "column 'o' holds values other than numbers"),
        (pd.DataFrame({1.5: [1, 2]}), "a column name 1.5"),
        (pd.DataFrame({("a", "b"): [1, 2]}), r"a column name \('a', 'b'\)"),
        (np.array([{"a": 1}], dtype=object), "Python objects"),
        ({"P": np.array([None, 1])}, "array 'P' holds Python objects"),
        ({3: np.zeros(2)}, "keys must be strings"),
    ],
)
def test_a_result_that_would_not_read_back_is_not_stored(tmp_path, result, match):
    path = tmp_path / "k.npz"
    with pytest.raises(TypeError, match=match):
        runner.save(path, result)
    assert not list(tmp_path.iterdir())


def test_a_key_serves_only_its_own_cell(tmp_path):
    """Another cell's valid entry copied (or restored) under this cell's key is not
    served: it names its own key and specification."""
    s = _spec()
    run(s, cache_dir=tmp_path)
    one, two = (cell_path(s, c, tmp_path) for c in cells(s)[:2])
    shutil.copyfile(two, one)  # x = 2's result under x = 1's key
    CALLS.clear()
    with pytest.warns(RuntimeWarning, match=f"belongs to another cell .*{two.stem}"):
        got = run(s, cache_dir=tmp_path)
    assert CALLS == [1]  # recomputed, not served 4.0
    assert [float(v[0]) for v in got.values()] == [2.0, 4.0, 6.0]
    with np.load(one) as f:  # the entry now holds its key and the cell's specification
        assert str(f["__key__"]) == one.stem
        spec = json.loads(str(f["__spec__"]))
    assert spec["cell"] == {"x": 1} and spec["experiment"] == "safety"
    assert config_hash(spec) == one.stem


def test_an_entry_that_names_no_key_is_not_served(tmp_path):
    s = _spec()
    path = cell_path(s, cells(s)[0], tmp_path)
    path.parent.mkdir(parents=True)
    with open(path, "wb") as fh:  # the layout of format 1: no key inside
        np.savez_compressed(fh, __kind__=np.array("array"), value=np.array([99.0]))
    with pytest.warns(RuntimeWarning, match="names no key"):
        got = run(s, cache_dir=tmp_path)
    assert float(got[cells(s)[0]][0]) == 2.0
