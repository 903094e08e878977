"""Sphinx extension: every page that runs code says, under its title, how to run it.

A reader of the site has no checkout yet; each executable page (a notebook with code
cells: the introduction, the chapters, the ledgers) gets one line under its title: how to
install the library and the reproduction from a checkout (``pip install ./ ./repro``) or
from the wheels ``make dist`` writes to ``dist/``, and where its notebook is. The line is
added to the rendered HTML, not to the chapters' sources, and is not part of the search
index. A link to the repository appears only when one is configured (``repository``).
"""

from __future__ import annotations

import html
import re

_H1_END = re.compile(r"</h1>", re.I)


def _note(app, pagename: str) -> str:
    intro = app.builder.get_relative_uri(pagename, app.config.root_doc)
    url = app.config.mlcbook_repository_url
    where = (
        f'a checkout of <a href="{html.escape(url)}">the repository</a>'
        if url
        else "a checkout of the book's repository"
    )
    return (
        '<p class="mlcbook-run-note"><strong>Run this page yourself.</strong> In '
        f"{where}: <code>pip install ./ ./repro</code> (the library <code>mlcbook</code> and "
        "the reproduction <code>mlcrepro</code>), or <code>make dist</code> and "
        "<code>pip install dist/*.whl</code>; then open this page's notebook "
        "(download button above, <code>.ipynb</code>) in Jupyter. "
        f'<a href="{intro}#installing">More on installing</a>.</p>'
    )


def _add_note(app, pagename, templatename, context, doctree):
    if app.builder.name != "html" or doctree is None:
        return
    if not str(app.env.doc2path(pagename)).endswith(".ipynb"):
        return
    body = context.get("body", "")
    if 'class="cell_input' not in body and "cell_input" not in body:
        return  # a notebook without code: nothing to run
    m = _H1_END.search(body)
    if m:
        context["body"] = body[: m.end()] + _note(app, pagename) + body[m.end():]


def setup(app):
    app.setup_extension("repository")
    app.connect("html-page-context", _add_note)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
