"""The students' and instructors' handouts of the built site (``book/_ext/handouts.py``).

Checked against the chapters' own sources and the built pages, not against the
extension's code: every exercise of a chapter is in its students' notebook, numbered as
on the page, and no solution is; every solution (text and code) is in the solutions
notebook; equation numbers are the page's; no MyST markup is left for Jupyter to show raw.
"""

from __future__ import annotations

import re

import nbformat
import pytest

from mlcrepro._paths import project_root

from .conftest import SITE
from .test_teaching import CHAPTERS

HANDOUTS = SITE / "handouts"
_ROLE = re.compile(r"\{(cite|eq|numref|doc|ref|py:[a-z]+|mod|term)(:[a-z]+)?\}`")
_DIRECTIVE = re.compile(r"^(`{3,}|:{3,})\{", re.M)


def _source(chapter: str) -> str:
    return (project_root() / "book" / f"{chapter}.md").read_text("utf-8")


def _solutions(source: str) -> list[str]:
    """The text between each solution-start block and its solution-end, from the source."""
    parts = re.split(r"^```\{solution-(?:start|end)\}[^\n]*\n(?::[^\n]*\n)*```\n", source, flags=re.M)
    return parts[1::2]  # start ... end alternate: the odd parts are solutions


def _code_lines(block: str) -> list[str]:
    """Non-blank lines of the code cells of a source block."""
    cells = re.findall(r"^```\{code-cell\}[^\n]*\n(.*?)^```", block, flags=re.M | re.S)
    return [ln.strip() for c in cells for ln in c.splitlines() if ln.strip()]


def _text(nb) -> str:
    return "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")


def _code(nb) -> str:
    return "\n".join(c.source for c in nb.cells if c.cell_type == "code")


@pytest.fixture(scope="module", params=CHAPTERS)
def chapter(request):
    name = request.param
    page = (SITE / "book" / f"{name}.html").read_text("utf-8")
    return {
        "name": name,
        "source": _source(name),
        "page": page,
        "student": nbformat.read(HANDOUTS / f"{name}.ipynb", as_version=4),
        "solutions": nbformat.read(HANDOUTS / f"{name}-solutions.ipynb", as_version=4),
        "student_md": (HANDOUTS / f"{name}.md").read_text("utf-8"),
    }


def test_students_get_every_exercise_numbered_as_on_the_page(chapter):
    on_page = re.findall(r'caption-number">(Exercise [0-9.]+) </span>', chapter["page"])
    assert len(on_page) == chapter["source"].count("```{exercise}") >= 3
    in_notebook = re.findall(r"\*\*(Exercise [0-9.]+)\*\*", _text(chapter["student"]))
    assert in_notebook == on_page


def test_students_get_no_solution(chapter):
    solutions = _solutions(chapter["source"])
    assert len(solutions) == chapter["source"].count("```{exercise}")
    student_text, student_code = _text(chapter["student"]), _code(chapter["student"])
    elsewhere = chapter["source"]
    for block in solutions:
        elsewhere = elsewhere.replace(block, "")
    checked = 0
    for block in solutions:
        prose = [ln.strip() for ln in block.split("```")[0].splitlines() if len(ln.strip()) > 30]
        # lines that also occur outside the solutions (a repeated call) prove nothing
        for line in [ln for ln in prose + _code_lines(block) if ln not in elsewhere]:
            assert line not in student_text and line not in student_code
            checked += 1
    assert checked >= len(solutions)
    assert "solution-start" not in chapter["student_md"]
    assert chapter["student_md"].count("```{exercise}") == len(solutions)


def test_the_solutions_notebook_holds_every_solution_after_its_exercise(chapter):
    text, code = _text(chapter["solutions"]), _code(chapter["solutions"])
    for block in _solutions(chapter["source"]):
        for line in _code_lines(block):
            assert line in code
    exercises = re.findall(r"\*\*(Exercise [0-9.]+)\*\*", text)
    assert exercises == re.findall(r'caption-number">(Exercise [0-9.]+) </span>', chapter["page"])


def test_no_myst_markup_is_left_and_equations_carry_the_page_numbers(chapter):
    text = _text(chapter["student"])
    assert not _ROLE.search(text)
    assert not _DIRECTIVE.search(text)
    pages = "".join(p.read_text("utf-8") for p in (SITE / "book").glob("*.html"))
    for label in set(re.findall(r"\{eq\}`([^`]+)`", chapter["source"])):
        m = re.search(  # the number where the equation is (its own chapter's page)
            rf'<span class="eqno">\(([0-9.]+)\)<a class="headerlink" href="#equation-{re.escape(label)}"',
            pages,
        )
        assert m, label
        assert f"({m.group(1)})" in text + _text(chapter["solutions"])


def test_the_course_plan_links_every_handout():
    page = (SITE / "book" / "instructors.html").read_text("utf-8")
    for name in CHAPTERS:
        for file in (f"{name}.ipynb", f"{name}.md", f"{name}-solutions.ipynb"):
            assert f'href="../handouts/{file}"' in page
            assert (HANDOUTS / file).is_file()
