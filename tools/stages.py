"""`make test`: run the check stages, side by side, each as soon as what it needs is done.

The stages are make targets.  :data:`STAGES` lists them in the order they are started:
a stage starts as soon as the stages it needs (:data:`NEEDS`) have passed and fewer than
:data:`SLOTS` stages run, so that a core never idles while a stage could run.  Each
stage writes to ``_build/test-logs/<stage>.log``, printed whole when the stage ends
(with its wall and CPU seconds), so that no two outputs interleave; a line says when
each starts.  The first stage that fails stops the others (their process groups are
killed) and starts no more; its output is printed, and the exit status is 1.

Why the stages are safe side by side: the PDF and the site read only the committed
notebooks and write only under ``_build/`` (the site offers the PDF, so it needs it);
lint, unit, wheel, java, pairs, newest and the reproduction's tests read the sources
and write nothing into the checkout; the notebooks' stages run the handouts the site
wrote (``portable-notebooks`` the pages, ``handouts`` the chapters' handouts in a fresh
environment of the site's wheels, in a temporary folder), ``browser`` and ``pdfcheck``
read the built site and PDF; ``clean-tree`` looks at the checkout after all of them.
What installs software (pip; apt for Chromium, poppler, the JDK and Weka) runs before
the first stage, in the Makefile.

Why this order and three slots: on CI's two cores the checks should take the time of
their work, not of their waits.  Alone, the Sphinx builds, lint, wheel, pairs and
pdfcheck keep one core busy and the PDF's printing less (Chromium lays out the book
twice), and the two-worker stages leave a core idle at their tails; three stages at a
time keep both cores busy without crowding memory.  The longest stage (the
reproduction's tests on the emulated CPU) and the longest chain (PDF, site, then the
browser and the notebooks) start first; the short stages fill the gaps.  Rounds of lanes,
the runner before this one, left a core idle for about 80 s while the last round waited
for its slowest lane.

Run as ``python tools/stages.py`` (from ``make test``) or with ``--plan`` to print the
order and what each stage needs.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: the stages of ``make test`` (make targets), in the order they are started
STAGES: list[str] = [
    "portable-tests",
    "pdf",
    "unit",
    "site",
    "browser",
    "handouts",
    "portable-notebooks",
    "newest",
    "java",
    "lint",
    "wheel",
    "pdfcheck",
    "pairs",
    "clean-tree",
]

#: stage -> the stages that must have passed before it starts (it reads what they write)
NEEDS: dict[str, tuple[str, ...]] = {
    "site": ("pdf",),
    "pdfcheck": ("pdf",),
    "browser": ("site",),
    "handouts": ("site",),
    "portable-notebooks": ("site",),
    "clean-tree": tuple(s for s in STAGES if s != "clean-tree"),
}

#: how many stages run at once
SLOTS = 3


class Stage(threading.Thread):
    """One stage: ``make <stage>`` in its own session, its output into its log."""

    def __init__(self, name: str, root: Path, logs: Path) -> None:
        super().__init__(daemon=True)
        self.name, self.root, self.log = name, root, logs / f"{name}.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.started = threading.Event()
        self.code: int | None = None
        self.cpu: float | None = None
        self.seconds = 0.0

    def run(self) -> None:
        t0 = time.monotonic()
        with open(self.log, "wb") as out:
            try:
                self.proc = subprocess.Popen(
                    ["make", "--no-print-directory", self.name],
                    cwd=self.root,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            finally:  # kill() waits for this, also when make could not start
                self.started.set()
            self.code, self.cpu = self.wait()
        self.seconds = time.monotonic() - t0

    def wait(self) -> tuple[int, float | None]:
        """The stage's exit status and the CPU seconds (user and system) it and every
        process it waited for used, from the kernel's accounting (``wait4``), so that the
        stages' costs add up to what the run used; ``None`` where the status was taken
        by another caller first."""
        assert self.proc is not None
        try:
            _, status, usage = os.wait4(self.proc.pid, 0)
        except ChildProcessError:
            return self.proc.wait(), None
        self.proc.returncode = os.waitstatus_to_exitcode(status)
        return self.proc.returncode, usage.ru_utime + usage.ru_stime

    def kill(self) -> None:
        """Stop the stage: every process of its session."""
        self.started.wait()
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    def report(self) -> str:
        """The stage's output, whole, and the line with its time."""
        text = self.log.read_text("utf-8", errors="replace").rstrip("\n")
        took = f"make test: stage {self.name} took {round(self.seconds)} s" + (
            "" if self.cpu is None else f" ({round(self.cpu)} CPU-s)"
        )
        return f"---- make {self.name} ----\n{text}\n{took}" if text else took


def _ready(name: str, needs: Mapping[str, Sequence[str]], passed: set[str]) -> bool:
    return all(n in passed for n in needs.get(name, ()))


def run(
    stages: Sequence[str] = STAGES,
    needs: Mapping[str, Sequence[str]] = NEEDS,
    slots: int = SLOTS,
    root: Path = ROOT,
) -> int:
    """Run the stages (make targets of the Makefile in ``root``), each once its
    ``needs`` have passed, at most ``slots`` at a time; 0 when every stage passed,
    else 1 (the first failure named)."""
    unknown = sorted({n for ns in needs.values() for n in ns} - set(stages))
    if unknown:
        raise ValueError(f"needs names stages that are not run: {unknown}")
    logs = root / "_build" / "test-logs"
    logs.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    waiting, running, passed = list(stages), [], set()
    failed: Stage | None = None
    try:
        while (waiting or running) and failed is None:
            for name in [s for s in waiting if _ready(s, needs, passed)]:
                if len(running) >= slots:
                    break
                waiting.remove(name)
                stage = Stage(name, root, logs)
                stage.start()
                running.append(stage)
                print(
                    f"make test: stage {name} started ({round(time.monotonic() - t0)} s)",
                    flush=True,
                )
            if not running:  # what waits needs a stage that is not run
                raise ValueError(f"stages {waiting} wait for stages that never run")
            time.sleep(0.2)
            for stage in [s for s in running if not s.is_alive()]:
                running.remove(stage)
                print(stage.report(), flush=True)
                if stage.code == 0:
                    passed.add(stage.name)
                elif failed is None:
                    failed = stage
    finally:  # a failure, Ctrl-C or TERM: no stage outlives make test
        for stage in running:
            stage.kill()
            stage.join()
    if failed is not None:
        print(f"make test: stage {failed.name} failed", file=sys.stderr, flush=True)
        return 1
    print(f"make test: all checks passed in {round(time.monotonic() - t0)} s", flush=True)
    return 0


def plan() -> list[str]:
    """The lines ``--plan`` prints: the stages in their order, with what each needs."""
    lines = [f"at most {SLOTS} stages at a time, started in this order:"]
    for name in STAGES:
        after = NEEDS.get(name, ())
        want = (
            "every other stage"
            if name == "clean-tree"
            else ", ".join(after)
            if after
            else "nothing"
        )
        lines.append(f"  {name:20s} needs {want}")
    return lines


def main(argv: list[str]) -> int:
    # a TERM (a CI time limit) unwinds like Ctrl-C, so that run() stops every stage
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if argv == ["--plan"]:
        print("\n".join(plan()))
        return 0
    if argv:
        print("usage: python tools/stages.py [--plan]", file=sys.stderr)
        return 2
    return run()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
