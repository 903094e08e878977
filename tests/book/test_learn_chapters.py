"""A Learn chapter teaches with the library in view: of the reproduction it may import
only the loader of committed tables by name (:func:`mlcrepro.results.committed_table`)
and a paper's table of names, its symbol map (the study's learner names as the paper
prints them, :func:`mlcrepro.huellermeier2022.names.paper_names`; the paper's columns of
the measures, :data:`mlcrepro.wu_zhou2017.names.PAPER_COLUMN`); no ledger, evidence, claims, display or comparison code.  The Learn chapters are those of
the part captioned "Learn" in ``_toc.yml``; their one sentence on what the reproduction
found comes from the ``reproduction-finding`` directive, read from the saved ledger when
the site is built.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys

import jupytext
import pytest
import yaml

from mlcrepro._paths import project_root

#: the names of the reproduction a Learn chapter may import: the table loader and a
#: paper's symbol map (its names for learners or measures)
ALLOWED = {
    ("mlcrepro.results", "committed_table"),
    ("mlcrepro.huellermeier2022.names", "paper_names"),
    ("mlcrepro.wu_zhou2017.names", "PAPER_COLUMN"),
}


def learn_chapters() -> list[str]:
    toc = yaml.safe_load((project_root() / "_toc.yml").read_text(encoding="utf-8"))
    (part,) = [p for p in toc["parts"] if p.get("caption") == "Learn"]
    return [c["file"] for c in part["chapters"]]


def reproduction_imports(source: str) -> list[str]:
    """Every import of ``mlcrepro`` in the code cells of a MyST notebook, as text."""
    found = []
    for cell in jupytext.reads(source, fmt="md:myst").cells:
        if cell.cell_type != "code":
            continue
        code = "\n".join(
            line for line in cell.source.splitlines() if not line.lstrip().startswith(("%", "!"))
        )
        for node in ast.walk(ast.parse(code)):
            if isinstance(node, ast.Import):
                found += [a.name for a in node.names if a.name.split(".")[0] == "mlcrepro"]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "mlcrepro":
                found += [
                    f"{node.module}.{a.name}"
                    for a in node.names
                    if (node.module, a.name) not in ALLOWED
                ]
    return found


def test_the_check_sees_reproduction_imports():
    fence = "```{code-cell} ipython3\n"
    text = (
        fence + "from mlcrepro.results import committed_table\nimport numpy as np\n```\n\n"
        + fence + "from mlcrepro.ledger import Ledger\nimport mlcrepro.display as d\n```\n"
    )
    assert reproduction_imports(text) == ["mlcrepro.ledger.Ledger", "mlcrepro.display"]


def test_the_allowed_names_import_without_the_checkout(tmp_path):
    """A handout has the reproduction's wheel and no ``book/`` folder beside it: every
    allowed name imports from a copy of the package alone (no claims inventory, no
    committed table), as in the student's environment (about 2 CPU-s: one interpreter
    importing pandas and the two paper folders)."""
    copy = tmp_path / "site-packages"
    shutil.copytree(
        project_root() / "repro" / "mlcrepro",
        copy / "mlcrepro",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    code = "; ".join(f"from {m} import {n}" for m, n in sorted(ALLOWED))
    code += "; import mlcrepro; print(mlcrepro.__file__)"
    env = {**os.environ, "PYTHONPATH": str(copy)}
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == str(copy / "mlcrepro" / "__init__.py")  # the copy, alone


def test_the_learn_part_has_its_eight_chapters():
    assert len(learn_chapters()) == 8


@pytest.mark.parametrize("doc", learn_chapters(), ids=lambda d: d.split("/")[-1])
def test_a_learn_chapter_imports_only_the_table_loader(doc: str):
    source = (project_root() / f"{doc}.md").read_text(encoding="utf-8")
    found = reproduction_imports(source)
    assert not found, (
        f"{doc}.md imports {found} from the reproduction; a Learn chapter may import only "
        f"{sorted('.'.join(a) for a in ALLOWED)} (the Reproduce page holds the rest)"
    )
