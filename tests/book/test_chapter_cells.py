"""Chapters hold explanation and short calls: every code cell of every chapter is at
most 15 lines long and 88 columns wide (issue 12, part 4).

One test per chapter, so a run reports which chapters still have long cells; the failure
lists each offending cell by its number among the chapter's code cells, its first line,
its length and its widest line.  Lines are counted as jupytext reads the cell (its
metadata block, e.g. ``mystnb: ...``, is not source), blank lines included.
"""

from pathlib import Path

import jupytext
import pytest

from mlcrepro._paths import project_root

MAX_LINES = 15
MAX_COLUMNS = 88
SOURCES = sorted((project_root() / "book").glob("*.md"))


def offending_cells(text: str) -> list[str]:
    """Readable descriptions of the code cells of a MyST chapter beyond the limits."""
    cells = [
        c for c in jupytext.reads(text, fmt="md:myst").cells if c.cell_type == "code"
    ]
    out = []
    for number, cell in enumerate(cells, 1):
        lines = cell.source.splitlines()
        widest = max((len(line) for line in lines), default=0)
        if len(lines) > MAX_LINES or widest > MAX_COLUMNS:
            first = lines[0][:60] if lines else ""
            out.append(
                f"code cell {number} ({first!r}...): {len(lines)} lines, "
                f"widest {widest} columns"
            )
    return out


def test_the_check_sees_long_and_wide_cells():
    # a chapter made here, not read from book/: one cell of 16 lines, one 89 wide,
    # one within both limits
    fence = "```{code-cell} ipython3\n"
    text = (
        fence
        + "x = 1\n" * 16
        + "```\n\n"
        + fence
        + "y = '"
        + "a" * 83
        + "'\n```\n\n"
        + fence
        + "z = 2\n" * 15
        + "```\n"
    )
    found = offending_cells(text)
    assert len(found) == 2
    assert "16 lines" in found[0] and "89 columns" in found[1]


def test_there_are_chapters():
    assert len(SOURCES) >= 3


@pytest.mark.parametrize("md", SOURCES, ids=lambda p: p.stem)
def test_code_cells_are_short(md: Path):
    found = offending_cells(md.read_text(encoding="utf-8"))
    assert not found, (
        f"{md.name}: {len(found)} code cell(s) over {MAX_LINES} lines or "
        f"{MAX_COLUMNS} columns (move the code into a tested library helper):\n  "
        + "\n  ".join(found)
    )
