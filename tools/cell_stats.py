"""Lines of code per chapter and its longest code cell: ``python tools/cell_stats.py``.

Reads every ``book/*.md`` with jupytext (cell metadata is not source) and prints, per
chapter, the number of code cells, their lines in all, the longest cell (lines and
where it starts in the notebook's cell order) and the cells over 15 lines or with a
line over 88 columns -- the limits tests/test_chapter_cells.py asserts.
Pass a git revision (``python tools/cell_stats.py main``) to measure that revision.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import jupytext

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES, MAX_COLS = 15, 88


def chapters(rev: str | None) -> dict[str, str]:
    if rev is None:
        return {p.stem: p.read_text() for p in sorted((ROOT / "book").glob("*.md"))}
    names = subprocess.run(
        ["git", "ls-tree", "--name-only", rev, "book/"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    return {
        Path(n).stem: subprocess.run(
            ["git", "show", f"{rev}:{n}"],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        for n in sorted(names)
        if n.endswith(".md")
    }


def main(rev: str | None = None) -> None:
    print(f"{'chapter':16} cells lines longest over-{MAX_LINES} over-{MAX_COLS}col")
    total = 0
    for name, text in chapters(rev).items():
        cells = [
            c.source.splitlines()
            for c in jupytext.reads(text, fmt="md:myst").cells
            if c.cell_type == "code"
        ]
        if not cells:
            continue
        lines = sum(map(len, cells))
        total += lines
        longest = max(map(len, cells))
        long_cells = sum(len(c) > MAX_LINES for c in cells)
        wide = sum(any(len(line) > MAX_COLS for line in c) for c in cells)
        print(
            f"{name:16} {len(cells):5d} {lines:5d} {longest:7d} {long_cells:7d}"
            f" {wide:11d}"
        )
    print(f"{'all':16} {'':5} {total:5d}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
