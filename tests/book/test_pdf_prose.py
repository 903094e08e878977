"""The PDF names no repository path, result table or test by file, and no machine path.

Reads the text of ``_build/pdf/mlcbook.pdf`` (``make pdf``; ``pdftotext`` of Debian's
poppler-utils) and looks for what :mod:`tests.book.prose_paths` calls the workshop. The
allowance: a file name that the code of a shown code cell names, the code a reader runs
(``truth.csv`` of the own-predictions chapter is the reader's own file).
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from mlcrepro._paths import project_root

from .prose_paths import allowed_in_code, workshop_paths

ROOT = project_root()
PDF = ROOT / "_build" / "pdf" / "mlcbook.pdf"


@pytest.fixture(scope="module")
def pdf_text() -> str:
    if not PDF.is_file():
        raise RuntimeError(f"{PDF} is not built: run `make pdf` first")
    if shutil.which("pdftotext") is None:
        raise RuntimeError("pdftotext is needed: apt-get install poppler-utils")
    out = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(PDF), "-"], capture_output=True, check=True
    )
    return out.stdout.decode("utf-8")


def test_no_workshop_path_in_the_pdf(pdf_text):
    allowed = allowed_in_code()
    found = [p for p in workshop_paths(pdf_text) if p not in allowed]
    assert found == []


def test_the_pdf_text_was_read(pdf_text):
    """Not vacuous: the text holds the book's reading pages (a Reproduce page's title)."""
    assert "Reproducing Park & Read (2018)" in pdf_text
