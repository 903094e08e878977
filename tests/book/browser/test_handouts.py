"""The students' and instructors' handouts of the built site (``book/_ext/handouts.py``).

Checked against the chapters' own sources and the built pages, not against the
extension's code: every exercise of a chapter is in its students' notebook, numbered as
on the page, and no solution is; every solution (text and code) is in the solutions
notebook; equation numbers are the page's; no MyST markup is left for Jupyter to show
raw (no role, no directive, no glued value, in the text or inside a box); the course plan
lists the handouts in reading order by the chapters' titles; and every name a solutions
notebook uses is defined by a cell before it, so that it runs top to bottom in a fresh
kernel (``make portable`` runs it so).
"""

from __future__ import annotations

import builtins
import re
import symtable

import nbformat
import pytest

from mlcrepro._paths import project_root

from .conftest import SITE
from .test_teaching import CHAPTERS

HANDOUTS = SITE / "handouts"
#: MyST that Jupyter shows raw: a role, or a directive's fence (also inside a quoted box)
_ROLE = re.compile(r"\{[a-z][a-z:-]*\}`")
_DIRECTIVE = re.compile(r"^\s*(?:>\s*)*(`{3,}|:{3,})\{", re.M)
#: an inline code span, whose text is code (``{m}`` in it is no role)
_CODE_SPAN = re.compile(r"(?<![`}])(`+)(?!`).+?(?<!`)\1(?!`)")


def raw_myst(text: str) -> list[str]:
    """The MyST markup left in Markdown ``text``, inline code aside."""
    prose = _CODE_SPAN.sub("", text)
    return _ROLE.findall(prose) + [m.group(0) for m in _DIRECTIVE.finditer(prose)]


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


def test_the_raw_myst_check_sees_roles_and_boxed_directives():
    assert raw_myst("a {term}`x` b") and raw_myst("> ```{glue:md} box")
    assert raw_myst(":::{dropdown} more") and not raw_myst("the code `{m}` and ``a `{x}` b``")


def test_no_myst_markup_is_left_and_equations_carry_the_page_numbers(chapter):
    text = _text(chapter["student"])
    assert not raw_myst(text), f"{chapter['name']}: raw MyST {raw_myst(text)[:5]}"
    assert not raw_myst(_text(chapter["solutions"]))
    pages = "".join(p.read_text("utf-8") for p in (SITE / "book").glob("*.html"))
    for label in set(re.findall(r"\{eq\}`([^`]+)`", chapter["source"])):
        m = re.search(  # the number where the equation is (its own chapter's page)
            rf'<span class="eqno">\(([0-9.]+)\)<a class="headerlink" href="#equation-{re.escape(label)}"',
            pages,
        )
        assert m, label
        assert f"({m.group(1)})" in text + _text(chapter["solutions"])


def test_the_course_plan_links_every_handout_in_reading_order_by_title():
    page = (SITE / "book" / "instructors.html").read_text("utf-8")
    for name in CHAPTERS:
        for file in (f"{name}.ipynb", f"{name}.md", f"{name}-solutions.ipynb"):
            assert f'href="../handouts/{file}"' in page
            assert (HANDOUTS / file).is_file()
    table = page[page.index('mlcbook-handouts'):]
    table = table[:table.index("</table>")]
    rows = re.findall(r'<a class="reference internal" href="([a-z_]+)\.html"><span[^>]*>([^<]+)<', table)
    assert [href for href, _ in rows] == CHAPTERS, "not in the order of the chapters"
    for href, title in rows:
        first = re.search(r"^# (.+)$", _source(href), re.M).group(1).strip()
        assert title == first, f"{href}: labelled {title!r}, its title is {first!r}"


# ------------------------------------------------------------ runs in a fresh kernel
_IPYTHON = {"display", "get_ipython", "In", "Out"}


def _free_names(code: str) -> tuple[set[str], set[str]]:
    """(names a cell uses that it does not define first, names it defines at top level),
    from Python's own symbol tables (functions' global references included)."""
    code = "\n".join(ln for ln in code.splitlines() if not ln.lstrip().startswith(("%", "!")))
    table = symtable.symtable(code, "<cell>", "exec")
    defined = {s.get_name() for s in table.get_symbols()
               if s.is_assigned() or s.is_imported() or s.is_namespace()}
    used: set[str] = set()
    stack = [table]
    while stack:
        t = stack.pop()
        for sym in t.get_symbols():
            top = t is table
            if sym.is_referenced() and (sym.is_global() or (top and not sym.is_local())
                                        or (top and sym.get_name() not in defined)):
                used.add(sym.get_name())
        stack.extend(t.get_children())
    return used - set(dir(builtins)) - _IPYTHON, defined


def _undefined(nb) -> list[tuple[int, list[str]]]:
    known: set[str] = set()
    out = []
    for k, cell in enumerate(c for c in nb.cells if c.cell_type == "code"):
        used, defined = _free_names(cell.source)
        missing = sorted(used - known - defined)
        if missing:
            out.append((k + 1, missing))
        known |= defined
    return out


def test_the_fresh_kernel_check_sees_chapter_variables():
    cells = [nbformat.v4.new_code_cell(s) for s in (
        "import numpy as np\ndef f(x):\n    return np.sum(x) + ks[0]",
        "y = f([1]) + len(P)\n[z for z in range(3)]\nprint(y)")]
    nb = nbformat.v4.new_notebook(cells=cells)
    assert _undefined(nb) == [(1, ["ks"]), (2, ["P"])]


def test_the_solutions_notebook_runs_in_a_fresh_kernel(chapter):
    missing = _undefined(chapter["solutions"])
    assert not missing, (
        f"{chapter['name']}-solutions.ipynb uses names that no cell before defines "
        f"(code cell, names): {missing[:6]}; a solution must bring its own data, or the "
        "chapter must tag the cell that makes them handout-setup")
