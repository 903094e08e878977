"""Nodes that render for the ``html`` builder only, served to the single-page build too.

The PDF is printed from the ``singlehtml`` build, which stops at any node registered
for the ``html`` builder alone:

* MyST-NB's ``<details>`` of a cell hidden by a ``hide-output`` or ``hide-input`` tag;
* sphinx-design's dropdown (``:::{dropdown}``), with which the Reproduce pages collapse
  their long sections.

The same visitors serve it here.
"""

from myst_nb.sphinx_ import HideCodeCellNode, depart_HideCellInput, visit_HideCellInput
from sphinx_design.dropdown import (
    depart_dropdown_main,
    depart_dropdown_title,
    dropdown_main,
    dropdown_title,
    visit_dropdown_main,
    visit_dropdown_title,
)


def setup(app):
    app.setup_extension("sphinx_design")
    app.add_node(
        HideCodeCellNode,
        override=True,
        singlehtml=(visit_HideCellInput, depart_HideCellInput),
    )
    app.add_node(dropdown_main, override=True,
                 singlehtml=(visit_dropdown_main, depart_dropdown_main))
    app.add_node(dropdown_title, override=True,
                 singlehtml=(visit_dropdown_title, depart_dropdown_title))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
