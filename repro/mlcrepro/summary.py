"""Results at a glance: the chapters' ledgers summarised per paper and group of claims.

The book's intro and its ledgers page show, for each paper, which of its claims were
reproduced, with a one-line reason where they were not and links to the ledger rows. The
tables are computed here from the saved ledgers (:func:`mlcrepro.ledger.load_ledgers`), so
they cannot drift from what the chapters found.
"""

from __future__ import annotations

import re
import textwrap  # noqa: F401  (the examples wrap their output)
from collections import Counter
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

import pandas as pd

from mlcrepro.ledger import STATUSES, row_anchor
from mlcrepro.math_text import math_html
from mlcrepro.sentences import findings_sentence

__all__ = [
    "claim_group",
    "row_paper",
    "ledger_summary",
    "paper_summary",
    "summary_html",
    "verdict_table",
    "VERDICT_SYMBOLS",
    "papers_findings",
    "errata",
    "errata_html",
    "ledger_counts_html",
]

_REQUIRED = ("chapter", "paper_ref", "claim", "source", "status", "note")

# the first table, figure, theorem, appendix, top-level section or equation a source names
_GROUP = re.compile(
    r"Tables? [A-Z]?\.?\d+(?:-\d+)?|Figs?\. \d+(?:-\d+)?|Thms? \d+(?:-\d+)?|Theorem \d+"
    r"|App\. [A-Z]|Sec\. \d+|eqs?\. \d+"
)


def claim_group(source: str) -> str:
    """The group a ledger row belongs to: the first table, figure, theorem or section it cites.

    Sections are grouped by their top-level number; a source naming none of these is its
    own group.

    >>> claim_group("Sec. 5.3, Fig. 2")
    'Sec. 5'
    >>> claim_group("Table 2, Thms 1-5")
    'Table 2'
    >>> claim_group("Park & Read, Table 1 caption")
    'Table 1'
    """
    if not isinstance(source, str):
        raise TypeError(f"source must be a string, got {type(source).__name__}")
    m = _GROUP.search(source)
    return m.group(0) if m else source.strip()


def row_paper(paper_ref: str, source: str) -> str:
    """The paper a ledger row is about.

    A chapter about one paper has ``paper_ref`` like ``"Wu & Zhou (2017)"``. A chapter that
    draws on several names them separated by ``";"``, and each row's source then starts with
    the authors (``"Park & Read, Table 1"``); the row belongs to the paper so named.

    >>> row_paper("Zhang & Zhou (2014); Park & Read (2018)", "Park & Read, Table 1")
    'Park & Read (2018)'
    >>> row_paper("Wu & Zhou (2017)", "Table B.3")
    'Wu & Zhou (2017)'
    """
    papers = [p.strip() for p in str(paper_ref).split(";") if p.strip()]
    if len(papers) <= 1:
        return papers[0] if papers else ""
    head = str(source).split(",")[0].strip()
    for p in papers:
        if head.startswith(p.split(" (")[0]):
            return p
    raise ValueError(f"source {source!r} does not start with one of the papers of {paper_ref!r}")


def _check(ledgers: pd.DataFrame) -> None:
    if not isinstance(ledgers, pd.DataFrame):
        raise TypeError(f"ledgers must be a pandas DataFrame, got {type(ledgers).__name__}")
    missing = [c for c in _REQUIRED if c not in ledgers.columns]
    if missing:
        raise ValueError(f"ledgers lacks the columns {missing} (see load_ledgers)")
    bad = sorted(set(ledgers["status"]) - set(STATUSES))
    if bad:
        raise ValueError(f"ledgers has unknown statuses {bad}; expected {STATUSES}")


def _verdict(counts: dict[str, int]) -> str:
    agree = counts["reproduced"] + counts["within spread"] + counts["within our spread"]
    if counts["differs"] == 0 and counts["fragile"] == 0:
        return "reproduced" if counts["qualitative"] == 0 else "qualitatively"
    if agree + counts["qualitative"] == 0 and counts["fragile"] == 0:
        return "differs"
    return "partly"


def _shorten(text: str, width: int = 120) -> str:
    """``text`` cut at a space to at most ``width`` characters, never inside ``$...$``
    maths (cut before the formula instead, which would otherwise print as TeX).

    >>> _shorten("so $a + b = c$ holds", 12)
    'so …'
    """
    if len(text) <= width:
        return text
    cut = text[: width - 1]
    if cut.count("$") % 2:  # inside a formula: stop before it
        cut = cut[: cut.rindex("$")]
    return cut.rsplit(" ", 1)[0].rstrip() + " …"


def _reason(rows: pd.DataFrame) -> str:
    """The most frequent clause of the notes of the rows that differ (else: qualitative)."""
    for status in ("differs", "qualitative"):
        notes = rows.loc[rows["status"] == status, "note"]
        clauses = Counter(
            c
            for note in notes
            for c in dict.fromkeys(s.strip() for s in str(note).split(";"))
            if c
        )  # ties go to the clause met first (Counter keeps insertion order)
        if clauses:
            return _shorten(clauses.most_common(1)[0][0])
    return "agrees with the paper"


def _runs(numbers: list[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], n)
        else:
            runs.append((n, n))
    return runs


def _in_order(ledgers: pd.DataFrame, chapters) -> pd.DataFrame:
    _check(ledgers)
    if chapters is None:
        return ledgers.reset_index(drop=True)
    chapters = list(chapters)
    unknown = sorted(set(ledgers["chapter"]) - set(chapters))
    if unknown:
        raise ValueError(f"chapters does not list the ledgers' chapters {unknown}")
    rank = ledgers["chapter"].map({c: i for i, c in enumerate(chapters)})
    return ledgers.iloc[rank.argsort(kind="stable")].reset_index(drop=True)


def _numbered(ledgers: pd.DataFrame, chapters=None) -> pd.DataFrame:
    """The ledgers in reading order, each row with its 1-based ``row`` in its chapter's
    ledger and the ``paper`` it checks."""
    return _in_order(ledgers, chapters).assign(
        row=lambda f: f.groupby("chapter", sort=False).cumcount() + 1,
        paper=lambda f: [row_paper(p, s) for p, s in zip(f["paper_ref"], f["source"])],
    )


def ledger_summary(ledgers: pd.DataFrame, chapters=None) -> pd.DataFrame:
    """One row per paper, chapter and group of claims: counts, verdict, reason, ledger rows.

    Parameters
    ----------
    ledgers : pandas.DataFrame
        The saved ledgers as :func:`mlcrepro.ledger.load_ledgers` returns them: the rows of
        each chapter in the order of its ledger table.
    chapters : sequence of str, optional
        The chapters in reading order (every chapter of ``ledgers`` must be listed); by
        default the order of ``ledgers``.

    Returns
    -------
    pandas.DataFrame
        Columns ``paper``, ``chapter``, ``claims``, ``n``, one count per status of
        :data:`mlcrepro.ledger.STATUSES`, ``verdict``, ``reason`` and ``rows``; ``rows``
        lists the 1-based row numbers in the chapter's ledger.
        A paper's groups come together, papers ordered by their home chapter (the one
        holding most of their rows); within a paper, chapters and groups keep the order of
        first appearance.
    """
    frame = _numbered(ledgers, chapters).assign(
        claims=lambda f: [claim_group(s) for s in f["source"]],
    )
    out = []
    for (paper, chapter, claims), rows in frame.groupby(
        ["paper", "chapter", "claims"], sort=False
    ):
        counts = {s: int((rows["status"] == s).sum()) for s in STATUSES}
        out.append(
            {
                "paper": paper,
                "chapter": chapter,
                "claims": claims,
                "n": len(rows),
                **counts,
                "verdict": _verdict(counts),
                "reason": _reason(rows),
                "rows": rows["row"].tolist(),
            }
        )
    cols = ["paper", "chapter", "claims", "n", *STATUSES, "verdict", "reason", "rows"]
    table = pd.DataFrame(out, columns=cols)
    # papers in the order of their home chapter (the one holding most of their rows)
    chapter_rank = {c: i for i, c in enumerate(dict.fromkeys(frame["chapter"]))}
    home = table.groupby(["paper", "chapter"], sort=False)["n"].sum().reset_index()
    home = home.loc[home.groupby("paper", sort=False)["n"].idxmax()]
    rank = dict(zip(home["paper"], home["chapter"].map(chapter_rank)))
    order = table["paper"].map(rank).argsort(kind="stable")
    return table.iloc[order].reset_index(drop=True)


#: the short column heads of :func:`verdict_table`, one per status (as on the ledgers page)
VERDICT_SYMBOLS = {
    "reproduced": "✔",
    "within spread": "±",
    "within our spread": "± ours",
    "qualitative": "≈",
    "fragile": "fragile",
    "differs": "✘",
}
#: statuses whose column a summary shows only when some row has them
_RARE = ("within our spread", "fragile")


def verdict_table(ledger: pd.DataFrame, groups: Mapping[str, str]) -> pd.DataFrame:
    """A chapter's ledger in one line per named group of claims: counts and verdict.

    Parameters
    ----------
    ledger : pandas.DataFrame
        One chapter's ledger rows (:meth:`mlcrepro.ledger.Ledger.to_frame`), with the
        columns ``source`` and ``status``.
    groups : mapping of str to str
        Label of each group -> regular expression searched in a row's ``source``; a row
        joins the first group whose pattern it matches.  Every row must join one.

    Returns
    -------
    pandas.DataFrame
        Index: the labels (groups without rows left out; unnamed, so that the table
        has one header row); columns
        ``rows``, one count per status headed by :data:`VERDICT_SYMBOLS` and ``verdict``
        (``reproduced``, ``qualitatively``, ``partly`` or ``differs``).

    Raises
    ------
    ValueError
        If a row's source matches no group.

    Examples
    --------
    >>> rows = pd.DataFrame({"source": ["Table 1", "Table 1", "Sec. 2"],
    ...                      "status": ["reproduced", "differs", "qualitative"]})
    >>> table = verdict_table(rows, {"T1": "^Table 1", "S2": "^Sec"})
    >>> table["verdict"].to_dict()
    {'T1': 'partly', 'S2': 'qualitatively'}
    >>> [int(v) for v in table.loc["T1", ["rows", "✔", "±", "≈", "✘"]]]
    [2, 1, 0, 0, 1]
    """
    if not isinstance(ledger, pd.DataFrame) or not {"source", "status"} <= set(ledger.columns):
        raise TypeError("ledger must be a DataFrame with the columns source and status")
    if not isinstance(groups, Mapping) or not groups:
        raise TypeError("groups must be a non-empty mapping label -> source pattern")
    compiled = {label: re.compile(p) for label, p in groups.items()}
    label_of = []
    for source in ledger["source"].astype(str):
        hit = next((label for label, p in compiled.items() if p.search(source)), None)
        if hit is None:
            raise ValueError(f"no group of groups matches the source {source!r}")
        label_of.append(hit)
    out = []
    for label in compiled:
        status = ledger["status"][[g == label for g in label_of]]
        if status.empty:
            continue
        counts = {s: int((status == s).sum()) for s in STATUSES}
        out.append({"claims": label, "rows": len(status), **counts, "verdict": _verdict(counts)})
    table = pd.DataFrame(out).set_index("claims")
    table.index.name = None  # one header row when shown
    table = table.drop(columns=[s for s in _RARE if table[s].sum() == 0])
    return table.rename(columns=VERDICT_SYMBOLS)


def paper_summary(ledgers: pd.DataFrame, chapters=None) -> pd.DataFrame:
    """Rows of every ledger counted per paper and status (with a total row).

    Parameters
    ----------
    ledgers, chapters
        As for :func:`ledger_summary`.

    Returns
    -------
    pandas.DataFrame
        Index: the papers in the order of :func:`ledger_summary`, then ``"all papers"``; columns
        ``chapters`` (comma-separated), ``n`` and one count per status.
    """
    summary = ledger_summary(ledgers, chapters)
    grouped = summary.groupby("paper", sort=False)
    table = grouped[["n", *STATUSES]].sum()
    table.insert(0, "chapters", grouped["chapter"].agg(lambda c: ", ".join(dict.fromkeys(c))))
    table.loc["all papers"] = ["", *table[["n", *STATUSES]].sum()]
    table.index.name = None  # one header row when shown
    return table.drop(columns=[s for s in _RARE if table[s].sum() == 0])


def _ordered(groups, order: Sequence[str] | None) -> list:
    """(paper, rows) groups in the order of the papers ``order`` names (others after)."""
    groups = list(groups)
    if order is None:
        return groups
    rank = {p: k for k, p in enumerate(order)}
    return sorted(groups, key=lambda g: rank.get(g[0], len(rank)))


def _check_pages(pages: Any, chapters) -> dict[str, str]:
    if pages is None:  # the rows are on the page the table is on
        return {c: "" for c in chapters}
    if not isinstance(pages, Mapping):
        raise TypeError(
            "pages must map each ledger to the page that shows it "
            "(mlcrepro.outcomes.ledger_pages gives the Reproduce pages)"
        )
    missing = sorted(set(chapters) - set(pages))
    if missing:
        raise ValueError(f"pages names no page for the ledgers {missing}")
    return dict(pages)


def _row_links(chapter: str, rows, page: str, name: str = "", runs: bool = True) -> str:
    """Links to a ledger's rows on the page ``page`` (with ``runs``, consecutive rows are
    one link, ``3–5``, to the first of them)."""
    spans = _runs(rows) if runs else [(r, r) for r in rows]
    links = ", ".join(
        f"<a href='{page}#{row_anchor(chapter, a)}'>" + (f"{a}" if a == b else f"{a}–{b}") + "</a>"
        for a, b in spans
    )
    return f"{escape(name)} {links}" if name else links


def _outcome_cell(counts: Mapping[str, int]) -> str:
    """The counts of a group of claims as marks (``12 ✔ 3 ±``), each kept on one line."""
    return " ".join(
        f"<span class='ledger-count'>{n}&nbsp;{escape(VERDICT_SYMBOLS[st])}</span>"
        for st, n in counts.items()
        if n
    )


def ledger_counts_html(
    ledgers: pd.DataFrame, chapters=None, *, pages: Mapping[str, str] | None = None
) -> str:
    """Every ledger in one table: its name (a link to its first row on its paper's
    Reproduce page, which opens it), its rows, and how many of them have each status
    (:data:`VERDICT_SYMBOLS`).

    Parameters
    ----------
    ledgers, chapters
        As for :func:`ledger_summary` (``chapters``: the ledgers in the order to show).
    pages : mapping, optional
        For each ledger the page that shows it, as a link from the page the table is on
        (:func:`mlcrepro.outcomes.ledger_pages`: the papers' Reproduce pages); by default
        the page the table is on.

    Examples
    --------
    >>> rows = pd.DataFrame({"chapter": ["knn", "knn"], "paper_ref": ["X (2020)"] * 2,
    ...                      "claim": ["a", "b"], "source": ["Fig. 4"] * 2,
    ...                      "status": ["reproduced", "differs"], "note": ["", ""]})
    >>> html = ledger_counts_html(rows, pages={"knn": "reproduce_huellermeier2022.html"})
    >>> "href='reproduce_huellermeier2022.html#ledger-knn-1'" in html, "1&nbsp;✘" in html
    (True, True)
    """
    ledgers = _in_order(ledgers, chapters)
    names = list(dict.fromkeys(ledgers["chapter"]))
    pages = _check_pages(pages, names)
    labels = ("ledger", "papers", "rows", "rows by status")
    head = "".join(f"<th>{h}</th>" for h in labels)
    body = []
    for chapter in names:
        rows = ledgers[ledgers["chapter"] == chapter]
        papers = dict.fromkeys(row_paper(r, s) for r, s in zip(rows["paper_ref"], rows["source"]))
        counts = {st: int((rows["status"] == st).sum()) for st in STATUSES}
        cells = (
            f"<a href='{pages[chapter]}#{row_anchor(chapter, 1)}'>{escape(chapter)}</a>",
            escape("; ".join(papers)),
            str(len(rows)),
            _outcome_cell(counts),
        )
        body.append(
            "<tr>"
            + "".join(f"<td data-label='{h}'>{v}</td>" for h, v in zip(labels, cells))
            + "</tr>"
        )
    return (
        f"<table class='ledger ledger-summary ledger-counts'><thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table>"
    )


def summary_html(
    summary: pd.DataFrame,
    titles: Mapping[str, str] | None = None,
    *,
    pages: Mapping[str, str] | None = None,
    order: Sequence[str] | None = None,
) -> str:
    """Render :func:`ledger_summary` as HTML tables, one per paper, that link each group's
    rows on the page that shows them.

    Five columns, so that a table fits the text column: the group of claims, its ledger
    rows (linked), the count per status as its mark (:data:`VERDICT_SYMBOLS`), the verdict
    and why it differs.

    Parameters
    ----------
    summary : pandas.DataFrame
        The output of :func:`ledger_summary`.
    titles : mapping, optional
        A name for each ledger, shown before its row numbers when a paper's rows come
        from several ledgers; the ledger's own name by default.
    pages : mapping, optional
        For each ledger the page (a link from the page the table is on) that shows its
        rows (:func:`mlcrepro.outcomes.ledger_pages`: the papers' Reproduce pages); by
        default the page the table is on.
    order : sequence of str, optional
        The papers in the order to show (others after them); by default the order of
        ``summary``.
    """
    if not isinstance(summary, pd.DataFrame) or "rows" not in summary.columns:
        raise TypeError("summary must be the DataFrame returned by ledger_summary")
    titles = titles or {}
    pages = _check_pages(pages, summary["chapter"].unique())
    labels = ("claims", "ledger rows", "rows by status", "verdict", "why it differs")
    head = "".join(f"<th>{h}</th>" for h in labels)
    parts = []
    for paper, block in _ordered(summary.groupby("paper", sort=False), order):
        several = block["chapter"].nunique() > 1
        body = []
        for r, counts in zip(block.itertuples(), block[list(STATUSES)].to_dict("records")):
            name = titles.get(r.chapter, r.chapter) if several else ""
            cells = (
                escape(r.claims),
                _row_links(r.chapter, r.rows, pages[r.chapter], name),
                _outcome_cell(counts),
                r.verdict,
                "" if r.verdict == "reproduced" else math_html(r.reason),
            )
            body.append(
                "<tr>"
                + "".join(f"<td data-label='{h}'>{v}</td>" for h, v in zip(labels, cells))
                + "</tr>"
            )
        parts.append(
            f"<table class='ledger ledger-summary'><caption>{escape(paper)}"
            f"</caption><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>"
        )
    return "".join(parts)


def papers_findings(ledgers: pd.DataFrame, chapters=None) -> str:
    """The intro's summary: one line per paper with :func:`findings_sentence` of its rows.

    ``ledgers`` and ``chapters`` as for :func:`ledger_summary` (the rows of a chapter
    are given to the paper each is about, :func:`row_paper`).  A MyST bullet list, to
    be glued into the intro as :func:`findings_sentence` is into a chapter.
    """
    rows = _in_order(ledgers, chapters)
    paper = pd.Series([row_paper(r, s) for r, s in zip(rows["paper_ref"], rows["source"])])
    order = paper_summary(ledgers, chapters).index.drop("all papers")  # the table's order
    lines = []
    for name in order:
        g = rows[paper.to_numpy() == name]
        where = ", ".join(dict.fromkeys(g["chapter"]))
        lines.append(f"* **{name}** ({where}): {findings_sentence(g)}")
    return "\n".join(lines)


# ------------------------------------------------------------------------ errata
def errata(ledgers: pd.DataFrame, chapters=None) -> pd.DataFrame:
    """The papers' errata: every ledger row whose cause is an error of the paper.

    Parameters
    ----------
    ledgers : pandas.DataFrame
        The saved ledgers (:func:`mlcrepro.ledger.load_ledgers`).
    chapters : sequence of str, optional
        The chapters in reading order (as for :func:`ledger_summary`).

    Returns
    -------
    pandas.DataFrame
        Columns ``paper``, ``chapter``, ``row`` (1-based, as the ledger numbers it),
        ``source``, ``claim``, ``proof`` (the row's note: what is wrong and why) and
        ``where`` (the chapter's section that shows it).

    Examples
    --------
    >>> led = pd.DataFrame({"chapter": ["c", "c"], "paper_ref": ["A (2020)", "A (2020)"],
    ...     "claim": ["x = 1", "y = 2"], "source": ["eq. 1", "eq. 2"],
    ...     "status": ["reproduced", "differs"], "cause": ["", "paper error"],
    ...     "cause_ref": ["", "c, sec. 2"], "note": ["", "y = 3: 1 + 2"]})
    >>> errata(led)[["paper", "row", "claim", "proof"]].to_dict("records")
    [{'paper': 'A (2020)', 'row': 2, 'claim': 'y = 2', 'proof': 'y = 3: 1 + 2'}]
    """
    frame = _numbered(ledgers, chapters)
    wrong = frame[frame["cause"].fillna("") == "paper error"]
    cols = ["paper", "chapter", "row", "source", "claim", "note", "cause_ref"]
    out = wrong[cols].rename(columns={"note": "proof", "cause_ref": "where"})
    return out.sort_values("paper", kind="stable").reset_index(drop=True)


def errata_html(
    table: pd.DataFrame,
    titles: Mapping[str, str] | None = None,
    *,
    pages: Mapping[str, str] | None = None,
    order: Sequence[str] | None = None,
) -> str:
    """Render :func:`errata` as one list per paper: each erratum once, its mathematics
    typeset, with links to the ledger rows that record it.

    Rows of a paper whose proofs are the same text (one slip checked twice, say exactly
    and by simulation) are one item, naming each claim and linking each row.

    Parameters
    ----------
    table : pandas.DataFrame
        The output of :func:`errata`.
    titles : mapping, optional
        A name for each ledger, shown with its row numbers (the ledger's name by default).
    pages : mapping, optional
        For each ledger the page that shows its rows
        (:func:`mlcrepro.outcomes.ledger_pages`: the papers' Reproduce pages); by default
        the page the list is on.
    order : sequence of str, optional
        The papers in the order to show (others after them).

    Examples
    --------
    >>> t = pd.DataFrame({"paper": ["A (2020)"] * 2, "chapter": ["losses"] * 2,
    ...                   "row": [3, 5], "source": ["eq. 2", "eq. 2"],
    ...                   "claim": ["$y = 2$ (exact)", "$y = 2$ (simulated)"],
    ...                   "proof": ["$y = 3$: $1 + 2$"] * 2, "where": ["", ""]})
    >>> html = errata_html(t, pages={"losses": "reproduce_huellermeier2022.html"})
    >>> html.count("<li>"), html.count("href="), html.count("math notranslate")
    (1, 2, 4)
    """
    if not isinstance(table, pd.DataFrame) or "proof" not in table.columns:
        raise TypeError("table must be the DataFrame returned by errata")
    titles = titles or {}
    pages = _check_pages(pages, table["chapter"].unique())
    parts = []
    for paper, block in _ordered(table.groupby("paper", sort=False), order):
        items = []
        for proof, same in block.groupby("proof", sort=False):
            claims = "; ".join(
                dict.fromkeys(
                    f"<b>{escape(r.source)}:</b> {math_html(r.claim)}" for r in same.itertuples()
                )
            )
            where = "; ".join(
                f"{escape(titles.get(ch, ch))}: {'rows' if len(g) > 1 else 'row'} "
                + _row_links(ch, list(g["row"]), pages[ch], runs=False)
                for ch, g in same.groupby("chapter", sort=False)
            )
            items.append(f"<li>{claims}. {math_html(proof)} ({where})</li>")
        parts.append(f"<p><i>{escape(paper)}</i></p><ul class='errata'>{''.join(items)}</ul>")
    return "".join(parts)
