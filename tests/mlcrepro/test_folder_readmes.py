"""Every paper folder's README names each of its modules, and names no module the
folder does not have (a module is named as `name` in backticks, or as the first part of
a dotted name such as `collect.evidence()`)."""

from __future__ import annotations

import re

import pytest

from mlcrepro import papers
from mlcrepro._paths import project_root


def _folders() -> list[str]:
    return sorted(p.key for p in papers.PAPERS)


@pytest.mark.parametrize("key", _folders())
def test_a_folders_readme_names_its_modules_and_no_other(key):
    folder = project_root() / "repro" / "mlcrepro" / key
    modules = {p.stem for p in folder.glob("*.py")} - {"__init__"}
    text = (folder / "README.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`([a-z_][a-z0-9_]*)(?:[.(`,])", text))
    missing = sorted(modules - named)
    assert not missing, f"{key}/README.md does not name the modules {missing}"
    # a table row `| `name` | ...` names a module: it must exist
    rows = set(re.findall(r"^\| `([a-z_][a-z0-9_]*)`", text, flags=re.MULTILINE))
    rows |= {
        n
        for row in re.findall(r"^\| (`[^|]*`) \|", text, flags=re.MULTILINE)
        for n in re.findall(r"`([a-z_][a-z0-9_]*)[.`(]", row)
    }
    absent = sorted(rows - modules - {"__init__"})
    assert not absent, f"{key}/README.md lists modules that do not exist: {absent}"


def test_the_check_sees_a_missing_and_a_wrong_module():
    # the two patterns above, on a README that names `collect` but not `record`, and a
    # row naming `evidence.evidence()` (a module that does not exist)
    text = "| `collect` | x |\n| `evidence.evidence()` | y |\n"
    named = set(re.findall(r"`([a-z_][a-z0-9_]*)(?:[.(`,])", text))
    assert "record" not in named and {"collect", "evidence"} <= named
    rows = {
        n
        for row in re.findall(r"^\| (`[^|]*`) \|", text, flags=re.MULTILINE)
        for n in re.findall(r"`([a-z_][a-z0-9_]*)[.`(]", row)
    }
    assert rows - {"collect", "record"} == {"evidence"}
