"""A dask cluster for tests, started as the README's recipe starts one: ``dask scheduler``
and ``dask worker`` processes (:class:`Cluster`), each a child of the test's process that
dies with it (:func:`tests.mlcrepro.child_processes.die_with_parent`).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import psutil
import pytest

from tests.mlcrepro.child_processes import die_with_parent

ROOT = Path(__file__).resolve().parents[2]
DASK = str(Path(sys.executable).with_name("dask"))
#: seconds any one step may take (a process starting, a run finishing) on a loaded machine;
#: a deadline for a hang, not a measure of speed: a client started again took over 60 s to
#: import and finish its table on a 2-core machine running five other CPU-bound processes
TIMEOUT = 180.0


class Cluster:
    """A scheduler, workers and clients, each a subprocess of this process, all writing
    into one temporary folder (``folder``) and run with the environment ``env``: this
    process's, with the checkout on the path (a worker may import the tests' own cells)
    and dask's scratch in the folder.  ``logs`` names further files of the folder that
    a failure message ends with."""

    def __init__(self, logs: tuple[str, ...] = ()) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="mlcrepro-cluster-"))
        self.env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.getenv("PYTHONPATH")])]),
            "DASK_TEMPORARY_DIRECTORY": str(self.folder / "dask"),  # the workers' scratch
        }
        self.env.pop("MLCBOOK_RECOMPUTE", None)
        self.logs = logs
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.ended: set[str] = set()  # killed by the test, or finished and checked
        self.address = ""

    def start(self, name: str, args: list[str]) -> subprocess.Popen[bytes]:
        with (self.folder / f"{name}.out").open("wb") as out:
            proc = subprocess.Popen(
                args,
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=self.folder,
                env=self.env,
                # it dies with this process, however this one ends
                preexec_fn=die_with_parent,
            )
        self.procs[name] = proc
        return proc

    def outputs(self) -> str:
        """Every process's output, for a failure message."""
        return "\n".join(
            f"--- {p.name}\n{p.read_text(errors='replace')[-3000:]}"
            for p in [*sorted(self.folder.glob("*.out")), *(self.folder / n for n in self.logs)]
            if p.exists()
        )

    def wait_for(self, what: str, ready: Callable[[], bool]) -> None:
        deadline = time.monotonic() + TIMEOUT
        while not ready():
            for name, proc in self.procs.items():
                if name not in self.ended and proc.poll() is not None:
                    pytest.fail(
                        f"{name} ended (exit status {proc.returncode}) while the test was "
                        f"waiting for {what}\n{self.outputs()}"
                    )
            if time.monotonic() > deadline:
                pytest.fail(
                    f"timed out after {TIMEOUT:.0f} s waiting for {what}\n{self.outputs()}"
                )
            time.sleep(0.02)

    def start_scheduler(self) -> None:
        file = self.folder / "scheduler.json"
        self.start(
            "scheduler",
            [
                DASK,
                "scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--no-dashboard",
                "--scheduler-file",
                str(file),
            ],
        )

        def address() -> str:
            try:
                return str(json.loads(file.read_text())["address"])
            except (OSError, ValueError, KeyError):
                return ""  # not written yet, or not whole

        self.wait_for("the scheduler's address", lambda: bool(address()))
        self.address = address()

    def start_worker(self, name: str) -> None:
        self.start(
            name,
            [
                DASK,
                "worker",
                self.address,
                "--nworkers",
                "1",
                "--nthreads",
                "1",
                "--no-dashboard",
                "--name",
                name,
            ],
        )

    def reproduce(
        self, name: str, *args: str, module: str = "mlcrepro"
    ) -> subprocess.Popen[bytes]:
        """``python -m MODULE reproduce ARGS --scheduler ADDRESS --no-ledgers`` as the
        process ``name`` (``module``: ``mlcrepro``, or a script that runs its command
        line with tables of its own)."""
        return self.start(
            name,
            [
                sys.executable,
                "-m",
                module,
                "reproduce",
                *args,
                "--scheduler",
                self.address,
                "--no-ledgers",
            ],
        )

    def finish(self, name: str, what: str) -> None:
        """Wait for the process ``name`` to end; fail unless it ended well."""
        proc = self.procs[name]
        self.ended.add(name)
        self.wait_for(what, lambda: proc.poll() is not None)
        if proc.returncode != 0:
            pytest.fail(f"{what} ended with exit status {proc.returncode}\n{self.outputs()}")

    def members(self, name: str) -> list[psutil.Process]:
        """The process ``name`` and its descendants (a nanny and its worker process)."""
        try:
            top = psutil.Process(self.procs[name].pid)
            return [top, *top.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []

    def signal(self, name: str, sig: signal.Signals) -> None:
        """Send ``sig`` to the process ``name`` and its descendants."""
        for proc in self.members(name):
            with contextlib.suppress(psutil.NoSuchProcess):
                proc.send_signal(sig)

    def stop(self, name: str) -> None:
        """SIGSTOP the process ``name`` and its descendants, and wait until each one is
        stopped: ``kill`` returns before a process running on another core has taken the
        signal, and until it has, it may still write."""
        members = self.members(name)
        for proc in members:
            with contextlib.suppress(psutil.NoSuchProcess):
                proc.send_signal(signal.SIGSTOP)

        def all_stopped() -> bool:
            for proc in members:
                with contextlib.suppress(psutil.NoSuchProcess):
                    if proc.status() not in (psutil.STATUS_STOPPED, psutil.STATUS_ZOMBIE):
                        return False
            return True

        self.wait_for(f"{name} to stop", all_stopped)

    def kill(self, name: str) -> None:
        """SIGKILL the process ``name`` and its descendants, and reap it."""
        self.ended.add(name)
        if self.procs[name].poll() is None:
            self.signal(name, signal.SIGKILL)
        self.procs[name].wait(timeout=TIMEOUT)

    def close(self) -> None:
        """SIGKILL every process and its descendants, reap them, remove the folder."""
        for name in self.procs:
            self.kill(name)
        shutil.rmtree(self.folder, ignore_errors=True)
