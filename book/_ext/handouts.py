"""Sphinx extension: students' and instructors' handouts of every numbered chapter.

A chapter's page download is its notebook as the book runs it: MyST markup
(``{cite:t}``, ``{eq}``, exercise and solution directives) that Jupyter shows raw, and
every solution. At the end of an HTML build this extension writes, for every numbered
chapter that has exercises, into ``handouts/`` of the site:

* ``<chapter>.ipynb``: the students' notebook: no solution (text or code), and the
  MyST markup rendered as plain Jupyter Markdown with the numbers of the site
  (``(2.3)``, "Figure 4.1", "Exercise 2.1", "Hüllermeier et al. (2022)");
* ``<chapter>.md``: the students' MyST source (the chapter's ``.md`` without its
  solutions), for Jupytext users;
* ``<chapter>-solutions.ipynb``: every exercise followed by its solution, for
  instructors.

The ``handouts`` directive (used on the course plan) lists the files as a table.
Numbers come from the build itself (``env.toc_fignumbers``), citations from
``references.bib``, so the handouts say what the site says.
"""

from __future__ import annotations

import codecs
import copy
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import latexcodec  # noqa: F401  (registers the "ulatex" codec)
import nbformat
from docutils import nodes
from docutils.parsers.rst import Directive
from pybtex.database import parse_file

FOLDER = "handouts"
_FENCE = re.compile(r"^(`{3,}|:{3,})\{([a-z-]+)\}\s*(.*)$")
_ROLE = re.compile(r"\{([a-z:]+)\}`([^`]*)`")
_LABELLED = re.compile(r"^(.*?)\s*<([^<>]+)>$", re.S)
_MATH_LABEL = re.compile(r"^\$\$\s*\(([^)]+)\)\s*$")
_TARGET = re.compile(r"^\([A-Za-z0-9_.:-]+\)=\s*$")


# ------------------------------------------------------------------- what the build knows
@dataclass
class Numbers:
    """Labels of the whole book resolved to what the site prints."""

    numbers: dict[str, str] = field(default_factory=dict)  # label -> "Exercise 2.1" etc.
    equations: dict[str, str] = field(default_factory=dict)  # label -> "2.3"
    titles: dict[str, str] = field(default_factory=dict)  # docname or label -> title
    citations: dict[str, tuple[str, str]] = field(default_factory=dict)  # key -> (who, year)

    def cite(self, keys: str, parenthetical: bool) -> str:
        parts = []
        for key in (k.strip() for k in keys.split(",")):
            who, year = self.citations.get(key, (key, ""))
            parts.append(f"{who}, {year}" if parenthetical else f"{who} ({year})")
        return f"({'; '.join(parts)})" if parenthetical else "; ".join(parts)


_KINDS = {"figure": "Figure", "table": "Table", "exercise": "Exercise", "code-block": "Listing"}


def _authors(entry) -> str:
    people = entry.persons.get("author") or entry.persons.get("editor") or []
    last = [" ".join(p.last_names).replace("{", "").replace("}", "") for p in people]
    if not last:
        return entry.fields.get("title", "?")
    if len(last) == 1:
        return last[0]
    if len(last) == 2:
        return f"{last[0]} and {last[1]}"
    return f"{last[0]} et al."


def numbers_of(env, bibfiles: Iterable[Path]) -> Numbers:
    """The site's numbers, titles and citations, from a built environment."""
    out = Numbers()
    for kinds in env.toc_fignumbers.values():
        for kind, ids in kinds.items():
            for node_id, num in ids.items():
                text = ".".join(str(n) for n in num)
                if kind == "displaymath":
                    out.equations[node_id.removeprefix("equation-")] = text
                else:
                    out.numbers[node_id] = f"{_KINDS.get(kind, kind.title())} {text}"
    for label, (_doc, node_id, title) in env.domaindata["std"]["labels"].items():
        if node_id in out.numbers:
            out.numbers.setdefault(label, out.numbers[node_id])
        if title:
            out.titles[label] = title
    for doc, title in env.titles.items():
        out.titles["/" + doc] = title.astext()
    for path in bibfiles:
        for key, entry in parse_file(str(path)).entries.items():
            who = codecs.decode(_authors(entry), "ulatex")
            out.citations[key] = (who, entry.fields.get("year", "n.d."))
    return out


# ------------------------------------------------------------------------- markup -> text
def _target(text: str) -> tuple[str | None, str]:
    m = _LABELLED.match(text)
    return (m.group(1), m.group(2)) if m else (None, text)


def render_roles(text: str, num: Numbers, docname: str) -> str:
    """MyST roles as plain Markdown, with the site's numbers."""

    def one(m: re.Match) -> str:
        role, body = m.group(1), m.group(2)
        if role in ("cite:t", "cite", "cite:p"):
            return num.cite(body, parenthetical=role == "cite:p")
        if role == "eq":
            return f"({num.equations.get(body, body)})"
        caption, label = _target(body)
        if role == "numref":
            n = num.numbers.get(label, label)
            if caption:
                return caption.replace("%s", n.split(" ", 1)[-1])
            return n
        if role == "ref":
            return caption or num.titles.get(label, label)
        if role == "doc":
            path = (
                (Path(docname).parent / label).as_posix()
                if not label.startswith("/")
                else label[1:]
            )
            path = re.sub(r"[^/]+/\.\./", "", path)
            return f"*{caption or num.titles.get('/' + path, label)}*"
        name = label.lstrip("~")
        name = name.rsplit(".", 1)[-1] if label.startswith("~") else name
        return f"`{name}()`" if role.endswith("func") else f"`{name}`"

    return _ROLE.sub(one, text)


def _closes(line: str, fence: str) -> bool:
    return line.strip() == fence


@dataclass
class Splitter:
    """Reads a chapter's Markdown line by line, across cells, solutions apart."""

    num: Numbers
    docname: str
    in_solution: bool = False
    current: str | None = None  # the label of the open exercise or solution

    def markdown(self, source: str, keep: Callable[[str, str | None, str | None], None]) -> None:
        """Send each rendered block to ``keep(text, solution, exercise)``.

        ``solution`` is the label of the solution the block belongs to (else None),
        ``exercise`` the label of the exercise the block states (else None).
        """
        lines = source.splitlines()
        i = 0
        plain: list[str] = []

        def flush() -> None:
            if plain:
                keep("\n".join(plain), self.current if self.in_solution else None, None)
                plain.clear()

        while i < len(lines):
            line = lines[i]
            m = _FENCE.match(line)
            if m:
                fence, name, arg = m.group(1), m.group(2), m.group(3)
                j = i + 1
                depth = 0
                while j < len(lines):
                    inner = _FENCE.match(lines[j])
                    if inner and inner.group(1) == fence:
                        depth += 1
                    elif _closes(lines[j], fence):
                        if depth == 0:
                            break
                        depth -= 1
                    j += 1
                body = lines[i + 1 : j]
                options = {}
                while body and body[0].startswith(":") and not body[0].startswith(fence):
                    key, _, value = body.pop(0)[1:].partition(":")
                    options[key.strip()] = value.strip()
                i = j + 1
                if name == "solution-start":
                    flush()
                    self.in_solution, self.current = True, arg.strip()
                    continue
                if name == "solution-end":
                    flush()
                    self.in_solution = False
                    continue
                while body and not body[0].strip():
                    body.pop(0)
                while body and not body[-1].strip():
                    body.pop()
                if name == "exercise":
                    flush()
                    self.current = options.get("label", "")
                    keep("\n".join(self._directive(name, arg, options, body)), None, self.current)
                    continue
                plain.extend(self._directive(name, arg, options, body))
                continue
            if _TARGET.match(line) or line.startswith("%"):
                i += 1
                continue
            mm = _MATH_LABEL.match(line)
            if mm:
                label = mm.group(1)
                plain.append(f"\\tag{{{self.num.equations.get(label, label)}}}")
                plain.append("$$")
                i += 1
                continue
            plain.append(render_roles(line, self.num, self.docname))
            i += 1
        flush()

    def _directive(self, name: str, arg: str, options: dict, body: list[str]) -> list[str]:
        text = [render_roles(b, self.num, self.docname) for b in body]
        if name == "exercise":
            label = options.get("label", "")
            title = self.num.numbers.get(label, "Exercise")
            head = f"**{title}**" + (
                f" ({render_roles(arg, self.num, self.docname)})" if arg else ""
            )
            return ["> " + head, ">", *("> " + t if t else ">" for t in text)]
        if name in ("admonition", "note", "important", "warning", "tip"):
            head = f"**{render_roles(arg, self.num, self.docname) or name.title()}**"
            return ["> " + head, ">", *("> " + t if t else ">" for t in text)]
        return text  # any other directive: its body as text


# ------------------------------------------------------------------------ the notebooks
def _caption_cell(cell, num: Numbers, docname: str):
    fig = cell.metadata.get("mystnb", {}).get("figure", {})
    if not fig.get("caption"):
        return None
    name = num.numbers.get(fig.get("name", ""), "Figure")
    caption = render_roles(" ".join(str(fig["caption"]).split()), num, docname)
    return nbformat.v4.new_markdown_cell(f"*{name}.* {caption}")


def handouts(nb, num: Numbers, docname: str):
    """The students' notebook and the solutions notebook of one chapter."""
    student = nbformat.v4.new_notebook(metadata=copy.deepcopy(nb.metadata))
    solutions = nbformat.v4.new_notebook(metadata=copy.deepcopy(nb.metadata))
    split = Splitter(num, docname)
    title = num.titles.get("/" + docname, docname)
    solutions.cells.append(nbformat.v4.new_markdown_cell(f"# Solutions: {title}"))
    exercises: dict[str, str] = {}

    for cell in nb.cells:
        if cell.cell_type == "markdown":

            def keep(text: str, solution: str | None, exercise: str | None) -> None:
                if not text.strip():
                    return
                if exercise is not None:
                    exercises[exercise] = text
                if solution is None:
                    student.cells.append(nbformat.v4.new_markdown_cell(text))
                    return
                if solution in exercises:
                    solutions.cells.append(nbformat.v4.new_markdown_cell(exercises.pop(solution)))
                solutions.cells.append(nbformat.v4.new_markdown_cell(text))

            split.markdown(cell.source, keep)
        elif cell.cell_type == "code":
            new = copy.deepcopy(cell)
            new.metadata.pop("mystnb", None)
            target = solutions if split.in_solution else student
            if split.in_solution and split.current in exercises:
                target.cells.append(nbformat.v4.new_markdown_cell(exercises.pop(split.current)))
            target.cells.append(new)
            caption = _caption_cell(cell, num, docname)
            if caption is not None:
                target.cells.append(caption)
        else:
            student.cells.append(copy.deepcopy(cell))
    return student, solutions


def student_markdown(text: str) -> str:
    """A chapter's MyST source without its solutions (text and code)."""
    out, skipping, lines = [], False, text.splitlines(keepends=True)
    i = 0
    while i < len(lines):
        line = lines[i]
        m = _FENCE.match(line.rstrip("\n"))
        if m and m.group(2) in ("solution-start", "solution-end"):
            fence = m.group(1)
            j = i + 1
            while j < len(lines) and not _closes(lines[j], fence):
                j += 1
            skipping = m.group(2) == "solution-start"
            i = j + 1
            continue
        if not skipping:
            out.append(line)
        i += 1
    return re.sub(r"\n{3,}", "\n\n", "".join(out))


def write_handouts(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    env = app.env
    bib = [Path(app.srcdir, b) for b in app.config.bibtex_bibfiles]
    num = numbers_of(env, bib)
    folder = Path(app.outdir, FOLDER)
    folder.mkdir(parents=True, exist_ok=True)
    for doc in chapters(env):
        source = Path(env.doc2path(doc))
        stem = Path(doc).name
        nb = nbformat.read(source, as_version=4)
        student, solutions = handouts(nb, num, doc)
        nbformat.write(student, folder / f"{stem}.ipynb")
        nbformat.write(solutions, folder / f"{stem}-solutions.ipynb")
        md = source.with_suffix(".md")
        if md.exists():
            (folder / f"{stem}.md").write_text(student_markdown(md.read_text("utf-8")), "utf-8")


class HandoutsDirective(Directive):
    """A table of the handouts of every chapter with exercises (links into the site)."""

    has_content = False

    def run(self):
        env = self.state.document.settings.env
        here = env.docname
        up = "../" * here.count("/")
        table = nodes.table(classes=["mlcbook-handouts"])
        group = nodes.tgroup(cols=3)
        table += group
        for width in (3, 2, 1):
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        group += head
        row = nodes.row()
        for text in ("chapter", "for students", "for the teacher"):
            row += nodes.entry("", nodes.paragraph(text=text))
        head += row
        tbody = nodes.tbody()
        group += tbody
        for doc in chapters(env):
            stem = Path(doc).name
            row = nodes.row()
            title = nodes.paragraph()
            title += nodes.reference(
                "",
                env.titles[doc].astext() if doc in env.titles else stem,
                internal=True,
                refuri=f"{up}{doc}.html",
            )
            row += nodes.entry("", title)
            students = nodes.paragraph()
            students += nodes.reference("", "notebook", refuri=f"{up}{FOLDER}/{stem}.ipynb")
            students += nodes.Text(" · ")
            students += nodes.reference("", "MyST", refuri=f"{up}{FOLDER}/{stem}.md")
            row += nodes.entry("", students)
            teacher = nodes.paragraph()
            teacher += nodes.reference(
                "", "solutions", refuri=f"{up}{FOLDER}/{stem}-solutions.ipynb"
            )
            row += nodes.entry("", teacher)
            tbody += row
        return [table]


def chapters(env) -> list[str]:
    """The chapters with an exercise directive, read from their sources (reading order)."""
    chapters = []
    for doc in env.found_docs:
        path = Path(env.doc2path(doc))
        if path.suffix == ".ipynb" and "{exercise}" in path.read_text("utf-8"):
            chapters.append(doc)
    toc = list(env.toctree_includes.get(env.config.root_doc, []))
    order = {d: i for i, d in enumerate(toc)}
    return sorted(chapters, key=lambda d: (order.get(d, len(order)), d))


def setup(app):
    app.add_directive("handouts", HandoutsDirective)
    app.connect("build-finished", write_handouts)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


__all__ = ["chapters", "handouts", "numbers_of", "render_roles", "student_markdown", "setup"]
