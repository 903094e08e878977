"""The measures' two paper folders import no other paper folder, and no private name
of the library: what they share with another folder has one public owner."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from mlcrepro.papers import PAPERS

REPRO = Path(__file__).resolve().parents[3] / "repro" / "mlcrepro"
FOLDERS = ("zhang_zhou2014", "hivemall")


def _imported(folder: str, root: Path = REPRO) -> set[str]:
    """Every module and module.name the folder's files import (also inside functions)."""
    found = set()
    for path in sorted((root / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
                found.update(f"{node.module}.{a.name}" for a in node.names)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
    return found


@pytest.mark.parametrize("folder", FOLDERS)
def test_a_folder_imports_no_other_paper_folder(folder):
    others = {f"mlcrepro.{p.key}" for p in PAPERS} - {f"mlcrepro.{folder}"}
    hits = sorted(
        name for name in _imported(folder) for o in others if name == o or name.startswith(o + ".")
    )
    assert not hits, f"mlcrepro.{folder} imports {hits}"


@pytest.mark.parametrize("folder", FOLDERS)
def test_a_folder_uses_only_the_librarys_public_names(folder):
    private = sorted(n for n in _imported(folder) if n.startswith("mlcbook.") and "._" in n)
    assert not private, f"mlcrepro.{folder} imports {private}"


def test_the_check_sees_an_import_of_another_folder(tmp_path):
    (tmp_path / "zhang_zhou2014").mkdir()
    (tmp_path / "zhang_zhou2014" / "x.py").write_text(
        "from mlcrepro.park_read2018.collect import TABLE1_TRUTH\n"
        "from mlcbook._validation import Int\n"
    )
    found = _imported("zhang_zhou2014", tmp_path)
    assert "mlcrepro.park_read2018.collect" in found
    assert "mlcbook._validation" in found
