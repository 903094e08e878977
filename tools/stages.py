"""`make test`: run the check stages, side by side where they need different things.

The stages are make targets.  They run in *rounds*; a round runs its *lanes* at the
same time, and a lane runs its stages one after another.  The first lane of a round
prints as it goes; the others write to ``_build/test-logs/<stage>.log``, printed
whole when the round ends, so that no two outputs interleave.  A round ends when all
its lanes have; the first stage that fails stops the others (their process groups are
killed), its output is printed, and the exit status is 1.

Why the lanes are safe side by side: the PDF and the site read only the committed
notebooks and write only under ``_build/`` (the site offers the PDF, so it comes
second); lint, unit, wheel, java, pairs and the reproduction's tests read the sources
and write nothing into the checkout; the notebooks' stage runs the handouts the site
wrote (``portable-notebooks`` the pages, ``handouts`` the chapters' handouts in a fresh
environment of the site's wheels, in a temporary folder), ``browser`` and ``pdfcheck``
read the built site and PDF.  What installs software
(pip; apt for Chromium, poppler, the JDK and Weka) runs before the first round, in the
Makefile.

Why these lanes: on CI's two cores the checks should take the time of their work, not
of their waits.  Alone, the Sphinx builds, lint, wheel, pairs and pdfcheck keep one core
busy and the PDF's printing less (Chromium lays out 217 pages twice); the two-worker
stages leave a core idle at their tails.  The reproduction's tests, which need no site,
fill the first round; the notebooks and the browser share the second.

Run as ``python tools/stages.py`` (from ``make test``) or with ``--plan`` to print the
rounds.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: rounds of lanes of stages (make targets); the first lane of a round prints live
ROUNDS: list[list[list[str]]] = [
    [
        ["lint", "unit", "wheel", "java", "pairs"],
        ["pdf", "site", "pdfcheck", "newest"],
        ["portable-tests"],
    ],
    [["portable-notebooks", "handouts"], ["browser"]],
    [["clean-tree"]],
]


class Lane(threading.Thread):
    """One lane: its stages in order, stopped when a stage of another lane fails."""

    def __init__(
        self, stages: list[str], live: bool, stop: threading.Event, root: Path, logs: Path
    ) -> None:
        super().__init__(daemon=True)
        self.stages, self.live, self.stop = stages, live, stop
        self.root, self.logs = root, logs
        self.proc: subprocess.Popen[bytes] | None = None
        self.failed: str | None = None
        #: what the lane has to say when the round ends (outputs of a lane not printed live)
        self.report: list[str] = []

    def run(self) -> None:
        for stage in self.stages:
            if self.stop.is_set():
                return
            start = time.monotonic()
            log = self.logs / f"{stage}.log"
            # the printed lane writes to this terminal, the others each to their log
            with contextlib.nullcontext(None) if self.live else open(log, "wb") as out:
                self.proc = subprocess.Popen(
                    ["make", "--no-print-directory", stage],
                    cwd=self.root,
                    stdout=out,
                    stderr=None if out is None else subprocess.STDOUT,
                    start_new_session=True,
                )
                if self.stop.is_set():  # another lane failed while this stage started
                    self.kill()
                code, cpu = self.wait()
            if not self.live and (code == 0 or not self.stop.is_set()):  # not stopped by another
                text = log.read_text("utf-8", errors="replace").rstrip("\n")
                self.report.append(f"---- make {stage} (ran beside the lane above) ----")
                self.report.append(text)
            if code != 0:
                if not self.stop.is_set():
                    self.failed = stage
                    self.stop.set()
                return
            took = (f"make test: stage {stage} took {round(time.monotonic() - start)} s"
                    + ("" if cpu is None else f" ({round(cpu)} CPU-s)"))
            if self.live:
                print(took, flush=True)
            else:
                self.report.append(took)

    def wait(self) -> tuple[int, float | None]:
        """The stage's exit status and the CPU seconds (user and system) it and every
        process it waited for used, from the kernel's accounting (``wait4``), so that the
        stages' costs add up to what the run used; ``None`` where the status was taken
        by another caller first (a stage stopped by a failure elsewhere)."""
        assert self.proc is not None
        try:
            _, status, usage = os.wait4(self.proc.pid, 0)
        except ChildProcessError:
            return self.proc.wait(), None
        self.proc.returncode = os.waitstatus_to_exitcode(status)
        return self.proc.returncode, usage.ru_utime + usage.ru_stime

    def kill(self) -> None:
        """Stop the running stage: every process of its session."""
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass


def run(rounds: list[list[list[str]]], root: Path = ROOT) -> int:
    """Run the rounds (make targets of the Makefile in ``root``); 0 when every stage
    passed, else 1 (the first failure named)."""
    logs = root / "_build" / "test-logs"
    logs.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    for lanes in rounds:
        stop = threading.Event()
        workers = [Lane(stages, i == 0, stop, root, logs) for i, stages in enumerate(lanes)]
        try:
            for w in workers:
                w.start()
            while any(w.is_alive() for w in workers) and not stop.wait(0.5):
                pass
        finally:  # also on Ctrl-C: no stage outlives make test
            stop.set()
            for w in workers:
                w.kill()
                w.join()
        for w in workers:
            if w.report:
                print("\n".join(w.report), flush=True)
        failed = [w.failed for w in workers if w.failed]
        if failed:
            print(f"make test: stage {failed[0]} failed", file=sys.stderr, flush=True)
            return 1
    print(f"make test: all checks passed in {round(time.monotonic() - t0)} s", flush=True)
    return 0


def main(argv: list[str]) -> int:
    # a TERM (a CI time limit) unwinds like Ctrl-C, so that run() stops every stage
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if argv == ["--plan"]:
        for k, lanes in enumerate(ROUNDS, start=1):
            print(f"round {k}: " + "  |  ".join(" -> ".join(lane) for lane in lanes))
        return 0
    if argv:
        print("usage: python tools/stages.py [--plan]", file=sys.stderr)
        return 2
    return run(ROUNDS)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
