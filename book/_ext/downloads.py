"""Sphinx extension: the site carries its code ("Get the code").

When the HTML site is built, this extension builds into its folder ``downloads/``:

* the source archive of this version, ``mlcbook-VERSION.tar.gz``: every file of the
  repository (``git ls-files``, as the work tree holds it; outside a git checkout, the
  tree without what ``.gitignore`` names), under one folder ``mlcbook-VERSION/``, packed
  reproducibly (sorted names, no owners, fixed times: the same sources give the same
  bytes);
* the library's wheel and the reproduction's wheel (``pip wheel`` of a copy of their
  sources, as ``make dist`` builds them); the reproduction's carries the committed result
  tables as package data, copied from ``data/results/`` into that copy;
* the data bundle, a third wheel (``mlcbook_data``) holding every dataset file the library
  registers, copied from the dataset mirror after their sha256 is checked: installed with
  the other two (one ``pip install`` line, which the handouts print), it lets the
  chapters and handouts run with no network;
* the book as one PDF, copied from ``_build/pdf/mlcbook.pdf`` when ``make pdf`` has built
  it from the pages as they are now (``make book`` builds it first); a PDF older than a
  page's source is left out, and the page says so.

The ``get-the-code`` directive lists them (name, size, what each holds, SHA-256), and
every page's download menu (the theme's download button) links the page that holds the
directive and the PDF.  The single-page build the PDF is printed from builds nothing and
names the files without links.
"""

from __future__ import annotations

import fnmatch
import gzip
import hashlib
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

from docutils import nodes
from mlcbook.datasets.registry import SHA256
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

FOLDER = "downloads"
PDF = Path("_build") / "pdf" / "mlcbook.pdf"
#: the page that holds the ``get-the-code`` directive (the download menu links it)
PAGE = "book/get_the_code"
#: folders a source tree outside git leaves out besides those its .gitignore names
_NEVER = {".git", ".venv", "_build", "dist", "__pycache__", ".weka", "*.egg-info"}
_LOG = logging.getLogger(__name__)


@dataclass(frozen=True)
class Download:
    """One file the site offers: its name in ``downloads/``, size, digest and purpose."""

    name: str
    size: int
    sha256: str
    what: str

    @property
    def size_text(self) -> str:
        """The size as a reader reads it (``"5.2 MB"``, ``"310 kB"``)."""
        if self.size >= 1_000_000:
            return f"{self.size / 1_000_000:.1f} MB"
        return f"{max(1, round(self.size / 1000))} kB"


# ------------------------------------------------------------------ the source archive
def _ignore_patterns(root: Path) -> list[str]:
    """The patterns of ``.gitignore`` (negations and comments left out)."""
    ignore = root / ".gitignore"
    if not ignore.is_file():
        return []
    lines = (ln.strip() for ln in ignore.read_text("utf-8").splitlines())
    return [ln.rstrip("/") for ln in lines if ln and not ln.startswith(("#", "!"))]


def _ignored(parts: tuple[str, ...], patterns: list[str]) -> bool:
    """Whether a path (its parts) falls under a ``.gitignore`` pattern: one with a slash
    matches a leading part of the path, one without matches any single name."""
    for pattern in patterns:
        if "/" in pattern.strip("/"):
            pat = pattern.strip("/").split("/")
            if len(parts) >= len(pat) and all(
                fnmatch.fnmatchcase(a, b) for a, b in zip(parts, pat)
            ):
                return True
        elif any(fnmatch.fnmatchcase(p, pattern.strip("/")) for p in parts):
            return True
    return False


def source_files(root: Path) -> list[str]:
    """The files of the source tree at ``root``, as sorted POSIX paths relative to it.

    In a git work tree: the tracked files that exist (``git ls-files``).  Elsewhere (an
    unpacked archive): every file, without the folders ``.gitignore`` names, caches and
    the build's own outputs.
    """
    root = Path(root)
    try:
        out = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z"], capture_output=True, check=True
        ).stdout.decode("utf-8")
        files = [f for f in out.split("\0") if f and (root / f).is_file()]
        if files:
            return sorted(files)
    except (OSError, subprocess.CalledProcessError):
        pass
    patterns = _ignore_patterns(root) + sorted(_NEVER)
    files = []
    for path in root.rglob("*"):
        rel = path.relative_to(root)
        if rel.parts[0] in _NEVER or _ignored(rel.parts, patterns):
            continue
        if path.is_file() and not path.is_symlink():
            files.append(rel.as_posix())
    return sorted(files)


def source_archive(root: Path, out: Path, top: str) -> Path:
    """Pack :func:`source_files` of ``root`` into the gzipped tar ``out`` under ``top/``.

    Reproducible: names sorted, owner 0/0 without names, modification time 0 (in the
    archive and in the gzip header), modes 0644 (0755 for files executable here).
    """
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for rel in source_files(root):
            path = Path(root) / rel
            info = tarfile.TarInfo(f"{top}/{rel}")
            data = path.read_bytes()
            info.size = len(data)
            info.mode = 0o755 if os.access(path, os.X_OK) else 0o644
            info.mtime = 0
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            tar.addfile(info, io.BytesIO(data))
    tmp = Path(out).with_suffix(".part")
    with open(tmp, "wb") as raw, gzip.GzipFile(
        filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9
    ) as gz:
        gz.write(buf.getvalue())
    tmp.replace(out)
    return Path(out)


# ----------------------------------------------------------------------------- wheels
#: where the reproduction's wheel carries the committed tables (mlcrepro._paths.PACKAGED_RESULTS)
PACKAGED_RESULTS = "committed_tables"
#: the data bundle: a wheel whose package holds the dataset files (mlcbook.datasets.fetch)
DATA_PROJECT, DATA_PACKAGE = "mlcbook-data", "mlcbook_data"


def stage_sources(root: Path, src: Path) -> None:
    """Copy what the two wheels are built from into ``src`` (which must not exist):
    the library's project and the reproduction's, whose package receives a copy of the
    committed tables (``data/results/``, their single home) as its package data."""
    root = Path(root)
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "build")
    src.mkdir(parents=True)
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(root / name, src / name)
    shutil.copytree(root / "lib", src / "lib", ignore=ignore)
    (src / "repro").mkdir()
    shutil.copy2(root / "repro" / "pyproject.toml", src / "repro" / "pyproject.toml")
    shutil.copytree(root / "repro" / "mlcrepro", src / "repro" / "mlcrepro", ignore=ignore)
    tables = sorted(p for p in (root / "data" / "results").iterdir()
                    if p.suffix in (".csv", ".json") and p.is_file())
    if not tables:
        raise FileNotFoundError(f"no committed result tables in {root / 'data' / 'results'}")
    packaged = src / "repro" / "mlcrepro" / PACKAGED_RESULTS
    packaged.mkdir()
    for table in tables:
        shutil.copy2(table, packaged / table.name)


def _pip_wheel(projects: list[Path], folder: Path) -> list[Path]:
    built = Path(tempfile.mkdtemp(prefix="wheels-"))
    try:
        subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
             "--no-build-isolation", "--no-index", "-w", str(built), *map(str, projects)],
            check=True, capture_output=True,
        )
        out = []
        for whl in sorted(built.glob("*.whl")):
            target = Path(folder) / whl.name
            shutil.copy2(whl, target)
            out.append(target)
        return out
    finally:
        shutil.rmtree(built, ignore_errors=True)


def wheels(root: Path, folder: Path) -> list[Path]:
    """The library's and the reproduction's wheels, built into ``folder`` from a copy of
    their sources (:func:`stage_sources`; setuptools' ``build/`` and ``*.egg-info`` stay
    out of the tree)."""
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        stage_sources(root, src)
        return _pip_wheel([src, src / "repro"], folder)


def dataset_mirror(root: Path) -> Path:
    """The folder the data bundle is built from: ``$MLCBOOK_DATA_MIRROR``, else
    ``../shared/datasets`` beside the checkout (as the reproduction's checkout uses)."""
    env = os.environ.get("MLCBOOK_DATA_MIRROR")
    return Path(env) if env else Path(root).resolve().parent / "shared" / "datasets"


def data_wheel(root: Path, folder: Path, mirror: Path | None = None) -> Path:
    """The data bundle ``mlcbook_data-VERSION-py3-none-any.whl``, built into ``folder``:
    every dataset file the library registers (ARFF and MULAN XML, with ``SHA256SUMS``),
    copied from the mirror after its sha256 is checked against the library's registry.
    Installed beside the library, it is where the library finds a dataset with no
    network (it checks the sha256 again when it copies a file into its data home)."""
    mirror = dataset_mirror(root) if mirror is None else Path(mirror)
    registry = dict(SHA256)  # the library's registry (this checkout's, editable)
    release = version("mlcbook")
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "data"
        files = src / DATA_PACKAGE / "files"
        files.mkdir(parents=True)
        sums = []
        for name, sha in sorted(registry.items()):
            path = mirror / name
            if not path.is_file():
                raise FileNotFoundError(f"the dataset file {name} is not in the mirror {mirror}")
            if _digest(path) != sha:
                raise ValueError(f"{path} does not have the sha256 the library registers")
            shutil.copy2(path, files / name)
            sums.append(f"{sha}  {name}")
        (files / "SHA256SUMS").write_text("\n".join(sums) + "\n", "utf-8")
        (src / DATA_PACKAGE / "__init__.py").write_text(
            '"""The datasets of the book mlcbook (its data bundle): the files the library '
            'registers, found by mlcbook.datasets when installed."""\n', "utf-8")
        (src / "pyproject.toml").write_text(
            '[build-system]\nrequires = ["setuptools>=77"]\n'
            'build-backend = "setuptools.build_meta"\n\n'
            f'[project]\nname = "{DATA_PROJECT}"\nversion = "{release}"\n'
            'description = "The multi-label datasets of the book mlcbook, for use offline"\n'
            'requires-python = ">=3.11"\n\n'
            f'[tool.setuptools]\npackages = ["{DATA_PACKAGE}"]\n\n'
            f'[tool.setuptools.package-data]\n{DATA_PACKAGE} = ["files/*"]\n', "utf-8")
        (built,) = _pip_wheel([src], folder)
    return built


def install_line(root: Path) -> str:
    """The one line that installs what the handouts need, from the site's downloads
    saved in the notebook's folder: the library's, the reproduction's and the data
    bundle's wheels (their names as :func:`wheels` and :func:`data_wheel` build them)."""
    return "pip install " + " ".join(wheel_names(root))


def wheel_names(root: Path) -> list[str]:
    """The file names of the three wheels the site offers, from the projects' versions."""
    release = version("mlcbook")
    text = (Path(root) / "repro" / "pyproject.toml").read_text("utf-8")
    repro = next(ln.split("=", 1)[1].strip().strip('"') for ln in text.splitlines()
                 if ln.startswith("version"))
    return [f"mlcbook-{release}-py3-none-any.whl", f"mlcbook_repro-{repro}-py3-none-any.whl",
            f"{DATA_PACKAGE}-{release}-py3-none-any.whl"]


# ------------------------------------------------------------------------------- PDF
def pdf_is_current(root: Path, pdf: Path) -> bool:
    """Whether ``pdf`` exists and is newer than every page source, style and extension."""
    pdf = Path(pdf)
    if not pdf.is_file():
        return False
    # the Makefile's PDF_SOURCES: what `make book` prints the PDF again for
    sources = [*Path(root, "book").glob("*.ipynb"), Path(root, "book", "references.bib"),
               *Path(root, "_static").glob("*"), *Path(root, "book", "_ext").glob("*.py"),
               *Path(root, "book", "_ext").glob("*.js"), Path(root, "_toc.yml"),
               Path(root, "_config.yml"), *Path(root, "book", "_ledgers").glob("*.csv"),
               Path(root, "CITATION.cff")]
    built = pdf.stat().st_mtime
    return all(s.stat().st_mtime <= built for s in sources if s.is_file())


# ------------------------------------------------------------------------ the building
def _digest(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def build_downloads(root: Path, folder: Path) -> list[Download]:
    """Build every download into ``folder`` (emptied first) and describe each."""
    root, folder = Path(root), Path(folder)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    release = version("mlcbook")
    archive = source_archive(root, folder / f"mlcbook-{release}.tar.gz", f"mlcbook-{release}")
    out = [Download(archive.name, archive.stat().st_size, _digest(archive),
                    "the source: the library, the reproduction, the chapters as "
                    "notebooks, the committed result tables and every test")]
    for whl in wheels(root, folder):
        what = ("the reproduction's code (mlcrepro): the ledger and its rules, the runner, "
                "one folder per paper, and the result tables the chapters read"
                if whl.name.startswith("mlcbook_repro")
                else "the library alone (mlcbook), to evaluate your own predictions")
        out.append(Download(whl.name, whl.stat().st_size, _digest(whl), what))
    bundle = data_wheel(root, folder)
    out.append(Download(bundle.name, bundle.stat().st_size, _digest(bundle),
                        "the data bundle: every dataset file the library knows (ARFF and "
                        "label XML, with their SHA-256), so that the chapters and handouts "
                        "run with no network"))
    pdf = root / PDF
    if pdf_is_current(root, pdf):
        target = folder / f"mlcbook-{release}.pdf"
        shutil.copy2(pdf, target)
        out.append(Download(target.name, target.stat().st_size, _digest(target),
                            "the book as one PDF: every page of the Learn and Reproduce "
                            "parts, the exercises' solutions in an appendix"))
    return out


def _build(app) -> None:
    app.mlcbook_downloads = []
    if app.builder.name != "html":
        return
    app.mlcbook_downloads = build_downloads(Path(app.srcdir), Path(app.outdir) / FOLDER)
    if not any(d.name.endswith(".pdf") for d in app.mlcbook_downloads):
        _LOG.info("downloads: no current PDF in %s (make pdf builds it); the site offers none",
                  PDF)


# ----------------------------------------------------------------------- the directive
class GetTheCode(SphinxDirective):
    """The list of the site's downloads, with sizes; their SHA-256 in a block below."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        app = self.env.app
        found: list[Download] = getattr(app, "mlcbook_downloads", [])
        up = "../" * self.env.docname.count("/")
        for d in found:  # the page is read again whenever the files are built anew
            self.env.note_dependency(str(Path(app.outdir) / FOLDER / d.name))
        if app.builder.name != "html":
            para = nodes.paragraph(text=(
                "The book's site offers the source archive of this version, the wheels "
                "of the library and of the reproduction, the data bundle, and this book as "
                "a PDF, on its page Get the code."))
            return [para]
        items = nodes.bullet_list(classes=["mlcbook-downloads"])
        for d in found:
            para = nodes.paragraph()
            ref = nodes.reference("", "", refuri=f"{up}{FOLDER}/{d.name}", internal=False,
                                  classes=["mlcbook-download"])
            ref += nodes.literal(text=d.name)
            para += nodes.strong("", "", ref)
            para += nodes.Text(f" ({d.size_text}): {d.what}.")
            items += nodes.list_item("", para)
        if not any(d.name.endswith(".pdf") for d in found):
            para = nodes.paragraph(text=(
                "The book as one PDF is not part of this build of the site: `make book` "
                "builds it (or `make pdf`, before the site)."))
            items += nodes.list_item("", para)
        digests = "\n".join(f"{d.sha256}  {d.name}" for d in found)
        block = nodes.literal_block(digests, digests, classes=["mlcbook-sha256"])
        block["language"] = "none"
        details = nodes.container(classes=["mlcbook-sha256-box"])
        details += nodes.raw("", "<details class='collapsed-section'><summary>SHA-256 digests "
                             "to check a download with <code>sha256sum --check</code> "
                             f"({len(found)} rows)</summary>", format="html")
        details += block
        details += nodes.raw("", "</details>", format="html")
        return [items, details]


class InstallLine(SphinxDirective):
    """The one line that installs what the handouts need (the names the site builds)."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        text = install_line(Path(self.env.app.srcdir))
        block = nodes.literal_block(text, text)
        block["language"] = "bash"
        return [block]


# ------------------------------------------------------------------ the download menu
def _menu(app, pagename, templatename, context, doctree):
    if app.builder.name != "html":
        return
    pathto = context.get("pathto")
    if pathto is None:
        return
    for group in context.get("header_buttons", []):
        if group.get("label") != "download-buttons":
            continue
        group["buttons"].append({
            "type": "link", "url": pathto(PAGE), "text": "Get the code",
            "tooltip": "The source, the wheels and the book as PDF",
            "icon": "fas fa-box-archive", "label": "get-the-code-button"})
        pdf = [d for d in getattr(app, "mlcbook_downloads", []) if d.name.endswith(".pdf")]
        if pdf:
            group["buttons"].append({
                "type": "link", "url": pathto(f"{FOLDER}/{pdf[0].name}", 1),
                "text": "The book (PDF)", "tooltip": "The whole book as one PDF",
                "icon": "fas fa-book", "label": "book-pdf-button"})


def setup(app):
    app.connect("builder-inited", _build)
    app.add_directive("get-the-code", GetTheCode)
    app.add_directive("install-line", InstallLine)
    app.connect("html-page-context", _menu, priority=600)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


def main(argv: list[str]) -> int:
    """``python book/_ext/downloads.py wheels FOLDER``: build the three wheels (library,
    reproduction with its tables, data bundle) into ``FOLDER``, as the site does
    (``make dist``); prints their names."""
    if len(argv) != 2 or argv[0] != "wheels":
        print("usage: python book/_ext/downloads.py wheels FOLDER", file=sys.stderr)
        return 2
    root = Path(__file__).resolve().parents[2]
    folder = Path(argv[1])
    folder.mkdir(parents=True, exist_ok=True)
    for whl in [*wheels(root, folder), data_wheel(root, folder)]:
        print(whl)
    return 0


__all__ = ["Download", "build_downloads", "data_wheel", "install_line", "pdf_is_current",
           "source_archive", "source_files", "stage_sources", "wheel_names", "wheels", "setup"]


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
