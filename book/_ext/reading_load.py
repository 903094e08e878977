"""The reading load of each page: words of prose and lines of code, counted from its source.

As a Sphinx extension it gives every page ``book/NAME.md`` the MyST substitutions
``{{ words_NAME }}`` (words of prose, rounded to the hundred, e.g. ``3,100``) and
``{{ minutes_NAME }}`` (reading time at ``WORDS_PER_MINUTE``, rounded to 5 minutes), so the
course plan of ``book/instructors.md`` quotes the chapters as they are at build time.
As a script it prints the table::

    python book/_ext/reading_load.py

Prose is the text of the markdown cells without their maths (``$...$``, ``$$...$$``, math
blocks), inline code, directive and option lines, HTML tags and link targets; a word is a
run of letters (with ``'`` or ``-`` inside). Code is the non-empty lines of code cells.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

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


def load(book: Path) -> dict[str, tuple[int, int]]:
    """``{NAME: (words, code lines)}`` for every ``book/NAME.md``."""
    return {p.stem: count(p) for p in sorted(Path(book).glob("*.md"))}


def _rounded(words: int) -> str:
    return f"{max(100, round(words, -2)):,}"


def _minutes(words: int) -> str:
    return str(max(5, 5 * round(words / WORDS_PER_MINUTE / 5)))


def _substitutions(app, config):
    subs = dict(config.myst_substitutions or {})
    for name, (words, _code) in load(Path(app.srcdir) / "book").items():
        subs[f"words_{name}"] = _rounded(words)
        subs[f"minutes_{name}"] = _minutes(words)
    subs["words_per_minute"] = str(WORDS_PER_MINUTE)
    config.myst_substitutions = subs


def setup(app):
    app.connect("config-inited", _substitutions)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


if __name__ == "__main__":
    book = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1]
    print(f"{'page':<18}{'words':>7}{'code lines':>12}{'minutes':>9}"
          f"  (at {WORDS_PER_MINUTE} words/min)")
    for name, (words, code) in load(book).items():
        print(f"{name:<18}{words:>7}{code:>12}{_minutes(words):>9}")
