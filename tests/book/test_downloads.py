"""The site's downloads (``book/_ext/downloads.py``): the source archive holds exactly the
source tree's files, byte for byte, under one folder, and is the same bytes every time.

Checked on small trees made here (a git work tree, and a tree outside git as an unpacked
archive is), read back with :mod:`tarfile`; the site's own downloads are checked by the
browser stage (``tests/book/browser/test_parts.py``).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from mlcrepro._paths import project_root

sys.path.insert(0, str(project_root() / "book" / "_ext"))
from downloads import Download, pdf_is_current, source_archive, source_files  # noqa: E402

FILES = {
    "README.md": b"# a book\n",
    "lib/pkg/__init__.py": b"x = 1\n",
    "book/page.md": "# Überblick\n".encode(),
    "tools/run.sh": b"#!/bin/sh\necho hi\n",
}
#: what a build or a cache leaves in a tree, which no archive may hold
LITTER = {
    "_build/html/index.html": b"<html>",
    ".venv/bin/python": b"",
    "data/cache/x.npz": b"\0",
    "lib/pkg/__pycache__/a.pyc": b"\0",
}


def _tree(root: Path, files: dict[str, bytes]) -> None:
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    if (root / "tools" / "run.sh").exists():
        (root / "tools" / "run.sh").chmod(0o755)


def _members(archive: Path) -> dict[str, tuple[bytes, int]]:
    with tarfile.open(archive) as tar:
        return {m.name: (tar.extractfile(m).read(), m.mode) for m in tar.getmembers()}


@pytest.fixture
def git_tree(tmp_path):
    root = tmp_path / "repo"
    _tree(root, FILES)
    (root / ".gitignore").write_text("_build/\n.venv/\ndata/cache/\n__pycache__/\n")
    git = ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "x"], check=True)
    _tree(root, LITTER)  # after the commit: untracked and ignored
    (root / "untracked.txt").write_text("not part of the source")
    return root


def test_the_archive_holds_the_tracked_files_byte_for_byte(git_tree, tmp_path):
    archive = source_archive(git_tree, tmp_path / "a.tar.gz", "book-1.0")
    members = _members(archive)
    want = {**FILES, ".gitignore": (git_tree / ".gitignore").read_bytes()}
    assert {m: d for m, (d, _) in members.items()} == {f"book-1.0/{k}": v for k, v in want.items()}
    assert members["book-1.0/tools/run.sh"][1] == 0o755
    assert members["book-1.0/README.md"][1] == 0o644


def test_the_archive_is_reproducible(git_tree, tmp_path):
    a = source_archive(git_tree, tmp_path / "a.tar.gz", "book-1.0")
    digest = hashlib.sha256(a.read_bytes()).hexdigest()
    (git_tree / "README.md").touch()  # a new modification time changes nothing
    b = source_archive(git_tree, tmp_path / "b.tar.gz", "book-1.0")
    assert hashlib.sha256(b.read_bytes()).hexdigest() == digest


def test_a_tree_outside_git_leaves_out_what_gitignore_names(tmp_path):
    root = tmp_path / "unpacked"
    _tree(root, {**FILES, **LITTER})
    (root / ".gitignore").write_text("_build/\n.venv/\ndata/cache/\n__pycache__/\n*.tmp\n")
    assert source_files(root) == sorted([*FILES, ".gitignore"])


def test_the_pdf_is_offered_only_when_newer_than_every_page(tmp_path):
    _tree(tmp_path, {"book/a.ipynb": b"{}", "_toc.yml": b"", "_config.yml": b""})
    pdf = tmp_path / "book.pdf"
    assert not pdf_is_current(tmp_path, pdf)
    pdf.write_bytes(b"%PDF")
    assert pdf_is_current(tmp_path, pdf)
    later = pdf.stat().st_mtime + 5
    os.utime(tmp_path / "book" / "a.ipynb", (later, later))
    assert not pdf_is_current(tmp_path, pdf)


@pytest.mark.parametrize("source", ["book/_ledgers/hu.csv", "CITATION.cff"])
def test_the_pdf_is_stale_when_a_ledger_or_the_citation_changes(tmp_path, source):
    # the PDF prints the ledgers as its appendix and its title page from CITATION.cff
    _tree(tmp_path, {"book/a.ipynb": b"{}", source: b""})
    pdf = tmp_path / "book.pdf"
    pdf.write_bytes(b"%PDF")
    assert pdf_is_current(tmp_path, pdf)
    later = pdf.stat().st_mtime + 5
    os.utime(tmp_path / source, (later, later))
    assert not pdf_is_current(tmp_path, pdf)


def test_sizes_read_as_a_person_reads_them():
    assert Download("a", 7_032_077, "", "").size_text == "7.0 MB"
    assert Download("a", 212_744, "", "").size_text == "213 kB"
    assert Download("a", 10, "", "").size_text == "1 kB"
