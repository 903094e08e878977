"""Small timing helpers shared by the benchmarks."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(fn: Callable[[], object], repeat: int = 5, number: int = 1) -> float:
    """Best wall time (seconds) of ``number`` calls, over ``repeat`` rounds."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
    return best


def best_cpu(fn: Callable[[], object], repeat: int = 5) -> float:
    """Best CPU time (seconds) of this process over ``repeat`` calls: on a shared
    machine a single-threaded computation's CPU time varies far less than its wall
    time (other processes take turns on the cores)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def ratio_line(name: str, ours: float, ref: float, ref_name: str) -> str:
    """One printed line: our time, the reference's, and their ratio."""
    return f"{name:<34s} {ours * 1e3:10.2f} ms   {ref_name:<28s} {ref * 1e3:10.2f} ms   ratio {ours / ref:6.2f}x"
