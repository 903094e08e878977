"""The ledger's HTML: the table a chapter shows, its shared notes, and its folded form.

Each row has an id (:func:`row_anchor`) for links from the summaries, and its first cell
shows the row's claim ids, each an anchor of its own (``#PR067``, :func:`claim_anchor`)
that a table of a Reproduce page links to; each cell names its column (``data-label``)
so that a narrow screen can stack a row's cells.  A
cause shared by several rows is printed once, below the table, and referenced by its
label (:func:`shared_causes`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Protocol

from mlcrepro.display import BADGES
from mlcrepro.ledger.rules import RARE_STATUSES, WORDS, Cause, Entry
from mlcrepro.math_text import math_html


class Ledger(Protocol):
    """What the HTML reads of a ledger (:class:`mlcrepro.ledger.Ledger`): its name, paper,
    rows and counts.  A protocol, so that this module needs nothing of the ledger's own."""

    chapter: str
    paper: str
    entries: list[Entry]

    def counts(self) -> dict[str, int]: ...


__all__ = [
    "BADGES",
    "COLUMNS",
    "row_anchor",
    "claim_anchor",
    "note_id",
    "shared_causes",
    "ledger_html",
    "ledger_text",
    "Collapsed",
]

#: the columns of the rendered table
COLUMNS = ("id", "claim", "source", "paper", "ours", "status", "note")


def row_anchor(chapter: str, row: int) -> str:
    """HTML id of row ``row`` (1-based, as numbered in the table) of a chapter's ledger.

    >>> row_anchor("losses", 3)
    'ledger-losses-3'
    """
    return f"ledger-{chapter}-{int(row)}"


def claim_anchor(claim_id: str) -> str:
    """HTML id of the ledger row that first carries the claim id ``claim_id`` on a page.

    The id itself, so that ``page.html#PR067`` reads as the claim it opens.

    >>> claim_anchor("PR067")
    'PR067'
    """
    if not isinstance(claim_id, str) or not claim_id.strip() or " " in claim_id.strip():
        raise ValueError(f"claim_id must be one claim id such as 'PR067', got {claim_id!r}")
    return claim_id.strip()


def _ids_html(e: Entry, anchored: set[str]) -> str:
    """The row's claim ids, each a link to itself; the first row of an id holds its anchor."""
    out = []
    for cid in e.claim_ids:
        a = claim_anchor(cid)
        # double quotes, as Sphinx writes ids (the site's link check reads id="...")
        target = "" if a in anchored else f' id="{escape(a)}"'
        anchored.add(a)
        out.append(f'<a class="claim-id" href="#{escape(a)}"{target}>{escape(cid)}</a>')
    return " ".join(out)


def note_id(chapter: str, label: str) -> str:
    """HTML id of the shared note ``label`` below a chapter's ledger.

    >>> note_id("losses", "B")
    'ledger-losses-note-B'
    """
    return f"ledger-{chapter}-note-{label}"


def _label(i: int) -> str:
    """A, B, ..., Z, AA, AB, ... for i = 0, 1, ..."""
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(65 + r) + out
    return out


def shared_causes(entries: Sequence[Entry]) -> dict[Cause, str]:
    """Causes given to two or more rows, labelled ``A``, ``B``, ... in order of use.

    >>> from mlcrepro.ledger.rules import unknown
    >>> c = unknown("not known")
    >>> rows = [Entry("a", "", "1", "2", "differs", cause=c) for _ in range(2)]
    >>> list(shared_causes(rows).values())
    ['A']
    """
    uses: dict[Cause, int] = {}
    for e in entries:
        if e.cause is not None:
            uses[e.cause] = uses.get(e.cause, 0) + 1
    shared = [c for c, n in uses.items() if n > 1]
    return {c: _label(i) for i, c in enumerate(shared)}


def _row_html(
    chapter: str, i: int, e: Entry, shared: Mapping[Cause, str], anchored: set[str]
) -> str:
    if e.cause is not None and e.cause in shared:
        note = (
            f"{escape(e.cause.kind)} — <a href='#{note_id(chapter, shared[e.cause])}'>"
            f"note {shared[e.cause]}</a>"
        )
    else:
        note = math_html(e.explanation)
    cells = (
        _ids_html(e, anchored),
        math_html(e.claim),
        escape(e.source),
        math_html(e.paper),
        math_html(e.ours),
        BADGES[e.status],
        note,
    )
    classes = ("", "", "", "", "", f" class='ledger-{e.status.replace(' ', '-')}'", "")
    return (
        f'<tr id="{row_anchor(chapter, i)}">'
        + "".join(f"<td data-label='{h}'{c}>{v}</td>" for h, c, v in zip(COLUMNS, classes, cells))
        + "</tr>"
    )


def _note_html(chapter: str, cause: Cause, label: str) -> str:
    see = "Tested in" if cause.kind == "tested" else "See"
    ref = f" <i>{see}</i> {escape(cause.ref)}." if cause.ref else ""
    return (
        f'<li id="{note_id(chapter, label)}"><b>Note {label}</b> ({escape(cause.kind)}): '
        f"{math_html(cause.text)}{ref}</li>"
    )


def ledger_html(ledger: Ledger) -> str:
    """The ledger as an HTML table, its counts in the caption, its shared notes below.

    >>> from mlcrepro.ledger.core import Ledger
    >>> led = Ledger("demo", "A. Author (2020)")
    >>> _ = led.number("loss $L$", "Table 1", paper="0.43", ours=3 / 7)
    >>> '<span class="math notranslate nohighlight">' in ledger_html(led)  # the $L$
    True
    """
    shared = shared_causes(ledger.entries)
    head = "".join(f"<th>{h}</th>" for h in COLUMNS)
    anchored: set[str] = set()
    body = "".join(
        _row_html(ledger.chapter, i, e, shared, anchored) for i, e in enumerate(ledger.entries, 1)
    )
    summary = ", ".join(
        f"{v} {WORDS[k]}"
        for k, v in ledger.counts().items()
        if v or k not in ("within spread", *RARE_STATUSES)
    )
    notes = "".join(_note_html(ledger.chapter, c, label) for c, label in shared.items())
    return (
        f"<table class='ledger'><caption>Reproduction ledger: {escape(ledger.paper)} "
        f"({summary})</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{body}</tbody></table>"
        + (f"<ol class='ledger-notes'>{notes}</ol>" if notes else "")
    )


def ledger_text(ledger: Ledger) -> str:
    """The ledger as plain text: its counts, then one line per row."""
    counts = {k: v for k, v in ledger.counts().items() if v or k not in RARE_STATUSES}
    lines = [f"Ledger {ledger.chapter!r} ({ledger.paper}): {counts}"]
    for i, e in enumerate(ledger.entries, 1):
        lines.append(
            f"{i:3d}. [{e.status}] {e.claim} ({e.source}): paper {e.paper or '-'}, ours {e.ours}"
        )
    return "\n".join(lines)


class Collapsed:
    """A ledger shown inside ``<details>``; its text form is the ledger's own."""

    def __init__(self, ledger: Ledger, summary: str) -> None:
        self.ledger, self.summary = ledger, summary

    def _repr_html_(self) -> str:
        return (
            f"<details class='ledger-chapter collapsed-section'><summary>"
            f"{escape(self.summary)}</summary>{ledger_html(self.ledger)}</details>"
        )

    def __repr__(self) -> str:
        return f"{self.summary}\n{ledger_text(self.ledger)}"
