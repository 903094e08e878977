"""Run every benchmarks/bench_*.py (each defines ``main()``), or those named on the command line.

Timings are reported as ratios against a reference implementation run in the same process,
so that they mean the same on a fast and a slow machine.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    wanted = set(argv)
    files = sorted(HERE.glob("bench_*.py"))
    if wanted:
        files = [f for f in files if f.stem in wanted or f.stem.removeprefix("bench_") in wanted]
    if not files:
        print("no benchmarks found", file=sys.stderr)
        return 1
    for f in files:
        spec = importlib.util.spec_from_file_location(f.stem, f)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        print(f"\n=== {f.stem} ===", flush=True)
        t0 = time.perf_counter()
        mod.main()
        print(f"(wall time {time.perf_counter() - t0:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
