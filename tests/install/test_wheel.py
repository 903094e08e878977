"""The library as a researcher installs it: the wheel holds ``mlcbook`` only, and an
installed (non-editable) copy keeps its data in the per-user data home.

The wheel is built from a copy of the sources (``pyproject.toml``, ``README.md``,
``LICENSE``, ``lib/``), so that setuptools' ``build/`` and ``*.egg-info`` never land in
the checkout.  The fresh environment is ``python -m venv --without-pip`` plus one
``.pth`` file naming the book environment's ``site-packages``: its dependencies are the
locked ones already installed (no download, no network), and since ``.pth`` files are
processed only in the environment's own site folder, the book environment's editable
installs of ``mlcbook`` and ``mlcrepro`` stay invisible: the wheel's copy is the only
``mlcbook`` the fresh environment can import, and ``mlcrepro`` none at all.
(``--system-site-packages`` would give the base interpreter's packages, not the book's.)
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = ROOT / "lib" / "mlcbook"
# names that belong to the reproduction, never to the library's wheel
REPRO_WORDS = ("mlcrepro", "ledger", "claims", "evidence", "runner", "results",
               "huellermeier2022", "park_read2018", "wu_zhou2017", "zhang_zhou2014")

pytestmark = pytest.mark.slow


def _run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    out = subprocess.run(cmd, capture_output=True, text=True, check=False, **kw)
    assert out.returncode == 0, f"{' '.join(map(str, cmd))}\n{out.stdout}\n{out.stderr}"
    return out


def _mirror() -> Path:
    env = os.environ.get("MLCBOOK_DATA_MIRROR")
    mirror = Path(env) if env else ROOT.parent / "shared" / "datasets"
    if not (mirror / "emotions.arff").is_file():
        pytest.fail(f"needs the dataset mirror with emotions.arff (MLCBOOK_DATA_MIRROR); "
                    f"looked in {mirror}")
    return mirror


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    src = tmp_path_factory.mktemp("src")
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, src / name)
    shutil.copytree(ROOT / "lib", src / "lib",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    dist = tmp_path_factory.mktemp("dist")
    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
          "--no-index", "--wheel-dir", str(dist), str(src)])
    (found,) = dist.glob("mlcbook-*.whl")
    return found


def test_the_wheel_holds_the_library_and_nothing_of_the_reproduction(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert tops == {"mlcbook", f"{wheel.name.split('-py')[0]}.dist-info"}, tops
    assert [n for n in names if any(w in n.lower() for w in REPRO_WORDS)] == []
    # every source file of the library, and only those (plus the Java sources it compiles)
    source = {p.relative_to(LIBRARY.parent).as_posix() for p in LIBRARY.rglob("*")
              if p.is_file() and p.suffix in (".py", ".java")}
    packaged = {n for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert packaged == source
    entry = zipfile.ZipFile(wheel).read(
        f"{wheel.name.split('-py')[0]}.dist-info/entry_points.txt").decode()
    assert "mlcbook = mlcbook.cli:main" in entry


def _files(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*") if p.is_file()}


def _installed(wheel: Path, tmp_path: Path) -> tuple[Path, Path, Path, dict]:
    """A fresh environment with the wheel installed: (venv, its python, HOME, env)."""
    mirror = _mirror()
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    py = venv / "bin" / "python"
    site = Path(_run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
                .stdout.strip())
    book = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "book-environment.pth").write_text("\n".join(sorted(book)) + "\n")
    home = tmp_path / "home"
    home.mkdir()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
           "MLCBOOK_DATA_MIRROR": str(mirror), "MLCBOOK_PROGRESS": "0", "LC_ALL": "C.UTF-8",
           # matplotlib (imported for a figure) keeps its own font cache; it goes where
           # MPLCONFIGDIR says, so that HOME shows what mlcbook writes
           "MPLCONFIGDIR": str(tmp_path / "matplotlib")}
    # the thread counts make sets (one BLAS thread per process: two workers share the cores)
    env.update({k: v for k, v in os.environ.items()
                if k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")})
    # pip comes from the book environment (through the .pth) and installs into this one
    _run([str(py), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
          "--ignore-installed", str(wheel)], env=env, cwd=tmp_path)
    where = _run([str(py), "-c", "import mlcbook; print(mlcbook.__file__)"], env=env,
                 cwd=tmp_path).stdout.strip()
    assert Path(where).is_relative_to(site), where  # the wheel's copy, not the checkout's
    gone = subprocess.run([str(py), "-c", "import mlcrepro"], capture_output=True, env=env,
                          cwd=tmp_path, check=False)
    assert gone.returncode != 0 and b"No module named 'mlcrepro'" in gone.stderr
    return venv, py, home, env


def test_an_installed_copy_fetches_into_the_users_data_home(wheel, tmp_path):
    mirror = _mirror()
    venv, py, home, env = _installed(wheel, tmp_path)

    before, home_before = _files(venv), _files(home)
    out = _run([str(venv / "bin" / "mlcbook"), "datasets", "fetch", "emotions"], env=env,
               cwd=tmp_path).stdout
    assert "emotions (all): 593 instances, 72 features, 6 labels" in out
    assert f"mirror:{mirror}" in out  # read in place from the mirror
    data_home = home / ".cache" / "mlcbook"
    written = _files(home) - home_before
    assert written and all(p.is_relative_to(data_home) for p in written), written
    assert _files(venv) == before  # nothing new beside the installed code
    # (no matplotlib folder: the datasets command does not import the plots)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home", "venv"]


def _chapter_code(name: str) -> str:
    """The code cells of a chapter as one script (IPython's ``%`` lines left out)."""
    import jupytext

    nb = jupytext.read(ROOT / "book" / f"{name}.md")
    cells = [c.source for c in nb.cells if c.cell_type == "code"]
    return "\n\n".join(
        "\n".join(line for line in cell.splitlines() if not line.lstrip().startswith("%"))
        for cell in cells
    )


def test_the_own_predictions_chapter_runs_with_the_wheel_alone(wheel, tmp_path):
    """The Learn chapter "your own predictions" is for a reader who installed the library:
    its code imports nothing of the reproduction and runs, every cell (exercise
    solutions included), in an environment that has the wheel and not ``mlcrepro``."""
    code = _chapter_code("own_predictions")
    imported = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
    assert "mlcrepro" not in imported and "mlcbook" in imported
    _, py, _, env = _installed(wheel, tmp_path)
    work = tmp_path / "chapter"
    work.mkdir()
    (work / "own_predictions.py").write_text(code)
    out = _run([str(py), "own_predictions.py"], env={**env, "MPLBACKEND": "Agg"}, cwd=work,
               timeout=1800)
    # the chapter's command-line cell ran the installed command on its files
    assert "labels (from the header of truth.csv)" in out.stdout
    assert "mlcrepro" not in out.stdout + out.stderr
