"""Sphinx extension: every page that runs code says, under its title, how to run it.

A reader of the site has no copy of the code yet; each executable page (a notebook with
code cells: the introduction, the chapters, the Reproduce pages) gets one line under its
title: the page "Get the code" (``downloads``) has the source and the two commands that
run it, and the download button above has this page's notebook (the front page, which
gives the install line in its text, gets none). The line is added to the
rendered HTML, not to the chapters' sources, and is not part of the search index. A link
to the repository appears only when one is configured (``repository``).
"""

from __future__ import annotations

import html
import re

_H1_END = re.compile(r"</h1>", re.I)
#: the page that offers the code (``downloads``)
GET_THE_CODE = "book/get_the_code"


def _note(app, pagename: str) -> str:
    get = app.builder.get_relative_uri(pagename, GET_THE_CODE)
    url = app.config.mlcbook_repository_url
    repo = f' (or from <a href="{html.escape(url)}">its repository</a>)' if url else ""
    return (
        '<p class="mlcbook-run-note"><strong>Run this page yourself.</strong> '
        f'<a href="{get}">Get the code</a>{repo}: the source, and the two commands that '
        "install it and open the chapters; this page's notebook is also in the download "
        "menu above (<code>.ipynb</code>).</p>"
    )


def _add_note(app, pagename, templatename, context, doctree):
    if app.builder.name != "html" or doctree is None:
        return
    if pagename == app.config.root_doc:
        return  # the front page says how to install the library in its own words
    if not str(app.env.doc2path(pagename)).endswith(".ipynb"):
        return
    body = context.get("body", "")
    if 'class="cell_input' not in body and "cell_input" not in body:
        return  # a notebook without code: nothing to run
    m = _H1_END.search(body)
    if m:
        context["body"] = body[: m.end()] + _note(app, pagename) + body[m.end() :]


def setup(app):
    app.setup_extension("repository")
    app.connect("html-page-context", _add_note)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
