"""MyST-NB's hidden-output toggles in the single-page build that the PDF is printed from.

MyST-NB registers the ``<details>`` rendering of a cell hidden by a ``hide-output`` or
``hide-input`` tag for the ``html`` builder only; the ``singlehtml`` builder then stops at
the first such cell.  The same visitors serve it here.
"""

from myst_nb.sphinx_ import HideCodeCellNode, depart_HideCellInput, visit_HideCellInput


def setup(app):
    app.add_node(
        HideCodeCellNode,
        override=True,
        singlehtml=(visit_HideCellInput, depart_HideCellInput),
    )
    return {"parallel_read_safe": True, "parallel_write_safe": True}
