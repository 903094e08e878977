"""Sphinx extension: every repository file a page cites can be opened from the site.

The chapters point at the evidence behind a statement by its file in the book's
repository — a test (``tests/mlcbook/test_limo.py::test_mlknn_matches_reference``), a
study note (``notes/boomer-enron.md``), a benchmark. A reader of the site has no
checkout, so each such path in a page's text becomes a link to a copy of the file
published with the site (``_repository/<path>.html``, highlighted, lines numbered), at
the cited test or function when the citation names one. A cited file that does not
exist fails the build (a warning, and the site is built with ``-W``).
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import TextLexer, get_lexer_for_filename
from pygments.util import ClassNotFound
from sphinx.util import logging

FOLDER = "_repository"
ROOTS = ("tests", "notes", "benchmarks", "repro", "lib", "tools")
_CITED = re.compile(
    r"(?<![\w/.-])((?:" + "|".join(ROOTS) + r")/[A-Za-z0-9_/.-]+\.(?:py|md|csv|json|m|txt))"
    r"(?:::([A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]\s<]*\])?)?"
)
_TAG = re.compile(r"(<[^>]+>)")
_LOG = logging.getLogger(__name__)


def _line_of(text: str, name: str | None) -> int | None:
    """The line (1-based) that defines ``name`` in a Python source, if any."""
    if not name:
        return None
    m = re.search(rf"^\s*(?:async\s+)?(?:def|class)\s+{re.escape(name)}\b", text, re.M)
    return text.count("\n", 0, m.start()) + 1 if m else None


def link_citations(body: str, to_root: str, root: Path, page: str) -> str:
    """``body`` with each cited repository path in its text (not in tags, not already
    inside a link) turned into a link to its published copy."""
    out, in_link = [], 0
    for part in _TAG.split(body):
        if part.startswith("<"):
            if re.match(r"<a[\s>]", part):
                in_link += 1
            elif part.startswith("</a"):
                in_link = max(0, in_link - 1)
            out.append(part)
            continue
        if in_link:
            out.append(part)
            continue

        def one(m: re.Match) -> str:
            path, name = m.group(1), m.group(2)
            file = root / path
            if not file.is_file():
                _LOG.warning("%s cites %s, which is not a file of the repository", page, path)
                return m.group(0)
            line = _line_of(file.read_text("utf-8", errors="replace"), name)
            anchor = f"#L-{line}" if line else ""
            url = f"{to_root}{FOLDER}/{path}.html{anchor}"
            return f'<a class="reference external mlcbook-repo-file" href="{url}">{m.group(0)}</a>'

        out.append(_CITED.sub(one, part))
    return "".join(out)


def _add_links(app, pagename, templatename, context, doctree):
    if app.builder.format != "html" or "body" not in context:
        return
    to_root = "../" * pagename.count("/")
    context["body"] = link_citations(context["body"], to_root, Path(app.srcdir), pagename)


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{path}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem; }}
.highlight pre {{ font-size: 0.8rem; overflow-x: auto; }}
td.linenos {{ color: #777; user-select: none; }}
{css}
</style></head>
<body>
<p><a href="{home}">mlcbook</a> · a file of the book's repository, as the site was built</p>
<h1 style="font-size:1.1rem"><code>{path}</code></h1>
{code}
</body></html>
"""


def write_pages(app, exception) -> None:
    """Publish every cited file as a highlighted page with numbered, anchored lines."""
    if exception is not None or app.builder.format != "html":
        return
    # every page of the site, also those an incremental build did not write again
    found = re.compile(rf'class="[^"]*mlcbook-repo-file[^"]*" href="[^"]*?{FOLDER}/([^"#]+)\.html')
    cited = sorted(
        {p for f in Path(app.outdir).rglob("*.html") for p in found.findall(f.read_text("utf-8"))}
    )
    formatter = HtmlFormatter(linenos="table", lineanchors="L", anchorlinenos=True)
    css = formatter.get_style_defs(".highlight")
    for path in cited:
        text = Path(app.srcdir, path).read_text("utf-8", errors="replace")
        try:
            lexer = get_lexer_for_filename(path, text)
        except ClassNotFound:
            lexer = TextLexer()
        depth = path.count("/") + 1
        page = _PAGE.format(
            path=html.escape(path),
            css=css,
            home="../" * depth + "index.html",
            code=highlight(text, lexer, formatter),
        )
        out = Path(app.outdir, FOLDER, f"{path}.html")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(page, "utf-8")


def setup(app):
    app.connect("html-page-context", _add_links)
    app.connect("build-finished", write_pages)
    return {"parallel_read_safe": True, "parallel_write_safe": False}


__all__ = ["link_citations", "setup", "write_pages"]
