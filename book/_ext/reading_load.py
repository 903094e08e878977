"""The reading load of each page: words of prose and lines of code, counted from its source.

As a Sphinx extension it gives every page ``book/NAME.md`` the MyST substitutions
``{{ words_NAME }}`` (words of prose, rounded to the hundred, e.g. ``3,100``) and
``{{ minutes_NAME }}`` (reading time at ``WORDS_PER_MINUTE``, rounded to 5 minutes), so the
course plan of ``book/instructors.md`` quotes the chapters as they are at build time.
The course plan names its reading with the role ``{reading}`NAME NAME ...```: it links
each page and states the load of them all, derived from those pages: their prose, and the
words their code cells print (tables, ledgers, findings and the sections the site shows
collapsed), which a reader meets too.
As a script it prints the table::

    python book/_ext/reading_load.py

Prose is the text of the markdown cells without their maths (``$...$``, ``$$...$$``, math
blocks), inline code, directive and option lines, HTML tags and link targets; a word is a
run of letters (with ``'`` or ``-`` inside). Code is the non-empty lines of code cells.
Printed words are those of the outputs committed in the page's notebook (``NAME.ipynb``),
shown or collapsed: of each output its markdown, else its HTML without tags, else its plain
text, and the text it streams; a number is not a word, so a table of numbers adds only its
headings; a cell tagged ``remove-output`` or ``remove-cell`` prints nothing.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.util.docutils import SphinxRole

# Technical prose with formulas is read slowly: 120 words a minute (about half the pace of
# plain prose) is the estimate the course plan states; the code and outputs come on top.
WORDS_PER_MINUTE = 120

_FENCE = re.compile(r"^(`{3,}|:{3,})")
_CELL = re.compile(r"^```\{code-cell\}")
_DROP = [
    re.compile(r"\$\$.*?\$\$", re.S),
    re.compile(r"\$[^$\n]+\$"),
    re.compile(r"`[^`\n]*`"),
    re.compile(r"<[^>\n]+>"),
    re.compile(r"\]\([^)\n]*\)"),
    re.compile(r"\{[a-z:-]+\}"),
]
_WORD = re.compile(r"[A-Za-zÀ-ÿ](?:[A-Za-zÀ-ÿ'’-]*[A-Za-zÀ-ÿ])?")


def count(path: Path) -> tuple[int, int]:
    """Words of prose and non-empty code lines of a MyST-markdown notebook ``path``."""
    text = Path(path).read_text(encoding="utf-8")
    if text.startswith("---"):
        text = text.split("\n---", 1)[1] if "\n---" in text[3:] else text
    prose: list[str] = []
    code_lines, skip, fence = 0, "", ""
    directives: list[str] = []  # fences of the open prose directives (exercise, figure, ...)
    for line in text.splitlines():
        s = line.strip()
        if skip:  # inside a code cell ("code") or a block that is not prose ("other")
            if s == fence:
                skip = ""
            elif skip == "code" and s and not s.startswith(":"):
                code_lines += 1
            continue
        m = _FENCE.match(s)
        if m:
            mark = m.group(1)
            if s == mark and directives and directives[-1] == mark:
                directives.pop()  # the end of a prose directive
            elif _CELL.match(s):
                skip, fence = "code", mark
            elif s.startswith(mark + "{") and not any(
                k in s for k in ("{math}", "{eval-rst}", "{code")
            ):
                directives.append(mark)  # its body is prose
            else:
                skip, fence = "other", mark  # maths, raw reST, a plain code block
            continue
        if s.startswith((":label:", ":class:", ":name:", ":width:", ":align:", ":tags:", "+++")):
            continue
        prose.append(line)
    body = "\n".join(prose)
    for pattern in _DROP:
        body = pattern.sub(" ", body)
    return len(_WORD.findall(body)), code_lines


_HIDDEN = ("remove-output", "remove-cell")
_PREFERRED = ("text/markdown", "text/html", "text/plain")
_SCRIPT = re.compile(r"<(script|style)\b.*?</\1>", re.S | re.I)
_TAG = re.compile(r"<[^>]*>")
_ENTITY = re.compile(r"&[#\w]+;")


def printed_words(path: Path) -> int:
    """Words the code cells of the notebook ``path`` print, shown or collapsed (see the
    module's docstring): what a reader meets beyond the page's prose."""
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    words = 0
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        if any(t in _HIDDEN for t in cell.get("metadata", {}).get("tags", [])):
            continue
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                texts = [out.get("text", "")]
            else:
                data = out.get("data", {})
                texts = []
                for prefix in ("", "application/papermill.record/"):
                    kind = next((prefix + k for k in _PREFERRED if prefix + k in data), None)
                    if kind:
                        texts.append(data[kind])
            for text in texts:
                text = "".join(text) if isinstance(text, list) else str(text)
                text = _ENTITY.sub(" ", _TAG.sub(" ", _SCRIPT.sub(" ", text)))
                words += len(_WORD.findall(text))
    return words


def load(book: Path) -> dict[str, tuple[int, int]]:
    """``{NAME: (words, code lines)}`` for every ``book/NAME.md``."""
    return {p.stem: count(p) for p in sorted(Path(book).glob("*.md"))}


def _rounded(words: int) -> str:
    return f"{max(100, round(words, -2)):,}"


def _minutes(words: int) -> str:
    return str(max(5, 5 * round(words / WORDS_PER_MINUTE / 5)))


def reading(book: Path, names: list[str]) -> tuple[int, int]:
    """Words of prose and printed words (:func:`printed_words`) of the pages ``names``
    (``book/NAME.md`` and its notebook ``book/NAME.ipynb``), added up."""
    prose = printed = 0
    for name in names:
        source = Path(book) / f"{name}.md"
        if not source.exists():
            raise ValueError(f"names must be pages of the book (book/NAME.md), got {name!r}")
        prose += count(source)[0]
        notebook = source.with_suffix(".ipynb")
        printed += printed_words(notebook) if notebook.exists() else 0
    return prose, printed


def describe(prose: int, printed: int) -> str:
    """The load as the course plan states it.

    >>> describe(1890, 0)
    'about 1,900 words, 15 min'
    >>> describe(1890, 9460)
    'about 1,900 words, 15 min, and 9,500 more printed in their tables and collapsed sections'
    """
    text = f"about {_rounded(prose)} words, {_minutes(prose)} min"
    if printed >= 50:
        text += f", and {_rounded(printed)} more printed in their tables and collapsed sections"
    return text


class ReadingRole(SphinxRole):
    """``{reading}`intro measures```: links to the pages, then their load in brackets."""

    def run(self):
        names = self.text.split()
        if not names:
            msg = self.inliner.reporter.error("reading needs one or more page names",
                                              line=self.lineno)
            return [self.inliner.problematic(self.rawtext, self.rawtext, msg)], [msg]
        book = Path(self.env.srcdir) / "book"
        try:
            prose, printed = reading(book, names)
        except ValueError as err:
            msg = self.inliner.reporter.error(str(err), line=self.lineno)
            return [self.inliner.problematic(self.rawtext, self.rawtext, msg)], [msg]
        out: list[nodes.Node] = []
        for k, name in enumerate(names):
            if k:
                out.append(nodes.Text(" and " if k == len(names) - 1 else ", "))
            ref = addnodes.pending_xref(
                "", nodes.inline(name, name, classes=["xref", "std", "std-doc"]),
                refdomain="std", reftype="doc", reftarget=name, refexplicit=False,
                refwarn=True, refdoc=self.env.docname)
            out.append(ref)
        out.append(nodes.Text(f" ({describe(prose, printed)})"))
        return out, []


def _substitutions(app, config):
    subs = dict(config.myst_substitutions or {})
    for name, (words, _code) in load(Path(app.srcdir) / "book").items():
        subs[f"words_{name}"] = _rounded(words)
        subs[f"minutes_{name}"] = _minutes(words)
    subs["words_per_minute"] = str(WORDS_PER_MINUTE)
    config.myst_substitutions = subs


def setup(app):
    app.connect("config-inited", _substitutions)
    app.add_role("reading", ReadingRole())
    return {"parallel_read_safe": True, "parallel_write_safe": True}


if __name__ == "__main__":
    book = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1]
    print(f"{'page':<24}{'words':>7}{'printed':>9}{'code lines':>12}{'minutes':>9}"
          f"  (at {WORDS_PER_MINUTE} words/min)")
    for name, (words, code) in load(book).items():
        nb = book / f"{name}.ipynb"
        printed = printed_words(nb) if nb.exists() else 0
        print(f"{name:<24}{words:>7}{printed:>9}{code:>12}{_minutes(words):>9}")
