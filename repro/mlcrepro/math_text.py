"""Text with inline mathematics as HTML: how the pages and the printed copy show a
ledger's claims, values, notes and causes, whose ``$...$`` MathJax typesets."""

from __future__ import annotations

import re
from html import escape
from typing import Any

__all__ = ["math_html"]

#: inline mathematics in a ledger's text: ``$...$`` (MyST's and LaTeX's inline delimiters)
_INLINE_MATH = re.compile(r"(?<![\\$])\$(?!\s)([^$\n]+?)(?<![\s\\])\$(?!\$)")


def math_html(text: Any) -> str:
    """``text`` as HTML, each ``$...$`` in it as inline mathematics MathJax typesets.

    The rest is escaped; the mathematics becomes ``<span class="math">\\(...\\)</span>``,
    the form Sphinx gives ``$...$`` in a page, which the site's MathJax renders (and a
    printed copy with it).  Ledger texts (claims, notes, proofs of errata) are shown so.

    >>> print(math_html("the sum $\\sum_i w_i$ of <the> weights"))  # doctest: +ELLIPSIS
    the sum <span class="math notranslate nohighlight">\\(\\sum_i w_i\\)</span> of &lt;the&gt; ...
    >>> math_html("costs $5 and $6")  # a dollar and a number are text
    'costs $5 and $6'
    """
    if text is None:
        return ""
    out, last = [], 0
    s = str(text)
    for m in _INLINE_MATH.finditer(s):
        out.append(escape(s[last : m.start()]))
        out.append(f'<span class="math notranslate nohighlight">\\({escape(m.group(1))}\\)</span>')
        last = m.end()
    out.append(escape(s[last:]))
    return "".join(out)
