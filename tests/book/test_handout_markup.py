"""How the handouts write a chapter's MyST as plain Jupyter Markdown (``book/_ext/handouts.py``).

On small sources made here: roles inside directives inside boxes, glued values, the
reproduction's finding, code spans left alone, and the imports a solutions notebook
carries.  The built handouts of the real chapters are checked by the browser stage
(``tests/book/browser/test_handouts.py``) and executed by ``make portable``.
"""

from __future__ import annotations

import re
import sys

import jupytext
import nbformat
import pytest

from mlcrepro._paths import project_root
from mlcrepro.papers import finding_markdown

sys.path.insert(0, str(project_root() / "book" / "_ext"))
from handouts import (  # noqa: E402
    INSTALL_TAGS,
    Numbers,
    handouts,
    imports_of,
    names_used,
    render_roles,
    student_markdown,
)

NUM = Numbers(
    numbers={"ex-a": "Exercise 2.1", "fig-a": "Figure 2.1"},
    equations={"eq-a": "2.3"},
    titles={"/book/losses": "Dependence-aware losses",
            "/book/reproduce_huellermeier2022": "Reproducing Hüllermeier et al. (2022)"},
    citations={"paper2020": ("Smith and Jones", "2020")},
)
#: what no students' notebook may show: a role, or a directive's fence (outside code spans)
RAW = re.compile(r"\{[a-z:-]+\}`|^\s*(?:>\s*)*(?:`{3,}|:{3,})\{", re.M)
CODE_SPAN = re.compile(r"(?<![`}])(`+)(?!`).+?(?<!`)\1(?!`)")


def raw_myst(text: str) -> list[str]:
    """The MyST markup left in Markdown ``text``, inline code spans aside."""
    return RAW.findall(CODE_SPAN.sub("", text))


def _glue(name: str, plain: str, markdown: str | None = None) -> dict:
    data = {"text/plain": plain}
    if markdown is not None:
        data["text/markdown"] = markdown
    return nbformat.v4.new_output(
        "display_data", data=data, metadata={"scrapbook": {"name": name, "mime_prefix": ""}})


def _chapter() -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    md = nbformat.v4.new_markdown_cell
    code = nbformat.v4.new_code_cell
    glue_cell = code("import numpy as np\nfrom myst_nb import glue\nx = np.pi\nglue('x', x)")
    glue_cell.outputs = [_glue("x", "3.141592653589793"),
                         _glue("box", "<md>", "**3** of {term}`4 rows <reproduced>` agree")]
    nb.cells = [
        md("# Dependence-aware losses\n\n"
           ":::{admonition} What this chapter found\n:class: note\n"
           "```{glue:md} box\n:format: myst\n```\n"
           "See {cite:t}`paper2020` and eq. {eq}`eq-a`; pi is {glue:text}`x:.3f`.\n:::\n\n"
           "```{reproduction-finding} losses\n```\n\n"
           "A {term}`Hamming loss` and the code `{m}` or ``a `{x}` b`` stay as they are."),
        glue_cell,
        code("import pandas as pd\nfrom mlcbook import losses as L\nks = [1, 2]"),
        md("```{exercise} Recall\n:label: ex-a\nWhat is {math}`k`? See {numref}`fig-a`.\n```\n"
           "```{solution-start} ex-a\n:class: dropdown\n```\nThe answer:"),
        code("import numpy as np\nprint(np.arange(3))"),
        md("```{solution-end}\n```\n:::{dropdown} More\nA {py:func}`~mlcbook.losses.owa_loss`.\n:::"),
    ]
    return nb


@pytest.fixture(scope="module")
def split():
    return handouts(_chapter(), NUM, "book/losses")


def _markdown(nb) -> str:
    return "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")


def test_the_students_notebook_shows_no_myst(split):
    student, solutions = split
    assert not raw_myst(_markdown(student)), raw_myst(_markdown(student))
    assert not raw_myst(_markdown(solutions))
    assert raw_myst("a {term}`x` and ```{note}") and not raw_myst("the code `{m}` here")


def test_glued_values_and_the_finding_are_written_in(split):
    text = _markdown(split[0])
    assert "pi is 3.142" in text
    assert "> **3** of 4 rows agree" in text
    assert "Smith and Jones (2020)" in text and "eq. (2.3)" in text
    finding = render_roles(finding_markdown("losses"), NUM, "book/losses")
    assert "> **What the reproduction found**" in text
    assert finding.splitlines()[0] in text
    assert "*Reproducing Hüllermeier et al. (2022)*" in finding


def test_code_spans_are_left_alone_and_terms_read_as_words(split):
    text = _markdown(split[0])
    assert "the code `{m}` or ``a `{x}` b`` stay" in text
    assert "A Hamming loss and" in text
    assert "> **More**" in text and "`owa_loss()`" in text


def test_the_solutions_carry_the_chapters_imports_first(split):
    _student, solutions = split
    code = [c.source for c in solutions.cells if c.cell_type == "code"]
    # only the import the solution uses: glue, pandas and the losses module it never reads
    # stay in the students' notebook
    assert code[0] == "import numpy as np"
    assert code[1] == "import numpy as np\nprint(np.arange(3))"
    assert "> **Exercise 2.1** (Recall)" in _markdown(solutions)
    assert "What is $k$? See Figure 2.1." in _markdown(solutions)


def test_imports_are_found_in_any_cell_once():
    cells = [nbformat.v4.new_code_cell(s) for s in (
        "%matplotlib inline\nimport numpy as np\nx = 1", "import numpy as np\n"
        "def f():\n    import os\n    return os", "from a import (b,\n    c)",
        "pd.set_option('display.precision', 3)\nplt.rcParams['font.size'] = 10\n"
        "np.set_printoptions(precision=3)\ny = pd.options.display.width\nprint(1)")]
    assert imports_of(cells) == (
        "import numpy as np\nfrom a import b, c\npd.set_option('display.precision', 3)\n"
        "plt.rcParams['font.size'] = 10\nnp.set_printoptions(precision=3)")


def test_an_import_is_carried_when_a_solution_or_a_display_setting_uses_it():
    cells = [nbformat.v4.new_code_cell(s) for s in (
        "import numpy as np\nimport pandas as pd\nimport os.path\nfrom x import y as z",
        "pd.set_option('display.precision', 3)")]
    assert imports_of(cells, names_used(["print(z(1))"])) == (
        "import pandas as pd\nfrom x import y as z\npd.set_option('display.precision', 3)")
    assert imports_of(cells, names_used(["os.path.join('a')"])).splitlines()[:2] == [
        "import pandas as pd", "import os.path"]


def test_both_handouts_begin_with_the_install_line():
    line = "pip install a-1-py3-none-any.whl b-1-py3-none-any.whl"
    student, solutions = handouts(_chapter(), NUM, "book/losses", line)
    for nb, at in ((student, 0), (solutions, 1)):
        text, cell = nb.cells[at], nb.cells[at + 1]
        assert text.cell_type == "markdown" and "`a-1-py3-none-any.whl`, `b-1-" in text.source
        assert "Get the code" in text.source
        assert cell.cell_type == "code" and cell.source == "%" + line
        assert cell.metadata["tags"] == INSTALL_TAGS and "nbval-skip" in INSTALL_TAGS
    # the install cell is the only one added: the rest is the handout without it
    plain_student, plain_solutions = handouts(_chapter(), NUM, "book/losses")
    assert [c.source for c in student.cells[2:]] == [c.source for c in plain_student.cells]
    assert [c.source for c in solutions.cells[3:]] == [c.source for c in plain_solutions.cells[1:]]


def test_the_students_myst_begins_with_the_install_cell_after_its_front_matter():
    source = ("---\njupytext:\n  formats: md:myst,ipynb\nkernelspec:\n  display_name: Python 3"
              "\n  language: python\n  name: python3\n---\n\n"
              "# Title\n\n```{code-cell} ipython3\nx = 1\n```\n")
    line = "pip install a-1-py3-none-any.whl"
    text = student_markdown(source, line)
    assert text.startswith("---\njupytext:") and student_markdown(source) == source
    nb = jupytext.reads(text, fmt="md:myst")
    assert nb.cells[0].cell_type == "markdown" and "Before you start" in nb.cells[0].source
    assert nb.cells[1].source == "%" + line and nb.cells[1].metadata["tags"] == INSTALL_TAGS
    assert nb.cells[2].source == "# Title" and nb.cells[3].source == "x = 1"
