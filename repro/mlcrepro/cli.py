"""The reproduction's command line: ``mlcrepro check ID``, ``mlcrepro reproduce`` and more.

``mlcrepro check ID`` prints what the ledgers hold about one claim
(:func:`mlcrepro.check.describe`).  ``mlcrepro ledgers [PAGE ...]`` builds the ledgers
of the pages (every ledger without pages) and compares each with the committed one, or
with ``--write`` writes them (``make chapter`` does, before it executes a page).
``mlcrepro reproduce [NAME ...]`` recomputes committed tables from scratch through the
runner, on a dask.distributed cluster (:mod:`mlcrepro.reproduce`), and prints how far
each moved; with ``--plan`` it prints instead, before anything runs, each table's cells,
those already cached, their measured CPU seconds and the expected wall time
(:mod:`mlcrepro.plan`); with ``--quick`` it recomputes each table's declared sample of
cells and judges it against the committed rows (:mod:`mlcrepro.quick`).  ``mlcrepro
causes`` prints, per family of open causes of the saved ledgers, how many rows say what
would settle them (:func:`mlcrepro.ledger.cause_families`).  Bad input (an id of the
wrong form, an id no row carries, an unknown table, a page that is not one) is refused
with a one-line message on standard error and exit status 2, before any work.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import signal
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from threadpoolctl import threadpool_info

from mlcbook.files import atomic_write_text
from mlcrepro._paths import cache_dir, results_dir
from mlcrepro.check import describe
from mlcrepro.experiment import Experiment
from mlcrepro.ledger.settle import cause_families
from mlcrepro.ledger.storage import committed_folder, load_ledgers
from mlcrepro.papers import PAPERS, build_ledgers, page_ledgers, pages
from mlcrepro.papers import experiments as paper_experiments
from mlcrepro.plan import plan, plan_text
from mlcrepro.quick import quick, quick_markdown
from mlcrepro.rebuild_attribution import attribute
from mlcrepro.rebuild_parts import (
    RECORDS,
    assembled_markdown,
    read_records,
    run_record,
    write_record,
)
from mlcrepro.rebuild_report import ledger_changes, report_markdown
from mlcrepro.recheck import recheck
from mlcrepro.reproduce import experiments, reproduce, write_tables
from mlcrepro.runner import cell_path, cells
from mlcrepro.sittings import read_sittings, record_sitting, with_last_saved
from mlcrepro.wu_zhou2017 import octave

__all__ = ["main"]


def _add_check(add_parser: Callable[..., argparse.ArgumentParser]) -> None:
    """The command ``mlcrepro check ID [--recompute]``."""
    check = add_parser(
        "check",
        help="print a claim's ledger rows: the paper's value, ours, status and cause",
        description=(
            "Print every ledger row that carries the claim id: the claim as the paper "
            "makes it, the paper's value, ours, the tolerance, the status, and for a row "
            "that differs its cause and the evidence behind it."
        ),
    )
    check.add_argument("claim_id", metavar="ID", help="a claim id such as HU098 or PR016")
    check.add_argument(
        "--recompute",
        action="store_true",
        help="rerun the cells behind the row (a fresh cache) and judge it again",
    )
    check.add_argument(
        "--jobs", type=int, default=-1, help="worker processes for --recompute (all cores)"
    )


def _add_reproduce(add_parser: Callable[..., argparse.ArgumentParser]) -> None:
    """The command ``mlcrepro reproduce [NAME ...]``."""
    rep = add_parser(
        "reproduce",
        help="recompute committed tables from scratch and compare them with the committed",
        description=(
            "Recompute committed result tables through the runner: every cell on a "
            "dask.distributed cluster (the scheduler at --scheduler or DASK_SCHEDULER, else "
            "a local cluster of this machine's cores), resumable after a kill; each table "
            "compared with the committed one within its tolerance, and every ledger "
            "rebuilt from the recomputed tables."
        ),
    )
    rep.add_argument("tables", nargs="*", metavar="NAME", help="tables to recompute (all)")
    rep.add_argument("--paper", metavar="KEY", help="recompute this paper's tables (a part)")
    rep.add_argument(
        "--record",
        nargs="?",
        const="",
        metavar="PART",
        help=(
            "write the run's record as a part of a rebuild, data/results/rebuild/PART.json "
            "(PART by default the paper's key, or 'all' for every table; named when NAMEs "
            "are given), and the report of every part so far to data/results/REPRODUCE.md"
        ),
    )
    rep.add_argument("--scheduler", help="address of a dask scheduler, tcp://host:8786")
    rep.add_argument("--workers", type=int, help="worker processes of the local cluster")
    rep.add_argument("--write", action="store_true", help="replace the committed tables")
    rep.add_argument("--fresh", action="store_true", help="start from an empty cache (a cold run)")
    rep.add_argument("--report", type=Path, help="also write the report to this file")
    rep.add_argument(
        "--no-ledgers", action="store_true", help="do not rebuild the ledgers afterwards"
    )
    rep.add_argument(
        "--quick",
        action="store_true",
        help=(
            "recompute only each table's declared sample of cells (one dataset, one seed "
            "or fold) afresh and judge it against the committed rows; exit status 1 when "
            "one is outside its tolerance"
        ),
    )
    rep.add_argument(
        "--plan",
        action="store_true",
        help=(
            "print, per table, its cells, those cached, their measured CPU seconds and the "
            "expected wall time on --workers workers (default: this machine's cores); "
            "with --quick, of the quick tier's sampled cells; compute nothing"
        ),
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mlcrepro",
        description="The reproduction behind mlcbook: check one claim by its id.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    _add_check(sub.add_parser)
    _add_reproduce(sub.add_parser)
    led = sub.add_parser(
        "ledgers",
        help="build the pages' ledgers and compare them with the committed, or write them",
        description=(
            "Build the ledgers the pages show (every ledger without PAGE) from the "
            "committed tables, check every status, and compare each with the committed "
            "ledger (exit status 1 when one differs, naming its rows), or with --write "
            "write them to book/_ledgers, atomically."
        ),
    )
    led.add_argument("pages", nargs="*", metavar="PAGE", help="pages, book/NAME.md (all)")
    led.add_argument("--write", action="store_true", help="write the committed ledgers")
    pg = sub.add_parser(
        "pages",
        help="list the book's pages to execute after tables change, in order",
        description=(
            "Print the pages (book/NAME.md) to execute after committed tables change: "
            "the Reproduce pages, then the Learn chapters, then the pages that read the "
            "saved ledgers; with --table, only the pages of the paper that makes it."
        ),
    )
    pg.add_argument("--table", help="a committed table's name")
    pg.add_argument("--paper", metavar="KEY", help="a paper's key, such as park_read2018")
    oc = sub.add_parser(
        "octave",
        help="run the authors' LIMO code under GNU Octave (build | run --seeds ...)",
        description="Wu & Zhou's released MATLAB code under GNU Octave: see `octave -h`.",
        add_help=False,
    )
    oc.add_argument("rest", nargs=argparse.REMAINDER)
    _add_causes(sub.add_parser)
    return parser


def _add_causes(add_parser: Callable[..., argparse.ArgumentParser]) -> None:
    """The ``causes`` command: per family of open causes, how many rows name their settler."""
    add_parser(
        "causes",
        help="per family of open causes (unknown, underspecified): rows, settled, settler",
        description=(
            "Read the saved ledgers and print, per ledger and family of open causes "
            "(unknown, underspecified), how many rows say what would settle them and what."
        ),
    )


def _causes() -> int:
    """Print :func:`mlcrepro.ledger.settle.cause_families` of the saved ledgers."""
    fam = cause_families(load_ledgers())
    for _, r in fam.iterrows():
        print(
            f"{r['chapter']:<10} {r['cause']:<14} {r['settled']:>3}/{r['rows']:<3} "
            f"{r['family']}" + (f"\n{'':>29}settled by: {r['settler']}" if r["settler"] else "")
        )
    print(
        f"{'all':<10} {'open':<14} {int(fam['settled'].sum()):>3}/{int(fam['rows'].sum()):<3} "
        "rows name what would settle them"
    )
    return 0


def _ledgers(args: argparse.Namespace) -> int:
    """Build, check and compare (or write) the ledgers of ``args.pages``; exit status."""
    if args.pages:
        chosen: dict[str, tuple[str, ...]] = {}
        for page in args.pages:
            if not str(page).endswith(".md"):
                raise ValueError(f"PAGE must be a page book/NAME.md, got {page!r}")
            chosen.update(page_ledgers(page))
    else:
        chosen = {p.key: p.ledgers for p in PAPERS if p.ledgers}
    differs = False
    for key in chosen:
        for name, ledger in build_ledgers(key).items():
            ledger.check()
            if args.write:
                print(f"wrote {ledger.save(committed_folder())} ({len(ledger.entries)} rows)")
                continue
            problems = ledger.differences()
            differs = differs or bool(problems)
            print(
                f"{name}: "
                + (
                    "as committed"
                    if not problems
                    else "\n  ".join(["differs from the committed ledger", *problems])
                )
            )
    return 1 if differs else 0


def _plan(exps: Sequence[Experiment], cells: Path, args: argparse.Namespace) -> int:
    """Print what ``mlcrepro reproduce`` would compute (``--plan``); nothing runs."""
    workers = args.workers or os.cpu_count() or 1
    tables, total = plan(exps, cells, fresh=args.fresh, quick=args.quick)
    print(plan_text(tables, total, workers), end="")
    return 0


def _machine() -> str:
    """The machine in a few words, with the kernels OpenBLAS picked on its CPU (the last
    bits of some fits follow them: :mod:`mlcrepro.rebuild_findings`)."""
    blas = [
        str(info.get("architecture"))
        for info in threadpool_info()
        if info.get("internal_api") == "openblas" and info.get("architecture")
    ]
    return f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}" + (
        f", OpenBLAS's {blas[0]} kernels" if blas else ""
    )


def _quick(exps: Sequence[Experiment], args: argparse.Namespace) -> int:
    """``--quick``: each table's sample recomputed and judged; 1 if one is outside."""
    start = time.perf_counter()
    verdicts = quick(exps, scheduler=args.scheduler, n_workers=args.workers)
    text = quick_markdown(verdicts, wall_seconds=time.perf_counter() - start, machine=_machine())
    print(text)
    if args.report is not None:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(text, encoding="utf-8")
    outside = [v.name for v in verdicts if v.comparison is not None and not v.comparison.within]
    return 1 if outside else 0


def _part(args: argparse.Namespace) -> tuple[str, list[Experiment]]:
    """The part a run rebuilds (``--record``'s name, else ``--paper``'s key, else ``all``)
    and its tables; unknown names refused before any work."""
    if args.paper is not None and args.tables:
        raise ValueError("give table names or --paper, not both")
    if args.paper is not None:
        names = [e.name for e in paper_experiments(args.paper)]
        if not names:  # experiments([]) would be every table
            raise ValueError(
                f"--paper {args.paper} has no result tables to recompute; papers with "
                f"tables: {[p.key for p in PAPERS if paper_experiments(p.key)]}"
            )
        return args.record or args.paper, experiments(names)
    if args.record == "" and args.tables:
        raise ValueError("--record needs the part's name (--record NAME) with table names")
    return args.record or "all", experiments(args.tables)


def _write_part(record: Mapping[str, Any]) -> tuple[Path, Path]:
    """Write a part's record and the report assembled from every part's record."""
    folder = results_dir() / RECORDS
    path = write_record(folder, record)
    report = results_dir() / "REPRODUCE.md"
    committed = [e.name for e in experiments()]
    atomic_write_text(report, assembled_markdown(read_records(folder), committed))
    return path, report


def _exit_on_signal(signum: int, frame: Any) -> None:
    """SIGTERM as an exit (status 128 + the signal), so that the sitting logs its end."""
    raise SystemExit(128 + signum)


def _check_cold(root: Path) -> None:
    """A part's record, resumed, only for a cold rebuild: the cache's first sitting
    emptied it (every cell in it was computed since, by a logged sitting)."""
    sittings = read_sittings(root)
    if not sittings or not sittings[0]["fresh"]:
        raise ValueError(
            "--record needs a cold rebuild: the cache was not emptied by its first sitting "
            "(run once with --fresh)"
        )


def _reproduce(args: argparse.Namespace) -> int:
    part, exps = _part(args)
    if args.record is not None and not args.write:
        raise ValueError("--record needs --write: a part's tables replace the committed")
    if args.workers is not None and args.workers < 1:
        raise ValueError(f"--workers must be >= 1, got {args.workers}")
    root = cache_dir() / "reproduce"
    if args.plan:
        return _plan(exps, root / "cells", args)
    if args.quick:
        return _quick(exps, args)
    if args.record is not None and not args.fresh:
        _check_cold(root)
    if args.fresh:
        shutil.rmtree(root, ignore_errors=True)
    started, start = datetime.now(UTC).isoformat(timespec="milliseconds"), time.perf_counter()
    names = [e.name for e in exps]
    record_sitting(root, started=started, tables=names, fresh=args.fresh)
    # a sitting stopped by a signal or Ctrl-C logs its wall time up to the stop
    previous = signal.signal(signal.SIGTERM, _exit_on_signal)
    try:
        reports = reproduce(
            exps,
            staging=root / "staging",
            cache_dir=root / "cells",
            scheduler=args.scheduler,
            n_workers=args.workers,
        )
    except (KeyboardInterrupt, SystemExit):
        wall = time.perf_counter() - start
        record_sitting(
            root, started=started, wall_seconds=wall, tables=names, fresh=args.fresh, stopped=True
        )
        raise
    finally:
        signal.signal(signal.SIGTERM, previous)
    changes = [] if args.no_ledgers else ledger_changes(root / "staging")
    follows = attribute(root / "staging", changes)  # before the committed tables go
    if args.write:
        write_tables(names, root / "staging")
    wall = time.perf_counter() - start
    record_sitting(root, started=started, wall_seconds=wall, tables=names, fresh=args.fresh)
    _report(args, part, root, reports, changes, follows, wall)
    return 0


def _saved_cells(root: Path) -> Callable[[Sequence[str]], list[Path]]:
    """``tables -> the cell files of those tables cached under root/cells`` (names no
    longer committed are passed over)."""
    known = {e.name for e in experiments([])}

    def files(tables: Sequence[str]) -> list[Path]:
        names = [t for t in tables if t in known]
        specs = [s for e in (experiments(names) if names else []) for s in e.specs()]
        paths = (cell_path(spec, c, root / "cells") for spec in specs for c in cells(spec))
        return [p for p in paths if p.exists()]

    return files


def _sittings(root: Path) -> list[dict[str, Any]]:
    """The cache's sittings, each with no end logged counted up to its last saved cell."""
    return with_last_saved(read_sittings(root), _saved_cells(root), time.time())


def _report(
    args: argparse.Namespace,
    part: str,
    root: Path,
    reports: Sequence[Any],
    changes: Sequence[Any],
    follows: Mapping[tuple[str, str], Sequence[str]],
    wall: float,
) -> None:
    """Print the run's report (and write it to ``--report``); with ``--record``, write
    the part's record and the report of every part."""
    machine, sittings = _machine(), _sittings(root)
    text = report_markdown(
        reports,
        wall_seconds=wall,
        machine=machine,
        ledgers=changes,
        sittings=sittings,
        follows=follows,
    )
    print(text)
    if args.report is not None:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(text, encoding="utf-8")
    if args.record is not None:
        record = run_record(
            part,
            reports,
            machine=machine,
            ledgers=changes,
            follows=follows,
            sittings=sittings,
        )
        for path in _write_part(record):
            print(f"wrote {path}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0, or 2 for bad input)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["octave"]:  # its own parser, help included
        return octave.main(argv[1:])
    args = _parser().parse_args(argv)
    if args.command == "pages":
        try:
            print("\n".join(pages(args.table, args.paper)))
        except ValueError as err:
            print(f"mlcrepro pages: {err}", file=sys.stderr)
            return 2
        return 0
    if args.command == "causes":
        return _causes()
    if args.command == "ledgers":
        try:
            return _ledgers(args)
        except ValueError as err:
            print(f"mlcrepro ledgers: {err}", file=sys.stderr)
            return 2
    if args.command == "reproduce":
        try:
            return _reproduce(args)
        except ValueError as err:
            print(f"mlcrepro reproduce: {err}", file=sys.stderr)
            return 2
    try:
        text = describe(args.claim_id)
        if args.jobs == 0 or args.jobs < -1:
            raise ValueError(f"--jobs must be a positive number or -1, got {args.jobs}")
    except ValueError as err:
        print(f"mlcrepro check: {err}", file=sys.stderr)
        return 2
    if args.recompute:
        print(text + "\n", flush=True)
        for r in recheck(args.claim_id, n_jobs=args.jobs):
            what = (
                f"{r.cells} cells of {', '.join(r.tables)} recomputed ({r.cpu_seconds:.1f} CPU s)"
                if r.cells
                else "computed from the library alone (no committed table)"
            )
            verdict = "unchanged" if r.unchanged else "CHANGED"
            text = (
                f"recomputed  ledger {r.ledger}, row {r.row}: {what}, "
                f"{r.wall_seconds:.1f} s in all\n"
                f"ours       {r.ours_before}  ->  {r.ours_after}\n"
                f"status     {r.status_before}  ->  {r.status_after} ({verdict})"
            )
            print(text, flush=True)
        return 0
    try:
        print(text)
    except BrokenPipeError:  # `mlcrepro check ID | head`: the reader left early
        sys.stderr.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
