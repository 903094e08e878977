"""`make test-matrix`: the unit tests on every CPython 3.11-3.13 found, newest dependencies.

For each interpreter (on PATH as python3.X, or under pyenv) a fresh virtual environment
in a temporary folder receives ``mlcbook[test,boomer,clus]`` (the learner study's
software: without pyclus its committed table's specification differs and the tests that
check it rightly fail) with the newest releases the
requirements allow (no lock file) -- except mlrl-boomer, held at the version that made
the committed learner study (its provenance), because another BOOMER release learns
other rules and the recompute test would rightly fail -- and runs the unit tests; the
first one found also gets the book's tools and runs nbval over every chapter.  The
newest interpreter then runs the unit tests once more without the boomer extra (with
the clus extra: the Java tests run CLUS), with
the newest numpy, scipy and scikit-learn (which mlrl-boomer's pins would hold back),
deselecting only the tests marked ``boomer``.  Then two installation checks:

* *researcher*: a venv that already holds numpy 2.4 and scikit-learn 1.8 installs
  mlcbook (without extras); both must stay in place, mlrl-boomer must not come in,
  ``mlcbook.metrics`` and ``mlcbook.losses`` must import, and ``mlcrepro`` (the
  reproduction, not part of the library's wheel) must not;
* *lowest*: on the oldest interpreter, the lowest versions the core requirements allow
  (resolved by uv with ``--resolution lowest-direct``) must install and import.

Nothing is written into the repository; the summary is printed at the end and the exit
status is non-zero when any step failed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VERSIONS = ("3.11", "3.12", "3.13")
FAILED_SHOWN = 20  # failing test ids the summary names per step
# two workers, one test file (or notebook) per worker at a time, as make test runs them
XDIST = ["-n", "2", "--dist", "loadfile"]
UNIT = ["-m", "pytest", "tests/mlcbook", "tests/mlcrepro", "tests/java",
        "tests/book/test_chapter_cells.py", "tests/book/test_chapter_findings.py",
        "--doctest-modules", "lib/mlcbook", "repro/mlcrepro", "-q", "-p", "no:cacheprovider",
        *XDIST]
# `make newest` (a stage of `make test`): the tests where a new release of pandas or
# scikit-learn changes what the book prints, within make test's time -- the committed
# tables' round trip, the ledgers built from them and their views (pandas shapes every
# one), the library's measures against scikit-learn's own functions (every name they
# share, on every surface; the ranking kernels; the metrics), and every docstring example
# of both packages; `make test-matrix` runs all the tests on every interpreter
NEWEST_TESTS = (
    "tests/mlcrepro/test_results*.py", "tests/mlcrepro/test_tables.py",
    "tests/mlcrepro/test_ledger*.py", "tests/mlcrepro/*/test_ledger*.py",
    "tests/mlcrepro/*/test_views.py", "tests/mlcrepro/test_summary.py",
    "tests/mlcrepro/test_display.py", "tests/mlcrepro/test_outcomes.py",
    "tests/mlcrepro/test_verdict_tables.py", "tests/mlcrepro/test_claims.py",
    "tests/mlcrepro/test_check.py",
    "tests/mlcbook/test_name_walk.py", "tests/mlcbook/test_registry_common.py",
    "tests/mlcbook/test_scorers.py", "tests/mlcbook/test_ranking_kernels_sklearn.py",
    "tests/mlcbook/test_metrics.py",
)


def newest_command() -> list[str]:
    """The pytest command of ``make newest``: the files of :data:`NEWEST_TESTS` (each
    pattern must match), the doctests, BOOMER's tests and the refits left out."""
    files = []
    for pattern in NEWEST_TESTS:
        found = sorted(str(p.relative_to(ROOT)) for p in ROOT.glob(pattern))
        if not found:
            raise SystemExit(f"make newest: no test file matches {pattern!r}")
        files += found
    return ["-m", "pytest", *files, "--doctest-modules", "lib/mlcbook", "repro/mlcrepro", "-q",
            "-p", "no:cacheprovider", *XDIST, "-m", "not boomer and not recompute"]


NBVAL = ["-m", "pytest", "--nbval", "--nbval-current-env", "--nbval-sanitize-with",
         "tests/nbval_sanitize.cfg", "-p", "no:randomly", "-p", "no:cacheprovider", "book", "-q",
         *XDIST]


def find_interpreters() -> dict[str, str]:
    """``'3.X' -> path`` of the first interpreter of each minor version found."""
    found: dict[str, str] = {}
    roots = [os.environ.get("PYENV_ROOT", ""), str(Path.home() / ".pyenv")]
    for v in VERSIONS:
        candidates = [shutil.which(f"python{v}") or ""]
        for root in filter(None, roots):
            candidates += sorted(str(p) for p in Path(root, "versions").glob(f"{v}.*/bin/python{v}"))
        for c in filter(None, candidates):
            out = subprocess.run([c, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                                 capture_output=True, text=True, check=False)
            if out.returncode == 0 and out.stdout.strip() == v:
                found[v] = c
                break
    return found


# a node id has no space outside its parameters' brackets, which may hold " - "
_FAILED_LINE = re.compile(r"^(?:FAILED|ERROR) ([^\s\[]+(?:\[.*?\](?= - |$))?)")


class Step:
    """One command's outcome: whether it passed, and the ids of the tests that failed
    (pytest's ``FAILED``/``ERROR`` lines), which the summary names."""

    def __init__(self, ok: bool, failed: list[str] | None = None) -> None:
        self.ok, self.failed = ok, failed or []

    def __bool__(self) -> bool:
        return self.ok


def failed_ids(lines: list[str]) -> list[str]:
    """The test ids of pytest's short summary: ``FAILED id - reason`` -> ``id``."""
    out = []
    for line in lines:
        match = _FAILED_LINE.match(line)
        if match:
            out.append(match.group(1))
    return out


def run(cmd: list[str], log: list[str], **kw) -> Step:
    t0 = time.time()
    out = subprocess.run(cmd, capture_output=True, text=True, check=False, **kw)
    lines = (out.stdout + out.stderr).strip().splitlines()
    failures = [x for x in lines if x.startswith(("FAILED", "ERROR"))][:40]
    tail = failures + [x for x in lines[-3:] if x not in failures]
    log.append(f"$ {' '.join(cmd[:6])}{' ...' if len(cmd) > 6 else ''}  "
               f"({time.time() - t0:.0f} s, exit {out.returncode})")
    log.extend("    " + line for line in tail)
    return Step(out.returncode == 0, failed_ids(lines))


def venv(python: str, where: Path, log: list[str]) -> str:
    assert run([python, "-m", "venv", str(where)], log)
    py = str(where / "bin" / "python")
    run([py, "-m", "pip", "install", "--quiet", "--upgrade", "pip"], log)
    return py


def copy_source(where: Path) -> Path:
    """The package's sources, copied so that building a wheel writes nothing here."""
    if not where.exists():
        shutil.copytree(ROOT, where, ignore=shutil.ignore_patterns(
            ".git", ".venv", "_build", "build", "data", "book", "*.egg-info", "__pycache__"))
    return where


def versions(py: str) -> str:
    code = ("from importlib import metadata as m\n"
            "def v(p):\n"
            "    try:\n"
            "        return m.version(p)\n"
            "    except m.PackageNotFoundError:\n"
            "        return 'absent'\n"
            "print(' '.join(f'{p}={v(p)}' for p in ('numpy','scipy','pandas',"
            "'scikit-learn','mlrl-boomer')))")
    return subprocess.run([py, "-c", code], capture_output=True, text=True, check=False).stdout.strip()


def test_env() -> dict[str, str]:
    """The environment the tests run in: no progress bars, a fixed hash seed, this
    machine's own CPU paths (no emulation), nothing recomputed on request."""
    env = {**os.environ, "MLCBOOK_PROGRESS": "0", "PYTHONHASHSEED": "0", "CI": "true"}
    for var in ("MLCBOOK_RECOMPUTE", "NPY_DISABLE_CPU_FEATURES", "OPENBLAS_CORETYPE"):
        env.pop(var, None)
    return env


def print_summary(summary: list[tuple[str, str, Step | bool, str]], title: str) -> int:
    """The summary lines (each failing step with the ids of its failed tests); the exit
    status: 0 when every step passed."""
    print(f"\n{title}")
    for v, what, ok, vers in summary:
        print(f"  CPython {v}  {'PASS' if ok else 'FAIL'}  {what}  {vers}")
        failed = getattr(ok, "failed", [])
        for test_id in failed[:FAILED_SHOWN]:
            print(f"      failed: {test_id}")
        if len(failed) > FAILED_SHOWN:
            print(f"      ... and {len(failed) - FAILED_SHOWN} more (the log above lists 40)")
    return 0 if all(ok for *_, ok, _ in summary) else 1


def newest_slice() -> int:
    """``make newest``, a stage of ``make test``: the tests of the library and the
    reproduction (no refits of committed tables, no BOOMER, no Java) on the newest
    interpreter found with the newest releases the requirements allow.

    The venv ``_build/newest-venv`` (git-ignored) is made anew on every run by uv, the
    lock's pinned installer, beside the interpreter that runs this; uv's own cache keeps
    the downloads, so that a new release of numpy, scipy, pandas or scikit-learn is met
    the day it is out, at the cost of a few seconds when nothing was released.
    """
    pythons = find_interpreters()
    if not pythons:
        print("no CPython 3.11-3.13 found")
        return 1
    v, python = list(pythons.items())[-1]
    uv = str(Path(sys.executable).parent / "uv")
    log: list[str] = []
    where = ROOT / "_build" / "newest-venv"
    py = str(where / "bin" / "python")
    ok = run([uv, "venv", "--quiet", "--clear", "--python", python, str(where)], log)
    ok = ok and run([uv, "pip", "install", "--quiet", "--python", py, "-e", ".[test,clus]",
                     "-e", "repro"], log, cwd=ROOT)
    command = newest_command()
    ok = ok and run([py, *command], log, cwd=ROOT, env=test_env())
    print("\n".join(log))
    n_files = sum(a.startswith("tests/") for a in command)
    what = (f"the newest releases: {n_files} test files and the doctests "
            "(not boomer, not recompute)")
    return print_summary([(v, what, ok, versions(py))], "make newest summary")


def main() -> int:
    pythons = find_interpreters()
    if not pythons:
        print("no CPython 3.11-3.13 found")
        return 1
    env = test_env()
    summary: list[tuple[str, str, Step | bool, str]] = []
    log: list[str] = []
    boomer = json.loads((ROOT / "data/results/dependence_authors.json").read_text())[
        "versions"]["mlrl-boomer"]
    with tempfile.TemporaryDirectory(prefix="mlcbook-matrix-") as tmp:
        pin = Path(tmp, "boomer.txt")
        pin.write_text(f"mlrl-boomer=={boomer}\n")
        first = True
        for v, python in pythons.items():
            py = venv(python, Path(tmp, f"py{v}"), log)
            extras = "book,test" if first else "test,boomer,clus"
            ok = run([py, "-m", "pip", "install", "--quiet", "-c", str(pin), "-e",
                      f".[{extras}]", "-e", "repro"], log, cwd=ROOT)
            ok = ok and run([py, *UNIT], log, cwd=ROOT, env=env)
            summary.append((v, "unit tests", ok, versions(py)))
            if first:
                ok = run([py, *NBVAL], log, cwd=ROOT, env=env)
                summary.append((v, "nbval, every chapter", ok, ""))
                first = False
        # the newest numpy/scipy/scikit-learn, which mlrl-boomer's pins hold back above
        v, python = list(pythons.items())[-1]
        py = venv(python, Path(tmp, "newest"), log)
        ok = run([py, "-m", "pip", "install", "--quiet", "-e", ".[test,clus]", "-e", "repro"], log,
                 cwd=ROOT)
        ok = ok and run([py, *UNIT, "-m", "not boomer"], log, cwd=ROOT, env=env)
        summary.append((v, "unit tests without the boomer extra (not boomer)", ok, versions(py)))
        # a researcher's environment keeps its numpy and scikit-learn
        v, python = next(iter(pythons.items()))
        py = venv(python, Path(tmp, "researcher"), log)
        ok = run([py, "-m", "pip", "install", "--quiet", "numpy==2.4.*", "scikit-learn==1.8.*"], log)
        before = versions(py)
        src = copy_source(Path(tmp, "src"))  # a non-editable build writes build/ beside its source
        ok = ok and run([py, "-m", "pip", "install", "--quiet", str(src)], log)
        after = versions(py)
        keep = [w for w in before.split() if not w.startswith(("pandas", "mlrl"))]
        ok = ok and len(keep) == 3 and all(w in after.split() for w in keep)
        ok = ok and "mlrl-boomer=absent" in after
        ok = ok and run([py, "-c", "import importlib.util as u, mlcbook.metrics, mlcbook.losses; "
                         "assert u.find_spec('mlcrepro') is None"], log, cwd=tmp)
        summary.append((v, "researcher venv: pip install . keeps numpy 2.4, sklearn 1.8", ok, after))
        # the lowest versions the core requirements allow
        py = venv(python, Path(tmp, "lowest"), log)
        ok = run([py, "-m", "pip", "install", "--quiet", "uv>=0.5,<1"], log)
        uv = str(Path(py).parent / "uv")
        lock = Path(tmp, "lowest.txt")
        ok = ok and run([uv, "pip", "compile", "pyproject.toml", "--resolution", "lowest-direct",
                         "--python", py, "--quiet", "-o", str(lock)], log, cwd=ROOT)
        ok = ok and run([uv, "pip", "install", "--python", py, "--quiet", "-r", str(lock)], log)
        ok = ok and run([uv, "pip", "install", "--python", py, "--quiet", "--no-deps", str(src)],
                        log)
        code = ("import numpy as np, mlcbook.metrics as M, mlcbook.losses as L\n"
                "Y = np.array([[1, 0, 1], [0, 1, 1]]); P = np.array([[1, 1, 0], [0, 1, 1]])\n"
                "assert abs(M.hamming_loss(Y, P) - 2 / 6) < 1e-15\n"
                "assert L.binomial_loss(Y, P, 3) == 0.5")
        ok = ok and run([py, "-c", code], log, cwd=tmp)
        summary.append((v, "lowest core versions: install, import, measures", ok, versions(py)))
    print("\n".join(log))
    return print_summary(summary, "make test-matrix summary")

if __name__ == "__main__":
    sys.exit(newest_slice() if sys.argv[1:] == ["--newest"] else main())
