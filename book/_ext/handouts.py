"""Sphinx extension: students' and instructors' handouts of every numbered chapter.

A chapter's page download is its notebook as the book runs it: MyST markup
(``{cite:t}``, ``{eq}``, exercise and solution directives) that Jupyter shows raw, and
every solution. At the end of an HTML build this extension writes, for every numbered
chapter that has exercises, into ``handouts/`` of the site:

* ``<chapter>.ipynb``: the students' notebook: no solution (text or code), and the
  MyST markup rendered as plain Jupyter Markdown with the numbers of the site
  (``(2.3)``, "Figure 4.1", "Exercise 2.1", "Hüllermeier et al. (2022)"), the values the
  chapter glues and the reproduction's finding written in as text;
* ``<chapter>.md``: the students' MyST source (the chapter's ``.md`` without its
  solutions), for Jupytext users;
* ``<chapter>-solutions.ipynb``: the chapter's imports the solutions use and its display
  settings (and its cells tagged ``handout-setup``), then every exercise followed by its
  solution, for instructors: it
  runs top to bottom in a fresh kernel when each solution is self-contained, and
  ``make test`` runs it so (with the students' notebook, which holds every other cell).

Both notebooks begin with what to download from "Get the code" and the one line that
installs it (``%pip install`` of the library's, the reproduction's and the data bundle's
wheels), tagged so that nbval skips it; ``make test`` runs that line and every handout in
a fresh environment built from the site's wheels, with the network off.

The ``handouts`` directive (used on the course plan) lists the files as a table.
Numbers come from the build itself (``env.toc_fignumbers``), citations from
``references.bib``, so the handouts say what the site says.
"""

from __future__ import annotations

import ast
import codecs
import copy
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import latexcodec  # noqa: F401  (registers the "ulatex" codec)
import nbformat
import yaml
from docutils import nodes
from docutils.parsers.rst import Directive
from downloads import install_line
from pybtex.database import parse_file
from mlcrepro.papers import finding_markdown
from sphinx import addnodes

FOLDER = "handouts"
_FENCE = re.compile(r"^(`{3,}|:{3,})\{([a-z:-]+)\}\s*(.*)$")
# a role, else an inline code span (whose text is code, never a role)
_ROLE_OR_CODE = re.compile(r"\{([a-z:-]+)\}`([^`]*)`|(?<![`}])(`+).+?(?<!`)\3(?!`)")
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


#: roles that name code (shown as code); any other unknown role shows its text
_CODE_ROLES = ("func", "meth", "class", "mod", "data", "attr", "obj", "exc", "const")


def glued_values(nb) -> dict[str, dict]:
    """``{name: mime bundle}`` of every value a notebook glues (myst-nb ``glue``)."""
    out: dict[str, dict] = {}
    for cell in nb.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            record = output.get("metadata", {}).get("scrapbook", {})
            if "name" in record:
                prefix = record.get("mime_prefix", "")
                out[record["name"]] = {
                    k.removeprefix(prefix): v for k, v in output.get("data", {}).items()
                }
    return out


def _glued_text(glued: dict[str, dict], key: str, markdown: bool = True) -> str:
    """The text of the value glued as ``key`` (``key:format`` formats a number)."""
    name, _, fmt = key.partition(":")
    bundle = glued.get(name.strip())
    if bundle is None:
        raise KeyError(f"no value is glued as {name!r} in this notebook")
    if markdown and "text/markdown" in bundle and not fmt:
        return "".join(bundle["text/markdown"])
    text = "".join(bundle.get("text/plain", ""))
    if fmt:
        try:
            return format(ast.literal_eval(text), fmt)
        except (ValueError, SyntaxError):
            return format(text.strip("'\""), fmt)
    return text.strip("'\"")


def render_roles(
    text: str, num: Numbers, docname: str, glued: dict[str, dict] | None = None
) -> str:
    """MyST roles as plain Markdown, with the site's numbers and the glued values."""

    def one(m: re.Match) -> str:
        role, body = m.group(1), m.group(2)
        if role in ("cite:t", "cite", "cite:p"):
            return num.cite(body, parenthetical=role == "cite:p")
        if role == "eq":
            return f"({num.equations.get(body, body)})"
        if role.startswith("glue"):
            value = _glued_text(glued or {}, body, markdown=role != "glue:text")
            return render_roles(value, num, docname, glued)
        if role == "math":
            return f"${body}$"
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
        if role.split(":")[-1] in _CODE_ROLES:
            name = label.lstrip("~")
            name = name.rsplit(".", 1)[-1] if label.startswith("~") else name
            return f"`{name}()`" if role.endswith("func") else f"`{name}`"
        if role == "abbr":
            return re.sub(r"\s*\([^)]*\)$", "", body)
        return caption or label  # term, download, ...: the words the page shows

    def token(m: re.Match) -> str:  # a role, or an inline code span left as it is
        return one(m) if m.group(1) is not None else m.group(0)

    return _ROLE_OR_CODE.sub(token, text)


def _closes(line: str, fence: str) -> bool:
    return line.strip() == fence


def _fenced(lines: list[str], i: int) -> tuple[str, str, str, dict[str, str], list[str], int]:
    """The directive whose opening fence is ``lines[i]``: fence, name, argument, options,
    body (without blank edges) and the index after its closing fence."""
    m = _FENCE.match(lines[i])
    assert m is not None
    fence, name, arg = m.group(1), m.group(2), m.group(3)
    j, depth = i + 1, 0
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
    options: dict[str, str] = {}
    if body and body[0].strip() == "---":  # options as a YAML block
        end = next((k for k in range(1, len(body)) if body[k].strip() == "---"), 0)
        for line in body[1:end]:
            key, _, value = line.partition(":")
            options[key.strip()] = value.strip()
        body = body[end + 1 :]
    while body and body[0].startswith(":") and not body[0].startswith(fence):
        key, _, value = body.pop(0)[1:].partition(":")
        options[key.strip()] = value.strip()
    while body and not body[0].strip():
        body.pop(0)
    while body and not body[-1].strip():
        body.pop()
    return fence, name, arg, options, body, j + 1


#: directives shown as a quoted box with their title in bold
_BOXES = ("admonition", "note", "important", "warning", "tip", "hint", "caution",
          "attention", "seealso", "dropdown", "danger", "error", "topic", "sidebar")


@dataclass
class Splitter:
    """Reads a chapter's Markdown line by line, across cells, solutions apart."""

    num: Numbers
    docname: str
    glued: dict[str, dict] = field(default_factory=dict)
    in_solution: bool = False
    current: str | None = None  # the label of the open exercise or solution

    def roles(self, text: str) -> str:
        return render_roles(text, self.num, self.docname, self.glued)

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
            if _FENCE.match(lines[i]):
                _fence, name, arg, options, body, i = _fenced(lines, i)
                if name == "solution-start":
                    flush()
                    self.in_solution, self.current = True, arg.strip()
                    continue
                if name == "solution-end":
                    flush()
                    self.in_solution = False
                    continue
                if name == "exercise":
                    flush()
                    self.current = options.get("label", "")
                    keep("\n".join(self._directive(name, arg, options, body)), None, self.current)
                    continue
                plain.extend(self._directive(name, arg, options, body))
                continue
            plain.extend(self._lines([lines[i]]))
            i += 1
        flush()

    def _lines(self, lines: list[str]) -> list[str]:
        """Markdown lines (maybe holding directives) rendered as plain Jupyter Markdown."""
        out: list[str] = []
        i = 0
        while i < len(lines):
            line = lines[i]
            if _FENCE.match(line):
                _fence, name, arg, options, body, i = _fenced(lines, i)
                out.extend(self._directive(name, arg, options, body))
                continue
            i += 1
            if _TARGET.match(line) or line.startswith("%"):
                continue
            mm = _MATH_LABEL.match(line)
            if mm:
                label = mm.group(1)
                out.append(f"\\tag{{{self.num.equations.get(label, label)}}}")
                out.append("$$")
                continue
            out.append(self.roles(line))
        return out

    def _directive(self, name: str, arg: str, options: dict, body: list[str]) -> list[str]:
        if name == "exercise":
            label = options.get("label", "")
            title = self.num.numbers.get(label, "Exercise")
            head = f"**{title}**" + (f" ({self.roles(arg)})" if arg else "")
            return _quoted(head, self._lines(body))
        if name in _BOXES:
            return _quoted(f"**{self.roles(arg) or name.title()}**", self._lines(body))
        if name == "reproduction-finding":
            return _quoted("**What the reproduction found**",
                           self._lines(finding_markdown(arg.strip()).splitlines()))
        if name in ("glue:md", "glue", "glue:any"):
            return self._lines(_glued_text(self.glued, arg.strip()).splitlines())
        if name == "glue:math":
            return ["$$", _glued_text(self.glued, arg.strip(), markdown=False), "$$"]
        if name == "glue:figure":
            bundle = self.glued.get(arg.strip(), {})
            caption = " ".join(self._lines(body))
            if "image/png" in bundle:
                return [f"![{caption}](data:image/png;base64,{bundle['image/png']})",
                        "", f"*{caption}*" if caption else ""]
            return [f"*{caption}*"] if caption else []
        if name == "math":
            label = options.get("label", "")
            tag = [f"\\tag{{{self.num.equations[label]}}}"] if label in self.num.equations else []
            return ["$$", *body, *tag, "$$"]
        if name in ("code-block", "code", "sourcecode"):
            return [f"```{arg.strip()}", *body, "```"]
        if name in ("figure", "image"):
            caption = " ".join(self._lines(body))
            label = options.get("name", "")
            number = self.num.numbers.get(label, "")
            return [f"*{number}.* {caption}" if number else f"*{caption}*"] if caption else []
        return self._lines(body)  # any other directive: its body as text


def _quoted(head: str, lines: list[str]) -> list[str]:
    return ["> " + head, ">", *("> " + t if t else ">" for t in lines)]


# ------------------------------------------------------------------------ the notebooks
def _caption_cell(cell, num: Numbers, docname: str):
    fig = cell.metadata.get("mystnb", {}).get("figure", {})
    if not fig.get("caption"):
        return None
    name = num.numbers.get(fig.get("name", ""), "Figure")
    caption = render_roles(" ".join(str(fig["caption"]).split()), num, docname)
    return nbformat.v4.new_markdown_cell(f"*{name}.* {caption}")


#: a code cell of a chapter with this tag is carried whole into its solutions notebook,
#: after the chapter's imports (data or a helper that the solutions share)
SETUP_TAG = "handout-setup"


#: calls that set how outputs look (pandas' display options, NumPy's print options,
#: matplotlib's rc settings, warning filters): a chapter's presentation, which its solutions
#: print under too
_DISPLAY_CALLS = ("set_option", "set_printoptions", "filterwarnings", "simplefilter")
_DISPLAY_TARGETS = re.compile(r"^(?:pd|pandas)\.options\.|^(?:plt|matplotlib|mpl)\.rcParams\b")


def _is_display_setting(node: ast.stmt) -> bool:
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        func = node.value.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        text = ast.unparse(func)
        return name in _DISPLAY_CALLS or text.endswith("rcParams.update")
    if isinstance(node, ast.Assign):
        return all(_DISPLAY_TARGETS.match(ast.unparse(t)) for t in node.targets)
    return False


def _tree(source: str) -> ast.Module | None:
    """A code cell parsed (IPython's ``%`` and ``!`` lines left out), None if not Python."""
    code = "\n".join(ln for ln in source.splitlines() if not ln.lstrip().startswith(("%", "!")))
    try:
        return ast.parse(code)
    except SyntaxError:
        return None


def _bound(node: ast.Import | ast.ImportFrom) -> set[str]:
    """The names an import statement binds (``import a.b`` binds ``a``)."""
    return {a.asname or a.name.split(".")[0] for a in node.names}


def names_used(sources: Iterable[str]) -> set[str]:
    """Every name the code ``sources`` reads (``np`` of ``np.arange(3)``)."""
    used: set[str] = set()
    for source in sources:
        tree = _tree(source)
        if tree is not None:
            used |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    return used


def imports_of(cells, used: set[str] | None = None) -> str:
    """Every top-level import statement of the code ``cells``, once each, in order, then
    the statements that set how outputs look (``pd.set_option(...)``,
    ``np.set_printoptions(...)``, ``plt.rcParams[...] = ...``), once each, in order.

    With ``used``, only the imports that bind one of those names or a name the display
    settings read (the solutions' notebook carries no import it never uses)."""
    imports: dict[str, set[str]] = {}
    settings: dict[str, None] = {}
    for cell in cells:
        tree = _tree(cell.source)
        if tree is None:
            continue
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                imports.setdefault(ast.unparse(node), _bound(node))
            elif _is_display_setting(node):
                settings.setdefault(ast.unparse(node), None)
    if used is not None:
        wanted = used | names_used(settings)
        imports = {text: bound for text, bound in imports.items() if bound & wanted}
    return "\n".join([*imports, *settings])


def _setup_cells(student_code, solutions) -> None:
    """Put the chapter's imports that the solutions use (and its cells tagged
    :data:`SETUP_TAG`) first in the solutions notebook, so that it runs top to bottom in a
    fresh kernel."""
    carried = [nbformat.v4.new_markdown_cell(
        "Run this first: the chapter's imports and display settings, which the solutions "
        "below use.")]
    setup = [c for c in student_code if SETUP_TAG in c.metadata.get("tags", [])]
    used = names_used(c.source for c in [*setup, *solutions.cells] if c.cell_type == "code")
    imports = imports_of(student_code, used)
    if imports:
        carried.append(nbformat.v4.new_code_cell(imports))
    for cell in setup:
        new = nbformat.v4.new_code_cell(cell.source)
        new.metadata["tags"] = [SETUP_TAG]
        carried.append(new)
    solutions.cells[1:1] = carried


#: the tags of the install cell: nbval skips it (the book's own environment has the
#: packages installed editable; the offline handout run executes the line itself)
INSTALL_TAGS = ["handout-install", "nbval-skip"]


def install_cells(line: str) -> list:
    """The first cells of a handout: what to download and the one line that installs it."""
    files = line.split()[2:]
    names = ", ".join(f"`{f}`" for f in files)
    text = (
        "**Before you start.** This notebook runs on the book's library (`mlcbook`), its "
        "reproduction (`mlcrepro`, which carries the result tables the chapter reads) and "
        f"its data bundle (the datasets). Save the three files {names} from the book's page "
        "*Get the code* into the folder of this notebook, and run the cell below once per "
        "Python environment (skip it if the book's packages are installed already). It "
        "needs no network when NumPy, pandas, SciPy, scikit-learn and matplotlib are "
        "installed; otherwise pip fetches them."
    )
    cell = nbformat.v4.new_code_cell(f"%{line}")
    cell.metadata["tags"] = list(INSTALL_TAGS)
    return [nbformat.v4.new_markdown_cell(text), cell]


def handouts(nb, num: Numbers, docname: str, install: str | None = None):
    """The students' notebook and the solutions notebook of one chapter.

    The students' notebook is the chapter without its solutions, its MyST markup (roles,
    directives, glued values, the reproduction's finding) written out as plain Jupyter
    Markdown; the solutions notebook holds each exercise and its solution, after the
    chapter's imports that the solutions use, so that it runs on its own in a fresh
    kernel.  With ``install`` (a ``pip install ...`` line), both begin with what to
    download and that line (:func:`install_cells`).
    """
    student = nbformat.v4.new_notebook(metadata=copy.deepcopy(nb.metadata))
    solutions = nbformat.v4.new_notebook(metadata=copy.deepcopy(nb.metadata))
    split = Splitter(num, docname, glued_values(nb))
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
    _setup_cells([c for c in student.cells if c.cell_type == "code"], solutions)
    if install is not None:
        student.cells[0:0] = install_cells(install)
        solutions.cells[1:1] = install_cells(install)
    return student, solutions


def student_markdown(text: str, install: str | None = None) -> str:
    """A chapter's MyST source without its solutions (text and code); with ``install``
    (a ``pip install ...`` line), the cells of :func:`install_cells` first, after the
    front matter."""
    if install is not None:
        words, cell = install_cells(install)
        tags = ", ".join(cell.metadata["tags"])
        fence = f"```{{code-cell}} ipython3\n:tags: [{tags}]\n\n{cell.source}\n```"
        head = f"{words.source}\n\n{fence}\n\n"
        m = re.match(r"^---\n.*?\n---\n\n?", text, re.S)
        at = m.end() if m else 0
        text = text[:at] + head + text[at:]
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
    install = install_line(Path(app.srcdir))
    for doc in chapters(env):
        source = Path(env.doc2path(doc))
        stem = Path(doc).name
        nb = nbformat.read(source, as_version=4)
        student, solutions = handouts(nb, num, doc, install)
        nbformat.write(student, folder / f"{stem}.ipynb")
        nbformat.write(solutions, folder / f"{stem}-solutions.ipynb")
        md = source.with_suffix(".md")
        if md.exists():
            text = student_markdown(md.read_text("utf-8"), install)
            (folder / f"{stem}.md").write_text(text, "utf-8")


class HandoutsDirective(Directive):
    """A table of the handouts of every chapter with exercises, in reading order, each
    chapter named by its title (a reference Sphinx resolves once every page is read)."""

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
            ref = addnodes.pending_xref(
                "", refdomain="std", reftype="doc", reftarget="/" + doc, refdoc=here,
                refexplicit=False, refwarn=True)
            ref += nodes.inline("", stem)
            title += ref
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


def toc_order(env) -> list[str]:
    """The book's pages in reading order, from its table of contents (``_toc.yml``)."""
    path = Path(env.srcdir, str(getattr(env.config, "external_toc_path", "_toc.yml")))
    toc = yaml.safe_load(path.read_text("utf-8"))
    order = [toc["root"]]

    def walk(entries) -> None:
        for e in entries or []:
            if "file" in e:
                order.append(e["file"])
            walk(e.get("sections"))

    walk(toc.get("chapters"))
    for part in toc.get("parts", []):
        walk(part.get("chapters"))
    return order


def chapters(env) -> list[str]:
    """The chapters with an exercise directive, read from their sources, in reading order."""
    found = []
    for doc in env.found_docs:
        path = Path(env.doc2path(doc))
        if path.suffix == ".ipynb" and "{exercise}" in path.read_text("utf-8"):
            found.append(doc)
    order = {d: i for i, d in enumerate(toc_order(env))}
    return sorted(found, key=lambda d: (order.get(d, len(order)), d))


def setup(app):
    app.add_directive("handouts", HandoutsDirective)
    app.connect("build-finished", write_handouts)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


__all__ = ["chapters", "toc_order", "glued_values", "handouts", "imports_of", "install_cells",
           "names_used", "numbers_of", "render_roles", "student_markdown", "INSTALL_TAGS",
           "SETUP_TAG", "setup"]
