"""Sphinx extension: docstrings written for ``help()`` render as they read there.

The library's docstrings are read as plain text too (``help()``, an editor's tooltip),
where ``|x - y|`` is an absolute value; reStructuredText reads ``|...|`` as a substitution
reference and fails on it. Inline ``|...|`` that is no defined substitution is escaped
(``\\|x - y\\|``), so the page shows what ``help()`` shows. Lines of tables and line blocks
(starting with ``|`` or ``+``) are left alone.

A docstring whose reStructuredText does not parse (``mlcbook_docstrings_as_text`` in
``_config.yml`` names its object) is shown as preformatted text, as ``help()`` shows it.
"""

from __future__ import annotations

import re

_BARS = re.compile(r"(?<![\\|`])\|(?=[^|\s`])([^|`\n]*?[^|\s`\\])\|(?![|_`])")


def _escape(app, what, name, obj, options, lines):
    if name in app.config.mlcbook_docstrings_as_text:
        lines[:] = ["::", ""] + ["    " + ln for ln in lines]
        return
    known = set(re.findall(r"\|([^|]+)\|", app.config.rst_prolog or ""))
    for k, line in enumerate(lines):
        if line.lstrip().startswith(("|", "+")):
            continue
        lines[k] = _BARS.sub(lambda m: m.group(0) if m.group(1) in known else
                             "\\|" + m.group(1) + "\\|", line)


def setup(app):
    app.add_config_value("mlcbook_docstrings_as_text", [], "env")
    app.connect("autodoc-process-docstring", _escape)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
