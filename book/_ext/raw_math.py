"""Sphinx extension: load MathJax on a page whose only maths is in raw HTML.

Sphinx adds MathJax to a page only when its doctree holds a math node.  A notebook output
written as HTML (the ledgers' notes, typeset by ``mlcrepro``'s ``math_html`` as
``<span class="math ...">\\(...\\)</span>``) is a raw node, so a page whose only maths is
there (the ledgers page, with the errata) would show the TeX source.  Such a page is
marked as having equations, which is what Sphinx's MathJax support reads.

The search page quotes a snippet of each page it finds from the page's HTML, where maths
is TeX source; the snippets leave the maths out (an ellipsis in its place).
"""

from __future__ import annotations

import re

from docutils import nodes

_MATH = re.compile(r"""class=["']math\b""")


def _mark_raw_math(app, doctree) -> None:
    for node in doctree.findall(nodes.raw):
        if "html" in node.get("format", "") and _MATH.search(node.astext()):
            app.env.get_domain("math").data["has_equations"][app.env.docname] = True
            return


# Sphinx 7's searchtools.js reads a snippet's text from the found page's HTML
# (Search.htmlToText): the maths is dropped before it does
_SNIPPETS_WITHOUT_TEX = r"""
document.addEventListener("DOMContentLoaded", () => {
  if (typeof Search === "undefined" || !Search.htmlToText) return;
  const toText = Search.htmlToText;
  const math = /<(span|div) class="math[^"]*">[\s\S]*?<\/\1>/g;
  Search.htmlToText = (html, anchor) => toText(html.replace(math, " … "), anchor);
});
"""


def _search_page(app, pagename, templatename, context, doctree) -> None:
    if pagename == "search":
        app.add_js_file(None, body=_SNIPPETS_WITHOUT_TEX)


def setup(app):
    app.connect("doctree-read", _mark_raw_math)
    app.connect("html-page-context", _search_page)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
