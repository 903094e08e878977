"""The papers the book reproduces, in the book's order, and where each ledger is shown.

Every page, summary and test that needs a paper's citation, claim-id prefix or Reproduce
page reads it here (from each folder's ``PAPER``), never spelling it again.
"""

from __future__ import annotations

from mlcrepro.hivemall import PAPER as HIVEMALL
from mlcrepro.huellermeier2022 import PAPER as HUELLERMEIER2022
from mlcrepro.paper import Paper
from mlcrepro.park_read2018 import PAPER as PARK_READ2018
from mlcrepro.wu_zhou2017 import PAPER as WU_ZHOU2017
from mlcrepro.zhang_zhou2014 import PAPER as ZHANG_ZHOU2014

__all__ = ["PAPERS", "paper", "ledger_page", "LEDGERS"]

#: the papers in the book's order (that of the Reproduce part)
PAPERS: tuple[Paper, ...] = (
    ZHANG_ZHOU2014,
    HIVEMALL,
    HUELLERMEIER2022,
    PARK_READ2018,
    WU_ZHOU2017,
)

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
