"""The runner's cache: unreadable entries, unwritable folders, killed writes."""

from __future__ import annotations

import os
import time

import numpy as np
import pytest

from mlcrepro import runner
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
