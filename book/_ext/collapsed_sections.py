"""Sphinx extension: a collapsed section's summary line says how much it holds.

Every collapsed section of the book is a ``<details>`` element in one style
(``_static/mlcbook.css``, "one collapsed-section style"): a dropdown of a page's
Markdown (sphinx-design) and a table a chapter shows collapsed
(:func:`mlcrepro.display.collapsed`, :meth:`mlcrepro.ledger.Ledger.collapsed`, whose
summaries count their rows). To a dropdown's title this extension adds what its body
holds, counted from the built page: ``(2 tables, 1 figure, 180 words)``. The count is
taken when the page is written, after the glued outputs are in place, so it can never
disagree with the body.
"""

from __future__ import annotations

from docutils import nodes
from sphinx_design.dropdown import dropdown_main, dropdown_title


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def body_length(body: nodes.Node) -> str:
    """What a collapsed body holds: its tables, figures and words of prose, counted."""
    tables = figures = words = 0
    for n in body.findall():
        if isinstance(n, nodes.table):
            tables += 1
        elif isinstance(n, nodes.raw) and "html" in n.get("format", ""):
            text = n.astext()
            tables += text.count("<table")
            figures += text.count("<img")
        elif isinstance(n, nodes.image):
            figures += 1
        elif isinstance(n, nodes.paragraph):
            words += len(n.astext().split())
    parts = [
        _plural(n, w) for n, w in ((tables, "table"), (figures, "figure"), (words, "word")) if n
    ]
    return ", ".join(parts)


def _count(app, doctree: nodes.document, docname: str) -> None:
    for box in doctree.findall(dropdown_main):
        titles = [c for c in box.children if isinstance(c, dropdown_title)]
        if not titles:
            continue
        body = [c for c in box.children if not isinstance(c, dropdown_title)]
        length = ", ".join(filter(None, (body_length(b) for b in body)))
        if not length:
            continue
        text = next(
            (c for c in titles[0].findall(nodes.inline) if "sd-summary-text" in c["classes"]),
            titles[0],
        )
        text += nodes.inline("", f" ({length})", classes=["collapsed-length"])


def setup(app):
    app.connect("doctree-resolved", _count)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
