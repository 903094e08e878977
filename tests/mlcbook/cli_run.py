"""Run the command line for a test: in this process, or as a user runs it in a subprocess.

``python -m mlcbook ARGS`` is ``sys.exit(mlcbook.cli.main(ARGS))`` (``mlcbook/__main__.py``),
so :func:`run_in_process` calls :func:`mlcbook.cli.main` with the same arguments, the same
working folder and environment, and captures what it writes: the same exit status, standard
output and standard error, without a Python start-up (about 1.5 s) per call.  An exception
that main() lets through fails the test (a subprocess would print a traceback).  The tests
of the process itself (the console script, ``python -m``, a closed or full standard output,
the exit status of a usage error) call :func:`run_process`.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

from mlcbook.cli import main

SCRIPT = Path(sys.executable).with_name("mlcbook")


def run_process(
    *args: object, cwd: Path | None = None, env: dict | None = None, script: bool = False
) -> subprocess.CompletedProcess:
    """``mlcbook ARGS`` (``script``) or ``python -m mlcbook ARGS`` in a subprocess."""
    cmd = [str(SCRIPT)] if script else [sys.executable, "-m", "mlcbook"]
    e = dict(os.environ, MLCBOOK_PROGRESS="0", **(env or {}))
    return subprocess.run(
        cmd + [str(a) for a in args], capture_output=True, text=True, cwd=cwd, env=e,
        timeout=120,
    )


@contextlib.contextmanager
def _environment(cwd: Path | None, env: dict):
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    os.environ.update(env)
    if cwd is not None:
        os.chdir(cwd)
    try:
        yield
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)


def run_in_process(
    *args: object, cwd: Path | None = None, env: dict | None = None
) -> subprocess.CompletedProcess:
    """``main(ARGS)`` here, as :func:`run_process` would run it: status, stdout, stderr."""
    argv = [str(a) for a in args]
    out, err = io.StringIO(), io.StringIO()
    with _environment(cwd, dict(MLCBOOK_PROGRESS="0", **(env or {}))), \
            contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as exc:  # argparse: usage errors (2), --help (0)
            status = 0 if exc.code is None else exc.code if isinstance(exc.code, int) else 1
    return subprocess.CompletedProcess(["mlcbook", *argv], status, out.getvalue(),
                                       err.getvalue())
