"""Sphinx extension: a Learn chapter says in one sentence what the reproduction found.

In a chapter's Markdown::

    ```{reproduction-finding} dependence
    ```

renders a note "What the reproduction found" holding the counts of the saved ledger
``book/_ledgers/dependence.csv`` (:func:`mlcrepro.sentences.findings_sentence`) and a link
to the Reproduce page that shows that ledger (:func:`mlcrepro.papers.ledger_page`); each
status and cause it names links its definition in the glossary. The
counts are read from the ledger when the site is built, so the sentence cannot drift
from the ledger, and the chapter's notebook holds no ledger code. The page is rebuilt
when the ledger changes.
"""

from __future__ import annotations

from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

from mlcrepro.papers import finding_markdown


class ReproductionFinding(SphinxDirective):
    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        ledger = self.arguments[0].strip()
        try:
            text = finding_markdown(ledger)
        except ValueError as err:
            raise self.error(str(err)) from err
        self.env.note_dependency(str(Path(self.env.srcdir) / "_ledgers" / f"{ledger}.csv"))
        note = nodes.admonition(classes=["note", "reproduction-finding"])
        note += nodes.title(text="What the reproduction found")
        self.state.nested_parse(StringList(text.splitlines(), source=""), self.content_offset, note)
        return [note]


def setup(app):
    app.add_directive("reproduction-finding", ReproductionFinding)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
