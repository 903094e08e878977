"""Sphinx extension: the table of every measure name, built from the registry.

``.. mlcbook-measure-table::`` puts :func:`mlcbook.registry.name_table` on the page: one
row per registered name (and per deprecated name), with its kind, input, direction,
parameters, convention, what it equals and whether it has a bootstrap interval.  Nothing
in the table is typed: a measure registered in the library appears in the next build.
"""

from __future__ import annotations

from docutils import nodes
from docutils.parsers.rst import Directive

from mlcbook.registry import name_table

#: (column key of name_table(), heading, relative width)
COLUMNS = (
    ("name", "name", 14),
    ("kind", "kind", 8),
    ("inputs", "input", 7),
    ("better", "better", 5),
    ("parameters", "parameters", 12),
    ("convention", "convention", 8),
    ("equals", "equals (tested)", 16),
    ("interval", "interval", 5),
    ("description", "what it is", 25),
)


def _entry(text: str, literal: bool = False) -> nodes.entry:
    para = nodes.paragraph()
    para += nodes.literal(text=text) if literal and text else nodes.Text(text)
    return nodes.entry("", para)


def table_node(rows: list[dict[str, str]]) -> nodes.table:
    """A docutils table of ``rows`` (the dicts of :func:`mlcbook.registry.name_table`)."""
    table = nodes.table(classes=["mlcbook-measure-table"])
    group = nodes.tgroup(cols=len(COLUMNS))
    table += group
    for _, _, width in COLUMNS:
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    row = nodes.row()
    for _, title, _ in COLUMNS:
        row += _entry(title)
    head += row
    group += head
    body = nodes.tbody()
    for r in rows:
        row = nodes.row()
        for key, _, _ in COLUMNS:
            row += _entry(r[key], literal=key in ("name", "parameters", "equals"))
        body += row
    group += body
    return table


class MeasureTable(Directive):
    has_content = False

    def run(self) -> list[nodes.Node]:
        return [table_node(name_table())]


def setup(app):
    app.add_directive("mlcbook-measure-table", MeasureTable)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
