"""What the workshop leaves in a reader's text: repository paths, result tables and tests
named by file, test ids, machine paths (shared by the site's and the PDF's checks).

A reader of the site or of the PDF has no checkout: a page says what its evidence is and
links the published copy, it never names ``data/results/blended_penalty.csv``,
``tests/mlcbook/test_limo.py::test_x`` or ``/work/shared/datasets``.  The one allowance
is code a reader runs (a code cell's input): a file name there is the reader's own file.
"""

from __future__ import annotations

import html
import re

from mlcrepro._paths import project_root

__all__ = ["WORKSHOP", "workshop_paths", "reading_text", "allowed_in_code"]

#: repository folders, a table or a source file by name, a test id, an absolute path of a
#: machine; a dotted Python name (``mlcbook.metrics``) and a word with a full stop are not
WORKSHOP = re.compile(
    r"(?<![\w.])(?:data/results/|data/cache/|book/\w+\.md|book/_\w+|tests?/\w+|notes/\w+"
    r"|lib/mlcbook|repro/mlcrepro|tools/\w+\.py)"
    r"|[\w-]+\.csv\b|[\w-]+\.py\b|\.py::|(?<![\w.:/])/(?:work|home|tmp|Users|root|opt)/"
)


def workshop_paths(text: str) -> list[str]:
    """Every workshop path in ``text``, as found.

    >>> workshop_paths("see data/results/blended_lp.csv and mlcbook.metrics, p. 3.")
    ['data/results/', 'blended_lp.csv']
    >>> workshop_paths("the mirror /work/shared/datasets; tests/mlcbook/test_limo.py::t")
    ['/work/', 'tests/mlcbook', 'test_limo.py']
    """
    return [m.group(0) for m in WORKSHOP.finditer(text)]


_DROP = re.compile(
    r"<(script|style)\b.*?</\1>"  # not text
    r"|<div class=\"cell_input\b.*?</div>\s*</div>\s*</div>"  # code a reader runs
    r"|<div class=\"highlight-[\w-]+ notranslate\">.*?</div>\s*</div>",  # and its blocks
    re.S,
)


def reading_text(page: str) -> str:
    """The text a reader reads on an HTML page: no tags, scripts or code a reader runs.

    >>> reading_text('<p>a <a href="data/results/x.csv">table</a></p><script>t.py</script>')
    'a table'
    """
    body = page.split('<main', 1)[-1]  # the article, not the theme's navigation
    text = re.sub(r"<[^>]+>", " ", _DROP.sub(" ", body))
    return " ".join(html.unescape(text).split())


_CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```", re.M | re.S)


def allowed_in_code() -> set[str]:
    """The one allowance: what the code of a shown code cell names (code a reader runs).

    ``truth.csv`` of the own-predictions chapter is a file the reader's code writes, and
    the command's output names it; nothing else of a page is allowed a path.
    """
    code = "\n".join(
        cell
        for md in sorted((project_root() / "book").glob("*.md"))
        for cell in _CELL.findall(md.read_text("utf-8"))
        if not re.match(r":tags:.*remove-(cell|input)", cell)
    )
    return set(workshop_paths(code))
