"""What the reproduction found, per paper: the front page's counts, sentences and figure,
and where each ledger's rows are shown.

Every row of the saved ledgers (:func:`mlcrepro.ledger.load_ledgers`) is about one paper
(:func:`mlcrepro.summary.row_paper`; the measures ledger checks several).  This module
counts, for each paper of ``mlcrepro.papers.PAPERS``, how its rows came out and,
for those that differ, which kind of cause each names; it says so in one line per
paper and draws it.  Nothing is typed: the counts come from the ledgers, the papers'
names and pages from ``mlcrepro.papers``.
"""

from __future__ import annotations

import textwrap  # noqa: F401  (the examples wrap their output)
from collections.abc import Mapping
from typing import Any

import pandas as pd

from mlcrepro.ledger import CAUSE_KINDS, STATUSES, WORDS
from mlcrepro.papers import PAPERS, ledger_page
from mlcrepro.summary import row_paper

__all__ = [
    "OUTCOMES",
    "OUTCOME_OF",
    "paper_outcomes",
    "ledger_pages",
    "outcome_line",
    "outcomes_markdown",
    "plot_outcomes",
    "OUTCOME_STYLE",
    "CAUSE_STYLE",
]

#: the outcomes a row can have on the front page: its status, each under the book's word
#: for it (``mlcrepro.vocabulary.WORDS``; the paper's spread and ours are two outcomes)
OUTCOMES = STATUSES
#: the outcome of each ledger status (itself)
OUTCOME_OF: Mapping[str, str] = {s: s for s in STATUSES}

#: the glossary's term for each outcome and cause kind (``{term}`` targets of
#: ``book/glossary.md``): the book's word for it
_TERM = WORDS


def ledger_pages(ledgers) -> dict[str, str]:
    """Where each ledger's rows are shown: its paper's Reproduce page, as a link from a
    page beside it (the ``pages`` the linking tables of :mod:`mlcrepro.summary` take).

    >>> ledger_pages(["losses", "blended"])
    {'losses': 'reproduce_huellermeier2022.html', 'blended': 'reproduce_park_read2018.html'}
    """
    return {c: ledger_page(c).page_doc.rsplit("/", 1)[-1] + ".html" for c in ledgers}


def paper_outcomes(ledgers: pd.DataFrame) -> pd.DataFrame:
    """Rows of the saved ledgers counted per paper: outcomes, and causes of the differences.

    Parameters
    ----------
    ledgers : pandas.DataFrame
        The saved ledgers (:func:`mlcrepro.ledger.load_ledgers`), with the columns
        ``paper_ref``, ``source``, ``status`` and ``cause``.

    Returns
    -------
    pandas.DataFrame
        One row per paper of ``mlcrepro.papers.PAPERS`` that has ledger rows, in
        the book's order, indexed by the paper's key; columns ``citation``, ``page``
        (the Sphinx name of its Reproduce page), ``rows``, one count per outcome of
        :data:`OUTCOMES` and one count per cause kind of
        :data:`mlcrepro.ledger.CAUSE_KINDS` (of the rows that differ).

    Raises
    ------
    ValueError
        If a row is about a paper ``mlcrepro.papers`` does not list, has an unknown
        status, or differs without a known cause kind.

    Examples
    --------
    >>> rows = pd.DataFrame({"paper_ref": ["Park & Read (2018)"] * 3,
    ...                      "source": ["Table 1", "Table 2", "Sec. 3"],
    ...                      "status": ["reproduced", "differs", "within our spread"],
    ...                      "cause": ["", "tested", ""]})
    >>> t = paper_outcomes(rows)
    >>> cols = ["rows", "reproduced", "within spread", "within our spread", "differs"]
    >>> [int(v) for v in t.loc["park_read2018", cols]]
    [3, 1, 0, 1, 1]
    """
    if not isinstance(ledgers, pd.DataFrame):
        raise TypeError(f"ledgers must be a pandas DataFrame, got {type(ledgers).__name__}")
    missing = [c for c in ("paper_ref", "source", "status", "cause") if c not in ledgers]
    if missing:
        raise ValueError(f"ledgers lacks the columns {missing} (see load_ledgers)")
    bad = sorted(set(ledgers["status"]) - set(STATUSES))
    if bad:
        raise ValueError(f"ledgers has unknown statuses {bad}; expected {STATUSES}")
    by_citation = {p.citation: p for p in PAPERS}
    papers = [row_paper(r, s) for r, s in zip(ledgers["paper_ref"], ledgers["source"])]
    unknown = sorted(set(papers) - set(by_citation))
    if unknown:
        raise ValueError(f"ledger rows are about papers mlcrepro.papers does not list: {unknown}")
    frame = ledgers.assign(_paper=papers, _outcome=ledgers["status"].map(OUTCOME_OF))
    differing = frame[frame["status"] == "differs"]
    causes = differing["cause"].fillna("").astype(str)
    bad = sorted(set(causes) - set(CAUSE_KINDS))
    if bad:
        raise ValueError(f"rows that differ name unknown cause kinds {bad}, not {CAUSE_KINDS}")
    out = []
    for p in PAPERS:
        mine = frame[frame["_paper"] == p.citation]
        if mine.empty:
            continue
        mine_causes = causes[differing["_paper"] == p.citation]
        out.append(
            {
                "key": p.key,
                "citation": p.citation,
                "page": p.page_doc,
                "rows": len(mine),
                **{o: int((mine["_outcome"] == o).sum()) for o in OUTCOMES},
                **{c: int((mine_causes == c).sum()) for c in CAUSE_KINDS},
            }
        )
    columns = ["key", "citation", "page", "rows", *OUTCOMES, *CAUSE_KINDS]
    return pd.DataFrame(out, columns=columns).set_index("key")


def _check_table(table: Any) -> None:
    if not isinstance(table, pd.DataFrame) or not {
        "citation",
        "page",
        "rows",
        *OUTCOMES,
        *CAUSE_KINDS,
    } <= set(table.columns):
        raise TypeError("table must be the DataFrame returned by paper_outcomes")


def _series(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _word(key: str, shown: str, linked: set[str] | None) -> str:
    """``shown`` as a glossary link to the term ``key``, the first time only."""
    if linked is not None and key in linked:
        return shown
    if linked is not None:
        linked.add(key)
    return f"{{term}}`{shown}`" if shown == _TERM[key] else f"{{term}}`{shown} <{_TERM[key]}>`"


def outcome_line(row: Mapping[str, Any], linked: set[str] | None = None) -> str:
    """One paper's outcome in words (MyST), its statuses and causes linked to the glossary.

    Parameters
    ----------
    row : mapping
        One row of :func:`paper_outcomes` (``rows``, the outcomes, the cause kinds).
    linked : set of str, optional
        Terms linked already (by earlier lines): they are written plain, and the terms
        this line links are added.  By default every term is linked.

    Examples
    --------
    >>> row = {"rows": 5, "reproduced": 3, "within spread": 0, "within our spread": 0,
    ...        "qualitative": 0, "fragile": 0, "differs": 2, "paper error": 1,
    ...        "underspecified": 0, "material unavailable": 0, "tested": 0, "unknown": 1}
    >>> print(textwrap.fill(outcome_line(row), 88))
    of its **5** rows, {term}`reproduced` **3**, {term}`differs` **2** (causes: {term}`paper
    error` **1**, {term}`unknown` **1**)
    >>> print(textwrap.fill(outcome_line(row, linked={"reproduced", "differs"}), 88))
    of its **5** rows, reproduced **3**, differs **2** (causes: {term}`paper error` **1**,
    {term}`unknown` **1**)
    """
    if int(row["rows"]) == int(row["reproduced"]):
        word = _word("reproduced", WORDS["reproduced"], linked)
        return f"all **{int(row['rows'])}** of its rows {word}"
    parts = [f"{_word(o, WORDS[o], linked)} **{int(row[o])}**" for o in OUTCOMES if int(row[o])]
    text = f"of its **{int(row['rows'])}** rows, {', '.join(parts)}"
    causes = [
        f"{_word(c, WORDS[c], linked)} **{int(row[c])}**" for c in CAUSE_KINDS if int(row[c])
    ]
    if causes:
        text += f" (causes: {', '.join(causes)})"
    return text


def outcomes_markdown(table: pd.DataFrame) -> str:
    """The front page's summary: a MyST bullet list, one line per paper, each linking
    the paper's Reproduce page (:func:`outcome_line` gives the words; each status and
    cause links the glossary the first time the list names it).

    >>> rows = pd.DataFrame({"paper_ref": ["Hivemall"], "source": ["Hivemall, doc"],
    ...                      "status": ["reproduced"], "cause": [""]})
    >>> print(textwrap.fill(outcomes_markdown(paper_outcomes(rows)), 88))
    * {doc}`Hivemall </book/reproduce_zhang_zhou2014>`: all **1** of its rows
    {term}`reproduced`.
    """
    _check_table(table)
    linked: set[str] = set()
    return "\n".join(
        f"* {{doc}}`{r['citation']} </{r['page']}>`: {outcome_line(r, linked)}."
        for _, r in table.iterrows()
    )


#: how the figure draws each outcome: face colour (its grey level orders the outcomes
#: from dark, reproduced, to white, differs), hatch and the colour of a count printed on it
OUTCOME_STYLE: Mapping[str, dict[str, str]] = {
    "reproduced": {"color": "#1f4e79", "hatch": "", "text": "white"},
    "within spread": {"color": "#6f9fcf", "hatch": "//", "text": "black"},
    "within our spread": {"color": "#9ebfe0", "hatch": "--", "text": "black"},
    "qualitative": {"color": "#c6dbef", "hatch": "..", "text": "black"},
    "fragile": {"color": "#f4d35e", "hatch": "xx", "text": "black"},
    "differs": {"color": "#ffffff", "hatch": "\\\\\\", "text": "black"},
}
#: how the figure draws each cause kind of the rows that differ (greys and hatches)
CAUSE_STYLE: Mapping[str, dict[str, str]] = {
    "paper error": {"color": "#262626", "hatch": "", "text": "white"},
    "underspecified": {"color": "#737373", "hatch": "//", "text": "white"},
    "material unavailable": {"color": "#b0b0b0", "hatch": "..", "text": "black"},
    "tested": {"color": "#e0e0e0", "hatch": "xx", "text": "black"},
    "unknown": {"color": "#ffffff", "hatch": "", "text": "black"},
}
#: type size (points) of every text of the figure: 10 pt, as the library's figures
TEXT_PT = 10.0


def _fits(n: int, inches: float) -> bool:
    """Whether the count ``n`` fits, in 10-pt digits, a segment ``inches`` wide."""
    return inches >= 0.085 * len(str(n)) + 0.06


def _bars(ax, table: pd.DataFrame, columns, styles, shares: bool, inches: float) -> None:
    """One bar per paper; ``inches`` is the width the whole axis spans."""
    names = [str(c).split(" (")[0] for c in table["citation"]]  # the year is not needed
    y = list(range(len(names)))[::-1]
    for k, (_, r) in enumerate(table.iterrows()):
        left = 0.0
        for c in columns:
            n = int(r[c])
            width = n / int(r["rows"]) if shares else n
            if n:
                st = styles[c]
                ax.barh(
                    y[k],
                    width,
                    left=left,
                    height=0.66,
                    color=st["color"],
                    hatch=st["hatch"],
                    edgecolor="black",
                    linewidth=0.7,
                )
                span = ax.get_xlim()[1]
                if _fits(n, width / span * inches):
                    ax.text(
                        left + width / 2,
                        y[k],
                        str(n),
                        ha="center",
                        va="center",
                        fontsize=TEXT_PT,
                        color=st["text"],
                        bbox={"boxstyle": "square,pad=0.12", "fc": st["color"], "ec": "none"},
                    )
            left += width
    ax.set_yticks(y, names, fontsize=TEXT_PT)
    ax.set_ylim(-0.6, len(names) - 0.4)
    ax.tick_params(axis="x", labelsize=TEXT_PT)
    ax.spines[["top", "right"]].set_visible(False)


def _legend(fig, styles, columns, top: float, ncol: int) -> None:
    from matplotlib.patches import Patch

    handles = [
        Patch(
            facecolor=styles[c]["color"],
            hatch=styles[c]["hatch"],
            edgecolor="black",
            linewidth=0.7,
            label=WORDS[c],
        )
        for c in columns
    ]
    fig.legend(
        handles=handles,
        loc="upper left",
        bbox_to_anchor=(0.01, top),
        ncol=ncol,
        fontsize=TEXT_PT,
        frameon=False,
        handlelength=1.8,
        handleheight=1.1,
        columnspacing=0.8,
        handletextpad=0.4,
        borderaxespad=0.0,
    )


#: the figure's layout in inches: room for the papers' names left of the bars, the
#: height of one paper's bar, and the bands above and below each panel
_LEFT, _RIGHT, _BAR = 1.35, 0.25, 0.3
_TITLE, _AXIS, _LEGEND, _GAP = 0.32, 0.5, 0.75, 0.2


def plot_outcomes(table: pd.DataFrame, *, width: float = 4.5):
    """The front page's figure: per paper, how its rows came out and why some differ.

    Two panels, one bar per paper: above, the share of its ledger rows per outcome
    (:data:`OUTCOMES`), the count printed in each segment wide enough for it; below,
    the rows that differ per cause kind, as counts.  Readable in grey: every outcome and
    cause has its own hatch as well as its own grey level; all text is 10 pt.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`paper_outcomes` of the saved ledgers.
    width : float
        Figure width in inches: 4.5 (the default) keeps its 10-pt type above 9 px on a
        390-px phone; the PDF prints it at the text's width.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> rows = pd.DataFrame({"paper_ref": ["Wu & Zhou (2017)"] * 2,
    ...                      "source": ["Table 3", "Table 4"],
    ...                      "status": ["reproduced", "differs"], "cause": ["", "tested"]})
    >>> fig = plot_outcomes(paper_outcomes(rows))
    >>> [ax.get_xlabel() for ax in fig.axes]
    ['share of the paper’s ledger rows', 'ledger rows that differ']
    """
    _check_table(table)
    if not isinstance(width, (int, float)) or not 4.5 <= width <= 8:
        raise ValueError(f"width must be between 4.5 and 8 inches, got {width!r}")
    import matplotlib.pyplot as plt

    n = len(table)
    panel = _TITLE + n * _BAR + _AXIS + _LEGEND
    height = 2 * panel + _GAP
    fig = plt.figure(figsize=(width, height))

    def axes(top: float):  # a panel's bars, ``top`` inches below the figure's top
        bottom = height - top - _TITLE - n * _BAR
        return fig.add_axes(
            (_LEFT / width, bottom / height, (width - _LEFT - _RIGHT) / width, n * _BAR / height)
        )

    span = width - _LEFT - _RIGHT
    upper = axes(0.0)
    upper.set_xlim(0, 1)
    _bars(upper, table, OUTCOMES, OUTCOME_STYLE, shares=True, inches=span)
    upper.set_xticks([0, 0.25, 0.5, 0.75, 1], ["0", "25%", "50%", "75%", "100%"])
    upper.set_xlabel("share of the paper’s ledger rows", fontsize=TEXT_PT, labelpad=2)
    upper.set_title(
        "How each paper’s claims came out",
        fontsize=TEXT_PT,
        loc="left",
        fontweight="bold",
        x=-_LEFT / span,
        pad=6,
    )
    _legend(fig, OUTCOME_STYLE, OUTCOMES, 1 - (_TITLE + n * _BAR + _AXIS) / height, ncol=2)

    lower = axes(panel + _GAP)
    most = max(int(table[list(CAUSE_KINDS)].sum(axis=1).max()), 1)
    lower.set_xlim(0, most * 1.02)
    _bars(lower, table, CAUSE_KINDS, CAUSE_STYLE, shares=False, inches=span)
    for k, (_, r) in enumerate(table.iterrows()):
        if int(r["differs"]) == 0:
            lower.text(0, n - 1 - k, " none differs", va="center", fontsize=TEXT_PT)
    lower.set_xlabel("ledger rows that differ", fontsize=TEXT_PT, labelpad=2)
    lower.set_title(
        "Why the rows that differ differ",
        fontsize=TEXT_PT,
        loc="left",
        fontweight="bold",
        x=-_LEFT / span,
        pad=6,
    )
    _legend(
        fig,
        CAUSE_STYLE,
        CAUSE_KINDS,
        1 - (panel + _GAP + _TITLE + n * _BAR + _AXIS) / height,
        ncol=2,
    )
    return fig
