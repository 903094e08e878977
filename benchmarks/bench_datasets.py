"""Load time of every benchmark dataset (mlcbook.datasets.load_dataset), cold and cached.

* cold: an empty temporary cache, so the files are copied from the mirror, sha256-verified
  and parsed (fast reader; liac-arff reads the headers);
* cached: the second call, which reads the parsed-array cache (.npz keyed by sha256);
* for the three largest files, the ARFF parse alone with the fast reader and with liac-arff
  (``fast=False``), as a ratio.

Needs the local mirror (``MLCBOOK_DATA_MIRROR`` or ``../shared/datasets``).  The project's
own cache is not touched: everything happens in a temporary folder.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import best_of, ratio_line  # noqa: E402

from mlcbook import datasets as ds  # noqa: E402
from mlcbook.datasets.arff import parse_arff, read_mulan_labels  # noqa: E402


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main() -> None:
    mirror = ds.mirror_dir()
    if mirror is None or not mirror.is_dir():
        print("no local mirror of the datasets: skipped")
        return
    old = os.environ.get("MLCBOOK_DATA")
    with tempfile.TemporaryDirectory(prefix="mlcbook-bench-") as tmp:
        os.environ["MLCBOOK_DATA"] = tmp
        try:
            print(f"{'dataset':<12s} {'shape (X)':>14s} {'cold':>9s} {'cached':>9s}   ratio")
            for name in ds.list_datasets(available_only=True):
                cold = _timed(lambda: ds.load_dataset(name, download=False))
                cached = best_of(lambda: ds.load_dataset(name, download=False), repeat=3)
                X, _, _ = ds.load_dataset(name)
                shape = f"{X.shape[0]}x{X.shape[1]}"
                print(f"{name:<12s} {shape:>14s} {cold * 1e3:7.0f}ms {cached * 1e3:7.1f}ms"
                      f"   {cold / cached:6.0f}x", flush=True)
        finally:
            if old is None:
                os.environ.pop("MLCBOOK_DATA", None)
            else:
                os.environ["MLCBOOK_DATA"] = old
    print()
    for f, xml in [("bibtex.arff", "bibtex.xml"), ("slashdot.arff", "slashdot.xml"),
                   ("genbase.arff", "genbase.xml")]:
        labels = read_mulan_labels(mirror / xml)
        fast = best_of(lambda: parse_arff(mirror / f, label_names=labels, fast=True), repeat=2)
        liac = best_of(lambda: parse_arff(mirror / f, label_names=labels, fast=False), repeat=2)
        print(ratio_line(f"parse {f} (fast reader)", fast, liac, "liac-arff"), flush=True)


if __name__ == "__main__":
    main()
