"""A cell's CPU time counts Weka's JVM server (mlcrepro.timing.timed): the server is a
long-lived helper, not a child the worker waits for, so getrusage alone misses it."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
from mlcrepro.timing import timed
from mlcbook.learners import J48Classifier
from mlcbook.learners._weka import server


def _server_cpu_from_proc() -> float:
    # read here from the kernel, apart from the library's own reading
    fields = Path(f"/proc/{server().proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _fit_trees(n: int) -> int:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 20))
    y = (x[:, 0] + x[:, 1] * x[:, 2] + rng.normal(scale=0.5, size=n) > 0).astype(int)
    for _ in range(20):
        J48Classifier().fit(x, y).predict(x)
    return n


def test_a_cells_cpu_time_includes_the_j48_servers():
    _fit_trees(50)  # the server runs before the cell, as in a worker's second cell
    before = _server_cpu_from_proc()
    i, result, cpu, wall, helper = timed(7, _fit_trees, {"n": 3000})
    spent = _server_cpu_from_proc() - before
    assert (i, result) == (7, 3000)
    # the JVM worked in the cell, and timed counts what the kernel says it spent (the
    # kernel's ticks are 1/CLK_TCK s; the reading after timed's adds at most a tick)
    assert helper > 0.05
    assert abs(helper - spent) <= 2 / os.sysconf("SC_CLK_TCK")
    # the cell's CPU time is this process's and the server's together
    assert cpu >= helper and cpu - helper > 0
