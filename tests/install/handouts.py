"""The handouts as a student runs them: a fresh environment built from the site's wheels,
the network off, every one of the chapters' 16 handouts top to bottom (``make handouts``).

What a student has: the handouts and the three wheels of the site's page "Get the code"
(the library, the reproduction with the result tables the chapters read, the data bundle)
in one folder.  This script copies exactly those files from the built site
(``_build/html/handouts/`` and ``_build/html/downloads/``) into a temporary folder, then,
with the network off:

1. makes a fresh environment (``python -m venv --without-pip``) whose only other packages
   are the third-party ones of the book's environment: one ``.pth`` file names a folder
   of links to the entries of ``.venv``'s ``site-packages`` *without* the book's own
   packages (the editable ``mlcbook`` and ``mlcrepro`` and their metadata), so that
   NumPy, pandas, Jupyter and pytest come from the lock, and ``mlcbook``/``mlcrepro``
   only from the wheels;
2. runs the install line the handouts print in their first code cell (the same line in
   all 16, checked), verbatim, with the environment's pip, in the student's folder;
3. runs every handout with nbval (``--nbval-current-env``: the kernel is this fresh
   environment's Python), comparing the committed outputs (the install cell, tagged
   ``nbval-skip``, is the line of step 2), with an empty data home and no dataset mirror:
   every dataset comes from the installed data bundle;
4. prints each notebook's time and outcome, and fails unless all 16 passed.

The network is off by ``unshare -n`` (a new network namespace with only the loopback,
brought up for the kernels' sockets) when this machine allows it; else (no user
namespaces) by pointing the proxies nowhere, ``PIP_NO_INDEX=1`` and
``MLCBOOK_DATA_DOWNLOAD=0``, and the script says which.  The thread counts and the
emulated CPU of the calling environment (``make handouts`` passes ``EMULATE_CPU``) are
kept.  Nothing is written into the checkout; the temporary folder is removed.

Run as ``python tests/install/handouts.py [-n WORKERS] [--keep]``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "book"))
from notebooks import handout_notebooks  # noqa: E402

DOWNLOADS = ROOT / "_build" / "html" / "downloads"
INSTALL_TAG = "handout-install"
#: entries of the book environment's site-packages that are the book's own packages
#: (editable installs and their metadata): left out of the fresh environment
OWN = ("mlcbook", "mlcrepro", "__editable__", "_mlcbook")
#: what of the calling environment reaches the notebooks (threads, emulated CPU, locale)
KEEP = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_CORETYPE",
        "NPY_DISABLE_CPU_FEATURES", "LANG", "LC_ALL", "TZ")


def install_line(notebook: Path) -> str:
    """The install line of a handout: its cell tagged ``handout-install``, without ``%``."""
    nb = nbformat.read(notebook, as_version=4)
    cells = [c for c in nb.cells if INSTALL_TAG in c.metadata.get("tags", [])]
    if len(cells) != 1 or not cells[0].source.startswith("%pip install "):
        raise SystemExit(f"{notebook.name}: expected one cell tagged {INSTALL_TAG} holding "
                         f"`%pip install ...`, found {len(cells)}")
    return cells[0].source[1:].strip()


def network_off() -> tuple[list[str], dict[str, str], str]:
    """The command prefix and variables that cut the network, and how they do it."""
    probe = subprocess.run(["unshare", "-n", "ip", "link", "set", "lo", "up"],
                           capture_output=True, check=False) if shutil.which("unshare") \
        and shutil.which("ip") else None
    if probe is not None and probe.returncode == 0:
        return (["unshare", "-n", "sh", "-c", 'ip link set lo up && exec "$@"', "offline"],
                {}, "unshare -n (a network namespace with the loopback only)")
    nowhere = "http://127.0.0.1:9"
    return ([], {"http_proxy": nowhere, "https_proxy": nowhere, "HTTP_PROXY": nowhere,
                 "HTTPS_PROXY": nowhere, "PIP_NO_INDEX": "1", "MLCBOOK_DATA_DOWNLOAD": "0"},
            "no network namespace here: proxies to a closed port, PIP_NO_INDEX=1, "
            "MLCBOOK_DATA_DOWNLOAD=0")


def book_packages(folder: Path) -> Path:
    """A folder of links to the book environment's third-party packages (not its own)."""
    folder.mkdir()
    seen = set()
    for key in ("purelib", "platlib"):
        site = Path(sysconfig.get_paths()[key])
        if site in seen:
            continue
        seen.add(site)
        for entry in site.iterdir():
            if entry.name.startswith(OWN) or entry.suffix == ".pth":
                continue
            if not (folder / entry.name).exists():
                (folder / entry.name).symlink_to(entry)
    return folder


def run(cmd: list[str], check: bool = False, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, text=True, check=check, **kw)


def per_notebook(junit: Path) -> dict[str, tuple[float, int, int]]:
    """``{notebook: (seconds, cells run, failed cells)}`` from pytest's JUnit report (the
    install cell, which nbval skips, is not counted: step 2 ran its line)."""
    out: dict[str, tuple[float, int, int]] = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        name = Path(case.get("file") or case.get("classname", "?").replace(".", "/")).name
        if not name.endswith(".ipynb"):
            name = case.get("classname", "?").split(".")[0] + ".ipynb"
        bad = any(child.tag in ("failure", "error") for child in case)
        ran = not any(child.tag == "skipped" for child in case)  # the install cell
        t, n, f = out.get(name, (0.0, 0, 0))
        out[name] = (t + float(case.get("time", 0)), n + ran, f + bad)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=2, help="pytest-xdist workers (default 2)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = ap.parse_args(argv)
    t0 = time.monotonic()

    found, problems = handout_notebooks()
    if problems:
        print("the handouts are not built from the chapters as they are (run `make site` "
              "first): " + "; ".join(problems), file=sys.stderr)
        return 1
    lines = {install_line(nb) for nb in found}
    if len(lines) != 1:
        print(f"the handouts print different install lines: {sorted(lines)}", file=sys.stderr)
        return 1
    (line,) = lines
    wheels = line.split()[2:]
    missing = [w for w in wheels if not (DOWNLOADS / w).is_file()]
    if missing:
        print(f"the site offers no {', '.join(missing)} (run `make site`)", file=sys.stderr)
        return 1

    tmp = Path(tempfile.mkdtemp(prefix="mlcbook-handouts-"))
    try:
        course = tmp / "course"  # the student's folder: the handouts and the downloads
        course.mkdir()
        for path in [*found, *(DOWNLOADS / w for w in wheels)]:
            shutil.copy2(path, course / path.name)
        venv = tmp / "venv"
        run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
        py = venv / "bin" / "python"
        site = Path(run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()"
                         "['purelib'])"], capture_output=True, check=True).stdout.strip())
        (site / "book-environment.pth").write_text(f"{book_packages(tmp / 'book-packages')}\n")

        prefix, cut, how = network_off()
        env = {k: v for k, v in os.environ.items() if k in KEEP}
        env.update(cut)
        env.update({
            "PATH": f"{venv / 'bin'}:{os.environ.get('PATH', '/usr/bin:/bin')}",
            "HOME": str(tmp / "home"), "MLCBOOK_DATA": str(tmp / "data"),
            "MLCBOOK_PROGRESS": "0", "PYTHONHASHSEED": "0",
            "MPLCONFIGDIR": str(tmp / "matplotlib"), "IPYTHONDIR": str(tmp / "ipython"),
            "JUPYTER_CONFIG_DIR": str(tmp / "jupyter"), "JUPYTER_DATA_DIR": str(tmp / "jupyter"),
            "PYDEVD_DISABLE_FILE_VALIDATION": "1",
        })  # no MLCBOOK_DATA_MIRROR: the datasets come from the data bundle
        (tmp / "home").mkdir()
        print(f"handouts: {len(found)} notebooks and {', '.join(wheels)} in a fresh "
              f"environment ({sys.version.split()[0]}); network off by {how}", flush=True)

        # the student's one line, verbatim, run by the fresh environment's pip
        t = time.monotonic()
        argv_line = line.split()
        done = run([*prefix, str(py), "-m", *argv_line], cwd=course, env=env,
                   capture_output=True)
        print(f"$ {line}   ({time.monotonic() - t:.1f} s)")
        print("\n".join(ln for ln in done.stdout.splitlines() if "Successfully" in ln
                        or "ERROR" in ln) or done.stdout[-2000:])
        if done.returncode != 0:
            print(done.stdout[-4000:], done.stderr[-4000:], sep="\n", file=sys.stderr)
            return 1
        where = run([*prefix, str(py), "-c", "import json, mlcbook, mlcrepro, mlcbook_data; "
                     "print(json.dumps([m.__file__ for m in (mlcbook, mlcrepro, "
                     "mlcbook_data)]))"], cwd=course, env=env, capture_output=True)
        files = json.loads(where.stdout) if where.returncode == 0 else []
        if len(files) != 3 or not all(Path(f).is_relative_to(site) for f in files):
            print(f"the wheels' packages are not the ones imported: {where.stdout}"
                  f"{where.stderr}", file=sys.stderr)
            return 1

        (tmp / "pytest.ini").write_text("[pytest]\n")
        junit = tmp / "junit.xml"
        cmd = [*prefix, str(py), "-m", "pytest", "-c", str(tmp / "pytest.ini"),
               "--rootdir", str(course), "-p", "no:cacheprovider", "-p", "no:randomly",
               "--nbval", "--nbval-current-env", "--nbval-sanitize-with",
               str(ROOT / "tests" / "nbval_sanitize.cfg"), "-q", f"--junitxml={junit}",
               *(["-n", str(args.n), "--dist", "loadfile"] if args.n > 1 else []),
               *(p.name for p in found)]
        t = time.monotonic()
        tested = run(cmd, cwd=course, env=env)
        took = time.monotonic() - t
        times = per_notebook(junit) if junit.is_file() else {}
        print(f"{'notebook':<34}{'cells run':>10}{'failed':>8}{'seconds':>9}")
        for nb in found:
            secs, cells, bad = times.get(nb.name, (0.0, 0, -1))
            print(f"{nb.name:<34}{cells:>10}{bad if bad >= 0 else 'not run':>8}{secs:>9.1f}")
        ok = [nb for nb in found if times.get(nb.name, (0, 0, 1))[2] == 0
              and times.get(nb.name, (0, 0, 0))[1] > 0]
        fetched = sorted(p.name for p in (tmp / "data").glob("*.arff")) \
            if (tmp / "data").is_dir() else []
        print(f"handouts: {len(ok)}/{len(found)} notebooks ran top to bottom in "
              f"{took:.0f} s (cells' own times summed: {sum(v[0] for v in times.values()):.0f}"
              f" s); datasets copied from the data bundle: {', '.join(fetched) or 'none'}; "
              f"{time.monotonic() - t0:.0f} s in all")
        return 0 if tested.returncode == 0 and len(ok) == len(found) else 1
    finally:
        if args.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
