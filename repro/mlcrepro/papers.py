"""The papers the book reproduces, in the book's order, and where each ledger is shown.

Every page, summary and test that needs a paper's citation, claim-id prefix or Reproduce
page reads it here (from each folder's ``PAPER``), never spelling it again.  A paper is
registered once: its folder is imported here and named in :data:`FOLDERS`; its claims
inventory ``book/_claims/<key>.csv`` (:mod:`mlcrepro.claims`), its ledgers, its committed
tables and its pages are then found from that entry.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from mlcrepro import hivemall, huellermeier2022, park_read2018, wu_zhou2017, zhang_zhou2014
from mlcrepro.experiment import Cells, Experiment
from mlcrepro.ledger import Ledger, load_ledgers
from mlcrepro.paper import Paper
from mlcrepro.sentences import findings_sentence, headline_sentence

__all__ = [
    "FOLDERS",
    "PAPERS",
    "paper",
    "ledger_page",
    "finding_markdown",
    "page_ledgers",
    "LEDGERS",
    "build_ledgers",
    "build_ledger",
    "experiments",
    "cells_behind",
    "table_paper",
    "pages",
]

#: the paper folders in the book's order (that of the Reproduce part): the one place a
#: paper is registered.  Each folder's contract: ``PAPER`` (its
#: :class:`~mlcrepro.paper.Paper`), ``evidence()`` and ``ledgers(evidence)`` (a paper with
#: no ledger of its own gives ``rows(evidence)``, taken in by its page's ledger as a
#: guest), and optionally ``EXPERIMENTS``, ``row_cells`` and ``LEDGER_PARTS``.
FOLDERS: tuple[ModuleType, ...] = (
    zhang_zhou2014,
    hivemall,
    huellermeier2022,
    park_read2018,
    wu_zhou2017,
)

#: the papers in the book's order, one per folder of :data:`FOLDERS`
PAPERS: tuple[Paper, ...] = tuple(m.PAPER for m in FOLDERS)

#: each paper's folder, by the paper's key
_FOLDERS: dict[str, ModuleType] = {m.PAPER.key: m for m in FOLDERS}

#: every ledger (file stem of ``book/_ledgers``) in the book's order
LEDGERS: tuple[str, ...] = tuple(group for p in PAPERS for group in p.ledgers)


def paper(key: str) -> Paper:
    """The record of the paper ``key`` (its folder name).

    >>> paper("park_read2018").citation
    'Park & Read (2018)'
    """
    for p in PAPERS:
        if p.key == key:
            return p
    raise ValueError(f"key must be one of {[p.key for p in PAPERS]}, got {key!r}")


def ledger_page(ledger: str) -> Paper:
    """The paper whose Reproduce page shows the ledger ``ledger``.

    >>> ledger_page("dependence").page_doc
    'book/reproduce_huellermeier2022'
    """
    for p in PAPERS:
        if ledger in p.ledgers:
            return p
    raise ValueError(f"ledger must be one of {list(LEDGERS)}, got {ledger!r}")


def finding_markdown(ledger: str) -> str:
    """The MyST text of a Learn chapter's note on what the reproduction found.

    The sentence counting the committed ledger ``ledger``'s rows by status and cause
    (:func:`mlcrepro.sentences.findings_sentence`), the paper's headline where it has one
    (:func:`mlcrepro.sentences.headline_sentence`), and a link to the Reproduce page that
    shows the ledger; what the book's ``reproduction-finding`` directive and the
    handouts print.

    Raises
    ------
    ValueError
        If ``ledger`` is not one of :data:`LEDGERS`.

    Examples
    --------
    >>> finding_markdown("measures").endswith("{doc}`/book/reproduce_zhang_zhou2014`.")
    True
    """
    if ledger not in LEDGERS:
        raise ValueError(f"reproduction-finding needs one of {list(LEDGERS)}, got {ledger!r}")
    rows = load_ledgers()
    sentence = findings_sentence(rows[rows["chapter"] == ledger], terms=True)
    headline = headline_sentence(rows, ledger)
    sentence = f"{sentence} {headline}" if headline else sentence
    return (
        f"{sentence} Each claim, the comparisons behind it and the cause of every "
        f"difference are on the page {{doc}}`/{ledger_page(ledger).page_doc}`."
    )


def page_ledgers(page: str) -> dict[str, tuple[str, ...]]:
    """The ledgers a page (``book/NAME.md``) shows, by the key of the paper that builds them.

    A Reproduce page shows its papers' ledgers; any other page shows none.

    >>> page_ledgers("book/reproduce_zhang_zhou2014.md")
    {'zhang_zhou2014': ('measures',)}
    >>> page_ledgers("./book/losses.md")
    {}
    """
    doc = posixpath.splitext(posixpath.normpath(str(page)))[0]
    return {p.key: p.ledgers for p in PAPERS if p.ledgers and p.page_doc == doc}


def build_ledgers(key: str) -> dict[str, Ledger]:
    """The ledgers of the paper ``key``, built from its evidence by its folder's contract.

    ``evidence()`` computes everything from the committed tables and the library;
    ``ledgers(evidence)`` adds the rows.  A paper that shares its Reproduce page and has
    no ledger of its own (Hivemall) gives its rows to the page's ledger as a guest.

    Returns
    -------
    dict
        Ledger name -> :class:`~mlcrepro.ledger.Ledger`, in the order of
        ``paper(key).ledgers``.
    """
    record = paper(key)
    if not record.ledgers:
        raise ValueError(f"{record.citation} has no ledger of its own (see {record.page!r})")
    folder = _FOLDERS[key]
    guests = [
        _FOLDERS[p.key].rows(_FOLDERS[p.key].evidence())
        for p in PAPERS
        if p.page == record.page and not p.ledgers
    ]
    if guests:
        return folder.ledgers(folder.evidence(), guests=guests)
    return folder.ledgers(folder.evidence())


def build_ledger(name: str) -> Ledger:
    """The ledger ``name`` alone, from the part of its paper's evidence it needs.

    A folder whose ledgers rest on separate parts of its evidence lists them as
    ``LEDGER_PARTS`` (ledger name -> a function building it); otherwise all of the
    paper's ledgers are built and ``name`` is taken from them.
    """
    record = ledger_page(name)
    parts = getattr(_FOLDERS[record.key], "LEDGER_PARTS", None)
    if parts is not None:
        return parts[name]()
    return build_ledgers(record.key)[name]


def experiments(key: str | None = None) -> tuple[Experiment, ...]:
    """Every committed table of the book as an :class:`~mlcrepro.experiment.Experiment`,
    paper by paper (each folder's ``EXPERIMENTS``); with ``key``, that paper's only.

    >>> [e.name for e in experiments("wu_zhou2017")][:2]
    ['limo_synthetic', 'limo_benchmark']
    """
    chosen = list(PAPERS) if key is None else [paper(key)]
    return tuple(e for p in chosen for e in getattr(_FOLDERS[p.key], "EXPERIMENTS", ()))


def cells_behind(row: Mapping[str, Any]) -> tuple[Cells, ...]:
    """The committed tables' cells a ledger row rests on: its paper folder's
    ``row_cells(row)`` (none for a folder without tables, or a row computed from the
    library alone).

    ``row`` holds at least the row's ``chapter`` (its ledger), ``source`` and either
    ``about`` (what the row is about, :attr:`mlcrepro.ledger.Entry.about`) or ``row``
    (its 1-based place in the ledger: ``about`` is then read from the ledger built
    afresh, since the saved ledgers do not keep it).  No row's wording is read.
    """
    record = ledger_page(str(row["chapter"]))
    row_cells = getattr(_FOLDERS[record.key], "row_cells", None)
    if row_cells is None:
        return ()
    if "about" not in row:
        entry = build_ledger(str(row["chapter"])).entries[int(row["row"]) - 1]
        row = {**row, "about": entry.about}
    return tuple(row_cells(row))


def table_paper(name: str) -> Paper:
    """The paper whose folder makes the committed table ``name``."""
    for p in PAPERS:
        if any(e.name == name for e in getattr(_FOLDERS[p.key], "EXPERIMENTS", ())):
            return p
    raise ValueError(f"no paper folder makes a committed table {name!r}")


#: the pages that read every paper's saved ledgers, executed after the papers' pages
SUMMARY_PAGES = ("book/intro.md", "book/ledgers.md")


def pages(table: str | None = None, key: str | None = None) -> list[str]:
    """The book's pages to execute after tables change, in an order that works.

    The Reproduce pages first (they compute the evidence from the tables and save the
    ledgers), then the Learn chapters (which draw from the tables), then the pages that
    read the saved ledgers.  With ``table``, or a paper's ``key``, only that paper's
    pages and those.

    >>> for page in pages("limo_epochs"):
    ...     print(page)
    book/reproduce_wu_zhou2017.md
    book/limo.md
    book/measures.md
    book/intro.md
    book/ledgers.md
    """
    if table is not None and key is not None:
        raise ValueError("give table or key, not both")
    chosen = (
        [table_paper(table)]
        if table is not None
        else [paper(key)]
        if key is not None
        else list(PAPERS)
    )
    out = list(dict.fromkeys(f"book/reproduce_{p.page}.md" for p in chosen))
    out += list(dict.fromkeys(f"book/{name}.md" for p in chosen for name in p.learn))
    return out + [p for p in SUMMARY_PAGES if p not in out]
