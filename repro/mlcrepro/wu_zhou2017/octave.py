"""Run the authors' LIMO code (``demo.m``) under GNU Octave, one seed and data set at a time.

The authors' repository is run in place, never copied into the project: for each
(seed, data set) a temporary copy of ``limo/`` is made under the git-ignored cache
(``data/cache/octave/work/``) and ``demo.m`` is edited there in four places, each
checked to match exactly once:

1. ``addpath('.\\measure')`` -> ``addpath('measure')`` (a Windows path);
2. ``addpath('.\\data')`` -> ``addpath('data')`` (the same);
3. ``data_sets={'emotions','CAL500','enron'};`` -> the one data set of this run, so
   that a run can be resumed data set by data set;
4. after ``record_summary=[record_mean;record_std];`` a call to the project's
   ``repro/octave/mlcbook_write_record.m``, which appends the 10 × 11 matrix
   ``record`` (one row per split, ``demo.m``'s column order) to a CSV file.

Nothing else is changed: ``demo.m`` normalises, splits, trains LIMO, thresholds and
measures exactly as released.  ``repro/octave/run_demo.m`` loads Octave's
``statistics`` package (``normrnd``, ``randsample``), puts LIBSVM's MATLAB interface
(built by :func:`build_libsvm` with LIBSVM's own ``make.m``) on the path, seeds
``rand`` and ``randn`` with ``rand('state', seed)`` / ``randn('state', seed)`` and
runs the edited ``demo.m`` of the working folder (Octave warns that it shadows its own
``demo`` function: the current folder comes first on Octave's path, and only the edited
copy writes the record file that the run is read from).

Octave's generators are not MATLAB's, so no seed reproduces the authors' own run;
several seeds give the spread a 10-split mean has from the SGD's randomness alone.

Command line (what ``make octave`` runs)::

    mlcrepro octave build
    mlcrepro octave run --seeds 1 2 3 4 5

``run`` skips the (seed, data set) pairs whose results are already in the cache, so
it resumes where it stopped.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from mlcbook.files import atomic_write_text
from mlcrepro import _paths
from mlcrepro._paths import results_dir
from mlcrepro.results import StaleResultError, load_or_compute, recompute_requested
from mlcrepro.wu_zhou2017 import authors

__all__ = [
    "authors_octave_seconds",
    "octave_executable",
    "DEFAULT_SEEDS",
    "MEASURES",
    "RUNS_TABLE",
    "TABLE",
    "authors_octave_config",
    "authors_octave_tables",
    "finished_runs",
    "OctaveNotFoundError",
    "build_libsvm",
    "cache_root",
    "collect_runs",
    "octave_version",
    "patch_demo",
    "run_dir",
    "run_one",
    "scripts_dir",
    "main",
]

#: ``demo.m``'s columns of ``record`` (what ``mlcbook_write_record.m`` writes).
MEASURES: tuple[str, ...] = (
    "hamming_loss",
    "ranking_loss",
    "one_error",
    "coverage",
    "average_precision",
    "micro_f1",
    "macro_f1",
    "instance_f1",
    "micro_auc",
    "macro_auc",
    "instance_auc",
)

_OCTAVE = "octave-cli"


class OctaveNotFoundError(RuntimeError):
    """GNU Octave (``octave-cli``) is not installed; ``make octave`` installs it."""


def scripts_dir() -> Path:
    """``repro/octave/``: the project's own Octave glue (no code of the authors)."""
    return _paths.project_root() / "repro" / "octave"


def cache_root() -> Path:
    """``data/cache/octave/``: LIBSVM build, temporary copies, per-run results."""
    return _paths.cache_dir() / "octave"


def run_dir(seed: int) -> Path:
    """Where the results of one seed are kept: ``data/cache/octave/runs/seed<S>/``."""
    return cache_root() / "runs" / f"seed{seed}"


def octave_executable() -> str:
    """The path of GNU Octave's executable.

    Raises
    ------
    OctaveNotFoundError
        If Octave is not on ``PATH`` (``make octave`` installs it).
    """
    exe = shutil.which(_OCTAVE)
    if exe is None:
        raise OctaveNotFoundError(f"{_OCTAVE} is not on PATH; run `make octave` (as root)")
    return exe


def octave_version() -> str:
    """The installed Octave's version string (e.g. ``"7.3.0"``)."""
    out = subprocess.run(
        [octave_executable(), "--no-gui", "--eval", "disp(OCTAVE_VERSION)"],
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip().splitlines()[-1]


def statistics_version() -> str:
    """The version of Octave's ``statistics`` package."""
    out = subprocess.run(
        [
            octave_executable(),
            "--no-gui",
            "--eval",
            "v = pkg('list', 'statistics'); disp(v{1}.version)",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip().splitlines()[-1]


def libsvm_dir() -> Path:
    """The built MATLAB interface of LIBSVM (``svmtrain.mex``, ``svmpredict.mex``)."""
    return cache_root() / "libsvm" / "matlab"


def build_libsvm(force: bool = False) -> Path:
    """Copy the mirrored LIBSVM (sha256 checked) into the cache and run its ``make.m``.

    Returns the folder holding ``svmtrain.mex`` and ``svmpredict.mex``.
    """
    target = cache_root() / "libsvm"
    built = libsvm_dir() / "svmtrain.mex"
    if built.exists() and (libsvm_dir() / "svmpredict.mex").exists() and not force:
        return libsvm_dir()
    authors.reference_sha256("libsvm/")
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(authors.reference_dir() / "libsvm", target)
    for p in [target, *target.rglob("*")]:
        p.chmod(p.stat().st_mode | 0o200)
    subprocess.run(
        [octave_executable(), "--no-gui", "--eval", "make"], cwd=libsvm_dir(), check=True
    )
    if not built.exists():
        raise RuntimeError(f"LIBSVM's make.m did not produce {built}")
    return libsvm_dir()


_PATCHES: tuple[tuple[str, str], ...] = (
    ("addpath('.\\measure');", "addpath('measure');"),
    ("addpath('.\\data');", "addpath('data');"),
)
_DATASETS_LINE = "data_sets={'emotions','CAL500','enron'};"
_SUMMARY_LINE = "record_summary=[record_mean;record_std];"


def patch_demo(text: str, dataset: str) -> str:
    """``demo.m``'s text with the four edits of the module docstring.

    Raises
    ------
    ValueError
        ``dataset`` is not one of ``demo.m``'s, or a line to edit does not occur
        exactly once (another version of ``demo.m``).

    Examples
    --------
    >>> demo = ("addpath('.\\\\measure');\\naddpath('.\\\\data');\\n"
    ...         "data_sets={'emotions','CAL500','enron'};\\n"
    ...         "record_summary=[record_mean;record_std];\\n")
    >>> print(patch_demo(demo, "enron"))
    addpath('measure');
    addpath('data');
    data_sets={'enron'};
    record_summary=[record_mean;record_std];
    mlcbook_write_record(data_set, record, MLCBOOK_OUT);
    <BLANKLINE>
    """
    if dataset not in authors.DATASETS:
        raise ValueError(f"dataset must be one of {authors.DATASETS}, got {dataset!r}")
    edits = [
        *_PATCHES,
        (_DATASETS_LINE, f"data_sets={{'{dataset}'}};"),
        (_SUMMARY_LINE, _SUMMARY_LINE + "\nmlcbook_write_record(data_set, record, MLCBOOK_OUT);"),
    ]
    for old, new in edits:
        count = text.count(old)
        if count != 1:
            raise ValueError(f"demo.m: expected the line {old!r} once, found it {count} times")
        text = text.replace(old, new)
    return text


def _result_paths(seed: int, dataset: str) -> tuple[Path, Path]:
    folder = run_dir(seed)
    return folder / f"{dataset}.csv", folder / f"{dataset}.json"


def _work_copy(seed: int, dataset: str) -> Path:
    """A fresh, writable copy of the authors' LIMO code for one run, ``demo.m`` patched
    to run ``dataset`` and write its record (:func:`patch_demo`)."""
    work = cache_root() / "work" / f"seed{seed}_{dataset}"
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(authors.reference_dir() / "limo", work)
    for p in [work, *work.rglob("*")]:
        p.chmod(p.stat().st_mode | 0o200)
    demo = work / "demo.m"
    demo.write_text(patch_demo(demo.read_text(encoding="utf-8"), dataset), encoding="utf-8")
    return work


def run_one(seed: int, dataset: str, *, log: Path | None = None) -> Path:
    """Run ``demo.m`` on ``dataset`` with Octave seeded by ``seed``; return the CSV path.

    The CSV (``dataset, split, measure, value``) and a JSON beside it (Octave's CPU
    seconds, wall seconds, versions, date) are written only when the run finished;
    an existing pair is returned without running again.
    """
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed!r}")
    if dataset not in authors.DATASETS:
        raise ValueError(f"dataset must be one of {authors.DATASETS}, got {dataset!r}")
    csv, meta = _result_paths(seed, dataset)
    if csv.exists() and meta.exists():
        return csv
    exe = octave_executable()
    refs = authors.reference_sha256("limo/")
    libsvm = build_libsvm()
    work = _work_copy(seed, dataset)
    partial = work / "record.csv"
    eval_text = (
        f"MLCBOOK_SEED={seed}; MLCBOOK_OUT='{partial}'; MLCBOOK_LIBSVM='{libsvm}'; "
        f"addpath('{scripts_dir()}'); run_demo"
    )
    t0 = time.monotonic()
    with open(log or os.devnull, "a", encoding="utf-8") as fh:
        fh.write(f"\n== seed {seed} {dataset} {datetime.now(UTC):%Y-%m-%dT%H:%M:%SZ}\n")
        fh.flush()
        proc = subprocess.run(
            [exe, "--no-gui", "--norc", "--eval", eval_text],
            cwd=work,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        fh.write(proc.stdout)
    wall = time.monotonic() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"Octave failed on seed {seed}, {dataset}:\n{proc.stdout[-2000:]}")
    cpu = None
    for line in proc.stdout.splitlines():
        if line.startswith("MLCBOOK_CPU_SECONDS="):
            cpu = float(line.split("=", 1)[1])
    table = pd.read_csv(partial, header=None, names=["dataset", "split", "measure", "value"])
    if len(table) != 10 * len(MEASURES):
        raise RuntimeError(f"{partial}: expected {10 * len(MEASURES)} rows, got {len(table)}")
    csv.parent.mkdir(parents=True, exist_ok=True)
    info = {
        "seed": seed,
        "dataset": dataset,
        "cpu_seconds": cpu,
        "wall_seconds": round(wall, 3),
        "octave": octave_version(),
        "statistics": statistics_version(),
        "platform": platform.platform(),
        "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "reference_sha256": refs,
        "libsvm_sha256": authors.reference_sha256("libsvm/"),
        "demo_edits": [list(e) for e in _PATCHES]
        + [[_DATASETS_LINE, f"data_sets={{'{dataset}'}};"], [_SUMMARY_LINE, "+ write record"]],
    }
    atomic_write_text(csv, table.to_csv(index=False, float_format="%.17g"))
    atomic_write_text(meta, json.dumps(info, indent=2, sort_keys=True) + "\n")
    shutil.rmtree(work)
    return csv


Run = tuple[int, str]


def _run_name(run: Run) -> str:
    return f"seed{run[0]}/{run[1]}"


def finished_runs(seeds: Sequence[int], datasets: Sequence[str] = authors.DATASETS) -> list[Run]:
    """The (seed, data set) runs among ``seeds`` × ``datasets`` whose results are cached."""
    return [
        (s, d) for s in seeds for d in datasets if all(p.exists() for p in _result_paths(s, d))
    ]


def collect_runs(runs: Sequence[Run]) -> pd.DataFrame:
    """The cached per-split results of ``runs``, tidy.

    Columns ``dataset, seed, split, method, measure, value`` (``method`` is
    ``"LIMO (authors' code, Octave)"``).

    Raises
    ------
    FileNotFoundError
        A run has not finished.
    """
    frames = []
    for seed, dataset in runs:
        csv, meta = _result_paths(seed, dataset)
        if not (csv.exists() and meta.exists()):
            raise FileNotFoundError(f"the run seed {seed}, {dataset} has not finished ({csv})")
        t = pd.read_csv(csv)
        t.insert(1, "seed", seed)
        t.insert(3, "method", "LIMO (authors' code, Octave)")
        frames.append(t)
    return pd.concat(frames, ignore_index=True)


#: The committed tables: per-split results, and one row per (seed, data set) run.
TABLE = "limo_authors_octave"
RUNS_TABLE = "limo_authors_octave_runs"
#: The seeds ``make octave`` runs by default.
DEFAULT_SEEDS: tuple[int, ...] = (1, 2, 3, 4, 5)


def authors_octave_config(runs: Sequence[Run]) -> dict:
    """The specification of the committed tables: what their numbers depend on.

    The authors' files (by sha256), the edits to ``demo.m``, the seeding, and the
    finished runs (``"seed<S>/<data set>"``).  Octave's version and the CPU time of
    each run are results (``limo_authors_octave_runs``), since reading the tables must
    not need Octave.
    """
    return {
        "experiment": "Wu & Zhou (2017) LIMO, the authors' demo.m under GNU Octave",
        "reference": f"YuriWu/LIMO {authors.COMMIT}, LIBSVM 3.37 (cjlin1/libsvm 6b90713)",
        "sha256": dict(sorted(authors.SHA256.items())),
        "demo_edits": [list(e) for e in _PATCHES]
        + [[_DATASETS_LINE, "data_sets={'<one data set>'};"], [_SUMMARY_LINE, "+ record writer"]],
        "seeding": "rand('state', seed); randn('state', seed)",
        "runs": sorted(_run_name((int(s), str(d))) for s, d in runs),
    }


def _runs_table(runs: Sequence[Run]) -> pd.DataFrame:
    rows = []
    for seed, dataset in runs:
        info = json.loads(_result_paths(seed, dataset)[1].read_text(encoding="utf-8"))
        rows.append({k: info[k] for k in _RUN_COLUMNS})
    return pd.DataFrame(rows, columns=list(_RUN_COLUMNS))


_RUN_COLUMNS = (
    "seed",
    "dataset",
    "octave",
    "statistics",
    "cpu_seconds",
    "wall_seconds",
    "date",
    "platform",
)


def _committed_runs() -> list[Run]:
    meta = results_dir() / f"{TABLE}.json"
    try:
        names = json.loads(meta.read_text(encoding="utf-8"))["config"]["runs"]
        return [(int(n.split("/")[0].removeprefix("seed")), n.split("/")[1]) for n in names]
    except (OSError, ValueError, KeyError, IndexError) as err:
        raise StaleResultError(
            f"cannot read the runs of {meta}: {err}; run `make octave` and commit data/results/"
        ) from err


def authors_octave_seconds() -> tuple[str, float, float]:
    """What ``limo_authors_octave``'s rows come from, outside the runner's cells: the
    committed runs of the authors' ``demo.m`` under GNU Octave, and their CPU and wall
    seconds summed from the runs' own records (``make octave``)."""
    runs = _committed_runs()
    t = _runs_table(runs)
    return (
        f"{len(runs)} runs of the authors' demo.m under GNU Octave (make octave)",
        float(t["cpu_seconds"].sum()),
        float(t["wall_seconds"].sum()),
    )


def authors_octave_tables(
    runs: Sequence[Run] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The committed per-split table and its runs table, checked against their specification.

    ``runs`` default: the (seed, data set) runs named in the committed provenance.
    When recomputation is requested (``make octave``), the tables are rebuilt from the
    cached results of ``runs``.
    """
    runs = _committed_runs() if runs is None else sorted(runs)
    config = authors_octave_config(runs)
    per_split = load_or_compute(TABLE, lambda: collect_runs(runs), config)
    runs_table = load_or_compute(RUNS_TABLE, lambda: _runs_table(runs), config)
    return per_split, runs_table


def main(argv: Sequence[str] | None = None) -> int:
    """The command line ``mlcrepro octave build`` / ``mlcrepro octave run --seeds ...``."""
    parser = argparse.ArgumentParser(prog="mlcrepro octave")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("build", help="build LIBSVM's MATLAB interface into data/cache/octave")
    run = sub.add_parser("run", help="run demo.m for each seed and data set (resumes)")
    run.add_argument("--seeds", type=int, nargs="+", required=True)
    run.add_argument("--datasets", nargs="+", default=list(authors.DATASETS))
    run.add_argument("--log", type=Path, default=None)
    table = sub.add_parser(
        "table", help="rewrite the committed tables from the finished runs (MLCBOOK_RECOMPUTE)"
    )
    table.add_argument("--seeds", type=int, nargs="+", default=list(DEFAULT_SEEDS))
    args = parser.parse_args(argv)
    if args.command == "build":
        print(build_libsvm())
        return 0
    if args.command == "table":
        done = finished_runs(args.seeds)
        if not done:
            raise SystemExit(f"no run of the seeds {args.seeds} has finished")
        if not recompute_requested(TABLE):
            raise SystemExit(f"set MLCBOOK_RECOMPUTE={TABLE},{RUNS_TABLE} to rewrite the tables")
        per_split, runs = authors_octave_tables(done)
        missing = [
            _run_name((s, d)) for s in args.seeds for d in authors.DATASETS if (s, d) not in done
        ]
        print(
            f"{TABLE}: {len(per_split)} rows from {len(runs)} runs"
            + (f"; not finished: {', '.join(missing)}" if missing else "")
        )
        return 0
    todo = [(s, d) for s in args.seeds for d in args.datasets]
    for k, (seed, dataset) in enumerate(todo, 1):
        t0 = time.monotonic()
        path = run_one(seed, dataset, log=args.log)
        info = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        print(
            f"[{k}/{len(todo)}] seed {seed} {dataset}: cpu {info['cpu_seconds']} s "
            f"(this call {time.monotonic() - t0:.0f} s) -> {path}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
