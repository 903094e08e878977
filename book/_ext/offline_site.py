"""Sphinx extension: keep the built book self-contained.

Jupyter Book 1 always loads sphinx-thebe, which (a) declares its configuration script twice,
a console error on every page, and (b) points at a CDN copy of thebe. The book has no live
kernels, so thebe's scripts are dropped from every page. MathJax comes from the site itself
(sphinx-mathjax-offline). Readers without a stored colour mode start in light mode.
"""

from __future__ import annotations


def _drop_thebe(app, pagename, templatename, context, doctree):
    scripts = context.get("script_files")
    if not scripts:
        return
    keep = []
    for js in scripts:
        name = getattr(js, "filename", None) or (js if isinstance(js, str) else "") or ""
        body = getattr(js, "attributes", {}).get("body", "") if hasattr(js, "attributes") else ""
        if "thebe" in str(name) or "THEBE_JS_URL" in str(body):
            continue
        keep.append(js)
    scripts[:] = keep


# pydata-sphinx-theme reads the colour mode from localStorage and logs a console error on a
# reader's first visit, when none is stored yet; start such readers in light mode (print-like).
_DEFAULT_MODE = (
    "if (!document.documentElement.dataset.mode) {"
    " document.documentElement.dataset.mode = 'light'; }"
)


def setup(app):
    app.connect("html-page-context", _drop_thebe, priority=900)
    app.add_js_file(None, body=_DEFAULT_MODE, priority=100)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
