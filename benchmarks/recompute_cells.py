"""Recompute some cells of a committed table: their CPU time, and how far they moved.

    .venv/bin/python benchmarks/recompute_cells.py TABLE '{"dataset": "yeast"}' --limit 2
    .venv/bin/python benchmarks/recompute_cells.py TABLE '{...}' --save old.pkl
    .venv/bin/python benchmarks/recompute_cells.py TABLE '{...}' --same-as old.pkl

The cells of TABLE's runner specs whose coordinates match the JSON filter (at most
``--limit`` of them, in the specs' order) are computed one after the other in this
process, through the runner's cell functions and with the table's configuration, without
any cache; each cell's CPU seconds (``time.process_time``) are printed.  Their rows are
then compared with the committed rows of the same keys within the table's tolerance, as
the quick tier compares its sample (``mlcrepro.quick.compare_sample``).

``--save`` keeps the cells' rows; ``--same-as`` compares them with rows kept by an
earlier run (another checkout's code, say: run it with that checkout's ``lib`` and
``repro`` first on ``PYTHONPATH``) and says whether they are equal to the last bit,
the table's timing and optimiser-internal columns aside.  This is how a change that is
meant to make a cell cheaper without changing it is checked: same cells, CPU seconds
before and after, every other column identical.  Not part of ``make bench`` (a cell of
the blended study costs from one to fifty CPU seconds).
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from pathlib import Path

import pandas as pd

from mlcrepro.quick import compare_sample
from mlcrepro.reproduce import experiments
from mlcrepro.results import committed_table
from mlcrepro.runner import cells


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("table")
    parser.add_argument("where", nargs="?", default="{}", help="JSON: axis -> value")
    parser.add_argument("--limit", type=int, default=1)
    parser.add_argument("--save", type=Path)
    parser.add_argument("--same-as", type=Path)
    args = parser.parse_args(argv)
    where = json.loads(args.where)
    if not isinstance(where, dict):
        parser.error(f"where must be a JSON object axis -> value, got {args.where!r}")
    (exp,) = experiments([args.table])
    chosen = [
        (s, c)
        for s in exp.specs()
        for c in cells(s)
        if all(c.as_dict().get(k) == v for k, v in where.items())
    ][: args.limit]
    if not chosen:
        parser.error(f"no cell of {args.table} has the coordinates {where}")
    done = []
    for spec, cell in chosen:
        t0 = time.process_time()
        rows = pd.DataFrame(spec.compute(**cell.as_dict(), **spec.params, **spec.inputs(cell)))
        cpu = time.process_time() - t0
        print(f"{args.table} {cell}: {cpu:.2f} CPU-s, {len(rows)} rows", flush=True)
        done.append((str(cell), cpu, rows))
    comparison, n = compare_sample(committed_table(args.table), [r for *_, r in done], exp)
    verdict = "within" if comparison.within else "OUTSIDE"
    print(
        f"against the committed rows ({n}): largest |difference| {comparison.largest:.4g}"
        f" in {comparison.column or '-'}, bound {comparison.bound:g}: {verdict}"
        + (f" ({comparison.problem})" if comparison.problem else "")
    )
    if args.save:
        args.save.write_bytes(pickle.dumps(done))
    same = True
    if args.same_as:
        earlier = pickle.loads(args.same_as.read_bytes())
        if [c for c, *_ in earlier] != [c for c, *_ in done]:
            print("--same-as: the saved run has other cells")
            return 2
        for (cell, cpu0, old), (_, cpu1, new) in zip(earlier, done):
            cols = [c for c in old.columns if c not in exp.volatile]
            equal = list(old.columns) == list(new.columns) and old[cols].equals(new[cols])
            same &= equal
            print(
                f"  {cell}: {cpu0:.2f} -> {cpu1:.2f} CPU-s; "
                + ("identical" if equal else "DIFFERENT")
            )
    return 0 if comparison.within and same else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
