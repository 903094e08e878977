"""The notebooks nbval re-executes, each in a fresh kernel (``make portable``, ``make notebooks``).

Every page of the book (``book/*.ipynb``), except that a chapter with exercises is run as
its two handouts, which the site build writes into ``_build/html/handouts/``: the
students' notebook (every cell of the chapter but the solutions, with the chapter's
committed outputs, which nbval compares) and the solutions notebook (the chapter's
imports, then each solution, outputs compared too).  Together they execute every code
cell of the chapter once, and they show that both handouts run top to bottom in a fresh
kernel, as a student or a teacher runs them.  The pages run in the book's environment
(:func:`pages`); the handouts in a fresh one built from the site's wheels, offline
(:func:`handout_notebooks`, run by ``tests/install/handouts.py``).

Run as a script, it prints the paths of the pages (relative to the checkout), one a line,
and with ``--handouts`` those of the handouts, failing with the handouts that are missing
or older than their chapter (build the site first).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HANDOUTS = ROOT / "_build" / "html" / "handouts"


def has_exercises(notebook: Path) -> bool:
    """Whether a page of the book states exercises (so that the site writes its handouts)."""
    return "{exercise}" in Path(notebook).read_text("utf-8")


def notebooks(root: Path = ROOT) -> tuple[list[Path], list[str]]:
    """The notebooks to execute, and the problems that keep a chapter's handouts out."""
    out, problems = [], []
    for page in sorted((root / "book").glob("*.ipynb")):
        if not has_exercises(page):
            out.append(page)
            continue
        pair = [HANDOUTS / f"{page.stem}.ipynb", HANDOUTS / f"{page.stem}-solutions.ipynb"]
        for handout in pair:
            if not handout.is_file():
                problems.append(f"{handout.relative_to(root)} is missing")
            elif handout.stat().st_mtime < page.stat().st_mtime:
                problems.append(f"{handout.relative_to(root)} is older than {page.name}")
        out.extend(pair)
    return out, problems


def pages(root: Path = ROOT) -> list[Path]:
    """The pages of the book without exercises (they run in the book's environment)."""
    return [p for p in sorted((root / "book").glob("*.ipynb")) if not has_exercises(p)]


def handout_notebooks(root: Path = ROOT) -> tuple[list[Path], list[str]]:
    """The chapters' handouts (students' and solutions'), and what keeps any out."""
    found, problems = notebooks(root)
    return [p for p in found if p.parent == HANDOUTS], problems


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--pages"]:
        print("\n".join(str(p.relative_to(ROOT)) for p in pages()))
        return 0
    found, problems = handout_notebooks() if argv == ["--handouts"] else notebooks()
    if problems:
        print("the chapters' handouts are not built from the chapters as they are "
              "(run `make site` first): " + "; ".join(problems), file=sys.stderr)
        return 1
    print("\n".join(str(p.relative_to(ROOT)) for p in found))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
